-- grid_load.lua: the grid workloads (bench_gridgen's and the peers' format:
-- "W H" then rows of '.' floor and '#' wall; a .meta of "key value" lines)
-- as strata tile maps, for the Lua benchmarks (dofile'd beside them): of the
-- 5.4 module, or of the module given (strata.ffi, under LuaJIT).
local M = {}

-- The clock the benchmarks time with: luv's monotonic one, or CPU time
-- when luv is missing. -> now_ms (a function), the clock's name
function M.clock()
  local has_uv, uv = pcall(require, "luv")
  if has_uv then return function() return uv.hrtime() * 1e-6 end, "monotonic" end
  return function() return os.clock() * 1e3 end, "cpu"
end

-- The meta file's keys, and its start and goal as points.
function M.meta(path)
  local meta = {}
  for line in io.lines(path) do
    local key, rest = line:match("^(%S+)%s*(.*)$")
    if key and key:sub(1, 1) ~= "#" then meta[key] = rest end
  end
  local sx, sy = meta.start:match("(%d+)%s+(%d+)")
  local gx, gy = meta.goal:match("(%d+)%s+(%d+)")
  return meta, { tonumber(sx), tonumber(sy) }, { tonumber(gx), tonumber(gy) }
end

-- The map: floor, then each run of walls of a row in one fill. -> map, w, h
function M.map(path, strata)
  strata = strata or require "strata"
  local f = assert(io.open(path))
  local w, h = f:read("n", "n")
  f:read("l")
  local m = strata.tilemap.new{ width = w, height = h, fill = "floor",
                                tokens = { wall = { passable = false } } }
  for y = 0, h - 1 do
    local row = f:read("l")
    local x = 1
    while true do
      local a, b = row:find("#+", x)
      if not a then break end
      m:fill(a - 1, y, b - a + 1, 1, "wall")
      x = b + 1
    end
  end
  f:close()
  return m, w, h
end

return M
