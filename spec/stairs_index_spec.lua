-- Arriving by stairs (docs/areas.md): an actor coming down arrives on the
-- new floor's first stairs leading back up. The core finds them through an
-- index of stairs by map (core/src/feature.c), which must follow every change
-- to the stairs: made, undone by a rollback, moved, deleted, saved and opened.
local strata = require "strata"
local support = require "support"

-- An area of three 8x8 floors (an arrival with no stairs back lands on the
-- centre, 4,4), stairs down on floor 1, and a hero.
local function dungeon()
  local w = support.new_world(1)
  local a = w:create_area("dungeon.town")
  local f = {}
  for n = 1, 3 do
    f[n] = w:create_map{ width = 8, height = 8 }
    a:add_floor(f[n], n)
  end
  local down = w:create_stairs(f[1], 1, 1, { floor_delta = 1 })
  return w, f, down, w:create_actor{ player = true }
end

-- Where hero arrives taking stairs.
local function arrival(w, hero, stairs)
  w:travel(hero, stairs)
  local _, _, map, x, y = support.state(w):info(hero.uid)
  return { map, x, y }
end

describe("arriving by stairs", function()
  it("finds no stairs a rolled-back savepoint made, and the first of those made since", function()
    local w, f, down, hero = dungeon()
    assert.same({ f[2].uid, 4, 4 }, arrival(w, hero, down))
    assert.is_false(w:_atomic(function()
      w:create_stairs(f[2], 6, 6, { floor_delta = -1 })
      assert.same({ f[2].uid, 6, 6 }, arrival(w, hero, down))
      error("undo")
    end))
    assert.same({ f[2].uid, 4, 4 }, arrival(w, hero, down))
    w:create_stairs(f[2], 6, 6, { floor_delta = -1 })
    w:create_stairs(f[2], 2, 5, { floor_delta = -1 })
    w:create_stairs(f[2], 3, 3, { floor_delta = 1 })
    assert.same({ f[2].uid, 6, 6 }, arrival(w, hero, down))
  end)

  it("follows stairs moved onto or off the floor, and deleted", function()
    local w, f, down, hero = dungeon()
    local up = w:create_stairs(f[3], 5, 5, { floor_delta = -1 })
    assert.same({ f[2].uid, 4, 4 }, arrival(w, hero, down))
    support.state(w):set_position(up.uid, f[2].uid, 5, 5)
    assert.same({ f[2].uid, 5, 5 }, arrival(w, hero, down))
    support.state(w):set_position(up.uid, f[3].uid, 5, 5)
    assert.same({ f[2].uid, 4, 4 }, arrival(w, hero, down))
    support.state(w):set_position(up.uid, f[2].uid, 6, 2)
    assert.same({ f[2].uid, 6, 2 }, arrival(w, hero, down))
    support.state(w):delete(up.uid)
    assert.same({ f[2].uid, 4, 4 }, arrival(w, hero, down))
  end)

  it("finds the stairs of a world opened from its file, and undoes a rollback there", function()
    local w, f, down, hero = dungeon()
    w:create_stairs(f[2], 6, 6, { floor_delta = -1 })
    assert.same({ f[2].uid, 6, 6 }, arrival(w, hero, down))
    local path = support.tempdir() .. "/stairs.strata"
    w:save(path)
    local w2 = strata.world.open(path, { mods = { "base", "dungeon" }, mod_path = support.mod_path })
    local hero2, down2 = w2:object(hero.uid), w2:object(down.uid)
    assert.same({ f[2].uid, 6, 6 }, arrival(w2, hero2, down2))
    assert.is_false(w2:_atomic(function()
      support.state(w2):delete(w2:object(f[2].uid):features()().uid)
      error("undo")
    end))
    assert.same({ f[2].uid, 6, 6 }, arrival(w2, hero2, down2))
  end)
end)

-- A journey through an entrance reads where it leads from the same index: it
-- must follow an entrance made in a rolled-back savepoint, moved, edited and deleted.
describe("travelling through an entrance", function()
  it("follows the entrances made, undone, moved, edited and deleted", function()
    local w, f, _, hero = dungeon()
    local b = w:create_area("dungeon.town")
    local g = {}
    for n = 1, 3 do
      g[n] = w:create_map{ width = 8, height = 8 }
      b:add_floor(g[n], n)
    end
    local function to(e) return { w:travel(hero, e).uid, hero.x, hero.y } end
    local e
    assert.is_false(w:_atomic(function()
      e = w:create_entrance(f[1], 3, 3, b, { floor = 2 })
      assert.same({ g[2].uid, 4, 4 }, to(e))
      error("undo")
    end))
    assert.has_error(function() w:travel(hero, e) end)
    e = w:create_entrance(f[1], 3, 3, b, { floor = 2 })
    assert.same({ g[2].uid, 4, 4 }, to(e))
    local sys = support.state(w):snapshot(e.uid).sys
    sys.floor = 3
    support.state(w):set(e.uid, "sys", sys, "sys")
    assert.same({ g[3].uid, 4, 4 }, to(e))
    sys.floor = nil
    support.state(w):set(e.uid, "sys", sys, "sys")
    assert.same({ g[1].uid, 4, 4 }, to(e)) -- no floor of its own: the area's starting floor
    support.state(w):set_position(e.uid, f[2].uid, 5, 5)
    assert.same({ g[1].uid, 4, 4 }, to(e))
    support.state(w):delete(e.uid)
    assert.has_error(function() w:travel(hero, e) end)
  end)
end)

-- The core keeps the answers of area:floor and world:area_of while actors
-- travel (core/src/sys.c): each must still follow a change to the floors
-- made between two journeys, its rollback, and an open.
describe("an area's floors read between journeys", function()
  -- hero down the stairs and back to floor 1: the answers of floors 1 and 2 are fresh.
  local function round_trip(w, f, down, hero)
    assert.same({ f[2].uid, 4, 4 }, arrival(w, hero, down))
    w:travel(hero, w:object(f[1].uid))
  end

  local function floors(w, a, maps)
    local r = {}
    for i, m in ipairs(maps) do
      local area, n = w:area_of(m)
      r[i] = { a:has_floor(i) and a:floor(i).uid or false, area and area.uid or false, n or false }
    end
    return r
  end

  it("follow a floor added, rolled back, forgotten and its map deleted", function()
    local w, f, down, hero = dungeon()
    local a = w:area_of(f[1])
    local extra = w:create_map{ width = 8, height = 8 }
    round_trip(w, f, down, hero)
    assert.same({ { f[1].uid, a.uid, 1 }, { f[2].uid, a.uid, 2 }, { f[3].uid, a.uid, 3 }, { false, false, false } },
                floors(w, a, { f[1], f[2], f[3], extra }))
    assert.is_false(w:_atomic(function()
      a:add_floor(extra, 4)
      round_trip(w, f, down, hero)
      assert.same({ extra.uid, a.uid, 4 }, floors(w, a, { f[1], f[2], f[3], extra })[4])
      error("undo")
    end))
    round_trip(w, f, down, hero)
    assert.same({ false, false, false }, floors(w, a, { f[1], f[2], f[3], extra })[4])
    a:add_floor(extra, 4)
    round_trip(w, f, down, hero)
    assert.same({ extra.uid, a.uid, 4 }, floors(w, a, { f[1], f[2], f[3], extra })[4])
    a:forget_floor(3)
    round_trip(w, f, down, hero)
    assert.is_false(a:has_floor(3))
    support.state(w):delete(f[2].uid)
    assert.is_false(a:has_floor(2))
    assert.has_error(function() w:travel(hero, down) end)
  end)

  it("follow an opened world's floors and a rollback there", function()
    local w, f, down, hero = dungeon()
    local a = w:area_of(f[1])
    round_trip(w, f, down, hero)
    local path = support.tempdir() .. "/floors.strata"
    w:save(path)
    local w2 = strata.world.open(path, { mods = { "base", "dungeon" }, mod_path = support.mod_path })
    local a2, hero2, down2 = w2:object(a.uid), w2:object(hero.uid), w2:object(down.uid)
    local maps2 = { w2:object(f[1].uid), w2:object(f[2].uid), w2:object(f[3].uid) }
    round_trip(w2, f, down2, hero2)
    assert.same({ { f[1].uid, a.uid, 1 }, { f[2].uid, a.uid, 2 }, { f[3].uid, a.uid, 3 } }, floors(w2, a2, maps2))
    assert.is_false(w2:_atomic(function()
      a2:forget_floor(2)
      assert.is_false(a2:has_floor(2))
      error("undo")
    end))
    round_trip(w2, f, down2, hero2)
    assert.same({ f[2].uid, a.uid, 2 }, floors(w2, a2, maps2)[2])
  end)

  -- A journey reads the deepest floor visited and the renew timers of the maps
  -- left and entered from the same memos: a journey rolled back leaves them as they were.
  it("follow the deepest floor visited and a map's renew timer through a journey rolled back", function()
    local w = support.new_world(1)
    local a = w:create_area("dungeon.cave")
    local hero = w:create_actor{ player = true }
    local f1 = w:travel(hero, a:floor(1))
    local down
    for f in f1:features() do if f.floor_delta == 1 then down = f end end
    local function log(m) return #m.props.log end
    assert.equal(1, a.deepest_visited)
    assert.is_false(w:_atomic(function()
      w:travel(hero, down)
      assert.equal(2, a.deepest_visited)
      error("undo")
    end))
    assert.equal(1, a.deepest_visited)
    local n = log(f1)
    w:advance(100) -- f1's timer, cancelled by the journey undone, is back: its restock is due
    assert.equal(n + 1, log(f1))
    w:travel(hero, down)
    assert.equal(2, a.deepest_visited)
    n = log(f1)
    w:advance(1000) -- away from f1: its timer was cancelled by this journey
    assert.equal(n, log(f1))
  end)
end)
