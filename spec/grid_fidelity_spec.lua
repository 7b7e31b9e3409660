-- The grid world against the reference's words (issue 35, "XY maps and the
-- grid world"): rooms and exits by name and destination, auto-walk by name,
-- teleporting to a coordinate, prototypes stored in the world, and the one
-- owner of which room stands where (the core: no copy in Lua to go stale).
local strata = require "strata"
local support = require "support"
local mods = require "strata.mods"

-- A row of five rooms, two pairs sharing a name, on map "row".
local ROW = "+ 0 1 2 3 4\n\n0 #-#-#-#-#\n\n+ 0 1 2 3 4\n"
local NAMES = [[{ ["0,0"] = { key = "The South Gate" }, ["4,0"] = { key = "The South Gate" },
  ["1,0"] = { key = "Tunnel" }, ["3,0"] = { key = "Tunnel" }, ["2,0"] = { key = "Square" } }]]

local function row_world()
  local dir = support.tempdir()
  support.write(dir .. "/row/mod.lua", 'return { id = "row", version = "0.1.0", requires = { base = "^0.1" } }')
  support.write(dir .. "/row/init.lua", ([[
data:add{ _type = "base.grid_map", _id = "row", z = "row", map = %q, prototypes = %s }
data:add{ _type = "base.grid_map", _id = "mine", z = "mine", map = "+ 0 1\n\n0 #-#\n\n+ 0 1\n",
  prototypes = { ["1,0"] = { key = "Tunnel" } } }
]]):format(ROW, NAMES))
  local w = strata.world.new{ seed = 1, mods = { "base", "row" }, mod_path = { "mods", dir } }
  w.grid:add("row.row", "row.mine")
  w.grid:spawn()
  return w, dir
end

local function coords(list)
  local out = {}
  for i, r in ipairs(list) do out[i] = ("%d,%d,%s"):format(r.x, r.y, r.z) end
  table.sort(out)
  return out
end

describe("rooms and exits found by name and destination", function()
  -- "find list of all rooms with name "Tunnel" on map foo
  --  rooms = XYZRoom.objects.filter_xyz(('*', '*', 'foo'), db_key="Tunnel")"
  it("world.grid:rooms{ name = } with the coordinate wildcards", function()
    local w = row_world()
    assert.same({ "1,0,mine", "1,0,row", "3,0,row" }, coords(w.grid:rooms{ name = "Tunnel" }))
    assert.same({ "1,0,row", "3,0,row" }, coords(w.grid:rooms{ name = "Tunnel", z = "row" }))
    assert.same({ "3,0,row" }, coords(w.grid:rooms{ name = "Tunnel", x = 3, y = "*", z = "*" }))
    assert.same({}, w.grid:rooms{ name = "Nowhere" })
    assert.error_matches(function() w.grid:rooms{ name = 3 } end, "world.grid:rooms: name must be a string")
    assert.error_matches(function() w.grid:rooms{ nmae = "x" } end, "unknown option 'nmae' %(nearest known: name")
  end)

  -- "find exits from a room to anywhere on another map
  --  exits = XYZExit.objects.filter_xyz_exit(xyz=(1, 5, 'foo'), xyz_destination=('*', '*', 'bar'))"
  it("world.grid:exits{ to = { x, y, z } } takes a destination coordinate with wildcards", function()
    local w = row_world()
    local to_2 = w.grid:exits{ to = { 2, 0, "row" } }
    assert.same({ "east", "west" }, (function() local n = { to_2[1].name, to_2[2].name } table.sort(n) return n end)())
    assert.equal(8 + 2, #w.grid:exits{ to = { "*", "*", "*" } })
    assert.equal(2, #w.grid:exits{ to = { "*", "*", "mine" } })
    assert.equal(1, #w.grid:exits{ from = w.grid:room(0, 0, "row"), to = { "*", 0, "row" } })
    assert.equal(0, #w.grid:exits{ to = { 9, 9, "row" } })
    assert.error_matches(function() w.grid:exits{ to = { 1, 0 } } end,
      "world.grid:exits: to must be a room of this world, \"%*\" or { x, y, z }")
  end)
end)

describe("auto-walk by name", function()
  -- "`goto <room>` / `path <room>` (CmdGoto): shortest path on the caller's map to a room
  --  found by name"
  it("world:walk(actor, name) walks to the nearest room of that name on the actor's grid", function()
    local w = row_world()
    local hero = w:create_actor{ room = w.grid:room(1, 0, "row") }
    w:walk(hero, "The South Gate")
    w:advance(5)
    assert.same({ 0, 0, "row" }, { hero.room.x, hero.room.y, hero.room.z })
  end)

  it("says which rooms it could mean when two are as near, and when none has the name", function()
    local w = row_world()
    local hero = w:create_actor{ room = w.grid:room(2, 0, "row") }
    assert.error_matches(function() w:walk(hero, "Tunnel") end,
      "world:walk: 'Tunnel' is ambiguous: %(1,0,row%), %(3,0,row%) are as near")
    assert.error_matches(function() w:walk(hero, "Tunel") end, "world:walk: no room named 'Tunel' on the grid")
    assert.equal(w.grid:room(2, 0, "row").uid, hero.room.uid)
  end)
end)

describe("teleporting to a coordinate", function()
  -- "`teleport (X,Y[,Z])` ... coordinate targets." / "Once you are in a grid-room, you can
  --  teleport to another grid room _on the same map_ without specifying the Z coordinate"
  it("world.grid:teleport(actor, x, y [, z]) moves with the checks and events of an arrival", function()
    local w = row_world()
    local hero = w:create_actor{ room = w.grid:room(0, 0, "row") }
    local seen = {}
    mods.register_event(support.registry(w), "spec", "base.before_move", "spec: gate", function(_, p)
      seen[#seen + 1] = "before " .. p.to.name
      if p.to.name == "Square" then return false end
    end)
    mods.register_event(support.registry(w), "spec", "base.moved", "spec: log", function(_, p)
      seen[#seen + 1] = "moved " .. p.to.name
    end)
    assert.is_true(w.grid:teleport(hero, 3, 0))
    assert.same({ 3, 0, "row" }, { hero.room.x, hero.room.y, hero.room.z })
    assert.is_true(w.grid:teleport(hero, 1, 0, "mine"))
    assert.same({ 1, 0, "mine" }, { hero.room.x, hero.room.y, hero.room.z })
    assert.same({ nil, "the move was refused" }, { w.grid:teleport(hero, 2, 0, "row") })
    assert.same({ 1, 0, "mine" }, { hero.room.x, hero.room.y, hero.room.z })
    assert.same({ "before Tunnel", "moved Tunnel", "before Tunnel", "moved Tunnel", "before Square" }, seen)
    assert.same({ nil, "no grid room at (7, 7, mine)" }, { w.grid:teleport(hero, 7, 7) })
    assert.error_matches(function() w.grid:teleport(hero, "a", 0) end, "world.grid:teleport: x and y must be integers")
    local drifter = w:create_actor{}
    assert.error_matches(function() w.grid:teleport(drifter, 0, 0) end,
      "world.grid:teleport: actor#%d+ is in no grid room: give a z")
  end)
end)

describe("one owner of where grid rooms stand", function()
  it("world.grid:room asks the core: a rollback that made and undid rooms leaves no stale answer", function()
    local w = row_world()
    local before = w.grid:room(0, 0, "row").uid
    local ok = w:_atomic(function()
      w.grid:delete("row")
      w.grid:add("row.row")
      w.grid:spawn()
      assert.is_not_nil(w.grid:room(0, 0, "row"))
      error("undo")
    end)
    assert.is_false(ok)
    local r = w.grid:room(0, 0, "row")
    assert.is_not_nil(r)
    assert.equal(before, r.uid)
  end)
end)

-- A world with the grid map "row" whose room at (2, 0) takes the prototype
-- world.tower, which no mod defines: its mod path and folder too.
local function towered()
  local dir = support.tempdir()
  support.write(dir .. "/tw/mod.lua", 'return { id = "tw", version = "0.1.0", requires = { base = "^0.1" } }')
  support.write(dir .. "/tw/init.lua", ([[
data:add{ _type = "base.grid_map", _id = "row", z = "row", map = %q, prototypes = { ["2,0"] = "world.tower" } }
]]):format(ROW))
  local path = { "mods", dir }
  local w = strata.world.new{ seed = 1, mods = { "base", "tw" }, mod_path = path }
  w.grid:add("tw.row")
  return w, path, dir
end

describe("prototypes stored in the world", function()
  -- "also make use of in-game (db-) created prototypes, add `XYZGRID_USE_DB_PROTOTYPES = True`"

  it("world.grid:add_prototype adds an entry the next spawn uses, saved with the world", function()
    local w, path, dir = towered()
    assert.error_matches(function() w.grid:spawn() end, "unknown base.prototype 'world.tower'")
    assert.equal("world.tower", w.grid:add_prototype{ _id = "tower", key = "The Tower", desc = "Tall.",
      parent = "base.xyz_room", props = { height = 3 } })
    w.grid:spawn()
    local r = w.grid:room(2, 0, "row")
    assert.same({ "The Tower", "Tall.", 3 }, { r.name, r.desc, r.props.height })
    w.grid:add_prototype{ _id = "tower", key = "The Old Tower" }
    w.grid:spawn()
    assert.equal("The Old Tower", w.grid:room(2, 0, "row").name)
    w:save(dir .. "/w.db")
    local again = strata.world.open(dir .. "/w.db", { mod_path = path })
    assert.equal("The Old Tower", again.grid:room(2, 0, "row").name)
    again.grid:add_prototype{ _id = "tower", key = "The New Tower" }
    assert.same({ created = { rooms = 0, exits = 0 }, updated = { rooms = 1, exits = 0 }, deleted = { rooms = 0, exits = 0 } },
      again.grid:spawn())
    assert.equal("The New Tower", again.grid:room(2, 0, "row").name)
  end)

  it("checks an entry as the mods' prototypes are checked: unknown keys name the nearest known ones", function()
    local w = towered()
    assert.error_matches(function() w.grid:add_prototype{ _id = "t", kye = "x" } end,
      "world.grid:add_prototype 'world.t': unknown field 'kye' %(nearest known: key")
    assert.error_matches(function() w.grid:add_prototype{ _id = "t", key = 3 } end,
      "world.grid:add_prototype 'world.t': field 'key'")
    assert.error_matches(function() w.grid:add_prototype{ _id = "t", props = { f = print } } end,
      "world.grid:add_prototype 'world.t': .*function")
    assert.error_matches(function() w.grid:add_prototype{ _id = "t", parent = "base.xyz_rom" } end,
      "unknown base.prototype 'base.xyz_rom' %(nearest known: base.xyz_room")
    assert.error_matches(function() w.grid:add_prototype{ _id = "a.b" } end,
      "world.grid:add_prototype: _id must be a non%-empty string without dots")
    assert.error_matches(function() w.grid:add_prototype("x") end, "world.grid:add_prototype: expected a table")
  end)

  it("a damaged stored entry is one clear error when the world is opened", function()
    local w, path, dir = towered()
    support.state(w):grid_set_prototype{ _id = "world.bad", key = 3 } -- (as another program might have written it)
    w:save(dir .. "/w.db")
    local ok, err = pcall(strata.world.open, dir .. "/w.db", { mod_path = path })
    assert.is_false(ok)
    assert.matches("cannot open '.*w.db': grid prototype 'world.bad': field 'key'", err)
    assert.is_nil(err:find("\n"))
  end)
end)

describe("grid defects a new user found", function()

  it("refuses a replaced prototype that closes a parent cycle, naming it; a saved cycle is refused at open", function()
    local w, path, dir = towered()
    w.grid:add_prototype{ _id = "pa", key = "A" }
    w.grid:add_prototype{ _id = "pb", parent = "world.pa", key = "B" }
    w.grid:add_prototype{ _id = "tower", parent = "world.pb" }
    assert.error_matches(function() w.grid:add_prototype{ _id = "pa", parent = "world.pb", key = "A2" } end,
      "world.grid:add_prototype 'world.pa': prototype parents go round in a circle: world.pa → world.pb → world.pa", nil, true)
    assert.equal("B", w.grid:spawn() and w.grid:room(2, 0, "row").name)
    support.state(w):grid_set_prototype{ _id = "world.pa", parent = "world.pb" } -- (a damaged file)
    w:save(dir .. "/w.db")
    local ok, err = pcall(strata.world.open, dir .. "/w.db", { mod_path = path })
    assert.is_false(ok)
    assert.matches("cannot open '.*w.db': grid prototype 'world.pa': prototype parents go round in a circle", err)
  end)

  it("names the function called once when a prototype's check is stopped", function()
    local w = towered()
    local big = {}
    for i = 1, 2000000 do big[i] = i end
    -- (the check may finish on a fast machine: only a stopped one is judged)
    local ok, err = pcall(w.grid.add_prototype, w.grid, { _id = "c3", props = { big = big } })
    local _, n = tostring(err):gsub("world.grid:add_prototype", "")
    if not ok then assert.equal(1, n, tostring(err)) end
  end)

  it("quotes a name it cannot find cut and with its control characters escaped", function()
    local w = row_world()
    local hero = w:create_actor{ room = w.grid:room(0, 0, "row") }
    local ok, err = pcall(w.walk, w, hero, string.rep("N", 100 * 1024))
    assert.is_false(ok)
    assert.is_true(#err < 400, #err)
    ok, err = pcall(w.walk, w, hero, "Ga\27[2Jte")
    assert.is_false(ok)
    assert.is_nil(err:find("\27", 1, true))
    assert.matches("no room named 'Ga\\27[2Jte' on the grid", err, 1, true)
  end)

  -- "`teleport (X,Y[,Z])` ... This will teleport you onto the grid."
  it("world.grid:teleport refuses what is no actor and an actor on a tile map, as every room move does", function()
    local w = row_world()
    local tm = w:create_map{ width = 3, height = 3, fill = "floor" }
    local tact = w:create_actor{ map = tm, x = 1, y = 1 }
    assert.error_matches(function() w.grid:teleport(tact, 0, 0, "row") end,
      "world.grid:teleport: actor#%d+ stands on map#%d+ at %(1, 1%): take it off its tile map before moving it into a room")
    assert.is_nil(tact.room)
    assert.equal(1, #tm:objects("actor"))
    local thing = w:create_object{ kind = "thing" }
    assert.error_matches(function() w.grid:teleport(thing, 0, 0, "row") end,
      "world.grid:teleport: expected a live actor, got thing#%d+")
  end)
end)
