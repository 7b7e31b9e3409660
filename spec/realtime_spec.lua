-- strata.realtime (world:run_realtime): handles, until_time, on_stop, checked
-- options, handler failures (on_error, on_stop, each distinct one counted);
-- under `strata run`: the script ends when its runs stop, SIGINT / SIGTERM
-- stop them (on_stop first) and exit 130 / 143, and handler failures are
-- printed once each with their counts and exit 1. Every verdict here is
-- independent of how many ticks the loop happened to run: a world's advance
-- runs every timer due up to its target, however the time was sliced.
local strata = require "strata"
local realtime = require "strata.realtime"
local paths = require "strata.paths"
local uv = require "luv"

local bin = os.getenv("STRATA_BIN")

local root = os.getenv("STRATA_SOURCE_DIR") or "."
local FIXTURES = root .. "/spec/fixtures/mods"

local function default_world() return strata.world.new{ seed = 1, mod_path = paths.mod_path() } end

-- A world with the faulty mod: its handler faulty.crack always raises.
local function faulty_world()
  return strata.world.new{ seed = 1, mods = { "base", "faulty" }, mod_path = paths.mod_path({ FIXTURES }) }
end


local support = require "support"
local sh = support.sh

local q = support.q

local tempdir = support.tempdir

local write = support.write

local read = support.read

-- realtime.run(w, opts) raises an error matching pattern.
local function refused(w, opts, pattern)
  local ok, err = pcall(realtime.run, w, opts)
  assert.is_false(ok)
  assert.matches(pattern, err)
end

-- Runs `strata run` on text in a fresh directory; returns output, status,
-- seconds taken, directory (removed by the caller).
local function run_script(text, dir)
  dir = dir or tempdir()
  write(dir .. "/script.lua", text)
  local t0 = uv.hrtime()
  local out, code = sh(("cd %s && timeout 10 %s run script.lua"):format(q(dir), q(bin)))
  return out, code, (uv.hrtime() - t0) / 1e9, dir
end

describe("strata.realtime", function()
  after_each(function() realtime.stop_all("cleanup") end)

  it("advances the world until until_time, ends there, calls on_stop once and leaves the loop", function()
    local w = default_world()
    local calls = {}
    local h = realtime.run(w, { scale = 1000, tick = 0.001, until_time = 5,
      on_stop = function(world, reason) calls[#calls + 1] = { world, reason, world.time } end })
    assert.is_true(h.running)
    assert.equal(w, h.world)
    assert.same({ h }, realtime.running())
    uv.run("default")
    assert.is_false(h.running)
    assert.equal("until_time", h.reason)
    assert.equal(1, #calls)
    assert.equal(w, calls[1][1])
    assert.equal("until_time", calls[1][2])
    assert.equal(5, calls[1][3])
    assert.equal(5, w.time)
    assert.same({}, realtime.running())
    assert.is_false(h:stop())
    assert.equal(1, #calls)
  end)

  it("stops on :stop(reason), once", function()
    local w = default_world()
    local reasons = {}
    local h = realtime.run(w, { on_stop = function(_, reason) reasons[#reasons + 1] = reason end })
    local other = realtime.run(w, { tick = 0.5 })
    local t = uv.new_timer()
    t:start(20, 0, function()
      t:close()
      assert.is_true(h:stop())
      assert.is_false(h:stop("again"))
      other:stop("done")
    end)
    uv.run("default")
    assert.same({ "stop" }, reasons)
    assert.equal("stop", h.reason)
    assert.equal("done", other.reason)
    assert.is_false(other.running)
    assert.matches("stopped %(done%)", tostring(other))
  end)

  it("stop_all stops every run with one reason", function()
    local w = default_world()
    local reasons = {}
    local function on_stop(_, reason) reasons[#reasons + 1] = reason end
    realtime.run(w, { on_stop = on_stop })
    realtime.run(w, { on_stop = on_stop })
    assert.equal(2, #realtime.running())
    assert.equal(2, realtime.stop_all("SIGTERM"))
    assert.same({ "SIGTERM", "SIGTERM" }, reasons)
    assert.equal(0, realtime.stop_all("x"))
    uv.run("default")
  end)

  it("checks its options: unknown keys name the nearest, values are checked", function()
    local w = default_world()
    local ok, err = pcall(realtime.run, w, { scael = 60 })
    assert.is_false(ok)
    assert.matches("world:run_realtime: unknown option 'scael' %(nearest known: scale", err)
    local function bad(opts, pattern) refused(w, opts, pattern) end
    bad({ scale = 0 }, "scale must be a number > 0, got 0")
    bad({ scale = "60" }, "scale must be a number > 0, got 60")
    bad({ tick = -1 }, "tick must be a number > 0, got %-1")
    bad({ tick = 0 / 0 }, "tick must be a number > 0")
    bad({ until_time = "soon" }, "until_time must be a number, got soon")
    bad({ on_stop = true }, "on_stop must be a function, got boolean")
    bad({ on_error = 1 }, "world:run_realtime: on_error must be a function, got number")
    bad({ on_eror = print }, "unknown option 'on_eror' %(nearest known: on_error")
    bad(7, "world:run_realtime: options must be a table, got number")
    local ok3, e3 = pcall(realtime.run, {}, {})
    assert.is_false(ok3)
    assert.matches("expected a world", e3)
    assert.same({}, realtime.running())
  end)

  it("reports an error where the call is", function()
    local w = default_world()
    local ok, err = pcall(function() realtime.run(w, { scael = 60 }) end)
    assert.is_false(ok)
    assert.matches("realtime_spec%.lua:%d+: world:run_realtime: unknown option", err)
  end)

  -- Runs world with opts until a tick raises: the run stops once, with
  -- reason 'error', and the host gets the message.
  local function stops_on_error(world, opts, message)
    local seen, reasons = {}, {}
    realtime.on_tick_error = function(e) seen[#seen + 1] = e end
    opts.on_stop = function(_, r) reasons[#reasons + 1] = r end
    local h = realtime.run(world, opts)
    uv.run("default")
    realtime.on_tick_error = nil
    assert.is_false(h.running)
    assert.same({ "error" }, reasons)
    assert.same({ message }, seen)
  end

  it("stops with reason 'error' when world:advance raises and hands the error to the host", function()
    local fake = { time = 0, next_due = function() end, advance = function() error("the clock broke", 0) end }
    stops_on_error(fake, { tick = 0.001 }, "the clock broke")
  end)

  it("hands each tick's handler failures to on_error and the run's, counted, to on_stop", function()
    local w = faulty_world()
    local timer = w:schedule{ after = 1, every = 1, handler = "faulty.crack" }
    local seen, stops = {}, {}
    local h
    h = w:run_realtime{ scale = 1000, tick = 0.001, until_time = 10.5,
      on_error = function(world, failures, handle)
        assert.equal(w, world)
        assert.equal(h, handle)
        assert.is_true(#failures > 0)
        for _, f in ipairs(failures) do seen[#seen + 1] = f end
      end,
      on_stop = function(world, reason, failures) stops[#stops + 1] = { world, reason, failures } end }
    uv.run("default")
    assert.equal(10.5, w.time)
    -- due at 1, 2, ..., 10: each failure once to on_error, whatever the ticks were
    assert.equal(10, #seen)
    for _, f in ipairs(seen) do
      assert.same({ timer = timer, handler = "faulty.crack", mod = "faulty" },
        { timer = f.timer, handler = f.handler, mod = f.mod })
      assert.matches("init%.lua:%d+: the clock cracked$", f.message)
    end
    -- on_stop: the reason, and the run's failures, one entry per distinct one
    assert.equal(1, #stops)
    assert.equal(w, stops[1][1])
    assert.equal("until_time", stops[1][2])
    local failures = stops[1][3]
    assert.equal(10, failures.total)
    assert.equal(1, #failures)
    assert.same({ timer = timer, handler = "faulty.crack", mod = "faulty", message = seen[1].message, count = 10 },
      failures[1])
    assert.equal(failures, h.failures)
  end)

  it("gives on_stop an empty list when no handler failed", function()
    local w = default_world()
    local got
    w:run_realtime{ scale = 1000, tick = 0.001, until_time = 1,
      on_stop = function(_, _, failures) got = failures end }
    uv.run("default")
    assert.same({ total = 0 }, got)
  end)

  it("lets on_error stop the run", function()
    local w = faulty_world()
    w:schedule{ after = 1, every = 1, handler = "faulty.crack" }
    local calls, reason, total = 0, nil, nil
    local h
    h = w:run_realtime{ scale = 1000, tick = 0.001,
      on_error = function(_, failures)
        calls = calls + 1
        total = #failures
        h:stop("failed")
      end,
      on_stop = function(_, why, failures) reason = why assert.equal(total, failures.total) end }
    uv.run("default")
    assert.equal(1, calls)
    assert.equal("failed", reason)
    assert.equal("failed", h.reason)
  end)

  it("lists at most max_distinct distinct failures and counts the rest", function()
    local w = faulty_world()
    w:schedule{ after = 1, every = 1, handler = "faulty.crack", args = { vary = true } }
    local saved = realtime.max_distinct
    realtime.max_distinct = 3
    local h = w:run_realtime{ scale = 1000, tick = 0.001, until_time = 10.5 }
    local ok, err = pcall(uv.run, "default")
    realtime.max_distinct = saved
    assert(ok, err)
    assert.equal(10, h.failures.total)
    assert.equal(3, #h.failures)
    for i, f in ipairs(h.failures) do
      assert.equal(1, f.count)
      assert.matches("cracked at " .. i .. "$", f.message)
    end
  end)

  it("stops with reason 'error' when on_error raises, and hands the error on", function()
    local w = faulty_world()
    w:schedule{ after = 0, every = 1, handler = "faulty.crack" }
    stops_on_error(w, { tick = 0.001, on_error = function() error("on_error broke", 0) end }, "on_error broke")
  end)

  it("is world:run_realtime", function()
    local w = default_world()
    local ok, err = pcall(function() w:run_realtime{ scael = 60 } end)
    assert.is_false(ok)
    assert.matches("realtime_spec%.lua:%d+: world:run_realtime: unknown option 'scael' %(nearest known: scale", err)
    local h = w:run_realtime{ scale = 100, tick = 0.005, until_time = 1 }
    assert.is_true(h.running)
    uv.run("default")
    assert.equal("until_time", h.reason)
    assert.equal(1, w.time)
  end)
end)

describe("strata run with realtime runs", function()
  local dir
  before_each(function() if bin then dir = tempdir() end end)
  after_each(function() if dir then os.execute("rm -rf " .. q(dir)) dir = nil end end)

  local prelude = [[
    local w = strata.world.new{ seed = 1, mod_path = strata.paths.mod_path() }
    local realtime = strata.realtime
  ]]

  it("ends when handle:stop() stops the only run", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local out, code, took = run_script(prelude .. [[
      local h = realtime.run(w, { scale = 1, tick = 0.01, on_stop = function(_, why) print("on_stop", why) end })
      local t = uv.new_timer()
      t:start(50, 0, function() t:close() print("stopped", h:stop(), h:stop(), h.running) end)
      print("started", h.running)
    ]], dir)
    assert.are.equal("started\ttrue\non_stop\tstop\nstopped\ttrue\tfalse\tfalse\n", out)
    assert.are.equal(0, code)
    assert.is_true(took < 3, "took " .. took .. " s")
  end)

  it("ends at until_time, after on_stop(world, 'until_time')", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local out, code, took = run_script(prelude .. [[
      realtime.run(w, { scale = 100, tick = 0.005, until_time = 2,
        on_stop = function(world, why) print("on_stop", why, world.time == 2) end })
      return 3
    ]], dir)
    assert.are.equal("on_stop\tuntil_time\ttrue\n", out)
    assert.are.equal(3, code)
    assert.is_true(took < 3, "took " .. took .. " s")
  end)

  it("ends a script whose runs all stopped while it ran", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local out, code = run_script(prelude .. [[
      local h = realtime.run(w, {})
      h:stop()
      local t = uv.new_timer()
      t:start(10, 0, function() t:close() print("timer") end)
    ]], dir)
    assert.are.equal("timer\n", out)
    assert.are.equal(0, code)
  end)

  it("fails with one line on a misspelt option", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local out, code = run_script(prelude .. "realtime.run(w, { scael = 60 })\n", dir)
    assert.are.equal(1, code)
    assert.matches("^strata: script%.lua:3: world:run_realtime: unknown option 'scael' %(nearest known: scale[^\n]*%)\n$", out)
    out, code = run_script(prelude .. "w:run_realtime{ scael = 60 }\n", dir)
    assert.are.equal(1, code)
    assert.matches("^strata: script%.lua:3: world:run_realtime: unknown option 'scael' %(nearest known: scale", out)
  end)

  it("fails with status 1 when a tick fails, after on_stop(world, 'error')", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local out, code = run_script([[
      local fake = { time = 0, next_due = function() end, advance = function() error("the clock broke", 0) end }
      strata.realtime.run(fake, { tick = 0.001, on_stop = function(_, why) print("on_stop", why) end })
    ]], dir)
    assert.are.equal("on_stop\terror\nstrata: the clock broke\n", out)
    assert.are.equal(1, code)
  end)

  it("prints each distinct handler failure once as it comes, the counts at the end, and exits 1", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    write(dir .. "/script.lua", ([[
      local w = strata.world.new{ seed = 1, mods = { "base", "faulty" }, mod_path = strata.paths.mod_path({ %q }) }
      w:schedule{ after = 1, every = 1, handler = "faulty.crack" }
      w:schedule{ after = 2.5, handler = "faulty.crack", args = { vary = true } }
      w:run_realtime{ scale = 1000, tick = 0.001, until_time = 10.5,
        on_stop = function(_, why, failures) print("on_stop", why, failures.total, #failures) end }
      return 3
    ]]):format(FIXTURES))
    local out, code = sh(("(cd %s && timeout 10 %s run script.lua 2>stderr.txt)"):format(q(dir), q(bin)))
    assert.are.equal("on_stop\tuntil_time\t11\t2\n", out)
    assert.are.equal(1, code)
    local lines = {}
    for line in read(dir .. "/stderr.txt"):gmatch("[^\n]+") do lines[#lines + 1] = line end
    assert.are.equal(4, #lines, table.concat(lines, "\n"))
    assert.matches("^strata: run: timer#(%d+) faulty%.crack %(mod faulty%) failed: [^\n]*init%.lua:%d+: the clock cracked$", lines[1])
    local repeated = lines[1]:match("timer#(%d+)")
    assert.matches("^strata: run: timer#%d+ faulty%.crack %(mod faulty%) failed: [^\n]*init%.lua:%d+: cracked at 2%.5$", lines[2])
    assert.are.equal("strata: run: timer#" .. repeated .. " faulty.crack (mod faulty) failed 10 times in all", lines[3])
    assert.are.equal("strata: run: 11 handler failures in realtime runs", lines[4])
  end)

  it("prints at most max_distinct distinct failures of a run and counts the others", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    write(dir .. "/script.lua", ([[
      local w = strata.world.new{ seed = 1, mods = { "base", "faulty" }, mod_path = strata.paths.mod_path({ %q }) }
      w:schedule{ after = 1, every = 1, handler = "faulty.crack", args = { vary = true } }
      strata.realtime.max_distinct = 2
      w:run_realtime{ scale = 1000, tick = 0.001, until_time = 10.5 }
    ]]):format(FIXTURES))
    local out, code = sh(("cd %s && timeout 10 %s run script.lua"):format(q(dir), q(bin)))
    assert.are.equal(1, code)
    local lines = {}
    for line in out:gmatch("[^\n]+") do lines[#lines + 1] = line end
    assert.are.equal(3, #lines, out)
    assert.matches("^strata: run: timer#%d+ faulty%.crack %(mod faulty%) failed: [^\n]*cracked at 1$", lines[1])
    assert.matches("^strata: run: timer#%d+ faulty%.crack %(mod faulty%) failed: [^\n]*cracked at 2$", lines[2])
    assert.are.equal("strata: run: 10 handler failures in realtime runs (8 not listed, past 2 distinct)", lines[3])
  end)

  -- A run that never ends, stopped by a signal: on_stop saves the world.
  local endless = [[
    local dir = ...
    local w = strata.world.new{ seed = 1, mod_path = strata.paths.mod_path() }
    w:create_object{ kind = "log", props = { note = "kept" } }
    strata.realtime.run(w, { scale = 10, tick = 0.01, on_stop = function(world, why)
      world:save(dir .. "/world.db")
      local f = io.open(dir .. "/reason", "w") f:write(why) f:close()
    end })
    strata.realtime.run(w, { tick = 0.05 })
    io.open(dir .. "/ready", "w"):close()
  ]]

  for _, case in ipairs{ { "TERM", "SIGTERM", 143 }, { "INT", "SIGINT", 130 } } do
    local sig, name, status = case[1], case[2], case[3]
    it(("stops every run on SIG%s, runs on_stop, exits %d"):format(sig, status), function()
      if not bin then pending("STRATA_BIN not set (run through ctest)") return end
      write(dir .. "/endless.lua", endless)
      local t0 = uv.hrtime()
      local out = sh(([[
        cd %s || exit 99
        timeout 10 %s run endless.lua "$PWD" & pid=$!
        i=0; while [ ! -f ready ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
        sleep 0.1
        kill -%s $pid
        wait $pid
        echo "status:$?"
      ]]):format(q(dir), q(bin), sig))
      local took = (uv.hrtime() - t0) / 1e9
      assert.matches("status:" .. status .. "\n", out)
      assert.is_true(took < 8, "took " .. took .. " s")
      assert.are.equal(name, read(dir .. "/reason"))
      local w = strata.world.open(dir .. "/world.db", { mod_path = paths.mod_path() })
      local kept
      for _, o in ipairs(w:objects()) do if o.kind == "log" then kept = o.props.note end end
      assert.are.equal("kept", kept)
      assert.is_true(w.time > 0)
    end)
  end
end)

-- ---- issue 37: world:next_due, and runs that wake only when something is due ----------

-- The notes the faulty.note handler left in log's state, as a plain list.
local function notes(log)
  local out = {}
  for i = 1, #log.state do out[i] = log.state[i] end
  return out
end

local fake_clock, settle = support.fake_clock, support.settle

describe("world:next_due", function()
  it("is the earliest timer's due time in world time, nil when nothing is due", function()
    local w = faulty_world()
    assert.is_nil(w:next_due())
    local log = w:create_object{ kind = "log", props = {} }
    local a = w:schedule{ after = 5, handler = "faulty.note", args = { log = log, tag = "a" } }
    assert.equal(5, w:next_due())
    w:advance(2)
    assert.equal(5, w:next_due())
    local b = w:schedule{ after = 1, every = 2, handler = "faulty.note", args = { log = log, tag = "b" } }
    assert.equal(3, w:next_due())
    w:advance(1)
    assert.equal(5, w:next_due()) -- b ran at 3 and is due again at 5, with a
    assert.same({ "b@3" }, notes(log))
    assert.is_true(w:cancel(a))
    assert.is_true(w:cancel(b))
    assert.is_nil(w:next_due())
    -- a turn is a timer: the schedule is the core's one
    w:add_turns(log, { speed = 4 })
    assert.equal(3.25, w:next_due())
    local state = support.state(w) -- the core's savepoints
    state:begin()
    w:schedule{ after = 0.1, handler = "faulty.note", args = { log = log, tag = "c" } }
    assert.equal(3.1, w:next_due())
    state:rollback()
    assert.equal(3.25, w:next_due())
  end)
end)

describe("world:run_realtime waking only when something is due", function()
  after_each(function()
    realtime.stop_all("cleanup")
    settle()
  end)

  it("advances only when the clock reaches a due timer: no poll", function()
    local w = faulty_world()
    local log = w:create_object{ kind = "log", props = {} }
    for _, t in ipairs{ 1, 2, 4 } do
      w:schedule{ after = t, handler = "faulty.note", args = { log = log, tag = "t" .. t } }
    end
    local clock = fake_clock(100)
    local h = w:run_realtime{ clock = clock.read, scale = 2 } -- 2 world seconds per second of the clock
    settle()
    assert.equal(0, h.advances)
    clock.now = 100.25 -- world time 0.5 by the clock: nothing due
    settle()
    assert.equal(0, h.advances)
    assert.equal(0, w.time)
    clock.now = 100.5
    settle()
    assert.equal(1, h.advances)
    assert.equal(1, w.time)
    assert.same({ "t1@1" }, notes(log))
    clock.now = 100.75
    settle()
    assert.equal(1, h.advances)
    clock.now = 102.5 -- past 2 and 4: one advance runs both
    settle()
    assert.equal(2, h.advances)
    assert.equal(5, w.time)
    assert.same({ "t1@1", "t2@2", "t4@4" }, notes(log))
    clock.now = 1000 -- nothing due: no wake, however far the clock goes
    settle()
    assert.equal(2, h.advances)
    assert.is_true(h.running)
  end)

  it("wakes for a timer a host callback scheduled while it waited", function()
    local w = faulty_world()
    local log = w:create_object{ kind = "log", props = {} }
    local clock = fake_clock(0)
    local h = w:run_realtime{ clock = clock.read }
    settle()
    local t = uv.new_timer()
    t:start(0, 0, function()
      t:close()
      w:schedule{ after = 3, handler = "faulty.note", args = { log = log, tag = "late" } }
    end)
    settle()
    assert.equal(0, h.advances)
    clock.now = 3
    settle()
    assert.equal(1, h.advances)
    assert.same({ "late@3" }, notes(log))
  end)

  it("arms the host's loop for exactly the next due time through the scale", function()
    -- a loop of the spec's: its timers fire when the spec says
    local timers, prepares = {}, {}
    local function handle(list)
      local hd = { closed = false }
      function hd:start(a, b, c) if c then self.ms, self.cb = a, c else self.cb = a end self.on = true end
      function hd:stop() self.on = false end
      function hd:close() self.closed = true self.on = false end
      function hd:is_closing() return self.closed end
      list[#list + 1] = hd
      return hd
    end
    local loop = { new_timer = function() return handle(timers) end,
                   new_prepare = function() return handle(prepares) end }
    local w = faulty_world()
    local log = w:create_object{ kind = "log", props = {} }
    w:schedule{ after = 3, handler = "faulty.note", args = { log = log, tag = "x" } }
    local clock = fake_clock(0)
    local h = w:run_realtime{ loop = loop, clock = clock.read, scale = 2 }
    assert.equal(1, #timers)
    assert.equal(1, #prepares)
    local timer = timers[1]
    assert.is_true(timer.on)
    assert.is_true(timer.ms >= 1500 and timer.ms <= 1501, tostring(timer.ms)) -- 3 world s at 2 per s
    clock.now = 1.5
    timer.on = false -- a one-shot timer that fires
    timer.cb()
    assert.equal(1, h.advances)
    assert.equal(3, w.time)
    assert.same({ "x@3" }, notes(log))
    assert.is_false(timer.on) -- nothing due: nothing armed
    h:stop()
    assert.is_true(timer.closed and prepares[1].closed)
  end)

  it("wakes at until_time with nothing due, and stops there", function()
    local w = default_world()
    local clock = fake_clock(0)
    local h = w:run_realtime{ clock = clock.read, until_time = 3 }
    clock.now = 2.5
    settle()
    assert.is_true(h.running)
    clock.now = 7
    settle()
    assert.is_false(h.running)
    assert.equal("until_time", h.reason)
    assert.equal(3, w.time)
  end)

  it("realtime:sync() brings the world to the clock's time", function()
    local w = faulty_world()
    local log = w:create_object{ kind = "log", props = {} }
    w:schedule{ after = 2, handler = "faulty.note", args = { log = log, tag = "s" } }
    local clock = fake_clock(8)
    local h = w:run_realtime{ clock = clock.read, scale = 8 }
    clock.now = 8.125
    assert.same({}, h:sync())
    assert.equal(1, w.time)
    assert.equal(1, h.advances)
    clock.now = 8.375
    assert.same({}, h:sync())
    assert.equal(3, w.time)
    assert.same({ "s@2" }, notes(log))
    h:stop()
    assert.is_nil(h:sync())
  end)

  it("reports handler failures to on_error, then calls on_advance, after each advance", function()
    local w = faulty_world()
    w:schedule{ after = 1, every = 1, handler = "faulty.crack" }
    local clock = fake_clock(0)
    local seen = {}
    local h
    h = w:run_realtime{ clock = clock.read,
      on_error = function(world, failures) seen[#seen + 1] = ("error %g %d"):format(world.time, #failures) end,
      on_advance = function(world, handle)
        assert.equal(h, handle)
        seen[#seen + 1] = ("advance %g"):format(world.time)
      end }
    clock.now = 2
    settle()
    assert.same({ "error 2 2", "advance 2" }, seen)
    assert.equal(2, h.failures.total)
  end)

  it("stops with reason 'error' when its clock fails", function()
    local w = default_world()
    local clock = fake_clock(0)
    local seen, reasons = {}, {}
    realtime.on_tick_error = function(e) seen[#seen + 1] = e end
    local h = w:run_realtime{ clock = clock.read, until_time = 10, on_stop = function(_, r) reasons[#reasons + 1] = r end }
    clock.now = "soon"
    settle()
    realtime.on_tick_error = nil
    assert.is_false(h.running)
    assert.same({ "error" }, reasons)
    assert.equal(1, #seen)
    assert.matches("^world:run_realtime: clock returned 'soon', not a number of seconds", seen[1])
  end)

  it("checks loop, clock and on_advance", function()
    local w = default_world()
    local function bad(opts, pattern) refused(w, opts, pattern) end
    bad({ loop = 5 }, "world:run_realtime: loop must be the luv module")
    bad({ loop = {} }, "world:run_realtime: loop must be the luv module")
    bad({ clock = 1 }, "world:run_realtime: clock must be a function, got number")
    bad({ on_advance = true }, "world:run_realtime: on_advance must be a function, got boolean")
    bad({ clok = os.time }, "unknown option 'clok' %(nearest known: clock")
    assert.same({}, realtime.running())
  end)

  it("needs luv only when no loop is given, and says so", function()
    -- LUA_CPATH without its ";;": strata.core's folder, not the system's modules
    local cpath = (os.getenv("LUA_CPATH") or ""):gsub(";;", ";")
    local dir = tempdir()
    write(dir .. "/noluv.lua", [[
      package.cpath = ... -- strata.core, no system modules: no luv
      local strata = require "strata"
      local w = strata.world.new{ seed = 1, mod_path = strata.paths.mod_path() }
      print(w:next_due(), package.loaded.luv)
      print(select(2, pcall(w.run_realtime, w, {})))
    ]])
    local out, code = sh(("lua5.4 %s %s"):format(q(dir .. "/noluv.lua"), q(cpath)))
    os.execute("rm -rf " .. q(dir))
    assert.equal(0, code, out)
    assert.matches("^nil\tnil\n", out)
    assert.matches("world:run_realtime: needs luv %(Debian: lua%-luv%) or a loop = option", out)
  end)
end)
