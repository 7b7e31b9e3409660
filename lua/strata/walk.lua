-- strata.walk: actors moving on tile maps. The moves, the walks and their
-- refusals are the core's (core/include/strata/move.h: strata_move,
-- strata_walk, the base.walk_step timer the core runs itself); this file
-- checks the arguments' shapes and hands the plans out.
local grid = require "strata.grid"
local handle = require "strata.handle"
local options = require "strata.options"
local point = require "strata.point"
local runtime = require "strata.runtime"
-- handle / plan -> its world, out of mod code's reach (strata.private)
local owner = require("strata.private").owner

-- The world's methods (installed by strata.world).
local world = {}

local function fail(fmt, ...) error(fmt:format(...), 0) end

local function actor_of(w, a, what)
  if not handle.is(a) or a.kind ~= "actor" or owner[a] ~= w then
    fail("%s: expected an actor of this world, got %s", what, tostring(a))
  end
  if not a:alive() then fail("%s: %s was deleted", what, tostring(a)) end
  return a
end

-- world:move(actor, x, y) -> true | nil, reason (strata_move)
function world:move(actor, x, y)
  actor_of(self, actor, "world:move")
  if math.type(x) ~= "integer" or math.type(y) ~= "integer" then
    fail("world:move: x and y must be integers, got %s, %s", tostring(x), tostring(y))
  end
  return runtime.call(self, "move", actor.uid, x, y)
end

-- A plan is a name for the actor's walk, which the world keeps.
local Plan = {}
Plan.__index = function(p, k)
  if k == "state" then return owner[p]._rt:walk_state(p.actor.uid) or "cancelled" end
  return Plan[k]
end
function Plan:cancel() return runtime.call(owner[self], "walk_cancel", self.actor.uid) end

local function plan_of(w, actor)
  local plan = setmetatable({ actor = actor }, Plan)
  owner[plan] = w
  return plan
end

-- world:walk(actor, { x, y } | room | room name, { step_every = 1 }) -> plan (strata_walk,
-- strata_walk_rooms along the route world.grid:path gives at the start).
function world:walk(actor, target, opts)
  actor_of(self, actor, "world:walk")
  opts = options.check("world:walk", opts, 2)
  local every = opts and opts.step_every or 1
  if type(every) ~= "number" then fail("world:walk: step_every must be a number, got %s", type(every)) end
  if type(target) == "string" then target = grid.named(self, actor, target, "world:walk") end
  if handle.is(target) and target.kind == "room" then
    local route = grid.route(self, actor, target, "world:walk")
    runtime.call(self, "walk_rooms", actor.uid, target.uid, route, every)
  else
    local x, y = point(target, "world:walk")
    runtime.call(self, "walk", actor.uid, x, y, every)
  end
  return plan_of(self, actor)
end

-- world:walk_plan(actor) -> the actor's last walk plan (also after a save and
-- strata.world.open), or nil when it never walked.
function world:walk_plan(actor)
  actor_of(self, actor, "world:walk_plan")
  if not self._rt:walk_state(actor.uid) then return nil end
  return plan_of(self, actor)
end

return { world = world }
