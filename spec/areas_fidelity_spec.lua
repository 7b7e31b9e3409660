-- Map archetypes as the reference describes them (docs/areas.md, "Differences
-- from the reference"): on_spawn runs periodically by how crowded the map is,
-- and a renewal regenerates the map's geometry from its generator.
local support = require "support"

local new_world = support.new_world

local function count(map, kind, tag)
  local n = 0
  for _, o in ipairs(map:objects(kind)) do if not tag or o:has_tag(tag) then n = n + 1 end end
  return n
end

local function positions(map)
  local out = {}
  for _, o in ipairs(map:objects("actor")) do
    if o:has_tag("putit") then out[#out + 1] = o.x .. "," .. o.y end
  end
  return table.concat(out, " ")
end

describe("map archetypes, as the reference describes them", function()
  -- "on_spawn handles spawning in new critters at periodic intervals, based on how crowded the map is."
  it("on_spawn runs every spawn.every while fewer than spawn.max actors are on the map", function()
    local w = new_world()
    local nest = w:create_area("dungeon.nest")
    local m = nest:floor(1)
    assert.equal(1, count(m, "actor", "putit"))          -- once at generation, as before
    w:advance(50)
    assert.equal(1, count(m, "actor", "putit"))          -- nobody there: no timer runs
    local hero = w:create_actor{ player = true }
    w:travel(hero, m)
    w:advance(9)
    assert.equal(1, count(m, "actor", "putit"))
    w:advance(1)                                          -- 2 actors < 3: one more
    assert.equal(2, count(m, "actor", "putit"))
    w:advance(100)                                        -- 3 actors: crowded, no more
    assert.equal(2, count(m, "actor", "putit"))
    m:objects("actor")[1]:delete()
    local left = count(m, "actor")
    w:advance(10)
    assert.equal(left + 1, count(m, "actor"))
  end)

  it("spawns the same critters in the same cells after a save and load", function()
    local function run(save)
      local w = new_world(7)
      local m = w:create_area("dungeon.nest"):floor(1)
      local hero = w:create_actor{ player = true }
      w:travel(hero, m)
      if save then
        local path = os.tmpname()
        w:save(path)
        w = require("strata").world.open(path, { mods = { "base", "dungeon" }, mod_path = support.mod_path })
        os.remove(path)
        m = w:current_map()
      end
      w:advance(10)
      return positions(m)
    end
    assert.equal(run(false), run(true))
  end)

  it("checks the spawn fields like the others", function()
    -- the base types as the base mod declares them, in a registry of their own
    local reg = require("strata.data").new()
    for id, t in pairs(support.registry(new_world()).types) do
      reg.types[id] = t
      reg.by_type[id] = {}
    end
    local ok, err = pcall(reg.add, reg, "spec", { _type = "base.map_archetype", _id = "y",
      spawn = { evry = 10 } })
    assert.is_false(ok)
    assert.matches("unknown key 'spawn.evry' %(nearest known: every", err)
    ok, err = pcall(reg.add, reg, "spec", { _type = "base.map_archetype", _id = "z",
      renew = { keep = { actor = true } } })
    assert.is_false(ok)
    assert.matches("unknown key 'renew.keep.actor' %(nearest known: actors", err)
  end)

  -- "'Renewed' is the proper term for what happens when a map's geometry should be completely
  -- regenerated from scratch. This is what allows for resetting all the walls you dug through
  -- in Vernis while still preserving the levels of shopkeepers you painstakingly increased"
  it("on_renew regenerates the geometry from the generator, keeping actors and tagged objects", function()
    local w = new_world()
    local town = w:create_area("dungeon.town_area")
    local m = town:floor(1)
    local hero = w:create_actor{ player = true }
    w:travel(hero, m)
    m:reset(0, 0, "floor")                                -- the wall dug through
    local shop = w:create_object{ kind = "shopkeeper", map = m, x = 2, y = 2, tags = { "shop" },
      props = { level = 9 } }
    local junk = w:create_object{ kind = "junk", map = m, x = 3, y = 3 }
    local sign = m:objects("sign")[1]
    w:advance(100)
    assert.equal("rock", m:top(0, 0))                     -- the wall is back
    assert.equal(m, w:current_map())                      -- the same map
    assert.same({ "renew 1" }, m.props.log)
    assert.is_true(hero:alive()); assert.equal(m, hero.map)
    assert.is_true(shop:alive()); assert.equal(9, shop.props.level); assert.equal(m, shop.map)
    assert.is_false(junk:alive())
    assert.is_false(sign:alive())                         -- the old geometry's objects go ...
    assert.equal(1, count(m, "sign"))                     -- ... and the new one's come
    assert.equal(m, town:floor(1))
  end)

  it("keeps what the archetype says: keep.actors = false drops all but the player", function()
    local w = new_world()
    local m = w:create_area("dungeon.ruin"):floor(1)
    local hero = w:create_actor{ player = true }
    w:travel(hero, m)
    local rat = w:create_actor{ map = m, x = 4, y = 4 }
    w:advance(100)
    assert.is_false(rat:alive())
    assert.equal(m, hero.map)
  end)

  -- "you might not want to allow renewal of that map, because there's no initial template"
  it("regenerate = false keeps the geometry and runs on_renew only", function()
    local w = new_world()
    local m = w:create_area("dungeon.camp"):floor(1)
    w:travel(w:create_actor{ player = true }, m)
    m:reset(0, 0, "floor")
    w:advance(100)
    assert.equal("floor", m:top(0, 0))
    assert.same({ "renew" }, m.props.log)
  end)

  it("a generator that fails on renew leaves the map as it was", function()
    local w = new_world()
    local m = w:create_area("dungeon.town_area"):floor(1)
    local hero = w:create_actor{ player = true }
    w:travel(hero, m)
    m:reset(0, 0, "floor")
    local sign = m:objects("sign")[1]
    w:advance(400)
    m:reset(0, 0, "floor")
    sign = m:objects("sign")[1]
    local failures = w:advance(200)                       -- due at 500: the town burns
    assert.equal(1, #failures)
    assert.matches("the town burned", failures[1].message)
    assert.equal("floor", m:top(0, 0))
    assert.is_true(sign:alive())
    assert.equal(m, hero.map)
  end)
end)
