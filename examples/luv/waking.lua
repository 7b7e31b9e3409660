-- Event-driven waking: world:run_realtime arms one timer of luv's loop for
-- the clock's time at which the world's next timer is due (world:next_due,
-- through the scale) and advances the world only then: no poll. The bell
-- rings at world times 1, 2.5 and 4; the run stops at 5.
--
--   strata run examples/luv/waking.lua
--
-- A host passes an options table instead ({ clock =, print = }):
-- spec/luv_examples_spec.lua gives a fake clock it moves by hand.
local strata, uv = require "strata", require "luv"
local given = ... -- the host's options, or under `strata run` the command line's
local opts = type(given) == "table" and given or {}
local say, here = opts.print or print, debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."

local world = strata.world.new{ seed = 1, mods = { "bell" }, mod_path = { here .. "/mods" } }
local bell = world:create_object{ kind = "bell" }
for _, after in ipairs{ 1, 2.5, 4 } do
  world:schedule{ after = after, handler = "bell.ring", args = { bell = bell, who = "waking" } }
end

local run
run = world:run_realtime{ loop = uv, clock = opts.clock, scale = 4, until_time = 5,
  on_advance = function(w)
    local due = w:next_due()
    say(("woke at world time %g: rings so far %d, next due %s"):format(w.time, #bell.state,
      due and ("%g"):format(due) or "none"))
  end,
  on_stop = function(w, why)
    say(("stopped (%s) at world time %g after %d advances"):format(why, w.time, run.advances))
  end }

return { world = world, run = run, bell = bell }
