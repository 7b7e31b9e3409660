-- bench_schema.lua [AREAS [FLOORS [CALLS [all]]]]: the bookkeeping at scale. A
-- world of AREAS areas (default 100000) of FLOORS floors each (default 10; 4x4
-- maps attached with area:add_floor, no generator), one of them a unique area;
-- then the time per call, through the Lua API, of
--   floor    area:floor(n) of a floor that exists
--   area_of  world:area_of(map)
--   unique   world:find_unique(id)
--   travel   world:travel(actor, map, { x =, y = })
--   stairs   world:travel(actor, stairs): down a floor, arriving by the stairs
--            leading back (found on the new floor among its objects)
--   entrance world:travel(actor, entrance): into another area, arriving by
--            its first floor's stairs up
-- each the median of 5 batches of CALLS calls (default 20000; stairs and
-- entrance CALLS/20, which scanned every object before the index by map), on random
-- floors of 1,000 areas spread evenly over the world (what a game touches at
-- a time), or with "all" of any area (then the memory caches miss more as the
-- world grows, whatever the algorithm). Prints one JSON line, with the time
-- the world took to build and the process's peak memory. Per call, these
-- should not grow with AREAS (issue 30: at most 1.5x from 1,000 to 100,000
-- areas). A benchmark, never a test.
-- Run: scripts/env lua5.4 spec/bench/bench_schema.lua [AREAS [FLOORS [CALLS [all]]]]
local strata = require "strata"
local areas = tonumber(arg[1]) or 100000
local floors = tonumber(arg[2]) or 10
local calls = tonumber(arg[3]) or 20000
local spread = arg[4] == "all" and "all" or "1000"
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local world = strata.world.new{ seed = 1, mods = { "base", "bench" }, mod_path = { "mods", here .. "/mods" } }
local clock = os.clock

local t0 = clock()
local list, maps = {}, {}
local function fill(a)
  for n = 1, floors do
    local m = world:create_map{ width = 4, height = 4 }
    a:add_floor(m, n)
    maps[#maps + 1] = m
  end
  list[#list + 1] = a
end
fill(world:unique_area("bench.landmark"))
for _ = 2, areas do fill(world:create_area("bench.flat")) end
local build_s = clock() - t0
if spread ~= "all" then -- every k-th area and its floors
  local k = math.max(1, #list // 1000)
  local l2, m2 = {}, {}
  for i = 1, #list, k do
    l2[#l2 + 1] = list[i]
    for n = 1, floors do m2[#m2 + 1] = maps[(i - 1) * floors + n] end
  end
  list, maps = l2, m2
end
collectgarbage()

-- a fixed pseudo-random sequence (the same picks in every run)
local seed = 12345
local function pick(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end

local function median(t)
  table.sort(t)
  return t[(#t + 1) // 2]
end

-- ns per call of body(i), the median of 5 batches
local function time(body)
  local batches = {}
  for b = 1, 5 do
    local args = {}
    for i = 1, calls do args[i] = pick(1 << 30) end
    local s = clock()
    for i = 1, calls do body(args[i]) end
    batches[b] = (clock() - s) / calls * 1e9
  end
  return median(batches)
end

local out = {}
out.floor = time(function(r) local a = list[r % #list + 1] assert(a:floor(r % floors + 1)) end)
out.area_of = time(function(r) assert(world:area_of(maps[r % #maps + 1])) end)
out.unique = time(function() assert(world:find_unique("bench.landmark")) end)
local hero = world:create_actor{ player = true }
out.travel = time(function(r) assert(world:travel(hero, maps[r % #maps + 1], { x = 1, y = 1 })) end)
-- Stairs on every floor of the touched areas (down at 1,1, up at 2,2) and an
-- entrance on each first floor into the next touched area.
local downs, entrances = {}, {}
for i, a in ipairs(list) do
  for n = 1, floors do
    local m = a:floor(n)
    if n < floors then downs[#downs + 1] = world:create_stairs(m, 1, 1, { floor_delta = 1 }) end
    if n > 1 then world:create_stairs(m, 2, 2, { floor_delta = -1 }) end
  end
  entrances[#entrances + 1] = world:create_entrance(a:floor(1), 3, 3, list[i % #list + 1], { floor = 2 })
end
calls = math.max(1, calls // 20)
out.stairs = time(function(r) assert(world:travel(hero, downs[r % #downs + 1])) end)
out.entrance = time(function(r) assert(world:travel(hero, entrances[r % #entrances + 1])) end)

local peak_kb = 0
local f = io.open("/proc/self/status")
if f then
  peak_kb = tonumber(f:read("a"):match("VmHWM:%s*(%d+)")) or 0
  f:close()
end
print(('{"bench":"schema","areas":%d,"floors":%d,"calls":%d,"spread":"%s","build_s":%.2f,"peak_mb":%d,' ..
  '"floor_ns":%.0f,"area_of_ns":%.0f,"find_unique_ns":%.0f,"travel_ns":%.0f,"stairs_ns":%.0f,"entrance_ns":%.0f}'):format(
  areas, floors, tonumber(arg[3]) or 20000, spread, build_s, peak_kb // 1024, out.floor, out.area_of, out.unique,
  out.travel, out.stairs, out.entrance))
