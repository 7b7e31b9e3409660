-- bench_branches.lua [ROOMS]: generates ROOMS (default 10000) rooms in one
-- dungeon branch through a Lua room generator (bench.cell_room in
-- spec/bench/mods/bench), each by world:go through an unexplored exit, and
-- prints one JSON line: ms per room, the generator's own time per room (the
-- same generator run alone as often) and the rest: what strata spends per
-- room outside the generator (goal: at most 50 us), and the time per room of
-- the core's bookkeeping alone (the C growth, called directly).
-- Run: scripts/env lua5.4 spec/bench/bench_branches.lua
local strata = require "strata"
local rooms = tonumber(arg[1]) or 10000
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local world = strata.world.new{ seed = 1, mods = { "base", "bench" }, mod_path = { "mods", here .. "/mods" } }
local hub = world:create_room{ name = "Hub" }
world.branches:make_start(hub, { north = "bench.sprawl" })
local hero = world:create_actor{ room = hub }

-- The walk: to a room with an unexplored exit (not timed), through it (timed).
local open, pick = {}, 12345
local function add_exits(r)
  for _, e in ipairs(r:exits()) do if e.to == nil then open[#open + 1] = e end end
end
collectgarbage()
local timed = 0
local t0 = os.clock()
assert(world:go(hero, "north"))
timed = os.clock() - t0
add_exits(hero.room)
local made = 1
while made < rooms and #open > 0 do
  pick = (pick * 1103515245 + 12345) % 2147483648
  local i = (pick % 4 == 0) and (pick % #open + 1) or #open
  local e = open[i]
  open[i] = open[#open]
  open[#open] = nil
  if e.to == nil then
    hero.room = e.from
    local t = os.clock()
    local ok, why = world:go(hero, e.name)
    timed = timed + (os.clock() - t)
    assert(ok, why)
    made = made + 1
    add_exits(hero.room)
  end
end
local branch = hero.room.branch
assert(branch:check())

-- the same generator alone, as many times
local gen = world.data["base.room_generator"]:ensure("bench.cell_room")
local rng = world.rng:stream("scratch")
local ctx = { world = world, rng = rng, branch = branch, depth = 0, coords = { x = 0, y = 0 } }
t0 = os.clock()
for n = 1, made do
  ctx.coords.x, ctx.coords.y, ctx.depth = n, -n, n
  gen.generate(ctx)
end
local generator = os.clock() - t0

-- The core's part alone: as many rooms grown by the C bookkeeping directly
-- (strata_branch_grow through the binding, a fixed spec, the same walk), no
-- generator, events or Lua layer.
local s = world._s
local hub2 = s:room_create("Hub 2", "")
local start2 = s:branch_make_start(hub2, "north", "bench.sprawl")
local b2 = s:branch_create(hub2, "bench.sprawl", { "north", "northeast", "east", "southeast", "south", "southwest",
  "west", "northwest" }, 100, 4)
local grng = require("strata.core").rng.new(7)
local open2, core_made = {}, 0
local function grow(e)
  local r = s:branch_grow(b2, e, "Cave", "Damp.", true, grng)
  core_made = core_made + 1
  for _, x in ipairs(s:room_exits(r)) do if not select(2, s:exit_info(x)) then open2[#open2 + 1] = x end end
end
local core_time = 0
t0 = os.clock()
grow(start2)
core_time = os.clock() - t0
while core_made < made and #open2 > 0 do
  pick = (pick * 1103515245 + 12345) % 2147483648
  local i = (pick % 4 == 0) and (pick % #open2 + 1) or #open2
  local e = open2[i]
  open2[i] = open2[#open2]
  open2[#open2] = nil
  if not select(2, s:exit_info(e)) then
    local t = os.clock()
    grow(e)
    core_time = core_time + (os.clock() - t)
  end
end

local us = timed / made * 1e6
local gen_us = generator / made * 1e6
print(('{"bench":"branches","rooms":%d,"ms_per_room":%.4f,"generator_us_per_room":%.2f,' ..
  '"outside_generator_us_per_room":%.2f,"outside_share":%.3f,"core_us_per_room":%.2f,"unexplored_left":%d}'):format(
  made, us / 1000, gen_us, us - gen_us, (us - gen_us) / us, core_time / core_made * 1e6, branch.unexplored))
