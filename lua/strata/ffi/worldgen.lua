-- strata.ffi.worldgen: random multi-floor world templates (docs/worldgen.md)
-- over strata/worldgen.h, as the 5.4 module's strata.worldgen (docs/lua-api.md,
-- "World templates"): generate, floor, options, render, format, parse, read,
-- write, validate. A template crosses into Lua as the same plain tables
-- (1-based, tiles by name, points with both spellings); going back, the
-- tables are read into a C template the core checks (strata_worldgen_validate).
-- The C templates in flight are collected (ffi.gc), whatever raises.
-- (to_area and to_map make a world's maps: the world part's.)
local base = require "strata.ffi.base"
local ffi, lib = base.ffi, base.lib
local raise = base.raise

local KINDS = base.constants.STRATA_WG_TILE_KINDS
local NAMES, NUMBERS = {}, {}
for i = 0, KINDS - 1 do
  NAMES[i] = ffi.string(lib.strata_worldgen_tile_name(i))
  NUMBERS[NAMES[i]] = i
end

local GEN = { "dims", "rand", "conf", "seed", "room_variance", "path_alg", "post_check", "log" }

local function point3(x, y, z)
  local p = base.make_point(x, y)
  if z then p[3], p.z = z, z end
  return p
end

-- x, y, z of dims { x, y, z } (or { x =, y =, z = }).
local function dims_of(name, d, what)
  if type(d) ~= "table" then raise(name, "%sdims must be three integers { x, y, z }, got %s", what, type(d)) end
  local n = #d
  local x, y, z = d[1] or d.x, d[2] or d.y, d[3] or d.z
  if not (base.integer(x) and base.integer(y) and base.integer(z)) or (n ~= 0 and n ~= 3) then
    if n == 3 or n == 0 then raise(name, "%sdims must be three integers { x, y, z }", what) end
    raise(name, "%sdims must be three integers { x, y, z }, got %d value%s", what, n, n == 1 and "" or "s")
  end
  return x, y, z
end

-- The search of option path_alg (what: "" or "template ").
local function path_alg(name, v, what)
  return base.enum(name, v, lib.strata_path_algorithm_parse, "strata_path_algorithm",
    what .. "path_alg must be \"astar\", \"greedy\", \"bfs\" or \"dijkstra\", got \"%s\"")
end

-- The C options of a generate/floor/options call: the defaults, then the
-- conf file's, then the table's own. The log function, if any, is returned.
local function gen_options(name, opts)
  if type(opts) ~= "table" then raise(name, "options must be a table, got %s", type(opts)) end
  opts = base.options(name, opts, GEN)
  local o = ffi.new("strata_worldgen_options")
  lib.strata_worldgen_options_init(o)
  local err = base.err()
  if opts.conf ~= nil then
    base.str(name, opts.conf, "option 'conf'")
    if lib.strata_worldgen_conf_read(opts.conf, o, err) ~= 0 then raise(name, "%s", base.message(err)) end
  end
  if opts.dims ~= nil and opts.rand == true then raise(name, "rand = true draws the dims: give dims or rand, not both") end
  if opts.dims ~= nil then
    o.dim_x, o.dim_y, o.dim_z = dims_of(name, opts.dims, "")
    o.rand = 0
  end
  if opts.rand ~= nil then o.rand = opts.rand and 1 or 0 end
  if opts.seed ~= nil then o.seed = base.int(name, opts.seed, "option 'seed'") end
  if opts.room_variance ~= nil then
    local rv = base.int(name, opts.room_variance, "option 'room_variance'")
    if rv < 3 then raise(name, "room_variance must be at least 3 (the smallest room side), got %d", rv) end
    o.room_variance = math.min(rv, 0x7fffffff)
  end
  if opts.path_alg ~= nil then o.path_alg = path_alg(name, opts.path_alg, "") end
  if opts.post_check ~= nil then o.post_check = opts.post_check and 1 or 0 end
  if opts.log ~= nil and type(opts.log) ~= "function" then
    raise(name, "log must be a function(level, message, floor), got %s", type(opts.log))
  end
  return o, opts.log
end

-- Runs fn(o) with o.log calling log (under pcall: no error unwinds through
-- the core; the first stops the generation and is raised after). Not
-- compiled: a callback from a C function a trace called is not allowed.
local function with_log(name, o, log, fn)
  if not log then return fn() end
  local failure
  local cb = ffi.cast("strata_worldgen_log", function(_, level, floor, message)
    local ok, e = pcall(log, level <= 1 and "info" or "debug", ffi.string(message), floor)
    if ok then return 0 end
    failure = failure or e
    return 1
  end)
  o.log = cb
  local st = fn()
  cb:free()
  o.log = nil
  if failure ~= nil then raise(name, "option 'log' raised: %s", tostring(failure)) end
  return st
end
jit.off(with_log)

-- ---- C templates to tables ------------------------------------------------------
local function floor_table(f, w, h)
  local tiles = {}
  for y = 0, h - 1 do
    local row = {}
    for x = 0, w - 1 do row[x + 1] = NAMES[f.tiles[y * w + x]] end
    tiles[y + 1] = row
  end
  local t = { tiles = tiles, rooms = {}, attempts = f.attempts }
  for _, k in ipairs { "start", "exit", "ascent", "descent" } do
    if f[k].x ~= 0 then t[k] = point3(f[k].x, f[k].y) end
  end
  for i = 0, tonumber(f.room_count) - 1 do
    local r = f.rooms[i]
    t.rooms[i + 1] = { x = r.x, y = r.y, w = r.w, h = r.h }
  end
  return t
end

local function template_table(t)
  local z = t.dim_z
  local out = {
    dims = point3(t.dim_x, t.dim_y, z), seed = tonumber(t.seed), room_variance = t.room_variance,
    path_alg = ffi.string(lib.strata_path_algorithm_name(t.path_alg)), post_check = t.post_check ~= 0,
    start = point3(t.floors[0].start.x, t.floors[0].start.y, 1),
    exit = point3(t.floors[z - 1].exit.x, t.floors[z - 1].exit.y, z), floors = {},
  }
  for i = 0, z - 1 do out.floors[i + 1] = floor_table(t.floors[i], t.dim_x, t.dim_y) end
  return out
end

-- ---- tables to C templates ------------------------------------------------------
local function need_int(name, t, key, path)
  local v = t[key]
  if not base.integer(v) then raise(name, "template %s.%s must be an integer, got %s", path, key, type(v)) end
  return v
end

-- x, y (and z, or -1) of the point t[key]; nil gives 0, 0.
local function opt_point(name, t, key, path)
  local p = t[key]
  if p == nil then return 0, 0, -1 end
  if type(p) ~= "table" then raise(name, "template %s.%s must be a point { x, y }, got %s", path, key, type(p)) end
  local x, y, z = p[1] or p.x, p[2] or p.y, p[3] or p.z
  if not base.integer(x) or not base.integer(y) or x == 0 or y == 0 then
    raise(name, "template %s.%s must be a point { x, y } of integers from 1", path, key)
  end
  return x, y, base.integer(z) and z or -1
end

local function read_floor(name, ft, t, z)
  local f, path = t.floors[z - 1], ("floors[%d]"):format(z)
  f.ascent.x, f.ascent.y = opt_point(name, ft, "ascent", path)
  f.descent.x, f.descent.y = opt_point(name, ft, "descent", path)
  if ft.attempts ~= nil then f.attempts = need_int(name, ft, "attempts", path) end
  local rows = ft.tiles
  if type(rows) ~= "table" then raise(name, "template %s.tiles must be a table of %d rows, got %s", path, t.dim_y, type(rows)) end
  if #rows ~= t.dim_y then raise(name, "template %s.tiles has %d rows, dims say %d", path, #rows, t.dim_y) end
  for y = 1, t.dim_y do
    local row = rawget(rows, y)
    if type(row) ~= "table" or #row ~= t.dim_x then raise(name, "template %s.tiles[%d] must be a row of %d tile names", path, y, t.dim_x) end
    for x = 1, t.dim_x do
      local v = rawget(row, x)
      local n = type(v) == "string" and NUMBERS[v]
      if not n then
        raise(name, "template %s.tiles[%d][%d]: %s is not a tile (wall, hallway, room, start, exit, ascent, descent)",
          path, y, x, type(v) == "string" and v or type(v))
      end
      f.tiles[(y - 1) * t.dim_x + x - 1] = n
    end
  end
  local rooms = ft.rooms
  if rooms == nil then return end
  if type(rooms) ~= "table" then raise(name, "template %s.rooms must be a list of { x =, y =, w =, h = }", path) end
  local err = base.err()
  for i = 1, #rooms do
    local r = rawget(rooms, i)
    if type(r) ~= "table" then raise(name, "template %s.rooms[%d] must be { x =, y =, w =, h = }", path, i) end
    local rpath = ("%s.rooms[%d]"):format(path, i)
    local room = ffi.new("strata_worldgen_room", need_int(name, r, "x", rpath), need_int(name, r, "y", rpath),
      need_int(name, r, "w", rpath), need_int(name, r, "h", rpath))
    if lib.strata_worldgen_add_room(f, room, err) ~= 0 then raise(name, "%s", base.message(err)) end
  end
end

-- The template table t as a checked C template (collected when dropped).
local function check_template(name, tt)
  if type(tt) ~= "table" then raise(name, "argument #1: a template (table) expected, got %s", type(tt)) end
  if type(tt.dims) ~= "table" then raise(name, "template dims must be { x, y, z }") end
  local dx, dy, dz = dims_of(name, tt.dims, "template ")
  local err = base.err()
  local t = lib.strata_worldgen_new(dx, dy, dz, err)
  if t == nil then raise(name, "template: %s", base.message(err)) end
  t = ffi.gc(t, lib.strata_worldgen_free)
  t.seed = tt.seed ~= nil and base.int(name, tt.seed, "template seed") or 0
  t.room_variance = tt.room_variance ~= nil and base.int(name, tt.room_variance, "template room_variance")
    or base.constants.STRATA_WORLDGEN_ROOM_VARIANCE
  t.path_alg = path_alg(name, tt.path_alg or "astar", "template ")
  t.post_check = tt.post_check == false and 0 or 1
  local sz, ez
  t.floors[0].start.x, t.floors[0].start.y, sz = opt_point(name, tt, "start", "")
  t.floors[dz - 1].exit.x, t.floors[dz - 1].exit.y, ez = opt_point(name, tt, "exit", "")
  if sz > 0 and sz ~= 1 then raise(name, "template start is on floor %d; it must be on floor 1", sz) end
  if ez > 0 and ez ~= dz then raise(name, "template exit is on floor %d; it must be on the last, %d", ez, dz) end
  if type(tt.floors) ~= "table" then raise(name, "template floors must be a list of %d floors, got %s", dz, type(tt.floors)) end
  for z = 1, dz do
    local ft = rawget(tt.floors, z)
    if type(ft) ~= "table" then raise(name, "template floors[%d] must be a floor table", z) end
    read_floor(name, ft, t, z)
  end
  if lib.strata_worldgen_validate(t, err) ~= 0 then raise(name, "template: %s", base.message(err)) end
  return t
end

-- ---- the functions ----------------------------------------------------------------
local W = {}

-- generate(opts) -> a template | nil, reason
function W.generate(opts)
  local name = "strata.worldgen.generate"
  local o, log = gen_options(name, opts)
  local out, err = ffi.new("strata_worldgen *[1]"), base.err()
  local st = with_log(name, o, log, function() return lib.strata_worldgen_generate(o, out, err) end)
  if st ~= 0 then return base.fail(name, err) end
  local t = ffi.gc(out[0], lib.strata_worldgen_free)
  return template_table(t)
end

-- floor(opts, z) -> floor z's table, the same as in the whole world | nil, reason
function W.floor(opts, z)
  local name = "strata.worldgen.floor"
  base.int(name, z, "argument #2")
  local o, log = gen_options(name, opts)
  local err = base.err()
  local t = lib.strata_worldgen_new(1, 1, 1, err) -- (a one-cell template to own the floor)
  if t == nil then return base.fail(name, err) end
  t = ffi.gc(t, lib.strata_worldgen_free)
  lib.strata_worldgen_floor_clear(t.floors[0])
  lib.strata_worldgen_resolve(o) -- (its dims size the table)
  local st = with_log(name, o, log, function() return lib.strata_worldgen_make_floor(o, z, t.floors[0], err) end)
  if st ~= 0 then return base.fail(name, err) end
  return floor_table(t.floors[0], o.dim_x, o.dim_y)
end

-- options(opts) -> the options generate(opts) works with (the conf file's
-- under the table's, rand's dims drawn)
function W.options(opts)
  local o = gen_options("strata.worldgen.options", opts)
  lib.strata_worldgen_resolve(o)
  return { dims = point3(o.dim_x, o.dim_y, o.dim_z), seed = tonumber(o.seed), room_variance = o.room_variance,
           path_alg = ffi.string(lib.strata_path_algorithm_name(o.path_alg)), post_check = o.post_check ~= 0 }
end

-- A text the core writes of a checked template (fn: render, format).
local function text_of(name, t, fn, ...)
  local text, len, err = ffi.new("char *[1]"), ffi.new("size_t[1]"), base.err()
  local args = { ... }
  args[#args + 1] = text
  args[#args + 1] = len
  args[#args + 1] = err
  if fn(t, unpack(args)) ~= 0 then return base.fail(name, err) end
  return base.take_string(text, len)
end

function W.format(t) return text_of("strata.worldgen.format", check_template("strata.worldgen.format", t), lib.strata_worldgen_format) end

-- render(t, { color = false }) -> text
function W.render(t, opts)
  local name = "strata.worldgen.render"
  opts = base.options(name, opts, { "color" })
  return text_of(name, check_template(name, t), lib.strata_worldgen_render, opts.color and 1 or 0)
end

function W.validate(t)
  check_template("strata.worldgen.validate", t)
  return t
end

-- parse(text, name) / read(path) -> a template | nil, reason
local function loaded(name, fn, ...)
  local out, err = ffi.new("strata_worldgen *[1]"), base.err()
  local args = { ... }
  args[#args + 1] = out
  args[#args + 1] = err
  if fn(unpack(args)) ~= 0 then return base.fail(name, err) end
  return template_table(ffi.gc(out[0], lib.strata_worldgen_free))
end

function W.parse(text, label)
  local name = "strata.worldgen.parse"
  base.str(name, text, "argument #1")
  if label ~= nil then base.str(name, label, "argument #2") end
  return loaded(name, lib.strata_worldgen_parse, text, #text, label or "template")
end

function W.read(path)
  return loaded("strata.worldgen.read", lib.strata_worldgen_read, base.str("strata.worldgen.read", path, "argument #1"))
end

-- write(t, path) -> true | nil, reason (whole or not at all: strata/file.h)
function W.write(t, path)
  local name = "strata.worldgen.write"
  base.str(name, path, "argument #2")
  local ct, err = check_template(name, t), base.err()
  if lib.strata_worldgen_write(ct, path, err) ~= 0 then return base.fail(name, err) end
  return true
end

return function(M) M.worldgen = W end
