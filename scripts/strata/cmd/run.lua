-- strata run FILE.lua [ARGS...]: runs a script with `strata` and `uv` loaded,
-- then runs the luv loop until nothing is left on it.
local uv = require "luv"
local strata = require "strata"

local M = {
  summary = "run a Lua script with strata and luv loaded",
  usage = [[
usage: strata run FILE.lua [ARGS...]

Runs FILE.lua with the globals `strata` (require "strata") and `uv`
(require "luv") set and `arg` holding ARGS (arg[0] is FILE.lua), then runs
the luv event loop until it has nothing left to do. The script's own return
value, if an integer, is the exit status.
]],
}

function M.run(args)
  local file = args[1]
  if not file then error("run: missing FILE.lua (see 'strata run --help')", 0) end
  local chunk, err = loadfile(file)
  if not chunk then error(err, 0) end
  _G.strata = strata
  _G.uv = uv
  local script_args = { [0] = file }
  for i = 2, #args do script_args[i - 1] = args[i] end
  _G.arg = script_args
  local status = chunk(table.unpack(script_args))
  uv.run("default")
  if math.type(status) == "integer" then return status end
  return 0
end

return M
