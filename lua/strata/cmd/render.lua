-- strata render WORLD_FILE | LAYOUT_ID [options]: a picture of a map (SVG or PNG),
-- or with --grid an XY map of a grid world (text or SVG).
local strata = require "strata"
local cli = require "strata.cli"
local paths = require "strata.paths"
local options = require "strata.options"

local M = {
  summary = "draw a map of a world file or a layout as SVG or PNG, or a grid map as text",
  usage = [[
usage: strata render WORLD_FILE [--map UID] (--svg FILE | --png FILE) [options]
       strata render LAYOUT_ID [--mods a,b] (--svg FILE | --png FILE) [options]
       strata render WORLD_FILE --grid MAP [--svg FILE] [options]

Draws one map: with WORLD_FILE (a saved world), the map with uid --map, else
the player's map, else the first map of the world; with LAYOUT_ID (a
base.layout entry of the mods given, by default strata's own base and
examples: examples.cave, examples.dungeon, examples.fort), a map that layout
generates. Cells are coloured by their top token (base.token colours;
passable light, impassable dark); --path X1,Y1,X2,Y2 draws the route between
two cells over them. With --grid MAP (a grid map's Z or base.grid_map ID), the
XY map of the world's grid as players see it: as text on standard output, or
with --svg as a picture, --path then the route between two nodes.

options:
  --svg FILE        write an SVG picture
  --png FILE        write a PNG picture
  --cell N          pixels per cell, 1 to 64 (default 12)
  --map UID         the map to draw (a world file)
  --grid MAP        the grid map to draw (a world file): its Z or its ID
  --path X1,Y1,X2,Y2  draw the 8-neighbour route between two cells (with
                    --grid, the route between two nodes)
  --size WxH        map size for a layout (default: the entry's, else 40x25)
  --seed N          random seed for a layout (default 1)
  --mods a,b        mods to load (default: the world's own, or base,examples)
  --mod-path DIR    a directory to search for mods; repeatable

The picture is written whole or not at all, and only over a regular file or
nothing. Exit status 1 with one line on stderr for a bad option, a file that
cannot be read or written, or a route that does not exist.
]],
}

-- Errors read "render: message" (strata.cli adds the name).
M.names_errors = true

local function fail(msg) error(msg, 0) end

local function parse(args)
  local o, pos = { seed = 1, cell = 12, mod_path = {} }, {}
  for a, value in cli.options(args, fail) do
    if a == "--svg" then o.svg = value()
    elseif a == "--png" then o.png = value()
    elseif a == "--cell" then o.cell = cli.integer(value(), a) -- its range is the picture's (see draw)
    elseif a == "--map" then o.map = cli.integer(value(), a, 1)
    elseif a == "--grid" then o.grid = value()
    elseif a == "--seed" then o.seed = cli.integer(value(), a)
    elseif a == "--mods" then o.mods = {} for m in value():gmatch("[^,]+") do o.mods[#o.mods + 1] = m end
    elseif a == "--mod-path" then o.mod_path[#o.mod_path + 1] = value()
    elseif a == "--size" then o.size = cli.size(value(), a)
    elseif a == "--path" then
      local v = value()
      local p = { v:match("^(%d+),(%d+),(%d+),(%d+)$") }
      for k = 1, 4 do p[k] = math.tointeger(tonumber(p[k])) end
      if not (p[1] and p[2] and p[3] and p[4]) then fail("--path must be X1,Y1,X2,Y2 (cells), got '" .. v .. "'") end
      o.path = p
    elseif a:sub(1, 1) == "-" then fail("unknown option " .. a .. " (see 'strata render --help')")
    else pos[#pos + 1] = a end
  end
  if #pos ~= 1 then fail("give one WORLD_FILE or LAYOUT_ID (see 'strata render --help')") end
  if (o.svg and o.png) or not (o.svg or o.png or o.grid) then fail("give one of --svg FILE and --png FILE") end
  return pos[1], o
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
  local world = strata.world.new{ seed = o.seed, mods = cli.layout_mods(o.mods), mod_path = o.mod_path }
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

function M.run(args)
  local source, o = parse(args)
  local picture
  if o.grid then
    picture = grid_map(source, o)
    if not picture then return 0 end
  else
    local m = cli.names_file(source) and world_map(source, o) or layout_map(source, o)
    picture = draw(m, o, { path = o.path and route(m, o.path) })
  end
  local ok, why = paths.write(o.svg or o.png, picture)
  if not ok then fail(why) end
  return 0
end

return M
