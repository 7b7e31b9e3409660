-- strata grid SUBCOMMAND: the grid world of a world file, from the command line
-- (Evennia's `evennia xyzgrid`): init, add, list, show, spawn, path, initpath, delete.
local strata = require "strata"
local cli = require "strata.cli"
local paths = require "strata.paths"

local M = {}

-- An X or Y of spawn: an integer, or * for any.
local function int_or_any(s)
  if s == "*" then return s end
  local v = math.tointeger(tonumber(s))
  if v then return v end
  return nil, ("must be an integer or *, got '%s'"):format(s)
end

local JSON = { name = "json", kind = "flag", help = "print it as one JSON document" }
local function int(name) return { name = name, key = name:lower(), kind = "integer" } end
local function zarg(name) return { name = name or "Z", key = (name or "Z"):lower() } end

M.spec = {
  name = "grid",
  summary = "manage the grid maps of a world file (add, spawn, show, path ...)",
  options = {
    { name = "world", kind = "path", arg = "FILE", default = "world.db",
      refuse_stdio = "a world file is an SQLite database, read and saved only as a file", help = "the world file" },
    { name = "mods", kind = "list", arg = "a,b", help = "mods to load (default: the world's own; init: base)" },
    { name = "mod-path", kind = "path", arg = "DIR", repeatable = true, help = "a directory to search for mods" },
    { name = "seed", kind = "integer", arg = "N", default = 0, help = "seed of a new world, for init" },
  },
  subcommands = {
    { name = "init", help = "create the world file (with --mods, --seed)",
      description = "Creates the world file with the mods given (default base). A file that exists is left as it is." },
    { name = "add", args = { { name = "MAP_ID", key = "ids", rest = true } },
      help = "add base.grid_map entries to the world",
      description = "Adds base.grid_map entries (\"mod.name\") of the world's mods to the world. Two maps with one Z are an error." },
    { name = "list", options = { JSON }, help = "the world's maps with their room and exit counts",
      description = "Prints each map: its ID, Z, nodes, and the rooms and exits spawned for it." },
    { name = "show", args = { zarg() }, options = { JSON }, help = "the map of level Z for builders: its display, nodes\n"
      .. "with their rooms and prototypes, links, transitions,\nits text and options",
      description = [[
Prints the map of level Z for builders: rooms against nodes, the map as players see it (in colour on a
terminal, unless NO_COLOR is set to something), each node with its room and the prototype a spawn gives
it, each link, each transition, the map's text as written and its options.]] },
    { name = "home", args = { int("X"), int("Y"), zarg() }, help = "make the grid room at (X, Y, Z) the grid's home:\n"
      .. "delete moves what stands on a deleted map there",
      description = "Makes the grid room at (X, Y, Z) the grid's home room: 'delete' moves whatever stands on a deleted map there." },
    { name = "spawn", args = { { name = "X", key = "x", check = int_or_any, optional = true },
      { name = "Y", key = "y", check = int_or_any, optional = true }, { name = "Z", key = "z", optional = true } },
      forms = { "[options] spawn [X Y Z]" },
      help = "spawn the maps (or what matches; * for any) as\nrooms and exits, reconciling; prints the counts",
      description = [[
Spawns the maps into rooms and exits, reconciling with what is there; X, Y, Z select nodes (* for any).
Prints what was created, updated and deleted.]] },
    { name = "path", args = { int("X1"), int("Y1"), zarg("Z1"), int("X2"), int("Y2"), zarg("Z2") }, options = { JSON },
      help = "the shortest route between two nodes, across maps",
      description = "Prints the shortest route between two nodes as directions, crossing transitions between maps." },
    { name = "initpath", help = "check every map and its routes; prints how long a\nroute across each map takes (strata keeps no cache)",
      description = [[
Parses every map and routes across it (first node to last); prints the time each route took.
strata keeps no path cache, so there is nothing to build.]] },
    { name = "delete", args = { zarg() }, forms = { "[options] delete [--yes] Z" },
      options = { { name = "yes", short = "y", kind = "flag", help = "delete without asking" } },
      help = "delete the rooms and exits of level Z and forget its\nmap (asks first unless --yes; what stands there goes home)",
      description = [[
Deletes the rooms and exits of level Z (with the grid exits into them) and forgets its map. Whatever stands
in those rooms is moved to the grid's home room (see 'home'). Asks for confirmation on a terminal; give
--yes when stdin is not one.]] },
  },
  epilog = [[
Changes are saved to the world file only when the whole subcommand
succeeded. Exit status 2 for a mistake in the arguments; 1 with one line on
stderr for a missing or damaged file, or an error in the maps.]],
}

-- Errors read "grid: message" on one line, whatever they quote (strata.cli
-- adds the name).
M.names_errors = true

local function fail(fmt, ...) error(fmt:format(...), 0) end

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

local SUB = {}

function SUB.init(o)
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

function SUB.add(o)
  local w = open(o)
  local ids = o.ids
  cli.call("world.grid:add", w.grid.add, w.grid, table.unpack(ids))
  save(w, o)
  for _, id in ipairs(ids) do cli.write("added ", id, "\n") end
  return 0
end

function SUB.list(o)
  local w = open(o)
  local list = strata.json.array()
  for _, m in ipairs(w.grid:maps()) do
    local rooms = w.grid:rooms{ z = m.z }
    local exits = 0
    for _, r in ipairs(rooms) do exits = exits + #w.grid:exits{ from = r } end
    list[#list + 1] = { id = m.id, z = m.z, nodes = m.nodes, rooms = #rooms, exits = exits }
  end
  if o.json then cli.json{ maps = list } return 0 end
  if #list == 0 then cli.write("no grid maps (add some with 'strata grid add MAP_ID')\n") return 0 end
  for _, m in ipairs(list) do
    cli.write(("%s  z=%s  %d nodes  %d rooms  %d exits\n"):format(m.id, tostring(m.z), m.nodes, m.rooms, m.exits))
  end
  return 0
end

-- The builder's view of one map (the reference's `show Z`) as plain data:
-- rooms against nodes, the players' display, every node with its room and
-- the prototype a spawn gives it, every link, every transition, the map's
-- text as written (markers players never see included) and its options.
local function map_view(w, z)
  local xy, id = w.grid:map(z)
  local nodes = xy:nodes()
  local protos = w.grid:_prototypes(z, nodes)
  local v = { id = id, z = z, rooms = #w.grid:rooms{ z = z }, display = strata.markup.render(xy:display(), { color = false }),
    nodes = strata.json.array(), links = strata.json.array(), transitions = strata.json.array() }
  for i, n in ipairs(nodes) do
    local node = { x = n.x, y = n.y, symbol = n.symbol, kind = n.kind }
    v.nodes[i] = node
    if n.kind == "transition" then
      local t = n.target or {}
      local x, y = t[1] or t.x, t[2] or t.y -- numbers as read from the map's text: 1.0 is the cell 1
      v.transitions[#v.transitions + 1] = { from = { n.x, n.y },
        to = { math.tointeger(x) or x, math.tointeger(y) or y, t[3] or t.z } }
    else
      local r = w.grid:room(n.x, n.y, z)
      node.room = r and { uid = r.uid, name = r.name, handle = tostring(r) }
      node.prototype = protos[i]
    end
    for _, e in ipairs(xy:exits(n.x, n.y)) do
      v.links[#v.links + 1] = { from = { n.x, n.y }, direction = e.direction, to = { e.to.x, e.to.y }, weight = e.weight }
    end
  end
  local entry = w.data["base.grid_map"]:ensure(id)
  v.map, v.options = entry.map, {}
  for k, val in pairs(entry.options or {}) do v.options[k] = val end
  return v, xy
end

function SUB.show(o)
  local w = open(o)
  -- Everything is found first and written at the end: an error (a prototype's
  -- parents in a circle) leaves no half of the output printed.
  local v, xy = map_view(w, z_of(w, o.z))
  if o.json then cli.json(v) return 0 end
  local out = {}
  local function put(...) for _, s in ipairs{ ... } do out[#out + 1] = s end end
  put(("%s  z=%s  %d nodes  %d rooms\n\n"):format(v.id, tostring(v.z), #v.nodes, v.rooms))
  put(strata.markup.render(xy:display(), { color = cli.color(1) }), "\n\nnodes:\n")
  for _, n in ipairs(v.nodes) do
    if n.kind == "transition" then put(("  (%d,%d) %s transition\n"):format(n.x, n.y, n.symbol))
    else
      put(("  (%d,%d) %s %s  %s  prototype %s\n"):format(n.x, n.y, n.symbol, n.kind,
        n.room and ("%s %q"):format(n.room.handle, n.room.name) or "not spawned", n.prototype or "none"))
    end
  end
  put("links:\n")
  for _, l in ipairs(v.links) do
    put(("  (%d,%d) %s -> (%d,%d)  weight %g\n"):format(l.from[1], l.from[2], l.direction, l.to[1], l.to[2], l.weight))
  end
  put("transitions:\n")
  for _, t in ipairs(v.transitions) do
    put(("  (%d,%d) -> (%d,%d,%s)\n"):format(t.from[1], t.from[2], t.to[1], t.to[2], tostring(t.to[3])))
  end
  put("map:\n", v.map, v.map:sub(-1) == "\n" and "" or "\n", "options:\n")
  local keys = {}
  for k in pairs(v.options) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do put(("  %s = %s\n"):format(k, tostring(v.options[k]))) end
  cli.write(table.concat(out))
  return 0
end

function SUB.spawn(o)
  if o.x ~= nil and o.z == nil then cli.usage_error("spawn takes no arguments or X Y Z", "strata grid spawn --help") end
  local w = open(o)
  local f = {}
  if o.z then f.x, f.y, f.z = o.x, o.y, o.z == "*" and "*" or z_of(w, o.z) end
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

function SUB.path(o)
  local w = open(o)
  local a = { o.x1, o.y1, tostring(z_of(w, o.z1)) }
  local b = { o.x2, o.y2, tostring(z_of(w, o.z2)) }
  local g = xygrid(w)
  local dirs, why = cli.call("shortest_path", g.shortest_path, g, a, b)
  if not dirs then fail("no route from (%d, %d, %s) to (%d, %d, %s): %s", a[1], a[2], a[3], b[1], b[2], b[3], why) end
  if o.json then cli.json{ from = a, to = b, steps = strata.json.array(dirs) } return 0 end
  cli.write(#dirs == 0 and "(already there)" or table.concat(dirs, " "), "\n")
  return 0
end

function SUB.initpath(o)
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

function SUB.home(o)
  local w = open(o)
  local x, y, z = o.x, o.y, z_of(w, o.z)
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

function SUB.delete(o)
  local w = open(o)
  local z = z_of(w, o.z)
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

function M.run(o, sub)
  if #o.mod_path == 0 then o.mod_path = nil end
  return SUB[sub.name](o)
end

return M
