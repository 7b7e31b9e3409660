-- bench_lua_grid.lua MAP META ALGO CONN [MIN_TIME_S [THREADS]]: grid pathfinding as a
-- Lua game sees it. Loads MAP (the format of bench_grid and the peers'
-- gen_grid.py: "W H" then rows of '.' and '#') into a strata tile map, then
-- times m:find_path(start, goal, options) repeatedly, the path value it
-- returns included, for at least MIN_TIME_S seconds (and
-- 3 runs; wall-clock time from luv's monotonic clock, as bench_grid and
-- libtcod's benchmark measure, or CPU time when luv is missing); ALGO is
-- astar, dijkstra, bfs or greedy, CONN 4, 8 (diagonal 1) or
-- 8s (diagonal sqrt 2); THREADS the find_path option (1 or 2, default 2). Checks the path (legal moves from start to goal, its
-- cost recomputed here against META's optimum) and prints one JSON line in
-- the format of bench_grid's, peer "strata-lua", plus the median time of
-- turning the path into the table form (p:table()) as find_path returned
-- it before it returned path values.
-- Run: scripts/env lua5.4 spec/bench/bench_lua_grid.lua MAP META ALGO CONN
local strata = require "strata"


local map_path, meta_path, algo, conn, min_time = arg[1], arg[2], arg[3], arg[4], tonumber(arg[5] or "1")
local threads = tonumber(arg[6] or "2")
assert(map_path and meta_path and algo and conn, "usage: bench_lua_grid.lua MAP META ALGO CONN [MIN_TIME_S [THREADS]]")

local grid = dofile((arg[0]:match("^(.*/)") or "./") .. "grid_load.lua")
local now_ms, clock = grid.clock()
local meta, from, to = grid.meta(meta_path)
local sx, sy, gx, gy = from[1], from[2], to[1], to[2]
local opt = tonumber(conn == "4" and meta.opt4 or conn == "8" and meta.opt8 or meta.opt8s)
local m, w, h = grid.map(map_path)

local options = { algorithm = algo, connectivity = conn == "4" and 4 or 8,
                  diagonal_cost = conn == "8" and 1 or math.sqrt(2), threads = threads }

local function median(t)
  table.sort(t)
  return t[#t // 2 + 1]
end

-- The first search sizes the workspace (setup), as in bench_grid.
local p = assert(m:find_path(from, to, options))
local times, started = {}, now_ms()
while #times < 3 or (now_ms() - started < min_time * 1e3 and #times < 100000) do
  local t0 = now_ms()
  p = m:find_path(from, to, options)
  times[#times + 1] = now_ms() - t0
end
local ms = median(times)

-- What the table form costs on top (the find_path of before returned it).
local ttimes, tstarted = {}, now_ms()
while #ttimes < 3 or (now_ms() - tstarted < min_time * 250 and #ttimes < 100000) do
  local t0 = now_ms()
  local _ = p:table()
  ttimes[#ttimes + 1] = now_ms() - t0
end

-- Check the path from scratch.
local valid, why, orth, diag = true, "", 0, 0
local x0, y0 = p:xy(1)
local xe, ye = p:xy(#p)
if x0 ~= sx or y0 ~= sy or xe ~= gx or ye ~= gy then valid, why = false, "wrong endpoints" end
local px, py
for _, x, y in p:cells() do
  if not m:passable(x, y) then valid, why = false, "impassable cell on path" end
  if px then
    local dx, dy = math.abs(x - px), math.abs(y - py)
    if dx > 1 or dy > 1 or dx + dy == 0 then valid, why = false, "not a move"
    elseif dx + dy == 2 and conn == "4" then valid, why = false, "diagonal in 4-connectivity"
    elseif dx + dy == 2 then diag = diag + 1
    else orth = orth + 1 end
  end
  px, py = x, y
end
local cost = conn == "8s" and orth + diag * math.sqrt(2) or orth + diag
local optimal = valid and math.abs(cost - opt) < 1e-6 * math.max(opt, 1)
local name = map_path:match("([^/]*)%.map$") or map_path
print(string.format('{"peer":"strata-lua","version":"%s","bench":"path","algo":"%s","conn":"%s",'
  .. '"map":"%s","type":"%s","w":%d,"h":%d,"threads":%d,"runs":%d,"clock":"%s","median_ms":%.6f,"table_ms":%.6f,'
  .. '"found":true,"valid":%s,"why":"%s","steps":%d,"cost":%.6f,"opt":%.6f,"optimal":%s,'
  .. '"status":"ok"}',
  strata.version, algo, conn, name, meta.type or "", w, h, threads, #times, clock, ms, median(ttimes),
  tostring(valid), why, orth + diag, cost, opt, tostring(optimal)))
os.exit(valid and 0 or 1)
