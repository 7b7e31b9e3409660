-- strata grid SUBCOMMAND: the grid world of a world file, from the command line
-- (Evennia's `evennia xyzgrid`): init, add, list, show, spawn, path, initpath, delete.
local strata = require "strata"
local cli = require "strata.cli"
local paths = require "strata.paths"

local M = {
  summary = "manage the grid maps of a world file (add, spawn, show, path ...)",
  usage = [[
usage: strata grid [options] SUBCOMMAND [ARGS...]

subcommands:
  init                      create the world file (with --mods, --seed)
  add MAP_ID...             add base.grid_map entries to the world
  list                      the world's maps with their room and exit counts
  show Z                    the map of level Z for builders: its display, nodes
                            with their rooms and prototypes, links, transitions,
                            its text and options
  home X Y Z                make the grid room at (X, Y, Z) the grid's home:
                            delete moves what stands on a deleted map there
  spawn [X Y Z]             spawn the maps (or what matches; * for any) as
                            rooms and exits, reconciling; prints the counts
  path X1 Y1 Z1 X2 Y2 Z2    the shortest route between two nodes, across maps
  initpath                  check every map and its routes; prints how long a
                            route across each map takes (strata keeps no cache)
  delete [--yes] Z          delete the rooms and exits of level Z and forget its
                            map (asks first unless --yes; what stands there goes home)

options:
  --world FILE              the world file (default world.db)
  --mods a,b                mods to load (default: the world's own; init: base)
  --mod-path DIR            a directory to search for mods; repeatable
  --seed N                  seed of a new world (init; default 0)

Each subcommand takes --help. Changes are saved to the world file only when
the whole subcommand succeeded. Exit status 1 with one line on stderr for a
bad argument, a missing or damaged file, or an error in the maps.
]],
}

local SUB_USAGE = {
  init = "usage: strata grid [--world FILE] [--mods a,b] [--mod-path DIR] [--seed N] init\n\nCreates the world file with the mods given (default base). A file that exists is left as it is.\n",
  add = "usage: strata grid [options] add MAP_ID...\n\nAdds base.grid_map entries (\"mod.name\") of the world's mods to the world. Two maps with one Z are an error.\n",
  list = "usage: strata grid [options] list\n\nPrints each map: its ID, Z, nodes, and the rooms and exits spawned for it.\n",
  show = "usage: strata grid [options] show Z\n\nPrints the map of level Z for builders: rooms against nodes, the map as players see it (in colour on a\nterminal, not with NO_COLOR), each node with its room and the prototype a spawn gives it, each link, each\ntransition, the map's text as written and its options.\n",
  home = "usage: strata grid [options] home X Y Z\n\nMakes the grid room at (X, Y, Z) the grid's home room: 'delete' moves whatever stands on a deleted map there.\n",
  spawn = "usage: strata grid [options] spawn [X Y Z]\n\nSpawns the maps into rooms and exits, reconciling with what is there; X, Y, Z select nodes (* for any).\nPrints what was created, updated and deleted.\n",
  path = "usage: strata grid [options] path X1 Y1 Z1 X2 Y2 Z2\n\nPrints the shortest route between two nodes as directions, crossing transitions between maps.\n",
  initpath = "usage: strata grid [options] initpath\n\nParses every map and routes across it (first node to last); prints the time each route took.\nstrata keeps no path cache, so there is nothing to build.\n",
  delete = "usage: strata grid [options] delete [--yes] Z\n\nDeletes the rooms and exits of level Z (with the grid exits into them) and forgets its map. Whatever stands\nin those rooms is moved to the grid's home room (see 'home'). Asks for confirmation on a terminal; give\n--yes when stdin is not one.\n",
}

-- Errors read "grid: message" on one line, whatever they quote (strata.cli
-- adds the name).
M.names_errors = true

local function fail(fmt, ...) error(fmt:format(...), 0) end

local function color_on(fd)
  local ok, uv = pcall(require, "luv")
  return not os.getenv("NO_COLOR") and ok and uv.guess_handle(fd) == "tty"
end

local function parse(args)
  local o = { world = "world.db", mod_path = {}, seed = 0 }
  local rest = {}
  local i = 1
  while i <= #args do
    local a = args[i]
    local function value()
      i = i + 1
      if args[i] == nil then fail("%s needs a value (see 'strata grid --help')", a) end
      return args[i]
    end
    if a == "--world" then o.world = value()
    elseif a == "--mods" then o.mods = {} for m in value():gmatch("[^,]+") do o.mods[#o.mods + 1] = m end
    elseif a == "--mod-path" then o.mod_path[#o.mod_path + 1] = value()
    elseif a == "--seed" then o.seed = cli.integer(value(), a)
    elseif a == "--help" or a == "-h" then o.help = true
    elseif a == "--yes" or a == "-y" then o.yes = true
    elseif a:sub(1, 2) == "--" and a ~= "--" and #a > 2 then fail("unknown option '%s' (see 'strata grid --help')", a)
    else rest[#rest + 1] = a end
    i = i + 1
  end
  if #o.mod_path == 0 then o.mod_path = nil end
  return o, rest
end

local function open(o)
  -- Looked at, not opened: world.open refuses a FIFO or a directory.
  if not paths.kind(o.world) then fail("%s: no such world file (create it with 'strata grid init')", o.world) end
  return cli.call("strata.world.open", strata.world.open, o.world, { mods = o.mods, mod_path = o.mod_path })
end

local function save(w, o) cli.call("world:save", w.save, w, o.world) end

-- A Z from the command line: the map's own Z (integer levels given as numbers).
local function z_of(w, s)
  for _, m in ipairs(w.grid:maps()) do
    if tostring(m.z) == s then return m.z end
  end
  local known = {}
  for _, m in ipairs(w.grid:maps()) do known[#known + 1] = tostring(m.z) end
  fail("no map has Z '%s'%s", s, require("strata.options").suggest(s, known))
end

local function counts_line(c)
  return ("created %d rooms, %d exits; updated %d rooms, %d exits; deleted %d rooms, %d exits"):format(
    c.created.rooms, c.created.exits, c.updated.rooms, c.updated.exits, c.deleted.rooms, c.deleted.exits)
end

local function nargs(rest, n, sub)
  if #rest - 1 ~= n then
    fail("%s takes %d argument%s, got %d (see 'strata grid %s --help')", sub, n, n == 1 and "" or "s", #rest - 1, sub)
  end
end

local SUB = {}

function SUB.init(o, rest)
  nargs(rest, 0, "init")
  if paths.kind(o.world) == "a regular file" then -- anything else: the save says what it is
    cli.write(o.world, " exists already: left as it is\n")
    return 0
  end
  local w = cli.call("strata.world.new", strata.world.new, { seed = o.seed, mods = o.mods or { "base" },
    mod_path = o.mod_path })
  save(w, o)
  cli.write("created ", o.world, "\n")
  return 0
end

function SUB.add(o, rest)
  if #rest < 2 then fail("add needs one or more MAP_IDs (see 'strata grid add --help')") end
  local w = open(o)
  local ids = table.move(rest, 2, #rest, 1, {})
  cli.call("world.grid:add", w.grid.add, w.grid, table.unpack(ids))
  save(w, o)
  for _, id in ipairs(ids) do cli.write("added ", id, "\n") end
  return 0
end

function SUB.list(o, rest)
  nargs(rest, 0, "list")
  local w = open(o)
  local maps = w.grid:maps()
  if #maps == 0 then cli.write("no grid maps (add some with 'strata grid add MAP_ID')\n") return 0 end
  for _, m in ipairs(maps) do
    local rooms = w.grid:rooms{ z = m.z }
    local exits = 0
    for _, r in ipairs(rooms) do exits = exits + #w.grid:exits{ from = r } end
    cli.write(("%s  z=%s  %d nodes  %d rooms  %d exits\n"):format(m.id, tostring(m.z), m.nodes, #rooms, exits))
  end
  return 0
end

-- The builder's view of one map (the reference's `show Z`): rooms against
-- nodes, the players' display, then every node with its room and the
-- prototype a spawn gives it, every link, every transition, the map's text
-- as written (markers players never see included) and its options.
function SUB.show(o, rest)
  nargs(rest, 1, "show")
  local w = open(o)
  local z = z_of(w, rest[2])
  local xy, id = w.grid:map(z)
  local nodes = xy:nodes()
  local rooms = w.grid:rooms{ z = z }
  local color = color_on(1)
  -- Everything is found first and written at the end: an error (a prototype's
  -- parents in a circle) leaves no half of the output printed.
  local out = {}
  local function put(...) for _, v in ipairs{ ... } do out[#out + 1] = v end end
  put(("%s  z=%s  %d nodes  %d rooms\n\n"):format(id, tostring(z), #nodes, #rooms))
  put(strata.markup.render(xy:display(), { color = color }), "\n\nnodes:\n")
  local protos = w.grid:_prototypes(z, nodes)
  local transitions = {}
  for i, n in ipairs(nodes) do
    if n.kind == "transition" then
      transitions[#transitions + 1] = n
      put(("  (%d,%d) %s transition\n"):format(n.x, n.y, n.symbol))
    else
      local r = w.grid:room(n.x, n.y, z)
      put(("  (%d,%d) %s %s  %s  prototype %s\n"):format(n.x, n.y, n.symbol, n.kind,
        r and ("%s %q"):format(tostring(r), r.name) or "not spawned", protos[i] or "none"))
    end
  end
  put("links:\n")
  for _, n in ipairs(nodes) do
    for _, e in ipairs(xy:exits(n.x, n.y)) do
      put(("  (%d,%d) %s -> (%d,%d)  weight %g\n"):format(n.x, n.y, e.direction, e.to.x, e.to.y, e.weight))
    end
  end
  put("transitions:\n")
  for _, n in ipairs(transitions) do
    local t = n.target or {}
    put(("  (%d,%d) -> (%d,%d,%s)\n"):format(n.x, n.y, t[1] or t.x, t[2] or t.y, tostring(t[3] or t.z)))
  end
  local entry = w.data["base.grid_map"]:ensure(id)
  put("map:\n", entry.map, entry.map:sub(-1) == "\n" and "" or "\n", "options:\n")
  local keys = {}
  for k in pairs(entry.options or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do put(("  %s = %s\n"):format(k, tostring(entry.options[k]))) end
  cli.write(table.concat(out))
  return 0
end

function SUB.spawn(o, rest)
  if #rest ~= 1 and #rest ~= 4 then fail("spawn takes no arguments or X Y Z (see 'strata grid spawn --help')") end
  local w = open(o)
  local f = {}
  if #rest == 4 then
    f.x = rest[2] == "*" and "*" or cli.integer(rest[2], "X")
    f.y = rest[3] == "*" and "*" or cli.integer(rest[3], "Y")
    f.z = rest[4] == "*" and "*" or z_of(w, rest[4])
  end
  local c = cli.call("world.grid:spawn", w.grid.spawn, w.grid, f)
  save(w, o)
  cli.write(counts_line(c), "\n")
  return 0
end

local function xygrid(w)
  local maps = {}
  for _, m in ipairs(w.grid:maps()) do maps[#maps + 1] = w.grid:map(m.z) end
  return strata.xymap.grid(maps)
end

function SUB.path(o, rest)
  nargs(rest, 6, "path")
  local w = open(o)
  local a = { cli.integer(rest[2], "X1"), cli.integer(rest[3], "Y1"), tostring(z_of(w, rest[4])) }
  local b = { cli.integer(rest[5], "X2"), cli.integer(rest[6], "Y2"), tostring(z_of(w, rest[7])) }
  local g = xygrid(w)
  local dirs, why = cli.call("shortest_path", g.shortest_path, g, a, b)
  if not dirs then fail("no route from (%d, %d, %s) to (%d, %d, %s): %s", a[1], a[2], a[3], b[1], b[2], b[3], why) end
  cli.write(#dirs == 0 and "(already there)" or table.concat(dirs, " "), "\n")
  return 0
end

function SUB.initpath(o, rest)
  nargs(rest, 0, "initpath")
  local w = open(o)
  local maps = w.grid:maps()
  if #maps == 0 then cli.write("no grid maps\n") return 0 end
  local g = xygrid(w)
  for _, m in ipairs(maps) do
    local nodes, all = {}, w.grid:map(m.z):nodes()
    for _, n in ipairs(all) do
      if n.kind ~= "transition" then nodes[#nodes + 1] = n end
    end
    local a, b = nodes[1], nodes[#nodes]
    local t0 = os.clock()
    local dirs = g:shortest_path({ a.x, a.y, tostring(m.z) }, { b.x, b.y, tostring(m.z) })
    local ms = (os.clock() - t0) * 1000
    cli.write(("%s  z=%s  %d nodes  route (%d,%d)->(%d,%d): %s in %.2f ms\n"):format(m.id, tostring(m.z), #all,
      a.x, a.y, b.x, b.y, dirs and (#dirs .. " steps") or "no route", ms))
  end
  return 0
end

function SUB.home(o, rest)
  nargs(rest, 3, "home")
  local w = open(o)
  local x, y, z = cli.integer(rest[2], "X"), cli.integer(rest[3], "Y"), z_of(w, rest[4])
  local r = w.grid:room(x, y, z)
  if not r then fail("no grid room at (%d, %d, %s) (spawn the map first)", x, y, tostring(z)) end
  w.grid:set_home(r)
  save(w, o)
  cli.write(("home: %s %q at (%d, %d, %s)\n"):format(tostring(r), r.name, x, y, tostring(z)))
  return 0
end

-- Asks on a terminal; refuses when stdin is not one (a script must say --yes).
local function confirm(o, question)
  if o.yes then return end
  local ok, uv = pcall(require, "luv")
  if not (ok and uv.guess_handle(0) == "tty") then
    fail("delete asks for confirmation and stdin is not a terminal: give --yes")
  end
  cli.write(question, " [y/N] ")
  local answer = io.read("l")
  if not answer or not answer:match("^%s*[yY]") then fail("not deleted") end
end

function SUB.delete(o, rest)
  nargs(rest, 1, "delete")
  local w = open(o)
  local z = z_of(w, rest[2])
  local home = w.grid:home()
  confirm(o, ("delete the %d rooms of map %s%s?"):format(#w.grid:rooms{ z = z }, tostring(z),
    home and (" (what stands there goes to %s %q)"):format(tostring(home), home.name) or ""))
  local ok, c = pcall(cli.call, "world.grid:delete", w.grid.delete, w.grid, z)
  if not ok and not home and tostring(c):find("stands in it", 1, true) then
    fail("%s: set a home room for it first ('strata grid home X Y Z')", tostring(c))
  end
  if not ok then error(c, 0) end
  save(w, o)
  cli.write(counts_line(c), "\n")
  return 0
end

function M.run(args)
  local o, rest = parse(args)
  local sub = rest[1]
  if not sub then
    if o.help then cli.write(M.usage) return 0 end
    fail("a subcommand is needed: init, add, list, show, spawn, path, initpath, home, delete (see 'strata grid --help')")
  end
  if not SUB[sub] then
    local known = {}
    for k in pairs(SUB) do known[#known + 1] = k end
    table.sort(known)
    fail("unknown subcommand '%s'%s", sub, require("strata.options").suggest(sub, known))
  end
  if o.help then cli.write(SUB_USAGE[sub]) return 0 end
  return SUB[sub](o, rest)
end

return M
