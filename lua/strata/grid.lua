-- strata.grid: a world's XY maps (base.grid_map entries) spawned as rooms and
-- exits (docs/grid.md). The spawn, its reconciling and the lookups are the
-- C core's (core/src/grid.c); this file finds the maps, prototypes and
-- legends in the world's data, keeps which maps a world has (an object of
-- kind "grid_maps"), and answers queries, routes, fly/dive and views.
local data = require "strata.data"
local handle_of = require "strata.handle"
local options = require "strata.options"
local private = require "strata.private"
local rooms = require "strata.rooms"
local runtime = require "strata.runtime"
local xymap = require "strata.xymap"
local owner = private.owner
local handle = handle_of.new

-- What kinds of objects get and the world's field world.grid (installed by
-- strata.world); route for strata.walk.
local M = { kinds = { room = { get = {}, methods = {} } }, fields = {} }
local kinds = M.kinds

local function fail(fmt, ...) error(fmt:format(...), 0) end

local Grid = {}
Grid.__index = Grid
-- One object per world, shared with its mods' views: none may set a field in it.
Grid.__newindex = function() error("world.grid is read-only", 2) end
private.protect(Grid, "strata.grid")
local parsed = setmetatable({}, { __mode = "k" }) -- world -> { [id] = { entry =, xy = } }

-- strata.reload replaces entries in place: every map is parsed again after one.
function M.on_reload(w) parsed[w] = nil end

-- world.grid
local grid_of = private.per_world(Grid)
M.fields.grid = grid_of

-- ---- the maps a world has: IDs kept by the core on its one "grid_maps" object ----
-- (the core's bookkeeping: it lists and deletes it to no one)
-- The IDs, in the order added (the core keeps them: strata_grid_map_ids).
local function map_ids(w) return w._s:grid_map_ids() end

local function zkey(z) return math.type(z) == "integer" and tostring(z) or z end

-- The parsed map of a grid_map ID (parsed again when a reload replaced the entry).
local function map_of(w, id)
  local cache = parsed[w]
  if not cache then cache = {} parsed[w] = cache end
  local e = w._registry:view("base.grid_map"):ensure(id)
  local c = cache[id]
  if c and c.entry == e then return c.xy, e end
  local ok, xy = pcall(xymap._parse, e.map, { legend = e.legend, z = zkey(e.z), world = w })
  if not ok then fail("grid map '%s': %s", id, tostring(xy)) end
  cache[id] = { entry = e, xy = xy }
  return xy, e
end

-- ---- prototypes: "X,Y" / "X,Y,dir" keys, values IDs or tables, parents followed ----
-- props: plain data only (what object properties hold, and no handles: a
-- map is data, not a world), checked here with the map and key named.
local function check_props(props, where)
  if type(props) ~= "table" or getmetatable(props) ~= nil then
    fail("%s: props must be a table of plain data, got %s", where, type(props))
  end
  local seen = {}
  local function walk(t, path, depth)
    if seen[t] then fail("%s: props%s holds a cycle (a table that contains itself)", where, path) end
    if depth > 32 then fail("%s: props%s is nested too deeply", where, path) end
    seen[t] = true
    for k, v in next, t do
      local kp = type(k) == "string" and path .. "." .. k or path .. "[" .. tostring(k) .. "]"
      if type(k) ~= "string" and math.type(k) ~= "integer" then
        fail("%s: props%s: keys must be strings or integers, got %s", where, path, math.type(k) or type(k))
      end
      local tv = type(v)
      if tv == "table" and getmetatable(v) == nil then walk(v, kp, depth + 1)
      elseif tv ~= "string" and tv ~= "number" and tv ~= "boolean" then
        fail("%s: props%s is a %s: props hold strings, numbers, booleans and tables of them", where, kp,
          tv == "table" and "table with a metatable" or tv)
      end
    end
    seen[t] = nil
  end
  walk(props, "", 0)
end

-- ---- prototypes stored in the world ("world.NAME", strata_grid_prototype) ----
local WORLD_PREFIX = "world."

local function stored_prototypes(w)
  local out = {}
  for _, e in ipairs(w._s:grid_prototypes()) do out[e._id] = e end
  return out
end

-- The base.prototype entry of an ID, the world's own or a mod's; nil when none.
local function prototype_get(w, id, stored)
  if id:sub(1, #WORLD_PREFIX) == WORLD_PREFIX then return (stored or stored_prototypes(w))[id] end
  return w._registry:view("base.prototype"):get(id)
end

local function prototype_ensure(w, id, stored)
  local e = type(id) == "string" and prototype_get(w, id, stored)
  if e then return e end
  local known = w._registry:ids("base.prototype")
  for k in pairs(stored or stored_prototypes(w)) do known[#known + 1] = k end
  table.sort(known)
  fail("unknown base.prototype '%s'%s", tostring(id), options.suggest(tostring(id), known))
end

-- What is wrong with a stored entry, checked as a base.prototype entry that
-- names no unknown key; nil when nothing. A check that failed (stopped by its
-- budget) is raised as it is: its message already names `where`.
local function prototype_problem(w, e, where)
  local reg = w._registry
  local msg, failed = reg:check_as(reg:ensure_type("base.prototype"), e, where, true)
  if failed then error(failed, 0) end
  return msg
end

-- The circle that e's parents go round among the world's stored prototypes
-- (stored: by ID, e in its place), "world.a → world.b → world.a"; nil when
-- none. Mods' prototypes are followed too: a circle may pass through them.
local function parent_circle(w, e, stored)
  local seen, path = {}, {}
  local v, id = e, e._id
  while type(v) == "table" do
    if seen[id] then
      local from = seen[id]
      local out = {}
      for i = from, #path do out[#out + 1] = path[i] end
      out[#out + 1] = id
      return table.concat(out, " → ")
    end
    path[#path + 1] = id
    seen[id] = #path
    id = v.parent
    if type(id) ~= "string" then return nil end
    v = prototype_get(w, id, stored)
  end
  return nil
end

local function flatten(w, v, where, depth)
  depth = depth or 0
  if depth > 16 then
    local circle = type(v) == "string" and parent_circle(w, prototype_ensure(w, v))
    fail("%s: prototype parents go round in a circle%s", where, circle and ": " .. circle or "")
  end
  local own = where
  if type(v) == "string" then
    own = ("%s (base.prototype '%s')"):format(where, v)
    v = prototype_ensure(w, v)
  end
  local out = {}
  if v.parent then
    local p = flatten(w, v.parent, where, depth + 1)
    for k, x in pairs(p) do out[k] = x end
  end
  if v.key ~= nil then out.key = v.key end
  if v.desc ~= nil then out.desc = v.desc end
  -- props merge one level deep: the child's keys win key by key.
  if v.props ~= nil then
    check_props(v.props, own)
    local merged = {}
    for k, x in pairs(out.props or {}) do merged[k] = x end
    for k, x in pairs(v.props) do merged[k] = x end
    out.props = merged
  end
  return out
end

-- The props of a map's prototypes, checked when the map is added: their
-- errors then come before any spawn. Unknown IDs and circles are left to
-- the spawn, which reports them as before.
local function check_map_props(w, id, e)
  local stored = stored_prototypes(w)
  local function chain(v, where, depth)
    if depth > 16 then return end
    local own = where
    if type(v) == "string" then
      own = ("%s (base.prototype '%s')"):format(where, v)
      v = prototype_get(w, v, stored)
    end
    if type(v) ~= "table" then return end
    if v.props ~= nil then check_props(v.props, own) end
    if v.parent ~= nil then chain(v.parent, where, depth + 1) end
  end
  for k, v in pairs(e.prototypes or {}) do chain(v, ("grid map '%s' prototype '%s'"):format(id, k), 0) end
  for key, v in pairs(e.legend or {}) do
    if type(v) == "string" then v = w._registry:view("base.legend"):get(v) end
    if type(v) == "table" and v.prototype ~= nil then
      chain(v.prototype, ("grid map '%s' legend '%s' prototype"):format(id, tostring(key)), 0)
    end
  end
end

local function coord(s) if s == "*" then return "*" end return math.tointeger(tonumber(s)) end

local function protos_of(w, id, e)
  local keys = {}
  for k in pairs(e.prototypes or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  local out = {}
  for _, k in ipairs(keys) do
    local parts = {}
    for p in (k .. ","):gmatch("([^,]*),") do parts[#parts + 1] = p end
    local where = ("grid map '%s' prototype '%s'"):format(id, k)
    local p = flatten(w, e.prototypes[k], where)
    out[#out + 1] = { x = coord(parts[1]), y = coord(parts[2]), dir = parts[3], name = p.key, desc = p.desc,
      props = p.props, where = where }
  end
  -- A legend entry's `prototype`: the default of its symbol (rooms for
  -- nodes, exits for links), below every prototype of the map.
  local symbols = {}
  for key, v in pairs(e.legend or {}) do
    if type(v) == "string" then v = w._registry:view("base.legend"):ensure(v) end
    local symbol = type(key) == "string" and key or v.symbol
    if v.prototype then symbols[#symbols + 1] = { symbol = symbol, kind = v.kind, prototype = v.prototype } end
  end
  table.sort(symbols, function(a, b) return a.symbol < b.symbol end)
  for _, l in ipairs(symbols) do
    local where = ("grid map '%s' legend '%s' prototype"):format(id, l.symbol)
    local p = flatten(w, l.prototype, where)
    local node = l.kind == "node" or l.kind == "interrupt_node"
    out[#out + 1] = { x = "*", y = "*", dir = not node and "*" or nil, symbol = l.symbol, tier = 1,
      name = p.key, desc = p.desc, props = p.props, where = where }
  end
  local room = flatten(w, "base.xyz_room", "base.xyz_room")
  local exit = flatten(w, "base.xyz_exit", "base.xyz_exit")
  out[#out + 1] = { x = "*", y = "*", tier = 2, name = room.key, desc = room.desc, props = room.props,
    where = "base.xyz_room" }
  out[#out + 1] = { x = "*", y = "*", dir = "*", tier = 2, name = exit.key, desc = exit.desc, props = exit.props,
    where = "base.xyz_exit" }
  return out
end

local DIRS = { n = true, ne = true, e = true, se = true, s = true, sw = true, w = true, nw = true }
local DIR_LIST = { "n", "ne", "e", "se", "s", "sw", "w", "nw" }

local function aliases_of(w, id, e)
  local out = {}
  for key, v in pairs(e.legend or {}) do
    if type(v) == "string" then v = w._registry:view("base.legend"):ensure(v) end
    local symbol = type(key) == "string" and key or v.symbol
    if v.spawn_aliases ~= nil and type(v.spawn_aliases) ~= "table" then
      fail("grid map '%s' legend '%s': spawn_aliases must be { [dir] = { name, alias, ... } }", id, tostring(symbol))
    end
    for dir, names in pairs(v.spawn_aliases or {}) do
      if not DIRS[dir] then
        fail("grid map '%s' legend '%s': spawn_aliases key '%s' is not a direction%s", id, tostring(symbol),
          tostring(dir), options.suggest(tostring(dir), DIR_LIST))
      end
      if type(names) == "string" then names = { names } end
      local ok = type(names) == "table" and #names > 0
      for _, n in ipairs(ok and names or {}) do ok = ok and type(n) == "string" and n ~= "" end
      if not ok then
        fail("grid map '%s' legend '%s': spawn_aliases.%s must be a name or a list of names", id, tostring(symbol), dir)
      end
      out[#out + 1] = { symbol = symbol, dir = dir, names = names }
    end
  end
  table.sort(out, function(a, b) return a.symbol .. a.dir < b.symbol .. b.dir end)
  return out
end

-- Every map of the world, parsed, with what the C spawn needs.
local function spawn_maps(w)
  local out, zs = {}, {}
  for _, id in ipairs(map_ids(w)) do
    local xy, e = map_of(w, id)
    out[#out + 1] = { map = xy, protos = protos_of(w, id, e), aliases = aliases_of(w, id, e), id = id, z = e.z }
    zs[zkey(e.z)] = e.z
  end
  return out, zs
end

-- ---- world.grid methods ----
local function world_of(g)
  local w = owner[g]
  if not w then fail("expected world.grid (use a colon: world.grid:method())") end
  return w
end

-- world.grid:add(id, ...): adds grid maps (checked: parsed, Z free) to the world.
function Grid:add(...)
  local w = world_of(self)
  local ids = table.pack(...)
  if ids.n == 0 then fail("expected one or more base.grid_map IDs") end
  local have = map_ids(w)
  local zs = {}
  for _, id in ipairs(have) do
    local _, e = map_of(w, id)
    zs[zkey(e.z)] = id
  end
  for i = 1, ids.n do
    local id = ids[i]
    if type(id) ~= "string" then fail("argument %d: expected a base.grid_map ID, got %s", i, type(id)) end
    local _, e = map_of(w, id)
    check_map_props(w, id, e)
    local z = zkey(e.z)
    if zs[z] == id then fail("grid map '%s' is already added", id) end
    if zs[z] then fail("grid maps '%s' and '%s' have the same z '%s'", zs[z], id, tostring(e.z)) end
    zs[z] = id
    have[#have + 1] = id
  end
  w._s:grid_set_map_ids(have)
  return self
end

-- world.grid:maps() -> { { id =, z =, nodes = }, ... } in the order added
function Grid:maps()
  local w = world_of(self)
  local out = {}
  for _, id in ipairs(map_ids(w)) do
    local xy, e = map_of(w, id)
    out[#out + 1] = { id = id, z = e.z, nodes = #xy:nodes() }
  end
  return out
end

-- world.grid:map(z) -> the parsed XY map of level z, or nil
function Grid:map(z)
  local w = world_of(self)
  for _, id in ipairs(map_ids(w)) do
    local xy, e = map_of(w, id)
    if zkey(e.z) == zkey(z) then return xy, id end
  end
  return nil
end

-- world.grid:remove(z): forgets the map of level z (its rooms stay until grid:delete)
function Grid:remove(z)
  local w = world_of(self)
  local keep, found = {}, false
  for _, id in ipairs(map_ids(w)) do
    if zkey(w._registry.by_id[id].z) == zkey(z) then found = true else keep[#keep + 1] = id end
  end
  if not found then fail("no grid map has z '%s'", tostring(z)) end
  w._s:grid_set_map_ids(keep)
end

-- x, y, z of a filter or a coordinate: integers, z a string or an integer, "*" any.
local function filter_coords(opts, what)
  for _, k in ipairs{ "x", "y" } do
    local v = opts[k]
    if v ~= nil and v ~= "*" and math.type(v) ~= "integer" then
      fail("%s: %s must be an integer or \"*\", got %s", what, k, tostring(v))
    end
  end
  local z = opts.z
  if z ~= nil and z ~= "*" and type(z) ~= "string" and math.type(z) ~= "integer" then
    fail("%s: z must be a string, an integer or \"*\", got %s", what, tostring(z))
  end
  return { x = opts.x, y = opts.y, z = z ~= nil and z ~= "*" and zkey(z) or nil }
end

local function filter_of(opts, what)
  opts = options.check(what, opts, 3)
  return filter_coords(opts or {}, what)
end

-- world.grid:spawn{ x =, y =, z = } -> { created = { rooms =, exits = }, updated =, deleted = }
function Grid:spawn(opts)
  local w = world_of(self)
  local f = filter_of(opts, "world.grid:spawn")
  local maps, zs = spawn_maps(w)
  if f.z and zs[f.z] == nil then
    local known = {}
    for z in pairs(zs) do known[#known + 1] = z end
    table.sort(known)
    fail("world.grid:spawn: no grid map has z '%s'%s", f.z, options.suggest(f.z, known))
  end
  return w._s:grid_spawn(maps, f)
end

-- world.grid:delete(z) -> counts: removes the rooms and exits of level z and forgets its map
function Grid:delete(z)
  local w = world_of(self)
  if type(z) ~= "string" and math.type(z) ~= "integer" then fail("world.grid:delete: expected a z") end
  local ok, res = w:_atomic(function()
    local counts = w._s:grid_delete(zkey(z))
    local keep = {}
    for _, id in ipairs(map_ids(w)) do
      if zkey(w._registry.by_id[id].z) ~= zkey(z) then keep[#keep + 1] = id end
    end
    w._s:grid_set_map_ids(keep)
    return counts
  end)
  if not ok then error(res, 0) end
  return res
end

-- world.grid:add_prototype{ _id = NAME, key =, desc =, parent =, props =, kind = } ->
-- "world.NAME": a prototype kept in the world (saved with it) that maps name by
-- ID as they name base.prototype entries; the same _id again replaces it.
function Grid:add_prototype(entry)
  local w = world_of(self)
  if type(entry) ~= "table" then fail("world.grid:add_prototype: expected a table { _id =, key =, desc =, parent =, props = }") end
  local name = rawget(entry, "_id")
  if type(name) ~= "string" or name == "" or name:find("%.") then
    fail("world.grid:add_prototype: _id must be a non-empty string without dots (\"%s\" is put before it)", WORLD_PREFIX)
  end
  local id = WORLD_PREFIX .. name
  local e = data.plain_copy(entry, "world.grid:add_prototype")
  e._id = id
  local where = "world.grid:add_prototype '" .. id .. "'"
  local msg = prototype_problem(w, e, where)
  if msg then fail("%s: %s", where, msg) end
  -- The parents as they would be with e stored (e may replace an ancestor).
  local stored = stored_prototypes(w)
  stored[id] = e
  local circle = parent_circle(w, e, stored)
  if circle then fail("%s: prototype parents go round in a circle: %s", where, circle) end
  if e.parent ~= nil then flatten(w, e, where) end
  w._s:grid_set_prototype(e)
  return id
end

-- On opening a world: its stored prototypes are checked as when added, the
-- first damaged one an error naming it.
function M.on_open(w)
  local stored = stored_prototypes(w)
  for _, e in ipairs(w._s:grid_prototypes()) do
    local id = type(e._id) == "string" and e._id or "?"
    local msg = prototype_problem(w, e, "grid prototype '" .. id .. "'")
    local circle = not msg and parent_circle(w, e, stored)
    if circle then msg = "prototype parents go round in a circle: " .. circle end
    if msg then fail("grid prototype '%s': %s", id, msg) end
  end
end

-- world.grid:home() -> room | nil; world.grid:set_home(room | nil): where
-- world.grid:delete moves what stands on a deleted map (strata_grid_home)
function Grid:home()
  local w = world_of(self)
  local r = w._s:grid_home()
  return r and handle(w, r) or nil
end
function Grid:set_home(r)
  local w = world_of(self)
  if r ~= nil then rooms.room_of(w, r, "world.grid:set_home") end
  w._s:grid_set_home(r and r.uid)
end

-- The prototype (its `where`: the map's key, the legend's or base.xyz_room)
-- a spawn gives each node of map z (nodes as xy:nodes() gives them), by the
-- core's rule (strata_grid_find_proto), for `strata grid show`.
function Grid:_prototypes(z, nodes)
  local w = world_of(self)
  for _, id in ipairs(map_ids(w)) do
    local xy, e = map_of(w, id)
    if zkey(e.z) == zkey(z) then
      local m = { map = xy, protos = protos_of(w, id, e) }
      local found = w._s:grid_protos_of(m, nodes)
      for i, p in ipairs(found) do found[i] = p and m.protos[p].where or nil end
      return found
    end
  end
end

-- The z a room's z string stands for: the map's own z (an integer for integer levels).
local function z_value(w, zs)
  for _, id in ipairs(map_ids(w)) do
    local e = w._registry.by_id[id]
    if e and zkey(e.z) == zs then return e.z end
  end
  return math.tointeger(tonumber(zs)) or zs
end

local function handles(w, uids)
  for i, u in ipairs(uids) do uids[i] = handle(w, u) end
  return uids
end

-- world.grid:room(x, y, z) -> room | nil
function Grid:room(x, y, z)
  local w = world_of(self)
  if math.type(x) ~= "integer" or math.type(y) ~= "integer" then
    fail("world.grid:room: x and y must be integers")
  end
  if type(z) ~= "string" and math.type(z) ~= "integer" then fail("world.grid:room: z must be a string or an integer") end
  -- The core's answer every time (strata_grid_room): a copy kept here would
  -- go stale when a rollback or C code changes the rooms.
  local r = w._s:grid_room(zkey(z), x, y)
  return r and handle(w, r) or nil
end

-- world.grid:rooms{ x =, y =, z =, name = } -> rooms in uid order (a key left out: "*")
function Grid:rooms(opts)
  local w = world_of(self)
  local f = filter_of(opts, "world.grid:rooms")
  local x = f.x ~= "*" and f.x or nil
  local y = f.y ~= "*" and f.y or nil
  local name = opts and opts.name
  if name ~= nil and type(name) ~= "string" then fail("world.grid:rooms: name must be a string, got %s", type(name)) end
  return handles(w, w._s:grid_rooms(f.z, x, y, "room", name ~= "*" and name or nil))
end

-- world.grid:exits{ from =, to =, name = } -> grid exits in uid order
function Grid:exits(opts)
  local w = world_of(self)
  opts = options.check("world.grid:exits", opts, 2)
  opts = opts or {}
  -- to: a room, or a destination { x, y, z } with "*" for any (Evennia's xyz_destination).
  local function room_or_any(v, k)
    if v == nil or v == "*" then return nil end
    if k == "to" and type(v) == "table" and not handle_of.is(v) and getmetatable(v) == nil and #v == 3 then
      return filter_coords({ x = v[1], y = v[2], z = v[3] }, "world.grid:exits: to")
    end
    if not handle_of.is(v) or v.kind ~= "room" or owner[v] ~= w then
      fail("world.grid:exits: %s must be a room of this world, \"*\"%s, got %s", k,
        k == "to" and " or { x, y, z }" or "", tostring(v))
    end
    return v.uid
  end
  local from, to = room_or_any(opts.from, "from"), room_or_any(opts.to, "to")
  local dest
  if type(to) == "table" then dest, to = to, nil end
  local function reaches(t)
    if not dest then return true end
    local x, y, zs = w._s:grid_pos(t or 0)
    return x ~= nil and (dest.x == nil or dest.x == "*" or dest.x == x)
      and (dest.y == nil or dest.y == "*" or dest.y == y) and (dest.z == nil or dest.z == zs)
  end
  local name = opts.name
  if name ~= nil and type(name) ~= "string" then fail("world.grid:exits: name must be a string") end
  if name == "*" then name = nil end
  local out = {}
  local candidates = from and w._s:room_exits(from) or w._s:grid_rooms(nil, nil, nil, "exit")
  for _, e in ipairs(candidates) do
    if w._s:grid_pos(e) then
      local f, t, n = w._s:exit_info(e)
      if (not from or f == from) and (not to or t == to) and (not name or n == name) and reaches(t) then
        out[#out + 1] = handle(w, e)
      end
    end
  end
  return out
end

local function grid_room(w, r, what)
  rooms.room_of(w, r, what)
  local x, y, zs = w._s:grid_pos(r.uid)
  if not x then fail("%s: %s is not a grid room", what, tostring(r)) end
  return x, y, zs
end

-- The xygrid of every map, for routes across transitions.
local function xygrid(w)
  local maps = {}
  for _, id in ipairs(map_ids(w)) do maps[#maps + 1] = (map_of(w, id)) end
  return xymap.grid(maps)
end

-- world.grid:path(from_room, to_room) -> { "n", "e", ... } | nil, reason
function Grid:path(a, b)
  local w = world_of(self)
  local x1, y1, z1 = grid_room(w, a, "world.grid:path")
  local x2, y2, z2 = grid_room(w, b, "world.grid:path")
  local dirs, reason = xygrid(w):shortest_path({ x1, y1, z1 }, { x2, y2, z2 })
  if not dirs then return nil, reason end
  return dirs
end
function Grid:_route(a, b) return self:path(a, b) end

local function level(w, actor, delta, what, refuse)
  handle_of.check_alive(actor, what)
  local here = w._s:room_of(actor.uid)
  if not here then return nil, refuse end
  local x, y, zs = w._s:grid_pos(here)
  local z = x and z_value(w, zs)
  if math.type(z) ~= "integer" then return nil, refuse end
  local to = w._s:grid_rooms(tostring(z + delta), x, y)[1]
  if not to then return nil, refuse end
  return runtime.call(w, "move_to_room", actor.uid, to, nil) -- (strata_move_to_room)
end

-- world.grid:fly(actor) / :dive(actor) -> true | nil, reason: to the same X, Y one level up / down
function Grid:fly(actor)
  return level(world_of(self), actor, 1, "world.grid:fly", "Can't fly here - you'd hit your head.")
end
function Grid:dive(actor)
  return level(world_of(self), actor, -1, "world.grid:dive", "Can't dive here - you'd just fall flat on the ground.")
end

-- world.grid:teleport(actor, x, y [, z]) -> true | nil, reason: to the grid room at
-- (x, y) of map z (default: the actor's), as any arrival (strata_grid_teleport)
function Grid:teleport(actor, x, y, z)
  local w = world_of(self)
  handle_of.check_alive(actor, "world.grid:teleport")
  if math.type(x) ~= "integer" or math.type(y) ~= "integer" then fail("world.grid:teleport: x and y must be integers") end
  if z ~= nil and type(z) ~= "string" and math.type(z) ~= "integer" then
    fail("world.grid:teleport: z must be a string or an integer, got %s", type(z))
  end
  return runtime.call(w, "grid_teleport", actor.uid, x, y, z ~= nil and zkey(z) or nil)
end

-- The point on room r's map (level zs) that a view draws the route towards:
-- the target room itself on that map, or, on another, the last node of the
-- route across maps before it leaves this one (the transition it takes).
local function route_target(w, xy, x, y, zs, target)
  local tx, ty, tzs = grid_room(w, target, "world.grid:view")
  if tzs == zs then return { tx, ty } end
  local dirs, steps = xygrid(w):shortest_path({ x, y, zs }, { tx, ty, tzs })
  if not dirs then return nil end
  local last, hops = nil, 0
  for _, s in ipairs(steps) do
    if s.z ~= zs then break end
    if s.node then last, hops = s, hops + 1 end
  end
  -- The hop that leaves the map ends, on this map, in the transition it names.
  for _, e in ipairs(xy:exits(last.x, last.y)) do
    if e.name == dirs[hops] then return { e.to.x, e.to.y } end
  end
  return nil
end

-- world.grid:view(room, { dist =, mode =, character =, target =, target_path_style =,
-- max_size =, builder = }) -> markup
-- around the room; target: the route to that room drawn; builder: the whole
-- map with its markers.
function Grid:view(r, opts)
  local w = world_of(self)
  opts = options.check("world.grid:view", opts, 2)
  opts = opts or {}
  local x, y, zs = grid_room(w, r, "world.grid:view")
  local xy, id = self:map(z_value(w, zs))
  if not xy then fail("world.grid:view: no grid map has z '%s'", zs) end
  local mo = w._registry.by_id[id].options or {}
  local character = opts.character
  if character == nil then character = mo.map_character_symbol or "|g@|n" end
  local dist = opts.dist
  if dist == nil then dist = not opts.builder and (mo.map_visual_range or 2) end
  return xy:visual_range({ x, y }, { dist = dist, mode = opts.mode or mo.map_mode or "nodes",
    character = character, target_path_style = opts.target_path_style or mo.map_target_path_style, builder = opts.builder,
    target = opts.target ~= nil and route_target(w, xy, x, y, zs, opts.target) or nil,
    max_size = opts.max_size })
end

-- ---- rooms as the grid sees them: .x .y .z and :node() ----
local function pos_field(i)
  return function(r)
    local w = owner[r]
    local x, y, zs = w._s:grid_pos(r.uid)
    if not x then return nil end
    if i == 3 then return z_value(w, zs) end
    return i == 1 and x or y
  end
end
kinds.room.get.x, kinds.room.get.y, kinds.room.get.z = pos_field(1), pos_field(2), pos_field(3)
-- room.grid_map: the ID of the base.grid_map the room was spawned from (nil: none)
kinds.room.get.grid_map = function(r)
  local w = owner[r]
  local _, _, zs = w._s:grid_pos(r.uid)
  if not zs then return nil end
  for _, id in ipairs(map_ids(w)) do
    local e = w._registry.by_id[id]
    if e and zkey(e.z) == zs then return id end
  end
  return nil
end
kinds.room.methods.node = function(r)
  handle_of.check_alive(r)
  local w = owner[r]
  local x, y, zs = w._s:grid_pos(r.uid)
  if not x then return nil end
  local xy = Grid.map(grid_of(w), z_value(w, zs))
  local n = xy and xy:node(x, y)
  if not n then return nil end
  return { symbol = n.symbol, kind = n.kind, interrupt = n.interrupt }
end

-- ---- walks through rooms (strata.walk: the route of a walk, which the core takes) ----
local function label_of(uid) return "room#" .. uid end

-- The nearest grid room named `name` from the actor's room (fewest steps,
-- across maps), or an error naming `what`: none of that name, none reachable,
-- or several as near (listed by coordinates).
function M.named(w, actor, name, what)
  local here = w._s:room_of(actor.uid)
  if not here then fail("%s: %s is in no room", what, tostring(actor)) end
  local candidates = w._s:grid_rooms(nil, nil, nil, "room", name)
  if #candidates == 0 then
    local names, seen = {}, {}
    for _, r in ipairs(w._s:grid_rooms(nil, nil, nil, "room")) do
      local n = w._s:room_info(r)
      if not seen[n] then seen[n] = true names[#names + 1] = n end
    end
    table.sort(names)
    fail("%s: no room named %s on the grid%s", what, options.quoted(name), options.suggest(name, names))
  end
  local best, nearest = math.huge, {}
  for _, r in ipairs(candidates) do
    local route = r == here and {} or grid_of(w):path(handle(w, here), handle(w, r))
    if route and #route < best then best, nearest = #route, { r }
    elseif route and #route == best then nearest[#nearest + 1] = r end
  end
  if #nearest == 0 then fail("%s: no way from %s to a room named %s", what, label_of(here), options.quoted(name)) end
  if #nearest > 1 then
    local where = {}
    for i, r in ipairs(nearest) do
      local x, y, zs = w._s:grid_pos(r)
      where[i] = ("(%d,%d,%s)"):format(x, y, zs)
    end
    fail("%s: %s is ambiguous: %s are as near", what, options.quoted(name), table.concat(where, ", "))
  end
  return handle(w, nearest[1])
end

-- The directions from actor's room to room target of world w, or an error
-- naming `what` (world:walk).
function M.route(w, actor, target, what)
  rooms.room_of(w, target, what)
  local here = w._s:room_of(actor.uid)
  if not here then fail("%s: %s is in no room", what, tostring(actor)) end
  if here == target.uid then return {} end
  local route, reason = grid_of(w):path(handle(w, here), target)
  if not route then fail("%s: no way from %s to %s (%s)", what, label_of(here), tostring(target), reason) end
  return route
end

require("strata.boundary").wrap_all(Grid, "world.grid:")

return M
