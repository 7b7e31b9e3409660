-- strata.ffi.world: the world through LuaJIT's FFI, for a game's own code
-- (no mod sandbox: docs/luajit.md). The core owns every object, timer and
-- subscription; this file checks argument shapes, calls the core and turns
-- uids into handles. Logic is registered by ID in a registry (the core's
-- strata_registry) as LuaJIT functions, reached through one C callback per
-- registry, so a saved world holds only data and IDs, as the 5.4 module's.
local base = require "strata.ffi.base"
local ffi, C = base.ffi, base.lib
local raise = base.raise

local M = {}
-- strata.ffi's tilemap.wrap and rng.new, set when the module is put together (the end)
local wrap_tiles, new_rng

local errbuf = ffi.typeof("strata_error[1]")
local u64out = ffi.typeof("uint64_t[1]")
local i64out = ffi.typeof("int64_t[1]")

-- A strata_error's message: with a runtime, the whole of a failing
-- callback's (strata_runtime_failure_text), else as base words it.
local function message(err, rt)
  if rt ~= nil then return ffi.string(C.strata_runtime_failure_text(rt, err)) end
  local e = errbuf()
  e[0] = err
  return base.message(e)
end

-- nil, "<fn>: <message>": how every core refusal reaches the caller.
local function fail(fn, err, rt)
  return nil, fn .. ": " .. message(err, rt)
end

-- The options table checked (an unknown key raises at the user's line,
-- naming the nearest known keys): base's one rule.
local function check(name, opts, known) return base.options(name, opts, known) end

-- ---- values: Lua plain data <-> strata_value ----

local to_value -- (v, out, fn, path) -> true | nil, reason

local function set_key(t, k, v, fn, path, err, depth)
  local key = ffi.new("strata_value[1]")
  local val = ffi.new("strata_value[1]")
  local sub = path .. "." .. tostring(k)
  if type(k) == "string" then
    if C.strata_value_string(key, k, #k, err) ~= 0 then return nil, fn .. ": " .. message(err) end
  elseif type(k) == "number" and k == math.floor(k) and k > -2^63 and k < 2^63 then
    key[0] = C.strata_value_int(k)
  else
    return nil, ("%s: %s: a key must be a string or an integer, got %s"):format(fn, path, type(k))
  end
  local ok, why = to_value(v, val, fn, sub, depth)
  if not ok then C.strata_value_clear(key) return nil, why end
  local st = C.strata_vtable_set(t, key, val, err)
  C.strata_value_clear(key)
  if st ~= 0 then C.strata_value_clear(val) return nil, fn .. ": " .. message(err) end
  return true
end

-- Writes the plain data v into out (a strata_value[1], nil on entry): nil,
-- booleans, numbers (integral ones as integers), strings, handles (as
-- references) and tables of these; anything else is refused with its path,
-- and so is a cycle (as nesting deeper than the core's 64 levels).
to_value = function(v, out, fn, path, depth)
  local t = type(v)
  if t == "nil" then return true
  elseif t == "boolean" then out[0] = C.strata_value_bool(v and 1 or 0)
  elseif t == "number" then
    if v == math.floor(v) and v >= -2^63 and v < 2^63 then out[0] = C.strata_value_int(v)
    else out[0] = C.strata_value_float(v) end
  elseif t == "string" then
    local err = errbuf()
    if C.strata_value_string(out, v, #v, err) ~= 0 then return nil, fn .. ": " .. message(err[0]) end
  elseif t == "table" and rawget(v, "uid") and getmetatable(v) and getmetatable(v).__strata_handle then
    out[0] = C.strata_value_ref(rawget(v, "uid"))
  elseif t == "table" then
    depth = (depth or 0) + 1
    if depth > base.constants.STRATA_VALUE_MAX_DEPTH then
      return nil, ("%s: %s: tables nested deeper than %d levels (a cycle?)"):format(fn, path, base.constants.STRATA_VALUE_MAX_DEPTH)
    end
    local err = errbuf()
    if C.strata_value_table(out, err) ~= 0 then return nil, fn .. ": " .. message(err[0]) end
    for k, x in pairs(v) do
      local ok, why = set_key(out[0].u.t, k, x, fn, path, err[0], depth)
      if not ok then C.strata_value_clear(out) return nil, why end
    end
  else
    return nil, ("%s: %s: cannot store a %s (plain data only)"):format(fn, path, t)
  end
  return true
end

local from_value
-- A copy of the strata_value *v as plain Lua data (references as handles of
-- world; integers past 2^53 lose their last bits, LuaJIT's numbers being doubles).
from_value = function(v, world)
  if v == nil then return nil end
  local t = tonumber(v.type)
  if t == C.STRATA_VNIL then return nil
  elseif t == C.STRATA_VBOOL then return v.u.b ~= 0
  elseif t == C.STRATA_VINT then return tonumber(v.u.i)
  elseif t == C.STRATA_VFLOAT then return v.u.f
  elseif t == C.STRATA_VSTRING then return ffi.string(v.u.str.s, v.u.str.len)
  elseif t == C.STRATA_VREF then return world and world:object(tonumber(v.u.ref)) or { uid = tonumber(v.u.ref) }
  end
  local tab, out = v.u.t, {}
  for i = 0, tonumber(tab.n) - 1 do
    out[from_value(tab.keys + i, world)] = from_value(tab.vals + i, world)
  end
  return out
end

-- A new strata_value[1] holding v, freed with the cdata; nil, reason on a bad value.
local function value_of(v, fn, path)
  local out = ffi.gc(ffi.new("strata_value[1]"), C.strata_value_clear)
  local ok, why = to_value(v, out, fn, path)
  if not ok then return nil, why end
  return out
end

-- ---- the registry: logic and definitions by ID ----

local Registry = {}
Registry.__index = Registry

local kinds = {
  generate_floor = C.STRATA_LOGIC_GENERATE_FLOOR, generate = C.STRATA_LOGIC_GENERATE,
  on_spawn = C.STRATA_LOGIC_ON_SPAWN, on_load = C.STRATA_LOGIC_ON_LOAD,
  on_enter = C.STRATA_LOGIC_ON_ENTER, on_leave = C.STRATA_LOGIC_ON_LEAVE,
  on_restock = C.STRATA_LOGIC_ON_RESTOCK, on_renew = C.STRATA_LOGIC_ON_RENEW,
  starting_pos = C.STRATA_LOGIC_STARTING_POS,
}

-- Calls fn with what the call is about, as the 5.4 module's callbacks get it,
-- and writes its answers into the call. Runs under pcall (dispatch).
local function run_logic(reg, call, fn)
  local world = reg._worlds[tostring(call.world)]
  if not world then error("a world this registry does not serve", 0) end
  local kind = tonumber(call.kind)
  local ctx = { world = world, depth = tonumber(call.depth), floor = call.has_floor ~= 0 and tonumber(call.floor) or nil,
                params = from_value(call.params, world) }
  -- ctx.rng: a strata.rng generator (strata.layout.generate takes it) holding
  -- the stream the core lends the call, its state handed back when fn returns
  local rng
  if call.rng ~= nil then
    rng = new_rng(0)
    rng.rng, rng.seed = call.rng[0], C.strata_world_seed(call.world)
    ctx.rng = rng
  end
  if call.area ~= 0 then ctx.area = world:object(tonumber(call.area)) end
  if call.map ~= 0 then ctx.map = world:object(tonumber(call.map)) end
  if call.actor ~= 0 then ctx.actor = world:object(tonumber(call.actor)) end
  if kind == C.STRATA_LOGIC_GENERATE_FLOOR or kind == C.STRATA_LOGIC_GENERATE then
    local map
    if kind == C.STRATA_LOGIC_GENERATE_FLOOR then map = fn(ctx.area, ctx.floor, ctx) else map = fn(ctx) end
    if type(map) ~= "table" or not map.uid then error("must return the map it made, got " .. type(map), 0) end
    call.made = map.uid
  elseif kind == C.STRATA_LOGIC_STARTING_POS then
    local x, y = fn(ctx.map, ctx)
    if x then call.has_pos, call.x, call.y = 1, x, y end
  elseif kind == C.STRATA_LOGIC_HANDLER or kind == C.STRATA_LOGIC_EVENT then
    local source = call.source ~= 0 and world:object(tonumber(call.source)) or world
    local ret, stop
    if kind == C.STRATA_LOGIC_HANDLER and call.timer ~= 0 then
      ret, stop = fn(world, { time = call.time, timer = tonumber(call.timer) }, from_value(call.args, world))
    elseif kind == C.STRATA_LOGIC_HANDLER then -- a subscription's
      ret, stop = fn(source, from_value(call.params, world), from_value(call.args, world))
    else
      ret, stop = fn(source, from_value(call.params, world), from_value(call.result, world))
    end
    if ret == "stop" or stop == "stop" then call.stop = 1 end
    if ret ~= nil and ret ~= "stop" then
      local v = ffi.new("strata_value[1]")
      local ok, why = to_value(ret, v, "result", "result")
      if not ok then error(why, 0) end
      call.ret = v[0]
    end
  else
    fn(ctx.map, ctx)
  end
  if rng then call.rng[0] = rng.rng end
end

-- The one C callback of a registry: finds the Lua function by the index in
-- data, runs it under pcall (an error must not unwind through C) and turns
-- an error into a status and message the core reports.
-- (LuaJIT keeps a callback's function for good: it holds the registry weakly,
-- so that the registry can be collected and its callback freed with it.)
local function dispatcher(weak)
  return function(call, data, err)
    local reg = weak.reg
    if not reg then
      C.strata_error_set(err, C.STRATA_ESTATE, "%s", "strata.ffi: the registry of this logic was collected")
      return C.STRATA_ESTATE
    end
    local ok, why = pcall(run_logic, reg, call, reg._fns[tonumber(ffi.cast("intptr_t", data))])
    if ok then return C.STRATA_OK end
    C.strata_error_set(err, C.STRATA_EARG, "%s", tostring(why))
    return C.STRATA_EARG
  end
end

-- registry.new() -> a registry: data:add{ _type =, _id =, ... } as the 5.4
-- module's (full IDs, "game.floors"), logic as LuaJIT functions.
function M.registry()
  local err = errbuf()
  local r = C.strata_registry_new(err)
  if r == nil then return fail("strata.world.registry", err[0]) end
  local reg = setmetatable({ _r = ffi.gc(r, C.strata_registry_free), _fns = {}, _worlds = setmetatable({}, { __mode = "v" }),
                             _keep = {} }, Registry)
  -- One callback per registry, kept by it (a callback collected while the
  -- core may call it would crash): LuaJIT has a few hundred callback slots.
  -- LuaJIT never frees a callback by itself: the registry's goes with it.
  -- When LuaJIT's slots run out, a full collection frees those of the registries gone.
  local fn = dispatcher(setmetatable({ reg = reg }, { __mode = "v" }))
  local made, cb = pcall(ffi.cast, "strata_fn", fn)
  if not made then
    collectgarbage()
    made, cb = pcall(ffi.cast, "strata_fn", fn)
    if not made then return nil, "strata.world.registry: " .. tostring(cb) end
  end
  reg._cb = cb
  reg._cb_owner = ffi.gc(ffi.new("char[1]"), function() cb:free() end)
  return reg
end

local function add_fn(reg, fn)
  reg._fns[#reg._fns + 1] = fn
  return ffi.cast("void *", #reg._fns)
end

local function mod_of(id) return id:match("^([^.]+)%.") end

local function check_id(fn, def)
  if type(def) ~= "table" then raise(fn, "a definition must be a table, got %s", type(def)) end
  local id = def._id
  if type(id) ~= "string" or not mod_of(id) then
    raise(fn, "_id must be a full ID \"<mod>.<name>\", got %s", tostring(id))
  end
  return id
end

local adders = {}
adders["base.handler"] = { "run" }
adders["base.event"] = {}
adders["base.area_generator"] = { "generate_floor" }
adders["base.map_archetype"] = { "generate", "on_spawn", "on_load", "on_enter", "on_leave", "on_restock", "on_renew",
                                 "starting_pos", "properties" }
adders["base.area_archetype"] = { "generator", "starting_floor", "deepest_floor", "params", "types" }
adders["base.actor_archetype"] = { "events" }

local function add_logic(self, kind, id, fn, name)
  local err = errbuf()
  if type(fn) ~= "function" then raise("data:add", "%s %s must be a function, got %s", id, name, type(fn)) end
  if C.strata_registry_add_logic(self._r, kind, id, self._cb, add_fn(self, fn), mod_of(id), err) ~= 0 then
    raise("data:add", "%s", message(err[0]))
  end
end

local function add_map_archetype(self, id, def)
  local err = errbuf()
  local a = ffi.new("strata_map_archetype", { id = id, mod = mod_of(id) })
  local props
  if def.properties ~= nil then
    props = assert(value_of(def.properties, "data:add", id .. ".properties"))
    a.properties = props
  end
  if type(def.starting_pos) == "table" then
    a.has_starting_pos, a.start_x, a.start_y = 1, def.starting_pos[1] or def.starting_pos.x, def.starting_pos[2] or def.starting_pos.y
  end
  if C.strata_registry_add_map_archetype(self._r, a, err) ~= 0 then raise("data:add", "%s", message(err[0])) end
  for name, kind in pairs(kinds) do
    if def[name] ~= nil and not (name == "starting_pos" and type(def[name]) == "table") then
      add_logic(self, kind, id, def[name], name)
    end
  end
end

local function add_area_archetype(self, id, def)
  local err = errbuf()
  local a = ffi.new("strata_area_archetype", { id = id, mod = mod_of(id), generator = def.generator })
  if def.starting_floor then a.has_starting_floor, a.starting_floor = 1, def.starting_floor end
  if def.deepest_floor then a.has_deepest_floor, a.deepest_floor = 1, def.deepest_floor end
  local params, types
  if def.params ~= nil then
    params = assert(value_of(def.params, "data:add", id .. ".params"))
    a.params = params
  end
  if def.types then
    types = ffi.new("const char *[?]", #def.types, def.types)
    a.types, a.ntypes = types, #def.types
  end
  if C.strata_registry_add_area_archetype(self._r, a, err) ~= 0 then raise("data:add", "%s", message(err[0])) end
end

-- data:add{ _type =, _id =, ... }: a definition, its functions registered as
-- logic of its ID. Types: base.handler (run), base.event, base.area_generator
-- (generate_floor), base.map_archetype (generate, on_* hooks, starting_pos,
-- properties), base.area_archetype (generator, starting_floor,
-- deepest_floor, params, types), base.actor_archetype (events = { { id =,
-- handler = fn, priority = } }).
function Registry:add(def)
  local id = check_id("data:add", def)
  local known = adders[def._type]
  if not known then
    local names = {}
    for k in pairs(adders) do names[#names + 1] = k end
    local near = base.nearest(tostring(def._type), names)
    raise("data:add", "unknown _type %s%s", tostring(def._type),
      #near > 0 and " (nearest known: " .. table.concat(near, ", ") .. ")" or "")
  end
  local keys = { "_type", "_id" }
  for _, k in ipairs(known) do keys[#keys + 1] = k end
  check("data:add", def, keys)
  local err = errbuf()
  local t = def._type
  if t == "base.handler" then add_logic(self, C.STRATA_LOGIC_HANDLER, id, def.run, "run")
  elseif t == "base.event" then
    if C.strata_registry_add_event(self._r, id, err) ~= 0 then raise("data:add", "%s", message(err[0])) end
  elseif t == "base.area_generator" then add_logic(self, C.STRATA_LOGIC_GENERATE_FLOOR, id, def.generate_floor, "generate_floor")
  elseif t == "base.map_archetype" then add_map_archetype(self, id, def)
  elseif t == "base.area_archetype" then add_area_archetype(self, id, def)
  elseif t == "base.actor_archetype" then
    for _, h in ipairs(def.events or {}) do
      if C.strata_registry_add_archetype_event(self._r, "actor", id, h.id, h.name, h.priority or 100, self._cb,
                                                add_fn(self, h.handler), mod_of(id), err) ~= 0 then
        raise("data:add", "%s", message(err[0]))
      end
    end
  end
  return def
end

-- ---- handles ----

local Handle = { __strata_handle = true }

local fields = {}
function fields.kind(h) local o = C.strata_world_object(h.world._w, h.uid) return o ~= nil and ffi.string(o.kind) or nil end
function fields.archetype(h)
  local o = C.strata_world_object(h.world._w, h.uid)
  return o ~= nil and o.archetype ~= nil and ffi.string(o.archetype) or nil
end
local function pos(h)
  local o = C.strata_world_object(h.world._w, h.uid)
  if o == nil or o.has_pos == 0 then return nil end
  return o
end
function fields.x(h) local o = pos(h) return o and tonumber(o.x) end
function fields.y(h) local o = pos(h) return o and tonumber(o.y) end
function fields.map(h) local o = pos(h) return o and h.world:object(tonumber(o.map)) end
-- The persistent tables, as the 5.4 module's handles have them (each a
-- top-level key of the object's properties): plain copies here.
for _, name in ipairs({ "props", "state", "meta" }) do
  fields[name] = function(h) return h:read(name) or {} end
end
function fields.width(h) local m = h:tilemap() return m and C.strata_tilemap_width(m) end
function fields.height(h) local m = h:tilemap() return m and C.strata_tilemap_height(m) end
function fields.token_table(h) local m = h:tilemap() return m and h:tiles().token_table end
function fields.floor(h)
  if h.kind == "area" then return h.floor_map end -- area:floor(n), map.floor: as the 5.4 module's
  local f = i64out()
  if C.strata_map_area(h.world._rt, h.uid, f) == 0 then return nil end
  return tonumber(f[0])
end
function fields.area(h)
  local a = C.strata_map_area(h.world._rt, h.uid, nil)
  return a ~= 0 and h.world:object(tonumber(a)) or nil
end
function fields.floor_delta(h)
  local d = C.strata_feature_floor_delta(h.world._rt, h.uid)
  return d ~= 0 and tonumber(d) or nil
end
function fields.type(h)
  local t = C.strata_feature_type_of(h.world._rt, h.uid)
  return t == C.STRATA_FEATURE_STAIRS and "stairs" or t == C.STRATA_FEATURE_ENTRANCE and "entrance" or nil
end

local methods = {}

-- map:X(...) for the tile map methods (map:set, map:find_path, map:fov, ...):
-- the call goes to the map's tiles, one forwarding function per name.
local forward = setmetatable({}, { __index = function(t, k)
  local f = function(h, ...) local v = h:tiles() return v[k](v, ...) end
  t[k] = f
  return f
end })

Handle.__index = function(h, k)
  local f = fields[k]
  if f then return f(h) end
  local m = methods[k]
  if m then return m end
  -- (a map once seen keeps its tiles' methods: after its deletion they say so)
  local v = rawget(h, "_tiles")
  if not v and type(k) == "string" and C.strata_world_tilemap(h.world._w, h.uid) ~= nil then v = h:tiles() end
  if v and type(v[k]) == "function" then return forward[k] end
end
Handle.__newindex = function(_, k)
  raise("handle", "field '%s' is read-only (an actor moves with world:move or world:travel, props change with object:write)", tostring(k))
end
Handle.__tostring = function(h) return ("%s#%d"):format(h.kind or "deleted", h.uid) end

function methods:alive() return C.strata_world_object(self.world._w, self.uid) ~= nil end

-- The strata_value[n] path of key: a list of strings and integers, or a
-- string of names with dots ("props.hp": the key hp of the table props).
local function path_of(fn, key)
  local list = key
  if type(key) == "string" then
    list = {}
    for name in key:gmatch("[^.]+") do list[#list + 1] = name end
  elseif type(key) ~= "table" then
    raise(fn, "a key must be a string or a list of keys, got %s", type(key))
  end
  local path = ffi.gc(ffi.new("strata_value[?]", #list), function(p)
    for i = 0, #list - 1 do C.strata_value_clear(p + i) end
  end)
  for i, k in ipairs(list) do
    if (type(k) ~= "string" and type(k) ~= "number") or not to_value(k, path + (i - 1), fn, "key") then
      raise(fn, "a key must be a string or an integer, got %s", type(k))
    end
  end
  return path, #list
end

-- object:read(key) -> a copy of what the object's properties hold at key
-- ("props.hp", "state", { "props", "bag", 2 }).
function methods:read(key)
  local path, n = path_of("object:read", key)
  return from_value(C.strata_object_get(self.world._w, self.uid, path, n), self.world)
end

-- object:write(key, value) -> true | nil, reason: a copy of value stored at key,
-- the tables on the way made when missing (as 5.4's handle.props.hp = v does).
function methods:write(key, value)
  local fn = "object:write"
  local path, n = path_of(fn, key)
  local err = errbuf()
  for i = 1, n - 1 do
    if C.strata_object_get(self.world._w, self.uid, path, i) == nil then
      local t = value_of({}, fn, "")
      if C.strata_object_set(self.world._w, self.uid, path, i, t, err) ~= 0 then return fail(fn, err[0]) end
    end
  end
  local v, why = value_of(value, fn, tostring(self) .. " " .. (type(key) == "string" and key or "value"))
  if not v then return nil, why end
  if C.strata_object_set(self.world._w, self.uid, path, n, v, err) ~= 0 then return fail(fn, err[0]) end
  return true
end

function methods:delete()
  local err = errbuf()
  if C.strata_world_delete(self.world._w, self.uid, err) ~= 0 then return fail("object:delete", err[0]) end
  return true
end

-- map:tilemap() -> the map's strata_tilemap * (owned by the object: valid until
-- it is deleted); nil for an object without tiles.
function methods:tilemap()
  local m = C.strata_world_tilemap(self.world._w, self.uid)
  return m ~= nil and m or nil
end

-- map:tiles() -> the map's tiles as strata.ffi's tile map (the world's: each
-- call asks the world whether it still holds them, and an edit tells the
-- world first, so that a savepoint's rollback undoes it).
function methods:tiles()
  local p = self:tilemap()
  local v = rawget(self, "_tiles")
  if v and (not p or rawget(v, "_ptr") == p) then return v end -- (gone: v's calls say so)
  if not p then raise("map:tiles", "%s has no tiles", tostring(self)) end
  local w, uid = self.world, self.uid
  v = wrap_tiles(p, {
    alive = function() return C.strata_world_tilemap(w._w, uid) == p end,
    before_edit = function()
      local err = errbuf()
      if C.strata_world_touch(w._w, uid, err) ~= 0 then return fail("map:tiles", err[0]) end
      return true
    end,
    owner = w,
  })
  rawset(self, "_tiles", v)
  return v
end

-- map:objects(kind) -> a list of handles of what stands on the map.
function methods:objects(kind)
  local n = tonumber(C.strata_world_objects_on(self.world._w, self.uid, kind, nil, 0))
  local out = ffi.new("uint64_t[?]", n + 1)
  C.strata_world_objects_on(self.world._w, self.uid, kind, out, n)
  local list = {}
  for i = 0, n - 1 do list[#list + 1] = self.world:object(tonumber(out[i])) end
  return list
end

-- map:features() -> an iterator over the features on the map.
function methods:features()
  local list, i = self:objects("feature"), 0
  return function() i = i + 1 return list[i] end
end

-- area:floor(n) -> the map of floor n, generated now if need be.
function methods:floor_map(n)
  local err, out = errbuf(), u64out()
  if C.strata_area_floor(self.world._rt, self.uid, n, out, err) ~= 0 then return fail("area:floor", err[0], self.world._rt) end
  return self.world:object(tonumber(out[0]))
end
jit.off(methods.floor_map)

function methods:add_floor(map, n)
  local err = errbuf()
  if C.strata_area_add_floor(self.world._rt, self.uid, map.uid, n, err) ~= 0 then return fail("area:add_floor", err[0]) end
  return true
end

function methods:has_floor(n) return C.strata_area_floor_map(self.world._rt, self.uid, n) ~= 0 end

-- object:emit(event, params, default) -> the result, or nil, reason.
function methods:emit(event, params, default) return self.world:_emit("object:emit", self.uid, event, params, default) end

-- object:subscribe(event, handler, args, { priority = }) -> subscription uid.
function methods:subscribe(event, handler, args, opts)
  opts = check("object:subscribe", opts, { "priority" })
  local w = self.world
  local a, why = value_of(args, "object:subscribe", "args")
  if not a then return nil, why end
  local err, uid = errbuf(), u64out()
  if C.strata_world_subscribe(w._w, self.uid, event, handler, a, opts.priority or 100, uid, err) ~= 0 then
    return fail("object:subscribe", err[0])
  end
  return tonumber(uid[0])
end

-- ---- worlds ----

local World = {}
local world_fields = {}
function world_fields.time(w) return C.strata_world_time(w._w) end
function world_fields.seed(w) return tonumber(C.strata_world_seed(w._w)) end
-- The token table the world's maps share (world.tokens:define(name, traits)):
-- its traits are not saved (a 5.4 world defines them from its mods' base.token
-- entries), so a game defines them again after strata.world.open.
function world_fields.tokens(w)
  local t = C.strata_world_tokens(w._w)
  C.strata_tokens_retain(t)
  return ffi.gc(t, C.strata_tokens_release)
end
World.__index = function(w, k)
  local f = world_fields[k]
  if f then return f(w) end
  return World[k]
end

-- The world of a strata_world * (taken over) with the registry's runtime.
local function wrap(fn, ptr, reg, mods)
  local err = errbuf()
  local resolver = C.strata_registry_resolver(reg._r)
  local rt = C.strata_runtime_new(ptr, resolver, err)
  if rt == nil then C.strata_world_free(ptr) return fail(fn, err[0]) end
  -- The runtime is freed before the world, by the one finalizer that owns both.
  local owner = ffi.gc(ffi.new("char[1]"), function() C.strata_runtime_free(rt) C.strata_world_free(ptr) end)
  local w = setmetatable({ _w = ptr, _rt = rt, _owner = owner, data = reg, _mods = mods,
                           _handles = setmetatable({}, { __mode = "v" }) }, World)
  reg._worlds[tostring(ptr)] = w
  return w
end

local function check_mods(fn, mods)
  mods = mods or {}
  if type(mods) ~= "table" then raise(fn, "mods must be a list of { id =, version = }") end
  for i, m in ipairs(mods) do
    if type(m) ~= "table" or type(m.id) ~= "string" then
      raise(fn, "mods[%d] must be { id =, version = }", i)
    end
  end
  return mods
end

-- strata.ffi.world.new{ seed =, data =, mods = }: data a registry (default a
-- new, empty one); mods the { id =, version = } list saves record, which a
-- Lua 5.4 host loads when it opens the save.
function M.new(opts)
  opts = check("strata.world.new", opts, { "seed", "data", "mods" })
  local seed = opts.seed or 0
  if type(seed) ~= "number" or seed ~= math.floor(seed) then
    raise("strata.world.new", "seed must be an integer, got %s", tostring(seed))
  end
  local reg = opts.data or M.registry()
  local err = errbuf()
  local ptr = C.strata_world_new(seed, err)
  if ptr == nil then return fail("strata.world.new", err[0]) end
  return wrap("strata.world.new", ptr, reg, check_mods("strata.world.new", opts.mods))
end

-- strata.ffi.world.open(path, { data = }) -> a world, or nil, reason.
function M.open(path, opts)
  opts = check("strata.world.open", opts, { "data" })
  if type(path) ~= "string" then raise("strata.world.open", "path must be a string, got %s", type(path)) end
  local err = errbuf()
  local out = ffi.new("strata_world *[1]")
  local mods = ffi.new("strata_mod_version *[1]")
  local n = ffi.new("size_t[1]")
  if C.strata_world_open(path, out, mods, n, err) ~= 0 then return fail("strata.world.open", err[0]) end
  local list = {}
  for i = 0, tonumber(n[0]) - 1 do
    list[#list + 1] = { id = ffi.string(mods[0][i].id), version = ffi.string(mods[0][i].version) }
  end
  C.strata_mod_versions_free(mods[0], n[0])
  return wrap("strata.world.open", out[0], opts.data or M.registry(), list)
end

-- world:save(path, { overwrite = }) -> true | nil, reason.
function World:save(path, opts)
  opts = check("world:save", opts, { "overwrite" })
  if type(path) ~= "string" then raise("world:save", "path must be a string, got %s", type(path)) end
  local mods = ffi.new("strata_mod_version[?]", #self._mods + 1)
  local keep = {}
  for i, m in ipairs(self._mods) do
    keep[#keep + 1], keep[#keep + 2] = m.id, m.version or "0.0.0"
    mods[i - 1].id = ffi.cast("char *", keep[#keep - 1])
    mods[i - 1].version = ffi.cast("char *", keep[#keep])
  end
  local so = ffi.new("strata_save_options", { overwrite = opts.overwrite and 1 or 0 })
  local err = errbuf()
  if C.strata_world_save_with(self._w, path, mods, #self._mods, so, err) ~= 0 then return fail("world:save", err[0]) end
  return true
end

function World:mods()
  local out = {}
  for i, m in ipairs(self._mods) do out[i] = { id = m.id, version = m.version } end
  return out
end

-- world:object(uid) -> the handle of a live object, nil once deleted.
function World:object(uid)
  if C.strata_world_object(self._w, uid) == nil then return nil end
  local h = self._handles[uid]
  if not h then
    h = setmetatable({ world = self, uid = uid }, Handle)
    self._handles[uid] = h
  end
  return h
end

local function place(self, fn, uid, opts)
  if opts.map then
    local err = errbuf()
    if C.strata_object_set_position(self._w, uid, opts.map.uid, opts.x or 0, opts.y or 0, err) ~= 0 then
      C.strata_world_delete(self._w, uid, nil)
      return fail(fn, err[0])
    end
  end
  if opts.props then
    local ok, why = self:object(uid):write("props", opts.props)
    if not ok then C.strata_world_delete(self._w, uid, nil) return nil, why end
  end
  return self:object(uid)
end

-- world:create_object{ kind =, archetype =, map =, x =, y =, props = }
function World:create_object(opts)
  opts = check("world:create_object", opts, { "kind", "archetype", "map", "x", "y", "props" })
  local err, uid = errbuf(), u64out()
  if C.strata_world_create(self._w, opts.kind or "object", opts.archetype, uid, err) ~= 0 then
    return fail("world:create_object", err[0])
  end
  return place(self, "world:create_object", tonumber(uid[0]), opts)
end

-- world:create_actor{ archetype =, map =, x =, y =, props =, player = }
function World:create_actor(opts)
  opts = check("world:create_actor", opts, { "archetype", "map", "x", "y", "props", "player" })
  local err, uid = errbuf(), u64out()
  if C.strata_world_create(self._w, "actor", opts.archetype, uid, err) ~= 0 then return fail("world:create_actor", err[0]) end
  local a, why = place(self, "world:create_actor", tonumber(uid[0]), opts)
  if not a then return nil, why end
  if opts.player and C.strata_set_player(self._rt, a.uid, err) ~= 0 then return fail("world:create_actor", err[0]) end
  return a
end

-- A token of the world's table by name.
function World:token(name)
  local err = errbuf()
  local t = C.strata_tokens_intern(C.strata_world_tokens(self._w), name, #name, err)
  if t == 0 then raise("world:token", "%s", message(err[0])) end
  return t
end

-- world:create_map{ width =, height =, fill =, archetype = }
function World:create_map(opts)
  opts = check("world:create_map", opts, { "width", "height", "fill", "archetype" })
  local err, uid = errbuf(), u64out()
  if C.strata_map_create(self._rt, opts.width or 0, opts.height or 0, opts.archetype, uid, err) ~= 0 then
    return fail("world:create_map", err[0])
  end
  local map = self:object(tonumber(uid[0]))
  if opts.fill and C.strata_tilemap_clear(map:tilemap(), self:token(opts.fill), err) ~= 0 then
    map:delete()
    return fail("world:create_map", err[0])
  end
  return map
end
jit.off(World.create_map)

-- world:create_area(archetype, { parent =, generator =, starting_floor =, deepest_floor = })
function World:create_area(archetype, opts)
  opts = check("world:create_area", opts, { "parent", "generator", "starting_floor", "deepest_floor" })
  local o = ffi.new("strata_area_opts", { parent = opts.parent and opts.parent.uid or 0, generator = opts.generator })
  if opts.starting_floor then o.has_starting_floor, o.starting_floor = 1, opts.starting_floor end
  if opts.deepest_floor then o.has_deepest_floor, o.deepest_floor = 1, opts.deepest_floor end
  local err, uid = errbuf(), u64out()
  if C.strata_area_create(self._rt, archetype, o, uid, err) ~= 0 then return fail("world:create_area", err[0]) end
  return self:object(tonumber(uid[0]))
end

-- world:create_stairs(map, x, y, { floor_delta = 1 })
function World:create_stairs(map, x, y, opts)
  opts = check("world:create_stairs", opts, { "floor_delta" })
  local err, uid = errbuf(), u64out()
  if C.strata_stairs_create(self._rt, map.uid, x, y, opts.floor_delta or 1, uid, err) ~= 0 then
    return fail("world:create_stairs", err[0])
  end
  return self:object(tonumber(uid[0]))
end

-- world:create_entrance(map, x, y, area, { floor = n })
function World:create_entrance(map, x, y, area, opts)
  opts = check("world:create_entrance", opts, { "floor" })
  local err, uid = errbuf(), u64out()
  local floor = opts.floor and i64out(opts.floor) or nil
  if C.strata_entrance_create(self._rt, map.uid, x, y, area.uid, floor, uid, err) ~= 0 then
    return fail("world:create_entrance", err[0])
  end
  return self:object(tonumber(uid[0]))
end
jit.off(World.create_entrance)

function World:player()
  local p = C.strata_player(self._rt)
  return p ~= 0 and self:object(tonumber(p)) or nil
end

function World:current_map()
  local m = C.strata_current_map(self._rt)
  return m ~= 0 and self:object(tonumber(m)) or nil
end

-- world:move(actor, x, y) -> true | nil, reason (a refusal in words).
function World:move(actor, x, y)
  local err, out = errbuf(), ffi.new("strata_move_outcome")
  if C.strata_move(self._rt, actor.uid, x, y, out, err) ~= 0 then return fail("world:move", err[0], self._rt) end
  if out.refusal ~= C.STRATA_MOVE_OK then return nil, ffi.string(out.reason) end
  return true
end
jit.off(World.move)

-- world:travel(actor, feature_or_map, { x =, y = }) -> map | nil, reason.
function World:travel(actor, target, opts)
  opts = check("world:travel", opts, { "x", "y" })
  local o
  if opts.x then o = ffi.new("strata_travel_opts", { has_xy = 1, x = opts.x, y = opts.y }) end
  local err, map = errbuf(), u64out()
  if C.strata_travel(self._rt, actor.uid, target.uid, o, map, err) ~= 0 then
    return fail("world:travel", err[0], self._rt)
  end
  if map[0] == 0 then return nil, "world:travel: refused by a base.before_travel handler" end
  return self:object(tonumber(map[0]))
end
jit.off(World.travel)

-- The failures list as plain data, the C list cleared.
local function failures_of(f)
  local out = {}
  for i = 0, tonumber(f.n) - 1 do
    local x = f.items[i]
    out[#out + 1] = { timer = x.timer ~= 0 and tonumber(x.timer) or nil,
                      subscription = x.subscription ~= 0 and tonumber(x.subscription) or nil,
                      event = x.event ~= nil and ffi.string(x.event) or nil,
                      handler = x.handler ~= nil and ffi.string(x.handler) or nil,
                      mod = x.mod ~= nil and ffi.string(x.mod) or nil,
                      message = x.message ~= nil and ffi.string(x.message) or nil }
  end
  C.strata_failures_clear(f)
  return out
end

-- world:advance(dt) -> the failures, { { timer =, handler =, mod =, message = }, ... }.
function World:advance(dt)
  if type(dt) ~= "number" then raise("world:advance", "dt must be a number, got %s", type(dt)) end
  local err, f = errbuf(), ffi.new("strata_failures")
  if C.strata_advance(self._rt, dt, f, err) ~= 0 then
    failures_of(f)
    return fail("world:advance", err[0])
  end
  return failures_of(f)
end
jit.off(World.advance)

-- world:schedule{ after =, every =, handler =, args = } -> timer uid.
function World:schedule(opts)
  opts = check("world:schedule", opts, { "after", "every", "handler", "args" })
  if type(opts.handler) ~= "string" then raise("world:schedule", "handler must be a base.handler ID, got %s", type(opts.handler)) end
  local a, why = value_of(opts.args, "world:schedule", "args")
  if not a then return nil, why end
  local err, uid = errbuf(), u64out()
  if C.strata_world_schedule(self._w, self.time + (opts.after or 0), opts.every or 0, opts.handler, a, uid, err) ~= 0 then
    return fail("world:schedule", err[0])
  end
  return tonumber(uid[0])
end

function World:cancel(uid)
  local err = errbuf()
  if C.strata_world_cancel(self._w, uid, err) ~= 0 then return fail("world:cancel", err[0]) end
  return true
end

function World:unsubscribe(uid)
  local err = errbuf()
  if C.strata_world_unsubscribe(self._w, uid, err) ~= 0 then return fail("world:unsubscribe", err[0]) end
  return true
end

function World:_emit(fn, source, event, params, default)
  if type(event) ~= "string" then raise(fn, "event must be an event ID, got %s", type(event)) end
  local p, why = value_of(params, fn, "params")
  if not p then return nil, why end
  local d
  d, why = value_of(default, fn, "default")
  if not d then return nil, why end
  local err = errbuf()
  local result = ffi.gc(ffi.new("strata_value[1]"), C.strata_value_clear)
  if C.strata_emit(self._rt, source, event, p, d, result, err) ~= 0 then return fail(fn, err[0]) end
  return from_value(result[0], self)
end
jit.off(World._emit)

-- world:emit(event, params, default) -> the result of the chain.
function World:emit(event, params, default) return self:_emit("world:emit", 0, event, params, default) end

-- world:on(event, name, fn, { priority = 100 }): a global handler of the
-- event, fn(source, params, result) -> result?, "stop"? (as 5.4's
-- events:register): registered as the world's registry's logic of ID name,
-- and with this world's runtime (not saved: register it again after an open).
function World:on(event, name, fn, opts)
  opts = check("world:on", opts, { "priority" })
  if type(event) ~= "string" or type(name) ~= "string" then raise("world:on", "event and name must be strings") end
  add_logic(self.data, C.STRATA_LOGIC_EVENT, name, fn, "handler")
  local err = errbuf()
  if C.strata_event_on(self._rt, event, name, opts.priority or 100, name, err) ~= 0 then return fail("world:on", err[0]) end
  return true
end

-- world:add_turns(object, { speed = 1, delay = })
function World:add_turns(object, opts)
  opts = check("world:add_turns", opts, { "speed", "delay" })
  local err = errbuf()
  if C.strata_turns_add(self._w, object.uid, opts.speed or 1, opts.delay or -1, err) ~= 0 then
    return fail("world:add_turns", err[0])
  end
  return true
end

function World:turn_took(object, duration)
  local err = errbuf()
  if C.strata_turn_took(self._w, object.uid, duration, err) ~= 0 then return fail("world:turn_took", err[0]) end
  return true
end

-- world:next_turn() -> the object whose turn starts (nil: none), the failures.
function World:next_turn()
  local err, f, who = errbuf(), ffi.new("strata_failures"), u64out()
  if C.strata_world_next_turn(self._rt, who, f, err) ~= 0 then
    failures_of(f)
    return fail("world:next_turn", err[0])
  end
  return who[0] ~= 0 and self:object(tonumber(who[0])) or nil, failures_of(f)
end
jit.off(World.next_turn)

-- strata.ffi.world: new, open, registry (the 5.4 module's strata.world names).
return function(S)
  S.world = M
  wrap_tiles, new_rng = S.tilemap.wrap, S.rng.new
  -- a world's map handle is a map to the other parts (strata.layout.generate(g, map))
  for _, k in ipairs { "map_ptr", "map_edit" } do
    local f = base[k]
    base[k] = function(name, m, ...)
      if getmetatable(m) == Handle then m = m:tiles() end
      return f(name, m, ...)
    end
  end
  -- a handle is a goal of map:distance_map where it stands (ghoul's step to the hero)
  local goal_cell = base.goal_cell
  base.goal_cell = function(map, v)
    if type(v) == "table" and getmetatable(v) == Handle then return v.x, v.y end
    if goal_cell then return goal_cell(map, v) end
  end
end
