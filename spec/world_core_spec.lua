-- The world state userdata (strata.core.world_state) without the runtime on
-- top: the world's token table and savepoints.
local core = require "strata.core"

describe("world_state tokens", function()
  it("is one table shared by the world's maps", function()
    local s = core.world_state.new(1)
    local a, b = s:create_map(3, 2), s:create_map(2, 2, "base.cave")
    local t = s:tokens()
    assert.equal("userdata", type(t))
    t:define("wall", { passable = false, glyph = "#" })
    local ma, mb = s:tilemap(a), s:tilemap(b)
    ma:set(1, 1, "wall")
    mb:set(0, 0, "wall")
    assert.is_false(ma:passable(1, 1))
    assert.is_false(mb:passable(0, 0))
    assert.equal("#", ma:render():sub(6, 6))
  end)

  it("a map's own definitions stay its own, whichever view makes them", function()
    local s = core.world_state.new(1)
    local a, b = s:create_map(2, 1), s:create_map(2, 1)
    s:tilemap(a):define_token("mud", { cost = 3 })
    s:tilemap(a):define_token("lava", { passable = false })
    local ma = s:tilemap(a)
    ma:set(0, 0, "mud")
    ma:set(1, 0, "lava")
    assert.equal(3, ma:cost(0, 0)) -- the second view kept the first's private table
    assert.is_false(ma:passable(1, 0))
    local mb = s:tilemap(b)
    mb:set(0, 0, "mud")
    assert.equal(1, mb:cost(0, 0))
  end)
end)
