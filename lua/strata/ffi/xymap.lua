-- strata.ffi.xymap: maps drawn in the XY map language (Evennia's XYZGrid
-- maps, docs/xy-maps.md) over strata/xymap.h: parse (with a legend), nodes,
-- exits, routes, views, as the 5.4 module's strata.xymap (docs/lua-api.md,
-- "XY maps"). A map is the core's strata_xymap (ffi.metatype), freed when
-- collected or by xy:close(). Legend entries that are IDs (base.legend) are
-- a world's: base.legend_entry, when the world part sets it, resolves one.
local base = require "strata.ffi.base"
local ffi, lib = base.ffi, base.lib
local raise = base.raise

ffi.cdef [[ typedef struct strata_ffi_xymap { strata_xymap *map; } strata_ffi_xymap; ]]
local xy_type = ffi.typeof("strata_ffi_xymap")

local LEGEND = { "kind", "display", "weight", "weights", "directions", "aliases", "interrupt",
  "average", "target", "spawn_aliases", "prototype" }

local function direction(name, field, key)
  local d = type(key) == "string" and lib.strata_xy_direction(key) or -1
  if d < 0 then
    raise(name, "legend field '%s' has a key that is not a direction (n, ne, e, se, s, sw, w, nw)", field)
  end
  return d
end

-- Fills lg (strata_xy_legend) from the legend entry e of symbol key.
local function legend_entry(name, key, e, lg)
  e = base.options(name, e, LEGEND)
  local k = type(e.kind) == "string" and lib.strata_xy_kind_parse(e.kind) or -1
  if k < 0 then
    raise(name, "legend entry '%s' needs a known kind (node, interrupt_node, transition, ns, ew, nesw, senw, "
      .. "plus, cross, oneway_n/e/s/w, router, up, down, blocked, interrupt_link, teleporter, link), got %s",
      key, tostring(e.kind or "none"))
  end
  lib.strata_xy_legend_default(k, key:byte(), lg)
  if e.display ~= nil then
    if type(e.display) ~= "string" or #e.display >= 16 then raise(name, "legend display is too long") end
    ffi.copy(lg.display, e.display)
  end
  if e.weight ~= nil then
    if type(e.weight) ~= "number" or e.weight ~= e.weight or math.abs(e.weight) == math.huge then
      raise(name, "legend weight must be a finite number")
    end
    lg.default_weight = e.weight
  end
  if e.interrupt ~= nil then lg.interrupt = e.interrupt and 1 or 0 end
  if e.average ~= nil then lg.average = e.average and 1 or 0 end
  for dir, w in pairs(type(e.weights) == "table" and e.weights or {}) do
    local d = direction(name, "weights", dir)
    if type(w) ~= "number" or not (w >= 0) or w == math.huge then
      raise(name, "legend entry '%s': weights.%s must be a number >= 1 (link weights must be >= 1)", key, dir)
    end
    lg.weights[d] = w
  end
  for from, to in pairs(type(e.directions) == "table" and e.directions or {}) do
    local d = direction(name, "directions", from)
    local t = type(to) == "string" and lib.strata_xy_direction(to) or -1
    if t < 0 then raise(name, "legend directions map a direction to a direction") end
    lg.directions[d] = t
  end
  for dir, alias in pairs(type(e.aliases) == "table" and e.aliases or {}) do
    local d = direction(name, "aliases", dir)
    if type(alias) ~= "string" or alias == "" or #alias >= base.constants.STRATA_XY_NAME_MAX then
      raise(name, "legend aliases must be short non-empty names")
    end
    ffi.copy(lg.aliases[d], alias)
  end
  if type(e.target) == "table" then
    local t = e.target
    if type(t[1]) ~= "number" or type(t[2]) ~= "number" or t[3] == nil then raise(name, "legend target must be { X, Y, Z }") end
    local z = tostring(t[3])
    if #z >= base.constants.STRATA_XY_NAME_MAX * 2 then raise(name, "legend target Z is too long") end
    lg.has_target, lg.target_x, lg.target_y = 1, t[1], t[2]
    ffi.copy(lg.target_z, z)
  end
end

-- The legend array and its count of option legend.
local function check_legend(name, legend, world)
  if legend == nil then return nil, 0 end
  if type(legend) ~= "table" then raise(name, "option 'legend' must be a table") end
  local keys = {}
  for k in next, legend do
    if type(k) ~= "string" or #k ~= 1 or k == " " or k == "\n" then
      raise(name, "Map-legend key '%s' is invalid: keys must be one character other than space", tostring(k))
    end
    keys[#keys + 1] = k
  end
  table.sort(keys)
  local out = ffi.new("strata_xy_legend[?]", #keys + 1)
  for i, k in ipairs(keys) do
    local e = rawget(legend, k)
    if type(e) == "string" and base.legend_entry then e = base.legend_entry(name, e, world) end
    if type(e) ~= "table" then raise(name, "legend entry '%s' must be a table", k) end
    legend_entry(name, k, e, out[i - 1])
  end
  return out, #keys
end

local PARSE = { "legend", "z", "world" }

-- strata.xymap.parse(text, { legend =, z =, world = }) -> xy | nil, reason
local function parse(text, opts)
  local name = "strata.xymap.parse"
  if type(text) ~= "string" then raise(name, "argument #1: the text of a map expected, got %s", type(text)) end
  opts = base.options(name, opts, PARSE)
  local z = opts.z ~= nil and tostring(opts.z) or ""
  local legend, count = check_legend(name, opts.legend, opts.world)
  local err = base.err()
  local m = lib.strata_xymap_parse(text, #text, z, legend, count, err)
  if m == nil then return base.fail(name, err) end
  local xy = xy_type()
  xy.map = m
  return xy
end

local Xy = {}

local function map_of(name, self)
  if self.map == nil then raise(name, "the map was closed") end
  return self.map
end

local function node_table(m, n)
  local info = ffi.new("strata_xy_node_info")
  lib.strata_xymap_node(m, n, info)
  local t = base.make_point(info.x, info.y)
  t.symbol = string.char(info.symbol)
  t.kind = ffi.string(lib.strata_xy_kind_name(info.kind))
  t.interrupt = info.interrupt ~= 0
  if info.legend.has_target ~= 0 then
    t.target = { info.legend.target_x, info.legend.target_y, ffi.string(info.legend.target_z) }
  end
  return t
end

-- The node at x, y (-1: none); an error outside the map's extent.
local function node_at(name, m, x, y, what)
  base.int(name, x, what)
  base.int(name, y, what)
  local mx, my = ffi.new("int[1]"), ffi.new("int[1]")
  lib.strata_xymap_extent(m, mx, my)
  if x < 0 or y < 0 or x > mx[0] or y > my[0] then
    raise(name, "coordinate (%d, %d) is outside the grid size of (0,0) - (%d, %d)", x, y, mx[0], my[0])
  end
  return tonumber(lib.strata_xymap_node_at(m, x, y))
end

-- xy:node(x, y) -> { x, y, symbol =, kind =, interrupt =, target = } | nil
function Xy:node(x, y)
  local m = map_of("xy:node", self)
  local n = node_at("xy:node", m, x, y, "argument #1")
  if n < 0 then return nil end
  return node_table(m, n)
end

-- xy:nodes() -> every node, in scan order
function Xy:nodes()
  local m = map_of("xy:nodes", self)
  local out = {}
  for i = 0, tonumber(lib.strata_xymap_node_count(m)) - 1 do out[#out + 1] = node_table(m, i) end
  return out
end

-- xy:exits(x, y) -> { { name =, direction =, to = { x, y }, weight = }, ... }
function Xy:exits(x, y)
  local m = map_of("xy:exits", self)
  local n = node_at("xy:exits", m, x, y, "argument #1")
  if n < 0 then raise("xy:exits", "no node at that coordinate") end
  local out, ex, to = {}, ffi.new("strata_xy_exit"), ffi.new("strata_xy_node_info")
  for i = 0, tonumber(lib.strata_xymap_exit_count(m, n)) - 1 do
    lib.strata_xymap_exit(m, n, i, ex)
    lib.strata_xymap_node(m, ex.target, to)
    out[#out + 1] = { name = ffi.string(ex.name), direction = ffi.string(lib.strata_xy_direction_name(ex.direction)),
                      to = base.make_point(to.x, to.y), weight = ex.weight }
  end
  return out
end

-- xy:shortest_path(a, b) -> directions, steps, cost | nil, reason
function Xy:shortest_path(a, b)
  local name = "xy:shortest_path"
  local m = map_of(name, self)
  local ax, ay = base.point(name, a, "argument #1")
  local bx, by = base.point(name, b, "argument #2")
  local na, nb = node_at(name, m, ax, ay, "argument #1"), node_at(name, m, bx, by, "argument #2")
  if na < 0 then return nil, ("no node at (%d, %d)"):format(ax, ay) end
  if nb < 0 then return nil, ("no node at (%d, %d)"):format(bx, by) end
  local r, err = ffi.gc(ffi.new("strata_xy_route[1]"), lib.strata_xy_route_free), base.err()
  if lib.strata_xymap_shortest_path(m, na, nb, r, err) ~= 0 then return base.fail(name, err) end
  local route = r[0]
  if route.hop_count == 0 and na ~= nb then return nil, "no route between these nodes" end
  local dirs, steps = {}, {}
  for i = 0, tonumber(route.hop_count) - 1 do dirs[#dirs + 1] = ffi.string(route.names[i]) end
  for i = 0, tonumber(route.step_count) - 1 do
    local s = route.steps[i]
    local t = base.make_point(s.x, s.y)
    t.symbol, t.node, t.interrupt = string.char(s.symbol), s.is_node ~= 0, s.interrupt ~= 0
    steps[#steps + 1] = t
  end
  return dirs, steps, route.hop_count > 0 and route.cost or 0
end

-- xy:display{ builder = } -> the map as players see it (markup)
function Xy:display(opts)
  local name = "xy:display"
  local m = map_of(name, self)
  opts = base.options(name, opts, { "builder" })
  local text, len, err = ffi.new("char *[1]"), ffi.new("size_t[1]"), base.err()
  local fn = opts.builder and lib.strata_xymap_builder_display or lib.strata_xymap_display
  if fn(m, text, len, err) ~= 0 then return base.fail(name, err) end
  return base.take_string(text, len)
end

local VIEW = { "dist", "mode", "character", "target", "target_path_style", "max_size", "builder" }

-- xy:visual_range(point, { dist = 2, mode = "nodes" | "scan", character = "@" | false,
--   target =, target_path_style =, max_size = { w, h }, builder = }) -> text | nil, reason
function Xy:visual_range(point, opts)
  local name = "xy:visual_range"
  local m = map_of(name, self)
  local x, y = base.point(name, point, "argument #1")
  opts = base.options(name, opts, VIEW)
  local v = ffi.new("strata_xy_view")
  v.x, v.y, v.dist, v.mode, v.character = x, y, 2, lib.STRATA_XY_VIEW_NODES, "@"
  v.builder = opts.builder and 1 or 0
  if opts.dist == false then v.dist = -1
  elseif opts.dist ~= nil then
    local d = base.int(name, opts.dist, "option 'dist'")
    if d > 2 ^ 20 then raise(name, "option 'dist' is too large") end
    v.dist = d < 0 and 0 or d
  end
  local mode = opts.mode or "nodes"
  if mode == "scan" then v.mode = lib.STRATA_XY_VIEW_SCAN
  elseif mode ~= "nodes" then
    raise(name, "Map.get_visual_range 'mode' was '%s' - it must be either 'scan' or 'nodes'.", tostring(mode))
  end
  local keep = {}
  if opts.character == false then v.character = nil
  elseif type(opts.character) == "string" then v.character, keep[1] = opts.character, opts.character
  elseif opts.character ~= nil then raise(name, "option 'character' must be a string or false") end
  if opts.target ~= nil then
    v.has_target = 1
    v.target_x, v.target_y = base.point(name, opts.target, "option 'target'")
  end
  if opts.target_path_style ~= nil then
    v.target_style = base.str(name, opts.target_path_style, "option 'target_path_style'")
    keep[2] = opts.target_path_style
  end
  if type(opts.max_size) == "table" then
    local w, h = rawget(opts.max_size, 1), rawget(opts.max_size, 2)
    v.max_w, v.max_h = base.integer(w) and w or 0, base.integer(h) and h or 0
  elseif opts.max_size ~= nil then
    raise(name, "option 'max_size' must be {w, h}")
  end
  local text, len, err = ffi.new("char *[1]"), ffi.new("size_t[1]"), base.err()
  if lib.strata_xymap_visual_range(m, v, text, len, err) ~= 0 then return base.fail(name, err) end
  return base.take_string(text, len)
end

local SVG = { "cell", "from", "to" }
-- xy:to_svg{ cell =, from =, to = } -> SVG text, the route from -> to drawn
function Xy:to_svg(opts)
  local name = "xy:to_svg"
  local m = map_of(name, self)
  opts = base.options(name, opts, SVG)
  local po = ffi.new("strata_picture_options")
  if opts.cell ~= nil then po.cell = base.int(name, opts.cell, "option 'cell'") end
  local route = nil
  if opts.from ~= nil or opts.to ~= nil then
    local fx, fy = base.point(name, opts.from, "option 'from'")
    local tx, ty = base.point(name, opts.to, "option 'to'")
    local a, b = node_at(name, m, fx, fy, "option 'from'"), node_at(name, m, tx, ty, "option 'to'")
    if a < 0 or b < 0 then return nil, ("%s: no node at (%d, %d)"):format(name, a < 0 and fx or tx, a < 0 and fy or ty) end
    route = ffi.gc(ffi.new("strata_xy_route[1]"), lib.strata_xy_route_free)
    local err = base.err()
    if lib.strata_xymap_shortest_path(m, a, b, route, err) ~= 0 then return base.fail(name, err) end
  end
  local text, len, err = ffi.new("char *[1]"), ffi.new("size_t[1]"), base.err()
  if lib.strata_xymap_svg(m, route, po, text, len, err) ~= 0 then return base.fail(name, err) end
  return base.take_string(text, len)
end

-- xy:close(): frees the map now (later calls are errors)
function Xy:close()
  if self.map ~= nil then lib.strata_xymap_free(self.map) end
  self.map = nil
end

ffi.metatype(xy_type, {
  __index = function(self, k)
    if k == "z" then return self.map ~= nil and ffi.string(lib.strata_xymap_z(self.map)) or nil end
    return Xy[k]
  end,
  __gc = function(self) Xy.close(self) end,
  __tostring = function(self)
    if self.map == nil then return "strata.xymap (closed)" end
    local mx, my = ffi.new("int[1]"), ffi.new("int[1]")
    lib.strata_xymap_extent(self.map, mx, my)
    return ("strata.xymap '%s' (%d nodes, %d x %d)"):format(ffi.string(lib.strata_xymap_z(self.map)),
      tonumber(lib.strata_xymap_node_count(self.map)), mx[0] + 1, my[0] + 1)
  end,
})

return function(M)
  local kinds = {}
  for k = 0, lib.STRATA_XY_KIND_COUNT - 1 do kinds[#kinds + 1] = ffi.string(lib.strata_xy_kind_name(k)) end
  M.xymap = { parse = parse, kinds = kinds, is = function(v) return ffi.istype(xy_type, v) end }
  base.check_legend = check_legend -- (the world part's grid reads legends too)
end
