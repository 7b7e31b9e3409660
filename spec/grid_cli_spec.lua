-- `strata grid` through the strata executable, on a temporary world file:
-- every subcommand, bad arguments and a damaged file (one line on stderr,
-- exit status 1, or 2 for a mistake in the arguments; the file unchanged).
local support = require "support"

local bin = os.getenv("STRATA_BIN") or "build/strata"
local MODS = "--mod-path mods --mod-path spec/fixtures/mods"

local function run(dir, args)
  local out, code = support.sh("NO_COLOR=1 " .. support.q(bin) .. " grid " .. MODS .. " --world "
    .. support.q(dir .. "/world.db") .. " " .. args)
  return out, code
end

-- Runs a failing command: exit 1 (status: 2 for a mistake in the arguments),
-- exactly one line (on stderr), the file as it was.
local function refused(dir, args, pattern, status)
  local before = support.read(dir .. "/world.db")
  local out, code = support.sh("{ NO_COLOR=1 " .. support.q(bin) .. " grid " .. MODS .. " --world "
    .. support.q(dir .. "/world.db") .. " " .. args .. " 2>&1 1>/dev/null; }")
  assert.equal(status or 1, code, args .. ": " .. out)
  assert.matches("^strata: grid: [^\n]*\n$", out, 1)
  assert.matches(pattern, out)
  assert.equal(before, support.read(dir .. "/world.db"), args .. " changed the file")
end

describe("strata grid", function()
  it("runs every subcommand on a world file", function()
    local dir = support.tempdir()
    local out, code = run(dir, "--mods base,xyzgrid init")
    assert.equal(0, code, out)
    assert.matches("created .*world.db", out)
    out = run(dir, "init")
    assert.matches("exists already", out)
    out, code = run(dir, "add xyzgrid.map12a xyzgrid.map12b")
    assert.equal(0, code, out)
    assert.equal("added xyzgrid.map12a\nadded xyzgrid.map12b\n", out)
    out = run(dir, "list")
    assert.equal("xyzgrid.map12a  z=map12a  4 nodes  0 rooms  0 exits\nxyzgrid.map12b  z=map12b  4 nodes  0 rooms  0 exits\n", out)
    out = run(dir, "spawn")
    assert.equal("created 6 rooms, 10 exits; updated 0 rooms, 0 exits; deleted 0 rooms, 0 exits\n", out)
    out = run(dir, "spawn")
    assert.equal("created 0 rooms, 0 exits; updated 0 rooms, 0 exits; deleted 0 rooms, 0 exits\n", out)
    out = run(dir, "spawn '*' 1 map12a")
    assert.equal("created 0 rooms, 0 exits; updated 0 rooms, 0 exits; deleted 0 rooms, 0 exits\n", out)
    out = run(dir, "list")
    assert.equal("xyzgrid.map12a  z=map12a  4 nodes  3 rooms  5 exits\nxyzgrid.map12b  z=map12b  4 nodes  3 rooms  5 exits\n", out)
    out = run(dir, "show map12b")
    assert.matches("\n#%-#\n  |\n %-#\n", out)
    out = run(dir, "path 1 0 map12a 1 1 map12b")
    assert.equal("w n e n\n", out)
    out, code = run(dir, "initpath")
    assert.equal(0, code, out)
    assert.matches("xyzgrid.map12a  z=map12a  4 nodes  route %(0,0%)%->%(0,1%): 1 steps in [%d.]+ ms\n", out)
    out = run(dir, "delete --yes map12b")
    assert.equal("created 0 rooms, 0 exits; updated 0 rooms, 0 exits; deleted 3 rooms, 6 exits\n", out)
    out = run(dir, "list")
    assert.equal("xyzgrid.map12a  z=map12a  4 nodes  3 rooms  4 exits\n", out)
  end)

  it("has --help for itself and every subcommand", function()
    local out, code = support.sh(support.q(bin) .. " grid --help")
    assert.equal(0, code)
    assert.matches("usage: strata grid", out)
    for _, sub in ipairs{ "init", "add", "list", "show", "spawn", "path", "initpath", "delete" } do
      out, code = support.sh(support.q(bin) .. " grid " .. sub .. " --help")
      assert.equal(0, code, sub)
      assert.matches("usage: strata grid .*" .. sub, out)
    end
  end)

  it("refuses bad arguments with one line and leaves the file unchanged", function()
    local dir = support.tempdir()
    run(dir, "--mods base,xyzgrid init")
    run(dir, "add xyzgrid.map1")
    run(dir, "spawn")
    refused(dir, "spwn", "unknown subcommand 'spwn' %(nearest known: spawn", 2)
    refused(dir, "add xyzgrid.map_2", "nearest known: xyzgrid.map2")
    refused(dir, "add xyzgrid.map1", "already added")
    refused(dir, "add", "add: missing MAP_ID; try 'strata grid add %-%-help'", 2)
    refused(dir, "show nowhere", "no map has Z 'nowhere' %(nearest known: map1")
    refused(dir, "spawn 1 2", "spawn takes no arguments or X Y Z", 2)
    refused(dir, "spawn x 0 map1", "X must be an integer or %*, got 'x'", 2)
    refused(dir, "path 0 0 map1 1", "path: missing Y2", 2)
    refused(dir, "path 0 0 map1 9 9 map1", "no route from %(0, 0, map1%) to %(9, 9, map1%)")
    refused(dir, "delete", "delete: missing Z", 2)
    refused(dir, "--bogus list", "unknown option '%-%-bogus'", 2)
    refused(dir, "--mods base list", "unknown base.grid_map 'xyzgrid.map1'")
  end)

  it("refuses a damaged or missing world file with one line, leaving it as it was", function()
    local dir = support.tempdir()
    support.write(dir .. "/world.db", "this is not a world\n")
    for _, sub in ipairs{ "list", "spawn", "add xyzgrid.map1", "delete map1", "show map1", "initpath" } do
      refused(dir, sub, "not a strata world save")
    end
    local missing = support.tempdir()
    local out, code = support.sh(support.q(bin) .. " grid --world " .. support.q(missing .. "/none.db") .. " list")
    assert.equal(1, code)
    assert.matches("^strata: grid: .*none.db: no such world file", out)
  end)
end)

describe("strata grid for builders (issue 35)", function()
  -- "`list` / `show` ... with `Z`: spawned-room count vs node count, display, raw map string,
  --  options, legend docstrings."
  it("show gives nodes with their rooms and prototypes, links, transitions, the map's text and options", function()
    local dir = support.tempdir()
    run(dir, "--mods base,xyzgrid init")
    run(dir, "add xyzgrid.map12a xyzgrid.map12b xyzgrid.callbacks")
    run(dir, "spawn")
    local out, code = run(dir, "show map12b")
    assert.equal(0, code, out)
    assert.matches("^xyzgrid.map12b  z=map12b  4 nodes  3 rooms\n", out)
    assert.matches("\nnodes:\n.*  %(1,0%) # node  room#%d+ \"An empty room\"  prototype base.xyz_room\n", out)
    assert.matches("\n  %(0,0%) T transition\n", out)
    assert.matches("\nlinks:\n.*  %(0,1%) e %-> %(1,1%)  weight 1\n", out)
    assert.matches("\ntransitions:\n  %(0,0%) %-> %(0,1,map12a%)\n", out)
    assert.matches("\nmap:\n%+ 0 1\n\n1 #%-#\n", out)
    out = run(dir, "show callbacks")
    assert.matches("  %(0,0%) # node  room#%d+ \"room\"  prototype grid map 'xyzgrid.callbacks' prototype '%*,%*'\n", out)
    assert.matches("\noptions:\n  map_mode = scan\n  map_visual_range = 1\n$", out)
  end)

  -- "You will be asked to confirm the deletion of the grid ... If you were on a map that was
  --  deleted you will have been moved back to your home location."
  it("delete asks first (refused without --yes off a terminal) and moves what stands there home", function()
    local strata = require "strata"
    local dir = support.tempdir()
    local w = strata.world.new{ seed = 1, mods = { "base", "xyzgrid" }, mod_path = { "mods", "spec/fixtures/mods" } }
    w.grid:add("xyzgrid.map1", "xyzgrid.map12a", "xyzgrid.map12b")
    w.grid:spawn()
    local hero = w:create_actor{ room = w.grid:room(1, 1, "map1"), player = true }
    w:save(dir .. "/world.db")
    refused(dir, "delete map1 < /dev/null", "delete asks for confirmation and stdin is not a terminal: give %-%-yes")
    refused(dir, "delete --yes map1", "room#%d+ cannot be deleted: actor#%d+ stands in it: set a home room for it "
      .. "first %('strata grid home X Y Z'%)")
    local out, code = run(dir, "home 0 0 map12a")
    assert.equal(0, code, out)
    assert.matches("^home: room#%d+ \"An empty room\" at %(0, 0, map12a%)\n$", out)
    refused(dir, "--yes delete map12a", "the grid's home room#%d+ is on map 'map12a' itself")
    out, code = run(dir, "--yes delete map1")
    assert.equal(0, code, out)
    assert.equal("created 0 rooms, 0 exits; updated 0 rooms, 0 exits; deleted 4 rooms, 8 exits\n", out)
    local again = strata.world.open(dir .. "/world.db", { mod_path = { "mods", "spec/fixtures/mods" } })
    local p = again:player()
    assert.equal(hero.uid, p.uid)
    assert.same({ 0, 0, "map12a" }, { p.room.x, p.room.y, p.room.z })
    assert.equal(again.grid:room(0, 0, "map12a").uid, again.grid:home().uid)
  end)

  it("world.grid:delete moves what stands on the map to world.grid:home(), saved with the world", function()
    local strata = require "strata"
    local w = strata.world.new{ seed = 1, mods = { "base", "xyzgrid" }, mod_path = { "mods", "spec/fixtures/mods" } }
    w.grid:add("xyzgrid.map1", "xyzgrid.map2")
    w.grid:spawn()
    local hero = w:create_actor{ room = w.grid:room(1, 1, "map1") }
    assert.error_matches(function() w.grid:delete("map1") end, "cannot be deleted: actor#%d+ stands in it")
    assert.is_nil(w.grid:home())
    local home = w:create_room{ name = "Limbo" }
    w.grid:set_home(home)
    assert.error_matches(function() w.grid:set_home("x") end, "world.grid:set_home: expected a room")
    w.grid:delete("map1")
    assert.equal(home.uid, hero.room.uid)
    assert.equal(0, #w.grid:rooms{ z = "map1" })
  end)
end)

describe("strata grid show on a map it cannot finish", function()
  it("prints nothing of its output before the error", function()
    local dir = support.tempdir()
    support.write(dir .. "/mods/tw/mod.lua", 'return { id = "tw", version = "0.1.0", requires = { base = "^0.1" } }')
    support.write(dir .. "/mods/tw/init.lua", [[
data:add{ _type = "base.grid_map", _id = "row", z = "row", map = "+ 0 1\n\n0 #-#\n\n+ 0 1\n",
  prototypes = { ["0,0"] = "world.nope" } }
]])
    local cmd = "NO_COLOR=1 " .. support.q(bin) .. " grid --mod-path mods --mod-path " .. support.q(dir .. "/mods")
      .. " --world " .. support.q(dir .. "/world.db") .. " "
    local out, code = support.sh(cmd .. "--mods base,tw init")
    assert.equal(0, code, out)
    out, code = support.sh(cmd .. "add tw.row")
    assert.equal(0, code, out)
    out, code = support.sh("{ " .. cmd .. "show row 2>/dev/null; }")
    assert.equal(1, code, out)
    assert.equal("", out)
    out = support.sh("{ " .. cmd .. "show row 2>&1 1>/dev/null; }")
    assert.matches("^strata: grid: [^\n]*unknown base.prototype 'world.nope'[^\n]*\n$", out)
  end)
end)
