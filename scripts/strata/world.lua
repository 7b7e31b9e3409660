-- strata.world: worlds as Lua sees them. The state lives in the C core
-- (strata.core.world_state); this file adds handles, checked persistent
-- tables, events, timers, random streams and saves that re-bind logic by ID.
local core = require "strata.core"
local data = require "strata.data"
local mods = require "strata.mods"

local M = {}
local current_registry -- the registry of the most recent world, for strata.data

local World = {}
local Handle = { __strata_handle = true }
local Proxy = { __strata_proxy = true }

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

-- ---- handles ------------------------------------------------------------------------
local function handle(world, uid)
  local kind = world._s:info(uid)
  local h = world._handles[uid]
  if h then return kind and h or nil end
  if not kind then return nil end
  h = setmetatable({ uid = uid, kind = kind, _world = world }, Handle)
  world._handles[uid] = h
  return h
end

local function check_alive(h, what)
  if not h._world._s:info(h.uid) then
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
  return setmetatable({ _world = world, _uid = uid, _kind = kind, _path = path }, Proxy)
end

local function child_path(p, k)
  local path = {}
  for i, x in ipairs(p) do path[i] = x end
  path[#path + 1] = k
  return path
end

Proxy.__index = function(p, k)
  if k == "__snapshot" then return nil end
  local s = p._world._s
  if not s:info(p._uid) then error(label(p._kind, p._uid) .. " was deleted", 2) end
  local v, is_table = s:get(p._uid, table.unpack(child_path(p._path, k)))
  if is_table then return proxy(p._world, p._uid, p._kind, child_path(p._path, k)) end
  return v
end

Proxy.__newindex = function(p, k, v)
  local s = p._world._s
  if type(k) ~= "string" and math.type(k) ~= "integer" then
    error(path_label(label(p._kind, p._uid), p._path) .. ": keys must be strings or integers", 2)
  end
  local path = child_path(p._path, k)
  local ok, err = pcall(s.set, s, p._uid, path_label(label(p._kind, p._uid), path), v, table.unpack(path))
  if not ok then error(err, 2) end
end

Proxy.__snapshot = function(p) return p._world._s:snapshot(p._uid, table.unpack(p._path)) end

Proxy.__pairs = function(p)
  local keys = p._world._s:keys(p._uid, table.unpack(p._path))
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
  local n = 0
  while p._world._s:get(p._uid, table.unpack(child_path(p._path, n + 1))) ~= nil
    or select(2, p._world._s:get(p._uid, table.unpack(child_path(p._path, n + 1)))) do
    n = n + 1
  end
  return n
end

Proxy.__tostring = function(p) return "state " .. path_label(label(p._kind, p._uid), p._path) end

local handle_methods = {}

-- Kinds that add methods and fields to their handles (areas.lua: areas, maps,
-- features): kinds[kind] = { methods = {}, get = { field = fn(h) }, set = { field = fn(h, v) } }.
local kinds = {}

function handle_methods:alive() return self._world._s:info(self.uid) ~= nil end

function handle_methods:delete(opts)
  check_alive(self, "delete")
  local k = kinds[self.kind]
  if k and k.delete then return k.delete(self, opts) end
  self._world._s:delete(self.uid)
  self._world._tilemaps[self.uid] = nil
end

function handle_methods:emit(event, params, default)
  check_alive(self, "emit")
  return self._world:_emit(self, event, params, default)
end

function handle_methods:subscribe(event, handler_id, args, opts)
  check_alive(self, "subscribe")
  local w = self._world
  w._registry:view("base.event"):ensure(event)
  w._registry:view("base.handler"):ensure(handler_id)
  local ok, uid = pcall(w._s.subscribe, w._s, self.uid, event, handler_id, args,
    opts and opts.priority or 100, label(self.kind, self.uid) .. " subscription args")
  if not ok then error(uid, 2) end
  return { uid = uid, cancel = function() return w._s:unsubscribe(uid) end }
end

function handle_methods:tag(name) check_alive(self, "tag") self._world._s:set_tag(self.uid, name, true) return self end
function handle_methods:untag(name) check_alive(self, "untag") self._world._s:set_tag(self.uid, name, false) return self end
function handle_methods:has_tag(name) check_alive(self, "has_tag") return self._world._s:has_tag(self.uid, name) end
function handle_methods:tags() check_alive(self, "tags") return self._world._s:tags(self.uid) end

function handle_methods:subscriptions() return self._world._s:subscriptions(self.uid) end

-- Tile methods of map handles, forwarded to the tile map the world owns.
local tile_methods = {}
for _, name in ipairs{ "set", "add_front", "remove", "reset", "clear", "tokens", "has", "top",
                       "find_path", "render", "fill", "passable", "cost" } do
  tile_methods[name] = function(self, ...)
    check_alive(self, name)
    -- The wrapper of the object's tile map is kept per world: it stays valid
    -- while the object lives (checked just above; uids are never reused) and
    -- nothing replaces an object's tile map from Lua.
    local w = self._world
    local tm = w._tilemaps[self.uid]
    if not tm then
      tm = w._s:tilemap(self.uid)
      if not tm then error(label(self.kind, self.uid) .. ": has no tiles", 2) end
      w._tilemaps[self.uid] = tm
    end
    local f = tm[name]
    if not f then error("tile maps have no method '" .. name .. "'", 2) end
    return f(tm, ...)
  end
end

Handle.__index = function(h, k)
  local m = handle_methods[k]
  if m then return m end
  local ext = kinds[h.kind]
  if ext then
    m = ext.methods and ext.methods[k]
    if m then return m end
    local get = ext.get and ext.get[k]
    if get then check_alive(h, k) return get(h) end
  end
  if tile_methods[k] and h.kind == "map" then return tile_methods[k] end
  if (k == "width" or k == "height") and h.kind == "map" then
    check_alive(h, k)
    local tm = h._world._s:tilemap(h.uid)
    return tm and tm[k]
  end
  local s = h._world._s
  if persistent[k] then
    check_alive(h, k)
    local _, is_table = s:get(h.uid, k)
    if not is_table then s:set(h.uid, label(h.kind, h.uid) .. " " .. k, {}, k) end
    return proxy(h._world, h.uid, h.kind, { k })
  end
  if k == "archetype" or k == "map" or k == "x" or k == "y" then
    check_alive(h, k)
    local _, arch, map, x, y = s:info(h.uid)
    if k == "archetype" then return arch end
    if k == "map" then return map and handle(h._world, map) end
    return k == "x" and x or y
  end
  return nil
end

Handle.__newindex = function(h, k, v)
  local ext = kinds[h.kind]
  local set = ext and ext.set and ext.set[k]
  if set then
    check_alive(h, k)
    local ok, err = pcall(set, h, v)
    if not ok then error(err, 2) end
    return
  end
  if persistent[k] then
    check_alive(h, k)
    if type(v) ~= "table" then error(label(h.kind, h.uid) .. " " .. k .. ": must be a table", 2) end
    local s = h._world._s
    local ok, err = pcall(s.set, s, h.uid, label(h.kind, h.uid) .. " " .. k, v, k)
    if not ok then error(err, 2) end
    return
  end
  error(("%s: cannot set field '%s' (persistent tables: props, state, meta)"):format(label(h.kind, h.uid), tostring(k)), 2)
end

Handle.__tostring = function(h) return label(h.kind, h.uid) end
Handle.__eq = function(a, b) return a.uid == b.uid and a._world == b._world end

-- ---- worlds ---------------------------------------------------------------------------
World.__index = function(w, k)
  if k == "time" then return w._s:time() end
  if k == "seed" then return w._s:seed() end
  return World[k]
end

local function wrap(state, registry, order)
  local w = setmetatable({ _s = state, _registry = registry, _mods = order,
    _handles = setmetatable({}, { __mode = "v" }), _streams = {}, _tilemaps = {} }, World)
  state:set_ref_maker(function(uid) return handle(w, uid) end)
  w.rng = { stream = function(_, key) return w:stream(key) end }
  w.data = registry
  current_registry = registry
  registry.worlds = registry.worlds or setmetatable({}, { __mode = "k" })
  registry.worlds[w] = true
  return w
end

local function load_mods(opts)
  local ids = opts.mods or { "base" }
  local path = opts.mod_path or { "mods" }
  if type(path) == "string" then path = { path } end
  return mods.load(ids, path, require "strata")
end

function M.new(opts)
  opts = opts or {}
  if type(opts) ~= "table" then error("strata.world.new: expected an options table", 2) end
  local seed = opts.seed or 0
  if math.type(seed) ~= "integer" then error("strata.world.new: seed must be an integer", 2) end
  local registry, order = load_mods(opts)
  return wrap(core.world_state.new(seed), registry, order)
end

function World:object(uid) return handle(self, uid) end

function World:objects()
  local out = {}
  for i, o in ipairs(self._s:objects()) do out[i] = handle(self, o.uid) end
  return out
end

-- world:new_object{ kind =, archetype =, map =, x =, y =, props = }
function World:new_object(opts)
  if type(opts) ~= "table" or type(opts.kind) ~= "string" then
    error("world:new_object: expected { kind = string, ... }", 2)
  end
  if opts.archetype ~= nil then
    if not self._registry.by_id[opts.archetype] then
      error("world:new_object: unknown archetype '" .. tostring(opts.archetype) .. "'" ..
        data.suggest(tostring(opts.archetype), (function()
          local ks = {} for k in pairs(self._registry.by_id) do ks[#ks + 1] = k end return ks end)()), 2)
    end
  end
  if opts.props ~= nil then
    local ok, err = pcall(self._s.check, self._s, opts.props, opts.kind .. " props")
    if not ok then error(err, 2) end
  end
  local uid = self._s:create(opts.kind, opts.archetype)
  for _, tag in ipairs(opts.tags or {}) do self._s:set_tag(uid, tag, true) end
  if opts.map ~= nil then
    local map = type(opts.map) == "table" and opts.map.uid or opts.map
    self._s:set_position(uid, map, opts.x or 0, opts.y or 0)
  end
  if opts.props ~= nil then self._s:set(uid, opts.kind .. "#" .. uid .. " props", opts.props, "props") end
  return handle(self, uid)
end

-- world:new_map{ width =, height =, fill =, archetype = }
function World:new_map(opts)
  if type(opts) ~= "table" then error("world:new_map: expected { width =, height =, ... }", 2) end
  if opts.archetype ~= nil then self._registry:view("base.map_archetype"):ensure(opts.archetype) end
  local ok, uid = pcall(self._s.create_map, self._s, opts.width, opts.height, opts.archetype)
  if not ok then error("world:new_map: " .. tostring(uid), 2) end
  local m = handle(self, uid)
  if opts.fill ~= nil then m:clear(opts.fill) end
  local arch = opts.archetype and archetype_of(self._registry, "map", opts.archetype)
  if arch and arch.properties then m.props = arch.properties end
  return m
end

function World:new_actor(opts)
  opts = opts or {}
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  o.kind = "actor"
  o.player = nil
  local a = self:new_object(o)
  if opts.player then a.state.player = true end
  return a
end

-- ---- random streams ----------------------------------------------------------------------
function World:stream(key)
  if type(key) ~= "string" then error("world.rng:stream: key must be a string", 2) end
  local r = self._streams[key]
  if r then return r end
  r = core.rng.new(0)
  r:set_state(self._s:stream(key))
  self._streams[key] = r
  return r
end

function World:_sync_streams()
  for key, r in pairs(self._streams) do self._s:set_stream(key, r:state()) end
end

-- ---- events ---------------------------------------------------------------------------------

function World:_emit(source, event, params, default)
  local reg = self._registry
  reg:view("base.event"):ensure(event)
  local list = {}
  for _, h in ipairs(reg.handlers and reg.handlers[event] or {}) do
    list[#list + 1] = { name = h.name, priority = h.priority, fn = h.fn, what = "event handler '" .. h.name .. "' of mod " .. h.mod }
  end
  if source then
    local arch = source.archetype and archetype_of(reg, source.kind, source.archetype)
    if arch and type(arch.events) == "table" then
      for _, e in ipairs(arch.events) do
        if e.id == event then
          list[#list + 1] = { name = e.name or arch._id, priority = e.priority or 100,
            fn = e.handler, what = arch._id .. " events" }
        end
      end
    end
    for _, sub in ipairs(self._s:subscriptions(source.uid)) do
      if sub.event == event then
        local h = reg:view("base.handler"):ensure(sub.handler)
        local args = sub.args
        list[#list + 1] = { name = sub.handler, priority = sub.priority, what = sub.handler,
          fn = function(src, p, result) return h.run(src, p, args, result) end }
      end
    end
  end
  table.sort(list, function(a, b)
    if a.priority ~= b.priority then return a.priority < b.priority end
    return a.name < b.name
  end)
  local result = default
  for _, h in ipairs(list) do
    local r, stop = mods.call(h.what, h.fn, source or self, params, result)
    if r ~= nil and r ~= "stop" then result = r end
    if r == "stop" or stop == "stop" then break end
  end
  return result
end

function World:emit(event, params, default) return self:_emit(nil, event, params, default) end

-- ---- timers -------------------------------------------------------------------------------------
function World:schedule(opts)
  if type(opts) ~= "table" then error("world:schedule: expected { after =, every =, handler =, args = }", 2) end
  local after, every = opts.after or 0, opts.every or 0
  if type(after) ~= "number" or type(every) ~= "number" or after < 0 or every < 0 then
    error("world:schedule: 'after' and 'every' must be numbers >= 0", 2)
  end
  self._registry:view("base.handler"):ensure(opts.handler)
  local ok, uid = pcall(self._s.schedule, self._s, self.time + after, every, opts.handler, opts.args, "timer args")
  if not ok then error(uid, 2) end
  return uid
end

function World:cancel(uid) return self._s:cancel(uid) end
function World:timers() return self._s:timers() end

function World:advance(dt)
  if type(dt) ~= "number" or dt < 0 or dt ~= dt then error("world:advance: dt must be a number >= 0", 2) end
  local target = self.time + dt
  while true do
    local uid, due = self._s:next_due(target)
    if not uid then break end
    self._s:set_time(due)
    local handler_id, args = self._s:fire(uid)
    local h = self._registry:view("base.handler"):ensure(handler_id)
    mods.call(handler_id, h.run, self, { time = due, timer = uid }, args)
  end
  self._s:set_time(target)
end

-- Drives world time from the luv loop: `scale` world seconds per real second.
function World:run_realtime(opts)
  opts = opts or {}
  local uv = require "luv"
  local scale, tick = opts.scale or 1, opts.tick or 0.1
  local timer = uv.new_timer()
  local last = uv.now()
  timer:start(math.floor(tick * 1000), math.floor(tick * 1000), function()
    local now = uv.now()
    self:advance((now - last) / 1000 * scale)
    last = now
    if opts.until_time and self.time >= opts.until_time then timer:stop() timer:close() end
  end)
  return timer
end

-- ---- saves -------------------------------------------------------------------------------------
function World:save(path)
  if type(path) ~= "string" then error("world:save: path must be a string", 2) end
  self:_sync_streams()
  local list = {}
  for i, m in ipairs(self._mods) do list[i] = { m.id, m.version } end
  self._s:save(path, list)
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

function M.open(path, opts)
  opts = opts or {}
  if type(path) ~= "string" then error("strata.world.open: path must be a string", 2) end
  local state, saved_mods = core.world_state.open(path)
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  if not o.mods then
    o.mods = {}
    for i, m in ipairs(saved_mods) do o.mods[i] = m[1] end
  end
  local registry, order = load_mods(o)
  local errors = check_ids(state, registry)
  if #errors > 0 then
    error(("cannot open '%s': %d unknown ID%s:\n  %s"):format(path, #errors, #errors > 1 and "s" or "",
      table.concat(errors, "\n  ")), 2)
  end
  return wrap(state, registry, order)
end

function M.registry() return current_registry end

-- Areas, floors, entrances, stairs and travel extend worlds and handles.
require("strata.areas")(M, { World = World, kinds = kinds, handle = handle, label = label,
  check_alive = check_alive })

-- strata.reload{ "mod" }: re-runs a mod in place for the worlds of the
-- current registry. An ID still used by their state cannot disappear.
function M.reload(opts)
  local id = type(opts) == "table" and opts[1] or opts
  if type(id) ~= "string" then error("strata.reload: expected { mod_id }", 2) end
  local reg = current_registry
  if not reg then error("strata.reload: no mods loaded yet", 2) end
  local ok, err = pcall(mods.reload, reg, id, function(fresh)
    local errors = {}
    for w in pairs(reg.worlds or {}) do
      for _, e in ipairs(check_ids(w._s, fresh)) do errors[#errors + 1] = e end
    end
    return errors
  end)
  if not ok then error(err, 2) end
end

return M
