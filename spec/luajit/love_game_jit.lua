-- The LÖVE example's game (examples/love/game.lua) under plain LuaJIT: its
-- floors from a layout, the ghoul closing in on its turns, the stairs, a
-- save that Lua 5.4 and `strata play` open where it was made, and load.
-- (LÖVE itself draws it under xvfb-run in CTest's love/example.)
local support = require "support"
local js = require "jit_support"
package.path = js.root .. "/examples/love/?.lua;" .. package.path
local game = require "game"

local MODS = js.root .. "/examples/love/mods"

-- The ghoul on the hero's floor.
local function ghoul_of(g)
  for _, a in ipairs(g:hero().map:objects("actor")) do
    if a.archetype == "love.ghoul" then return a end
  end
end

local function apart(a, b) return math.max(math.abs(a.x - b.x), math.abs(a.y - b.y)) end

describe("the LÖVE example's game (LuaJIT)", function()
  it("makes two floors from the layout, with stairs between them and a ghoul on each", function()
    local g = game.new(7, "unused.db")
    local hero = g:hero()
    assert.equal(1, hero.map.floor)
    assert.equal(game.width, hero.map.width)
    assert.is_true(hero.map:passable(hero.x, hero.y))
    assert.truthy(game.stairs_at(hero.map, nil, nil, 1))
    assert.truthy(ghoul_of(g))
    local fov, seen = g:sight()
    assert.equal("hero", (g:cell(hero.x, hero.y, fov, seen)))
    assert.is_true(fov:count() > 1)
  end)

  it("has the ghoul close in while the hero waits in place, a step down his distance map each turn", function()
    local g = game.new(7, "unused.db")
    local hero, ghoul = g:hero(), ghoul_of(g)
    local function cost() return hero.map:distance_map({ hero }, { connectivity = 8 }):at(ghoul.x, ghoul.y) end
    assert.is_true(apart(hero, ghoul) > 2)
    local turns = 0
    while apart(hero, ghoul) > 1 do
      local before = cost()
      assert.same({}, g.world:advance(1))         -- a turn: the ghoul's step
      assert.is_true(cost() < before)
      turns = turns + 1
      assert.is_true(turns < game.width * game.height)
    end
  end)

  it("saves on the second floor; Lua 5.4 and strata play open it there; load goes on", function()
    local dir = support.tempdir()
    local g = game.new(7, dir .. "/crypt.db")
    assert.is_true(g:key("g"))
    assert.is_true(g:key(">"))
    local hero = g:hero()
    assert.equal(2, hero.map.floor)
    assert.truthy(g:key("s"))
    local where = ("%d %d %d %g"):format(hero.map.floor, hero.x, hero.y, g.world.time)
    assert.equal(where .. "\n", js.lua54(([[
      local w = require("strata").world.open(%q, { mod_path = { %q } })
      local hero = w:player()
      print(("%%d %%d %%d %%g"):format(hero.map.floor, hero.x, hero.y, w.time))
    ]]):format(dir .. "/crypt.db", MODS)))
    support.write(dir .. "/keys.txt", "q")
    local out, code = support.sh(("%s/strata play %s --mod-path %s --script %s"):format(js.build,
      support.q(dir .. "/crypt.db"), support.q(MODS), support.q(dir .. "/keys.txt")))
    assert.equal(0, code, out)
    assert.matches(("love.crypt | floor 2 | (%d, %d) |"):format(hero.x, hero.y), out, 1, true)
    local again = assert(game.load(dir .. "/crypt.db"))
    assert.equal(2, again:hero().map.floor)
    assert.same({ hero.x, hero.y }, { again:hero().x, again:hero().y })
    assert.is_true(again:key("g"))
    assert.is_true(again:key("<"))
    assert.equal(1, again:hero().map.floor)
    local none, why = game.load(dir .. "/missing.db")
    assert.is_nil(none)
    assert.matches("^strata.world.open: ", why)
  end)
end)
