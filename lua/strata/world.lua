-- strata.world: worlds as Lua sees them. The state lives in the C core
-- (strata.core.world_state); this file makes worlds (new, open, reload),
-- their objects, events, timers, random streams, savepoints and saves that
-- re-bind logic by ID, and installs what the feature modules give worlds
-- and kinds of objects (at the end: the one place that does). The core
-- owns every state transition and every refusal: this layer checks argument
-- shapes, calls the core, turns uids into handles. Each world has its own
-- registry of definitions (world.data) and its own token table: nothing
-- here is shared between two worlds.
local core = require "strata.core"
local data = require "strata.data"
local mods = require "strata.mods"
local options = require "strata.options"
local boundary = require "strata.boundary"
local private = require "strata.private"
local handle_of = require "strata.handle"
local modview = require "strata.modview"
local runtime = require "strata.runtime"
local tiles = require "strata.tiles"
local rooms = require "strata.rooms"
local branch_archetype = require "strata.branch_archetype"

local owner = private.owner -- handle / stream / ... -> its host world
local getmt = debug.getmetatable
local handle, is_handle = handle_of.new, handle_of.is

local M = {}
-- Every live world (weak keys): strata.reload re-runs a mod in each world that loaded it.
local worlds = setmetatable({}, { __mode = "k" })
private.worlds = worlds -- (strata run --watch reloads their mods: strata.watch)

-- The shortest period of a repeating timer (STRATA_TIMER_MIN_EVERY in C).
M.min_every = 0.001
-- Defaults of the fields a base.branch_archetype leaves out.
M.branch_defaults = branch_archetype.defaults

local World = {}
private.World = World
-- The world's fields given by feature modules (world.grid, world.branches): name -> fn(w).
local fields = {}

-- ---- worlds ---------------------------------------------------------------------------
World.__index = function(w, k)
  if k == "time" then return w._s:time() end
  if k == "seed" then return w._s:seed() end
  local field = fields[k]
  if field then return field(w) end
  return World[k]
end
private.protect(World, "strata.world")

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
    if not by_name[name] then
      tokens:define(name, { passable = true, transparent = true, cost = 1, glyph = name:sub(1, 1) })
    end
  end
  w._token_names = {}
  for name, e in pairs(by_name) do
    tokens:define(name, { passable = e.passable ~= false, transparent = e.transparent, cost = e.cost or 1,
      glyph = e.glyph or name:sub(1, 1), color = e.color })
    w._token_names[name] = true
  end
  w._overrides = overrides
end

local function wrap(state, registry, order)
  local w = setmetatable({ _s = state, _registry = registry, _mods = order,
    _handles = setmetatable({}, { __mode = "v" }), _tilemaps = {} }, World)
  state:set_ref_maker(function(uid) return handle(w, uid) end)
  w.rng = { stream = function(_, key) return w:stream(key) end }
  w.data = data.views(registry)
  -- What mod code gets: a view, read-only definitions, an rng it cannot rewire.
  modview.new(w)
  worlds[w] = true
  bind_tokens(w)
  runtime.attach(w)
  -- Per-map token traits (map:define_token), kept by the core with each map,
  -- defined again over the world's table.
  tiles.bind_map_tokens(w)
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
  opts = options.check("strata.world.new", opts, 2)
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

-- world:objects([{ kind = }]) -> the live objects (of that kind) in uid order:
-- the core lists them (never its own bookkeeping), Lua makes the handles.
function World:objects(opts)
  opts = options.check("world:objects", opts, 2)
  if opts.kind ~= nil and type(opts.kind) ~= "string" then
    error("kind must be a string, got " .. type(opts.kind), 0)
  end
  local out = {}
  for i, o in ipairs(self._s:objects(opts.kind)) do out[i] = handle(self, o.uid) end
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
  if w._registry:archetype(kind, id) then return end
  local t = data.archetype_type(kind)
  local known = t and w._registry:ids(t) or w._registry:all_ids()
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
  if opts.props ~= nil then self._s:set(uid, handle_of.label(opts.kind, uid) .. " props", opts.props, "props") end
  return handle(self, uid)
end

-- world:create_object{ kind =, archetype =, map =, x =, y =, props =, tags = }
function World:create_object(opts)
  opts = options.check("world:create_object", opts, 2)
  return create_object(self, opts)
end

-- world:create_map{ width =, height =, fill =, archetype =, tokens = }: the
-- core's map (strata_map_create: its archetype's properties, restock and
-- renew counting from now), filled and given its tokens in the same
-- savepoint, so that a refused fill or token leaves no map behind.
function World:create_map(opts)
  opts = options.check("world:create_map", opts, 2)
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
    local m = handle(self, runtime.call(self, "create_map", opts.width, opts.height, opts.archetype))
    if opts.fill ~= nil then m:clear(opts.fill) end
    for name, traits in pairs(opts.tokens or {}) do m:define_token(name, traits) end
    return m
  end)
  if not ok then error(m, 0) end
  return m
end

-- world:create_actor{ archetype =, map =, x =, y =, room =, props =, tags =, player = }
function World:create_actor(opts)
  opts = options.check("world:create_actor", opts, 2)
  opts = opts or {}
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  o.kind = "actor"
  o.player, o.room = nil, nil
  if opts.room ~= nil then
    if opts.map ~= nil then error("an actor stands on a map or in a room, not both", 0) end
    local ok, a = self:_atomic(function()
      local a = create_object(self, o)
      rooms.place(self, a, opts.room)
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
  tiles.drop_dead(self) -- (the views of maps the rollback removed)
  return false, r[2]
end

-- ---- events ---------------------------------------------------------------------------------
-- One ordered chain per emit, made and run by the core (strata_emit): global
-- handlers, the source's archetype events and its subscriptions, by
-- (priority, name); each handler in a savepoint, one that raises undone and
-- reported (base.handler_failed), and the chain goes on.
function World:_emit(source, event, params, default)
  self._registry:view("base.event"):ensure(event)
  runtime.sync(self)
  return runtime.emit(self, source, event, params, default)
end

function World:emit(event, params, default) return self:_emit(nil, event, params, default) end

-- ---- timers -------------------------------------------------------------------------------------
-- world:schedule{ after =, every =, handler =, args = } -> timer uid
function World:schedule(opts)
  opts = options.check("world:schedule", opts, 2)
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
-- world:next_due() -> the due time of the earliest timer (world time, as
-- world:advance counts it), or nil: what a host's loop sleeps until.
function World:next_due() return self._s:next_due() end

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
  return runtime.advance(self, "advance", dt, math.tointeger(M.max_runs) or math.floor(M.max_runs),
    math.tointeger(M.max_advance_runs) or math.floor(M.max_advance_runs))
end

-- world:run_realtime{ scale =, until_time =, loop =, clock =, ... } -> a handle
-- with :stop() and :sync(): world time follows the clock on a luv loop,
-- woken when something is due (strata.realtime).
function World:run_realtime(opts) return require("strata.realtime").run(self, opts) end

-- ---- saves -------------------------------------------------------------------------------------
-- Saving, opening and reloading are the host's: never on behalf of a mod's
-- callback, whatever reached it (advancing: the core refuses it inside any callback).
local function host_only(what)
  if core.guard.active() then error(what .. " belongs to the host: not inside a mod's callback", 0) end
end

-- The world's mods as the core records them: { {id, version}, ... }.
local function mod_list(w)
  local list = {}
  for i, m in ipairs(w._mods) do list[i] = { m.id, m.version } end
  return list
end

function World:save(path, opts)
  if type(path) ~= "string" then error("path must be a string, got " .. type(path), 0) end
  opts = options.check("world:save", opts, 2)
  -- The host's: never on behalf of a mod's callback, whatever reached it.
  host_only("saving")
  if self._s:depth() > 0 then error("cannot save while a handler's changes are not settled (inside a savepoint)", 0) end
  if not private.served[self] then return self._s:save(path, mod_list(self), opts.overwrite) end
  -- A served world's saves are its process's: the core refuses this one,
  -- in its words (which name its C function); the Lua one is added.
  local ok, err = pcall(self._s.save, self._s, path, mod_list(self), opts.overwrite)
  if not ok then error(("%s; from Lua, serve:save() of its handle (strata.serve)"):format(err), 0) end
end

-- world:to_json() -> the world as JSON text (docs/saves.md, "The JSON form"):
-- what a save holds, the same bytes for the same world.
function World:to_json()
  host_only("dumping a world")
  if self._s:depth() > 0 then error("cannot dump while a handler's changes are not settled (inside a savepoint)", 0) end
  return self._s:to_json(mod_list(self))
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
        all = all or reg:all_ids()
        known = all
      end
      errors[#errors + 1] = ("unknown ID '%s' (%s)%s"):format(id, where, data.suggest(id, known))
    end
  end
  return errors
end

-- The features' checks of a world just opened (filled with the features below).
local open_hooks = {}

-- A world of the stored state just read (a save's or JSON's) and the mod list
-- it names: its mods loaded (opts.mods, else the list), its IDs and the
-- features' checks passed; `what` names it in errors ("cannot open 'w.db'").
local function open_state(name, what, state, saved_mods, opts)
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  if not o.mods then
    o.mods = {}
    for i, m in ipairs(saved_mods) do o.mods[i] = m[1] end
  end
  local registry, order = load_mods(name, o, state:seed())
  local errors = check_ids(state, registry)
  if #errors > 0 then
    error(("%s: %d unknown ID%s:\n  %s"):format(what, #errors, #errors > 1 and "s" or "",
      table.concat(errors, "\n  ")), 0)
  end
  local w = wrap(state, registry, order)
  -- What a feature checks in the stored state (on_open): one line naming it.
  for _, hook in ipairs(open_hooks) do
    local ok, msg = pcall(hook, w)
    if not ok then error(("%s: %s"):format(what, tostring(msg)), 0) end
  end
  return w
end

-- strata.world.open(path, { mods =, mod_path = })
function M.open(path, opts)
  opts = options.check("strata.world.open", opts, 2)
  host_only("opening a world")
  if type(path) ~= "string" then error("path must be a string, got " .. type(path), 0) end
  local state, saved_mods = core.world_state.open(path)
  return open_state("strata.world.open", ("cannot open '%s'"):format(path), state, saved_mods, opts or {})
end

-- strata.world.from_json(text, { mods =, mod_path = }): a world from the
-- text world:to_json gives, through the same checks as a save's.
function M.from_json(text, opts)
  opts = options.check("strata.world.from_json", opts, 2)
  host_only("loading a world")
  if type(text) ~= "string" then error("text must be a string, got " .. type(text), 0) end
  local state, saved_mods = core.world_state.from_json(text)
  return open_state("strata.world.from_json", "cannot load the world", state, saved_mods, opts or {})
end

-- For strata.serve: a served world is made as an opened one is; its saves
-- give the core the same mod list; opening one is the host's.
M._open_state, M._mod_list, M._host_only = open_state, mod_list, host_only

-- ---- the features ------------------------------------------------------------------
-- Each feature module returns what it gives: methods of worlds (world),
-- what kinds of objects get (kinds: methods, fields, delete; handle.install),
-- fields of worlds (fields: world.grid), and what to do after a reload
-- (on_reload). They are installed here, in this order: a later module's
-- entry for a kind replaces an earlier one's (strata.branches guards the
-- deletes strata.rooms gives rooms); two modules never give a world the
-- same method.
local features = {
  tiles,                       -- the tile methods of maps
  require "strata.areas",      -- areas, floors, entrances, stairs, travel
  rooms,                       -- rooms and exits, world:go
  require "strata.walk",       -- world:move, world:walk
  require "strata.turns",      -- the turn scheduler: world:add_turns, world:next_turn
  require "strata.grid",       -- XY maps spawned as rooms and exits (world.grid)
  require "strata.appearance", -- what is seen of a room: room:appearance, room:display_name
  require "strata.branches",   -- procedural dungeon branches (world.branches)
}
local reload_hooks = {}
for _, f in ipairs(features) do
  open_hooks[#open_hooks + 1] = f.on_open
  for name, fn in pairs(f.world or {}) do
    assert(World[name] == nil, name)
    World[name] = fn
  end
  for kind, ext in pairs(f.kinds or {}) do handle_of.install(kind, ext) end
  for name, get in pairs(f.fields or {}) do fields[name] = get end
  reload_hooks[#reload_hooks + 1] = f.on_reload
end

-- strata.reload{ "mod", world = w }: re-runs a mod in place, in `world` or in
-- every live world that loaded it. An ID still used by a world's state cannot
-- disappear; any failure leaves every world as it was.
function M.reload(opts)
  host_only("reloading mods")
  if type(opts) == "string" then opts = { opts } end
  if type(opts) ~= "table" then error("expected { mod_id, world = w }", 0) end
  local id = opts[1]
  local rest = {}
  for k, v in pairs(opts) do if k ~= 1 then rest[k] = v end end
  rest = options.check("strata.reload", rest, 2)
  if type(id) ~= "string" then error("expected { mod_id, world = w }", 0) end
  local targets = {}
  if opts.world ~= nil then
    if getmt(opts.world) ~= World then error("world must be a world, got " .. tostring(opts.world), 0) end
    targets[1] = opts.world
  else
    -- (a world whose state is closed is no longer live: a served world's
    -- handle closed it, or the collector finalized it before dropping it here)
    for w in pairs(worlds) do
      if not w._s:closed() then
        for _, m in ipairs(w._mods) do if m.id == id then targets[#targets + 1] = w break end end
      end
    end
  end
  if #targets == 0 then error("mod '" .. id .. "' is not loaded in any live world", 0) end
  -- Load everything first; replace only when every world accepts the new definitions.
  local fresh = {}
  for i, w in ipairs(targets) do
    fresh[i] = mods.prepare_reload(w._registry, id, function(new_reg) return check_ids(w._s, new_reg) end)
  end
  for i, w in ipairs(targets) do
    mods.commit_reload(w._registry, fresh[i])
    bind_tokens(w)
    runtime.reloaded(w)
    for _, hook in ipairs(reload_hooks) do hook(w) end -- (strata.grid: parse the maps again)
  end
end

-- The public edge: errors name the function and point at the caller.
boundary.wrap_all(World, "world:")
M.new = boundary.wrap("strata.world.new", M.new)
M.open = boundary.wrap("strata.world.open", M.open)
M.from_json = boundary.wrap("strata.world.from_json", M.from_json)
M.reload = boundary.wrap("strata.reload", M.reload)

return M
