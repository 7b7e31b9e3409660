-- strata layout FILE_OR_ID [NAME] [options]: generates a layout and prints it.
local strata = require "strata"
local cli = require "strata.cli"

local M = {
  summary = "generate a layout and print a preview",
  usage = [[
usage: strata layout FILE_OR_ID [NAME] [options]
       strata layout --list [FILE] [options]

FILE_OR_ID is a layout file (KeeperRL's format: named layouts, Def ... End
macros) with NAME the layout in it, or the ID of a base.layout entry of the
mods given with --mods (without it, strata's own base and examples: the
shipped layouts examples.cave, examples.dungeon, examples.fort).

options:
  --size WxH        map size (default 40x25, or the entry's size)
  --seed N          random seed (default 1)
  --attempts N      attempts on a fresh map before giving up (default 10)
  --glyphs FILE     glyph table ("token" glyph colour per line) for the preview;
                    without it each cell shows its top token's glyph (for an ID,
                    the mods' base.token glyphs; else the token's first letter)
  --mapping FILE:NAME  also apply the mapping NAME of FILE and count its actions
  --tokens          list every token with the number of cells holding it
  --list            list the layouts instead: each base.layout ID of the mods
                    with its size, or with FILE the names of the file's layouts
  --mods a,b        mods to load for an ID (default base,examples)
  --mod-path DIR    a directory to search for mods; repeat it for more, searched
                    in the order given, then strata's own mods (base, examples)

Colours are used on a terminal unless NO_COLOR is set. Exit status 1 with the
error when the file does not parse or every attempt fails.
]],
}

-- Errors read "layout: message" (strata.cli adds the name).
M.names_errors = true

local function fail(msg) error(msg, 0) end

local function tty()
  if os.getenv("NO_COLOR") then return false end
  local ok, uv = pcall(require, "luv")
  return ok and uv.guess_handle(1) == "tty"
end

-- strata.layout.<name>(...), its errors without the function's name.
local function call(name, ...) return cli.call("strata.layout." .. name, strata.layout[name], ...) end

-- --list: the names of a file's layouts, or each base.layout ID of the mods
-- with the size the command would use, one a line, sorted.
local function list(opts, file)
  local lines = {}
  if file then
    lines = select(2, call("read_file", file))
  else
    local world = strata.world.new{ mods = cli.layout_mods(opts.mods), mod_path = opts.mod_path }
    for id, e in world.data["base.layout"]:iter() do
      local size = e.size or { 40, 25 }
      lines[#lines + 1] = ("%s  %dx%d"):format(id, size[1] or size.x, size[2] or size.y)
    end
  end
  table.sort(lines)
  for _, line in ipairs(lines) do cli.write(line, "\n") end
  return 0
end

function M.run(args)
  local opts, pos = { size = nil, seed = 1, attempts = 10, mod_path = {} }, {}
  for a, value in cli.options(args, fail) do
    if a == "--size" then opts.size = cli.size(value(), a)
    elseif a == "--seed" then opts.seed = cli.integer(value(), a)
    elseif a == "--attempts" then opts.attempts = cli.integer(value(), a, 1)
    elseif a == "--glyphs" then opts.glyphs = value()
    elseif a == "--mapping" then opts.mapping = value()
    elseif a == "--tokens" then opts.tokens = true
    elseif a == "--mods" then opts.mods = {} for m in value():gmatch("[^,]+") do opts.mods[#opts.mods + 1] = m end
    elseif a == "--list" then opts.list = true
    elseif a == "--mod-path" then opts.mod_path[#opts.mod_path + 1] = value()
    elseif a:sub(1, 2) == "--" then fail("unknown option " .. a .. " (see 'strata layout --help')")
    else pos[#pos + 1] = a end
  end
  local source, name = pos[1], pos[2]
  if opts.list then return list(opts, source) end
  if not source then fail("missing FILE_OR_ID (see 'strata layout --help')") end
  local L = strata.layout
  local gen, size, world
  if cli.names_file(source) then
    local t, names = call("read_file", source)
    if not name then
      if #names == 1 then name = names[1]
      else fail(source .. " has " .. #names .. " layouts; name one: " .. table.concat(names, ", ")) end
    end
    gen = t[name] or fail(("no layout '%s' in %s"):format(name, source))
  else
    world = strata.world.new{ mods = cli.layout_mods(opts.mods), mod_path = opts.mod_path }
    size = cli.layout_entry(world, source).size
    gen = L.generator(source, world)
  end
  -- Every file is read before anything is printed.
  local glyphs = opts.glyphs and call("read_glyphs", opts.glyphs)
  local mapping, mname
  if opts.mapping then
    local file
    file, mname = opts.mapping:match("^(.*):([^:]+)$")
    if not file then fail("--mapping must be FILE:NAME") end
    mapping = call("read_mappings", file)[mname] or fail(("no mapping '%s' in %s"):format(mname, file))
  end
  size = opts.size or size or { 40, 25 }
  -- A layout of a mod draws with its world's tokens (base.token glyphs); a file's
  -- layout with the default table.
  local w, h = size[1] or size.x, size[2] or size.y
  local m = world and world:create_map{ width = w, height = h } or strata.tilemap.new{ width = w, height = h }
  local ok, why = L.generate(gen, m, { seed = opts.seed, attempts = opts.attempts })
  if not ok then fail(("%s failed %d attempts; the last: %s"):format(name or source, opts.attempts, why)) end
  cli.write(L.preview(m, glyphs, { color = tty() }), "\n")
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
