-- bench_ffi_grid.lua MAP META ALGO CONN [MIN_TIME_S]: grid pathfinding as a
-- LuaJIT game sees it through strata.ffi (run with luajit). The same
-- workload as bench_grid and bench_lua_grid.lua: loads MAP into a tile map,
-- then times m:find_path(start, goal, options) repeatedly, the path value it
-- returns included, for at least MIN_TIME_S seconds (and 3 runs;
-- wall-clock time from luv's monotonic clock, or CPU time without luv);
-- checks the path's cost against META's optimum and prints one JSON line in
-- bench_grid's format, peer "strata-ffi". scripts/bench --ffi runs it in
-- pairs beside bench_grid (docs/benchmarks.md, "strata.ffi").
-- Run: LUA_PATH="lua/?.lua;;" STRATA_FFI_LIB=build/libstrata.so luajit spec/bench/bench_ffi_grid.lua MAP META ALGO CONN
local strata = require "strata.ffi"


local map_path, meta_path, algo, conn, min_time = arg[1], arg[2], arg[3], arg[4], tonumber(arg[5] or "1")
assert(map_path and meta_path and algo and conn, "usage: bench_ffi_grid.lua MAP META ALGO CONN [MIN_TIME_S]")

local grid = dofile((arg[0]:match("^(.*/)") or "./") .. "grid_load.lua")
local now_ms, clock = grid.clock()
local meta, from, to = grid.meta(meta_path)
local opt = tonumber(conn == "4" and meta.opt4 or conn == "8" and meta.opt8 or meta.opt8s)
local m, w, h = grid.map(map_path, strata)
local options = { algorithm = algo, connectivity = conn == "4" and 4 or 8,
                  diagonal_cost = conn == "8" and 1 or math.sqrt(2), threads = 1 }

-- The first search sizes the workspace (setup), as in bench_grid.
local p = assert(m:find_path(from, to, options))
local times, started = {}, now_ms()
while #times < 3 or (now_ms() - started < min_time * 1e3 and #times < 100000) do
  local t0 = now_ms()
  p = m:find_path(from, to, options)
  times[#times + 1] = now_ms() - t0
end
table.sort(times)
local ms = times[math.floor(#times / 2) + 1]

local optimal = math.abs(p.cost - opt) < 1e-6 * math.max(opt, 1)
local name = map_path:match("([^/]*)%.map$") or map_path
print(string.format('{"peer":"strata-ffi","version":"%s","bench":"path","algo":"%s","conn":"%s",'
  .. '"map":"%s","type":"%s","w":%d,"h":%d,"threads":1,"runs":%d,"clock":"%s","median_ms":%.6f,'
  .. '"found":true,"steps":%d,"cost":%.6f,"opt":%.6f,"optimal":%s,"status":"ok"}',
  strata.version, algo, conn, name, meta.type or "", w, h, #times, clock, ms, #p - 1, p.cost, opt, tostring(optimal)))
os.exit(optimal and 0 or 1)
