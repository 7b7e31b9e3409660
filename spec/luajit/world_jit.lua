-- strata.ffi's world (run under LuaJIT): objects, areas and floors made by
-- LuaJIT functions registered by ID, timers, events, moves, travel, turns,
-- saves; and a save made here opened by the Lua 5.4 module and back.
local support = require "support"
local js = require "jit_support"
local world = require("strata.ffi").world

local root = js.root
local MODS = { { id = "ffiworld", version = "0.1.0" } }

-- The registry of spec/fixtures/mods/ffiworld's IDs, with the same logic in LuaJIT.
local function registry(extra)
  local data = world.registry()
  data:add{ _type = "base.area_generator", _id = "ffiworld.floors", generate_floor = function(_, floor, ctx)
    local m = ctx.world:create_map{ width = 10, height = 5, fill = "floor" }
    ctx.world:create_stairs(m, 1, 1, { floor_delta = 1 })
    if floor > 1 then ctx.world:create_stairs(m, 8, 3, { floor_delta = -1 }) end
    m:write("props.drawn", ctx.rng:int(1000))
    return m
  end }
  data:add{ _type = "base.area_archetype", _id = "ffiworld.dungeon", generator = "ffiworld.floors", deepest_floor = 3 }
  data:add{ _type = "base.handler", _id = "ffiworld.tick", run = function(_, _, args)
    args.counter:write("props.n", (args.counter:read("props.n") or 0) + 1)
  end }
  data:add{ _type = "base.event", _id = "ffiworld.ping" }
  data:add{ _type = "base.handler", _id = "ffiworld.pong", run = function(_, params, args) return params.n + args.add end }
  if extra then extra(data) end
  return data
end

local function new(extra) return world.new{ seed = 5, data = registry(extra), mods = MODS } end

-- The stairs on map whose floor_delta is delta.
local function stairs(map, delta)
  for f in map:features() do if f.floor_delta == delta then return f end end
end

describe("strata.ffi world (LuaJIT)", function()
  it("makes objects whose props are plain data, handles one per uid", function()
    local w = new()
    local chest = assert(w:create_object{ kind = "chest", props = { gold = 5, bag = { "rope", 2.5 } } })
    assert.equal("chest", chest.kind)
    assert.same({ gold = 5, bag = { "rope", 2.5 } }, chest.props)
    assert.is_true(chest:write({ "props", "bag", 3 }, "lamp"))
    assert.equal("lamp", chest:read({ "props", "bag", 3 }))
    assert.is_true(chest:write("state.opened.by", "hero"))    -- the tables on the way are made
    assert.same({ opened = { by = "hero" } }, chest.state)
    local hero = assert(w:create_actor{ x = 0, y = 0, props = { owns = chest } })
    assert.equal(chest, hero:read("props.owns"))                     -- a reference comes back as the same handle
    assert.equal(w:object(chest.uid), chest)
    local props = chest.props
    props.gold = 99                                           -- a copy: the world keeps its own
    assert.equal(5, chest:read("props.gold"))
    local ok, why = chest:write("props.fn", function() end)
    assert.is_nil(ok)
    assert.matches("object:write: chest#%d+ props.fn: cannot store a function", why)
    local cycle = { n = 1 }
    cycle.again = cycle
    ok, why = chest:write("props.cycle", cycle)
    assert.is_nil(ok)
    assert.matches("object:write: chest#%d+ props.cycle.again.again.*: tables nested deeper than 64 levels", why)
    assert.is_nil(chest:read("props.cycle"))
    assert.matches("read%-only", support.err_of(function() hero.x = 3 end))
    assert.is_true(chest:delete())
    assert.is_false(chest:alive())
    assert.is_nil(w:object(chest.uid))
  end)

  it("frees a registry's callback with it: registries come and go past LuaJIT's callback slots", function()
    for _ = 1, 3000 do assert(world.registry()) end
  end)

  it("checks options tables, naming the nearest known keys", function()
    local w = new()
    local err = support.err_of(function() w:create_map{ widht = 3, height = 3 } end)
    assert.matches("world:create_map: unknown option 'widht' %(nearest known: width", err)
    assert.matches("world_jit%.lua:%d+", err)           -- the caller's line, not strata's
    assert.matches("strata.world.new: unknown option 'sead' %(nearest known: seed", support.err_of(world.new, { sead = 1 }))
  end)

  it("generates floors with LuaJIT functions registered by ID, moves and travels", function()
    local w = new()
    local area = assert(w:create_area("ffiworld.dungeon"))
    local f1 = assert(area:floor(1))
    assert.equal(1, f1.floor)
    assert.equal(area, f1.area)
    assert.equal(10, f1.width)
    -- ctx.rng is the floor's stream of the world's seed, as the 5.4 module's
    local stream = require("strata.ffi").rng.new(5):stream(("area#%d floor 1"):format(area.uid))
    assert.equal(stream:int(1000), f1:read("props.drawn"))
    local hero = assert(w:create_actor{ map = f1, x = 2, y = 2, player = true })
    assert.equal(hero, w:player())
    assert.is_true(w:move(hero, 3, 2))
    assert.same({ 3, 2 }, { hero.x, hero.y })
    local ok, why = w:move(hero, 30, 2)
    assert.is_nil(ok)
    assert.equal("the way is off the map", why)
    local f2 = assert(w:travel(hero, stairs(f1, 1)))
    assert.equal(2, f2.floor)
    assert.same({ 8, 3 }, { hero.x, hero.y })                -- arrived on the stairs leading back
    assert.equal(f2, w:current_map())
    assert.is_true(area:has_floor(2))
    assert.is_false(area:has_floor(3))
  end)

  it("gives a world's map the tile map methods, its edits undone with a failed generation", function()
    local w = new(function(data)
      data:add{ _type = "base.area_generator", _id = "ffiworld.flood", generate_floor = function(area, floor, ctx)
        local m = ctx.world:current_map()
        m:set(1, 1, "water")
        error("flooded")
      end }
      data:add{ _type = "base.area_archetype", _id = "ffiworld.wet", generator = "ffiworld.flood" }
    end)
    assert.equal(w.tokens, w.tokens:define("wall", { passable = false }))
    local m = assert(w:create_map{ width = 6, height = 3, fill = "floor" })
    m:fill(3, 0, 1, 2, "wall")
    local path = assert(m:find_path({ 0, 0 }, { 5, 0 }))
    assert.same({ 5, 0 }, { path:xy(#path) })
    assert.is_false(m:passable(3, 0))
    w:create_actor{ map = m, x = 0, y = 0, player = true }
    local ok, why = assert(w:create_area("ffiworld.wet")):floor(1)
    assert.is_nil(ok)
    assert.matches("flooded", why)
    assert.same({ "floor" }, m:tokens(1, 1))                  -- the edit inside the failed call was undone
    assert.is_true(m:delete())
    assert.matches("map:find_path: the map was deleted", support.err_of(function() m:find_path({ 0, 0 }, { 1, 0 }) end))
  end)

  it("turns an error in a LuaJIT callback into nil, reason, the world unchanged", function()
    local w = new(function(data)
      data:add{ _type = "base.area_generator", _id = "ffiworld.collapse", generate_floor = function(_, _, ctx)
        ctx.world:create_object{ kind = "junk" }
        error("the cave collapsed")
      end }
      data:add{ _type = "base.area_archetype", _id = "ffiworld.bad", generator = "ffiworld.collapse" }
    end)
    local area = assert(w:create_area("ffiworld.bad"))
    local before = area.uid
    local map, why = area:floor(1)
    assert.is_nil(map)
    assert.matches("area:floor: .*the cave collapsed", why)
    local next_obj = w:create_object{ kind = "probe" }
    for uid = before + 1, next_obj.uid - 1 do assert.is_nil(w:object(uid)) end   -- the junk was undone
    local area2, why2 = w:create_area("ffiworld.dungoen")
    assert.is_nil(area2)
    assert.matches("world:create_area: .*ffiworld.dungoen.*ffiworld.dungeon", why2)
  end)

  it("runs timers by handler ID and reports a failing one, undone", function()
    local w = new(function(data)
      data:add{ _type = "base.handler", _id = "ffiworld.boom", run = function(_, _, args)
        args.counter:write("props.n", 100)
        error("boom")
      end }
    end)
    local counter = w:create_object{ kind = "counter" }
    assert.is_number(w:schedule{ after = 1, every = 1, handler = "ffiworld.tick", args = { counter = counter } })
    local boom = w:schedule{ after = 2.5, handler = "ffiworld.boom", args = { counter = counter } }
    local failures = w:advance(3)
    assert.equal(3, w.time)
    assert.equal(3, counter:read("props.n"))
    assert.equal(1, #failures)
    assert.equal(boom, failures[1].timer)
    assert.equal("ffiworld.boom", failures[1].handler)
    assert.matches("boom", failures[1].message)
  end)

  it("emits events through subscriptions and global handlers", function()
    local w = new()
    local bell = w:create_object{ kind = "bell" }
    assert.is_number(bell:subscribe("ffiworld.ping", "ffiworld.pong", { add = 10 }))
    assert.equal(11, bell:emit("ffiworld.ping", { n = 1 }))
    assert.equal(7, w:emit("ffiworld.ping", { n = 1 }, 7))   -- no handler on the world: the default
    assert.is_true(w:on("ffiworld.ping", "spec: double", function(source, params, result)
      assert.equal(bell, source)
      assert.same({ n = 1 }, params)
      return result * 2
    end, { priority = 200 }))
    assert.equal(22, bell:emit("ffiworld.ping", { n = 1 }))
    assert.is_true(w:on("ffiworld.ping", "spec: stop", function() return 5, "stop" end, { priority = 150 }))
    assert.equal(5, bell:emit("ffiworld.ping", { n = 1 }))   -- the chain ends there
    local ok, why = w:emit("ffiworld.pnig", {})
    assert.is_nil(ok)
    assert.matches("world:emit: ", why)
  end)

  it("takes turns", function()
    local w = new()
    local rat, hero = w:create_actor{}, w:create_actor{}
    assert.is_true(w:add_turns(hero))
    assert.is_true(w:add_turns(rat, { speed = 2 }))
    assert.equal(rat, (w:next_turn()))
    assert.equal(0.5, w.time)
    assert.is_true(w:turn_took(rat, 1.5))
    assert.equal(hero, (w:next_turn()))
  end)

  it("saves and opens again, and refuses a damaged file with one line", function()
    local dir = support.tempdir()
    local w = new()
    local area = assert(w:create_area("ffiworld.dungeon"))
    local hero = assert(w:create_actor{ map = assert(area:floor(1)), x = 4, y = 2, player = true })
    hero:write("props.hp", 7)
    assert.is_true(w:save(dir .. "/w.db"))
    local again = assert(world.open(dir .. "/w.db", { data = registry() }))
    assert.equal(7, again:player():read("props.hp"))
    assert.same(MODS, again:mods())
    support.write(dir .. "/bad.db", "not a world")
    local none, why = world.open(dir .. "/bad.db")
    assert.is_nil(none)
    assert.matches("^strata.world.open: [^\n]+$", why)
  end)

  it("makes a save that Lua 5.4's module opens and goes on with, and opens that one again", function()
    local dir = support.tempdir()
    local w = new()
    local area = assert(w:create_area("ffiworld.dungeon"))
    local f1 = assert(area:floor(1))
    local hero = assert(w:create_actor{ map = f1, x = 4, y = 2, player = true, props = { hp = 7 } })
    local counter = w:create_object{ kind = "counter" }
    w:schedule{ after = 1, every = 1, handler = "ffiworld.tick", args = { counter = counter } }
    assert.same({}, w:advance(2))
    assert.is_true(w:save(dir .. "/w.db"))
    -- Lua 5.4: the same IDs from the fixture mod; the hero takes the stairs
    -- down (floor 2 generated by the 5.4 generator), time goes on, saved.
    local script = ([[
      local strata = require "strata"
      local w = strata.world.open(%q, { mod_path = { %q } })
      local hero = w:player()
      assert(hero.props.hp == 7 and hero.map.floor == 1 and w.time == 2)
      for f in hero.map:features() do if f.floor_delta == 1 then assert(w:travel(hero, f)) end end
      assert(#w:advance(3) == 0)
      hero.props.hp = 6
      w:save(%q)
      print(hero.map.floor, w.time)
    ]]):format(dir .. "/w.db", root .. "/spec/fixtures/mods", dir .. "/w.db")
    assert.equal("2\t5.0\n", js.lua54(script))
    local back = assert(world.open(dir .. "/w.db", { data = registry() }))
    local h = back:player()
    assert.equal(6, h:read("props.hp"))
    assert.equal(2, h.map.floor)
    assert.equal(5, back.time)
    assert.equal(5, back:object(counter.uid):read("props.n"))       -- 2 ticks here, 3 under 5.4
    assert.same({}, back:advance(1))
    assert.equal(6, back:object(counter.uid):read("props.n"))
    assert.is_true(back:travel(h, stairs(h.map, -1)) ~= nil)
    assert.equal(1, h.map.floor)
  end)
end)
