-- strata.ffi.fov: map:fov and visibility sets, strata.line and strata.circle,
-- as the 5.4 module has them (docs/lua-api.md, "Field of view"), over
-- strata/fov.h and strata/bresenham.h. A set is the core's strata_fov_set
-- (ffi.metatype), freed when collected.
local base = require "strata.ffi.base"
local ffi, lib = base.ffi, base.lib
local raise, int = base.raise, base.int

local Set = {}

-- set:visible(x, y) -> boolean (false outside the map)
function Set:visible(x, y)
  int("fov:visible", x, "argument #1")
  int("fov:visible", y, "argument #2")
  return x >= 0 and y >= 0 and x <= 0x7fffffff and y <= 0x7fffffff and lib.strata_fov_set_visible(self, x, y) ~= 0
end

function Set:count() return tonumber(lib.strata_fov_set_count(self)) end

-- set:cells() -> an iterator of x, y in row order
function Set:cells()
  local cursor, x, y = ffi.new("uint64_t[1]"), ffi.new("int[1]"), ffi.new("int[1]")
  return function()
    if lib.strata_fov_set_next(self, cursor, x, y) == 0 then return nil end
    return x[0], y[0]
  end
end

-- set:add(other) -> set, other's cells added (sets of maps of one size)
function Set:add(other)
  if not ffi.istype("strata_fov_set *", other) then raise("fov:add", "argument #1: a visibility set expected") end
  local err = base.err()
  if lib.strata_fov_set_add(self, other, err) ~= 0 then return base.fail("fov:add", err) end
  return self
end

ffi.metatype("strata_fov_set", {
  __index = Set,
  __tostring = function(s)
    return ("strata.fov %d cells of a %dx%d map"):format(tonumber(lib.strata_fov_set_count(s)),
      lib.strata_fov_set_width(s), lib.strata_fov_set_height(s))
  end,
})

local FOV = { "radius", "algorithm", "light_walls", "into" }

-- map:fov(x, y, { radius =, algorithm =, light_walls =, into = }) -> a set | nil, reason
local function map_fov(self, x, y, opts)
  local name = "map:fov"
  local p = base.map_ptr(name, self)
  int(name, x, "argument #1")
  int(name, y, "argument #2")
  opts = base.options(name, opts, FOV)
  local o = ffi.new("strata_fov_options")
  lib.strata_fov_options_init(o)
  local r = opts.radius
  if r ~= nil then
    if not base.integer(r) or r < 0 or r > 0x3fffffff then
      raise(name, "radius must be 0 (unlimited) or more, got %s", tostring(r))
    end
    o.radius = r
  end
  if opts.algorithm ~= nil then
    o.algorithm = base.enum(name, opts.algorithm, lib.strata_fov_algorithm_parse, "strata_fov_algorithm",
      "unknown algorithm '%s' (known: symmetric, permissive, basic)")
  end
  if opts.light_walls ~= nil then o.light_walls = opts.light_walls and 1 or 0 end
  local out = opts.into
  if out ~= nil and not ffi.istype("strata_fov_set *", out) then
    raise(name, "option 'into' must be a visibility set (map:fov's)")
  end
  local err = base.err()
  if out == nil then
    out = lib.strata_fov_set_new(err)
    if out == nil then return base.fail(name, err) end
    out = ffi.gc(out, lib.strata_fov_set_free)
  end
  if lib.strata_tilemap_fov(p, x, y, o, out, err) ~= 0 then return base.fail(name, err) end
  return out
end

-- strata.line(x0, y0, x1, y1) -> an iterator of x, y, both ends included
local function line(x0, y0, x1, y1)
  for i, v in ipairs { x0, y0, x1, y1 } do int("strata.line", v, "argument #" .. i) end
  local l, x, y = ffi.new("strata_line"), ffi.new("int[1]"), ffi.new("int[1]")
  lib.strata_line_init(l, x0, y0, x1, y1)
  return function()
    if lib.strata_line_next(l, x, y) == 0 then return nil end
    return x[0], y[0]
  end
end

-- strata.circle(x, y, r) -> an iterator of x, y on the circle, clockwise from the top
local function circle(cx, cy, r)
  int("strata.circle", cx, "argument #1")
  int("strata.circle", cy, "argument #2")
  int("strata.circle", r, "argument #3")
  if r < 0 or r > 65535 then raise("strata.circle", "argument #3: radius must be 0 to 65535") end
  local n = tonumber(lib.strata_circle(r, nil, nil, 0))
  local dx, dy = ffi.new("int[?]", n), ffi.new("int[?]", n)
  lib.strata_circle(r, dx, dy, n)
  local i = -1
  return function()
    i = i + 1
    if i >= n then return nil end
    return cx + dx[i], cy + dy[i]
  end
end

return function(M)
  base.Map.fov = map_fov
  M.line, M.circle = line, circle
  M.fov = { is = function(v) return ffi.istype("strata_fov_set *", v) end }
end
