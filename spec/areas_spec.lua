-- Areas and floors (docs/areas.md): lazy floors, stairs and travel,
-- unique areas, restock and renew, saves, errors that change nothing.
local strata = require "strata"
local support = require "support"

local new_world = support.new_world

local function features(map, kind)
  local out = {}
  for f in map:features() do if not kind or f.type == kind then out[#out + 1] = f end end
  return out
end

local function stairs(map, delta)
  for _, f in ipairs(features(map, "stairs")) do if f.floor_delta == delta then return f end end
end

local function entrance_to(map, unique_id)
  for _, f in ipairs(features(map, "entrance")) do
    if f.target.area and f.target.area.unique_id == unique_id then return f end
  end
end

-- Everything a world holds, as text: objects with their kind, archetype,
-- position and properties, and the timers (uids of things made later differ).
-- White-box: the internal objects too (areas, features), which no public call
-- lists, so that a refused call is seen to change nothing inside.
local function serialize(v)
  if type(v) ~= "table" then return tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. serialize(v[k]) end
  return "{" .. table.concat(parts, ",") .. "}"
end

local function world_text(w)
  local lines = {}
  for _, o in ipairs(support.state(w):objects()) do
    local kind, arch, map, x, y = support.state(w):info(o.uid)
    lines[#lines + 1] = ("%d %s %s %s %s %s %s"):format(o.uid, kind, tostring(arch), tostring(map), tostring(x),
      tostring(y), serialize(support.state(w):snapshot(o.uid)))
  end
  for _, t in ipairs(w:timers()) do lines[#lines + 1] = ("timer %d %g %s"):format(t.uid, t.due, t.handler) end
  return table.concat(lines, "\n")
end

describe("areas", function()
  it("generate a ten-floor dungeon lazily as an actor walks down its stairs", function()
    local w = new_world(5)
    local top = w:create_map{ width = 30, height = 20, fill = "grass" }
    local surface = w:create_area("dungeon.town")
    surface:add_floor(top, 1)
    local cave = w:create_area("dungeon.cave", { parent = surface })
    local door = w:create_entrance(top, 12, 7, cave)
    local hero = w:create_actor{ map = top, x = 0, y = 0, player = true }
    assert.equal(0, #(function() local t = {} for n in cave:floors() do t[#t + 1] = n end return t end)())
    local map = w:travel(hero, door)
    assert.equal(1, map.floor)
    assert.equal(cave, map.area)
    assert.same({ 1, 1 }, { hero.x, hero.y })   -- on the stairs leading back up
    for n = 2, 10 do
      assert.is_false(cave:has_floor(n))         -- not before someone goes there
      map = w:travel(hero, stairs(map, 1))
      assert.equal(n, map.floor)
      assert.equal(n, w:current_floor())
      assert.equal(n, cave.deepest_visited)
    end
    assert.is_nil(stairs(map, 1))                -- floor 10: no way further down
    assert.has_error(function() w:create_stairs(map, 2, 2, { floor_delta = 1 }) end,
      "world:create_stairs: floor 10 of area#" .. cave.uid .. " is the deepest (10): no stairs lead below it")
    assert.has_error(function() cave:floor(11) end)
    -- back up to floor 1, then up once more: onto the entrance in the parent map
    for n = 9, 1, -1 do map = w:travel(hero, stairs(map, -1)) assert.equal(n, map.floor) end
    assert.same({ 18, 8 }, { hero.x, hero.y })   -- arrived on floor 1's stairs down
    map = w:travel(hero, stairs(map, -1))
    assert.equal(top, map)
    assert.same({ 12, 7 }, { hero.x, hero.y })
    assert.equal(surface, w:current_area())
    assert.same({ 12, 7, 1 }, { surface:child_position(cave) })
  end)

  it("keep floors, fields and relations straight", function()
    local w = new_world()
    local a = w:create_area("dungeon.cave", { params = { theme = "ice" } })
    assert.equal("dungeon.cave", a.archetype)
    assert.equal(1, a.starting_floor)
    assert.equal(10, a.deepest_floor)
    assert.is_nil(a.deepest_visited)
    assert.equal("ice", a.params.theme)
    assert.equal("none", a.meta.boss)
    assert.is_false(a:is_conquered())
    a:set_conquered(true)
    assert.is_true(a:is_conquered())
    local m = w:create_map{ width = 4, height = 4, fill = "floor" }
    a:add_floor(m, 3)
    assert.equal(a, m.area)
    assert.equal(3, m.floor)
    assert.equal(3, m.level)                     -- level defaults to the floor ...
    m.level = 40                                 -- ... and is separate from it
    assert.equal(40, m.level)
    assert.equal(3, m.floor)
    local got, n = w:area_of(m)
    assert.equal(a, got)
    assert.equal(3, n)
    assert.equal(m, a:floor(3))
    local f2 = a:floor(2)                        -- generated
    assert.is_true(f2.props.indoor)
    assert.equal(1, f2.props.nested.a)
    assert.same({ "spawn 2" }, { f2.props.log[1] })
    local order = {}
    for k, map in a:floors() do order[#order + 1] = k .. ":" .. map.uid end
    assert.same({ "2:" .. f2.uid, "3:" .. m.uid }, order)
    a:forget_floor(2)
    assert.is_false(f2:alive())
    assert.is_false(a:has_floor(2))
    local again = a:floor(2)
    assert.is_true(again:alive())
    assert.are_not.equal(f2.uid, again.uid)
    -- children, filters
    local child = w:create_area("dungeon.endless", { parent = a })
    local other = w:create_area("dungeon.town")
    assert.same({ child }, a:children())
    assert.equal(a, child.parent)
    assert.same({ a, child }, w:areas{ type = "dungeon" })
    assert.same({ child }, w:areas{ type = "endless" })
    assert.same({ other }, w:areas{ archetype = "dungeon.town" })
    assert.same({ child }, w:areas{ parent = a })
  end)

  it("delete areas without leaving dangling parents", function()
    local w = new_world()
    local root = w:create_area("dungeon.town")
    local mid = w:create_area("dungeon.town", { parent = root })
    local leaf = w:create_area("dungeon.town", { parent = mid })
    local m = w:create_map{ width = 3, height = 3 }
    mid:add_floor(m, 1)
    local thing = w:create_object{ kind = "chest", map = m, x = 1, y = 1 }
    mid:delete{ children = "reparent" }
    assert.is_false(mid:alive())
    assert.is_false(m:alive())
    assert.is_false(thing:alive())
    assert.equal(root, leaf.parent)
    assert.same({ leaf }, root:children())
    assert.same({ root, leaf }, w:areas())
    root:delete{ children = "delete" }
    assert.is_false(leaf:alive())
    assert.same({}, w:areas())
    assert.has_error(function() w:create_area("dungeon.town"):delete{ children = "orphan" } end)
  end)

  it("place a unique area's entrance when its parent floor is first generated, exactly once", function()
    local path = os.tmpname() .. ".db"
    local w = new_world(3)
    assert.is_nil(w:find_unique("dungeon.deep_cave"))
    local tower = w:find_unique("dungeon.tower")         -- eager, but its parent is not "root"
    assert.is_nil(tower)
    local overworld = w:get_or_create_map("dungeon.world")
    local cave = w:find_unique("dungeon.deep_cave")
    assert.is_not_nil(cave)
    assert.equal(w:find_unique("dungeon.world"), cave.parent)
    local e = entrance_to(overworld, "dungeon.deep_cave")
    assert.same({ 12, 7 }, { e.x, e.y })
    assert.equal(1, #features(overworld, "entrance") - 1)  -- and the tower's
    tower = w:find_unique("dungeon.tower")
    assert.is_true(tower:has_floor(2))                  -- eager: its starting floor exists
    assert.is_false(tower:has_floor(1))
    -- asking again changes nothing
    assert.equal(cave, w:unique_area("dungeon.deep_cave"))
    assert.equal(overworld, w:get_or_create_map("dungeon.world"))
    w:regenerate_child_maps(overworld)
    assert.equal(2, #features(overworld, "entrance"))
    w:save(path)
    local w2 = strata.world.open(path, { mods = { "base", "dungeon" }, mod_path = support.mod_path })
    local ow2 = w2:get_or_create_map("dungeon.world")
    assert.equal(overworld.uid, ow2.uid)
    assert.equal(cave.uid, w2:unique_area("dungeon.deep_cave").uid)
    w2:regenerate_child_maps(ow2)
    assert.equal(2, #features(ow2, "entrance"))
    -- the overworld floor forgotten and generated anew gets its entrances back, once
    local hero = w2:create_actor{ player = true }
    w2:find_unique("dungeon.world"):forget_floor(1)
    local fresh = w2:travel(hero, w2:get_or_create_map("dungeon.world"))
    assert.equal(2, #features(fresh, "entrance"))
    assert.same({ 12, 7 }, { entrance_to(fresh, "dungeon.deep_cave").x, entrance_to(fresh, "dungeon.deep_cave").y })
    os.remove(path)
  end)

  it("run restock and renew with the elapsed intervals after world:advance, and not otherwise", function()
    local w = new_world()
    local a = w:create_area("dungeon.cave")
    local hero = w:create_actor{ player = true }
    local f1 = w:travel(hero, a:floor(1))
    local function log(m) local out = {} for _, l in ipairs(m.props.log) do out[#out + 1] = l end return out end
    assert.same({ "spawn 1", "load", "enter", "entered event" }, log(f1))
    w:advance(99)
    assert.same({ "spawn 1", "load", "enter", "entered event" }, log(f1))   -- not yet due
    w:advance(1)                                                          -- due at 100: the timer
    assert.same("restock 1", log(f1)[5])
    w:advance(250)                                                        -- 200 and 300
    assert.same({ "restock 1", "restock 1" }, { log(f1)[6], log(f1)[7] })
    assert.equal(7, #log(f1))
    -- away from the map nothing runs; on return, the intervals missed at once
    local f2 = w:travel(hero, stairs(f1, 1))
    assert.equal("leave", log(f1)[8])
    w:advance(720)                                                        -- time 1070
    assert.equal(8, #log(f1))
    w:travel(hero, stairs(f2, -1))
    local l = log(f1)
    -- renew due at 1000 (1 interval), restock due at 400 .. 1000 (7 intervals), then enter
    assert.same({ "renew 1", "restock 7", "enter", "entered event" }, { l[9], l[10], l[11], l[12] })
    assert.equal(12, #l)
    w:advance(29)                                                          -- 1099: nothing due
    assert.equal(12, #log(f1))
    w:advance(1)                                                           -- 1100
    assert.equal("restock 1", log(f1)[13])
  end)

  it("travel in order, honouring before_travel, arrival rules and temporary maps", function()
    local w = new_world()
    local town = w:create_area("dungeon.town")
    local m1 = w:create_map{ width = 10, height = 10, fill = "floor", archetype = "dungeon.plain" }
    local m2 = w:create_map{ width = 10, height = 10, fill = "floor" }
    town:add_floor(m1, 1)
    town:add_floor(m2, 2)
    local hero = w:create_actor{ player = true }
    assert.equal(m1, w:travel(hero, m1))
    assert.same({ 2, 3 }, { hero.x, hero.y })          -- the archetype's starting_pos
    assert.equal(m2, w:travel(hero, m2))
    assert.same({ 5, 5 }, { hero.x, hero.y })          -- the centre
    w:travel(hero, m1, { x = 7, y = 8 })
    assert.same({ 7, 8 }, { hero.x, hero.y })          -- explicit
    assert.has_error(function() w:travel(hero, m2, { x = 10, y = 0 }) end)
    assert.equal(m1, hero.map)
    hero.state.grounded = true
    local r, why = w:travel(hero, m2)
    assert.is_nil(r)
    assert.matches("before_travel", why)
    assert.equal(m1, hero.map)
    hero.state.grounded = false
    -- a map's archetype changes, and its events with it
    m2.archetype = "dungeon.plain"
    w:travel(hero, m2)
    assert.equal("plain event", m2.props.log[1])
    m2.archetype = nil
    w:travel(hero, m1)
    w:travel(hero, m2)
    assert.equal(1, #m2.props.log)
    -- temporary maps are forgotten on leaving and generated anew next time
    local cave = w:create_area("dungeon.endless")
    local f1 = cave:floor(1)
    f1.props.temporary = true
    w:travel(hero, f1)
    w:travel(hero, m1)
    assert.is_false(f1:alive())
    assert.is_false(cave:has_floor(1))
    local again = w:travel(hero, cave:floor(1))
    assert.are_not.equal(f1.uid, again.uid)
    assert.equal(again, w:current_map())
    assert.equal(cave, w:current_area())
    assert.equal(1, w:current_floor())
  end)

  it("bring floors back unchanged in a new process and generate the next as the first would have", function()
    local path = os.tmpname() .. ".db"
    local lua = "lua5.4 spec/fixtures/areas_process.lua "
    local first, code1 = support.sh(lua .. "first " .. path)
    assert.equal(0, code1, first)
    local second, code2 = support.sh(lua .. "second " .. path)
    assert.equal(0, code2, second)
    local control, code3 = support.sh(lua .. "control")
    assert.equal(0, code3, control)
    assert.equal(first, second:sub(1, #first))                 -- floors 1-3 as they were
    assert.equal(control, second)                              -- floor 4 as if never saved
    assert.matches("floor 4 20x10", second)
    os.remove(path)
  end)

  -- A big world's cost is in its memory: a call that makes a table each time
  -- makes the collector and the allocator walk a heap that grows with the
  -- world (issue 30's travel benchmark). Counted in bytes, not timed; a
  -- one-off growth of a cache (a string table, a memo) is allowed for.
  it("travel between existing maps makes no Lua garbage", function()
    local w = new_world(5, { "base" }) -- (no mod's handler: what a handler makes is its own)
    local maps = {}
    for n = 1, 3 do maps[n] = w:create_map{ width = 8, height = 8 } end
    local hero = w:create_actor{ map = maps[1], x = 0, y = 0, player = true }
    local opts = { x = 1, y = 1 }
    local function bytes(f)
      for i = 1, 50 do f(i) end -- (first calls fill caches and memo slots)
      collectgarbage() collectgarbage("stop")
      local before = collectgarbage("count")
      for i = 1, 5000 do f(i) end
      local used = (collectgarbage("count") - before) * 1024
      collectgarbage("restart")
      return used / 5000
    end
    assert.is_true(bytes(function(i) assert(w:travel(hero, maps[i % 3 + 1], opts)) end) < 4)
    assert.is_true(bytes(function(i) assert(w:travel(hero, maps[i % 3 + 1])) end) < 4)
  end)

  -- A game keeps a view of each map whose tiles it touched; a journey must
  -- not look at each of them (counted in calls, not timed).
  it("travel does not look at every map whose tiles were touched", function()
    local function calls_of_travel(views)
      local w = new_world(5, { "base" })
      local maps = {}
      for n = 1, 60 do maps[n] = w:create_map{ width = 4, height = 4 } end
      for n = 1, views do maps[n]:fill(0, 0, 1, 1, "floor") end -- (a view each)
      local hero = w:create_actor{ map = maps[1], x = 0, y = 0, player = true }
      assert(w:travel(hero, maps[2])) -- (the first journey after the maps were made looks once)
      local calls = 0
      debug.sethook(function() calls = calls + 1 end, "c")
      w:travel(hero, maps[3])
      debug.sethook()
      return calls
    end
    assert.equal(calls_of_travel(1), calls_of_travel(60))
  end)

  describe("errors that change nothing", function()
    it("a generator returning nothing, or failing after making things", function()
      local w = new_world()
      local a = w:create_area("dungeon.hollow")
      local before = world_text(w)
      assert.has_error(function() a:floor(1) end,
        "area:floor: area generator 'dungeon.nothing' returned nil for floor 1 of area#" .. a.uid .. ": expected a map (world:create_map)")
      assert.equal(before, world_text(w))
      local r = w:create_area("dungeon.rubble")
      local rng_before = w.rng:stream("area#" .. r.uid .. " floor 1"):state()
      before = world_text(w)
      local ok, err = pcall(r.floor, r, 1)
      assert.is_false(ok)
      assert.matches("the cave collapsed", err)
      assert.equal(before, world_text(w))
      assert.equal(rng_before, w.rng:stream("area#" .. r.uid .. " floor 1"):state())
    end)

    it("unknown archetype IDs, taken floors, travel to a deleted area", function()
      local w = new_world()
      local before = world_text(w)
      assert.has_error(function() w:create_area("dungeon.caev") end)
      local ok, err = pcall(w.create_area, w, "dungeon.caev")
      assert.matches("unknown base.area_archetype 'dungeon.caev'.*dungeon.cave", err)
      assert.has_error(function() w:create_map{ width = 3, height = 3, archetype = "dungeon.nope" } end)
      assert.equal(before, world_text(w))
      local a = w:create_area("dungeon.town")
      local m1, m2 = w:create_map{ width = 3, height = 3 }, w:create_map{ width = 3, height = 3 }
      a:add_floor(m1, 1)
      before = world_text(w)
      ok, err = pcall(a.add_floor, a, m2, 1)
      assert.is_false(ok)
      assert.matches("floor 1 of area#" .. a.uid .. " is taken %(map#" .. m1.uid .. "%)", err)
      assert.has_error(function() a:add_floor(m1, 2) end)           -- already a floor
      assert.has_error(function() a:add_floor(m2, "two") end)
      assert.equal(before, world_text(w))
      local cave = w:create_area("dungeon.cave")
      local door = w:create_entrance(m1, 1, 1, cave)
      local hero = w:create_actor{ map = m1, x = 0, y = 0, player = true }
      cave:delete()
      before = world_text(w)
      ok, err = pcall(w.travel, w, hero, door)
      assert.is_false(ok)
      assert.matches("leads to area#" .. cave.uid .. ", which was deleted", err)
      assert.equal(before, world_text(w))
      assert.equal(m1, hero.map)
    end)
  end)

  describe("examples", function()
    local bin = os.getenv("STRATA_BIN") or "build/strata"
    it("putit paradise walks down ten floors under strata run", function()
      local out, code = support.sh(bin .. " run mods/examples/scripts/putit.lua 42")
      assert.equal(0, code, out)
      assert.matches("entrance to putit paradise is at %(43, 6%)", out)
      assert.matches("floor 10 %(level 20%)", out)
      assert.matches("deepest floor 10, deepest visited 10", out)
    end)
    it("the quick-start hub links its rooms both ways", function()
      local out, code = support.sh(bin .. " run mods/examples/scripts/hub.lua")
      assert.equal(0, code, out)
      assert.matches("hub %-> examples.item_room %(floor 2, test items%) at %(10, 10%)", out)
      assert.matches("back on the hub at %(5, 10%)", out)
      assert.matches("back on the hub at %(15, 10%)", out)
    end)
    it("putit paradise restocks while the player stays", function()
      local w = strata.world.new{ seed = 4, mods = { "base", "examples" }, mod_path = { "mods" } }
      local hero = w:create_actor{ player = true }
      local ow = w:travel(hero, w:get_or_create_map("examples.north_tyris"))
      local floor1 = w:travel(hero, entrance_to(ow, "examples.putit_paradise"))
      assert.equal(1, floor1.props.welcomes)
      assert.is_nil(floor1.props.putitoros)
      w:advance(3600 * 3)
      assert.equal(3, floor1.props.putitoros)
    end)
  end)
end)

-- The reference's words (the area and archetype notes of OpenNefia), checked one by one (issue 35).
describe("areas as the reference has them", function()
  it("give entrances the area's image: 'assert(entrance.image == \"elona.feat_area_castle\")'", function()
    local w = new_world(41)
    local town = w:create_map{ width = 10, height = 8, fill = "floor" }
    local cave = w:create_area("dungeon.cave")
    local e = w:create_entrance(town, 3, 4, cave)
    assert.equal("dungeon.feat_cave", e.image)
    assert.is_nil(w:create_entrance(town, 5, 4, w:create_area("dungeon.town")).image)  -- no image: none
    assert.is_nil(w:create_stairs(town, 1, 1, { floor_delta = 1 }).image)
    local dir = support.tempdir()
    w:save(dir .. "/w.db")
    assert.equal("dungeon.feat_cave", strata.world.open(dir .. "/w.db", { mod_path = support.mod_path }):object(e.uid).image)
    os.execute("rm -rf " .. dir)
  end)

  it("take a map as well as an area in create_entrance: 'allow create_entrance to accept either an area or a map'", function()
    local w = new_world(42)
    local town = w:create_map{ width = 10, height = 8, fill = "floor" }
    local cave = w:create_area("dungeon.cave")
    local second = cave:floor(2)
    local e = w:create_entrance(town, 3, 4, second)           -- a floor of an area: that area, that floor
    assert.equal(cave.uid, e.target.area.uid)
    assert.equal(2, e.target.floor)
    assert.equal("dungeon.feat_cave", e.image)
    assert.equal(3, w:create_entrance(town, 4, 4, second, { floor = 3 }).target.floor)  -- floor given: it wins
    -- a map of no area: an area of that one map is made around it ("something handles generating the area")
    local shop = w:create_map{ width = 6, height = 5, fill = "floor" }
    local hero = w:create_actor{ map = town, x = 5, y = 5, player = true }
    local door = w:create_entrance(town, 6, 6, shop)
    local area = door.target.area
    assert.equal("base.one_map", area.archetype)
    assert.same({ area.uid, 1 }, { shop.area.uid, shop.floor })
    assert.same({ 1, 1 }, { area.starting_floor, area.deepest_floor })
    assert.equal(shop.uid, w:travel(hero, door).uid)
    -- anything else is refused, naming the function
    local actor = w:create_actor{ map = town, x = 1, y = 2 }
    local ok, err = pcall(function() w:create_entrance(town, 2, 2, actor) end)
    assert.is_false(ok)
    assert.matches("areas_spec.lua:%d+: world:create_entrance: [^\n]*expected an area or a map", err)
  end)

  it("make an area and its entrance in one call: 'local area, entrance = Area.create(...)'", function()
    local w = new_world(43)
    local over = w:unique_area("dungeon.world")
    local area, e = w:create_area("dungeon.cave", { parent = over, at = { 5, 6 }, floor = 1 })
    assert.equal("dungeon.cave", area.archetype)
    assert.equal(over.uid, area.parent.uid)
    assert.same({ 5, 6, over:floor(1).uid }, { e.x, e.y, e.map.uid })
    assert.equal(area.uid, e.target.area.uid)
    assert.equal("dungeon.feat_cave", e.image)
    assert.same({ 5, 6, 1 }, { over:child_position(area) })
    -- the floor defaults to the parent's starting floor
    local a2, e2 = w:create_area("dungeon.town", { parent = over, at = { x = 7, y = 2 } })
    assert.same({ over:floor(1).uid, 7, 2 }, { e2.map.uid, e2.x, e2.y })
    assert.equal(a2.uid, e2.target.area.uid)
    -- without at: the area alone, as before
    local a3, none = w:create_area("dungeon.town", { parent = over })
    assert.is_not_nil(a3)
    assert.is_nil(none)
    -- one savepoint: a cell off the floor makes neither
    local before = world_text(w)
    local ok, err = pcall(function() w:create_area("dungeon.cave", { parent = over, at = { 99, 1 } }) end)
    assert.is_false(ok)
    assert.matches("areas_spec.lua:%d+: world:create_area: [^\n]*99", err)
    assert.equal(before, world_text(w))
    for _, c in ipairs{
      { { at = { 1, 1 } }, "at needs a parent" },
      { { parent = over, floor = 1 }, "floor needs at" },
      { { parent = over, at = { 1 } }, "at must be a point" },
      { { parent = over, at = { 1, 1 }, floor = 1.5 }, "floor: expected an integer" },
    } do
      ok, err = pcall(function() w:create_area("dungeon.cave", c[1]) end)
      assert.is_false(ok)
      assert.matches("areas_spec.lua:%d+: world:create_area: [^\n]*" .. c[2], err)
      assert.equal(before, world_text(w))
    end
  end)

  -- One rule for every area's entrance (docs/areas.md), unique or not: on a
  -- passable cell of the floor, alone on its cell.
  it("create_area's entrance, like a unique area's, stands on a passable cell no other feature holds", function()
    local w = new_world(44)
    local over = w:unique_area("dungeon.world")
    local m = over:floor(1)
    local wall, open, e = { 2, 2 }, nil, nil
    m:set(2, 2, "wall")
    assert.is_false(m:passable(2, 2))
    local before = world_text(w)
    local ok, err = pcall(function() w:create_area("dungeon.cave", { parent = over, at = wall }) end)
    assert.is_false(ok)
    assert.matches(("areas_spec.lua:%%d+: world:create_area: at %%(%d, %d%%) is impassable on floor 1 of area#%d %%(map#%d%%): its entrance could not be reached")
      :format(wall[1], wall[2], over.uid, m.uid), err)
    assert.equal(before, world_text(w))
    for y = 0, m.height - 1 do
      for x = 0, m.width - 1 do
        if not open and m:passable(x, y) then
          local ok2, _, made = pcall(w.create_area, w, "dungeon.cave", { parent = over, at = { x, y } })
          if ok2 then open, e = { x, y }, made end
        end
      end
    end
    before = world_text(w)
    ok, err = pcall(function() w:create_area("dungeon.town", { parent = over, at = open }) end)
    assert.is_false(ok)
    assert.matches(("areas_spec.lua:%%d+: world:create_area: at %%(%d, %d%%) on floor 1 of area#%d %%(map#%d%%) already holds feature#%d")
      :format(open[1], open[2], over.uid, m.uid, e.uid), err)
    assert.equal(before, world_text(w))
    -- the grammar of the handle checks: "an area"
    ok, err = pcall(function() w:create_area("dungeon.cave", { parent = m, at = open }) end)
    assert.is_false(ok)
    assert.matches("world:create_area: parent: expected an area, got map#" .. m.uid, err, 1, true)
  end)
end)
