-- strata.areas: areas and their floors, map archetypes at work, unique areas,
-- entrances, stairs and travel (docs/areas.md), as handles over the
-- core's runtime (core/include/strata/area.h, feature.h, unique.h, travel.h;
-- strata.runtime is the Lua side of it).
--
-- The core does the work and owns every refusal: this file checks the shapes
-- of arguments, calls the runtime (whose errors the binding names by the Lua
-- function) and turns uids into handles. The state is the C world's, saved and
-- reopened with it; its bookkeeping (what an area, map, feature and the world
-- record keep) is read through the runtime's getters (bindings/lua/schema.c),
-- never through its stored layout. Logic is only ever looked up by ID in the
-- registry.
local handle_of = require "strata.handle"
local options = require "strata.options"
local private = require "strata.private"
local runtime = require "strata.runtime"
local tiles = require "strata.tiles"
local owner = private.owner
local handle = handle_of.new
local live = handle_of.live -- (for the core's answers about live objects, on the hot paths)

-- The world's methods and what kinds of objects get (installed by strata.world).
local world, kinds = {}, {}

-- ---- the bookkeeping, through the core's getters -------------------------------------
local function map_area(w, uid) return w._rt:map_area(uid) end -- area uid, floor | nil
local function area_field(w, uid, i) return (select(i, w._rt:area_info(uid))) end
local PARENT, STARTING, DEEPEST, VISITED, UNIQUE, GENERATOR, CONQUERED = 1, 2, 3, 4, 5, 6, 7

local function fail(fmt, ...) error(fmt:format(...), 0) end

local is_handle = handle_of.is

local a = handle_of.a

local uid_of, kind_of, getmt = handle_of.uid_of, handle_of.kind_of, debug.getmetatable

-- v, a live handle of w's of `kind`, and its uid; else an error naming what.
local function check_handle(w, v, kind, what)
  if not is_handle(v) then fail("%s: expected %s handle, got %s", what, a(kind), type(v)) end
  if owner[v] ~= w then fail("%s: %s belongs to another world", what, tostring(v)) end
  local uid = uid_of[v]
  if not w._s:info(uid) then fail("%s: %s was deleted", what, tostring(v)) end
  if kind_of[getmt(v)] ~= kind then fail("%s: expected %s, got %s", what, a(kind), tostring(v)) end
  return v, uid
end

local function check_int(v, what)
  if math.type(v) ~= "integer" then fail("%s: expected an integer, got %s", what, tostring(v)) end
  return v
end

-- w._rt:method(...) through core_call(w, "method", ...)
local core_call = runtime.call

local function player(w)
  local p = w._rt:player()
  local h = p and handle(w, p)
  return h
end

-- The base.map_renew timer lands here (timers run by world:advance).
function world:_renew_timer(map_uid)
  if math.type(map_uid) ~= "integer" then return end
  core_call(self, "renew", map_uid)
end

-- ---- maps ------------------------------------------------------------------------------
kinds.map = {
  methods = {
    features = function(m)
      local list = owner[m]._s:objects_on(m.uid, "feature")
      local i = 0
      return function()
        i = i + 1
        return list[i] and handle(owner[m], list[i])
      end
    end,
    objects = function(m, kind)
      local out = {}
      for i, uid in ipairs(owner[m]._s:objects_on(m.uid, kind)) do out[i] = handle(owner[m], uid) end
      return out
    end,
  },
  get = {
    area = function(m) local a = map_area(owner[m], m.uid) return a and live(owner[m], a) end,
    floor = function(m) return select(2, map_area(owner[m], m.uid)) end,
    level = function(m) return owner[m]._rt:map_level(m.uid) end,
  },
  set = {
    level = function(m, v)
      local w = owner[m]
      core_call(w, "set_level", m.uid, check_int(v, tostring(m) .. " level"))
    end,
    archetype = function(m, id)
      local w = owner[m]
      if id ~= nil then w._registry:view("base.map_archetype"):ensure(id) end
      core_call(w, "set_archetype", m.uid, id)
    end,
  },
}

-- Deletes a map with what stands on it (features, actors other than the
-- player), after detaching it from its area and from placed-entrance records.
local function drop_map(w, m)
  core_call(w, "delete_map", m.uid)
  w._tilemaps[m.uid] = nil
end

kinds.map.delete = function(m) drop_map(owner[m], m) end

-- ---- areas ------------------------------------------------------------------------------------

local function floor_map(w, a, n)
  local uid = w._rt:area_floor_map(uid_of[a], n)
  local m = uid and live(w, uid)
  return m
end

-- Tile map views of objects the core deleted would point at freed maps.
local drop_dead_views = tiles.drop_dead

local function area_delete(a, opts)
  local w = owner[a]
  opts = options.check("area:delete", opts, 3)
  opts = opts or {}
  local mode = opts.children or "reparent"
  if mode ~= "delete" and mode ~= "reparent" then
    fail("%s:delete: children must be \"delete\" or \"reparent\", got %s", tostring(a), tostring(mode))
  end
  core_call(w, "delete_area", a.uid, mode == "delete")
  drop_dead_views(w)
end

kinds.area = {
  delete = area_delete,
  methods = {
    add_floor = function(a, m, n)
      local w = owner[a]
      check_handle(w, m, "map", "area:add_floor")
      check_int(n, "area:add_floor: floor")
      core_call(w, "add_floor", a.uid, m.uid, n)
      return m
    end,
    floor = function(a, n)
      local w = owner[a]
      check_int(n, "area:floor")
      local m = floor_map(w, a, n)
      if m then return m end
      return handle(w, core_call(w, "floor", a.uid, n))
    end,
    has_floor = function(a, n) return floor_map(owner[a], a, n) ~= nil end,
    floors = function(a)
      local w = owner[a]
      local ns = w._rt:area_floors(a.uid)
      local i = 0
      return function()
        while true do
          i = i + 1
          local n = ns[i]
          if n == nil then return nil end
          local m = floor_map(w, a, n)
          if m then return n, m end
        end
      end
    end,
    forget_floor = function(a, n)
      local w = owner[a]
      check_int(n, tostring(a) .. ":forget_floor")
      core_call(w, "forget_floor", a.uid, n)
      drop_dead_views(w)
    end,
    is_conquered = function(a) return area_field(owner[a], a.uid, CONQUERED) end,
    set_conquered = function(a, v) core_call(owner[a], "set_conquered", a.uid, v ~= false) end,
    children = function(a)
      local w, out = owner[a], {}
      for _, uid in ipairs(w._rt:area_children(a.uid)) do out[#out + 1] = handle(w, uid) end
      return out
    end,
    child_position = function(a, child)
      local w = owner[a]
      check_handle(w, child, "area", tostring(a) .. ":child_position")
      return w._rt:area_child_position(a.uid, child.uid)
    end,
  },
  get = {
    parent = function(a) local p = area_field(owner[a], a.uid, PARENT) return p and handle(owner[a], p) end,
    starting_floor = function(a) return area_field(owner[a], a.uid, STARTING) end,
    deepest_floor = function(a) return area_field(owner[a], a.uid, DEEPEST) end,
    deepest_visited = function(a) return area_field(owner[a], a.uid, VISITED) end,
    params = function(a) return owner[a]._rt:area_params(a.uid) or {} end,
    unique_id = function(a) return area_field(owner[a], a.uid, UNIQUE) end,
    generator = function(a) return area_field(owner[a], a.uid, GENERATOR) end,
  },
  set = {
    starting_floor = function(a, v)
      core_call(owner[a], "set_starting_floor", a.uid, check_int(v, tostring(a) .. " starting_floor"))
    end,
    deepest_floor = function(a, v)
      if v ~= nil then check_int(v, tostring(a) .. " deepest_floor") end
      core_call(owner[a], "set_deepest_floor", a.uid, v)
    end,
  },
}

-- ---- features: entrances and stairs ---------------------------------------------------------
kinds.feature = {
  get = {
    type = function(f) return (owner[f]._rt:feature_info(f.uid)) end,
    floor_delta = function(f) return select(2, owner[f]._rt:feature_info(f.uid)) end,
    -- an entrance's picture: its area archetype's image when it was made
    image = function(f) return select(5, owner[f]._rt:feature_info(f.uid)) end,
    -- where it leads: the area, and the floor (an entrance's own, else the
    -- area's starting floor; stairs': their map's floor plus floor_delta)
    target = function(f)
      local w = owner[f]
      local t, _, a, n = w._rt:feature_info(f.uid)
      if not t then return nil end
      return { area = a and handle(w, a), area_uid = a, floor = n }
    end,
  },
}

local function check_cell(x, y, what)
  -- (the names made only for an error: world:travel passes here every call)
  if math.type(x) ~= "integer" then check_int(x, what .. ": x") end
  if math.type(y) ~= "integer" then check_int(y, what .. ": y") end
end

-- world:create_entrance(map, x, y, area, { floor = n }): a feature on map at
-- (x, y) leading to floor n of area (map first, as every function placing
-- something on a map). area may be a map: the core finds or makes its area.
function world:create_entrance(map, x, y, area, opts)
  local what = "world:create_entrance"
  opts = options.check(what, opts, 2)
  check_handle(self, map, "map", what)
  local k = is_handle(area) and area.kind
  if k and k ~= "area" and k ~= "map" then fail("%s: expected an area or a map, got %s", what, tostring(area)) end
  check_handle(self, area, k == "map" and "map" or "area", what)
  check_cell(x, y, what)
  local floor = opts and opts.floor
  if floor ~= nil then check_int(floor, what .. ": floor") end
  return handle(self, core_call(self, "create_entrance", map.uid, x, y, area.uid, floor))
end

-- world:create_stairs(map, x, y, { floor_delta = 1 }): stairs to the floor
-- delta away from the map's own. The floor is resolved when the stairs are
-- used, so a generator may place them on the map it is making.
function world:create_stairs(map, x, y, opts)
  local what = "world:create_stairs"
  opts = options.check(what, opts, 2)
  check_handle(self, map, "map", what)
  check_cell(x, y, what)
  local delta = opts and opts.floor_delta or 1
  check_int(delta, what .. ": floor_delta")
  return handle(self, core_call(self, "create_stairs", map.uid, x, y, delta))
end

-- ---- areas in the world ------------------------------------------------------------------------
function world:create_area(archetype_id, opts)
  local what = "world:create_area"
  opts = options.check(what, opts, 2)
  opts = opts or {}
  local arch = self._registry:view("base.area_archetype"):ensure(archetype_id)
  local parent = opts.parent
  if parent ~= nil then check_handle(self, parent, "area", what .. ": parent") end
  local params = {}
  for k, v in pairs(arch.params or {}) do params[k] = v end
  for k, v in pairs(opts.params or {}) do params[k] = v end
  local gen = opts.generator or arch.generator
  if gen ~= nil then self._registry:view("base.area_generator"):ensure(gen) end
  self._s:check(params, "area params")
  -- at = { x, y } (floor = the parent's floor): its entrance on the parent too
  local at, x, y = opts.at, nil, nil
  if at ~= nil then
    if parent == nil then fail("%s: at needs a parent (the area the entrance stands in)", what) end
    if type(at) ~= "table" then fail("%s: at must be a point { x, y }, got %s", what, type(at)) end
    x, y = at.x or at[1], at.y or at[2]
    if math.type(x) ~= "integer" or math.type(y) ~= "integer" then
      fail("%s: at must be a point { x, y } of integers", what)
    end
  end
  if opts.floor ~= nil then
    if at == nil then fail("%s: floor needs at (the parent's floor the entrance stands on)", what) end
    check_int(opts.floor, what .. ": floor")
  end
  local a, e = core_call(self, "create_area", archetype_id, parent and parent.uid,
    opts.params, opts.generator, opts.starting_floor, opts.deepest_floor, x, y, opts.floor)
  return handle(self, a), e and handle(self, e)
end

function world:areas(filter)
  filter = options.check("world:areas", filter, 2)
  filter = filter or {}
  local parent = filter.parent
  if parent ~= nil and not is_handle(parent) then fail("world:areas: parent must be an area handle, got %s", type(parent)) end
  local out = {}
  -- (an archetype or type that is no string names no area)
  for _, k in ipairs{ "archetype", "type" } do
    if filter[k] ~= nil and type(filter[k]) ~= "string" then return out end
  end
  for i, uid in ipairs(self._rt:areas(filter.archetype, filter.type, parent and parent.uid)) do
    out[i] = handle(self, uid)
  end
  return out
end

function world:area_of(map)
  if not is_handle(map, "map") then error("world:area_of: expected a map handle", 2) end
  local a, n = map_area(self, uid_of[map])
  if not a then return nil end
  return live(self, a), n
end

function world:find_unique(id)
  if type(id) ~= "string" then return nil end -- (no unique area has such an ID)
  local uid = self._rt:find_unique(id)
  return uid and live(self, uid)
end

function world:unique_area(id)
  self._registry:view("base.unique_area"):ensure(id)
  return handle(self, core_call(self, "unique_area", id))
end

function world:get_or_create_map(id, floor)
  local a = self:unique_area(id)
  return a:floor(floor or a.starting_floor)
end

-- The unique areas declared on this map's floor: created if missing, their
-- entrances placed if missing; returns them.
function world:regenerate_child_maps(map)
  local what = "world:regenerate_child_maps"
  check_handle(self, map, "map", what)
  local out = {}
  for i, uid in ipairs(core_call(self, "regenerate_child_maps", map.uid)) do
    out[i] = handle(self, uid)
  end
  return out
end

-- ---- the player and travel -----------------------------------------------------------------------
function world:player() return player(self) end
function world:current_map() local p = player(self) return p and p.map end
function world:current_area()
  local m = self:current_map()
  return m and self:area_of(m)
end
function world:current_floor()
  local m = self:current_map()
  return m and m.floor
end

function world:travel(actor, target, opts)
  local what = "world:travel"
  options.check_keys(what, opts, 2)
  local _, actor_uid = check_handle(self, actor, "actor", what)
  if not is_handle(target) then fail("%s: expected a feature or a map, got %s", what, type(target)) end
  if owner[target] ~= self then fail("%s: %s belongs to another world", what, tostring(target)) end
  local x, y -- (read raw, without the copy check makes: no table made for a journey)
  if opts then x, y = rawget(opts, "x"), rawget(opts, "y") end
  if x ~= nil or y ~= nil then check_cell(x, y, what) end
  local target_uid = uid_of[target]
  local m = core_call(self, "travel", actor_uid, target_uid, x, y)
  drop_dead_views(self)
  if not m then return nil, "travel stopped by base.before_travel" end
  -- the map reached: the target itself, or a live map's handle (one a uid)
  -- found without asking the core about it again
  if m == target_uid then return target end
  return handle_of.live(self, m)
end

return { world = world, kinds = kinds }
