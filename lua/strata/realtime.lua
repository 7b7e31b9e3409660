-- strata.realtime: drives a world's time from the luv event loop.
--
--   local h = realtime.run(world, { scale =, tick =, until_time =, on_error =, on_stop = })
--   -- world:run_realtime{ ... } is the same call
--
--   scale       world seconds per real second (number > 0, default 1)
--   tick        real seconds between advances (number > 0, default 0.1;
--               at least one millisecond)
--   until_time  stop once world.time reaches this (a number); the last
--               advance ends exactly on it
--   on_error    function(world, failures, handle), after each tick whose
--               world:advance reported handler failures, with that list
--   on_stop     function(world, reason, failures), called once when the run
--               stops, with the run's failures (below)
--
-- The handle: h.running (true until the run stops), h.reason (why it
-- stopped, then), h.world, h.failures, and h:stop(reason) (default reason
-- "stop"; a second call does nothing and returns false). Reasons: "stop" or
-- the one given to h:stop, "until_time", "error" (world:advance, on_error or
-- on_stop raised during a tick; the error is raised on after on_stop), and
-- under `strata run` "SIGINT" or "SIGTERM".
--
-- Handler failures do not stop a run (time never stops for one handler);
-- on_error may stop it. h.failures lists them once per distinct (timer,
-- handler, message), first seen first: { timer =, handler =, mod =,
-- message =, count = } (and dropped = for a run limit), with .total counting
-- every failure. At most M.max_distinct are listed, so that a handler whose
-- message changes on every tick of a long run cannot fill memory; the rest
-- are only counted in .total.
--
-- A running handle keeps the luv loop alive (its timer); once every run has
-- stopped, `uv.run()` returns if nothing else is on the loop.
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

-- Stops the run: its timer is closed, it leaves the running list, then
-- on_stop(world, reason) runs. Returns true, or false if it had stopped.
function Handle:stop(reason)
  if not self.running then return false end
  if reason == nil then reason = "stop" end
  self.running = false
  self.reason = reason
  local timer = self._timer
  self._timer = nil
  if not timer:is_closing() then timer:stop() timer:close() end
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
    error(("world:run_realtime: %s must be a number > 0, got %s"):format(name, tostring(v)), 3)
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

-- An error in a tick (world:advance, on_error or on_stop): to the host, or raised.
local function fail(err)
  if M.on_tick_error then return M.on_tick_error(err) end
  error(err, 0)
end

-- Counts a tick's failures into h.failures (see the top); returns those
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

function M.run(world, opts)
  opts = options.check("world:run_realtime", opts, 2)
  opts = opts or {}
  if type(world) ~= "table" or type(world.advance) ~= "function" then
    error("world:run_realtime: expected a world", 2)
  end
  positive("scale", opts.scale)
  positive("tick", opts.tick)
  local until_time = opts.until_time
  if until_time ~= nil and (type(until_time) ~= "number" or until_time ~= until_time) then
    error("world:run_realtime: until_time must be a number, got " .. tostring(until_time), 2)
  end
  for _, name in ipairs{ "on_error", "on_stop" } do
    if opts[name] ~= nil and type(opts[name]) ~= "function" then
      error(("world:run_realtime: %s must be a function, got %s"):format(name, type(opts[name])), 2)
    end
  end
  local uv = require "luv"
  local scale, tick = opts.scale or 1, opts.tick or 0.1
  local ms = math.max(1, math.floor(tick * 1000 + 0.5))
  local on_error = opts.on_error
  local h = setmetatable({ world = world, running = true, failures = { total = 0 }, _index = {},
    _on_stop = opts.on_stop, _timer = uv.new_timer() }, Handle)
  local last = uv.hrtime()
  h._timer:start(ms, ms, function()
    if not h.running then return end
    local now = uv.hrtime()
    local dt = (now - last) / 1e9 * scale
    last = now
    local done = false
    if until_time and world.time + dt >= until_time then
      dt = math.max(0, until_time - world.time)
      done = true
    end
    local ok, err = pcall(world.advance, world, dt)
    if ok and type(err) == "table" and #err > 0 then
      local new = record(h, err)
      if M.on_failures then M.on_failures(h, new) end
      if on_error then ok, err = pcall(on_error, world, err, h) end
    end
    if not ok then
      local stopped, stop_err = pcall(h.stop, h, "error")
      if not stopped then err = tostring(err) .. "\nthen on_stop: " .. tostring(stop_err) end
      return fail(err)
    end
    if done and h.running then
      local stopped, stop_err = pcall(h.stop, h, "until_time")
      if not stopped then return fail(stop_err) end
    end
  end)
  running[#running + 1] = h
  changed()
  return h
end

return M
