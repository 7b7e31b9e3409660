-- Hot reload: a luv file event on a mod's folder runs strata.reload, which
-- re-runs the mod in the live world: the next ring uses the new handler.
-- A reload that fails changes nothing and is reported; the world goes on.
-- (`strata run --watch` does this for every mod of a script's worlds.)
--
--   strata run examples/luv/hot_reload.lua   # then edit mods/bell/init.lua: "ding" to "dong"
--
-- A host passes an options table instead ({ clock =, mod_path =, print = }):
-- spec/luv_examples_spec.lua gives a copy of the mod and a fake clock.
local strata, uv = require "strata", require "luv"
local given = ... -- the host's options, or under `strata run` the command line's
local opts = type(given) == "table" and given or {}
local say, here = opts.print or print, debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local mods = opts.mod_path or here .. "/mods"

local world = strata.world.new{ seed = 1, mods = { "bell" }, mod_path = { mods } }
local bell = world:create_object{ kind = "bell" }
world:schedule{ after = 2, every = 2, handler = "bell.ring", args = { bell = bell, who = "clock tower" } }
local run = world:run_realtime{ loop = uv, clock = opts.clock,
  on_advance = function() say(bell.state[#bell.state].sound) end }

-- An editor's save comes as several events (truncate, write, rename): the
-- reload waits until they have stopped for 100 ms.
local quiet = uv.new_timer()
local watcher = uv.new_fs_event()
watcher:start(mods .. "/bell", {}, function(err)
  if err then return say("watching " .. mods .. "/bell: " .. err) end
  quiet:start(100, 0, function()
    local ok, why = pcall(strata.reload, { "bell", world = world })
    say(ok and "reloaded bell" or "reload failed, the world goes on as it was: " .. tostring(why))
  end)
end)

return { world = world, run = run, bell = bell, watcher = watcher }
