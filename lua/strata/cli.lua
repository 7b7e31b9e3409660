-- strata.cli: the `strata` command line. Each command is a module
-- strata.cmd.<name> returning { summary =, usage =, run = function(args) -> status },
-- and names_errors = true when its errors are to read "<name>: message" on one
-- line (what it raises, and what the library raises under it).
local strata = require "strata"

local cli = {}

-- Commands in the order `strata help` lists them.
cli.commands = { "run", "layout", "render", "play", "worldgen", "grid", "dump", "load" }

local function load_command(name)
  local ok, cmd = pcall(require, "strata.cmd." .. name)
  if ok then return cmd end
  if type(cmd) == "string" and cmd:find("module 'strata.cmd." .. name .. "' not found", 1, true) then
    return nil
  end
  error(cmd, 0)
end

-- Output is never lost in silence: a write to standard output that fails (a
-- full disk, /dev/full) is an error. After one failed write the data is gone
-- and a later flush succeeds, so every write is checked, and the flush at the end.
local function output_failed(err) error("cannot write to standard output: " .. tostring(err), 0) end

-- Writes its arguments to standard output, or raises.
function cli.write(...)
  local ok, err = io.stdout:write(...)
  if not ok then output_failed(err) end
end

-- The integer an option's value s spells, at least min (when given); else an
-- error naming the option: "--attempts must be an integer of at least 1, got '0'".
function cli.integer(s, option, min)
  local v = math.tointeger(tonumber(s))
  if v and (min == nil or v >= min) then return v end
  error(("%s must be an integer%s, got '%s'"):format(option, min and " of at least " .. min or "", tostring(s)), 0)
end

-- The size WxH an option's value spells: sides of 1 to 65535 (a tile map's
-- STRATA_TILEMAP_SIDE_MAX; a world's map is also bounded in cells, which
-- world:create_map checks).
function cli.size(s, option)
  local w, h = s:match("^(%d+)x(%d+)$")
  w, h = math.tointeger(tonumber(w)), math.tointeger(tonumber(h))
  if not (w and h) or w < 1 or h < 1 or w > 65535 or h > 65535 then
    error(("%s must be WxH with sides of 1 to 65535, e.g. 40x25, got '%s'"):format(option, s), 0)
  end
  return { w, h }
end

-- A command's arguments one by one: `for a, value in cli.options(args, fail) do`;
-- value() takes the next argument as a's value (fail(a .. " needs a value")
-- when there is none).
function cli.options(args, fail)
  local i = 0
  local function value()
    i = i + 1
    if args[i] == nil then fail(args[i - 1] .. " needs a value") end
    return args[i]
  end
  return function()
    i = i + 1
    if args[i] ~= nil then return args[i], value end
  end
end

-- fn(...), the library function `name`, for a command: its error without
-- the function's name (the user ran a command, not the function; called
-- from strata's own files, it has no position).
function cli.call(name, fn, ...)
  local res = table.pack(pcall(fn, ...))
  if res[1] then return table.unpack(res, 2, res.n) end
  local msg = tostring(res[2])
  -- name, or its public name with the kind or module first ("map:to_svg")
  local quoted = name:gsub("%p", "%%%0")
  msg = msg:match("^" .. quoted .. ": (.*)$") or msg:match("^[%w_.]+[:.]" .. quoted .. ": (.*)$") or msg
  -- a mod of the user's, searched only where strata's own are: the option that finds it
  if msg:match("^mod '[^']*' not found in [^\n]*$") then msg = msg .. " (give the folder it is in with --mod-path DIR)" end
  error(msg, 0)
end

-- Whether a FILE_OR_ID argument names a file: something is at that path, or
-- it has a '/' (an ID never has), so that a missing file is called missing
-- rather than an unknown ID.
function cli.names_file(s)
  return s:find("/", 1, true) ~= nil or require("strata.paths").kind(s) ~= nil
end

-- The base.layout entry id of world's mods, or an error saying that nothing
-- of that name exists (the argument was a FILE_OR_ID).
function cli.layout_entry(world, id)
  local view = world.data["base.layout"]
  local entry = view:get(id)
  if entry then return entry end
  local known = {}
  for k in view:iter() do known[#known + 1] = k end
  error(("no file or base.layout named '%s'%s"):format(id, require("strata.options").suggest(id, known)), 0)
end

-- The mods `strata layout` and `strata render` look a layout ID up in: those
-- given with --mods, else strata's own base and examples, so that the layouts
-- strata ships (examples.cave, ...) work from any folder.
function cli.layout_mods(given) return given or { "base", "examples" } end

local function usage()
  cli.write("usage: strata COMMAND [ARGS...]\n\ncommands:\n")
  for _, name in ipairs(cli.commands) do
    local cmd = load_command(name)
    if cmd then cli.write(string.format("  %-10s %s\n", name, cmd.summary)) end
  end
  cli.write("\n  help [COMMAND]  show help\n  --version, -V   print the version\n")
  cli.write("\nEvery command takes --help.\n")
end

-- Prints "strata: message" on stderr and returns the failing status.
function cli.fail(message)
  io.stderr:write("strata: ", message, "\n")
  return 1
end

-- Runs fn(...) and flushes standard output; an error (one raised by fn, or a
-- failed write or flush) becomes "strata: message" on stderr and status 1.
-- handler turns an error into its message.
local function finish(handler, fn, ...)
  local ok, status = xpcall(fn, handler, ...)
  if ok then
    local flushed, err = io.stdout:flush()
    if not flushed then ok, status = false, handler("cannot write to standard output: " .. tostring(err)) end
  end
  if not ok then return cli.fail(tostring(status)) end
  return status or 0
end

local function plain(e) return e end

function cli.main(...)
  local args = { ... }
  local name = args[1]
  if name == nil or name == "help" or name == "--help" or name == "-h" then
    if args[2] then
      local cmd = load_command(args[2])
      if not cmd then return cli.fail("unknown command '" .. args[2] .. "' (try 'strata help')") end
      return finish(plain, cli.write, cmd.usage)
    end
    return finish(plain, function() usage() return name == nil and 1 or 0 end)
  end
  if name == "--version" or name == "-V" or name == "version" then
    return finish(plain, cli.write, "strata ", strata.version, " (", _VERSION, ")\n")
  end
  local cmd = load_command(name)
  if not cmd then return cli.fail("unknown command '" .. name .. "' (try 'strata help')") end
  table.remove(args, 1)
  if args[1] == "--help" or args[1] == "-h" then return finish(plain, cli.write, cmd.usage) end
  return finish(function(e)
    if cmd.names_errors and type(e) == "string" then
      e = e:gsub("\n%s*", "; ")
      if e:sub(1, #name + 2) ~= name .. ": " then e = name .. ": " .. e end
    end
    if os.getenv("STRATA_TRACEBACK") then return debug.traceback(e, 2) end
    return e
  end, cmd.run, args)
end

return cli
