-- strata.cli: the `strata` command line. Each command is a module
-- strata.cmd.<name> returning { spec = (what it takes: cli.parse), run =
-- function(values, subcommand) -> status }, and names_errors = true when its
-- errors are to read "<name>: message" on one line (what it raises, and what
-- the library raises under it). A usage error exits 2, any other error 1.
local strata = require "strata"
local paths = require "strata.paths"

local cli = {}

-- Commands in the order `strata help` lists them.
cli.commands = { "run", "layout", "render", "play", "worldgen", "grid", "dump", "load", "copy", "serve-check" }

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

-- ---- the one parser --------------------------------------------------------------------
-- Each command declares what it takes in one table, M.spec, which both the
-- parser and --help read (so the help cannot drift from what is accepted):
--   { name =, summary =, forms = { usage lines } (else made from args),
--     description =, epilog = (texts around the options),
--     args = { { name = "FILE", key =, kind =, optional =, rest =, raw = } },
--     options = { { name = "seed", short = "s", kind =, arg = "N", default =,
--                   repeatable =, help = } },
--     subcommands = { { name =, args =, options =, help =, description = } } }
-- Kinds: flag, string, integer (min), size (WxH), list (a,b), choice
-- (choices), path (stdio = "in" or "out" when '-' means standard input or
-- output; refuse_stdio = why it cannot be); check = fn(s) -> value | nil, why.

-- A mistake on the command line: exit status 2 and a hint (strata.cli.main).
local Usage = { __tostring = function(e) return e.message end }

-- Raises a usage error: "strata: CMD: message; try 'HINT'" and status 2. hint
-- defaults to the command's --help.
function cli.usage_error(message, hint) error(setmetatable({ message = message, hint = hint }, Usage), 0) end

local KINDS = {}
function KINDS.string(s) return s end
function KINDS.integer(s, d)
  local v = math.tointeger(tonumber(s))
  if v and (d.min == nil or v >= d.min) then return v end
  return nil, ("must be an integer%s, got '%s'"):format(d.min and " of at least " .. d.min or "", s)
end
-- sides of 1 to 65535: a tile map's STRATA_TILEMAP_SIDE_MAX (a world's map is
-- also bounded in cells, which world:create_map checks)
function KINDS.size(s)
  local w, h = s:match("^(%d+)x(%d+)$")
  w, h = math.tointeger(tonumber(w)), math.tointeger(tonumber(h))
  if w and h and w >= 1 and h >= 1 and w <= 65535 and h <= 65535 then return { w, h } end
  return nil, ("must be WxH with sides of 1 to 65535, e.g. 40x25, got '%s'"):format(s)
end
function KINDS.list(s)
  local t = {}
  for m in s:gmatch("[^,]+") do t[#t + 1] = m end
  return t
end
function KINDS.choice(s, d)
  for _, c in ipairs(d.choices) do
    if c == s then return s end
  end
  return nil, ("must be one of %s, got '%s'"):format(table.concat(d.choices, ", "), s)
end
function KINDS.path(s, d)
  if s == "-" and not d.stdio then
    return nil, "cannot be '-': " .. (d.refuse_stdio or "it names a file, not standard input or output")
  end
  return s
end

-- The value text s spells for d (an option or argument), or a usage error
-- naming it: "--seed must be an integer, got 'x'".
local function convert(d, s, label, hint)
  local v, why = (d.check or KINDS[d.kind or "string"])(s, d)
  if v == nil then cli.usage_error(label .. " " .. why, hint) end
  return v
end

local function label_of(d) return "--" .. d.name end

-- Registers options (the command's, then a subcommand's) by "--name" and "-s".
local function add_options(st, options)
  for _, d in ipairs(options or {}) do
    st.opts[label_of(d)] = d
    if d.short then st.opts["-" .. d.short] = d end
    st.known[#st.known + 1] = label_of(d)
    st.all[#st.all + 1] = d
  end
end

local function key_of(d) return d.key or (d.name:lower():gsub("%W", "_")) end

-- The flag `name` of some subcommand, given before the subcommand was
-- (`grid --yes delete Z`): it waits until the subcommand is known.
local function later(st, name, value)
  if not st.spec.subcommands or st.sub or value then return false end
  for _, sub in ipairs(st.spec.subcommands) do
    for _, d in ipairs(sub.options or {}) do
      if d.kind == "flag" and (label_of(d) == name or d.short and "-" .. d.short == name) then
        st.pending[#st.pending + 1] = name
        return true
      end
    end
  end
  return false
end

local function option(st, name, value, args, i)
  local d = st.opts[name]
  if not d and later(st, name, value) then return i end
  if not d then
    cli.usage_error(("unknown option '%s'%s"):format(name, require("strata.options").suggest(name, st.known)), st.hint)
  end
  local key = key_of(d)
  if d.kind == "flag" then
    if value then cli.usage_error(("%s takes no value, got '%s'"):format(label_of(d), value), st.hint) end
    st.values[key] = true
    return i
  end
  if value == nil then
    i = i + 1
    value = args[i]
    if value == nil then cli.usage_error(("%s needs a value (%s)"):format(label_of(d), d.arg or "a value"), st.hint) end
  end
  local v = convert(d, value, label_of(d), st.hint)
  if d.repeatable then
    st.values[key] = st.values[key] or {}
    table.insert(st.values[key], v)
  else
    st.values[key] = v
  end
  if value == "-" then st.stdio[#st.stdio + 1] = { d.stdio, label_of(d) } end
  return i
end

local function positional(st, a)
  local spec = st.spec
  if spec.subcommands and not st.sub then
    local names = {}
    for _, sub in ipairs(spec.subcommands) do
      if sub.name == a then
        st.sub, st.hint, st.args = sub, "strata " .. spec.name .. " " .. sub.name .. " --help", sub.args or {}
        add_options(st, sub.options)
        for _, name in ipairs(st.pending) do option(st, name, nil, {}, 0) end
        return
      end
      names[#names + 1] = sub.name
    end
    cli.usage_error(("unknown subcommand '%s'%s"):format(a, require("strata.options").suggest(a, names)), st.hint)
  end
  st.pos[#st.pos + 1] = a
  local nxt = st.args[#st.pos + 1]
  if nxt and nxt.raw then st.raw = true end -- the rest is the script's own (run FILE ARGS...)
end

-- Walks the arguments: options (--name value, --name=value, -s value, -svalue),
-- `--` ending them, and arguments ('-' and negative numbers are arguments).
local function scan(st, args)
  local i, done = 1, false
  while i <= #args do
    local a = args[i]
    if st.raw then
      st.pos[#st.pos + 1] = a
    elseif done or a == "-" or not a:match("^%-%D") then
      positional(st, a)
    elseif a == "--" then
      done = true
    else
      local name, value = a:match("^(%-%-[^=]+)=(.*)$")
      if not name and a:sub(2, 2) ~= "-" and #a > 2 and st.opts[a:sub(1, 2)] then name, value = a:sub(1, 2), a:sub(3) end
      name = name or a
      if name == "--help" or name == "-h" then st.help = true
      else i = option(st, name, value, args, i) end
    end
    i = i + 1
  end
end

-- The arguments given to the declared ones, by key; a usage error for one
-- missing or one too many.
local function assign(st)
  local k, prefix = 1, st.sub and st.sub.name .. ": " or ""
  for _, d in ipairs(st.args) do
    local key = key_of(d)
    if d.rest then
      local list = {}
      for j = k, #st.pos do list[#list + 1] = d.raw and st.pos[j] or convert(d, st.pos[j], d.name, st.hint) end
      if #list == 0 and not d.optional then cli.usage_error(prefix .. "missing " .. d.name, st.hint) end
      st.values[key], k = list, #st.pos + 1
    elseif st.pos[k] ~= nil then
      st.values[key] = convert(d, st.pos[k], d.name, st.hint)
      if st.pos[k] == "-" then st.stdio[#st.stdio + 1] = { d.stdio, d.name } end
      k = k + 1
    elseif not d.optional then
      cli.usage_error(prefix .. "missing " .. d.name, st.hint)
    end
  end
  if st.pos[k] ~= nil then cli.usage_error(("%sunexpected argument '%s'"):format(prefix, st.pos[k]), st.hint) end
end

-- Standard input is read once and standard output holds one document: two
-- '-' of one direction cannot both be served.
local function check_stdio(st)
  local seen = {}
  for _, u in ipairs(st.stdio) do
    local dir, label = u[1], u[2]
    if seen[dir] then
      cli.usage_error(("%s and %s cannot both be '-' (%s)"):format(seen[dir], label,
        dir == "in" and "standard input is read once" or "standard output holds one document"), st.hint)
    end
    seen[dir] = label
  end
end

-- The values of args (a command's arguments) by spec: { key = value, help =
-- true when --help was given }, and the subcommand's entry. Every mistake is
-- a usage error; --help anywhere wins over them.
function cli.parse(spec, args)
  local st = { spec = spec, opts = {}, known = { "--help" }, all = {}, values = {}, pos = {}, stdio = {}, pending = {},
    args = spec.args or {}, hint = "strata " .. spec.name .. " --help" }
  add_options(st, spec.options)
  local ok, err = pcall(scan, st, args)
  for _, a in ipairs(ok and {} or args) do -- a mistake before --help: the help still
    if a == "--" then break end
    if a == "--help" or a == "-h" then st.help = true end
  end
  if st.help then return { help = true }, st.sub end
  if not ok then error(err, 0) end
  if spec.subcommands and not st.sub then
    local names = {}
    for _, sub in ipairs(spec.subcommands) do names[#names + 1] = sub.name end
    cli.usage_error("a subcommand is needed: " .. table.concat(names, ", "), st.hint)
  end
  assign(st)
  check_stdio(st)
  for _, d in ipairs(st.all) do
    local key = key_of(d)
    if st.values[key] == nil then
      if d.repeatable then st.values[key] = {}
      elseif d.kind == "flag" then st.values[key] = false
      elseif type(d.default) == "table" then st.values[key] = table.move(d.default, 1, #d.default, 1, {})
      else st.values[key] = d.default end
    end
  end
  return st.values, st.sub
end

-- "[NAME]", "NAME...": the arguments as a usage line shows them.
local function args_line(args)
  local parts = {}
  for _, d in ipairs(args or {}) do
    local s = d.name .. (d.rest and "..." or "")
    parts[#parts + 1] = d.optional and "[" .. s .. "]" or s
  end
  return table.concat(parts, " ")
end

-- Rows { left, right } in two columns; a long left puts its right below it.
local function columns(rows)
  local width = 0
  for _, r in ipairs(rows) do width = math.max(width, #r[1]) end
  width = math.min(width, 24)
  local out = {}
  for _, r in ipairs(rows) do
    local pad = ("\n    " .. (" "):rep(width))
    local right = r[2]:gsub("\n", pad)
    if #r[1] > width then out[#out + 1] = "  " .. r[1] .. pad .. right
    else out[#out + 1] = ("  %-" .. width .. "s  %s"):format(r[1], right) end
  end
  return table.concat(out, "\n") .. "\n"
end

local function option_rows(options, rows)
  for _, d in ipairs(options or {}) do
    local left = (d.short and "-" .. d.short .. ", " or "") .. label_of(d) .. (d.arg and " " .. d.arg or "")
    local right = d.help
    if d.default ~= nil and type(d.default) ~= "table" then right = right .. " (default " .. tostring(d.default) .. ")" end
    if d.repeatable then right = right .. "; repeatable" end
    rows[#rows + 1] = { left, right }
  end
end

-- The --help text of a command (or of its subcommand sub), from its spec.
function cli.help(spec, sub)
  local prog = "strata " .. spec.name
  local forms = sub and (sub.forms or { "[options] " .. sub.name .. " " .. args_line(sub.args) }) or spec.forms
  if not forms then
    local opts = #(spec.options or {}) > 0 and "[options] " or ""
    forms = { opts .. (spec.subcommands and "SUBCOMMAND [ARGS...]" or args_line(spec.args)) }
  end
  local out = {}
  for i, f in ipairs(forms) do out[#out + 1] = (i == 1 and "usage: " or "       ") .. prog .. " " .. f:gsub("%s+$", "") end
  out[#out] = out[#out] .. "\n"
  local text = sub and sub.description or not sub and spec.description
  if text then out[#out + 1] = (text:gsub("\n+$", "")) .. "\n" end
  if spec.subcommands and not sub then
    local rows = {}
    for _, s in ipairs(spec.subcommands) do
      local line = s.forms and s.forms[1]:gsub("^%[options%] ", "") or s.name .. " " .. args_line(s.args)
      rows[#rows + 1] = { line, s.help }
    end
    out[#out + 1] = "subcommands:\n" .. columns(rows)
  end
  local rows = {}
  option_rows(spec.options, rows)
  option_rows(sub and sub.options, rows)
  rows[#rows + 1] = { "-h, --help", "show this help" .. (spec.subcommands and not sub and " (each subcommand takes --help)" or "") }
  out[#out + 1] = "options:\n" .. columns(rows)
  if not sub and spec.epilog then out[#out + 1] = (spec.epilog:gsub("\n+$", "")) .. "\n" end
  return table.concat(out, "\n")
end

-- ---- files and standard streams --------------------------------------------------------

-- The text of the file at path, or of standard input for '-', at most max
-- bytes (default paths.READ_MAX); an error "cannot read 'path': why" (what:
-- how it begins).
function cli.read(path, what, max)
  if path ~= "-" then
    local text, why = paths.read(path, what, max)
    if not text then error(why, 0) end
    return text
  end
  -- at most max (paths.READ_MAX) bytes, as from a file: standard input may never end
  max = max or paths.READ_MAX
  local text = io.stdin:read(max + 1) or ""
  if #text > max then
    error(("%s standard input: more than %d bytes, the most strata reads of a text file"):format(what or "cannot read",
      max), 0)
  end
  return text
end

-- Writes data whole to the file at path (through a temporary, strata.paths),
-- or to standard output for '-'.
function cli.output(path, data)
  if path == "-" then return cli.write(data) end
  local ok, why = paths.write(path, data)
  if not ok then error(why, 0) end
end

-- Whether output to fd (1 standard output, 2 standard error) is coloured:
-- the terminal's and NO_COLOR's say (strata.markup, https://no-color.org).
function cli.color(fd) return require("strata.markup").color_wanted(fd) end

-- Writes v as one JSON document and a newline on standard output, through
-- the core's encoder (strata.json.encode: a list that may be empty is marked
-- with strata.json.array); what cannot be JSON is "--json: <path>: <what>".
function cli.json(v)
  local ok, text = pcall(cli.call, "strata.json.encode", strata.json.encode, v)
  if not ok then error("--json: " .. tostring(text), 0) end
  cli.write(text, "\n")
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

-- The mods `strata layout` and `strata render` look a layout ID up in when
-- --mods names none: strata's own base and examples, so that the layouts
-- strata ships (examples.cave, ...) work from any folder. (Read, never changed.)
cli.layout_mods = { "base", "examples" }

local function usage()
  local out = { "usage: strata COMMAND [ARGS...]\n\ncommands:\n" }
  for _, name in ipairs(cli.commands) do
    local cmd = load_command(name)
    if cmd then out[#out + 1] = string.format("  %-10s %s\n", name, cmd.spec.summary) end
  end
  out[#out + 1] = "\n  help [COMMAND]  show help\n  --version, -V   print the version\n"
  out[#out + 1] = "\nEvery command takes --help.\n"
  return table.concat(out)
end

-- Prints "strata: message" on stderr and returns the failing status.
function cli.fail(message)
  io.stderr:write("strata: ", message, "\n")
  return 1
end

-- Runs fn(...) and flushes standard output; an error (one raised by fn, or a
-- failed write or flush) becomes "strata: message" on stderr and status 1, a
-- usage error (cli.usage_error) "strata: NAME: message; try 'HINT'" and
-- status 2. handler turns an error into its message.
local function finish(name, handler, fn, ...)
  local ok, status = xpcall(fn, function(e)
    if getmetatable(e) == Usage then return e end
    return handler(e)
  end, ...)
  if ok then
    local flushed, err = io.stdout:flush()
    if not flushed then ok, status = false, handler("cannot write to standard output: " .. tostring(err)) end
  end
  if ok then return status or 0 end
  if getmetatable(status) ~= Usage then return cli.fail(tostring(status)) end
  io.stderr:write("strata: ", name and name .. ": " or "", status.message, "; try '",
    status.hint or (name and "strata " .. name .. " --help" or "strata help"), "'\n")
  return 2
end

local function plain(e) return e end

local TOP = { "help", "version", "--version", "-V", "--help", "-h" }

local function command(name)
  local cmd = load_command(name)
  if cmd then return cmd end
  local known = table.move(TOP, 1, #TOP, 1, {})
  for _, n in ipairs(cli.commands) do known[#known + 1] = n end
  cli.usage_error(("unknown command '%s'%s"):format(name, require("strata.options").suggest(name, known)))
end

-- The command's arguments parsed by its spec, then its run (or its help).
local function run_command(cmd, args)
  local values, sub = cli.parse(cmd.spec, args)
  if values.help then
    cli.write(cli.help(cmd.spec, sub))
    return 0
  end
  return cmd.run(values, sub)
end

function cli.main(...)
  local args = { ... }
  local name = args[1]
  if name == nil then
    io.stderr:write(usage())
    return 2
  end
  if name == "help" or name == "--help" or name == "-h" then
    if #args > 2 then return finish(nil, plain, cli.usage_error, "help takes one COMMAND at most") end
    if args[2] then return finish(nil, plain, function() cli.write(cli.help(command(args[2]).spec)) end) end
    return finish(nil, plain, function() cli.write(usage()) end)
  end
  if name == "--version" or name == "-V" or name == "version" then
    return finish(nil, plain, cli.write, "strata ", strata.version, " (", _VERSION, ")\n")
  end
  local ok, cmd = pcall(command, name)
  if not ok then return finish(nil, plain, error, cmd, 0) end
  table.remove(args, 1)
  return finish(name, function(e)
    if cmd.names_errors and type(e) == "string" then
      e = e:gsub("\n%s*", "; ")
      if e:sub(1, #name + 2) ~= name .. ": " then e = name .. ": " .. e end
    end
    if os.getenv("STRATA_TRACEBACK") then return debug.traceback(e, 2) end
    return e
  end, run_command, cmd, args)
end

return cli
