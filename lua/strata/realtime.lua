-- strata.realtime: drives a world's time from a luv event loop.
--
--   local h = realtime.run(world, { scale =, until_time =, loop =, clock =,
--                                   tick =, on_error =, on_advance =, on_stop = })
--   -- world:run_realtime{ ... } is the same call
--
--   scale       world seconds per second of the clock (number > 0, default 1)
--   until_time  stop once world.time reaches this (a number); the last
--               advance ends exactly on it
--   loop        the luv module the host runs (default require "luv", loaded
--               only then: strata works without luv), or a table with its
--               new_timer and new_prepare (a test's own loop)
--   clock       function() -> seconds (default loop.hrtime() / 1e9); a fake
--               one makes a run's advances independent of the machine's speed
--   tick        at most this many seconds of the clock between advances
--               (number > 0; default none: an advance only when something is due)
--   on_error    function(world, failures, handle), after each advance that
--               reported handler failures, with that list
--   on_advance  function(world, handle), after each advance (and on_error)
--   on_stop     function(world, reason, failures), called once when the run
--               stops, with the run's failures (below)
--
-- No poll: the run arms one timer of the loop for the clock's time at which
-- the next thing is due (world:next_due(), until_time, the tick), converted
-- through the scale, and advances the world only then. It arms it again
-- before the loop next waits (a prepare handle), so a timer scheduled by a
-- host's callback (a TCP read, say) wakes the loop in time, and a clock
-- moved on (a fake one) is seen. Between advances world.time stands still:
-- h:sync() advances it to the clock's now (before scheduling relative to it).
--
-- The handle: h.running (true until the run stops), h.reason (why it
-- stopped, then), h.world, h.failures, h.advances (how many advances the
-- run made), h:sync() (advances to the clock's now; returns that advance's
-- failures, nil once stopped) and h:stop(reason) (default reason "stop"; a
-- second call does nothing and returns false). Reasons: "stop" or the one
-- given to h:stop, "until_time", "error" (world:advance, the clock, on_error,
-- on_advance or on_stop raised during a wake; the error is raised on after
-- on_stop), and under `strata run` "SIGINT" or "SIGTERM".
--
-- Handler failures do not stop a run (time never stops for one handler);
-- on_error may stop it. h.failures lists them once per distinct (timer,
-- handler, message), first seen first: { timer =, handler =, mod =,
-- message =, count = } (and dropped = for a run limit), with .total counting
-- every failure. At most M.max_distinct are listed, so that a handler whose
-- message changes on every tick of a long run cannot fill memory; the rest
-- are only counted in .total.
--
-- A running handle keeps the loop alive (its prepare handle); once every
-- run has stopped, `uv.run()` returns if nothing else is on the loop.
local options = require "strata.options"

local M = {}

local running = {} -- the handles now running, in the order they started

M.max_distinct = 100

-- Host hooks (`strata run` sets them; nil elsewhere):
--   M.on_change(count)      after a run starts or stops, with the number running
--   M.on_failures(h, new)   after a tick with handler failures, with those
--                           of them first listed in h.failures (maybe none)
--   M.on_tick_error(err)    a tick's error; without it the error is raised in
--                           the luv callback (luv prints it and exits)
M.on_change = nil
M.on_failures = nil
M.on_tick_error = nil

local function changed()
  if M.on_change then M.on_change(#running) end
end

local Handle = {}
Handle.__index = Handle

-- Stops the run: its loop handles are closed, it leaves the running list,
-- then on_stop(world, reason) runs. Returns true, or false if it had stopped.
function Handle:stop(reason)
  if not self.running then return false end
  if reason == nil then reason = "stop" end
  self.running = false
  self.reason = reason
  for _, name in ipairs{ "_timer", "_prepare" } do
    local handle = self[name]
    self[name] = nil
    if not handle:is_closing() then handle:stop() handle:close() end
  end
  for i, h in ipairs(running) do
    if h == self then table.remove(running, i) break end
  end
  local ok, err = true, nil
  if self._on_stop then ok, err = pcall(self._on_stop, self.world, reason, self.failures) end
  changed()
  if not ok then error(err, 0) end
  return true
end

function Handle:__tostring()
  return ("strata.realtime: %s"):format(self.running and "running" or ("stopped (" .. tostring(self.reason) .. ")"))
end

local function positive(name, v)
  if v ~= nil and (type(v) ~= "number" or not (v > 0) or v == math.huge) then
    error(("world:run_realtime: %s must be a number > 0, got %s"):format(name, tostring(v)), 4)
  end
end

-- Every handle now running (a new list, oldest first).
function M.running()
  local out = {}
  for i, h in ipairs(running) do out[i] = h end
  return out
end

-- Stops every running handle with reason; returns how many it stopped.
-- Each on_stop runs; the first error is raised once all have stopped.
function M.stop_all(reason)
  local n, first = 0, nil
  for _, h in ipairs(M.running()) do
    local ok, err = pcall(h.stop, h, reason)
    if ok then n = n + 1 elseif first == nil then n = n + 1 first = err end
  end
  if first ~= nil then error(first, 0) end
  return n
end

-- An error in a wake (world:advance, the clock, a hook): to the host, or raised.
local function fail(err)
  if M.on_tick_error then return M.on_tick_error(err) end
  error(err, 0)
end

-- Stops h after err with reason "error" (nothing if it had stopped); returns
-- the error to hand on, with on_stop's after it if that raised too.
local function stop_on_error(h, err)
  local stopped, stop_err = pcall(h.stop, h, "error")
  if not stopped then err = tostring(err) .. "\nthen on_stop: " .. tostring(stop_err) end
  return err
end

-- Counts an advance's failures into h.failures (see the top); returns those
-- first listed now.
local function record(h, failures)
  local list, index, new = h.failures, h._index, {}
  list.total = list.total + #failures
  for _, f in ipairs(failures) do
    local key = ("%s\0%s\0%s"):format(tostring(f.timer), tostring(f.handler), tostring(f.message))
    local entry = index[key]
    if entry then
      entry.count = entry.count + 1
    elseif #list < M.max_distinct then
      entry = { count = 1 }
      for k, v in pairs(f) do entry[k] = v end
      list[#list + 1] = entry
      index[key] = entry
      new[#new + 1] = entry
    end
  end
  return new
end

-- The clock's reading, checked: a run never computes with anything else.
local function read_clock(clock)
  local t = clock()
  if type(t) ~= "number" or t ~= t then
    error(("world:run_realtime: clock returned %s, not a number of seconds"):format(options.quoted(t)), 0)
  end
  return t
end

-- The clock's time of the next advance and the world time then due (nil
-- for a tick): the earlier of the next timer and until_time, converted
-- through the scale from the last advance, or the tick if that comes first.
local function deadline(h)
  local world = h.world
  local due = world:next_due()
  if h._until and (due == nil or h._until < due) then due = h._until end
  local at = due and h._last + (due - world.time) / h._scale
  if h._tick and (at == nil or h._last + h._tick < at) then return h._last + h._tick, nil end
  return at, due
end

-- Arms the loop's timer for the next advance (none when nothing is due and
-- no tick). Only again when that time changed or the clock has passed it: a
-- fake clock moved on past the real milliseconds the timer was armed for.
local function arm(h)
  local at, timer = deadline(h), h._timer
  if at == nil then
    if h._armed ~= nil then timer:stop() h._armed = nil end
    return
  end
  local ms = (at - read_clock(h._clock)) * 1000
  if at == h._armed and (h._armed_now or ms > 0) then return end
  h._armed, h._armed_now = at, ms <= 0
  -- libuv counts whole milliseconds from the loop's time: one more, so that
  -- the timer never fires before the clock reaches at (and at most 2^40 ms)
  ms = ms <= 0 and 0 or math.tointeger(math.min(math.ceil(ms) + 1, 2 ^ 40))
  timer:stop()
  if h._update_time then h._update_time() end
  timer:start(ms, 0, h._wake)
end

-- Advances the world to the clock's now when something is due by then (with
-- force, h:sync, always). Returns that advance's failures (nil when it did
-- not advance) and whether it reached until_time.
local function advance(h, force)
  local world, t = h.world, read_clock(h._clock)
  local at, due = deadline(h)
  if not force and (at == nil or t < at) then return nil end
  local dt = math.max(0, (t - h._last) * h._scale)
  -- the clock reached what is due: it runs, however dt was rounded
  if due and at <= t and world.time + dt < due then dt = due - world.time end
  local done = h._until ~= nil and world.time + dt >= h._until
  if done then dt = math.max(0, h._until - world.time) end
  h._last = t
  local failures = world:advance(dt)
  h.advances = h.advances + 1
  if type(failures) == "table" and #failures > 0 then
    local new = record(h, failures)
    if M.on_failures then M.on_failures(h, new) end
    if h._on_error then h._on_error(world, failures, h) end
  end
  if h._on_advance then h._on_advance(world, h) end
  return failures or {}, done
end

-- After an advance (pcall's results): the run stops at until_time, or its
-- timer is armed again. Returns nil, or the error to hand on (the run stopped).
local function after_advance(h, ok, res, done)
  if ok and h.running then
    if done then ok, res = pcall(h.stop, h, "until_time") else ok, res = pcall(arm, h) end
  end
  if not ok then return stop_on_error(h, res) end
  return nil
end

-- Advances the world to the clock's now, what is due running; returns that
-- advance's failures (nil once the run stopped). For a host's callback that
-- reads world.time or schedules relative to it: between the run's advances
-- the world's time stands still.
function Handle:sync()
  if not self.running then return nil end
  local ok, res, done = pcall(advance, self, true)
  local err = after_advance(self, ok, res, done)
  if err ~= nil then error(err, 0) end
  return res
end

-- A world, or an error at the caller naming what it got.
local function check_args(world, opts)
  if type(world) ~= "table" or type(world.advance) ~= "function" or type(world.next_due) ~= "function" then
    error("world:run_realtime: expected a world", 3)
  end
  positive("scale", opts.scale)
  positive("tick", opts.tick)
  local until_time = opts.until_time
  if until_time ~= nil and (type(until_time) ~= "number" or until_time ~= until_time) then
    error("world:run_realtime: until_time must be a number, got " .. tostring(until_time), 3)
  end
  for _, name in ipairs{ "on_error", "on_advance", "on_stop", "clock" } do
    if opts[name] ~= nil and type(opts[name]) ~= "function" then
      error(("world:run_realtime: %s must be a function, got %s"):format(name, type(opts[name])), 3)
    end
  end
  local loop = opts.loop
  if loop == nil then
    local ok, uv = pcall(require, "luv") -- only now: strata itself needs no luv
    if not ok then
      error("world:run_realtime: needs luv (Debian: lua-luv) or a loop = option: " .. tostring(uv):match("^[^\n]*"), 3)
    end
    loop = uv
  elseif type(loop) ~= "table" or type(loop.new_timer) ~= "function" or type(loop.new_prepare) ~= "function" then
    error("world:run_realtime: loop must be the luv module (require \"luv\") or a table with its new_timer and "
      .. "new_prepare, got " .. tostring(loop), 3)
  end
  local clock = opts.clock
  if clock == nil then
    local hrtime = loop.hrtime
    if type(hrtime) ~= "function" then error("world:run_realtime: a loop without hrtime needs a clock", 3) end
    clock = function() return hrtime() / 1e9 end
  end
  return loop, clock
end

function M.run(world, opts)
  opts = options.check("world:run_realtime", opts, 2)
  opts = opts or {}
  local loop, clock = check_args(world, opts)
  local ok, start = pcall(read_clock, clock)
  if not ok then error(start, 2) end
  local h = setmetatable({ world = world, running = true, advances = 0, failures = { total = 0 }, _index = {},
    _on_stop = opts.on_stop, _on_error = opts.on_error, _on_advance = opts.on_advance,
    _scale = opts.scale or 1, _tick = opts.tick, _until = opts.until_time, _clock = clock, _last = start,
    _update_time = type(loop.update_time) == "function" and loop.update_time or nil,
    _timer = loop.new_timer(), _prepare = loop.new_prepare() }, Handle)
  h._wake = function()
    h._armed = nil
    if not h.running then return end
    local err = after_advance(h, pcall(advance, h, false))
    if err ~= nil then return fail(err) end
  end
  local armed, err = pcall(arm, h)
  if not armed then
    pcall(h.stop, h, "error")
    error(err, 2)
  end
  -- before the loop waits: armed again for what a callback scheduled since
  h._prepare:start(function()
    if not h.running then return end
    local armed_ok, arm_err = pcall(arm, h)
    if not armed_ok then return fail(stop_on_error(h, arm_err)) end
  end)
  running[#running + 1] = h
  changed()
  return h
end

return M
