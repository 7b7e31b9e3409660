-- Every lookup goes through a world: two worlds with different mods in one
-- process each resolve only their own IDs (archetypes, legends, layouts,
-- tokens), whichever was made last.
local strata = require "strata"

local PATH = { "mods", "spec/fixtures/mods" }
local MAP = "+ 0 1 2\n\n0 #D#-T\n\n+ 0 1 2"

describe("two worlds in one process", function()
  local crypt = strata.world.new{ seed = 1, mods = { "crypt", "legends" }, mod_path = PATH }
  local caves = strata.world.new{ seed = 1, mods = { "dungeon" }, mod_path = PATH }

  it("each resolves only its own archetypes", function()
    assert.equal("crypt.crypt", crypt:create_area("crypt.crypt").archetype)
    assert.equal("dungeon.cave", caves:create_area("dungeon.cave").archetype)
    assert.error_matches(function() caves:create_area("crypt.crypt") end, "unknown base.area_archetype 'crypt.crypt'")
    assert.error_matches(function() crypt:create_area("dungeon.cave") end, "unknown base.area_archetype 'dungeon.cave'")
    assert.is_not_nil(crypt.data["base.area_archetype"]:get("crypt.crypt"))
    assert.is_nil(caves.data["base.area_archetype"]:get("crypt.crypt"))
  end)

  it("each resolves only its own legends", function()
    local xy = strata.xymap.parse(MAP, { legend = { D = "legends.door", T = "legends.to_cave" }, world = crypt })
    assert.same({ 1, 0, "the small cave" }, xy:node(2, 0).target)
    assert.error_matches(function()
      strata.xymap.parse(MAP, { legend = { D = "legends.door" }, world = caves })
    end, "unknown base.legend 'legends.door'")
    assert.error_matches(function() strata.xymap.parse(MAP, { legend = { D = "legends.door" } }) end,
      "pass { world = w }")
  end)

  it("each resolves only its own layouts", function()
    local a = crypt:create_map{ width = 40, height = 20 }
    assert.is_true(strata.layout.generate("crypt.level", a, { seed = 3, attempts = 20 }))
    local b = caves:create_map{ width = 40, height = 20 }
    assert.error_matches(function() strata.layout.run("crypt.level", b, { seed = 3 }) end,
      "unknown base.layout 'crypt.level'")
    local plain = strata.tilemap.new{ width = 40, height = 20 }
    assert.is_true(strata.layout.generate("crypt.level", plain, { seed = 3, world = crypt, attempts = 20 }))
    assert.error_matches(function() strata.layout.run("crypt.level", plain, { seed = 3 }) end, "needs a world")
  end)

  it("each draws and walks with its own tokens", function()
    local a = crypt:create_map{ width = 3, height = 1, fill = "wall" }
    local b = caves:create_map{ width = 3, height = 1, fill = "wall" }
    assert.equal("XXX\n", a:render())                  -- the crypt mod's wall
    assert.equal("###\n", b:render())                  -- base's wall
    assert.is_false(a:passable(0, 0))
    assert.is_false(b:passable(0, 0))
    crypt:create_map{ width = 1, height = 1 }:define_token("wall", { passable = true })
    assert.is_false(a:passable(0, 0))                  -- one map's override stays on that map
    assert.same({ { token = "wall", by = "crypt.wall", replaces = "base.wall" } }, crypt:overrides())
    assert.same({}, caves:overrides())
  end)

  it("travel in the first world still works after a second world is made", function()
    local town = crypt:create_map{ width = 5, height = 5, fill = "floor" }
    local area = crypt:create_area("crypt.crypt")
    local door = crypt:create_entrance(town, 2, 2, area)
    local hero = crypt:create_actor{ map = town, x = 0, y = 0, player = true }
    strata.world.new{ seed = 9, mods = { "dungeon" }, mod_path = PATH }
    local floor1 = crypt:travel(hero, door)
    assert.equal(1, floor1.floor)
    assert.equal(area, floor1.area)
  end)
end)
