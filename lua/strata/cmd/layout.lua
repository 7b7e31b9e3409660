-- strata layout FILE_OR_ID [NAME] [options]: generates a layout and prints it;
-- strata layout --list [FILE]: names the layouts there are.
local strata = require "strata"
local cli = require "strata.cli"

local M = {}

-- --mapping FILE:NAME as { FILE, NAME }.
local function mapping_arg(s)
  local file, name = s:match("^(.*):([^:]+)$")
  if file then return { file, name } end
  return nil, "must be FILE:NAME, got '" .. s .. "'"
end

M.spec = {
  name = "layout",
  summary = "generate a layout and print a preview",
  forms = { "FILE_OR_ID [NAME] [options]", "--list [FILE] [options]" },
  args = {
    { name = "FILE_OR_ID", key = "source", kind = "path", stdio = "in", optional = true },
    { name = "NAME", optional = true },
  },
  description = [[
FILE_OR_ID is a layout file (KeeperRL's format: named layouts, Def ... End
macros; - reads it from standard input) with NAME the layout in it, or the ID
of a base.layout entry of the mods given with --mods (without it, strata's
own base and examples: the shipped layouts examples.cave, examples.dungeon,
examples.fort).]],
  options = {
    { name = "size", kind = "size", arg = "WxH", help = "map size (default 40x25, or the entry's size)" },
    { name = "seed", kind = "integer", arg = "N", default = 1, help = "random seed" },
    { name = "attempts", kind = "integer", min = 1, arg = "N", default = 10,
      help = "attempts on a fresh map before giving up" },
    { name = "glyphs", kind = "path", stdio = "in", arg = "FILE", help = [[
glyph table ("token" glyph colour per line) for the preview;
without it each cell shows its top token's glyph (for an ID,
the mods' base.token glyphs; else the token's first letter)]] },
    { name = "mapping", arg = "FILE:NAME", check = mapping_arg,
      help = "also apply the mapping NAME of FILE and count its actions" },
    { name = "tokens", kind = "flag", help = "list every token with the number of cells holding it" },
    { name = "list", kind = "flag", help = [[
list the layouts instead: each base.layout ID of the mods
with its size, or with FILE the names of the file's layouts]] },
    { name = "mods", kind = "list", arg = "a,b", default = cli.layout_mods,
      help = "mods to load for an ID (default base,examples)" },
    { name = "mod-path", kind = "path", arg = "DIR", repeatable = true, help = [[
a directory to search for mods, searched in the order
given, then strata's own mods (base, examples)]] },
  },
  epilog = [[
Colours are used on a terminal unless NO_COLOR is set to something. Exit
status 2 for a mistake in the arguments; 1 with the error when the file does
not parse or every attempt fails.]],
}

-- Errors read "layout: message" (strata.cli adds the name).
M.names_errors = true

local function fail(msg) error(msg, 0) end

-- strata.layout.<name>(...), its errors without the function's name.
local function call(name, ...) return cli.call("strata.layout." .. name, strata.layout[name], ...) end

-- The generator FILE_OR_ID names (and the world of its mods, for an ID).
local function generator(opts)
  local source, name = opts.source, opts.name
  if source == "-" or cli.names_file(source) then
    local label = source == "-" and "standard input" or source
    local t, names = call("parse_file", cli.read(source), label)
    if not name then
      if #names == 1 then name = names[1]
      else fail(label .. " has " .. #names .. " layouts; name one: " .. table.concat(names, ", ")) end
    end
    return t[name] or fail(("no layout '%s' in %s"):format(name, label)), nil, nil, name
  end
  local world = strata.world.new{ mods = opts.mods, mod_path = opts.mod_path }
  local size = cli.layout_entry(world, source).size
  return strata.layout.generator(source, world), world, size
end

-- --list: the names of a file's layouts, or each base.layout ID of the mods
-- with the size the command would use, one a line, sorted.
local function list(opts)
  local lines = {}
  local file = opts.source
  if file then
    lines = select(2, call("parse_file", cli.read(file), file == "-" and "standard input" or file))
  else
    local world = strata.world.new{ mods = opts.mods, mod_path = opts.mod_path }
    for id, e in world.data["base.layout"]:iter() do
      local size = e.size or { 40, 25 }
      lines[#lines + 1] = ("%s  %dx%d"):format(id, size[1] or size.x, size[2] or size.y)
    end
  end
  table.sort(lines)
  for _, line in ipairs(lines) do cli.write(line, "\n") end
  return 0
end

function M.run(opts)
  if opts.list then return list(opts) end
  if not opts.source then cli.usage_error("missing FILE_OR_ID") end
  local L = strata.layout
  local gen, world, size, name = generator(opts)
  local source = opts.source
  -- Every file is read before anything is printed.
  local glyphs = opts.glyphs and call("glyphs", cli.read(opts.glyphs), opts.glyphs)
  local mapping, mname
  if opts.mapping then
    local file = opts.mapping[1]
    mname = opts.mapping[2]
    if file == "-" and (opts.source == "-" or opts.glyphs == "-") then
      cli.usage_error("--mapping and another input cannot both be '-' (standard input is read once)")
    end
    mapping = call("mappings", cli.read(file), file)[mname] or fail(("no mapping '%s' in %s"):format(mname, file))
  end
  size = opts.size or size or { 40, 25 }
  -- A layout of a mod draws with its world's tokens (base.token glyphs); a file's
  -- layout with the default table.
  local w, h = size[1] or size.x, size[2] or size.y
  local m = world and world:create_map{ width = w, height = h } or strata.tilemap.new{ width = w, height = h }
  local ok, why = L.generate(gen, m, { seed = opts.seed, attempts = opts.attempts })
  if not ok then fail(("%s failed %d attempts; the last: %s"):format(name or source, opts.attempts, why)) end
  cli.write(L.preview(m, glyphs, { color = cli.color(1) }), "\n")
  if opts.tokens then
    local count, order = {}, {}
    for y = 0, m.height - 1 do
      for x = 0, m.width - 1 do
        for _, t in ipairs(m:tokens(x, y)) do
          if not count[t] then order[#order + 1] = t count[t] = 0 end
          count[t] = count[t] + 1
        end
      end
    end
    table.sort(order)
    for _, t in ipairs(order) do cli.write(("%-24s %d\n"):format(t, count[t])) end
  end
  if mapping then
    local per = {}
    local counting = setmetatable({}, { __index = function(_, action)
      return function() per[action] = (per[action] or 0) + 1 end
    end })
    local n = L.apply(m, mapping, counting)
    local parts = {}
    for k, v in pairs(per) do parts[#parts + 1] = k .. " " .. v end
    table.sort(parts)
    cli.write(("mapping %s: %d actions (%s)\n"):format(mname, n, table.concat(parts, ", ")))
  end
  return 0
end

return M
