-- bench_areas.lua [FLOORS]: generates FLOORS (default 1000) floors of 80x80
-- through a Lua area generator that uses bulk calls (spec/bench/mods/bench),
-- and prints one JSON line: ms per floor, in the generator (clocked inside the
-- run), outside it (strata's own share), and the share of that time spent
-- crossing the Lua/C boundary, estimated as (C calls per floor) x (cost of a
-- call that does no work: a 0x0 fill through the same map handle).
-- Run: scripts/env lua5.4 spec/bench/bench_areas.lua [FLOORS [nogc]]
local strata = require "strata"
local floors = tonumber(arg[1]) or 1000
-- "nogc": the collector stopped while the floors are made, so that its steps
-- (which fall inside or outside the generator by chance) leave both shares alone
local gc = arg[2] == "nogc" and "stopped" or "on"
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local world = strata.world.new{ seed = 1, mods = { "base", "bench" }, mod_path = { "mods", here .. "/mods" } }

-- The generator's own time is clocked inside the run (a wrapper around its
-- function, put in the registry before the area is made): the rest of each
-- floor is strata's share, in the same heap and the same process state.
local entry = world._registry.by_type["base.area_generator"]["bench.rooms"]
local generate, clock = entry.generate_floor, os.clock
local inside = 0
entry.generate_floor = function(...)
  local t = clock()
  local m = generate(...)
  inside = inside + (clock() - t)
  return m
end
local area = world:create_area("bench.deep")
collectgarbage()
if gc == "stopped" then collectgarbage("stop") end
local t0 = os.clock()
for n = 1, floors do area:floor(n) end
local total = os.clock() - t0
local generator = inside
collectgarbage("restart")

-- one crossing that does nothing: a 0x0 fill through a map handle
local m = world:create_map{ width = 80, height = 80, fill = "rock" }
local reps = 200000
t0 = os.clock()
for _ = 1, reps do m:fill(0, 0, 0, 0, "floor") end
local per_call = (os.clock() - t0) / reps
-- calls into C per floor: the generator's own, plus create_map, add_floor and two stairs
local calls = world.data["base.handler"]:ensure("bench.calls").run() + 4

local ms = total / floors * 1000
print(('{"bench":"areas","floors":%d,"size":"80x80","gc":"%s","ms_per_floor":%.4f,"generator_ms_per_floor":%.4f,' ..
  '"outside_ms_per_floor":%.4f,"c_calls_per_floor":%d,"ns_per_crossing":%.0f,"boundary_share":%.4f}'):format(floors, gc, ms,
  generator / floors * 1000, (total - generator) / floors * 1000, calls, per_call * 1e9, calls * per_call / (total / floors)))
