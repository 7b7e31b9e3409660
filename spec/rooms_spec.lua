-- Rooms and exits (docs/grid.md, "Rooms and exits"): text-world objects any system may make
-- (grid maps, branches, a game by hand), and world:go through their exits.
local strata = require "strata"
local mods = require "strata.mods"
local support = require "support"

local function setup()
  local w = strata.world.new{ seed = 5, mods = { "base" } }
  local hub = w:create_room{ name = "Hub", desc = "A round hall.", props = { lit = true } }
  local attic = w:create_room{ name = "Attic" }
  local up = w:create_exit(hub, attic, { name = "up", aliases = { "u", "ladder" } })
  local down = w:create_exit(attic, hub, { name = "down", desc = "A ladder." })
  local hero = w:create_actor{ room = hub }
  return w, hub, attic, up, down, hero
end

describe("rooms and exits", function()
  it("are handles with names, descriptions, props and exits", function()
    local w, hub, attic, up, down = setup()
    assert.equal("room", hub.kind)
    assert.same({ "Hub", "A round hall.", true }, { hub.name, hub.desc, hub.props.lit })
    assert.equal("", attic.desc)
    assert.same({ up.uid }, { hub:exits()[1].uid })
    assert.equal(1, #hub:exits())
    assert.same({ "up", hub.uid, attic.uid, { "u", "ladder" } }, { up.name, up.from.uid, up.to.uid, up.aliases })
    assert.equal("A ladder.", down.desc)
    assert.equal(up.uid, hub:exit("ladder").uid)
    assert.is_nil(hub:exit("west"))
    hub.name, hub.desc = "Great Hub", "Bigger."
    assert.same({ "Great Hub", "Bigger." }, { hub.name, hub.desc })
    assert.equal(hub.uid, w:object(hub.uid).uid)
  end)

  it("refuse bad input with the reason, and change nothing", function()
    local w, hub, _, up = setup()
    local n = #w:objects()
    assert.error_matches(function() w:create_room{ name = "" } end, "name must be a non%-empty string")
    assert.error_matches(function() w:create_room{ nmae = "x" } end, "unknown option 'nmae' %(nearest known: name")
    assert.error_matches(function() w:create_room{ name = "x", props = { f = print } } end, "cannot store a function")
    assert.error_matches(function() w:create_exit(hub, up, { name = "x" }) end, "expected a room of this world")
    assert.error_matches(function() w:create_exit(hub, hub, { name = "x", aliases = { "a", 3 } }) end, "alias 2")
    assert.error_matches(function() hub.name = 3 end, "room.name must be a non%-empty string")
    assert.error_matches(function() hub.colour = 3 end, "cannot set field 'colour'")
    assert.equal(n, #w:objects())
  end)

  it("world:go moves an actor through an exit by name or alias, and says why not", function()
    local w, hub, attic, _, _, hero = setup()
    assert.equal(hub.uid, hero.room.uid)
    assert.is_true(w:go(hero, "u"))
    assert.equal(attic.uid, hero.room.uid)
    assert.same({ nil, "there is no way 'up' here" }, { w:go(hero, "up") })
    assert.is_true(w:go(hero, "down"))
    assert.equal(hub.uid, hero.room.uid)
    local nowhere = w:create_exit(hub, nil, { name = "hole" })
    assert.is_nil(nowhere.to)
    assert.same({ nil, "the way is blocked" }, { w:go(hero, "hole") })
    assert.equal(hub.uid, hero.room.uid)
    local drifter = w:create_actor{}
    assert.same({ nil, "the actor is in no room" }, { w:go(drifter, "up") })
    assert.error_matches(function() w:go(hub, "up") end, "world:go: expected an actor of this world")
  end)

  it("fires base.before_move (which may refuse) and base.moved", function()
    local w, hub, attic, _, _, hero = setup()
    local seen = {}
    mods.register_event(support.registry(w), "spec", "base.before_move", "spec: gate", function(_, p)
      seen[#seen + 1] = "before " .. p.from.name .. ">" .. p.to.name .. " via " .. p.exit.name
      if p.to.name == "Attic" and w.time < 1 then return false end
    end)
    mods.register_event(support.registry(w), "spec", "base.moved", "spec: log", function(_, p)
      seen[#seen + 1] = "moved " .. p.to.name
    end)
    assert.same({ nil, "the move was refused" }, { w:go(hero, "up") })
    assert.equal(hub.uid, hero.room.uid)
    w:advance(1)
    assert.is_true(w:go(hero, "up"))
    assert.equal(attic.uid, hero.room.uid)
    assert.same({ "before Hub>Attic via up", "before Hub>Attic via up", "moved Attic" }, seen)
  end)

  it("deleting a room takes its exits, both ways, and nothing else; refused while occupied", function()
    local w, hub, attic, up, down, hero = setup()
    local side = w:create_room{ name = "Side" }
    local to_side = w:create_exit(hub, side, { name = "east" })
    assert.error_matches(function() hub:delete() end, "room#%d+ cannot be deleted: actor#%d+ stands in it")
    attic:delete()
    assert.is_false(attic:alive())
    assert.is_false(up:alive())
    assert.is_false(down:alive())
    assert.is_true(to_side:alive())
    assert.same({ to_side.uid }, { hub:exits()[1].uid })
    assert.equal(1, #hub:exits())
    to_side:delete()
    assert.equal(0, #hub:exits())
    assert.is_true(hero:alive())
  end)

  it("are kept by a save and work in a second process", function()
    local w, hub, attic, _, _, hero = setup()
    local dir = support.tempdir()
    w:save(dir .. "/w.db")
    local script = dir .. "/go.lua"
    support.write(script, ([[
      local strata = require "strata"
      local w = strata.world.open(%q)
      local hero = w:object(%d)
      assert(w:go(hero, "ladder"))
      io.write(hero.room.name, " ", #hero.room:exits(), " ", hero.room:exits()[1].to.name)
    ]]):format(dir .. "/w.db", hero.uid))
    local out = support.sh("lua5.4 " .. support.q(script))
    assert.equal("Attic 1 Hub", out)
    assert.equal(hub.uid, hero.room.uid)
    assert.truthy(attic)
  end)
end)
