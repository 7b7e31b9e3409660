-- strata.walk: actors moving on tile maps. world:move steps an actor to a cell
-- of its map; world:walk stores a plan that a timer steps along, so a walk
-- goes on across saves. Plans live under the actor's `sys.walk`; the timer is
-- a base.walk_step entry, re-bound by ID like every timer.
return function(M, I)
  local World, handle = I.World, I.handle
  local options = require "strata.options"
  -- handle / plan -> its world, out of mod code's reach (strata.private)
  local owner = require("strata.private").owner

  local function fail(fmt, ...) error(fmt:format(...), 0) end

  local function actor_of(w, a, what)
    if not I.is_handle(a) or a.kind ~= "actor" or owner[a] ~= w then
      fail("%s: expected an actor of this world, got %s", what, tostring(a))
    end
    if not a:alive() then fail("%s: %s was deleted", what, tostring(a)) end
    return a
  end

  -- world:move(actor, x, y) -> true | nil, reason: to a cell of the actor's own
  -- map. Refused (the actor stays) off the map, onto an impassable cell, or by a
  -- base.before_move handler returning false; then base.moved is emitted.
  function World:move(actor, x, y)
    actor_of(self, actor, "world:move")
    if math.type(x) ~= "integer" or math.type(y) ~= "integer" then
      fail("world:move: x and y must be integers, got %s, %s", tostring(x), tostring(y))
    end
    local map = actor.map
    if not map then return nil, "the actor is on no map" end
    if x < 0 or y < 0 or x >= map.width or y >= map.height then return nil, "the way is off the map" end
    if not map:passable(x, y) then return nil, "the way is blocked" end
    local from = { actor.x, actor.y }
    local go = self:_emit(actor, "base.before_move", { actor = actor, map = map, from = from, to = { x, y } }, true)
    if go == false then return nil, "the move was refused" end
    self:_touch(actor.uid)
    self._s:set_position(actor.uid, map.uid, x, y)
    self:_emit(actor, "base.moved", { actor = actor, map = map, from = from, to = { x, y } }, nil)
    return true
  end

  local function walk_of(w, uid)
    local v, is_table = w._s:get(uid, "sys", "walk")
    if is_table then return w._s:snapshot(uid, "sys", "walk") end
    return v
  end

  local function set_walk(w, uid, plan)
    w:_touch(uid)
    local _, has = w._s:get(uid, "sys")
    if not has then w._s:set(uid, "sys", {}, "sys") end
    w._s:set(uid, "actor walk", plan, "sys", "walk")
  end

  local Plan = {}
  Plan.__index = function(p, k)
    if k == "state" then
      local plan = walk_of(owner[p], p.actor.uid)
      return plan and plan.state or "cancelled"
    end
    return Plan[k]
  end
  function Plan:cancel()
    local w = owner[self]
    local plan = walk_of(w, self.actor.uid)
    if not plan or plan.state ~= "walking" then return false end
    pcall(w._s.cancel, w._s, plan.timer)
    plan.state, plan.timer = "cancelled", nil
    set_walk(w, self.actor.uid, plan)
    return true
  end

  -- world:walk(actor, { x, y }, { step_every = 1 }) -> plan: one step towards the
  -- cell every step_every seconds of world time, along the cheapest 8-neighbour
  -- route at that moment. plan.state: "walking" | "arrived" | "blocked" |
  -- "cancelled"; plan:cancel(). A new walk replaces the actor's last one.
  -- world:walk(actor, room, opts): the same through rooms and exits, along the
  -- route world.grid:path gives at the start (strata.grid: World:_room_step).
  function World:walk(actor, target, opts)
    actor_of(self, actor, "world:walk")
    options.check("world:walk", opts, 2)
    local to_room = I.is_handle(target) and target.kind == "room"
    local x, y, route
    if to_room then route = self:_room_route(actor, target, "world:walk")
    else x, y = I.point(target, "world:walk") end
    local every = opts and opts.step_every or 1
    if type(every) ~= "number" or not (every >= 0.001) or every == math.huge then
      fail("world:walk: step_every must be a number of at least 0.001 seconds")
    end
    local old = walk_of(self, actor.uid)
    if old and old.state == "walking" and old.timer then pcall(self._s.cancel, self._s, old.timer) end
    -- A room walk keeps one repeating timer (cancelled when it ends): a step
    -- then costs no new timer. A tile walk schedules each step.
    local timer = self:schedule{ after = every, every = to_room and every or nil, handler = "base.walk_step",
      args = { actor = actor.uid } }
    if to_room then
      set_walk(self, actor.uid, { room = target.uid, i = 1, every = every, timer = timer, state = "walking" })
      self:_touch(actor.uid)
      self._s:set(actor.uid, "actor walk route", route, "sys", "walk_route")
    else
      set_walk(self, actor.uid, { x = x, y = y, every = every, timer = timer, state = "walking" })
    end
    local plan = setmetatable({ actor = actor }, Plan)
    owner[plan] = self
    return plan
  end

  -- world:walk_plan(actor) -> the actor's last walk plan (also after a save and
  -- strata.world.open), or nil when it never walked.
  function World:walk_plan(actor)
    actor_of(self, actor, "world:walk_plan")
    if not walk_of(self, actor.uid) then return nil end
    local plan = setmetatable({ actor = actor }, Plan)
    owner[plan] = self
    return plan
  end

  -- The base.walk_step timer lands here: one step, then the next timer.
  -- A step of a room walk reads and writes the plan's fields one by one: it
  -- runs once per step of every walking actor.
  local function room_walk_step(w, uid)
    local s = w._s
    if s:get(uid, "sys", "walk", "state") ~= "walking" then
      -- stopped by a rollback-free path (cancel) but its repeating timer fired
      local timer = s:get(uid, "sys", "walk", "timer")
      if timer then pcall(s.cancel, s, timer) end
      return
    end
    local state, i = w:_room_step(uid, s:get(uid, "sys", "walk", "i"), s:get(uid, "sys", "walk", "room"))
    s:set(uid, "actor walk", i, "sys", "walk", "i") -- (each set is journaled by the core)
    if state ~= "walking" then
      pcall(s.cancel, s, s:get(uid, "sys", "walk", "timer"))
      s:set(uid, "actor walk", nil, "sys", "walk", "timer")
      s:set(uid, "actor walk", state, "sys", "walk", "state")
    end
  end

  function World:_walk_step(uid)
    local actor = handle(self, uid)
    if actor and self._s:get(uid, "sys", "walk", "room") then return room_walk_step(self, uid) end
    local plan = actor and walk_of(self, uid)
    if not plan or plan.state ~= "walking" then return end
    local map = actor.map
    local route = map and map:find_path({ actor.x, actor.y }, { plan.x, plan.y }, { connectivity = 8 })
    if not route then
      plan.state, plan.timer = "blocked", nil
    elseif #route > 1 then
      local ok = self:move(actor, route[2].x, route[2].y)
      if not ok then plan.state, plan.timer = "blocked", nil end
    end
    if plan.state == "walking" then
      if actor.x == plan.x and actor.y == plan.y then
        plan.state, plan.timer = "arrived", nil
      else
        plan.timer = self:schedule{ after = plan.every, handler = "base.walk_step", args = { actor = uid } }
      end
    end
    set_walk(self, uid, plan)
  end
end
