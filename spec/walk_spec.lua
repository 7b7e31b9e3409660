-- Actors moving on tile maps: world:move (refused onto walls, by handlers) and
-- world:walk, a stored plan stepped by world time that survives a save.
local strata = require "strata"

local setup = require("support").walk_world

describe("moving on a tile map", function()
  it("world:move goes to passable cells of the actor's map, and says why not", function()
    local w, _, hero = setup()
    assert.is_true(w:move(hero, 1, 1))
    assert.same({ 1, 1 }, { hero.x, hero.y })
    assert.same({ nil, "the way is blocked" }, { w:move(hero, 4, 1) })
    assert.same({ nil, "the way is off the map" }, { w:move(hero, 9, 1) })
    assert.same({ 1, 1 }, { hero.x, hero.y })
    assert.error_matches(function() w:move(hero, 1.5, 1) end, "world:move: x and y must be integers")
  end)

  it("world:walk steps along the route by world time, to the end", function()
    local w, _, hero = setup()
    local plan = w:walk(hero, { 7, 0 }, { step_every = 2 })
    assert.equal("walking", plan.state)
    w:advance(1)
    assert.same({ 0, 0 }, { hero.x, hero.y })       -- the first step comes step_every after
    w:advance(1)
    assert.same({ 1, 1 }, { hero.x, hero.y })
    w:advance(100)
    assert.same({ 7, 0 }, { hero.x, hero.y })
    assert.equal("arrived", plan.state)
  end)

  it("a walk is blocked when the way closes, cancelled for good, and resumes after a save", function()
    local w, m, hero = setup()
    local plan = w:walk(hero, { 7, 0 })
    w:advance(2)
    m:fill(4, 0, 1, 3, "wall")                      -- the way is gone
    w:advance(5)
    assert.equal("blocked", plan.state)
    m:fill(4, 0, 1, 3, "floor")
    plan = w:walk(hero, { 7, 0 })
    assert.is_true(plan:cancel())
    w:advance(10)
    assert.equal("cancelled", plan.state)
    plan = w:walk(hero, { 7, 2 })
    w:advance(1)
    local path = os.tmpname()
    w:save(path)
    local again = strata.world.open(path)
    os.remove(path)
    again:advance(20)
    local h2 = again:player()
    assert.same({ 7, 2 }, { h2.x, h2.y })
  end)
end)
