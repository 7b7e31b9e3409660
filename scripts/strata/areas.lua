-- strata.areas: areas and their floors, map archetypes at work, unique areas,
-- entrances, stairs and travel (API.md sections 5 and 6), as handles over the
-- core's runtime (core/include/strata/area.h, feature.h, unique.h, travel.h;
-- strata.runtime is the Lua side of it).
--
-- The core does the work: this file checks arguments (the Lua API's messages
-- are its own), calls the runtime and turns uids into handles. The state is
-- the C world's, saved and reopened with it; its bookkeeping (what an area,
-- map, feature and the world record keep) is read through the runtime's
-- getters (bindings/lua/schema.c), never through its stored layout. Logic is
-- only ever looked up by ID in the registry.
local options = require "strata.options"
local private = require "strata.private"
local owner = private.owner

return function(M, I)
  local World, kinds, handle = I.World, I.kinds, I.handle

  -- ---- the bookkeeping, through the core's getters -------------------------------------
  local function map_area(w, uid) return w._rt:map_area(uid) end -- area uid, floor | nil
  local function area_field(w, uid, i) return (select(i, w._rt:area_info(uid))) end
  local PARENT, STARTING, DEEPEST, VISITED, UNIQUE, GENERATOR, CONQUERED = 1, 2, 3, 4, 5, 6, 7
  local function deepest_of(w, uid) return area_field(w, uid, DEEPEST) end

  local function fail(fmt, ...) error(fmt:format(...), 0) end

  local function is_handle(v, kind)
    return I.is_handle(v) and (kind == nil or v.kind == kind)
  end

  local function check_handle(w, v, kind, what)
    if not is_handle(v) then fail("%s: expected a %s handle, got %s", what, kind, type(v)) end
    if owner[v] ~= w then fail("%s: %s belongs to another world", what, tostring(v)) end
    if not v:alive() then fail("%s: %s was deleted", what, tostring(v)) end
    if v.kind ~= kind then fail("%s: expected a %s, got %s", what, kind, tostring(v)) end
    return v
  end

  local function check_int(v, what)
    if math.type(v) ~= "integer" then fail("%s: expected an integer, got %s", what, tostring(v)) end
    return v
  end

  -- extra becomes the ctx: with the world as mod code sees it (its view).
  -- w._rt:method(...) through core_call(w, lua_name, "method", ...): the
  -- runtime's errors with the Lua name in place of the C function's.
  local core_call = require("strata.runtime")(I)
  I.core_call = core_call -- (strata.branches: rooms made by the core's runtime)

  local function player(w)
    local p = w._rt:player()
    local h = p and handle(w, p)
    return h
  end

  -- The base.map_renew timer lands here (timers run by world:advance).
  function World:_renew_timer(map_uid)
    if math.type(map_uid) ~= "integer" then return end
    core_call(self, nil, "renew", map_uid)
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
      area = function(m) local a = map_area(owner[m], m.uid) return a and handle(owner[m], a) end,
      floor = function(m) return select(2, map_area(owner[m], m.uid)) end,
      level = function(m) return owner[m]._rt:map_level(m.uid) end,
    },
    set = {
      level = function(m, v)
        local w = owner[m]
        core_call(w, nil, "set_level", m.uid, check_int(v, tostring(m) .. " level"))
      end,
      archetype = function(m, id)
        local w = owner[m]
        if id ~= nil then w._registry:view("base.map_archetype"):ensure(id) end
        core_call(w, nil, "set_archetype", m.uid, id)
      end,
    },
  }

  -- Deletes a map with what stands on it (features, actors other than the
  -- player), after detaching it from its area and from placed-entrance records.
  local function drop_map(w, m)
    core_call(w, nil, "delete_map", m.uid)
    w._tilemaps[m.uid] = nil
  end

  kinds.map.delete = function(m) drop_map(owner[m], m) end

  -- ---- areas ------------------------------------------------------------------------------------

  local function floor_map(w, a, n)
    local uid = w._rt:area_floor_map(a.uid, n)
    local m = uid and handle(w, uid)
    return m
  end

  local function check_floor_free(w, a, m, n, what)
    check_int(n, what .. ": floor")
    local deepest = deepest_of(w, a.uid)
    if deepest and n > deepest then
      fail("%s: floor %d is below the deepest floor (%d) of %s", what, n, deepest, tostring(a))
    end
    local taken = floor_map(w, a, n)
    if taken then fail("%s: floor %d of %s is taken (%s)", what, n, tostring(a), tostring(taken)) end
    if m then
      local other, floor = map_area(w, m.uid)
      if other and w._s:info(other) then
        fail("%s: %s is already floor %d of area#%d", what, tostring(m), floor, other)
      end
    end
  end

  -- Tile map views of objects the core deleted would point at freed maps.
  local function drop_dead_views(w)
    for uid in pairs(w._tilemaps) do
      if not w._s:info(uid) then w._tilemaps[uid] = nil end
    end
  end

  local function area_delete(a, opts)
    local w = owner[a]
    options.check("area:delete", opts, 3)
    opts = opts or {}
    local mode = opts.children or "reparent"
    if mode ~= "delete" and mode ~= "reparent" then
      fail("%s:delete: children must be \"delete\" or \"reparent\", got %s", tostring(a), tostring(mode))
    end
    core_call(w, tostring(a) .. ":delete", "delete_area", a.uid, mode == "delete")
    drop_dead_views(w)
  end

  kinds.area = {
    delete = area_delete,
    methods = {
      add_floor = function(a, m, n)
        local w = owner[a]
        check_handle(w, m, "map", tostring(a) .. ":add_floor")
        check_floor_free(w, a, m, n, tostring(a) .. ":add_floor")
        core_call(w, tostring(a) .. ":add_floor", "add_floor", a.uid, m.uid, n)
        return m
      end,
      floor = function(a, n)
        local w = owner[a]
        check_int(n, tostring(a) .. ":floor")
        local m = floor_map(w, a, n)
        if m then return m end
        local deepest = deepest_of(w, a.uid)
        if deepest and n > deepest then
          fail("%s:floor: floor %d is below the deepest floor (%d)", tostring(a), n, deepest)
        end
        return handle(w, core_call(w, tostring(a) .. ":floor", "floor", a.uid, n))
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
        core_call(w, nil, "forget_floor", a.uid, n)
        drop_dead_views(w)
      end,
      is_conquered = function(a) return area_field(owner[a], a.uid, CONQUERED) end,
      set_conquered = function(a, v) core_call(owner[a], nil, "set_conquered", a.uid, v ~= false) end,
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
        core_call(owner[a], nil, "set_starting_floor", a.uid, check_int(v, tostring(a) .. " starting_floor"))
      end,
      deepest_floor = function(a, v)
        if v ~= nil then check_int(v, tostring(a) .. " deepest_floor") end
        core_call(owner[a], nil, "set_deepest_floor", a.uid, v)
      end,
    },
  }

  -- ---- features: entrances and stairs ---------------------------------------------------------
  kinds.feature = {
    get = {
      type = function(f) return (owner[f]._rt:feature_info(f.uid)) end,
      floor_delta = function(f) return select(2, owner[f]._rt:feature_info(f.uid)) end,
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

  local function check_cell(m, x, y, what)
    check_int(x, what .. ": x")
    check_int(y, what .. ": y")
    if x < 0 or y < 0 or x >= m.width or y >= m.height then
      fail("%s: (%d, %d) is outside %s (%dx%d)", what, x, y, tostring(m), m.width, m.height)
    end
  end

  -- world:create_entrance(map, x, y, area, { floor = n }): a feature on map at
  -- (x, y) leading to floor n of area (map first, as every function placing
  -- something on a map; the older order (area, x, y, map) is accepted too).
  function World:create_entrance(map, x, y, area, opts)
    local what = "world:create_entrance"
    if is_handle(map, "area") and is_handle(area, "map") then map, area = area, map end
    options.check(what, opts, 2)
    check_handle(self, map, "map", what)
    check_handle(self, area, "area", what)
    check_cell(map, x, y, what)
    local floor = opts and opts.floor
    if floor ~= nil then check_int(floor, what .. ": floor") end
    return handle(self, core_call(self, what, "create_entrance", map.uid, x, y, area.uid, floor))
  end

  -- world:create_stairs(map, x, y, { floor_delta = 1 }): stairs to the floor
  -- delta away from the map's own. The floor is resolved when the stairs are
  -- used, so a generator may place them on the map it is making.
  function World:create_stairs(map, x, y, opts)
    local what = "world:create_stairs"
    options.check(what, opts, 2)
    check_handle(self, map, "map", what)
    check_cell(map, x, y, what)
    local delta = opts and opts.floor_delta or 1
    check_int(delta, what .. ": floor_delta")
    if delta == 0 then fail("%s: floor_delta must not be 0", what) end
    local a, n = map_area(self, map.uid)
    local deepest = a and deepest_of(self, a)
    if deepest and n + delta > deepest then
      fail("%s: floor %d of area#%d is the deepest (%d): no stairs lead below it", what, n, a, deepest)
    end
    return handle(self, core_call(self, what, "create_stairs", map.uid, x, y, delta))
  end

  -- ---- areas in the world ------------------------------------------------------------------------
  function World:create_area(archetype_id, opts)
    local what = "world:create_area"
    options.check(what, opts, 2)
    opts = opts or {}
    local ok, res = pcall(function()
      local arch = self._registry:view("base.area_archetype"):ensure(archetype_id)
      local parent = opts.parent
      if parent ~= nil then check_handle(self, parent, "area", what .. ": parent") end
      local params = {}
      for k, v in pairs(arch.params or {}) do params[k] = v end
      for k, v in pairs(opts.params or {}) do params[k] = v end
      local gen = opts.generator or arch.generator
      if gen ~= nil then self._registry:view("base.area_generator"):ensure(gen) end
      self._s:check(params, "area params")
      return handle(self, core_call(self, what, "create_area", archetype_id, parent and parent.uid,
        opts.params, opts.generator, opts.starting_floor, opts.deepest_floor))
    end)
    if not ok then error(res, 2) end
    return res
  end

  function World:areas(filter)
    options.check("world:areas", filter, 2)
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

  function World:area_of(map)
    if not is_handle(map, "map") then error("world:area_of: expected a map handle", 2) end
    local a, n = map_area(self, map.uid)
    if not a then return nil end
    return handle(self, a), n
  end

  function World:find_unique(id)
    if type(id) ~= "string" then return nil end -- (no unique area has such an ID)
    local uid = self._rt:find_unique(id)
    return uid and handle(self, uid)
  end

  function World:unique_area(id)
    local ok, res = pcall(function()
      self._registry:view("base.unique_area"):ensure(id)
      return handle(self, core_call(self, "world:unique_area", "unique_area", id))
    end)
    if not ok then error(res, 2) end
    return res
  end

  function World:get_or_create_map(id, floor)
    local a = self:unique_area(id)
    return a:floor(floor or a.starting_floor)
  end

  -- The unique areas declared on this map's floor: created if missing, their
  -- entrances placed if missing; returns them.
  function World:regenerate_child_maps(map)
    local what = "world:regenerate_child_maps"
    check_handle(self, map, "map", what)
    local out = {}
    for i, uid in ipairs(core_call(self, what, "regenerate_child_maps", map.uid)) do
      out[i] = handle(self, uid)
    end
    return out
  end

  -- ---- the player and travel -----------------------------------------------------------------------
  function World:player() return player(self) end
  function World:current_map() local p = player(self) return p and p.map end
  function World:current_area()
    local m = self:current_map()
    return m and self:area_of(m)
  end
  function World:current_floor()
    local m = self:current_map()
    return m and m.floor
  end

  -- Where the journey leads, checked before the core goes: the refusals of
  -- API.md section 6, worded as always.
  local function check_destination(w, target, what)
    if not is_handle(target) then fail("%s: expected a feature or a map, got %s", what, type(target)) end
    if not target:alive() then fail("%s: %s was deleted", what, tostring(target)) end
    if target.kind == "map" then return end
    if target.kind ~= "feature" then fail("%s: expected a feature or a map, got %s", what, tostring(target)) end
    local t, delta, a_uid, to = w._rt:feature_info(target.uid) -- (where it leads)
    if t == "entrance" then
      if not handle(w, a_uid) then
        fail("%s: %s leads to area#%d, which was deleted", what, tostring(target), a_uid)
      end
      return
    elseif t == "stairs" then
      local m = target.map
      local a = a_uid and handle(w, a_uid)
      if not a then
        fail("%s: %s stand on %s, which is not a floor of any area (attach it with area:add_floor, or return it from a floor generator)",
          what, tostring(target), tostring(m))
      end
      if delta < 0 and to < a.starting_floor then
        if not w._rt:area_entrance(a.uid) then fail("%s: %s leads up out of %s, which has no entrance to return to", what, tostring(target), tostring(a)) end
        return
      end
      local deepest = a.deepest_floor
      if deepest and to > deepest then fail("%s: floor %d of %s is below its deepest floor (%d)", what, to, tostring(a), deepest) end
      return
    end
    fail("%s: %s is neither an entrance nor stairs", what, tostring(target))
  end

  function World:travel(actor, target, opts)
    local what = "world:travel"
    options.check(what, opts, 2)
    opts = opts or {}
    local ok, res, reason = pcall(function()
      check_handle(self, actor, "actor", what)
      check_destination(self, target, what)
      local x, y = opts.x, opts.y
      if x ~= nil or y ~= nil then
        check_int(x, what .. ": x")
        check_int(y, what .. ": y")
        if target.kind == "map" then check_cell(target, x, y, what) end
      end
      local m = core_call(self, what, "travel", actor.uid, target.uid, x, y)
      drop_dead_views(self)
      if not m then return nil, "travel stopped by base.before_travel" end
      return handle(self, m)
    end)
    if not ok then error(res, 2) end
    return res, reason
  end
end
