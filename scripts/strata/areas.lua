-- strata.areas: areas and their floors, map archetypes at work, unique areas,
-- entrances, stairs and travel (API.md sections 5 and 6).
--
-- Everything here is state of the C world, so it is saved and reloaded with it:
-- each area, map and feature keeps its bookkeeping under the reserved `sys` key
-- of its properties (handles never expose it), and the world keeps its own
-- (unique areas, placed entrances, the area list, the player) on one object of
-- kind "world_record". Logic is only ever looked up by ID in the registry.
local core = require "strata.core"
local boundary = require "strata.boundary"
local mods = require "strata.mods"
local options = require "strata.options"
local private = require "strata.private"
local owner = private.owner

return function(M, I)
  local World, kinds, handle, label = I.World, I.kinds, I.handle, I.label
  local archetype_of, lent_stream = I.archetype_of, I.lent_stream
  local point = I.point

  -- ---- bookkeeping under `sys` -------------------------------------------------------
  local function sys(w, uid, ...)
    local v, is_table = w._s:get(uid, "sys", ...)
    if is_table then return w._s:snapshot(uid, "sys", ...) end
    return v
  end

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
  local function ctx_for(w, extra)
    extra.world = private.view[w] or w
    return extra
  end

  local function call(what, fn, ...) return mods.call(what, fn, ...) end

  -- w._rt:method(...): a call into the core's runtime (strata.core.runtime).
  -- Its errors name the C function: the Lua name takes its place (nil: the
  -- caller's boundary names it).
  -- A core error holds 511 bytes of a message: mods' longer ones (up to
  -- mods.lua's 4000) are kept whole here, by their first 511 bytes.
  local CUT = 511
  local function keep_message(w, m)
    if #m < CUT then return end
    if w._rt_count > 64 then w._rt_full, w._rt_count = {}, 0 end
    w._rt_full[m:sub(1, CUT)] = m
    w._rt_count = w._rt_count + 1
  end
  local function full_message(w, m)
    if type(m) == "string" and #m == CUT then return w._rt_full[m] or m end
    return m
  end
  I.runtime_hooks.full_message = full_message

  local sync_handlers -- (below, with the runtime)
  local function core_call(w, name, method, ...)
    sync_handlers(w)
    local rt = w._rt
    w:_streams_to_core()
    local ok, r = pcall(rt[method], rt, ...) -- (one result at most)
    w:_streams_from_core()
    if ok then return r end
    local msg = full_message(w, r)
    if type(msg) == "string" then
      local rest = msg:match("^strata_[%w_]+: (.*)$")
      if rest then msg = name and (name .. ": " .. rest) or rest end
    end
    error(msg, 0)
  end

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
      area = function(m) local a = sys(owner[m], m.uid, "area") return a and handle(owner[m], a) end,
      floor = function(m) return sys(owner[m], m.uid, "floor") end,
      level = function(m) return sys(owner[m], m.uid, "level") or sys(owner[m], m.uid, "floor") or 1 end,
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

  local function floors_of(w, a) return sys(w, a.uid, "floors") or {} end

  local function floor_map(w, a, n)
    local uid = sys(w, a.uid, "floors", n)
    local m = uid and handle(w, uid)
    return m
  end

  local function check_floor_free(w, a, m, n, what)
    check_int(n, what .. ": floor")
    local deepest = sys(w, a.uid, "deepest_floor")
    if deepest and n > deepest then
      fail("%s: floor %d is below the deepest floor (%d) of %s", what, n, deepest, tostring(a))
    end
    local taken = floor_map(w, a, n)
    if taken then fail("%s: floor %d of %s is taken (%s)", what, n, tostring(a), tostring(taken)) end
    if m then
      local other = sys(w, m.uid, "area")
      if other and w._s:info(other) then
        fail("%s: %s is already floor %d of area#%d", what, tostring(m), sys(w, m.uid, "floor"), other)
      end
    end
  end

  local function ordered_uniques(w)
    return w._registry:view("base.unique_area"):iter()
  end

  local function unique_at(u)
    if u.at == nil then return 0, 0 end
    return point(u.at, "base.unique_area " .. u._id .. " at")
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
        local deepest = sys(w, a.uid, "deepest_floor")
        if deepest and n > deepest then
          fail("%s:floor: floor %d is below the deepest floor (%d)", tostring(a), n, deepest)
        end
        return handle(w, core_call(w, tostring(a) .. ":floor", "floor", a.uid, n))
      end,
      has_floor = function(a, n) return floor_map(owner[a], a, n) ~= nil end,
      floors = function(a)
        local w = owner[a]
        local ns = {}
        for n in pairs(floors_of(w, a)) do ns[#ns + 1] = n end
        table.sort(ns)
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
      is_conquered = function(a) return sys(owner[a], a.uid, "conquered") == true end,
      set_conquered = function(a, v) core_call(owner[a], nil, "set_conquered", a.uid, v ~= false) end,
      children = function(a)
        local w, out = owner[a], {}
        local ids = {}
        for uid in pairs(sys(w, a.uid, "children") or {}) do ids[#ids + 1] = uid end
        table.sort(ids)
        for _, uid in ipairs(ids) do out[#out + 1] = handle(w, uid) end
        return out
      end,
      child_position = function(a, child)
        local w = owner[a]
        check_handle(w, child, "area", tostring(a) .. ":child_position")
        local e = sys(w, child.uid, "entrance")
        if not e then return nil end
        local m = handle(w, e.map)
        if not m or sys(w, m.uid, "area") ~= a.uid then return nil end
        return e.x, e.y, sys(w, m.uid, "floor")
      end,
    },
    get = {
      parent = function(a) local p = sys(owner[a], a.uid, "parent") return p and handle(owner[a], p) end,
      starting_floor = function(a) return sys(owner[a], a.uid, "starting_floor") or 1 end,
      deepest_floor = function(a) return sys(owner[a], a.uid, "deepest_floor") end,
      deepest_visited = function(a) return sys(owner[a], a.uid, "deepest_visited") end,
      params = function(a) return sys(owner[a], a.uid, "params") or {} end,
      unique_id = function(a) return sys(owner[a], a.uid, "unique") end,
      generator = function(a) return sys(owner[a], a.uid, "generator") end,
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
      type = function(f) return sys(owner[f], f.uid, "type") end,
      floor_delta = function(f) return sys(owner[f], f.uid, "floor_delta") end,
      target = function(f)
        local w, t = owner[f], sys(owner[f], f.uid, "type")
        if t == "entrance" then
          local a = sys(w, f.uid, "area")
          return { area = handle(w, a), area_uid = a, floor = sys(w, f.uid, "floor") }
        elseif t == "stairs" then
          local m = f.map
          local a = m and sys(w, m.uid, "area")
          local n = m and sys(w, m.uid, "floor")
          return { area = a and handle(w, a), area_uid = a, floor = n and n + sys(w, f.uid, "floor_delta") }
        end
        return nil
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
    local a, n = sys(self, map.uid, "area"), sys(self, map.uid, "floor")
    local deepest = a and sys(self, a, "deepest_floor")
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
    local a = sys(self, map.uid, "area")
    if not a then return nil end
    return handle(self, a), sys(self, map.uid, "floor")
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
    return m and sys(self, m.uid, "floor")
  end

  -- Where the journey leads, checked before the core goes: the refusals of
  -- API.md section 6, worded as always.
  local function check_destination(w, target, what)
    if not is_handle(target) then fail("%s: expected a feature or a map, got %s", what, type(target)) end
    if not target:alive() then fail("%s: %s was deleted", what, tostring(target)) end
    if target.kind == "map" then return end
    if target.kind ~= "feature" then fail("%s: expected a feature or a map, got %s", what, tostring(target)) end
    local t = sys(w, target.uid, "type")
    if t == "entrance" then
      local a_uid = sys(w, target.uid, "area")
      if not handle(w, a_uid) then
        fail("%s: %s leads to area#%d, which was deleted", what, tostring(target), a_uid)
      end
      return
    elseif t == "stairs" then
      local m = target.map
      local a_uid, n = sys(w, m.uid, "area"), sys(w, m.uid, "floor")
      local a = a_uid and handle(w, a_uid)
      if not a then
        fail("%s: %s stand on %s, which is not a floor of any area (attach it with area:add_floor, or return it from a floor generator)",
          what, tostring(target), tostring(m))
      end
      local delta = sys(w, target.uid, "floor_delta")
      local to = n + delta
      if delta < 0 and to < a.starting_floor then
        local e = sys(w, a.uid, "entrance")
        local em = e and handle(w, e.map)
        if not em then fail("%s: %s leads up out of %s, which has no entrance to return to", what, tostring(target), tostring(a)) end
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

  -- ---- the core's runtime: logic and definitions by ID ------------------------------------
  -- bindings/lua/runtime.c asks this dispatcher for what the core needs:
  -- callables by (kind, ID), definitions, savepoints to follow, and runs
  -- the callables through it (in the sandbox, with ctx as before).
  local GENERATE_FLOOR, GENERATE, ON_SPAWN, STARTING_POS, EVENT, HANDLER = 0, 1, 2, 8, 9, 10
  local hook_names = { [2] = "on_spawn", [3] = "on_load", [4] = "on_enter", [5] = "on_leave",
    [6] = "on_restock", [7] = "on_renew", [8] = "starting_pos" }

  local function lookup(w, type_id, id)
    local ok, e = pcall(function() return w._registry:view(type_id):ensure(id) end)
    if ok then return e end
    return nil, tostring(boundary.strip(e))
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

  local function map_ctx(w, info, extra)
    local ctx = ctx_for(w, extra)
    if info.rng then ctx.rng = lent_stream(w, info.rng_key, info.rng) end
    return ctx
  end

  local function run(w, kind, fn, info)
    local id = info.id
    if kind == GENERATE_FLOOR or kind == GENERATE then
      local a, n = handle(w, info.area), info.floor
      local ctx = map_ctx(w, info, { area = a, floor = n, depth = n, params = info.params or {} })
      local m
      if kind == GENERATE then m = call(id .. " generate", fn, ctx)
      else m = call(id .. " generate_floor", fn, a, n, ctx) end
      if not is_handle(m, "map") or owner[m] ~= w or not m:alive() then
        local what = kind == GENERATE and "map archetype '" .. id .. "'" or "area generator '" .. id .. "'"
        fail("%s returned %s for floor %d of %s: expected a map (world:new_map)", what,
          is_handle(m) and tostring(m) or type(m), n, tostring(a))
      end
      return m.uid
    elseif kind == EVENT or kind == HANDLER then
      local source = info.source and handle(w, info.source) or w
      if info.event == "base.handler_failed" and info.params then
        info.params.message = full_message(w, info.params.message)
      end
      if info.event then
        local what
        if kind == HANDLER then what = id
        elseif info.name then what = id .. " events"
        else
          local h = global_handler(w, id)
          what = "event handler '" .. h.name .. "' of mod " .. h.mod
        end
        local r, stop
        if kind == HANDLER then r, stop = call(what, fn, source, info.params, info.args, info.result)
        else r, stop = call(what, fn, source, info.params, info.result) end
        return r, stop == "stop"
      end
      call(id, fn, w, { time = info.time, timer = info.timer }, info.args)
      return nil
    end
    local name = hook_names[kind]
    local m = handle(w, info.map)
    local extra
    if kind == ON_SPAWN then
      extra = { area = handle(w, info.area), floor = info.floor, depth = info.floor, params = info.params or {} }
    elseif name == "on_restock" or name == "on_renew" then
      extra = { steps = info.steps, map = m, area = m.area, floor = m.floor }
    else
      extra = { actor = info.actor and handle(w, info.actor), from = info.from and handle(w, info.from),
        to = info.to and handle(w, info.to), map = kind == STARTING_POS and m or nil }
    end
    local x, y = call(id .. " " .. name, fn, m, map_ctx(w, info, extra))
    if kind == STARTING_POS then
      if type(x) == "table" then x, y = point(x, id .. " starting_pos") end
      return x, y
    end
  end

  local function dispatcher(w)
    local reg = w._registry
    local txns = {}
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
      return d
    end
    function ops.area_archetype(id)
      local aa, msg = lookup(w, "base.area_archetype", id)
      if not aa then return nil, msg end
      local floors = {}
      for n, ma in pairs(type(aa.floors) == "table" and aa.floors or {}) do
        if math.type(n) == "integer" and type(ma) == "string" then floors[#floors + 1] = { n = n, map_archetype = ma } end
      end
      return { mod = aa._mod, types = aa.types, floors = floors, generator = aa.generator,
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
      local arch = archetype_of(reg, kind, archetype)
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
    function ops.event_declared(event)
      return reg.by_type["base.event"] ~= nil and reg.by_type["base.event"][event] ~= nil
    end
    function ops.savepoint(op)
      if op == 0 then txns[#txns + 1] = w:_txn_open()
      else
        local txn = table.remove(txns)
        if txn then w:_txn_close(txn, op == 1) end
      end
    end
    function ops.call(kind, fn, info)
      local ok, a, b = pcall(run, w, kind, fn, info)
      if not ok then
        local m = tostring(boundary.strip(a))
        keep_message(w, m)
        return false, m
      end
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
    for event, list in pairs(w._registry.handlers or {}) do
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

  sync_handlers = function(w)
    local seen, n = w._rt_seen, 0
    for event, list in pairs(w._registry.handlers or {}) do
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
  I.runtime_hooks.sync = sync_handlers

  I.runtime_hooks.attach = function(w)
    w._rt = core.runtime.new(w._s, dispatcher(w))
    w._rt_full, w._rt_count = {}, 0
    register_handlers(w)
  end
  I.runtime_hooks.reloaded = function(w)
    w._rt:drop_cache()
    register_handlers(w)
  end
end
