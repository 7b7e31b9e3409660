-- strata run FILE.lua [ARGS...]: runs a script with `strata` and `uv` loaded,
-- then runs the luv loop until nothing is left on it. While realtime runs
-- (strata.realtime, world:run_realtime) are going, SIGINT and SIGTERM stop
-- them (their on_stop hooks run) and end the process with 130 / 143.
local uv = require "luv"
local strata = require "strata"
local realtime = require "strata.realtime"

local M = {
  summary = "run a Lua script with strata and luv loaded",
  usage = [[
usage: strata run FILE.lua [ARGS...]

Runs FILE.lua with the globals `strata` (require "strata") and `uv`
(require "luv") set and `arg` holding ARGS (arg[0] is FILE.lua), then runs
the luv event loop until it has nothing left to do: a script ends once its
timers, realtime runs (world:run_realtime) and other handles are done.

While a realtime run is going, SIGINT (Ctrl-C) and SIGTERM stop every
running one (each on_stop(world, "SIGINT" | "SIGTERM") hook runs, e.g. to
save the world), then end strata with status 130 (SIGINT) or 143 (SIGTERM).
More signals while the hooks run are ignored.

Exit status: the script's return value if an integer, else 0; 1 with the
message on an error (in the script or in a realtime tick); 130 / 143 on a
signal as above.
]],
}

-- Status for each signal strata handles while realtime runs are going.
local SIGNALS = { { "sigint", "SIGINT", 130 }, { "sigterm", "SIGTERM", 143 } }

function M.run(args)
  local file = args[1]
  if not file then error("run: missing FILE.lua (see 'strata run --help')", 0) end
  local chunk, err = loadfile(file)
  if not chunk then error(err, 0) end

  local signals  -- the luv signal handles, while a realtime run is going
  local status   -- the exit status once a signal came
  local failure  -- the first error of a realtime tick

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
  realtime.on_error = function(e)
    if failure == nil then failure = e end
    uv.stop()
  end

  -- However the script ends, every handle is closed and the loop runs until
  -- they are: luv frees a handle still closing when the Lua state closes,
  -- then calls its close callback (a signal handle closed with a signal
  -- still queued, when a wrapper such as timeout(1) signals twice).
  local finish <close> = setmetatable({}, { __close = function()
    realtime.on_change, realtime.on_error = nil, nil
    uv.walk(function(h) if not h:is_closing() then h:close() end end)
    uv.run("default")
  end })

  _G.strata = strata
  _G.uv = uv
  local script_args = { [0] = file }
  for i = 2, #args do script_args[i - 1] = args[i] end
  _G.arg = script_args
  local result = chunk(table.unpack(script_args))
  if not status and failure == nil then uv.run("default") end
  if status then return status end
  if failure ~= nil then error(failure, 0) end
  if math.type(result) == "integer" then return result end
  return 0
end

return M
