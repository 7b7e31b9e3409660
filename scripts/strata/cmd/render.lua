-- strata render WORLD_FILE | LAYOUT_ID [options]: a picture of a map (SVG or PNG).
local strata = require "strata"

local M = {
  summary = "draw a map of a world file or a layout as SVG or PNG",
  usage = [[
usage: strata render WORLD_FILE [--map UID] (--svg FILE | --png FILE) [options]
       strata render LAYOUT_ID --mods a,b (--svg FILE | --png FILE) [options]

Draws one map: with WORLD_FILE (a saved world), the map with uid --map, else
the player's map, else the first map of the world; with LAYOUT_ID (a
base.layout entry of the mods given), a map that layout generates. Cells are
coloured by their top token (base.token colours; passable light, impassable
dark); --path X1,Y1,X2,Y2 draws the route between two cells over them.

options:
  --svg FILE        write an SVG picture
  --png FILE        write a PNG picture
  --cell N          pixels per cell (default 12)
  --map UID         the map to draw (a world file)
  --path X1,Y1,X2,Y2  draw the 8-neighbour route between two cells
  --size WxH        map size for a layout (default: the entry's, else 40x25)
  --seed N          random seed for a layout (default 1)
  --mods a,b        mods to load (default: the world's own, or base)
  --mod-path DIR    a directory to search for mods; repeatable
]],
}

local function fail(msg) error("render: " .. msg, 0) end

local function parse(args)
  local o, pos = { seed = 1, cell = 12, mod_path = {} }, {}
  local i = 1
  while i <= #args do
    local a = args[i]
    local function value()
      i = i + 1
      if args[i] == nil then fail(a .. " needs a value") end
      return args[i]
    end
    local function int(name) return math.tointeger(tonumber(value())) or fail(name .. " must be an integer") end
    if a == "--svg" then o.svg = value()
    elseif a == "--png" then o.png = value()
    elseif a == "--cell" then o.cell = int("--cell")
    elseif a == "--map" then o.map = int("--map")
    elseif a == "--seed" then o.seed = int("--seed")
    elseif a == "--mods" then o.mods = {} for m in value():gmatch("[^,]+") do o.mods[#o.mods + 1] = m end
    elseif a == "--mod-path" then o.mod_path[#o.mod_path + 1] = value()
    elseif a == "--size" then
      local w, h = value():match("^(%d+)x(%d+)$")
      if not w then fail("--size must be WxH, e.g. 40x25") end
      o.size = { tonumber(w), tonumber(h) }
    elseif a == "--path" then
      local p = { value():match("^(%d+),(%d+),(%d+),(%d+)$") }
      if #p ~= 4 then fail("--path must be X1,Y1,X2,Y2") end
      o.path = { tonumber(p[1]), tonumber(p[2]), tonumber(p[3]), tonumber(p[4]) }
    elseif a:sub(1, 1) == "-" then fail("unknown option " .. a .. " (see 'strata render --help')")
    else pos[#pos + 1] = a end
    i = i + 1
  end
  if #pos ~= 1 then fail("give one WORLD_FILE or LAYOUT_ID (see 'strata render --help')") end
  if (o.svg == nil) == (o.png == nil) then fail("give one of --svg FILE and --png FILE") end
  return pos[1], o
end

-- The map to draw from a saved world.
local function world_map(file, o)
  local world = strata.world.open(file, { mods = o.mods, mod_path = o.mod_path })
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
  local world = strata.world.new{ seed = o.seed, mods = o.mods or { "base" }, mod_path = o.mod_path }
  local entry = world.data["base.layout"]:get(id)
  if not entry then world.data["base.layout"]:ensure(id) end
  local size = o.size or (entry.size and { entry.size[1] or entry.size.x, entry.size[2] or entry.size.y }) or { 40, 25 }
  local m = world:create_map{ width = size[1], height = size[2] }
  local ok, why = strata.layout.generate(id, m, { seed = o.seed, attempts = 20 })
  if not ok then fail(("%s failed 20 attempts; the last: %s"):format(id, why)) end
  return m
end

function M.run(args)
  local source, o = parse(args)
  local f = io.open(source, "rb")
  local m
  if f then f:close() m = world_map(source, o) else m = layout_map(source, o) end
  local path
  if o.path then
    local why
    path, why = m:find_path({ o.path[1], o.path[2] }, { o.path[3], o.path[4] }, { connectivity = 8 })
    if not path then fail(why) end
  end
  local picture = o.svg and m:to_svg{ cell = o.cell, path = path } or m:to_png{ cell = o.cell, path = path }
  local out = io.open(o.svg or o.png, "wb")
  if not out then fail("cannot write " .. (o.svg or o.png)) end
  out:write(picture)
  out:close()
  return 0
end

return M
