-- strata render WORLD_FILE | LAYOUT_ID [options]: a picture of a map (SVG or PNG),
-- or with --grid an XY map of a grid world (text or SVG).
local strata = require "strata"
local cli = require "strata.cli"
local options = require "strata.options"

local M = {}

-- --path X1,Y1,X2,Y2 as four cells' coordinates.
local function path_arg(v)
  local p = { v:match("^(%d+),(%d+),(%d+),(%d+)$") }
  for k = 1, 4 do p[k] = math.tointeger(tonumber(p[k])) end
  if p[1] and p[2] and p[3] and p[4] then return p end
  return nil, "must be X1,Y1,X2,Y2 (cells), got '" .. v .. "'"
end

M.spec = {
  name = "render",
  summary = "draw a map of a world file or a layout as SVG or PNG, or a grid map as text",
  forms = {
    "WORLD_FILE [--map UID] (--svg FILE | --png FILE | --info) [options]",
    "LAYOUT_ID [--mods a,b] (--svg FILE | --png FILE | --info) [options]",
    "WORLD_FILE --grid MAP [--svg FILE] [options]",
  },
  args = { { name = "WORLD_FILE | LAYOUT_ID", key = "source", kind = "path",
    refuse_stdio = "a world file is an SQLite database, read only from a file" } },
  description = [[
Draws one map: with WORLD_FILE (a saved world), the map with uid --map, else
the player's map, else the first map of the world; with LAYOUT_ID (a
base.layout entry of the mods given, by default strata's own base and
examples: examples.cave, examples.dungeon, examples.fort), a map that layout
generates. Cells are coloured by their top token (base.token colours;
passable light, impassable dark); --path X1,Y1,X2,Y2 draws the route between
two cells over them. With --grid MAP (a grid map's Z or base.grid_map ID), the
XY map of the world's grid as players see it: as text on standard output, or
with --svg as a picture, --path then the route between two nodes.]],
  options = {
    { name = "svg", kind = "path", stdio = "out", arg = "FILE", help = "write an SVG picture (- : standard output)" },
    { name = "png", kind = "path", stdio = "out", arg = "FILE", help = "write a PNG picture (- : standard output)" },
    { name = "info", kind = "flag", help = "print the map's size, its top tokens' counts, the route and the picture" },
    { name = "json", kind = "flag", help = "with --info: print it as one JSON document" },
    -- its range is the picture's (see draw)
    { name = "cell", kind = "integer", arg = "N", default = 12, help = "pixels per cell, 1 to 64" },
    { name = "map", kind = "integer", min = 1, arg = "UID", help = "the map to draw (a world file)" },
    { name = "grid", arg = "MAP", help = "the grid map to draw (a world file): its Z or its ID" },
    { name = "path", arg = "X1,Y1,X2,Y2", check = path_arg, help = "draw the 8-neighbour route between two cells" },
    { name = "size", kind = "size", arg = "WxH", help = "map size for a layout (default: the entry's, else 40x25)" },
    { name = "seed", kind = "integer", arg = "N", default = 1, help = "random seed for a layout" },
    { name = "mods", kind = "list", arg = "a,b", help = "mods to load (default: the world's own, or base,examples)" },
    { name = "mod-path", kind = "path", arg = "DIR", repeatable = true, help = "a directory to search for mods" },
  },
  epilog = [[
The picture is written whole or not at all, and only over a regular file or
nothing. Exit status 2 for a mistake in the arguments; 1 with one line on
stderr for a file that cannot be read or written, or a route that does not
exist.]],
}

-- Errors read "render: message" (strata.cli adds the name).
M.names_errors = true

local function fail(msg) error(msg, 0) end

local function check(o)
  local pictures = (o.svg and 1 or 0) + (o.png and 1 or 0)
  if o.grid and o.info then cli.usage_error("--info describes a tile map, not a --grid map") end
  if pictures > 1 or (pictures == 0 and not o.info and not o.grid) then
    cli.usage_error("give one of --svg FILE, --png FILE and --info")
  end
  if o.json and not o.info then cli.usage_error("--json goes with --info") end
  if o.info and (o.svg or o.png) == "-" then cli.usage_error("--info prints on standard output: the picture cannot go there too") end
end

local function open_world(file, o)
  return cli.call("strata.world.open", strata.world.open, file, { mods = o.mods, mod_path = o.mod_path })
end

-- The map to draw from a saved world.
local function world_map(file, o)
  local world = open_world(file, o)
  if o.map then
    local m = world:object(o.map)
    if not m or m.kind ~= "map" then fail(("%s has no map with uid %d"):format(file, o.map)) end
    return m
  end
  local p = world:player()
  if p and p.map then return p.map end
  for _, obj in ipairs(world:objects()) do
    if obj.kind == "map" and obj.width then return obj end
  end
  fail(file .. " has no map")
end

local function layout_map(id, o)
  local world = strata.world.new{ seed = o.seed, mods = o.mods or cli.layout_mods, mod_path = o.mod_path }
  local entry = cli.layout_entry(world, id)
  local size = o.size or (entry.size and { entry.size[1] or entry.size.x, entry.size[2] or entry.size.y }) or { 40, 25 }
  local m = world:create_map{ width = size[1], height = size[2] }
  local ok, why = strata.layout.generate(id, m, { seed = o.seed, attempts = 20 })
  if not ok then fail(("%s failed 20 attempts; the last: %s"):format(id, why)) end
  return m
end

-- The route of --path, both ends on the map (a map's find_path may say why
-- there is no route, or not: the message names the ends either way).
local function route(m, p)
  for k = 1, 3, 2 do
    if p[k] >= m.width or p[k + 1] >= m.height then
      fail(("--path: (%d, %d) is outside the %dx%d map"):format(p[k], p[k + 1], m.width, m.height))
    end
  end
  local path = m:find_path({ p[1], p[2] }, { p[3], p[4] }, { connectivity = 8 })
  if not path then fail(("no route from (%d, %d) to (%d, %d)"):format(p[1], p[2], p[3], p[4])) end
  return path
end

-- The picture's bytes; opts: the picture's options but the cell size. The
-- picture checks the cell size (1 to STRATA_PICTURE_CELL_MAX), its own and
-- an XY route's ends: its words are the command's options'.
local function draw(m, o, opts)
  local fn = o.svg and "to_svg" or "to_png"
  opts.cell = o.cell
  local ok, picture = pcall(cli.call, fn, m[fn], m, opts)
  if ok then return picture end
  fail((picture:gsub("^cell ", "--cell "):gsub("^option '%l+': ", "--path: ")))
end

-- --grid MAP: the XY map of a grid world's map MAP (its Z or ID), drawn by
-- strata.xymap: as players see it on standard output, or --svg with the route
-- of --path between two nodes. Returns the picture, or nil once the text is out.
local function grid_map(file, o)
  if not cli.names_file(file) then fail("--grid needs a WORLD_FILE, got the layout ID " .. options.quoted(file)) end
  if o.png then fail("--grid draws text or --svg, not --png") end
  if o.path and not o.svg then fail("--path with --grid is drawn with --svg") end
  local world, known = open_world(file, o), {}
  for _, m in ipairs(world.grid:maps()) do
    if o.grid == m.id or o.grid == tostring(m.z) then
      local xy = world.grid:map(m.z)
      if o.svg then
        local p = o.path
        return draw(xy, o, p and { from = { p[1], p[2] }, to = { p[3], p[4] } } or {})
      end
      cli.write(strata.markup.render(xy:display()), "\n")
      return nil
    end
    known[#known + 1], known[#known + 2] = tostring(m.z), m.id
  end
  if #known == 0 then fail(file .. " has no grid maps (add them with 'strata grid add')") end
  fail(("%s has no grid map %s%s"):format(file, options.quoted(o.grid), options.suggest(o.grid, known)))
end

-- What --info prints: the map, its top tokens' counts, the route, the picture.
local function info(source, m, o, path, picture)
  local tops = {}
  for y = 0, m.height - 1 do
    for x = 0, m.width - 1 do
      local t = m:top(x, y) or "(empty)"
      tops[t] = (tops[t] or 0) + 1
    end
  end
  local t = { source = source, map = m.uid, width = m.width, height = m.height, tokens = tops }
  if path then
    t.path = { from = { o.path[1], o.path[2] }, to = { o.path[3], o.path[4] }, steps = #path - 1, cost = path.cost }
  end
  if picture then
    t.picture = { format = o.svg and "svg" or "png", file = o.svg or o.png, cell = o.cell, bytes = #picture }
  end
  return t
end

local function print_info(t)
  local lines = { ("map %s: %dx%d, from %s"):format(tostring(t.map), t.width, t.height, t.source) }
  local names = {}
  for k in pairs(t.tokens) do names[#names + 1] = k end
  table.sort(names)
  for i, k in ipairs(names) do names[i] = k .. " " .. t.tokens[k] end
  lines[#lines + 1] = "top tokens: " .. table.concat(names, ", ")
  local p = t.path
  if p then
    lines[#lines + 1] = ("route (%d, %d) -> (%d, %d): %d steps, cost %g"):format(p.from[1], p.from[2], p.to[1], p.to[2],
      p.steps, p.cost)
  end
  local pic = t.picture
  if pic then lines[#lines + 1] = ("picture: %s, %d px a cell, %d bytes, %s"):format(pic.format, pic.cell, pic.bytes, pic.file) end
  cli.write(table.concat(lines, "\n"), "\n")
end

function M.run(o)
  check(o)
  local source = o.source
  if o.grid then
    local picture = grid_map(source, o)
    if picture then cli.output(o.svg, picture) end
    return 0
  end
  local m = cli.names_file(source) and world_map(source, o) or layout_map(source, o)
  local path = o.path and route(m, o.path)
  local picture = (o.svg or o.png) and draw(m, o, { path = path })
  if picture then cli.output(o.svg or o.png, picture) end
  if not o.info then return 0 end
  local t = info(source, m, o, path, picture)
  if o.json then cli.json(t) else print_info(t) end
  return 0
end

return M
