-- strata.runtime: the Lua side of a world's runtime (bindings/lua/runtime.c,
-- core/include/strata/runtime.h, resolver.h). The core does areas, floors,
-- travel, events and timers; whatever logic it needs it asks for by (kind, ID)
-- through the dispatcher made here, which answers from the world's data
-- registry and runs mod functions through mods.call (the sandbox), with the
-- arguments and ctx of docs/lua-api.md. Definitions are handed over as plain tables,
-- converted once per ID by the binding (cached until a reload).
--
-- M.attach(w) gives a world its runtime (w._rt), M.call(w, method, ...) calls
-- it, M.emit runs an emit from Lua, M.sync / M.reloaded keep the core's
-- global handlers those of the registry.
local core = require "strata.core"
local branch_archetype = require "strata.branch_archetype"
local handle_of = require "strata.handle"
local mods = require "strata.mods"
local point = require "strata.point"
local private = require "strata.private"
local tiles = require "strata.tiles"
local owner = private.owner

local M = {}
local handle = handle_of.new
local none = {} -- (never written: what pairs walks when a world has no handlers, with no table made a call)

local function fail(fmt, ...) error(fmt:format(...), 0) end

local is_handle = handle_of.is

-- extra becomes the ctx: with the world as mod code sees it (its view).
local function ctx_for(w, extra)
  extra.world = private.view[w] or w
  return extra
end

-- ---- emits from Lua ------------------------------------------------------------------------
-- The core runs the chain; the params table and the results stay Lua values
-- held here: the core gets marks { [MARK] = emit, [VERSION] = which result }
-- in their place. What crosses the border is copied (strata.mods.copy): the
-- params as the emit was given them (an emit by mod code hands over its own
-- table), each handler's params and result anew (a metatable one handler
-- plants reaches neither the next nor the host), and each result (by
-- strata.mods.call, before the handler's budget closes). Params may hold
-- functions (what the emitter grants the handlers); results hold data.
local MARK, VERSION, tokens = "\0strata emit", "\0strata result", 0

function M.emit(w, source, event, params, default)
  params = mods.copy(event .. " params", params, "f")
  tokens = tokens + 1
  local token = tokens
  local e = { token = token, params = params, results = { [0] = default }, n = 0 }
  w._emits[token] = e
  local dflt = default ~= nil and { [MARK] = token, [VERSION] = 0 } or nil
  local ok, r = pcall(w._rt.emit, w._rt, source and source.uid, event, { [MARK] = token }, dflt)
  w._emits[token] = nil -- (an error or not: hence the pcall)
  if not ok then error(r, 0) end
  if type(r) == "table" and r[MARK] == token then return e.results[r[VERSION]] end
  return r
end

local function ordered_uniques(w)
  return w._registry:view("base.unique_area"):iter()
end

local function unique_at(u)
  if u.at == nil then return 0, 0 end
  return point(u.at, "base.unique_area " .. u._id .. " at")
end

-- w._rt:method(...): a call into the core's runtime, with the registry's
-- handlers in step. Its errors are the binding's, named by the Lua API
-- function the method does the work of (bindings/lua/runtime.c).
function M.call(w, method, ...)
  M.sync(w)
  local rt = w._rt
  return rt[method](rt, ...)
end

-- M.call for what moves the world's time (advance, next_turn): never from a
-- handler the world runs (the core refuses it inside any callback too).
local function advanced(w, ok, ...)
  w._advancing = false -- (an error or not: hence the pcall)
  if not ok then error((...), 0) end
  return ...
end

function M.advance(w, method, ...)
  if w._advancing then error("a timer or event handler cannot advance the world it runs in", 0) end
  M.sync(w)
  w._advancing = true
  -- (the results passed on as they are: no table made a call, as a walk advances step by step)
  return advanced(w, pcall(w._rt[method], w._rt, ...))
end

-- ---- logic and definitions by ID ------------------------------------------------------
-- bindings/lua/runtime.c asks this dispatcher for what the core needs:
-- callables by (kind, ID), definitions, rollbacks to follow, and runs
-- the callables through it (in the sandbox, with ctx as before).
-- The kinds are the core's strata_logic, by name (core.runtime.logic).
local logic = core.runtime.logic
local GENERATE_FLOOR, GENERATE, ON_SPAWN = logic.generate_floor, logic.generate, logic.on_spawn
local STARTING_POS, EVENT, HANDLER, GENERATE_ROOM = logic.starting_pos, logic.event, logic.handler, logic.generate_room
-- The map archetype's hooks, by kind: each one's name is its field's.
local hook_names = {}
for _, name in ipairs{ "on_spawn", "on_load", "on_enter", "on_leave", "on_restock", "on_renew", "starting_pos" } do
  hook_names[logic[name]] = name
end

local function lookup(w, type_id, id)
  local ok, e = pcall(function() return w._registry:view(type_id):ensure(id) end)
  if ok then return e end
  return nil, tostring(e)
end

local function int_or_nil(v) return math.type(v) == "integer" and v or nil end

-- C orders by integer priorities: a fractional one rounds down.
local function int_priority(p)
  if math.type(p) == "integer" then return p end
  if p >= 2^62 then return math.tointeger(2^62) end
  if p <= -2^62 then return -math.tointeger(2^62) end
  return math.tointeger(math.floor(p))
end

local function global_handler(w, id)
  local event, name = id:match("^(.-)\n(.*)$")
  for _, h in ipairs(event and w._registry.handlers and w._registry.handlers[event] or {}) do
    if h.name == name then return h end
  end
end

-- ctx.rng: a stream value (world.rng:stream) of the generator the core
-- lends to the world for the call, under its key.
local function map_ctx(w, info, extra)
  local ctx = ctx_for(w, extra)
  ctx.rng = info.rng
  return ctx
end

local function run(w, kind, fn, info)
  local id = info.id
  if kind == GENERATE_FLOOR or kind == GENERATE then
    local a, n = handle(w, info.area), info.floor
    local ctx = map_ctx(w, info, { area = a, floor = n, depth = n, params = info.params or {} })
    local m
    if kind == GENERATE then m = mods.call_in(w, id .. " generate", fn, ctx)
    else m = mods.call_in(w, id .. " generate_floor", fn, a, n, ctx) end
    if not is_handle(m, "map") or owner[m] ~= w or not m:alive() then
      local what = kind == GENERATE and "map archetype '" .. id .. "'" or "area generator '" .. id .. "'"
      fail("%s returned %s for floor %d of %s: expected a map (world:create_map)", what,
        is_handle(m) and tostring(m) or type(m), n, tostring(a))
    end
    return m.uid
  elseif kind == GENERATE_ROOM then
    -- a branch's room (strata_branch_generate): the spec goes back to the core, which checks it
    local ctx = map_ctx(w, info, { branch = handle(w, info.source), depth = info.depth,
      coords = { x = info.x, y = info.y } })
    return mods.call_in(w, id .. " generate", fn, ctx)
  elseif kind == EVENT or kind == HANDLER then
    local source = info.source and handle(w, info.source) or w
    if info.event then
      local what
      if kind == HANDLER then what = id
      elseif info.name then what = id .. " events"
      else
        local h = global_handler(w, id)
        what = "event handler '" .. h.name .. "' of mod " .. h.mod
      end
      -- an emit from Lua: its params and results stay Lua values (the core holds marks)
      local params, result, e = info.params, info.result, nil
      if type(params) == "table" and params[MARK] then
        e = w._emits[params[MARK]]
        params = e and e.params
      end
      if e and type(result) == "table" and result[MARK] then result = e.results[result[VERSION]] end
      if e then params, result = mods.copy(what .. ": params", params, "f"), mods.copy(what .. ": result", result) end
      local r, stop
      if kind == HANDLER then r, stop = mods.call_in(w, what, fn, source, params, info.args, result)
      else r, stop = mods.call_in(w, what, fn, source, params, result) end
      if e and r ~= nil and r ~= "stop" then
        e.n = e.n + 1
        e.results[e.n] = r
        r = { [MARK] = e.token, [VERSION] = e.n }
      end
      return r, stop == "stop"
    end
    mods.run_in(w, id, fn, w, { time = info.time, timer = info.timer }, info.args) -- (no result)
    return nil
  end
  local name = hook_names[kind]
  local m = handle(w, info.map)
  local extra
  if kind == ON_SPAWN then
    -- at generation, or a spawn tick (docs/areas.md)
    extra = { area = info.area and handle(w, info.area), floor = info.floor, depth = info.floor,
      params = info.params or {}, map = m }
  elseif name == "on_restock" or name == "on_renew" then
    extra = { steps = info.steps, map = m, area = m.area, floor = m.floor }
  else
    extra = { actor = info.actor and handle(w, info.actor), from = info.from and handle(w, info.from),
      to = info.to and handle(w, info.to), map = kind == STARTING_POS and m or nil }
  end
  local ctx = map_ctx(w, info, extra)
  if kind == STARTING_POS then
    local x, y = mods.call_in(w, id .. " " .. name, fn, m, ctx)
    if type(x) == "table" then x, y = point(x, id .. " starting_pos") end
    return x, y
  end
  mods.run_in(w, id .. " " .. name, fn, m, ctx) -- (the other hooks have no result)
end

local function dispatcher(w)
  local reg = w._registry
  local ops = {}
  function ops.resolve(kind, id)
    if kind == GENERATE_FLOOR then
      local g, msg = lookup(w, "base.area_generator", id)
      if not g then return nil, msg end
      return type(g.generate_floor) == "function" and g.generate_floor or false, g._mod
    elseif kind == EVENT then
      local h = global_handler(w, id)
      if not h then return nil, "unknown event handler " .. id end
      return h.fn, h.mod
    elseif kind == HANDLER then
      local h = reg.by_type["base.handler"] and reg.by_type["base.handler"][id]
      if not h then return nil, "unknown base.handler '" .. id .. "'" end
      return type(h.run) == "function" and h.run or false, h._mod
    elseif kind == GENERATE_ROOM then
      local g, msg = lookup(w, "base.room_generator", id)
      if not g then return nil, msg end
      return type(g.generate) == "function" and g.generate or false, g._mod
    end
    local ma, msg = lookup(w, "base.map_archetype", id)
    if not ma then return nil, msg end
    local f = ma[kind == GENERATE and "generate" or hook_names[kind]]
    return type(f) == "function" and f or false, ma._mod
  end
  function ops.map_archetype(id)
    local ma, msg = lookup(w, "base.map_archetype", id)
    if not ma then return nil, msg end
    local renew = type(ma.renew) == "table" and ma.renew or {}
    local d = { mod = ma._mod, properties = type(ma.properties) == "table" and ma.properties or nil }
    for _, what in ipairs{ "restock", "renew" } do
      local every = renew[what .. "_every"]
      if type(every) == "number" and every > 0 then d[what .. "_every"] = every end
    end
    if type(ma.starting_pos) == "table" then d.start_x, d.start_y = point(ma.starting_pos, id .. " starting_pos") end
    local spawn = type(ma.spawn) == "table" and ma.spawn or {}
    if type(spawn.every) == "number" and spawn.every > 0 then
      d.spawn_every, d.spawn_max = spawn.every, int_or_nil(spawn.max) or math.maxinteger
    end
    local keep = type(renew.keep) == "table" and renew.keep or {}
    d.renew_keeps_geometry = renew.regenerate == false
    d.renew_drops_actors = keep.actors == false
    d.keep_tags = type(keep.tags) == "table" and keep.tags or nil
    return d
  end
  function ops.area_archetype(id)
    local aa, msg = lookup(w, "base.area_archetype", id)
    if not aa then return nil, msg end
    local floors = {}
    for n, ma in pairs(type(aa.floors) == "table" and aa.floors or {}) do
      if math.type(n) == "integer" and type(ma) == "string" then floors[#floors + 1] = { n = n, map_archetype = ma } end
    end
    return { mod = aa._mod, types = aa.types, floors = floors, generator = aa.generator, image = aa.image,
      starting_floor = int_or_nil(aa.starting_floor), deepest_floor = int_or_nil(aa.deepest_floor),
      params = aa.params, meta = aa.meta }
  end
  function ops.unique_area(id)
    local u, msg = lookup(w, "base.unique_area", id)
    if not u then return nil, msg end
    local d = { area = u.area, parent = u.parent, on_floor = int_or_nil(u.on_floor),
      starting_floor = int_or_nil(u.starting_floor), eager = u.eager and true or false }
    if u.at ~= nil then d.at_x, d.at_y = unique_at(u) end
    return d
  end
  function ops.unique_list()
    local ids = {}
    for _, u in ordered_uniques(w) do ids[#ids + 1] = u._id end
    return ids
  end
  function ops.archetype_event(kind, archetype, event, i)
    local arch = reg:archetype(kind, archetype)
    if not arch or type(arch.events) ~= "table" then return nil end
    local k = 0
    for _, e in ipairs(arch.events) do
      if e.id == event then
        k = k + 1
        if k == i then return e.name or arch._id, int_priority(e.priority or 100), e.handler, arch._mod end
      end
    end
    return nil
  end
  -- A branch archetype as the core reads it (checked by strata.branch_archetype).
  function ops.branch_archetype(id)
    local ok, d = pcall(branch_archetype.for_core, w, id)
    if not ok then return nil, tostring(d) end
    return d
  end
  function ops.event_declared(event)
    return reg.by_type["base.event"] ~= nil and reg.by_type["base.event"][event] ~= nil
  end
  -- The core rolled a savepoint back (its journal is the only one).
  function ops.rolled_back() tiles.drop_dead(w) end
  function ops.call(kind, fn, info)
    local ok, a, b = pcall(run, w, kind, fn, info)
    if not ok then return false, tostring(a) end
    return true, a, b
  end
  return function(op, ...) return ops[op](...) end
end

-- Global handlers (events:register) are the core's too, named "event\nname".
-- What was registered is kept to notice a change of the registry's lists
-- (a reload, or a host editing them): then they are registered anew.
local function register_handlers(w)
  for _, name in ipairs(w._rt_handlers or {}) do w._rt:event_off(name) end
  local names, seen = {}, {}
  for event, list in pairs(w._registry.handlers or none) do
    local s = { list = list, n = #list }
    for i, h in ipairs(list) do
      w._rt:event_on(event, h.name, int_priority(h.priority), event .. "\n" .. h.name)
      names[#names + 1] = h.name
      s[i] = h
    end
    seen[event] = s
  end
  w._rt_handlers, w._rt_seen = names, seen
end

-- Registers the registry's global handlers anew when its lists changed.
function M.sync(w)
  local seen, n = w._rt_seen, 0
  for event, list in pairs(w._registry.handlers or none) do
    local s = seen[event]
    if not s or s.list ~= list or s.n ~= #list then n = -1 break end
    for i = 1, s.n do if s[i] ~= list[i] then n = -1 break end end
    if n < 0 then break end
    n = n + 1
  end
  if n >= 0 then for _ in pairs(seen) do n = n - 1 end end
  if n ~= 0 then
    w._rt:drop_cache()
    register_handlers(w)
  end
end

function M.attach(w)
  w._rt = core.runtime.new(w._s, dispatcher(w))
  w._emits = {}
  register_handlers(w)
end

function M.reloaded(w)
  w._rt:drop_cache()
  register_handlers(w)
end

return M
