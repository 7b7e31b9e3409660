-- The `strata` commands refuse bad input with one line, `strata: COMMAND: message`,
-- and exit status 1: a route that does not exist, a cell off the map, a file that
-- is missing, a number out of range; a mistake in the arguments (a value that is
-- not a number, not WxH) with exit status 2 and a hint (spec/cli_conventions_spec.lua). The line never names strata's own files
-- (`.../cmd/render.lua:68:`) nor Lua's `bad argument #2 to 'find_path'`.
local support = require "support"

local bin = os.getenv("STRATA_BIN") or "build/strata"
local q = support.q

-- Runs `strata ARGS`; asserts exit 1 and exactly one line naming the command,
-- free of strata's own positions; returns that line.
local function refused(cmd, args, pattern)
  local out, code = support.sh("NO_COLOR=1 " .. q(bin) .. " " .. cmd .. " " .. args .. " </dev/null")
  return support.refused_line(cmd, out, code, pattern, cmd .. " " .. args)
end

-- The same for a mistake in the arguments: exit 2, the line ending with a hint.
local function mistake(cmd, args, pattern)
  local out, code = support.sh("NO_COLOR=1 " .. q(bin) .. " " .. cmd .. " " .. args .. " </dev/null")
  return support.usage_line(cmd, out, code, pattern, cmd .. " " .. args)
end

describe("strata render", function()
  local dir, db
  setup(function()
    -- A 10x5 map cut in two by a wall at x = 5: no route from the left to the right.
    dir, db = support.map_file(10, 5, function(m) for y = 0, 4 do m:set(5, y, "wall") end end)
  end)
  teardown(function() os.execute("rm -rf " .. q(dir)) end)

  local function render(args, pattern, check)
    return (check or refused)("render", q(db) .. " --svg " .. q(dir .. "/out.svg") .. " " .. args, pattern)
  end

  it("says there is no route, naming both ends", function()
    local out = render("--path 0,0,9,0", "")
    assert.equal("strata: render: no route from (0, 0) to (9, 0)\n", out)
    assert.is_nil(support.read(dir .. "/out.svg"))
  end)

  it("names a start or goal off the map", function()
    render("--path 0,0,99,0", "^strata: render: %-%-path: %(99, 0%) is outside the 10x5 map\n$")
    render("--path 0,7,1,1", "^strata: render: %-%-path: %(0, 7%) is outside the 10x5 map\n$")
    render("--path 1,2", "%-%-path must be X1,Y1,X2,Y2", mistake)
  end)

  it("range-checks --cell, --map, --seed and --size", function()
    render("--cell 0", "%-%-cell must be 1 to 64 pixels, got 0")
    render("--cell 100", "%-%-cell must be 1 to 64 pixels, got 100")
    render("--cell -3", "%-%-cell must be 1 to 64 pixels, got %-3")
    render("--cell x", "%-%-cell must be an integer, got 'x'", mistake)
    render("--cell 1.5", "%-%-cell must be an integer, got '1.5'", mistake)
    render("--map x", "%-%-map must be an integer of at least 1, got 'x'", mistake)
    render("--map -1", "%-%-map must be an integer of at least 1, got '%-1'", mistake)
    render("--map 999", "has no map with uid 999")
    render("--map 99999999999999999999", "%-%-map must be an integer", mistake)
    mistake("render", "base.x --seed x --svg x.svg", "%-%-seed must be an integer, got 'x'")
    mistake("render", "base.x --size 0x5 --svg x.svg", "%-%-size must be WxH")
    mistake("render", "base.x --size 70000x5 --svg x.svg", "%-%-size")
    refused("render", q(db) .. " --png " .. q(dir .. "/p.png") .. " --cell 2000",
      "%-%-cell must be 1 to 64 pixels, got 2000")
  end)

  it("names a missing file, and a missing layout ID apart from it", function()
    refused("render", "/no/such.db --svg x.svg", "'/no/such.db': [Nn]o such file")
    local out = refused("render", "/no/such.db --svg x.svg", "")
    assert.not_matches("base%.layout", out)
    refused("render", "base.nothing --svg x.svg", "no file or base%.layout named 'base%.nothing'")
    refused("render", q(dir) .. " --svg x.svg", "is a directory")
  end)
end)

describe("strata layout", function()
  it("names a missing file instead of calling it an unknown layout", function()
    local out = refused("layout", "/no/such.txt x", "'/no/such.txt': [Nn]o such file")
    assert.not_matches("base%.layout", out)
    refused("layout", "base.nothing", "no file or base%.layout named 'base%.nothing'")
  end)

  it("range-checks --attempts, --size and --seed", function()
    local src = os.getenv("STRATA_SOURCE_DIR") or "."
    local id = "crypt.level --mods crypt --mod-path " .. q(src .. "/spec/fixtures/mods")
    mistake("layout", id .. " --attempts 0", "%-%-attempts must be an integer of at least 1, got '0'")
    mistake("layout", id .. " --attempts -1", "%-%-attempts must be an integer of at least 1, got '%-1'")
    mistake("layout", id .. " --size 0x0", "%-%-size must be WxH")
    mistake("layout", id .. " --size 70000x1", "%-%-size")
    mistake("layout", id .. " --seed 1.5", "%-%-seed must be an integer, got '1.5'")
  end)
end)

describe("strata worldgen", function()
  it("range-checks its numbers", function()
    mistake("worldgen", "--dims 5x5x1 --seed x", "%-%-seed must be an integer, got 'x'")
    mistake("worldgen", "--dims 5x5x1 --room-variance 2", "%-%-room%-variance must be")
  end)
end)

describe("strata grid path", function()
  it("says which end has no node, rather than that there is no route", function()
    local dir = support.tempdir()
    local src = os.getenv("STRATA_SOURCE_DIR") or "."
    local g = "grid --mod-path " .. q(src .. "/mods") .. " --mod-path " .. q(src .. "/spec/fixtures/mods")
      .. " --world " .. q(dir .. "/w.db")
    assert.equal(0, select(2, support.sh(q(bin) .. " " .. g .. " --mods base,xyzgrid init")))
    assert.equal(0, select(2, support.sh(q(bin) .. " " .. g .. " add xyzgrid.map12a xyzgrid.map12b")))
    local function path(args, pattern)
      local out, code = support.sh(q(bin) .. " " .. g .. " path " .. args)
      assert.equal(1, code, out)
      assert.matches("^strata: grid: [^\n]*\n$", out)
      assert.matches(pattern, out)
      assert.not_matches("no route between these nodes", out)
    end
    path("1 0 map12a 5 5 map12b", "no node at %(5, 5%) on map 'map12b'")
    path("9 9 map12a 1 1 map12b", "no node at %(9, 9%) on map 'map12a'")
    path("1 0 map12a 99999999999 1 map12b", "no node at %(99999999999, 1%) on map 'map12b'")
    os.execute("rm -rf " .. q(dir))
  end)
end)

-- A save made with a mod of the user's (the README's crypt, in mods/) opened
-- without that folder: the line says which option brings it (issue 36).
describe("strata play", function()
  it("says to give a missing mod's folder with --mod-path", function()
    local src = os.getenv("STRATA_SOURCE_DIR") or "."
    local dir = support.tempdir()
    local strata = require "strata"
    local w = strata.world.new{ seed = 1, mods = { "crypt" }, mod_path = { src .. "/spec/fixtures/mods" } }
    w:create_actor{ map = w:create_map{ width = 3, height = 1, fill = "floor" }, x = 0, y = 0, player = true }
    w:save(dir .. "/crypt.db")
    refused("play", q(dir .. "/crypt.db") .. " --script /dev/null",
      "^strata: play: mod 'crypt' not found in [^\n]* %(give the folder it is in with %-%-mod%-path DIR%)\n$")
    os.execute("rm -rf " .. q(dir))
  end)
end)
