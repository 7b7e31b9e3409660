-- strata.cli: the `strata` command line. Each command is a module
-- strata.cmd.<name> returning { summary =, usage =, run = function(args) -> status }.
local strata = require "strata"

local cli = {}

-- Commands in the order `strata help` lists them.
cli.commands = { "run", "layout", "render", "play", "worldgen", "grid" }

local function load_command(name)
  local ok, cmd = pcall(require, "strata.cmd." .. name)
  if ok then return cmd end
  if type(cmd) == "string" and cmd:find("module 'strata.cmd." .. name .. "' not found", 1, true) then
    return nil
  end
  error(cmd, 0)
end

local function usage(out)
  out:write("usage: strata COMMAND [ARGS...]\n\ncommands:\n")
  for _, name in ipairs(cli.commands) do
    local cmd = load_command(name)
    if cmd then out:write(string.format("  %-10s %s\n", name, cmd.summary)) end
  end
  out:write("\n  help [COMMAND]  show help\n  --version       print the version\n")
  out:write("\nEvery command takes --help.\n")
end

-- Prints "strata: message" on stderr and returns the failing status.
function cli.fail(message)
  io.stderr:write("strata: ", message, "\n")
  return 1
end

function cli.main(...)
  local args = { ... }
  local name = args[1]
  if name == nil or name == "help" or name == "--help" or name == "-h" then
    if args[2] then
      local cmd = load_command(args[2])
      if not cmd then return cli.fail("unknown command '" .. args[2] .. "' (try 'strata help')") end
      io.stdout:write(cmd.usage)
      return 0
    end
    usage(io.stdout)
    return name == nil and 1 or 0
  end
  if name == "--version" or name == "version" then
    io.stdout:write("strata ", strata.version, " (", _VERSION, ")\n")
    return 0
  end
  local cmd = load_command(name)
  if not cmd then return cli.fail("unknown command '" .. name .. "' (try 'strata help')") end
  table.remove(args, 1)
  if args[1] == "--help" or args[1] == "-h" then
    io.stdout:write(cmd.usage)
    return 0
  end
  local ok, status = xpcall(cmd.run, function(e)
    if os.getenv("STRATA_TRACEBACK") then return debug.traceback(e, 2) end
    return e
  end, args)
  if not ok then return cli.fail(tostring(status)) end
  return status or 0
end

return cli
