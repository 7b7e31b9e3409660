-- bench_path_callback.lua PAIRS MAP META [MAP META ...]: a search with a Lua
-- cost function (map:find_path{ cost = function(x, y, c) return c end })
-- against the same search on the token costs, in PAIRS alternating rounds
-- per map and algorithm (A* and Dijkstra, 8 neighbours, diagonal sqrt 2):
-- each round times, in turn, the token search as the engine table answers
-- it (its best engine), the token search on the generic engine (the engine
-- a cost function takes: forced with occupied = 0, which adds nothing), and
-- the search with the cost function; each time the median of repeated
-- searches over at least 0.2 s. Prints per row the medians of the rounds'
-- ratios with their range, and the load average before and after; checks
-- that the three routes cost the same. Maps as bench_gridgen writes them.
-- Run: scripts/env lua5.4 spec/bench/bench_path_callback.lua 5 open.map open.meta ...
local strata = require "strata"

local has_uv, uv = pcall(require, "luv")
local function now_ms()
  if has_uv then return uv.hrtime() * 1e-6 end
  return os.clock() * 1e3
end

local pairs_n = tonumber(arg[1])
assert(pairs_n and arg[2] and arg[3], "usage: bench_path_callback.lua PAIRS MAP META [MAP META ...]")

local function loadavg()
  local f = io.open("/proc/loadavg")
  if not f then return "?" end
  local l = f:read("l")
  f:close()
  return l:match("^(%S+ %S+ %S+)")
end

local grid = dofile((arg[0]:match("^(.*/)") or "./") .. "grid_load.lua")

local function median(t)
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  table.sort(c)
  return c[#c // 2 + 1]
end

-- The median time of a search repeated over at least 0.2 s (3 runs at least).
local function time(m, from, to, opts)
  local times, started, p = {}, now_ms(), nil
  while #times < 3 or now_ms() - started < 200 do
    local t0 = now_ms()
    p = m:find_path(from, to, opts)
    times[#times + 1] = now_ms() - t0
  end
  return median(times), p
end

local function same(_, _, c) return c end

print(("load average before: %s (%s clock)"):format(loadavg(), has_uv and "monotonic" or "CPU"))
print("| map | algorithm | tokens, best engine | tokens, generic | cost function | ÷ best | ÷ generic |")
print("|---|---|---:|---:|---:|---:|---:|")
for i = 2, #arg, 2 do
  local _, from, to = grid.meta(arg[i + 1])
  local m = grid.map(arg[i])
  local name = arg[i]:match("([^/]*)%.map$")
  for _, algo in ipairs{ "astar", "dijkstra" } do
    local best = { algorithm = algo, connectivity = 8, threads = 1 }
    local generic = { algorithm = algo, connectivity = 8, threads = 1, occupied = 0 }
    local callback = { algorithm = algo, connectivity = 8, threads = 1, cost = same }
    for _, o in ipairs{ best, generic, callback } do m:find_path(from, to, o) end -- workspaces made
    local tb, tg, tc, rb, rg = {}, {}, {}, {}, {}
    for r = 1, pairs_n do
      local b, pb = time(m, from, to, best)
      local g, pg = time(m, from, to, generic)
      local c, pc = time(m, from, to, callback)
      assert(pb and pg and pc and math.abs(pb.cost - pc.cost) < 1e-6 and math.abs(pg.cost - pc.cost) < 1e-6,
        "the three searches found routes of different costs")
      tb[r], tg[r], tc[r], rb[r], rg[r] = b, g, c, c / b, c / g
    end
    local function range(t)
      local lo, hi = math.huge, 0
      for _, v in ipairs(t) do lo, hi = math.min(lo, v), math.max(hi, v) end
      return ("%.2f× (%.2f–%.2f)"):format(median(t), lo, hi)
    end
    print(("| %s | %s | %.2f ms | %.2f ms | %.2f ms | %s | %s |"):format(name, algo, median(tb), median(tg),
      median(tc), range(rb), range(rg)))
  end
  m:close()
end
print(("load average after: %s; %d alternating rounds per row"):format(loadavg(), pairs_n))
