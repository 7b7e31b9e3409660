-- The grid world (docs/grid.md): XY maps (base.grid_map) spawned into a world
-- as rooms and exits, reconciled on respawn, queried, routed across
-- transitions, walked, flown and dived. The maps of Evennia's own XYZGrid
-- tests are in spec/fixtures/mods/xyzgrid; the counts below are the ones
-- those tests assert (evennia/contrib/grid/xyzgrid/tests.py).
local strata = require "strata"
local support = require "support"

local PATH = { "mods", "spec/fixtures/mods" }

local function world(...)
  local w = strata.world.new{ seed = 7, mods = { "base", "xyzgrid" }, mod_path = PATH }
  if select("#", ...) > 0 then w.grid:add(...) end
  return w
end

local function nothing(c)
  return c.created.rooms + c.created.exits + c.updated.rooms + c.updated.exits + c.deleted.rooms + c.deleted.exits == 0
end

local function uids(list)
  local out = {}
  for i, h in ipairs(list) do out[i] = h.uid end
  table.sort(out)
  return out
end

local function all_uids(w)
  local out = {}
  for _, o in ipairs(w:objects()) do out[#out + 1] = o.uid end
  return out
end

-- A mod of one grid map whose text a test rewrites, then reloads.
local function editable(map_text, protos)
  local dir = support.tempdir()
  support.write(dir .. "/gridedit/mod.lua",
    'return { id = "gridedit", version = "0.1.0", requires = { base = "^0.1" } }')
  local function set(text, p)
    support.write(dir .. "/gridedit/init.lua", ("data:add{ _type = \"base.grid_map\", _id = \"m\", z = \"edit\", map = %q, prototypes = %s }")
      :format(text, p or "nil"))
  end
  set(map_text, protos)
  local w = strata.world.new{ seed = 1, mods = { "base", "gridedit" }, mod_path = { "mods", dir } }
  w.grid:add("gridedit.m")
  return w, function(text, p) set(text, p) strata.reload{ "gridedit", world = w } end, dir
end

local LINE = "+ 0 1 2\n\n0 #-#-#\n\n+ 0 1 2\n"

describe("grid maps as data", function()
  it("are checked when added, with Evennia's load errors as strata errors", function()
    local dir = support.tempdir()
    local function load(body)
      support.write(dir .. "/bad/mod.lua", 'return { id = "bad", version = "0.1.0", requires = { base = "^0.1" } }')
      support.write(dir .. "/bad/init.lua", body)
      local ok, err = pcall(strata.world.new, { seed = 1, mods = { "base", "bad" }, mod_path = { "mods", dir } })
      assert.is_false(ok)
      return err
    end
    local MAP = '"+ 0\\n\\n0 #\\n\\n+ 0\\n"'
    assert.matches("unknown field 'zcoord' %(nearest known: ", load('data:add{ _type = "base.grid_map", _id = "m", z = 1, zcoord = 1, map = ' .. MAP .. ' }'))
    assert.matches("legend key '##' is invalid", load('data:add{ _type = "base.grid_map", _id = "m", z = 1, map = ' .. MAP .. ', legend = { ["##"] = { kind = "node" } } }'))
    assert.matches("prototype key '1,2,3,4' is invalid", load('data:add{ _type = "base.grid_map", _id = "m", z = 1, map = ' .. MAP .. ', prototypes = { ["1,2,3,4"] = { key = "x" } } }'))
    assert.matches("prototype key 'a,0' is invalid", load('data:add{ _type = "base.grid_map", _id = "m", z = 1, map = ' .. MAP .. ', prototypes = { ["a,0"] = { key = "x" } } }'))
    assert.matches("prototype key '0,0,up' is invalid", load('data:add{ _type = "base.grid_map", _id = "m", z = 1, map = ' .. MAP .. ', prototypes = { ["0,0,up"] = { key = "x" } } }'))
    assert.matches("map is required and cannot be empty", load('data:add{ _type = "base.grid_map", _id = "m", z = 1, map = "  " }'))
    assert.matches("z", load('data:add{ _type = "base.grid_map", _id = "m", map = ' .. MAP .. ' }'))
  end)

  it("a map that does not parse is refused at world.grid:add, naming the map and the place", function()
    local dir = support.tempdir()
    support.write(dir .. "/bad/mod.lua", 'return { id = "bad", version = "0.1.0", requires = { base = "^0.1" } }')
    support.write(dir .. "/bad/init.lua", [[
      data:add{ _type = "base.grid_map", _id = "broken", z = "b", map = "+ 0 1\n\n0 #-Q\n\n+ 0 1\n" }
      data:add{ _type = "base.grid_map", _id = "nolegend", z = "c", map = "+ 0 1\n\n0 #-T\n\n+ 0 1\n",
        legend = { T = "bad.nothere" } }
    ]])
    local w = strata.world.new{ seed = 1, mods = { "base", "bad" }, mod_path = { dir } }
    assert.error_matches(function() w.grid:add("bad.broken") end,
      "^world.grid:add: grid map 'bad.broken': .*Symbol 'Q' on XY=%(1,0%) is not found in LEGEND. %(line 3, column 5%)$")
    assert.error_matches(function() w.grid:add("bad.nolegend") end,
      "^world.grid:add: grid map 'bad.nolegend': legend 'T': unknown base.legend 'bad.nothere'")
    assert.equal(0, #w.grid:maps())
  end)

  it("two maps with one z are refused at world.grid:add, and the world keeps its maps", function()
    local w = world("xyzgrid.map12a")
    local d = strata.world.new{ seed = 1, mods = { "base", "xyzgrid" }, mod_path = PATH }
    assert.error_matches(function() w.grid:add("xyzgrid.map12a") end, "already added")
    assert.error_matches(function() w.grid:add("xyzgrid.map_12b") end, "nearest known: xyzgrid.map12b")
    -- map13a has z = -2; an integer z is a level, "-2" as a string would be the same one
    d.grid:add("xyzgrid.map13a")
    assert.equal(1, #d.grid:maps())
    assert.same({ "xyzgrid.map12a" }, { w.grid:maps()[1].id })
    assert.equal(1, #w.grid:maps())
  end)
end)

describe("spawning grid maps", function()
  local COUNTS = { map1 = { 4, 8 }, map2 = { 24, 54 }, map3 = { 18, 44 }, map4 = { 16, 44 }, map5 = { 6, 8 },
    map6 = { 18, 38 }, map7 = { 6, 8 }, map8 = { 12, 28 }, map9 = { 12, 24 }, map10 = { 18, 42 },
    map11 = { 4, 6 }, callbacks = { 2, 2 } }

  it("makes as many rooms and exits as Evennia for its eleven test maps and the callbacks map", function()
    for id, want in pairs(COUNTS) do
      local w = world("xyzgrid." .. id)
      local c = w.grid:spawn()
      assert.same({ rooms = want[1], exits = want[2] }, c.created, id)
      assert.same({ rooms = 0, exits = 0 }, c.updated, id)
      assert.same({ rooms = 0, exits = 0 }, c.deleted, id)
      assert.equal(want[1], #w.grid:rooms{}, id)
      assert.equal(want[2], #w.grid:exits{}, id)
    end
  end)

  it("joins two maps through their transitions (MAP12a/b: 6 rooms, 10 exits)", function()
    local w = world("xyzgrid.map12a", "xyzgrid.map12b")
    local c = w.grid:spawn()
    assert.same({ rooms = 6, exits = 10 }, c.created)
    local r1, r2 = w.grid:room(0, 1, "map12a"), w.grid:room(1, 0, "map12b")
    assert.equal(r2.uid, r1:exit("east").to.uid)
    assert.equal(r1.uid, r2:exit("west").to.uid)
    assert.is_nil(w.grid:room(1, 1, "map12a")) -- a transition node gets no room
  end)

  it("keeps its list of maps in an object world:objects() leaves out, which refuses a delete by hand", function()
    local w = world("xyzgrid.map12a", "xyzgrid.map12b")
    w.grid:spawn()
    for _, o in ipairs(w:objects()) do assert.not_equal("grid_maps", o.kind) end
    assert.equal(16, #w:objects()) -- 6 rooms, 10 exits
    local probe = w:create_object{ kind = "probe" }
    local list
    for uid = 1, probe.uid - 1 do
      local o = w:object(uid)
      if o and o.kind == "grid_maps" then list = o end
    end
    assert.is_not_nil(list)
    assert.error_matches(function() list:delete() end, "object:delete: grid_maps#%d+ is the world's own bookkeeping: it cannot be deleted$")
    local maps = w.grid:maps()
    assert.same({ "map12a", "map12b" }, { maps[1].z, maps[2].z }) -- still listed
  end)

  it("names exits by direction with aliases (north / n, up / u), and applies prototypes by coordinate", function()
    local w = world("xyzgrid.map9", "xyzgrid.callbacks")
    w.grid:spawn()
    local r = w.grid:room(0, 0, "map9")
    local names = {}
    for _, e in ipairs(r:exits()) do names[#names + 1] = e.name .. "=" .. table.concat(e.aliases, ",") end
    table.sort(names)
    assert.same({ "down=d", "up=u" }, names) -- MAP9's (0, 0): `d` east, `u` north
    local c = w.grid:room(0, 0, "callbacks")
    assert.same({ "room", "A room." }, { c.name, c.desc })
    assert.same({ "east", "A passage." }, { c:exits()[1].name, c:exits()[1].desc })
    assert.equal("An empty room", r.name) -- base.xyz_room
  end)

  it("a legend's prototype is the default of its symbol, below the map's own prototypes", function()
    local dir = support.tempdir()
    support.write(dir .. "/lp/mod.lua", 'return { id = "lp", version = "0.1.0", requires = { base = "^0.1" } }')
    support.write(dir .. "/lp/init.lua", [[
      data:add{ _type = "base.prototype", _id = "shrine", kind = "room", parent = "base.xyz_room", key = "A shrine", desc = "Candles." }
      data:add{ _type = "base.prototype", _id = "gate", kind = "exit", parent = "base.xyz_exit", desc = "A gate." }
      data:add{ _type = "base.grid_map", _id = "m", z = "m", map = "+ 0 1 2\n\n0 #=S-S\n\n+ 0 1 2\n",
        legend = { S = { kind = "node", prototype = "lp.shrine" }, ["="] = { kind = "ew", prototype = "lp.gate" } },
        prototypes = { ["2,0"] = { key = "The high shrine" } } }
    ]])
    local w = strata.world.new{ seed = 1, mods = { "base", "lp" }, mod_path = { dir } }
    w.grid:add("lp.m")
    w.grid:spawn()
    local g = w.grid
    assert.same({ "An empty room", "A shrine", "The high shrine" },
      { g:room(0, 0, "m").name, g:room(1, 0, "m").name, g:room(2, 0, "m").name })
    -- one prototype decides: the map's for (2, 0), which gives no desc
    assert.same({ "Candles.", "" }, { g:room(1, 0, "m").desc, g:room(2, 0, "m").desc })
    assert.same({ "A gate.", "" }, { g:room(0, 0, "m"):exit("east").desc, g:room(1, 0, "m"):exit("east").desc })
    assert.same({ "A gate.", "" }, { g:room(1, 0, "m"):exit("west").desc, g:room(2, 0, "m"):exit("west").desc })
  end)

  it("names exits by a legend's spawn_aliases, and refuses ones that name no direction", function()
    local dir = support.tempdir()
    support.write(dir .. "/sa/mod.lua", 'return { id = "sa", version = "0.1.0", requires = { base = "^0.1" } }')
    support.write(dir .. "/sa/init.lua", [[
      data:add{ _type = "base.grid_map", _id = "m", z = "m", map = "+ 0 1\n\n0 #=#\n\n+ 0 1\n",
        legend = { ["="] = { kind = "ew", spawn_aliases = { e = { "bridge", "b" }, w = "back" } } } }
      data:add{ _type = "base.grid_map", _id = "bad", z = "bad", map = "+ 0 1\n\n0 #=#\n\n+ 0 1\n",
        legend = { ["="] = { kind = "ew", spawn_aliases = { east = { "bridge" } } } } }
    ]])
    local w = strata.world.new{ seed = 1, mods = { "base", "sa" }, mod_path = { dir } }
    w.grid:add("sa.m")
    w.grid:spawn()
    local a, b = w.grid:room(0, 0, "m"), w.grid:room(1, 0, "m")
    assert.same({ "bridge", { "b", "e" } }, { a:exits()[1].name, a:exits()[1].aliases })
    assert.same({ "back", { "w" } }, { b:exits()[1].name, b:exits()[1].aliases })
    local hero = w:create_actor{ room = a }
    assert.is_true(w:go(hero, "b"))
    assert.is_true(w:go(hero, "w")) -- the step name routes give still moves
    w.grid:add("sa.bad")
    assert.error_matches(function() w.grid:spawn() end,
      "grid map 'sa.bad' legend '=': spawn_aliases key 'east' is not a direction %(nearest known: e")
  end)

  it("respawns an unchanged map with nothing created, updated or deleted, keeping every uid", function()
    local w = world("xyzgrid.map2", "xyzgrid.map12a", "xyzgrid.map12b")
    w.grid:spawn()
    local before = all_uids(w)
    assert.is_true(nothing(w.grid:spawn()))
    assert.is_true(nothing(w.grid:spawn{ z = "map12b" }))
    assert.same(before, all_uids(w))
  end)

  it("puts back what was changed by hand on grid rooms and exits, and only that", function()
    local w = world("xyzgrid.map1")
    w.grid:spawn()
    local a = w.grid:room(0, 0, "map1")
    local east, north = a:exit("east"), a:exit("north")
    east.desc = "Scratched."
    east.to = a
    north:delete()
    a.name = "Renamed"
    local c = w.grid:spawn()
    assert.same({ rooms = 0, exits = 1 }, c.created)
    assert.same({ rooms = 1, exits = 1 }, c.updated)
    assert.same({ rooms = 0, exits = 0 }, c.deleted)
    assert.same({ "", w.grid:room(1, 0, "map1").uid, "An empty room" }, { east.desc, east.to.uid, a.name })
    assert.equal(w.grid:room(0, 1, "map1").uid, a:exit("north").to.uid)
    assert.is_true(nothing(w.grid:spawn()))
  end)

  it("a node removed deletes that room and its exits and nothing else; hand-made exits stay", function()
    local w, edit = editable("+ 0 1 2\n\n0 #-#-#\n\n+ 0 1 2\n")
    w.grid:spawn()
    local a, b, c = w.grid:room(0, 0, "edit"), w.grid:room(1, 0, "edit"), w.grid:room(2, 0, "edit")
    local hand = w:create_exit(a, c, { name = "tunnel" })
    local kept = { a.uid, c.uid, hand.uid }
    edit("+ 0 1 2\n\n0 #   #\n\n+ 0 1 2\n")
    local counts = w.grid:spawn()
    assert.same({ rooms = 1, exits = 4 }, counts.deleted)
    assert.same({ rooms = 0, exits = 0 }, counts.created)
    assert.same({ rooms = 0, exits = 0 }, counts.updated)
    assert.is_false(b:alive())
    assert.same(kept, { w.grid:room(0, 0, "edit").uid, w.grid:room(2, 0, "edit").uid, hand.uid })
    assert.is_true(hand:alive())
    assert.equal(c.uid, hand.to.uid)
  end)

  it("a changed map updates descriptions and exit targets, and after strata.reload the next spawn reconciles", function()
    local w, edit = editable(LINE, '{ ["1,0"] = { key = "Middle", desc = "Old." } }')
    w.grid:spawn()
    local mid = w.grid:room(1, 0, "edit")
    assert.same({ "Middle", "Old." }, { mid.name, mid.desc })
    edit(LINE, '{ ["1,0"] = { key = "Middle", desc = "New." }, ["0,0,e"] = { desc = "A door." } }')
    local c = w.grid:spawn()
    assert.same({ rooms = 1, exits = 1 }, c.updated)
    assert.equal("New.", mid.desc)
    assert.equal("A door.", w.grid:room(0, 0, "edit"):exit("east").desc)
    -- (1, 0) is gone: a long link now leads from (0, 0) to (2, 0). The room
    -- goes with its 4 exits (2 out, 2 in); the long link's 2 are new.
    edit("+ 0 1 2\n\n0 #---#\n\n+ 0 1 2\n")
    c = w.grid:spawn()
    assert.same({ rooms = 1, exits = 4 }, c.deleted)
    assert.same({ rooms = 0, exits = 2 }, c.created)
    assert.is_false(mid:alive())
    assert.equal(w.grid:room(2, 0, "edit").uid, w.grid:room(0, 0, "edit"):exit("east").to.uid)
  end)

  it("re-points an exit whose transition now leads elsewhere, and only that", function()
    local dir = support.tempdir()
    support.write(dir .. "/twomaps/mod.lua", 'return { id = "twomaps", version = "0.1.0", requires = { base = "^0.1" } }')
    local function body(tx)
      support.write(dir .. "/twomaps/init.lua", ([[
        data:add{ _type = "base.grid_map", _id = "a", z = "a", map = "+ 0 1\n\n0 #-T\n\n+ 0 1\n",
          legend = { T = { kind = "transition", target = { %d, 0, "b" } } } }
        data:add{ _type = "base.grid_map", _id = "b", z = "b", map = "+ 0 1\n\n0 #-#\n\n+ 0 1\n" }
      ]]):format(tx))
    end
    body(0)
    local w = strata.world.new{ seed = 1, mods = { "base", "twomaps" }, mod_path = { "mods", dir } }
    w.grid:add("twomaps.a", "twomaps.b")
    assert.same({ rooms = 3, exits = 3 }, w.grid:spawn().created)
    local door = w.grid:room(0, 0, "a"):exit("east")
    assert.equal(w.grid:room(0, 0, "b").uid, door.to.uid)
    body(1)
    strata.reload{ "twomaps", world = w }
    local c = w.grid:spawn()
    assert.same({ rooms = 0, exits = 1 }, c.updated)
    assert.is_true(nothing{ created = c.created, updated = { rooms = 0, exits = 0 }, deleted = c.deleted })
    assert.equal(w.grid:room(1, 0, "b").uid, door.to.uid)
  end)

  it("spawns by coordinate with wildcards, and refuses what it cannot do without changing anything", function()
    local w = world("xyzgrid.map1")
    local c = w.grid:spawn{ x = 0, y = "*", z = "map1" }
    assert.same({ rooms = 2, exits = 4 }, c.created)
    c = w.grid:spawn{ y = 1 }
    assert.same({ rooms = 1, exits = 2 }, c.created)
    assert.error_matches(function() w.grid:spawn{ z = "mpa1" } end, "no grid map has z 'mpa1' %(nearest known: map1")
    assert.error_matches(function() w.grid:spawn{ q = 1 } end, "unknown option 'q'")
    assert.error_matches(function() w.grid:spawn{ x = 1.5 } end, "x must be an integer or \"%*\"")
  end)

  it("refuses to delete a room someone stands in, changing nothing", function()
    local w, edit = editable(LINE)
    w.grid:spawn()
    local hero = w:create_actor{ room = w.grid:room(2, 0, "edit") }
    local before = all_uids(w)
    edit("+ 0 1 2\n\n0 #-#\n\n+ 0 1 2\n")
    assert.error_matches(function() w.grid:spawn() end, "room#%d+ cannot be deleted: actor#" .. hero.uid .. " stands in it")
    assert.same(before, all_uids(w))
  end)
end)

describe("querying the grid", function()
  it("finds rooms and exits by coordinates with wildcards; rooms know x, y, z and their node", function()
    local w = world("xyzgrid.map10", "xyzgrid.map1")
    w.grid:spawn()
    local r = w.grid:room(2, 2, "map10")
    assert.same({ 2, 2, "map10", "xyzgrid.map10" }, { r.x, r.y, r.z, r.grid_map })
    assert.is_nil(w:create_room{ name = "Aside" }.grid_map)
    assert.same({ symbol = "I", kind = "interrupt_node", interrupt = true }, r:node())
    assert.same({ symbol = "#", kind = "node", interrupt = false }, w.grid:room(0, 0, "map1"):node())
    assert.equal(4, #w.grid:rooms{ z = "map1" })
    assert.equal(2, #w.grid:rooms{ x = 0, z = "map1" })
    assert.equal(4 + 18, #w.grid:rooms{})
    local a = w.grid:room(0, 0, "map1")
    assert.equal(2, #w.grid:exits{ from = a })
    assert.equal(2, #w.grid:exits{ to = a })
    local east = w.grid:exits{ from = a, name = "east" }
    assert.same({ w.grid:room(1, 0, "map1").uid }, { east[1].to.uid })
    assert.is_nil(w.grid:room(5, 5, "map1"))
    assert.error_matches(function() w.grid:exits{ form = a } end, "unknown option 'form' %(nearest known: from")
  end)

  it("routes across a transition both ways, with Evennia's directions within a map", function()
    local w = world("xyzgrid.map12a", "xyzgrid.map12b", "xyzgrid.map2")
    w.grid:spawn()
    local g = w.grid
    assert.same({ "w", "n", "e", "n" }, g:path(g:room(1, 0, "map12a"), g:room(1, 1, "map12b")))
    assert.same({ "e", "s", "w", "s" }, g:path(g:room(0, 1, "map12b"), g:room(0, 0, "map12a")))
    assert.same({ "n", "w", "n", "n", "n", "w", "w" }, g:path(g:room(4, 0, "map2"), g:room(0, 5, "map2")))
    assert.same({ nil, "no route between these nodes" }, { g:path(g:room(1, 0, "map2"), g:room(0, 0, "map12a")) })
  end)

  it("shows the map around a room with the map's options", function()
    local w = world("xyzgrid.callbacks", "xyzgrid.map1")
    w.grid:spawn()
    -- callbacks: map_visual_range = 1, map_mode = "scan"
    assert.equal("|g@|n-", w.grid:view(w.grid:room(0, 0, "callbacks")))
    assert.equal("#-#\n|| ||\n@-#", w.grid:view(w.grid:room(0, 0, "map1"), { dist = 2, character = "@" }))
    assert.equal("-@\n ||", w.grid:view(w.grid:room(1, 1, "map1"), { dist = 1, mode = "scan", character = "@" }))
  end)
end)

describe("moving on the grid", function()
  it("world:go walks through grid exits by name or alias", function()
    local w = world("xyzgrid.map9")
    w.grid:spawn()
    local hero = w:create_actor{ room = w.grid:room(0, 0, "map9") }
    assert.is_true(w:go(hero, "u"))
    assert.same({ 0, 1 }, { hero.room.x, hero.room.y })
    assert.is_true(w:go(hero, "east"))
    assert.same({ 1, 1 }, { hero.room.x, hero.room.y })
    assert.is_true(w:go(hero, "west"))
    assert.is_true(w:go(hero, "u")) -- a bare `u` between two nodes is "up" both ways (Evennia)
    assert.same({ 0, 0 }, { hero.room.x, hero.room.y })
    assert.same({ nil, "there is no way 'north' here" }, { w:go(hero, "north") })
  end)

  it("fly and dive move between integer levels as in Evennia's test, and say why not", function()
    local w = world("xyzgrid.map13a", "xyzgrid.map13b", "xyzgrid.map13c", "xyzgrid.map13d")
    w.grid:spawn()
    local cases = {
      { { 0, 0, -2 }, "fly", false, { 0, 0, -2 } }, { { 1, 1, -2 }, "fly", true, { 1, 1, -1 } },
      { { 1, 1, -1 }, "fly", true, { 1, 1, 0 } }, { { 1, 1, 0 }, "fly", true, { 1, 1, 1 } },
      { { 1, 1, 1 }, "fly", false, { 1, 1, 1 } }, { { 0, 0, 1 }, "fly", false, { 0, 0, 1 } },
      { { 0, 0, 1 }, "dive", false, { 0, 0, 1 } }, { { 1, 1, 1 }, "dive", true, { 1, 1, 0 } },
      { { 1, 1, 0 }, "dive", true, { 1, 1, -1 } }, { { 1, 1, -1 }, "dive", true, { 1, 1, -2 } },
      { { 1, 1, -2 }, "dive", false, { 1, 1, -2 } },
    }
    for i, c in ipairs(cases) do
      local hero = w:create_actor{ room = w.grid:room(c[1][1], c[1][2], c[1][3]) }
      local ok, why = w.grid[c[2]](w.grid, hero)
      assert.equal(c[3], ok == true, "case " .. i)
      if not ok then assert.matches("^Can't " .. c[2] .. " here", why) end
      assert.same(c[4], { hero.room.x, hero.room.y, hero.room.z }, "case " .. i)
    end
  end)

  it("a walk follows the route by world time across a transition", function()
    local w = world("xyzgrid.map12a", "xyzgrid.map12b")
    w.grid:spawn()
    local hero = w:create_actor{ room = w.grid:room(1, 0, "map12a") }
    local plan = w:walk(hero, w.grid:room(1, 1, "map12b"), { step_every = 2 })
    assert.equal("walking", plan.state)
    w:advance(1)
    assert.same({ 1, 0, "map12a" }, { hero.room.x, hero.room.y, hero.room.z })
    w:advance(5)
    assert.same({ 1, 0, "map12b" }, { hero.room.x, hero.room.y, hero.room.z })
    w:advance(2)
    assert.equal("arrived", plan.state)
    assert.same({ 1, 1, "map12b" }, { hero.room.x, hero.room.y, hero.room.z })
  end)

  it("an interrupt node stops a walk that enters it but not one that starts on it; an interrupt link stops it before", function()
    local w = world("xyzgrid.map10")
    w.grid:spawn()
    local g = w.grid
    local hero = w:create_actor{ room = g:room(1, 2, "map10") }
    local plan = w:walk(hero, g:room(3, 2, "map10"), { step_every = 1 })
    w:advance(5)
    assert.equal("interrupted", plan.state)
    assert.same({ 2, 2 }, { hero.room.x, hero.room.y })
    plan = w:walk(hero, g:room(3, 2, "map10"), { step_every = 1 })
    w:advance(5)
    assert.equal("arrived", plan.state)
    assert.same({ 3, 2 }, { hero.room.x, hero.room.y })
    local walker = w:create_actor{ room = g:room(0, 3, "map10") }
    plan = w:walk(walker, g:room(1, 3, "map10"), { step_every = 1 })
    w:advance(3)
    assert.equal("interrupted", plan.state)
    assert.same({ 0, 3 }, { walker.room.x, walker.room.y })
  end)

  it("a walk is blocked when a respawn took its way away, and a cancelled walk stays cancelled across a save", function()
    local w, edit, dir = editable(LINE)
    w.grid:spawn()
    local hero = w:create_actor{ room = w.grid:room(0, 0, "edit") }
    local plan = w:walk(hero, w.grid:room(2, 0, "edit"), { step_every = 1 })
    w:advance(1)
    edit("+ 0 1 2\n\n0 #-# #\n\n+ 0 1 2\n")
    w.grid:spawn()
    w:advance(3)
    assert.equal("blocked", plan.state)
    assert.same({ 1, 0 }, { hero.room.x, hero.room.y })
    edit(LINE)
    w.grid:spawn()
    plan = w:walk(hero, w.grid:room(0, 0, "edit"), { step_every = 1 })
    assert.is_true(plan:cancel())
    w:save(dir .. "/w.db")
    local w2 = strata.world.open(dir .. "/w.db", { mods = { "base", "gridedit" }, mod_path = { "mods", dir } })
    w2:advance(10)
    local h2 = w2:object(hero.uid)
    assert.same({ 1, 0 }, { h2.room.x, h2.room.y })
    assert.equal("cancelled", w2:walk_plan(h2).state)
    assert.is_false(w2:walk_plan(h2):cancel())
  end)

  it("a walk saved mid-way completes after reopening in a second process", function()
    local w = world("xyzgrid.map2")
    w.grid:spawn()
    local hero = w:create_actor{ room = w.grid:room(4, 0, "map2") }
    w:walk(hero, w.grid:room(0, 5, "map2"), { step_every = 2 })
    w:advance(6) -- three of seven steps
    local dir = support.tempdir()
    w:save(dir .. "/w.db")
    support.write(dir .. "/resume.lua", ([[
      local strata = require "strata"
      local w = strata.world.open(%q, { mod_path = { "mods", "spec/fixtures/mods" } })
      local hero = w:object(%d)
      io.write(hero.room.x, ",", hero.room.y, " ")
      w:advance(100)
      io.write(hero.room.x, ",", hero.room.y, " ", w:walk_plan(hero).state)
    ]]):format(dir .. "/w.db", hero.uid))
    local out, code = support.sh("lua5.4 " .. support.q(dir .. "/resume.lua"))
    assert.equal(0, code, out)
    assert.equal("2,2 0,5 arrived", out)
  end)
end)

describe("the example grid (mods/examples/grid.lua)", function()
  it("spawns two maps joined by a transition, and its script walks them across a save", function()
    local bin = os.getenv("STRATA_BIN") or "build/strata"
    local out, code = support.sh("NO_COLOR=1 " .. support.q(bin) .. " run mods/examples/scripts/grid.lua")
    assert.equal(0, code, out)
    assert.matches("^spawned: 16 rooms, 34 exits\nspawned again: 0 created, 0 updated, 0 deleted\n", out)
    assert.matches("the way to the deep gallery: n e ne e e e s s\n", out, 1, true)
    assert.matches("t=8  The Mine Mouth %(0, 2, mine%)\nsaved mid%-way: walking\n", out)
    assert.matches("t=16  The Deep Gallery %(2, 0, mine%)\nwalk: arrived\n", out)
    local w = strata.world.new{ seed = 1, mods = { "base", "examples" } }
    w.grid:add("examples.village", "examples.mine")
    w.grid:spawn()
    local square = w.grid:room(2, 2, "village")
    assert.equal("The Market Square", square.name)
    assert.equal("Rutted by ore carts, the track winds east towards the hills.", square:exit("east").desc)
    assert.equal(w.grid:room(0, 2, "mine").uid, square:exit("east").to.uid)
    assert.equal(square.uid, w.grid:room(0, 2, "mine"):exit("south").to.uid)
    assert.equal("A muddy lane", w.grid:room(0, 1, "village").name)
    -- mine_tunnel's props on its rooms; a room that a prototype of its own decides has none
    local tunnels = 0
    for _, r in ipairs(w.grid:rooms{ z = "mine" }) do
      if r.name == "A low tunnel" then tunnels = tunnels + 1 assert.equal("dim", r.props.light)
      else assert.is_nil(r.props.light) end
    end
    assert.is_true(tunnels > 0)
    assert.same({ symbol = "I", kind = "interrupt_node", interrupt = true }, w.grid:room(3, 3, "village"):node())
  end)
end)

describe("grid prototypes' props", function()
  -- A mod with base.prototype "lit" and the map "m"; protos is Lua source.
  local function mod(dir, protos, extra)
    support.write(dir .. "/gp/mod.lua", 'return { id = "gp", version = "0.1.0", requires = { base = "^0.1" } }')
    support.write(dir .. "/gp/init.lua", ([[
      data:add{ _type = "base.prototype", _id = "lit", kind = "room", parent = "base.xyz_room", key = "Lit",
        props = { light = "bright", size = 3, tags = { "old" } } }
      %s
      data:add{ _type = "base.grid_map", _id = "m", z = "gp", map = %q, prototypes = %s }
    ]]):format(extra or "", LINE, protos))
  end
  local function open(dir, file)
    if file then return strata.world.open(file, { mods = { "base", "gp" }, mod_path = { "mods", dir } }) end
    local w = strata.world.new{ seed = 1, mods = { "base", "gp" }, mod_path = { "mods", dir } }
    w.grid:add("gp.m")
    return w
  end
  local function props_of(h)
    local out = {}
    for k, v in pairs(h.props) do out[k] = type(v) == "table" and #v or v end
    return out
  end

  it("are set on the rooms and exits a prototype decides; a parent's props merge, the child's keys winning", function()
    local dir = support.tempdir()
    mod(dir, '{ ["0,0"] = { parent = "gp.lit", props = { light = "dim", tags = { "a", "b" } } }, ["1,0"] = "gp.lit",'
      .. ' ["0,0,e"] = { desc = "A door.", props = { door = "oak" } } }')
    local w = open(dir)
    w.grid:spawn()
    local a, b, c = w.grid:room(0, 0, "gp"), w.grid:room(1, 0, "gp"), w.grid:room(2, 0, "gp")
    assert.equal("Lit", a.name)
    assert.same({ light = "dim", size = 3, tags = 2 }, props_of(a)) -- one level deep: tags replaced whole
    assert.same({ "a", "b" }, { a.props.tags[1], a.props.tags[2] })
    assert.same({ light = "bright", size = 3, tags = 1 }, props_of(b))
    assert.same({}, props_of(c))
    assert.equal("oak", a:exit("east").props.door)
    assert.equal("A door.", a:exit("east").desc)
    assert.is_nil(b:exit("east").props.door)
    assert.is_true(nothing(w.grid:spawn()))
  end)

  it("a respawn updates a changed key, removes a dropped one, adds a new one, and keeps what the game set", function()
    local dir = support.tempdir()
    mod(dir, '{ ["0,0"] = { props = { light = "dim", smell = "damp" } }, ["0,0,e"] = { props = { door = "oak" } } }')
    local w = open(dir)
    w.grid:spawn()
    local a = w.grid:room(0, 0, "gp")
    a.props.owner = "Ann"          -- the game's own key
    a.props.light = "torch-lit"    -- a prototype key changed by the game
    a:exit("east").props.mark = "x"
    mod(dir, '{ ["0,0"] = { props = { light = "dark", wet = true } }, ["0,0,e"] = { props = { door = "oak" } } }')
    strata.reload{ "gp", world = w }
    local c = w.grid:spawn()
    assert.same({ 1, 0 }, { c.updated.rooms, c.updated.exits })
    assert.same({ light = "dark", wet = true, owner = "Ann" }, props_of(a))
    assert.same({ door = "oak", mark = "x" }, props_of(a:exit("east")))
    assert.is_true(nothing(w.grid:spawn()))
    -- No props at all now: the prototype's keys go, the game's stay.
    mod(dir, '{ ["0,0"] = { key = "Plain" } }')
    strata.reload{ "gp", world = w }
    c = w.grid:spawn()
    assert.same({ 1, 1 }, { c.updated.rooms, c.updated.exits })
    assert.same({ owner = "Ann" }, props_of(a))
    assert.same({ mark = "x" }, props_of(a:exit("east")))
    assert.is_true(nothing(w.grid:spawn()))
  end)

  it("a prototype key the game set first is the prototype's from the spawn that gives it", function()
    local dir = support.tempdir()
    mod(dir, '{ ["0,0"] = { key = "Plain" } }')
    local w = open(dir)
    w.grid:spawn()
    local a = w.grid:room(0, 0, "gp")
    a.props.light = "torch-lit"
    mod(dir, '{ ["0,0"] = { props = { light = "dim" } } }')
    strata.reload{ "gp", world = w }
    w.grid:spawn()
    assert.equal("dim", a.props.light)
  end)

  it("are saved, and a respawn after reopening still knows which keys came from prototypes", function()
    local dir = support.tempdir()
    mod(dir, '{ ["0,0"] = { parent = "gp.lit", props = { smell = "damp" } } }')
    local w = open(dir)
    w.grid:spawn()
    w.grid:room(0, 0, "gp").props.owner = "Ann"
    w:save(dir .. "/w.db")
    mod(dir, '{ ["0,0"] = { props = { smell = "smoke" } } }')
    local w2 = open(dir, dir .. "/w.db")
    local a = w2.grid:room(0, 0, "gp")
    assert.same({ light = "bright", size = 3, tags = 1, smell = "damp", owner = "Ann" }, props_of(a))
    local c = w2.grid:spawn()
    assert.same({ 1, 0 }, { c.updated.rooms, c.updated.exits })
    assert.same({ smell = "smoke", owner = "Ann" }, props_of(a))
    assert.equal("An empty room", a.name)
    assert.is_true(nothing(w2.grid:spawn()))
  end)

  it("bad props are refused when the mod adds the entry, naming the map, the prototype key and the field", function()
    local dir = support.tempdir()
    local function load(protos, extra)
      mod(dir, protos, extra)
      local ok, err = pcall(open, dir)
      assert.is_false(ok)
      return err
    end
    assert.matches("gp%.m: prototype '0,0': props%.f is a function",
      load('{ ["0,0"] = { props = { f = function() end } } }'))
    assert.matches("gp%.m: prototypes%.0,0%.props%.t: a table that contains itself",
      load('(function() local t = {} t.t = t return { ["0,0"] = { props = t } } end)()'))
    assert.matches("gp%.m: prototype '1,0,e': props must be a table of plain data, got string",
      load('{ ["1,0,e"] = { props = "dim" } }'))
    assert.matches("gp%.bad: field 'props'%.x is a function",
      load('{}', 'data:add{ _type = "base.prototype", _id = "bad", props = { x = print } }'))
    assert.matches("gp%.bad: field 'props' must be table",
      load('{}', 'data:add{ _type = "base.prototype", _id = "bad", props = 3 }'))
  end)

  it("props a patch made bad are refused at world.grid:add, before any spawn", function()
    local dir = support.tempdir()
    mod(dir, '{ ["2,0"] = "gp.lit" }',
      'data:patch("base.prototype", "gp.lit", "break", function(e) e.props = { f = function() end } end)')
    local w = strata.world.new{ seed = 1, mods = { "base", "gp" }, mod_path = { "mods", dir } }
    assert.error_matches(function() w.grid:add("gp.m") end,
      "grid map 'gp.m' prototype '2,0' (base.prototype 'gp.lit'): props.f is a function", 1, true)
    assert.same({}, w.grid:maps())
    assert.equal(0, #w.grid:rooms())
  end)
end)
