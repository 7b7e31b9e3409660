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

-- A mod of renewals that go wrong: the generator (second call on) and on_renew
-- do what `mode` says. Written to a directory of its own for each world.
local renew_mod = [[
for _, mode in ipairs{ "ok", "home", "own", "killp", "killp_renew", "kill_npc" } do
  data:add{ _type = "base.area_generator", _id = "g_" .. mode, generate_floor = function(area, floor, ctx)
    local rec = ctx.world:object(area.uid)
    local again = rec.props.made
    rec.props.made = true
    if again then
      if mode == "home" then return ctx.world:object(area.params.home) end
      if mode == "own" then return ctx.world:player().map end
      if mode == "killp" then ctx.world:player():delete() end
    end
    local m = ctx.world:create_map{ width = 6, height = 4, fill = "floor", archetype = "rn.m_" .. mode }
    if again then m:set(0, 0, "wall") end
    return m
  end }
  data:add{ _type = "base.map_archetype", _id = "m_" .. mode, renew = { renew_every = 10 },
    on_renew = function(map, ctx)
      map.props.renewed = (map.props.renewed or 0) + 1
      if mode == "killp_renew" then ctx.world:player():delete() end
      if mode == "kill_npc" then map:objects("actor")[2]:delete() end
    end }
  data:add{ _type = "base.area_archetype", _id = "a_" .. mode, generator = "rn.g_" .. mode }
end
]]

-- A new world of base and a mod `id` whose init.lua is init.
local function mod_world(id, init)
  local dir = support.tempdir()
  support.write(dir .. "/" .. id .. "/mod.lua", ('return { id = %q, version = "0.1.0", requires = { base = "^0.1" } }'):format(id))
  support.write(dir .. "/" .. id .. "/init.lua", init)
  local w = require("strata").world.new{ seed = 3, mods = { "base", id }, mod_path = { "mods", dir } }
  os.execute("rm -rf " .. support.q(dir))
  return w
end

local function renew_world(mode)
  local w = mod_world("rn", renew_mod)
  local home = w:create_map{ width = 6, height = 4, fill = "floor" }
  local hero = w:create_actor{ map = home, x = 1, y = 1, player = true }
  local npc = w:create_actor{ map = home, x = 2, y = 2 }
  local area = w:create_area("rn.a_" .. mode, { params = { home = home.uid } })
  local m = w:travel(hero, area:floor(1), { x = 1, y = 1 })
  local guard = w:create_actor{ map = m, x = 3, y = 3 }
  return w, { home = home, hero = hero, npc = npc, area = area, map = m, guard = guard }
end

-- What a refused renewal must leave as it was.
local function assert_unrenewed(w, t)
  assert.is_true(t.home:alive()); assert.is_true(t.npc:alive()); assert.equal(t.home, t.npc.map)
  assert.is_true(t.map:alive()); assert.equal(t.map, t.area:floor(1)); assert.is_true(t.area:has_floor(1))
  assert.is_true(t.hero:alive()); assert.equal(t.map, t.hero.map); assert.equal(t.map, w:current_map())
  assert.is_true(t.guard:alive())
  assert.equal("floor", t.map:top(0, 0))
  assert.is_nil(t.map.props.renewed)
end

-- Renews the world of mode: one failure, its message matching pattern(t), and nothing changed.
local function assert_refused(mode, pattern)
  local w, t = renew_world(mode)
  local f = w:advance(15)
  assert.equal(1, #f)
  assert.matches(pattern(t), f[1].message)
  assert_unrenewed(w, t)
  return t
end

describe("a renewal that goes wrong changes nothing", function()
  it("renews as the generator says (the control)", function()
    local w, t = renew_world("ok")
    assert.same({}, w:advance(15))
    assert.equal("wall", t.map:top(0, 0)); assert.equal(1, t.map.props.renewed)
    assert.is_true(t.hero:alive()); assert.is_true(t.guard:alive())
  end)

  it("a generator returning an existing map (not one it made) is refused", function()
    assert_refused("home", function(t)
      return "renewing map#%d+ %(floor 1 of area#%d+%): area generator 'rn.g_home' returned map#"
        .. t.home.uid .. ", a map made before the renewal: it must make a new one"
    end)
  end)

  it("a generator returning the floor's own map is refused", function()
    assert_refused("own", function(t)
      return "area generator 'rn.g_own' returned map#" .. t.map.uid .. ", a map made before the renewal"
    end)
  end)

  it("a generator deleting the player is refused: the player is kept", function()
    assert_refused("killp", function(t)
      return "renewing map#%d+ %(floor 1 of area#%d+%): area generator 'rn.g_killp' deleted actor#"
        .. t.hero.uid .. ", which the renewal keeps"
    end)
  end)

  it("on_renew deleting the player or a kept actor is refused, the new geometry undone too", function()
    for _, mode in ipairs{ "killp_renew", "kill_npc" } do
      assert_refused(mode, function(t)
        local gone = mode == "killp_renew" and t.hero or t.guard
        return "renewing map#%d+: on_renew of map archetype 'rn.m_" .. mode .. "' deleted actor#"
          .. gone.uid .. ", which the renewal keeps"
      end)
    end
  end)
end)

describe("spawn rules", function()
  local function add(spawn)
    local reg = require("strata.data").new()
    for id, t in pairs(support.registry(new_world()).types) do
      reg.types[id] = t
      reg.by_type[id] = {}
    end
    return pcall(reg.add, reg, "spec", { _type = "base.map_archetype", _id = "s", spawn = spawn })
  end

  it("refuses an every that is not a finite number of at least 0.001 s, and a negative max", function()
    for _, every in ipairs{ 0, -5, 0 / 0, 1 / 0, -1 / 0, 1e-300, 0.0009 } do
      local ok, err = add{ every = every }
      assert.is_false(ok, tostring(every))
      assert.matches("spawn.every must be a finite number of seconds >= 0.001, got " .. tostring(every):gsub("%-", "%%-"), err)
    end
    local ok, err = add{ every = 1, max = -1 }
    assert.is_false(ok)
    assert.matches("spawn.max must be an integer >= 0, got %-1", err)
    assert.is_true((add{ every = 0.001, max = 0 }))
    assert.is_true((add{ every = 2.5 }))
  end)

  it("spawns once a tick, exactly, at every = 0.001 (3 s: 3000)", function()
    local w = mod_world("sp", [[
      data:add{ _type = "base.map_archetype", _id = "milli", spawn = { every = 1e-3 },
        on_spawn = function(map, ctx) ctx.world:create_object{ kind = "actor", map = map, x = 0, y = 0 } end }]])
    local m = w:create_map{ width = 4, height = 4, fill = "floor", archetype = "sp.milli" }
    w:travel(w:create_actor{ player = true }, m, { x = 1, y = 1 })
    for _ = 1, 3 do assert.same({}, w:advance(1)) end
    assert.equal(3001, #m:objects("actor"))                -- the player and 3000 spawns
    w:advance(0.0005); assert.equal(3001, #m:objects("actor"))
    w:advance(0.0005); assert.equal(3002, #m:objects("actor"))
  end)
end)
