-- strata.ffi.tilemap: token tables (M.tokens), tile maps (M.tilemap) and the
-- routes their searches return (path values), as the 5.4 module has them
-- (docs/lua-api.md, "Tile maps and tokens"), over strata/tokens.h and
-- strata/tilemap.h.
--
-- A token table is the core's own pointer (ffi.metatype on strata_tokens),
-- holding a reference it releases when collected. A map is a Lua object
-- around its pointer: a standalone map owns it (freed when collected, or by
-- map:close()); a world's map (made by the world part, through
-- M.tilemap.wrap) is the world's, and every call first asks the world whether
-- it still holds the map, so a deleted map gives an error, never a dangling
-- pointer.
local base = require "strata.ffi.base"
local ffi, lib = base.ffi, base.lib
local raise, options, int = base.raise, base.options, base.int

-- A path value: its cells (not "cells": a field hides the method of that
-- name) in its own array, or, for a long route, in the buffer the core
-- filled, taken over (stolen: freed with the value) rather than copied.
ffi.cdef [[
typedef struct strata_ffi_path {
  size_t len;
  double cost;
  int32_t width;
  int32_t stolen;
  uint32_t *cell;
  uint32_t own[?];
} strata_ffi_path;
]]

-- ---- token tables -------------------------------------------------------------
local Tokens = {}
local TRAITS = { "passable", "transparent", "cost", "glyph", "color" }

-- The strata_token_traits of name in t, from the table of traits given (the
-- current traits, or the defaults for a name never defined, changed by it).
local function check_traits(name, t, tname, traits)
  traits = options(name, traits, TRAITS)
  local out = ffi.new("strata_token_traits")
  local id = lib.strata_tokens_find(t, tname, #tname)
  if id ~= 0 then out = ffi.new("strata_token_traits", lib.strata_tokens_traits(t, id)[0])
  else lib.strata_tokens_default_traits(tname, #tname, out) end
  -- transparent: as given; else passable's value when that is given (a wall
  -- blocks sight unless it says otherwise); else unchanged
  if traits.passable ~= nil then out.passable = traits.passable and 1 or 0 end
  local transparent = traits.transparent
  if transparent == nil and traits.passable ~= nil then transparent = out.passable ~= 0
  elseif transparent == nil then transparent = out.opaque == 0 end
  out.opaque = transparent and 0 or 1
  if traits.cost ~= nil then
    if type(traits.cost) ~= "number" then raise(name, "option 'cost' must be a number") end
    out.cost = traits.cost
  end
  for _, f in ipairs { { "glyph", 8, "glyph must be one character" }, { "color", 16, "color name is too long" } } do
    local v = traits[f[1]]
    if v ~= nil then
      if type(v) ~= "string" then raise(name, "option '%s' must be a string", f[1]) end
      if #v >= f[2] then raise(name, f[3]) end
      ffi.fill(out[f[1]], f[2])
      ffi.copy(out[f[1]], v, #v)
    end
  end
  return out
end

local function define(name, t, tname, traits)
  base.str(name, tname, "argument #1")
  local tr = check_traits(name, t, tname, traits)
  local err = base.err()
  if lib.strata_tokens_define(t, tname, #tname, tr, err) ~= 0 then return base.fail(name, err) end
  return true
end

local function traits_table(tr)
  return { passable = tr.passable ~= 0, transparent = tr.opaque == 0, cost = tr.cost,
           glyph = ffi.string(tr.glyph), color = tr.color[0] ~= 0 and ffi.string(tr.color) or nil }
end

-- tokens:define(name, traits) -> tokens, or nil, reason
function Tokens:define(tname, traits)
  local ok, why = define("tokens:define", self, tname, traits)
  if not ok then return nil, why end
  return self
end

-- tokens:traits(name) -> { passable =, transparent =, cost =, glyph =, color = }
function Tokens:traits(tname)
  base.str("tokens:traits", tname, "argument #1")
  local id = lib.strata_tokens_find(self, tname, #tname)
  if id ~= 0 then return traits_table(lib.strata_tokens_traits(self, id)) end
  local d = ffi.new("strata_token_traits")
  lib.strata_tokens_default_traits(tname, #tname, d)
  return traits_table(d)
end

-- tokens:names() -> every interned name, in id order
function Tokens:names()
  local out = {}
  local len = ffi.new("size_t[1]")
  for id = 1, lib.strata_tokens_count(self) do
    out[id] = ffi.string(lib.strata_tokens_name(self, id, len), len[0])
  end
  return out
end

ffi.metatype("strata_tokens", {
  __index = Tokens,
  __tostring = function(t) return ("strata.tokens (%d tokens)"):format(lib.strata_tokens_count(t)) end,
})

-- A Lua value of a token table the core holds: a reference of its own.
local function hold_tokens(t)
  lib.strata_tokens_retain(t)
  return ffi.gc(t, lib.strata_tokens_release)
end

local function new_tokens()
  local err = base.err()
  local t = lib.strata_tokens_new(err)
  if t == nil then return base.fail("strata.tokens.new", err) end
  return ffi.gc(t, lib.strata_tokens_release)
end

-- ---- path values --------------------------------------------------------------
-- A route's cells in one array (y * width + x), its cost: #p, p.cost,
-- p:xy(i), p:cells(), p:table(), p[i] (a new point table each time).
local Path = {}

function Path:xy(i)
  if type(i) ~= "number" or i < 1 or i > tonumber(self.len) then return end
  local c = self.cell[i - 1]
  return c % self.width, math.floor(c / self.width)
end

local function path_next(p, i)
  i = i + 1
  if i > tonumber(p.len) then return end
  local c = p.cell[i - 1]
  return i, c % p.width, math.floor(c / p.width)
end
function Path:cells() return path_next, self, 0 end

function Path:table()
  local out = { cost = self.cost }
  for i, x, y in self:cells() do out[i] = base.make_point(x, y) end
  return out
end

ffi.metatype("strata_ffi_path", {
  __gc = function(p) if p.stolen ~= 0 then lib.strata_free(p.cell) end end,
  __len = function(p) return tonumber(p.len) end,
  __index = function(p, k)
    if type(k) == "number" then
      local x, y = Path.xy(p, k)
      if x then return base.make_point(x, y) end
      return nil
    end
    return Path[k]
  end,
  __tostring = function(p) return ("strata.path (%d cells, cost %g)"):format(tonumber(p.len), p.cost) end,
})

-- The path value of p, the search's result (map's own strata_path). A
-- short route is copied; a long one takes p's buffer over (p starts empty
-- again: the next search allocates its own), which costs no copy and no
-- zeroed allocation (a copy of a 71,128-cell route took 0.17 ms beside a
-- 1.1 ms search). The garbage collector does not see those buffers: the map
-- counts their bytes and, past STEAL_STEP, runs a step of the collector of
-- that size, so that the buffers of dropped paths go with it (a step per
-- search cost as much again as a long copy).
local OWN_MAX, STEAL_STEP = 16384, 4 * 1024 * 1024
local function make_path(map, p, width)
  local n = tonumber(p.len)
  local out
  if n <= OWN_MAX then
    out = ffi.new("strata_ffi_path", n)
    out.cell = out.own
    if n > 0 then ffi.copy(out.own, p.nodes, n * 4) end
  else
    out = ffi.new("strata_ffi_path", 0)
    out.cell, out.stolen = p.nodes, 1
    p.nodes, p.len, p.cap = nil, 0, 0
    local stolen = rawget(map, "_stolen") + n * 4
    if stolen > STEAL_STEP then
      collectgarbage("step", math.floor(stolen / 1024))
      stolen = 0
    end
    rawset(map, "_stolen", stolen)
  end
  out.len, out.cost, out.width = n, p.cost, width
  return out
end

-- A path (a path value or a table of points) as a strata_path over a map of
-- width x height; keep, a table, keeps its arrays alive meanwhile.
local function check_path(name, v, width, height, what)
  local out = ffi.new("strata_path")
  if ffi.istype("strata_ffi_path", v) then
    for i, x, y in v:cells() do
      if x >= width or y >= height then
        raise(name, "%s: point %d (%d, %d) is outside the %dx%d map", what, i, x, y, width, height)
      end
    end
    out.nodes, out.len, out.cost = v.cell, v.len, v.cost
    return out, v
  end
  if type(v) ~= "table" then raise(name, "%s: a path or a table of points expected, got %s", what, type(v)) end
  local n = #v
  local cells = ffi.new("uint32_t[?]", n + 1)
  for i = 1, n do
    local x, y = base.point(name, rawget(v, i), ("%s: point %d"):format(what, i))
    if x < 0 or y < 0 or x >= width or y >= height then
      raise(name, "%s: point %d (%d, %d) is outside the %dx%d map", what, i, x, y, width, height)
    end
    cells[i - 1] = y * width + x
  end
  out.nodes, out.len = cells, n
  return out, cells
end

-- ---- maps ---------------------------------------------------------------------
local Map = {}
base.Map = Map -- (the other parts add their map methods: map:fov, map:distance_map)
local map_mt = {}

-- The map's pointer, or an error: closed (a standalone map), or no longer
-- the world's (view.alive answers false).
local function ptr(name, self)
  local p = rawget(self, "_ptr")
  if p == nil then raise(name, "the map was closed") end
  local view = rawget(self, "_view")
  if view and not view.alive(self) then raise(name, "the map was deleted") end
  return p
end

-- The pointer of a map about to change: a world's map tells its world first
-- (view.before_edit: a savepoint's rollback then undoes the edit).
local function edit(name, self)
  local p = ptr(name, self)
  local view = rawget(self, "_view")
  if view and view.before_edit then
    local ok, why = view.before_edit(self)
    if not ok then raise(name, "%s", why) end
  end
  return p
end

local function cell(name, p, x, y)
  int(name, x, "argument #1")
  int(name, y, "argument #2")
  if lib.strata_tilemap_contains(p, x, y) == 0 then
    raise(name, "cell (%d, %d) is outside the %dx%d map", x, y,
      lib.strata_tilemap_width(p), lib.strata_tilemap_height(p))
  end
end

-- The map's pointer, (x, y) checked to lie on it (name: the public function).
local function at(name, self, x, y, edits)
  local p = (edits and edit or ptr)(name, self)
  cell(name, p, x, y)
  return p
end

-- The id of a token name, interned (a name the map may hold from now on).
local function token(name, p, tname, what)
  base.str(name, tname, what)
  local err = base.err()
  local t = lib.strata_tokens_intern(lib.strata_tilemap_tokens(p), tname, #tname, err)
  if t == 0 then raise(name, "%s", base.message(err)) end
  return t
end

-- The id of a token name, or 0 for a name never seen (no cell holds it).
local function find_token(name, p, tname, what)
  base.str(name, tname, what)
  return lib.strata_tokens_find(lib.strata_tilemap_tokens(p), tname, #tname)
end

-- A cell edit: the core's status, the map (for chaining) or nil, reason.
local function edited(name, self, st, err)
  if st ~= 0 then return base.fail(name, err) end
  return self
end

function Map:set(x, y, t)
  local p = at("map:set", self, x, y, true)
  local err = base.err()
  return edited("map:set", self, lib.strata_tilemap_set(p, x, y, token("map:set", p, t, "argument #3"), err), err)
end

function Map:add_front(x, y, t)
  local p = at("map:add_front", self, x, y, true)
  local err = base.err()
  return edited("map:add_front", self,
    lib.strata_tilemap_add_front(p, x, y, token("map:add_front", p, t, "argument #3"), err), err)
end

-- map:remove(x, y, t) -> how many it removed
function Map:remove(x, y, t)
  local p = at("map:remove", self, x, y, true)
  local err, n = base.err(), ffi.new("int[1]")
  if lib.strata_tilemap_remove(p, x, y, find_token("map:remove", p, t, "argument #3"), n, err) ~= 0 then
    return base.fail("map:remove", err)
  end
  return n[0]
end

function Map:reset(x, y, t)
  local p = at("map:reset", self, x, y, true)
  local err = base.err()
  local id = t == nil and 0 or token("map:reset", p, t, "argument #3")
  return edited("map:reset", self, lib.strata_tilemap_reset(p, x, y, id, err), err)
end

function Map:clear(t)
  local p = edit("map:clear", self)
  local err = base.err()
  local id = t == nil and 0 or token("map:clear", p, t, "argument #1")
  return edited("map:clear", self, lib.strata_tilemap_clear(p, id, err), err)
end

local FILL = { "push" }
-- map:fill(x, y, w, h, t, { push = }): a rectangle, clipped to the map
function Map:fill(x, y, w, h, t, opts)
  local name = "map:fill"
  local p = edit(name, self)
  for i, v in ipairs { x, y, w, h } do int(name, v, "argument #" .. i) end
  local id = t == nil and 0 or token(name, p, t, "argument #5")
  opts = options(name, opts, FILL)
  if w < 0 or h < 0 then raise(name, "size must not be negative") end
  local err = base.err()
  return edited(name, self, lib.strata_tilemap_fill_rect(p, x, y, w, h, id, opts.push and 1 or 0, err), err)
end

-- map:tokens(x, y) -> the names, bottom first
function Map:tokens(x, y)
  local p = at("map:tokens", self, x, y)
  local n = tonumber(lib.strata_tilemap_stack(p, x, y, nil, 0))
  local buf = ffi.new("strata_token[?]", n + 1)
  lib.strata_tilemap_stack(p, x, y, buf, n)
  local tokens, len, out = lib.strata_tilemap_tokens(p), ffi.new("size_t[1]"), {}
  for i = 1, n do out[i] = ffi.string(lib.strata_tokens_name(tokens, buf[i - 1], len), len[0]) end
  return out
end

function Map:top(x, y)
  local p = at("map:top", self, x, y)
  local t = lib.strata_tilemap_top(p, x, y)
  if t == 0 then return nil end
  return ffi.string(lib.strata_tokens_name(lib.strata_tilemap_tokens(p), t, nil))
end

function Map:has(x, y, t)
  local p = at("map:has", self, x, y)
  return lib.strata_tilemap_has(p, x, y, find_token("map:has", p, t, "argument #3")) ~= 0
end

function Map:passable(x, y)
  local p = at("map:passable", self, x, y)
  return lib.strata_tilemap_passable(p, x, y) ~= 0
end

-- map:cost(x, y) -> the cost of entering the cell, or nil when impassable
function Map:cost(x, y)
  local p = at("map:cost", self, x, y)
  local c = lib.strata_tilemap_cost(p, x, y)
  if c <= 0 then return nil end
  return c
end

function Map:occupied(x, y)
  local p = at("map:occupied", self, x, y)
  local n = lib.strata_tilemap_occupied(p, x, y)
  if n < 0 then raise("map:occupied", "the count of the actors on this map was lost (out of memory)") end
  return n > 0
end

-- map:define_token(name, traits): traits for this map only (its own copy of
-- the token table from the first call on).
function Map:define_token(tname, traits)
  local p = edit("map:define_token", self)
  local err = base.err()
  if lib.strata_tilemap_own_tokens(p, err) ~= 0 then return base.fail("map:define_token", err) end
  local ok, why = define("map:define_token", lib.strata_tilemap_tokens(p), tname, traits)
  if not ok then return nil, why end
  return self
end

-- option occupied: "ignore" (default), "block", or a cost added for each cell an actor holds
function base.occupied(name, v, o)
  if v == "block" then o.occupied = lib.STRATA_OCCUPIED_BLOCK
  elseif type(v) == "number" and v >= 0 and v <= 1e300 then
    o.occupied, o.occupied_cost = lib.STRATA_OCCUPIED_COST, v
  elseif v ~= nil and v ~= "ignore" then
    raise(name, "option 'occupied' must be \"block\", \"ignore\" or a cost >= 0 added for each cell an actor holds")
  end
end

local FIND_PATH = { "algorithm", "connectivity", "diagonal_cost", "threads", "cost", "cost_min", "occupied" }

-- strata_grid_options from find_path's options table (copied, checked).
local function grid_options(name, opts, o)
  lib.strata_grid_options_init(o)
  if opts.algorithm ~= nil then
    o.algorithm = base.enum(name, opts.algorithm, lib.strata_path_algorithm_parse, "strata_path_algorithm",
      "unknown algorithm '%s' (known: astar, dijkstra, bfs, greedy)")
  end
  if opts.connectivity ~= nil then
    if opts.connectivity ~= 4 and opts.connectivity ~= 8 then raise(name, "connectivity must be 4 or 8") end
    o.connectivity = opts.connectivity
  end
  if opts.diagonal_cost ~= nil then
    if type(opts.diagonal_cost) ~= "number" then raise(name, "option 'diagonal_cost' must be a number") end
    o.diagonal_cost = opts.diagonal_cost
  end
  if opts.threads ~= nil then -- deprecated, no effect (docs/lua-api.md): still checked
    if opts.threads ~= 1 and opts.threads ~= 2 then raise(name, "threads must be 1 or 2") end
    o.threads = opts.threads
  end
  if opts.cost_min ~= nil then
    local m = opts.cost_min
    if type(m) ~= "number" or not (m >= 0) or m > 1e300 then raise(name, "option 'cost_min' must be a number >= 0") end
    o.cost_min = m
  end
  if opts.cost ~= nil and type(opts.cost) ~= "function" then
    raise(name, "option 'cost' must be a function(x, y, cost) -> cost | false")
  end
  base.occupied(name, opts.occupied, o)
end

-- The answer of a cost function as the core takes it (a cost > 0, or
-- STRATA_GRID_BLOCKED), or -1 and why: the search then stops.
local function cost_answer(x, y, ok, a)
  if not ok then return -1, ("option 'cost' raised at (%d, %d): %s"):format(x, y, tostring(a)) end
  if a == nil or a == false then return 0 end
  if type(a) == "number" and a > 0 and a <= 1e300 then return a end
  local what = type(a) ~= "number" and "a " .. type(a) or a ~= a and "nan" or tostring(a)
  return -1, ("option 'cost' answered %s at (%d, %d): a cost is a number > 0 and finite, false or nil blocks the cell")
    :format(what, x, y)
end

-- A search with a cost function: the function is called from C through a
-- callback, under pcall (no Lua error may unwind through the core); its
-- first failure is kept and the search stopped. Not compiled: a callback
-- from a C function a trace called is not allowed (LuaJIT's FFI rules).
local function search_with_cost(p, x1, y1, x2, y2, o, out, err, fn)
  local why
  local cb = ffi.cast("strata_grid_cost_fn", function(_, x, y, c)
    local a, reason = cost_answer(x, y, pcall(fn, x, y, c > 0 and c or nil))
    if reason and not why then why = reason end
    return a
  end)
  o.cost = cb
  local st = lib.strata_tilemap_find_path(p, x1, y1, x2, y2, o, out, err)
  cb:free()
  return st, why
end
jit.off(search_with_cost)

-- map:find_path(from, to, opts) -> path, cost | nil, reason
function Map:find_path(from, to, opts)
  local name = "map:find_path"
  local p = ptr(name, self)
  local x1, y1 = base.point(name, from, "argument #1")
  local x2, y2 = base.point(name, to, "argument #2")
  opts = options(name, opts, FIND_PATH)
  local o = ffi.new("strata_grid_options")
  grid_options(name, opts, o)
  local w, h = lib.strata_tilemap_width(p), lib.strata_tilemap_height(p)
  if x1 < 0 or y1 < 0 or x1 >= w or y1 >= h then raise(name, "start (%d, %d) is outside the %dx%d map", x1, y1, w, h) end
  if x2 < 0 or y2 < 0 or x2 >= w or y2 >= h then raise(name, "goal (%d, %d) is outside the %dx%d map", x2, y2, w, h) end
  local out, err = rawget(self, "_path"), base.err()
  local st, why
  if opts.cost then
    st, why = search_with_cost(p, x1, y1, x2, y2, o, out, err, opts.cost)
  else
    st = lib.strata_tilemap_find_path(p, x1, y1, x2, y2, o, out, err)
  end
  if why then raise(name, "%s", why) end -- (the caller's own function failed: raised, as in 5.4)
  if st ~= 0 then return base.fail(name, err) end
  if out.len == 0 then return nil, ("no path from (%d, %d) to (%d, %d)"):format(x1, y1, x2, y2) end
  local cost = out.cost
  return make_path(self, out, w), cost
end

local RENDER = { "path", "path_glyph", "glyphs" }
-- map:render{ path =, path_glyph = "*", glyphs = { [token] = glyph } } -> text
function Map:render(opts)
  local name = "map:render"
  local p = ptr(name, self)
  opts = options(name, opts, RENDER)
  local ro, keep = ffi.new("strata_render_options"), {}
  if opts.path_glyph ~= nil then ro.overlay_glyph = base.str(name, opts.path_glyph, "option 'path_glyph'") end
  if opts.path ~= nil then
    local path
    path, keep[1] = check_path(name, opts.path, lib.strata_tilemap_width(p), lib.strata_tilemap_height(p), "option 'path'")
    keep[2] = path
    ro.overlay = path
  end
  if opts.glyphs ~= nil then
    if type(opts.glyphs) ~= "table" then raise(name, "option 'glyphs' must be a table") end
    local tokens = lib.strata_tilemap_tokens(p)
    local count = lib.strata_tokens_count(tokens) + 1
    local glyphs = ffi.new("const char *[?]", count)
    for k, v in next, opts.glyphs do
      if type(k) ~= "string" or type(v) ~= "string" then raise(name, "option 'glyphs' maps token names to glyph strings") end
      local id = lib.strata_tokens_find(tokens, k, #k)
      if id ~= 0 then glyphs[id] = v; keep[#keep + 1] = v end
    end
    ro.glyphs, ro.glyph_count, keep.glyphs = glyphs, count, glyphs
  end
  local text, len, err = ffi.new("char *[1]"), ffi.new("size_t[1]"), base.err()
  if lib.strata_tilemap_render(p, ro, text, len, err) ~= 0 then return base.fail(name, err) end
  return base.take_string(text, len)
end

-- map:to_svg{ cell =, path = } / map:to_png{ ... }: a picture, one square a cell.
local PICTURE = { "cell", "path" }
local function picture(name, self, opts, fn, ctype)
  local p = ptr(name, self)
  opts = options(name, opts, PICTURE)
  local po, keep = ffi.new("strata_picture_options"), nil
  if opts.cell ~= nil then po.cell = int(name, opts.cell, "option 'cell'") end
  if opts.path ~= nil then
    local path
    path, keep = check_path(name, opts.path, lib.strata_tilemap_width(p), lib.strata_tilemap_height(p), "option 'path'")
    po.path = path
    keep = { keep, path }
  end
  local out, len, err = ffi.new(ctype), ffi.new("size_t[1]"), base.err()
  if fn(p, po, out, len, err) ~= 0 then return base.fail(name, err) end
  return base.take_string(out, len)
end
function Map:to_svg(opts) return picture("map:to_svg", self, opts, lib.strata_tilemap_svg, "char *[1]") end
function Map:to_png(opts) return picture("map:to_png", self, opts, lib.strata_tilemap_png, "unsigned char *[1]") end

-- map:close(): frees a standalone map now (later calls are errors).
function Map:close()
  local p = rawget(self, "_ptr")
  if p ~= nil and not rawget(self, "_view") then lib.strata_tilemap_free(ffi.gc(p, nil)) end
  rawset(self, "_ptr", nil)
end

map_mt.__index = function(self, k)
  if k == "width" or k == "height" or k == "token_table" then
    local p = rawget(self, "_ptr")
    local view = rawget(self, "_view")
    if p == nil or (view and not view.alive(self)) then return nil end
    if k == "width" then return lib.strata_tilemap_width(p) end
    if k == "height" then return lib.strata_tilemap_height(p) end
    return hold_tokens(lib.strata_tilemap_tokens(p))
  end
  return Map[k]
end
map_mt.__newindex = function(_, k) raise("map", "cannot set field '%s'", tostring(k)) end
map_mt.__tostring = function(self)
  local p = rawget(self, "_ptr")
  if p == nil then return "strata.tilemap (closed)" end
  local view = rawget(self, "_view")
  if view and not view.alive(self) then return "strata.tilemap (deleted)" end
  return ("strata.tilemap %dx%d"):format(lib.strata_tilemap_width(p), lib.strata_tilemap_height(p))
end

-- A map object around p. view nil: a standalone map, p owned (freed when
-- collected). view: a world's map, p the world's, view = { alive =
-- function(map) -> whether p is still the world's, before_edit =
-- function(map) -> true | nil, why, owner = (kept alive with the map) }.
local function wrap(p, view)
  if not view then p = ffi.gc(p, lib.strata_tilemap_free) end
  local path = ffi.gc(ffi.new("strata_path"), lib.strata_path_free) -- (zeroed: strata_path_init)
  return setmetatable({ _ptr = p, _view = view, _path = path, _stolen = 0 }, map_mt)
end

local NEW = { "width", "height", "fill", "tokens" }

return function(M)
  local default = new_tokens()
  M.tokens = {
    default = default,
    new = new_tokens,
    define = function(tname, traits)
      local ok, why = define("strata.tokens.define", default, tname, traits)
      if not ok then return nil, why end
      return default
    end,
    traits = function(tname) return default:traits(tname) end,
  }
  M.path = { is = function(v) return ffi.istype("strata_ffi_path", v) end }
  M.tilemap = {
    max_side = base.constants.STRATA_TILEMAP_SIDE_MAX,
    max_cells = 2 ^ 28,
    wrap = wrap,
    is = function(v) return getmetatable(v) == map_mt end,
    -- strata.tilemap.new{ width =, height =, fill =, tokens = } -> map | nil, reason
    new = function(opts)
      local name = "strata.tilemap.new"
      if type(opts) ~= "table" then raise(name, "options must be a table, got %s", type(opts)) end
      opts = options(name, opts, NEW)
      local w, h = opts.width, opts.height
      if not base.integer(w) or not base.integer(h) or w < 1 or h < 1 or w > M.tilemap.max_side or h > M.tilemap.max_side then
        raise(name, "width and height must be integers in 1..%d", M.tilemap.max_side)
      end
      local tokens, defs = default, nil
      if ffi.istype("strata_tokens *", opts.tokens) then tokens = opts.tokens
      elseif type(opts.tokens) == "table" then defs = opts.tokens
      elseif opts.tokens ~= nil then raise(name, "option 'tokens' must be a token table or a table of traits") end
      local err = base.err()
      local p = lib.strata_tilemap_new(w, h, tokens, err)
      if p == nil then return base.fail(name, err) end
      local map = wrap(p)
      if defs then
        if lib.strata_tilemap_own_tokens(p, err) ~= 0 then return base.fail(name, err) end
        for k, v in next, defs do
          if type(k) ~= "string" then raise(name, "keys of option 'tokens' must be token names") end
          local ok, why = define(name, lib.strata_tilemap_tokens(p), k, v)
          if not ok then return nil, why end
        end
      end
      if opts.fill ~= nil then lib.strata_tilemap_clear(p, token(name, p, opts.fill, "option 'fill'"), err) end
      return map
    end,
  }
  -- for the other parts: a map's pointer checked (name: the public function)
  base.map_ptr = ptr
  base.map_edit = edit
  base.check_path = check_path
end
