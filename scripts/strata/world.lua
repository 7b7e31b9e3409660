-- strata.world: worlds as Lua sees them. The state lives in the C core
-- (strata.core.world_state); this file adds handles, checked persistent
-- tables, events, timers, random streams, savepoints and saves that re-bind
-- logic by ID. The core owns every state transition and every refusal: this
-- layer checks argument shapes, calls the core, turns uids into handles. Each world has its own registry of definitions (world.data)
-- and its own token table: nothing here is shared between two worlds.
local core = require "strata.core"
local data = require "strata.data"
local mods = require "strata.mods"
local options = require "strata.options"
local boundary = require "strata.boundary"
local private = require "strata.private"

-- Side tables (strata.private): what each object points at, out of mod code's reach.
local owner = private.owner          -- handle / proxy / stream / subscription -> host world
local handle_data = setmetatable({}, { __mode = "k" }) -- handle -> { uid =, kind = }
local proxy_data = setmetatable({}, { __mode = "k" })  -- proxy -> { uid =, kind =, path = }
local getmt = debug.getmetatable

local M = {}
-- What the feature modules (areas, walk, rooms, grid, branches) share: set below.
local internals
-- Every live world (weak keys): strata.reload re-runs a mod in each world that loaded it.
local worlds = setmetatable({}, { __mode = "k" })

-- The shortest period of a repeating timer (STRATA_TIMER_MIN_EVERY in C).
M.min_every = 0.001

local World = {}
local Handle = {}
-- What strata.runtime adds at a world's start and after a reload: the core's
-- runtime over it (attach), definitions read again (reloaded).
local runtime_hooks = {}
local Proxy = {}
private.World = World

-- Persistent tables on handles: each is a top-level key of the object's properties.
local persistent = { props = true, state = true, meta = true }

local function label(kind, uid) return kind .. "#" .. uid end

-- An ID may name entries of several types (a unique area, its area archetype and
-- its map archetype are often all "mod.vernis"): a handle's archetype is looked
-- up among the archetypes of its kind.
local archetype_types = { map = "base.map_archetype", area = "base.area_archetype",
  actor = "base.actor_archetype" }

local function archetype_of(reg, kind, id)
  local t = archetype_types[kind]
  if t then return reg.by_type[t] and reg.by_type[t][id] end
  return reg.by_id[id]
end

local function is_handle(v)
  return type(v) == "table" and getmt(v) == Handle
end

-- A point given as { x, y } or { x =, y = } -> x, y (integers), or an error naming `what`.
local function point(v, what)
  if type(v) == "table" then
    local x, y = v.x, v.y
    if x == nil and y == nil then x, y = v[1], v[2] end
    if math.type(x) == "integer" and math.type(y) == "integer" then return x, y end
  end
  error(("%s: expected a point { x, y } or { x =, y = }, got %s"):format(what, tostring(v)), 0)
end

-- ---- handles ------------------------------------------------------------------------
local function handle(world, uid)
  local kind = world._s:info(uid)
  local h = world._handles[uid]
  if h then return kind and h or nil end
  if not kind then return nil end
  h = setmetatable({}, Handle)
  handle_data[h] = { uid = uid, kind = kind }
  owner[h] = world
  world._handles[uid] = h
  return h
end

local function check_alive(h, what)
  if not owner[h]._s:info(h.uid) then
    error(("%s: %s was deleted"):format(what, label(h.kind, h.uid)), 3)
  end
end

local function path_label(base, path)
  local s = base
  for i, k in ipairs(path) do
    if math.type(k) == "integer" then s = s .. "[" .. k .. "]"
    elseif i == 1 then s = s .. " " .. k
    else s = s .. "." .. k end
  end
  return s
end

local function proxy(world, uid, kind, path)
  local p = setmetatable({}, Proxy)
  proxy_data[p] = { uid = uid, kind = kind, path = path }
  owner[p] = world
  return p
end

local function child_path(p, k)
  local path = {}
  for i, x in ipairs(p) do path[i] = x end
  path[#path + 1] = k
  return path
end

Proxy.__index = function(p, k)
  local d, w = proxy_data[p], owner[p]
  local s = w._s
  if not s:info(d.uid) then error(label(d.kind, d.uid) .. " was deleted", 2) end
  local v, is_table = s:get(d.uid, table.unpack(child_path(d.path, k)))
  if is_table then return proxy(w, d.uid, d.kind, child_path(d.path, k)) end
  return v
end

Proxy.__newindex = boundary.lined(function(p, k, v)
  local d, w = proxy_data[p], owner[p]
  local s = w._s
  if type(k) ~= "string" and math.type(k) ~= "integer" then
    error(("%s: keys must be strings or integers, got %s %s"):format(
      path_label(label(d.kind, d.uid), d.path), math.type(k) or type(k), tostring(k)), 0)
  end
  local path = child_path(d.path, k)
  s:set(d.uid, path_label(label(d.kind, d.uid), path), v, table.unpack(path))
end)

-- A persistent table stored elsewhere is copied as it is now (world.c asks
-- through the function registered with core.world_state.types).
local function snapshot(p)
  local d = proxy_data[p]
  return owner[p]._s:snapshot(d.uid, table.unpack(d.path))
end

core.world_state.types(Handle, function(h) local d = handle_data[h] return d and d.uid end, Proxy, snapshot)

Proxy.__pairs = function(p)
  local d = proxy_data[p]
  local keys = owner[p]._s:keys(d.uid, table.unpack(d.path))
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k == nil then return nil end
    return k, p[k]
  end, p, nil
end

Proxy.__len = function(p)
  local d = proxy_data[p]
  local s, n = owner[p]._s, 0
  while true do
    local v, is_table = s:get(d.uid, table.unpack(child_path(d.path, n + 1)))
    if v == nil and not is_table then return n end
    n = n + 1
  end
end

Proxy.__tostring = function(p) local d = proxy_data[p] return "state " .. path_label(label(d.kind, d.uid), d.path) end
private.protect(Proxy, "strata.state")

-- ---- subscriptions: persisted (event, handler ID, args) on an object ------------------
-- A subscription's fields (uid, object, event, handler) are a copy: its
-- methods use what it was made with.
local Subscription = {}
local sub_data = setmetatable({}, { __mode = "k" })
Subscription.__index = Subscription
local function subscription(w, t)
  local d = { uid = t.uid, object = t.object }
  t = setmetatable(t, Subscription)
  sub_data[t] = d
  owner[t] = w
  return t
end
-- sub:cancel() -> true, or false when it was gone already
function Subscription:cancel()
  local d = sub_data[self]
  if not d then error("sub:cancel: call it with a colon (sub:cancel())", 2) end
  return owner[self]._s:unsubscribe(d.uid)
end
function Subscription:alive()
  local d = sub_data[self]
  for _, sub in ipairs(owner[self]._s:subscriptions(d.object)) do
    if sub.uid == d.uid then return true end
  end
  return false
end
Subscription.__tostring = function(s) return "subscription#" .. sub_data[s].uid end
private.protect(Subscription, "strata.subscription")

local handle_methods = {}

-- Kinds that add methods and fields to their handles (areas.lua: areas, maps,
-- features): kinds[kind] = { methods = {}, get = { field = fn(h) }, set = { field = fn(h, v) } }.
-- internal = true: a system's own bookkeeping (grid_maps, branch_index,
-- branch_cells), left out of world:objects() (world:object(uid) still finds it).
local kinds = {}

function handle_methods:alive() return owner[self]._s:info(self.uid) ~= nil end

function handle_methods:delete(opts)
  check_alive(self, "delete")
  local k = kinds[self.kind]
  if k and k.delete then return k.delete(self, opts) end
  if opts ~= nil then error(("delete: %s takes no options"):format(tostring(self)), 2) end
  owner[self]._s:delete(self.uid)
  owner[self]._tilemaps[self.uid] = nil
end

function handle_methods:emit(event, params, default)
  check_alive(self, "emit")
  return owner[self]:_emit(self, event, params, default)
end

function handle_methods:subscribe(event, handler_id, args, opts)
  check_alive(self, "subscribe")
  options.check("object:subscribe", opts, 2)
  local w = owner[self]
  w._registry:view("base.event"):ensure(event)
  w._registry:view("base.handler"):ensure(handler_id)
  local priority = opts and opts.priority or 100
  if math.type(priority) ~= "integer" then error("subscribe: priority must be an integer", 2) end
  local uid = w._s:subscribe(self.uid, event, handler_id, args, priority,
    label(self.kind, self.uid) .. " subscription args")
  return subscription(w, { uid = uid, object = self.uid, event = event, handler = handler_id })
end

function handle_methods:tag(name) check_alive(self, "tag") owner[self]._s:set_tag(self.uid, name, true) return self end
function handle_methods:untag(name) check_alive(self, "untag") owner[self]._s:set_tag(self.uid, name, false) return self end
function handle_methods:has_tag(name) check_alive(self, "has_tag") return owner[self]._s:has_tag(self.uid, name) end
function handle_methods:tags() check_alive(self, "tags") return owner[self]._s:tags(self.uid) end

function handle_methods:subscriptions()
  check_alive(self, "subscriptions")
  local out = {}
  for i, sub in ipairs(owner[self]._s:subscriptions(self.uid)) do out[i] = subscription(owner[self], sub) end
  return out
end

-- ---- tile methods of map handles --------------------------------------------------------
-- Forwarded to the tile map the world owns, every result of it (find_path's
-- path and cost, or nil and the reason; the binding counts arguments after
-- self, as the caller wrote them); edits touch the map first (the core
-- journals its tiles once per savepoint), so a savepoint can undo them.
local tile_reads = { "tokens", "has", "top", "passable", "cost", "find_path", "to_svg", "to_png" }
local tile_writes = { "set", "add_front", "remove", "reset", "clear", "fill" }
local tile_methods = {}

-- The view of a map's tiles. Views are cached per world; every path that
-- deletes a map object (handle:delete, area bookkeeping, a rollback: the
-- core tells, World:_drop_dead_views) drops its view, so a cached view
-- points at a live map (and one missed would refuse to work: a view checks
-- its map on every use).
local function tiles_of(h, write)
  local w = is_handle(h) and owner[h]
  if not w or h.kind ~= "map" then
    error(("expected a map as self (call it with a colon), got %s"):format(tostring(h)), 0)
  end
  local tm = w._tilemaps[h.uid]
  if not tm then
    if not w._s:info(h.uid) then error(("%s was deleted"):format(label(h.kind, h.uid)), 0) end
    tm = w._s:tilemap(h.uid)
    if not tm then error(label(h.kind, h.uid) .. " has no tiles", 0) end
    w._tilemaps[h.uid] = tm
  end
  if write then w:_touch(h.uid) end
  return tm
end
M._tiles_of = tiles_of

-- Edits return the handle, never the world's tile map itself.
local function results(h, m, ...)
  if select("#", ...) > 0 and ... == m then return h, select(2, ...) end
  return ...
end

local function forwarder(name, write)
  return boundary.wrap("map:" .. name, function(h, ...)
    local m = tiles_of(h, write)
    return results(h, m, m[name](m, ...))
  end)
end
for _, name in ipairs(tile_reads) do tile_methods[name] = forwarder(name, false) end
for _, name in ipairs(tile_writes) do tile_methods[name] = forwarder(name, true) end

-- map:render{ path =, path_glyph =, glyphs = } with glyphs a table or the ID of a
-- base.glyphs entry of the map's world.
tile_methods.render = boundary.wrap("map:render", function(h, opts)
  local tm = tiles_of(h, false)
  if type(opts) == "table" and type(opts.glyphs) == "string" then
    local entry = owner[h]._registry:view("base.glyphs"):ensure(opts.glyphs)
    local glyphs = {}
    for token, g in pairs(entry.glyphs or {}) do glyphs[token] = type(g) == "table" and (g.char or g[1]) or g end
    local o = {}
    for k, v in pairs(opts) do o[k] = v end
    o.glyphs = glyphs
    opts = o
  end
  return tm:render(opts)
end)

-- map:define_token(name, traits): traits for this map only, saved with it.
tile_methods.define_token = boundary.wrap("map:define_token", function(h, name, traits)
  local tm = tiles_of(h, true)
  if type(name) ~= "string" then error("token name must be a string, got " .. type(name), 0) end
  if type(traits) ~= "table" then error("traits must be a table, got " .. type(traits), 0) end
  tm:define_token(name, traits)
  owner[h]._rt:set_map_token(h.uid, name, traits) -- (kept with the map by the core)
  return h
end)

-- The methods of each kind's handles in one table (the common ones, the
-- kind's own, the tile methods of maps), made on first use: one lookup per
-- method call on the hot path of generators.
local methods_of = setmetatable({}, { __index = function(t, kind)
  local all = {}
  for k, f in pairs(handle_methods) do all[k] = f end
  if kind == "map" then for k, f in pairs(tile_methods) do all[k] = f end end
  local ext = kinds[kind]
  for k, f in pairs(ext and ext.methods or {}) do all[k] = f end
  t[kind] = all
  return all
end })

-- A handle's methods, as C types keep theirs in their metatable's `methods`
-- (spec/api_documented_spec.lua checks that each one is documented).
Handle.methods = function(h) return methods_of[handle_data[h].kind] end

Handle.__index = function(h, k)
  if k == "uid" or k == "kind" then return handle_data[h][k] end
  local m = methods_of[handle_data[h].kind][k]
  if m then return m end
  local ext = kinds[h.kind]
  if ext then
    local get = ext.get and ext.get[k]
    if get then check_alive(h, k) return get(h) end
  end
  if h.kind == "map" then
    if k == "width" or k == "height" then
      check_alive(h, k)
      local tm = owner[h]._s:tilemap(h.uid)
      return tm and tm[k]
    end
  end
  local s = owner[h]._s
  if persistent[k] then
    check_alive(h, k)
    local _, is_table = s:get(h.uid, k)
    if not is_table then s:set(h.uid, label(h.kind, h.uid) .. " " .. k, {}, k) end
    return proxy(owner[h], h.uid, h.kind, { k })
  end
  if k == "archetype" or k == "map" or k == "x" or k == "y" then
    check_alive(h, k)
    local _, arch, map, x, y = s:info(h.uid)
    if k == "archetype" then return arch end
    if k == "map" then return map and handle(owner[h], map) end
    return k == "x" and x or y
  end
  return nil
end

-- An actor moves through the world, which checks the way and emits the events.
local moved_by = { x = "world:move(actor, x, y)", y = "world:move(actor, x, y)",
  map = "world:travel(actor, map, { x =, y = })" }

Handle.__newindex = boundary.lined(function(h, k, v)
  local ext = kinds[h.kind]
  local set = ext and ext.set and ext.set[k]
  if set then
    check_alive(h, k)
    return set(h, v)
  end
  if persistent[k] then
    check_alive(h, k)
    if type(v) ~= "table" then error(label(h.kind, h.uid) .. " " .. k .. ": must be a table", 0) end
    local w = owner[h]
    w._s:set(h.uid, label(h.kind, h.uid) .. " " .. k, v, k)
    return
  end
  if h.kind == "actor" and moved_by[k] then
    error(("actor.%s cannot be set: use %s"):format(k, moved_by[k]), 0)
  end
  error(("%s: cannot set field '%s' (persistent tables: props, state, meta)"):format(label(h.kind, h.uid), tostring(k)), 0)
end)

Handle.__tostring = function(h) return label(h.kind, h.uid) end
Handle.__eq = function(a, b)
  local da, db = handle_data[a], handle_data[b]
  return da ~= nil and db ~= nil and da.uid == db.uid and owner[a] == owner[b]
end
private.protect(Handle, "strata.handle")

-- ---- worlds ---------------------------------------------------------------------------
World.__index = function(w, k)
  if k == "time" then return w._s:time() end
  if k == "seed" then return w._s:seed() end
  if k == "grid" then return World._grid_of(w) end -- strata.grid: the world's XY maps
  if k == "branches" then return World._branches_of(w) end -- strata.branches: dungeon branches
  return World[k]
end
private.protect(World, "strata.world")

-- ---- the world as mod code sees it ---------------------------------------------------
-- One view per world: an empty table whose methods are the world's, less what
-- belongs to the host (saving, running in real time) and anything internal.
-- The view's methods call the world's with the world itself, so no method
-- ever runs on (or hands back) anything but a world or its view.
local ModWorld = {}
local host_only = { save = true, run_realtime = true }
-- Internal methods a mod may still call: base's map_renew timer handler.
local mod_internal = { _renew_timer = true }
local mod_methods = {}

ModWorld.__index = function(v, k)
  local w = private.host[v]
  if k == "time" or k == "seed" then return w[k] end
  if k == "rng" then return w._mod_rng end
  if k == "data" then return w._mod_data end
  if k == "grid" then return w.grid end
  if k == "branches" then return w.branches end -- (fields of its own none: its world is private)
  local m = mod_methods[k]
  if m then return m end
  if type(k) ~= "string" or (k:sub(1, 1) == "_" and not mod_internal[k]) or host_only[k]
    or type(World[k]) ~= "function" then
    if host_only[k] then error(("world:%s belongs to the host; mods cannot call it"):format(k), 2) end
    return nil
  end
  local f = World[k]
  -- A tail call: an error raised at level 2 still points at the mod's line.
  m = function(self, ...) return f(private.host[self] or self, ...) end
  mod_methods[k] = m
  return m
end
ModWorld.__newindex = function(_, k) error(("world: cannot set field '%s'"):format(tostring(k)), 2) end
ModWorld.__tostring = function() return "world" end
ModWorld.__eq = function(a, b) return (private.host[a] or a) == (private.host[b] or b) end
private.protect(ModWorld, "strata.world")

-- The world's token table from its mods' base.token entries, in load order:
-- a later mod's entry for the same name replaces the earlier one, and the
-- replacement is listed in world:overrides().
local function bind_tokens(w)
  local order = {}
  for i, m in ipairs(w._mods) do order[m.id] = i end
  local entries = {}
  for _, e in pairs(w._registry.by_type["base.token"] or {}) do entries[#entries + 1] = e end
  table.sort(entries, function(a, b)
    local oa, ob = order[a._mod] or 0, order[b._mod] or 0
    if oa ~= ob then return oa < ob end
    return a._id < b._id
  end)
  local by_name, overrides = {}, {}
  for _, e in ipairs(entries) do
    local name = e.name or e._id:match("%.(.*)$")
    if by_name[name] then
      overrides[#overrides + 1] = { token = name, by = e._id, replaces = by_name[name]._id }
    end
    by_name[name] = e
  end
  local tokens = w._s:tokens()
  -- names defined before (a reload) and no longer: back to the defaults
  for name in pairs(w._token_names or {}) do
    if not by_name[name] then tokens:define(name, { passable = true, cost = 1, glyph = name:sub(1, 1) }) end
  end
  w._token_names = {}
  for name, e in pairs(by_name) do
    tokens:define(name, { passable = e.passable ~= false, cost = e.cost or 1,
      glyph = e.glyph or name:sub(1, 1), color = e.color })
    w._token_names[name] = true
  end
  w._overrides = overrides
end

-- Per-map token traits (map:define_token) are kept by the core with the map
-- (strata_map_tokens): applied again whenever a world is opened, over the
-- world's table.
local function bind_map_tokens(w)
  for _, o in ipairs(w._s:objects()) do
    if o.kind == "map" then
      local defs = w._rt:map_tokens(o.uid)
      local tm = defs and w._s:tilemap(o.uid)
      if tm then for name, traits in pairs(defs) do tm:define_token(name, traits) end end
    end
  end
end

local function wrap(state, registry, order)
  local w = setmetatable({ _s = state, _registry = registry, _mods = order,
    _handles = setmetatable({}, { __mode = "v" }), _tilemaps = {} }, World)
  state:set_ref_maker(function(uid) return handle(w, uid) end)
  w.rng = { stream = function(_, key) return w:stream(key) end }
  w.data = data.views(registry)
  -- What mod code gets: a view, read-only definitions, an rng it cannot rewire.
  local v = setmetatable({}, ModWorld)
  private.host[v], private.view[w] = w, v
  w._mod_data = data.views(registry, true)
  local stream = function(_, key) return w:stream(key) end
  w._mod_rng = setmetatable({}, private.protect({ __index = { stream = stream },
    __newindex = function() error("world.rng is read-only", 2) end }, "strata.world_rng"))
  worlds[w] = true
  bind_tokens(w)
  runtime_hooks.attach(w)
  bind_map_tokens(w)
  return w
end

local function load_mods(fn, opts, seed)
  local ids = opts.mods or { "base" }
  if type(ids) ~= "table" then error(fn .. ": mods must be a list of mod IDs", 0) end
  if opts.mod_path ~= nil and type(opts.mod_path) ~= "string" and type(opts.mod_path) ~= "table" then
    error(fn .. ": mod_path must be a folder or a list of folders", 0)
  end
  -- the user's folders in order, then strata's own mods (base, examples)
  local path = require("strata.paths").mod_path(opts.mod_path)
  return mods.load(ids, path, require "strata", seed)
end

-- strata.world.new{ seed =, mods =, mod_path = }
function M.new(opts)
  options.check("strata.world.new", opts, 2)
  opts = opts or {}
  local seed = opts.seed or 0
  if math.type(seed) ~= "integer" then error("seed must be an integer, got " .. tostring(seed), 0) end
  local registry, order = load_mods("strata.world.new", opts, seed)
  local w = wrap(core.world_state.new(seed), registry, order)
  -- Eager unique areas under "root" exist from the world's first moment.
  w._rt:unique_areas_init()
  return w
end

-- world:object(uid) -> the handle of any live object, or nil
function World:object(uid)
  if math.type(uid) ~= "integer" then
    if is_handle(uid) then
      error(("expected a uid (an integer), got the handle %s: use the handle itself, or %s.uid"):format(tostring(uid), tostring(uid)), 0)
    end
    error("expected a uid (an integer), got " .. (math.type(uid) or type(uid)), 0)
  end
  return handle(self, uid)
end

function World:objects()
  local out = {}
  for _, o in ipairs(self._s:objects()) do
    local k = kinds[o.kind]
    if not (k and k.internal) then out[#out + 1] = handle(self, o.uid) end
  end
  return out
end

function World:overrides()
  local out = {}
  for i, o in ipairs(self._overrides) do out[i] = { token = o.token, by = o.by, replaces = o.replaces } end
  return out
end

function World:mods()
  local out = {}
  for i, m in ipairs(self._mods) do out[i] = { id = m.id, version = m.version } end
  return out
end

-- Checks an archetype ID for an object of `kind`: among that kind's archetypes
-- where the kind has a type for them, else among every entry.
local function check_archetype(w, kind, id)
  if type(id) ~= "string" then error("archetype must be an ID string, got " .. type(id), 0) end
  if archetype_of(w._registry, kind, id) then return end
  local t = archetype_types[kind]
  local known
  if t then known = w._registry:ids(t)
  else known = {} for k in pairs(w._registry.by_id) do known[#known + 1] = k end end
  error(("unknown %s '%s'%s"):format(t or "archetype", id, options.suggest(id, known)), 0)
end

local function create_object(self, opts)
  if type(opts) ~= "table" or type(opts.kind) ~= "string" then
    error("expected { kind = string, ... }", 0)
  end
  if opts.archetype ~= nil then check_archetype(self, opts.kind, opts.archetype) end
  if opts.props ~= nil then self._s:check(opts.props, opts.kind .. " props") end
  if opts.tags ~= nil and type(opts.tags) ~= "table" then error("tags must be a list of strings", 0) end
  local map, x, y
  if opts.map ~= nil then
    if not is_handle(opts.map) or opts.map.kind ~= "map" or owner[opts.map] ~= self then
      error("map must be a map handle of this world, got " .. tostring(opts.map), 0)
    end
    map, x, y = opts.map.uid, opts.x or 0, opts.y or 0
    if math.type(x) ~= "integer" or math.type(y) ~= "integer" then error("x and y must be integers", 0) end
  elseif opts.x ~= nil or opts.y ~= nil then
    error("x and y need a map", 0)
  end
  local uid = self._s:create(opts.kind, opts.archetype)
  for _, tag in ipairs(opts.tags or {}) do self._s:set_tag(uid, tag, true) end
  if map then self._s:set_position(uid, map, x, y) end
  if opts.props ~= nil then self._s:set(uid, opts.kind .. "#" .. uid .. " props", opts.props, "props") end
  return handle(self, uid)
end

-- world:create_object{ kind =, archetype =, map =, x =, y =, props =, tags = }
function World:create_object(opts)
  options.check("world:create_object", opts, 2)
  return create_object(self, opts)
end

-- world:create_map{ width =, height =, fill =, archetype =, tokens = }: the
-- core's map (strata_map_create: its archetype's properties, restock and
-- renew counting from now), filled and given its tokens in the same
-- savepoint, so that a refused fill or token leaves no map behind.
function World:create_map(opts)
  options.check("world:create_map", opts, 2)
  if type(opts) ~= "table" then error("expected { width =, height =, ... }", 0) end
  if math.type(opts.width) ~= "integer" or math.type(opts.height) ~= "integer" then
    error(("width and height must be integers, got %s, %s"):format(tostring(opts.width), tostring(opts.height)), 0)
  end
  if opts.archetype ~= nil and type(opts.archetype) ~= "string" then
    error("archetype must be an ID string, got " .. type(opts.archetype), 0)
  end
  if opts.tokens ~= nil and type(opts.tokens) ~= "table" then
    error("tokens must be a table { [name] = traits }", 0)
  end
  local ok, m = self:_atomic(function()
    local m = handle(self, internals.core_call(self, "create_map", opts.width, opts.height, opts.archetype))
    if opts.fill ~= nil then m:clear(opts.fill) end
    for name, traits in pairs(opts.tokens or {}) do m:define_token(name, traits) end
    return m
  end)
  if not ok then error(m, 0) end
  return m
end

-- world:create_actor{ archetype =, map =, x =, y =, room =, props =, tags =, player = }
function World:create_actor(opts)
  options.check("world:create_actor", opts, 2)
  opts = opts or {}
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  o.kind = "actor"
  o.player, o.room = nil, nil
  if opts.room ~= nil then
    if opts.map ~= nil then error("an actor stands on a map or in a room, not both", 0) end
    local ok, a = self:_atomic(function()
      local a = create_object(self, o)
      self:_place_in_room(a, opts.room)
      if opts.player then self._rt:set_player(a.uid) end
      return a
    end)
    if not ok then error(a, 0) end
    return a
  end
  local a = create_object(self, o)
  -- The core records the player (state.player and the world record).
  if opts.player then self._rt:set_player(a.uid) end
  return a
end

-- ---- random streams ----------------------------------------------------------------------
-- world.rng:stream(key) is a name for one of the world's streams
-- (bindings/lua/stream.c): each draw reads the world's state of it and writes
-- it back, so the world is its one owner and its savepoints undo draws too.
-- ctx.rng of a floor, map hook or branch room generator is the same kind of
-- value: the core lends the call's generator to the world under its key.
function World:stream(key)
  if type(key) ~= "string" then error("world.rng:stream: key must be a string", 2) end
  return self._s:stream_handle(key)
end

-- ---- savepoints ----------------------------------------------------------------------------
-- The core's savepoints are the only journal (core/src/world_txn.c): this
-- side keeps none. world:_atomic(fn, ...) -> true, results | false, error:
-- runs fn as one savepoint. On an error everything it changed is undone
-- (objects, their properties and tiles, timers, subscriptions, random
-- streams, the clock); uids it drew stay used.

-- Before editing an object other than through the core's calls (its tiles
-- through a view): the core journals it once per savepoint, outside one nothing.
function World:_touch(uid) self._s:touch(uid) end

-- After a rollback (the core's own tell through the runtime's resolver): tile
-- map views of objects the rollback removed are dropped.
function World:_drop_dead_views()
  for uid in pairs(self._tilemaps) do
    if not self._s:info(uid) then self._tilemaps[uid] = nil end
  end
end

-- A savepoint nested in mod code can be interrupted anywhere by a spent
-- budget or a refused allocation, even between its begin and its rollback:
-- each one therefore closes every savepoint opened since it began, so that
-- the outermost one, which the host runs, always restores the world.
function World:_atomic(fn, ...)
  local s = self._s
  local depth = s:depth()
  s:begin()
  local r = table.pack(pcall(fn, ...))
  if r[1] then
    while s:depth() > depth do s:commit() end
    return table.unpack(r, 1, r.n)
  end
  while s:depth() > depth do s:rollback() end
  self:_drop_dead_views()
  return false, r[2]
end

-- ---- events ---------------------------------------------------------------------------------
-- One ordered chain per emit, made and run by the core (strata_emit): global
-- handlers, the source's archetype events and its subscriptions, by
-- (priority, name); each handler in a savepoint, one that raises undone and
-- reported (base.handler_failed), and the chain goes on.
function World:_emit(source, event, params, default)
  self._registry:view("base.event"):ensure(event)
  runtime_hooks.sync(self)
  return runtime_hooks.emit(self, source, event, params, default)
end

function World:emit(event, params, default) return self:_emit(nil, event, params, default) end

-- ---- timers -------------------------------------------------------------------------------------
-- world:schedule{ after =, every =, handler =, args = } -> timer uid
function World:schedule(opts)
  options.check("world:schedule", opts, 2)
  if type(opts) ~= "table" then error("expected { after =, every =, handler =, args = }", 0) end
  local after, every = opts.after or 0, opts.every or 0
  if type(after) ~= "number" or type(every) ~= "number" or not (after >= 0) or not (every >= 0)
    or after == math.huge or every == math.huge then
    error("'after' and 'every' must be finite numbers >= 0", 0)
  end
  if every > 0 and every < M.min_every then
    error(("'every' must be 0 (once) or at least %g, got %g"):format(M.min_every, every), 0)
  end
  self._registry:view("base.handler"):ensure(opts.handler)
  return self._s:schedule(self.time + after, every, opts.handler, opts.args, "timer args")
end

function World:cancel(uid)
  if math.type(uid) ~= "integer" then error("expected a timer uid (an integer), got " .. type(uid), 0) end
  return self._s:cancel(uid)
end
function World:timers() return self._s:timers() end

-- world:advance(dt) -> failures: time always reaches time + dt. Due timers run
-- in (due, uid) order, each as a savepoint; a handler that raises is undone,
-- reported ({ timer =, handler =, mod =, message = }, also emitted as
-- base.handler_failed) and the others still run; a repeating timer stays scheduled.
-- One advance runs a timer at most M.max_runs times, and runs at most
-- M.max_advance_runs handlers in all (a handler that schedules a new timer
-- due now on every run would otherwise keep time from moving): past either,
-- the runs due up to the target are dropped for repeating timers (moved to
-- their first due time after it) and postponed to the target for one-shot
-- timers (they run first in the next advance), and the list says so:
-- { timer =, handler =, dropped = n, message = }. A handler cannot advance
-- the world it runs in.
M.max_runs = 1000
M.max_advance_runs = 100000

-- The core runs the timers (strata_advance_limited): each handler by its ID
-- (the base.map_renew timer being the core's own), each in a savepoint.
function World:advance(dt)
  if type(dt) ~= "number" or not (dt >= 0) or dt == math.huge then
    error("dt must be a finite number >= 0, got " .. tostring(dt), 0)
  end
  if self._advancing then error("a timer or event handler cannot advance the world it runs in", 0) end
  runtime_hooks.sync(self)
  self._advancing = true
  local ok, res = pcall(self._rt.advance, self._rt, dt, math.tointeger(M.max_runs) or math.floor(M.max_runs),
    math.tointeger(M.max_advance_runs) or math.floor(M.max_advance_runs))
  self._advancing = false -- (an error or not: hence the pcall)
  if not ok then error(res, 0) end
  return res
end

-- world:run_realtime{ scale =, tick =, until_time =, on_stop = } -> a handle
-- with :stop(): world time follows the clock under the luv loop (strata.realtime).
function World:run_realtime(opts) return require("strata.realtime").run(self, opts) end

-- ---- saves -------------------------------------------------------------------------------------
function World:save(path, opts)
  if type(path) ~= "string" then error("path must be a string, got " .. type(path), 0) end
  opts = options.check("world:save", opts, 2)
  -- The host's: never on behalf of a mod's callback, whatever reached it.
  if core.guard.active() then error("saving belongs to the host: not inside a mod's callback", 0) end
  if self._s:depth() > 0 then error("cannot save while a handler's changes are not settled (inside a savepoint)", 0) end
  local list = {}
  for i, m in ipairs(self._mods) do list[i] = { m.id, m.version } end
  self._s:save(path, list, opts.overwrite)
end

-- Every ID the stored state uses must be known: one error per unknown ID,
-- saying where it is (first) used and which known IDs are nearest.
local function check_ids(state, reg)
  local errors, all = {}, nil
  local used = state:used_ids()
  local ids = {}
  for id in pairs(used) do ids[#ids + 1] = id end
  table.sort(ids)
  for _, id in ipairs(ids) do
    local type_id, where = used[id][1], used[id][2]
    local ok
    if type_id then ok = reg.by_type[type_id] and reg.by_type[type_id][id] else ok = reg.by_id[id] end
    if not ok then
      local known
      if type_id then known = reg:ids(type_id)
      else
        if not all then all = {} for k in pairs(reg.by_id) do all[#all + 1] = k end end
        known = all
      end
      errors[#errors + 1] = ("unknown ID '%s' (%s)%s"):format(id, where, data.suggest(id, known))
    end
  end
  return errors
end

-- strata.world.open(path, { mods =, mod_path = })
function M.open(path, opts)
  options.check("strata.world.open", opts, 2)
  opts = opts or {}
  if type(path) ~= "string" then error("path must be a string, got " .. type(path), 0) end
  local state, saved_mods = core.world_state.open(path)
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  if not o.mods then
    o.mods = {}
    for i, m in ipairs(saved_mods) do o.mods[i] = m[1] end
  end
  local registry, order = load_mods("strata.world.open", o, state:seed())
  local errors = check_ids(state, registry)
  if #errors > 0 then
    error(("cannot open '%s': %d unknown ID%s:\n  %s"):format(path, #errors, #errors > 1 and "s" or "",
      table.concat(errors, "\n  ")), 0)
  end
  return wrap(state, registry, order)
end

-- Areas, floors, entrances, stairs and travel extend worlds and handles.
internals = { World = World, kinds = kinds, handle = handle, label = label,
  check_alive = check_alive, is_handle = is_handle, point = point, archetype_of = archetype_of,
  runtime_hooks = runtime_hooks }
require("strata.areas")(M, internals)
-- Actors moving on tile maps: world:move, world:walk.
require("strata.walk")(M, internals)
-- Rooms and exits (world:create_room, world:create_exit, world:go).
require("strata.rooms")(M, internals)
-- XY maps spawned as rooms and exits (world.grid).
require("strata.grid")(M, internals)
-- Procedural dungeon branches (world.branches, room.branch, branch:rooms()).
require("strata.branches")(M, internals)

-- strata.reload{ "mod", world = w }: re-runs a mod in place, in `world` or in
-- every live world that loaded it. An ID still used by a world's state cannot
-- disappear; any failure leaves every world as it was.
function M.reload(opts)
  if type(opts) == "string" then opts = { opts } end
  if type(opts) ~= "table" then error("expected { mod_id, world = w }", 0) end
  local id = opts[1]
  local rest = {}
  for k, v in pairs(opts) do if k ~= 1 then rest[k] = v end end
  options.check("strata.reload", rest, 2)
  if type(id) ~= "string" then error("expected { mod_id, world = w }", 0) end
  local targets = {}
  if opts.world ~= nil then
    if getmt(opts.world) ~= World then error("world must be a world, got " .. tostring(opts.world), 0) end
    targets[1] = opts.world
  else
    for w in pairs(worlds) do
      for _, m in ipairs(w._mods) do if m.id == id then targets[#targets + 1] = w break end end
    end
  end
  if #targets == 0 then error("mod '" .. id .. "' is not loaded in any live world", 0) end
  -- Load everything first; replace only when every world accepts the new definitions.
  local fresh = {}
  for i, w in ipairs(targets) do
    local ok, res = pcall(mods.prepare_reload, w._registry, id, function(new_reg) return check_ids(w._s, new_reg) end)
    if not ok then error(res, 0) end
    fresh[i] = res
  end
  for i, w in ipairs(targets) do
    mods.commit_reload(w._registry, fresh[i])
    bind_tokens(w)
    runtime_hooks.reloaded(w)
    if World._on_reload then World._on_reload(w) end -- strata.grid: parse the maps again
  end
end

-- The public edge: errors name the function and point at the caller.
boundary.wrap_all(World, "world:")
boundary.wrap_all(handle_methods, "object:")
for kind, k in pairs(kinds) do
  if k.methods then boundary.wrap_all(k.methods, kind .. ":") end
end
M.new = boundary.wrap("strata.world.new", M.new)
M.open = boundary.wrap("strata.world.open", M.open)
M.reload = boundary.wrap("strata.reload", M.reload)

return M
