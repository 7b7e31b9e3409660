-- strata.ffi.distmap: map:distance_map and its fields, as the 5.4 module has
-- them (docs/lua-api.md, "Distance maps"), over strata/distmap.h. A field
-- holds the core's strata_distmap (freed when collected) and its map, which
-- field:update reads again (a closed or deleted map is refused).
local base = require "strata.ffi.base"
local ffi, lib = base.ffi, base.lib
local raise, int = base.raise, base.int

local Field = {}
local field_mt = {}

local function new_field(name, map)
  local err = base.err()
  local d = lib.strata_distmap_new(err)
  if d == nil then return nil, err end
  return setmetatable({ _d = ffi.gc(d, lib.strata_distmap_free), _map = map }, field_mt)
end

-- The goal cells (y * w + x) of goals: a list of points (or, on a world's
-- map, what base.goal_cell makes of a value: an object's cell); { token = }
-- (a name or a list of names: every cell holding one); a function(x, y).
local function goal_cells(name, map, p, goals)
  local w, h = lib.strata_tilemap_width(p), lib.strata_tilemap_height(p)
  local cells = {}
  if type(goals) == "function" then
    for y = 0, h - 1 do
      for x = 0, w - 1 do
        if goals(x, y) then cells[#cells + 1] = y * w + x end
      end
    end
    return cells
  end
  if type(goals) ~= "table" then raise(name, "argument #1: goals must be a list of points, { token = } or a function(x, y)") end
  local token = rawget(goals, "token")
  if token ~= nil then
    base.options(name, goals, { "token" })
    local names = type(token) == "table" and token or { token }
    if #names > 64 then raise(name, "goal token must be a name or a list of at most 64 names") end
    local want, tokens = {}, lib.strata_tilemap_tokens(p)
    for _, n in ipairs(names) do
      if type(n) ~= "string" then raise(name, "goal token must be a name or a list of at most 64 names") end
      local id = lib.strata_tokens_find(tokens, n, #n)
      if id ~= 0 then want[#want + 1] = id end -- (a name never seen: nothing holds it)
    end
    for y = 0, h - 1 do
      for x = 0, w - 1 do
        for _, id in ipairs(want) do
          if lib.strata_tilemap_has(p, x, y, id) ~= 0 then cells[#cells + 1] = y * w + x break end
        end
      end
    end
    return cells
  end
  for i = 1, #goals do
    local v = rawget(goals, i)
    local x, y
    if base.goal_cell then x, y = base.goal_cell(map, v) end
    if x == nil then x, y = base.point(name, v, "goal " .. i) end
    if x < 0 or y < 0 or x >= w or y >= h then raise(name, "goal %d (%d, %d) is outside the %dx%d map", i, x, y, w, h) end
    cells[#cells + 1] = y * w + x
  end
  return cells
end

local DISTANCE_MAP = { "connectivity", "diagonal_cost", "max_cost", "occupied" }

-- map:distance_map(goals, { connectivity =, diagonal_cost =, max_cost =, occupied = }) -> field | nil, reason
local function distance_map(self, goals, opts)
  local name = "map:distance_map"
  base.map_ptr(name, self)
  opts = base.options(name, opts, DISTANCE_MAP)
  local o = ffi.new("strata_distmap_options")
  lib.strata_distmap_options_init(o)
  for _, k in ipairs { "connectivity", "diagonal_cost", "max_cost" } do
    if opts[k] ~= nil then
      if type(opts[k]) ~= "number" then raise(name, "option '%s' must be a number", k) end
      o[k] = opts[k]
    end
  end
  base.occupied(name, opts.occupied, o)
  local cells = goal_cells(name, self, base.map_ptr(name, self), goals)
  local p = base.map_ptr(name, self) -- (a goal function may have closed it)
  local field, err = new_field(name, self)
  if not field then return base.fail(name, err) end
  local arr = ffi.new("uint32_t[?]", #cells + 1)
  for i, c in ipairs(cells) do arr[i - 1] = c end
  err = base.err()
  if lib.strata_distmap_compute(field._d, p, arr, #cells, o, err) ~= 0 then return base.fail(name, err) end
  return field
end

local function cell(name, d, x, y)
  int(name, x, "argument #1")
  int(name, y, "argument #2")
  local w, h = lib.strata_distmap_width(d), lib.strata_distmap_height(d)
  if x < 0 or y < 0 or x >= w or y >= h then raise(name, "cell (%d, %d) is outside the %dx%d map", x, y, w, h) end
end

-- field:at(x, y) -> the distance, or nil when unreached
function Field:at(x, y)
  local d = rawget(self, "_d")
  cell("distmap:at", d, x, y)
  local dist = ffi.new("double[1]")
  if lib.strata_distmap_at(d, x, y, dist) == 0 then return nil end
  return dist[0]
end

-- field:step_down(x, y) -> x, y of the neighbour to step to, or nil
function Field:step_down(x, y)
  local d = rawget(self, "_d")
  cell("distmap:step_down", d, x, y)
  local nx, ny = ffi.new("int[1]"), ffi.new("int[1]")
  if lib.strata_distmap_step_down(d, x, y, nx, ny) == 0 then return nil end
  return nx[0], ny[0]
end

-- field:flee([factor = 1.2]) -> a new field, the safety map | nil, reason
function Field:flee(factor)
  local name = "distmap:flee"
  if factor == nil then factor = 1.2 end
  if type(factor) ~= "number" then raise(name, "argument #1: number expected, got %s", type(factor)) end
  local field, err = new_field(name, rawget(self, "_map"))
  if not field then return base.fail(name, err) end
  err = base.err()
  if lib.strata_distmap_flee(field._d, rawget(self, "_d"), factor, err) ~= 0 then return base.fail(name, err) end
  return field
end

-- field:update() -> the field, up to date with its map's edits | nil, reason
function Field:update()
  local name = "distmap:update"
  local p = base.map_ptr(name, rawget(self, "_map"))
  local err = base.err()
  if lib.strata_distmap_update(rawget(self, "_d"), p, err) ~= 0 then return base.fail(name, err) end
  return self
end

field_mt.__index = function(self, k)
  if k == "width" then return lib.strata_distmap_width(rawget(self, "_d")) end
  if k == "height" then return lib.strata_distmap_height(rawget(self, "_d")) end
  return Field[k]
end
field_mt.__newindex = function(_, k) raise("distmap", "cannot set field '%s'", tostring(k)) end
field_mt.__tostring = function(self)
  local d = rawget(self, "_d")
  return ("strata.distmap %dx%d"):format(lib.strata_distmap_width(d), lib.strata_distmap_height(d))
end

return function(M)
  base.Map.distance_map = distance_map
  M.distmap = { is = function(v) return getmetatable(v) == field_mt end }
end
