-- strata.handle: handles, the names of a world's objects as Lua sees them.
-- A handle holds nothing but its uid (in a side table, out of mod code's
-- reach) and its kind (its metatable: one per kind); every field is read
-- from the core when asked for: the common methods (below), each kind's own
-- methods and fields (what the feature modules give, installed by
-- strata.world through M.install), the persistent tables (strata.proxy) and
-- the core's object fields.
local core = require "strata.core"
local boundary = require "strata.boundary"
local options = require "strata.options"
local private = require "strata.private"
local proxy = require "strata.proxy"
local subscription = require "strata.subscription"

local owner = private.owner
local getmt = debug.getmetatable

local M = {}
-- A big world has a million handles: whatever a handle's uid and kind cost
-- to find is a cache miss per call. The kind is the metatable (no lookup);
-- the uid one entry of one table.
local uid_of = setmetatable({}, { __mode = "k" }) -- handle -> uid
local mt_of = {}   -- kind -> the metatable of its handles (made by handle_mt, below)
local kind_of = {} -- a handles' metatable -> its kind
local handle_mt

-- For strata's own hot paths (world:travel): a handle's uid and kind read
-- straight from these (no __index call); the tables stay out of mod code's reach.
M.uid_of, M.kind_of = uid_of, kind_of

-- "actor#4"
local function label(kind, uid) return kind .. "#" .. uid end
M.label = label

-- Whether v is a handle (of an object of `kind`, when given).
-- "a map", "an area", "an actor": a kind with its article, for errors.
function M.a(kind) return (kind:match("^[aeiou]") and "an " or "a ") .. kind end

function M.is(v, kind)
  if type(v) ~= "table" then return false end
  local mt = getmt(v)
  if kind == nil then return kind_of[mt] ~= nil end
  return mt ~= nil and mt_of[kind] == mt
end
local is_handle = M.is

-- The handle of object uid of world w (one per object while it is used), or
-- nil when there is no such object.
function M.new(world, uid)
  local kind = world._s:info(uid)
  local h = world._handles[uid]
  if h then return kind and h or nil end
  if not kind then return nil end
  h = setmetatable({}, mt_of[kind] or handle_mt(kind))
  uid_of[h] = uid
  owner[h] = world
  world._handles[uid] = h
  return h
end
local handle = M.new

-- The handle of a uid the core has just given as a live object's: the one
-- in use without asking the core again (the hot path of area_of, floor, find_unique).
function M.live(world, uid)
  return world._handles[uid] or handle(world, uid)
end

-- Raises "kind#uid was deleted" unless h's object lives: in a public method
-- with no position (its wrapper names the method and puts the caller's
-- line), for a field `what` ("x: actor#4 was deleted") at the line that read it.
function M.check_alive(h, what)
  if not owner[h]._s:info(h.uid) then
    local msg = label(h.kind, h.uid) .. " was deleted"
    error(what and what .. ": " .. msg or msg, boundary.level(3))
  end
end
local check_alive = M.check_alive

-- (a handle's uid and its world's state: the converter stores only this world's handles)
core.world_state.types(kind_of, function(h)
  local w = owner[h]
  return uid_of[h], w and w._s
end, proxy.mt, proxy.snapshot, private.protected)

-- ---- what kinds add ----------------------------------------------------------------------
-- kinds[kind] = { methods = { name = fn }, get = { field = fn(h) }, set = { field = fn(h, v) },
-- delete = fn(h, opts) } (which kinds are the world's own bookkeeping, never
-- listed nor deleted, is the core's answer: strata_kind_is_bookkeeping).
local kinds = {}
local methods_of -- (below)

-- Adds what a feature module gives a kind: methods (named kind:name in their
-- errors), fields and delete. A later module's entry replaces an earlier one's
-- (strata.branches guards the deletes of rooms strata.rooms gives).
function M.install(kind, ext)
  local k = kinds[kind] or { methods = {}, get = {}, set = {} }
  kinds[kind] = k
  for name, f in pairs(ext.methods or {}) do k.methods[name] = boundary.wrap(kind .. ":" .. name, f) end
  for name, f in pairs(ext.get or {}) do k.get[name] = f end
  for name, f in pairs(ext.set or {}) do k.set[name] = f end
  if ext.delete then k.delete = ext.delete end
  for name in pairs(methods_of) do methods_of[name] = nil end
end

-- ---- the methods of every handle --------------------------------------------------------
local common = {}

function common:alive() return owner[self]._s:info(self.uid) ~= nil end

function common:delete(opts)
  check_alive(self)
  local k = kinds[self.kind]
  if k and k.delete then return k.delete(self, opts) end
  if opts ~= nil then error(("%s takes no options"):format(tostring(self)), 0) end
  owner[self]._s:delete(self.uid)
  owner[self]._tilemaps[self.uid] = nil
end

function common:emit(event, params, default)
  check_alive(self)
  return owner[self]:_emit(self, event, params, default)
end

function common:subscribe(event, handler_id, args, opts)
  check_alive(self)
  opts = options.check("object:subscribe", opts, 2)
  local w = owner[self]
  w._registry:view("base.event"):ensure(event)
  w._registry:view("base.handler"):ensure(handler_id)
  local priority = opts and opts.priority or 100
  if math.type(priority) ~= "integer" then error("priority must be an integer", 0) end
  local uid = w._s:subscribe(self.uid, event, handler_id, args, priority,
    label(self.kind, self.uid) .. " subscription args")
  return subscription.new(w, { uid = uid, object = self.uid, event = event, handler = handler_id })
end

function common:tag(name) check_alive(self) owner[self]._s:set_tag(self.uid, name, true) return self end
function common:untag(name) check_alive(self) owner[self]._s:set_tag(self.uid, name, false) return self end
function common:has_tag(name) check_alive(self) return owner[self]._s:has_tag(self.uid, name) end
function common:tags() check_alive(self) return owner[self]._s:tags(self.uid) end

function common:subscriptions()
  check_alive(self)
  local out = {}
  for i, sub in ipairs(owner[self]._s:subscriptions(self.uid)) do out[i] = subscription.new(owner[self], sub) end
  return out
end

boundary.wrap_all(common, "object:")

-- The methods of each kind's handles in one table (the common ones and the
-- kind's own), made on first use: one lookup per method call on the hot
-- path of generators.
methods_of = setmetatable({}, { __index = function(t, kind)
  local all = {}
  for k, f in pairs(common) do all[k] = f end
  local ext = kinds[kind]
  for k, f in pairs(ext and ext.methods or {}) do all[k] = f end
  t[kind] = all
  return all
end })

-- ---- the metatable ------------------------------------------------------------------------
-- Persistent tables on handles: each is a top-level key of the object's properties.
local persistent = { props = true, state = true, meta = true }

-- A handle's fields besides its uid and methods: its kind, its kind's
-- fields, its persistent tables and the core's object fields.
local function index(h, kind, k)
  if k == "kind" then return kind end
  local ext = kinds[kind]
  local get = ext and ext.get[k]
  if get then check_alive(h, k) return get(h) end
  local s = owner[h]._s
  local uid = uid_of[h]
  if persistent[k] then
    check_alive(h, k)
    local _, is_table = s:get(uid, k)
    if not is_table then s:set(uid, label(kind, uid) .. " " .. k, {}, k) end
    return proxy.new(owner[h], uid, label(kind, uid), { k })
  end
  if k == "world" then
    -- what an event handler, which gets no ctx, acts on: mod code (a guarded
    -- callback) reads the world as its ctx.world has it, the host its own
    local w = owner[h]
    return core.guard.active() and private.view[w] or w
  end
  if k == "archetype" or k == "map" or k == "x" or k == "y" then
    check_alive(h, k)
    local _, arch, map, x, y = s:info(uid)
    if k == "archetype" then return arch end
    if k == "map" then return map and handle(owner[h], map) end
    return k == "x" and x or y
  end
  return nil
end

-- An actor moves through the world, which checks the way and emits the events.
local moved_by = { x = "world:move(actor, x, y)", y = "world:move(actor, x, y)",
  map = "world:travel(actor, map, { x =, y = })" }

local newindex = boundary.lined(function(h, k, v)
  local ext = kinds[h.kind]
  local set = ext and ext.set[k]
  if set then
    check_alive(h, k)
    return set(h, v)
  end
  if persistent[k] then
    check_alive(h, k)
    if type(v) ~= "table" then error(label(h.kind, h.uid) .. " " .. k .. ": must be a table", 0) end
    owner[h]._s:set(h.uid, label(h.kind, h.uid) .. " " .. k, v, k)
    return
  end
  if h.kind == "actor" and moved_by[k] then
    error(("actor.%s cannot be set: use %s"):format(k, moved_by[k]), 0)
  end
  error(("%s: cannot set field '%s' (persistent tables: props, state, meta)"):format(label(h.kind, h.uid), tostring(k)), 0)
end)

local function tostring_of(h) return label(h.kind, h.uid) end
local function eq(a, b)
  local ua, ub = uid_of[a], uid_of[b]
  return ua ~= nil and ub ~= nil and ua == ub and owner[a] == owner[b]
end

-- The metatable of kind's handles, made on first use. Its `methods` gives a
-- handle's methods, as C types keep theirs in their metatable's `methods`
-- (spec/api_documented_spec.lua checks that each one is documented).
handle_mt = function(kind)
  local mt = {
    __index = function(h, k) -- (the uid and the methods first: every call reads them)
      if k == "uid" then return uid_of[h] end
      local m = methods_of[kind][k]
      if m then return m end
      return index(h, kind, k)
    end,
    __newindex = newindex, __tostring = tostring_of, __eq = eq,
    methods = function() return methods_of[kind] end,
  }
  mt_of[kind], kind_of[mt] = mt, kind
  return private.protect(mt, "strata.handle")
end

return M
