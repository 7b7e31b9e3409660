-- strata run FILE.lua [ARGS...]: runs a script with `strata` and `uv` loaded,
-- then runs the luv loop until nothing is left on it. While realtime runs
-- (strata.realtime, world:run_realtime) are going, SIGINT and SIGTERM stop
-- them (their on_stop hooks run) and end the process with 130 / 143. Their
-- handler failures are printed on stderr, each distinct one once as it first
-- comes and its count at the end, and make the status 1.
local strata = require "strata"
local realtime = require "strata.realtime"
local cli = require "strata.cli"

local M = {}

M.spec = {
  name = "run",
  summary = "run a Lua script with strata and luv loaded",
  forms = { "[--watch] FILE.lua [ARGS...]" },
  args = {
    { name = "FILE.lua", key = "file", kind = "path", stdio = "in" },
    -- everything after the script is the script's, options too
    { name = "ARGS", key = "args", rest = true, raw = true, optional = true },
  },
  options = {
    { name = "watch", kind = "flag", help = "reload the mods of the script's worlds when their files change" },
  },
  description = [[Runs FILE.lua (- reads it from standard input) with the globals `strata`
(require "strata") and `uv` (require "luv") set and `arg` holding ARGS
(arg[0] is FILE.lua; options after FILE.lua are the script's), then runs
the luv event loop until it has nothing left to do: a script ends once its
timers, realtime runs (world:run_realtime) and other handles are done.

--watch: once FILE.lua has run, the folders of the mods of the worlds it
made are watched: when a file in one changes, that mod is reloaded
(strata.reload) in every world that loaded it, and strata prints on stderr
  strata: run: --watch: reloaded mod ID
or the reload's error; a reload that fails changes nothing and the world
goes on. Watching never keeps the loop alive.

While a realtime run is going, SIGINT (Ctrl-C) and SIGTERM stop every
running one (each on_stop(world, "SIGINT" | "SIGTERM") hook runs, e.g. to
save the world), then end strata with status 130 (SIGINT) or 143 (SIGTERM).
More signals while the hooks run are ignored.

A timer handler that fails during a realtime run does not stop it (its
changes are undone, the other timers run; see world:advance). strata prints
each distinct failure (timer, handler, mod, message) on stderr once, as it
first comes:
  strata: run: timer#3 my.tick (mod my) failed: init.lua:7: the message
and once the loop has ended, the count of each that came more than once,
then the number of failures in all:
  strata: run: timer#3 my.tick (mod my) failed 5000 times in all
  strata: run: 5001 handler failures in realtime runs
A run lists at most 100 distinct failures (strata.realtime.max_distinct);
the others are only counted.

Exit status: 130 / 143 on a signal as above; else 1 with the message on an
error (in the script or in a realtime tick), or 1 if a timer handler failed
in a realtime run; 2 for a mistake in strata's own arguments; else the
script's return value if an integer, else 0.]],
}

-- Status for each signal strata handles while realtime runs are going.
local SIGNALS = { { "sigint", "SIGINT", 130 }, { "sigterm", "SIGTERM", 143 } }

-- "timer#3 my.tick (mod my)": which handler failed.
local function describe(f)
  local who = {}
  if f.timer then who[#who + 1] = "timer#" .. tostring(f.timer) end
  if f.handler then who[#who + 1] = tostring(f.handler) end
  if f.mod then who[#who + 1] = "(mod " .. tostring(f.mod) .. ")" end
  return #who > 0 and table.concat(who, " ") or "a handler"
end

-- The end of the report: the count of each failure that came more than once
-- (each was printed when it first came), then the total; returns the total.
local function summarize(runs)
  local total, unlisted = 0, 0
  for _, h in ipairs(runs) do
    local listed = 0
    for _, f in ipairs(h.failures) do
      listed = listed + f.count
      if f.count > 1 then
        io.stderr:write(("strata: run: %s failed %d times in all\n"):format(describe(f), f.count))
      end
    end
    total = total + h.failures.total
    unlisted = unlisted + h.failures.total - listed
  end
  if total > 0 then
    io.stderr:write(("strata: run: %d handler failure%s in realtime runs%s\n"):format(total,
      total == 1 and "" or "s",
      unlisted > 0 and (" (%d not listed, past %d distinct)"):format(unlisted, realtime.max_distinct) or ""))
  end
  return total
end

function M.run(o)
  -- luv is loaded by the run, not when the command's table is read (--help,
  -- the manual page, a spec): a Lua state that unloads and loads luv again
  -- (busted between spec files) crashes in its loop
  local uv = require "luv"
  local file = o.file
  local chunk, err
  if file == "-" then chunk, err = load(cli.read("-"), "=stdin")
  else chunk, err = loadfile(file) end
  if not chunk then error(err, 0) end

  local signals  -- the luv signal handles, while a realtime run is going
  local status   -- the exit status once a signal came
  local failure  -- the first error of a realtime tick
  local failed = {} -- the realtime runs that had handler failures, in order (and as keys)

  local function close_signals()
    if not signals then return end
    for _, s in ipairs(signals) do
      if not s:is_closing() then s:close() end
    end
    signals = nil
  end

  -- The handles stay open while the hooks run, so that the same signal sent
  -- twice (by a wrapper that signals the child and its process group, say)
  -- does not kill a save half-way; the queued repeats are dropped with them.
  local function on_signal(name, code)
    return function()
      if status then return end
      status = code
      for _, h in ipairs(realtime.running()) do
        local ok, e = pcall(h.stop, h, name)
        if not ok then io.stderr:write("strata: ", tostring(e), "\n") end
      end
      close_signals()
      uv.stop()
    end
  end

  realtime.on_change = function(count)
    if status then return end
    if count > 0 and not signals then
      signals = {}
      for _, s in ipairs(SIGNALS) do
        local handle = uv.new_signal()
        handle:start(s[1], on_signal(s[2], s[3]))
        signals[#signals + 1] = handle
      end
    elseif count == 0 then
      close_signals()
    end
  end
  realtime.on_tick_error = function(e)
    if failure == nil then failure = e end
    uv.stop()
  end
  realtime.on_failures = function(h, new)
    if not failed[h] then failed[h] = true failed[#failed + 1] = h end
    for _, f in ipairs(new) do
      io.stderr:write("strata: run: ", describe(f), " failed: ", tostring(f.message), "\n")
    end
  end

  -- However the script ends, every handle is closed and the loop runs until
  -- they are: luv frees a handle still closing when the Lua state closes,
  -- then calls its close callback (a signal handle closed with a signal
  -- still queued, when a wrapper such as timeout(1) signals twice).
  local finish <close> = setmetatable({}, { __close = function()
    realtime.on_change, realtime.on_tick_error, realtime.on_failures = nil, nil, nil
    uv.walk(function(h) if not h:is_closing() then h:close() end end)
    uv.run("default")
  end })

  _G.strata = strata
  _G.uv = uv
  local script_args = { [0] = file }
  for i, a in ipairs(o.args) do script_args[i] = a end
  _G.arg = script_args
  local result = chunk(table.unpack(script_args))
  if o.watch then
    require("strata.watch").start(uv, function(line) io.stderr:write("strata: run: --watch: ", line, "\n") end)
  end
  if not status and failure == nil then uv.run("default") end
  local total = summarize(failed)
  if status then return status end
  if failure ~= nil then error(failure, 0) end
  if total > 0 then return 1 end
  if math.type(result) == "integer" then return result end
  return 0
end

return M
