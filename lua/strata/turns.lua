-- strata.turns: the turn scheduler (core/include/strata/turns.h). The
-- schedule is the core's: an object's speed and turns are its bookkeeping
-- and a timer, saved and undone with the world; this file checks the
-- arguments' shapes, hands uids to the core and turns them back into handles.
local handle = require "strata.handle"
local options = require "strata.options"
local runtime = require "strata.runtime"
local owner = require("strata.private").owner

-- The world's methods (installed by strata.world).
local world = {}

local function fail(fmt, ...) error(fmt:format(...), 0) end

local function object_of(w, o, what)
  if not handle.is(o) or owner[o] ~= w then
    fail("%s: expected an object of this world, got %s", what, tostring(o))
  end
  handle.check_alive(o, what)
  return o
end

local function number(v, what, name)
  if type(v) ~= "number" then fail("%s: %s must be a number, got %s", what, name, type(v)) end
  return v
end

-- world:add_turns(object, { speed = 1, delay = 1 / speed }): in the schedule,
-- or (already there) its speed changed, and its next turn when delay is given.
function world:add_turns(o, opts)
  object_of(self, o, "world:add_turns")
  opts = options.check("world:add_turns", opts, 2)
  opts = opts or {}
  local speed = number(opts.speed or 1, "world:add_turns", "speed")
  local delay = opts.delay
  if delay ~= nil and (number(delay, "world:add_turns", "delay") < 0 or delay ~= delay) then
    fail("world:add_turns: delay must be a finite number >= 0, got %s", tostring(delay))
  end
  runtime.call(self, "add_turns", o.uid, speed, delay or -1)
end

-- world:remove_turns(object) -> whether it was in the schedule
function world:remove_turns(o)
  object_of(self, o, "world:remove_turns")
  return runtime.call(self, "remove_turns", o.uid)
end

-- world:turn_took(object, duration): its next turn at its last turn's start + duration
function world:turn_took(o, duration)
  object_of(self, o, "world:turn_took")
  runtime.call(self, "turn_took", o.uid, number(duration, "world:turn_took", "duration"))
end

-- world:turn_info(object) -> { speed =, due =, started = } | nil
function world:turn_info(o)
  object_of(self, o, "world:turn_info")
  return runtime.call(self, "turn_info", o.uid)
end

-- world:next_turn() -> the object whose turn starts (nil: none scheduled), failures
function world:next_turn()
  local uid, failures = runtime.advance(self, "next_turn")
  return uid and handle.live(self, uid), failures
end

return { world = world }
