-- The layouts strata ships (mods/examples/layouts.lua, base.layout entries
-- examples.*) and the commands that show them out of the box: `strata layout`
-- and `strata render` load base and examples when no --mods is given, from any
-- folder; `strata layout --list` names what there is; `strata render WORLD
-- --grid MAP` draws an XY map of a grid world (docs/layouts.md, docs/grid.md).
local support = require "support"
local strata = require "strata"

local src = os.getenv("STRATA_SOURCE_DIR") or "."
local bin = os.getenv("STRATA_BIN") or (src .. "/build/strata")
local q = support.q
local SHIPPED = { "examples.cave", "examples.dungeon", "examples.fort" }

-- `strata ARGS` run in dir (a temporary folder: no mods/ beside it); output and status.
local function strata_in(dir, args)
  return support.sh(("cd %s && NO_COLOR=1 %s %s"):format(q(dir), q(bin), args))
end

-- `strata ARGS` run in dir, refused: exit 1 and one line `strata: CMD: ...` matching pattern.
local function refused(dir, args, pattern)
  local out, code = strata_in(dir, args)
  return support.refused_line(args:match("^%S+"), out, code, pattern, args)
end

-- The cells of a map that hold token, as { x, y } points.
local function cells_of(m, token)
  local out = {}
  for y = 0, m.height - 1 do
    for x = 0, m.width - 1 do
      if m:has(x, y, token) then out[#out + 1] = { x, y } end
    end
  end
  return out
end

-- A fresh world of strata's own mods (found without a mod path) and one shipped layout run on it.
local function generated(id, seed)
  local world = strata.world.new{ seed = 1, mods = { "base", "examples" } }
  local size = world.data["base.layout"]:get(id).size
  local m = world:create_map{ width = size[1], height = size[2] }
  assert(strata.layout.generate(id, m, { seed = seed, attempts = 20 }))
  return m
end

describe("the shipped layouts", function()
  it("are base.layout entries of the examples mod", function()
    local world = strata.world.new{ seed = 1, mods = { "base", "examples" } }
    for _, id in ipairs(SHIPPED) do
      assert.is_table(world.data["base.layout"]:get(id), id)
    end
  end)

  for _, id in ipairs(SHIPPED) do
    it(id .. " generates the same map twice with one seed, its stairs joined", function()
      for _, seed in ipairs{ 1, 7 } do
        local a, b = generated(id, seed), generated(id, seed)
        assert.same(support.token_rows(a), support.token_rows(b))
        local up, down = cells_of(a, "stairs_up"), cells_of(a, "stairs_down")
        assert.equal(1, #up, id .. ": one way up")
        assert.equal(1, #down, id .. ": one way down")
        assert.truthy(a:find_path(up[1], down[1]), id .. ": the stairs are joined")
      end
    end)
  end
end)

describe("strata layout and strata render from any folder", function()
  local dir
  before_each(function() dir = support.tempdir() end)
  after_each(function() os.execute("rm -rf " .. q(dir)) end)

  it("strata layout ID previews a shipped layout, the same text on each run", function()
    for _, id in ipairs(SHIPPED) do
      local out, code = strata_in(dir, "layout " .. id .. " --seed 3")
      assert.equal(0, code, out)
      local again = strata_in(dir, "layout " .. id .. " --seed 3")
      assert.equal(out, again)
      local world = strata.world.new{ seed = 1, mods = { "base", "examples" } }
      local size = world.data["base.layout"]:get(id).size
      local first = out:match("^[^\n]*")
      assert.equal(size[1], #first, id)
      assert.matches("<", out)
      assert.matches(">", out)
    end
  end)

  it("strata layout --list names the layouts of the mods loaded, with their sizes", function()
    local out, code = strata_in(dir, "layout --list")
    assert.equal(0, code, out)
    for _, id in ipairs(SHIPPED) do assert.matches("\n?" .. id:gsub("%.", "%%.") .. "  %d+x%d+\n", out) end
    -- --mods replaces the default: base alone has no layouts
    out, code = strata_in(dir, "layout --list --mods base")
    assert.equal(0, code, out)
    assert.equal("", out)
  end)

  it("strata render ID draws a shipped layout", function()
    local out, code = strata_in(dir, "render examples.cave --svg cave.svg")
    assert.equal(0, code, out)
    assert.matches("^<%?xml[^\n]*\n<svg ", support.read(dir .. "/cave.svg"))
  end)

  it("an unknown ID is refused naming the nearest shipped one", function()
    refused(dir, "layout examples.cav", "no file or base%.layout named 'examples%.cav' %(nearest known: examples%.cave")
    refused(dir, "render examples.cav --svg x.svg", "nearest known: examples%.cave")
  end)
end)

describe("strata render --grid", function()
  local dir
  -- A world file with one small grid map, of a mod written here.
  setup(function()
    dir = support.tempdir()
    support.write(dir .. "/mods/yard/mod.lua", 'return { id = "yard", version = "0.1.0", requires = { base = "^0.1" } }\n')
    support.write(dir .. "/mods/yard/init.lua", [=[
data:add{ _type = "base.grid_map", _id = "court", z = "court", map = [[
+ 0 1 2

2 #-#
  | |
1 #-#-#
   \  |
0   #-#

+ 0 1 2
]] }
]=])
    local world = strata.world.new{ seed = 1, mods = { "base", "yard" }, mod_path = { dir .. "/mods" } }
    world.grid:add("yard.court")
    world:save(dir .. "/g.db")
  end)
  teardown(function() os.execute("rm -rf " .. q(dir)) end)

  it("prints the map as players see it, by Z or by ID", function()
    local want = "#-#  \n| |  \n#-#-#\n \\  |\n  #-#\n"
    for _, map in ipairs{ "court", "yard.court" } do
      local out, code = strata_in(dir, "render g.db --mod-path mods --grid " .. map)
      assert.equal(0, code, out)
      assert.equal(want, out)
    end
  end)

  it("draws it as SVG with --svg", function()
    local out, code = strata_in(dir, "render g.db --mod-path mods --grid court --svg court.svg --cell 4")
    assert.equal(0, code, out)
    assert.equal(0, #out)
    assert.matches("^<%?xml[^\n]*\n<svg [^\n]*width=\"20\" height=\"20\"", support.read(dir .. "/court.svg"))
    -- --path: the route between two nodes, drawn over the map
    local plain = support.read(dir .. "/court.svg")
    out, code = strata_in(dir, "render g.db --mod-path mods --grid court --svg court.svg --cell 4 --path 0,2,2,0")
    assert.equal(0, code, out)
    assert.not_equal(plain, support.read(dir .. "/court.svg"))
    refused(dir, "render g.db --mod-path mods --grid court --svg court.svg --path 0,0,2,0", "%-%-path: no node at %(0, 0%)")
  end)

  it("refuses an unknown map naming the nearest known, a PNG and a world of no grid maps", function()
    refused(dir, "render g.db --mod-path mods --grid cout", "g%.db has no grid map 'cout' %(nearest known: court")
    refused(dir, "render g.db --mod-path mods --grid court --png x.png", "%-%-grid draws text or %-%-svg, not %-%-png")
    refused(dir, "render g.db --mod-path mods --grid court --path 0,2,2,0", "%-%-path with %-%-grid is drawn with %-%-svg")
    local _, tile = support.map_file(4, 3)
    refused(dir, "render " .. q(tile) .. " --grid court", "has no grid maps")
    refused(dir, "render examples.cave --grid court", "%-%-grid needs a WORLD_FILE")
  end)
end)
