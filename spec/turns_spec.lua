-- The turn scheduler from Lua (core/include/strata/turns.h): speeds, ties,
-- an action's duration, the order across a save and an open against one
-- process, savepoints, actors leaving, base.turn_started, advance.
local strata = require "strata"
local support = require "support"

local function world_of(n, speeds)
  local w = strata.world.new{ seed = 3 }
  local actors = {}
  for i = 1, n do
    actors[i] = w:create_actor{ props = { name = "a" .. i } }
    w:add_turns(actors[i], { speed = speeds[i] })
  end
  return w, actors
end

-- who took each of n turns, and when ("uid@time")
local function turns(w, n, took)
  local out = {}
  for i = 1, n do
    local a = w:next_turn()
    out[i] = a.uid .. "@" .. w.time
    if took and i % 5 == 2 then w:turn_took(a, 2.5) end
  end
  return out
end

describe("world:next_turn", function()
  it("honours speeds over 1000 turns", function()
    local w, a = world_of(3, { 1, 2, 5 })
    local count = {}
    for _ = 1, 1000 do
      local x = w:next_turn()
      count[x] = (count[x] or 0) + 1
    end
    assert.is_true(math.abs(count[a[1]] - 125) <= 1)
    assert.is_true(math.abs(count[a[2]] - 250) <= 1)
    assert.is_true(math.abs(count[a[3]] - 625) <= 1)
  end)

  it("gives ties to the turn scheduled first", function()
    local w = strata.world.new{ seed = 1 }
    local b, a = w:create_actor{}, w:create_actor{}
    w:add_turns(a)
    w:add_turns(b)
    local order = {}
    for i = 1, 6 do order[i] = w:next_turn() == a and "a" or "b" end
    assert.are.same({ "a", "b", "a", "b", "a", "b" }, order)
  end)

  it("takes an action's duration", function()
    local w, a = world_of(2, { 1, 1 })
    assert.are.equal(a[1], w:next_turn())
    w:turn_took(a[1], 4)
    assert.are.same({ speed = 1, due = 5, started = 1 }, w:turn_info(a[1]))
    assert.are.equal(a[2], w:next_turn())
    for _ = 1, 3 do assert.are.equal(a[2], w:next_turn()) end
    assert.are.equal(a[1], w:next_turn())
    assert.are.equal(5, w.time)
  end)

  it("keeps the order across a save and an open, as one process does", function()
    local control = turns(world_of(4, { 1, 1.5, 0.5, 3 }), 400, true)
    local w = world_of(4, { 1, 1.5, 0.5, 3 })
    local first = turns(w, 150, true)
    local path = support.tempdir() .. "/turns.save"
    w:save(path)
    local again = strata.world.open(path)
    local rest = {}
    for i = 151, 400 do
      local a = again:next_turn()
      rest[#rest + 1] = a.uid .. "@" .. again.time
      if i % 5 == 2 then again:turn_took(a, 2.5) end
    end
    table.move(rest, 1, #rest, 151, first)
    assert.are.same(control, first)
  end)

  it("keeps the order when another process opens the save (the issue's acceptance)", function()
    local function run(args)
      local f = assert(io.popen("lua5.4 spec/fixtures/turns_process.lua " .. args .. " 2>&1"))
      local out = f:read("a")
      assert(f:close(), out)
      return out
    end
    local path = support.tempdir() .. "/turns.save"
    local both = run("build " .. path) .. run("resume " .. path)
    local control = run("control")
    local _, lines = control:gsub("\n", "")
    assert.are.equal(400, lines)
    assert.are.equal(control, both)
  end)

  it("is rolled back with a savepoint", function()
    local w = world_of(3, { 1, 2, 3 })
    local s = support.state(w)
    s:begin()
    local before = turns(w, 30)
    s:rollback()
    assert.are.same(before, turns(w, 30))
  end)

  it("forgets actors removed or deleted", function()
    local w, a = world_of(3, { 1, 2, 3 })
    assert.is_true(w:remove_turns(a[2]))
    assert.is_false(w:remove_turns(a[2]))
    assert.is_nil(w:turn_info(a[2]))
    a[3]:delete()
    for _ = 1, 10 do assert.are.equal(a[1], w:next_turn()) end
    w:remove_turns(a[1])
    local t = w.time
    assert.is_nil(w:next_turn())
    assert.are.equal(t, w.time)
  end)

  it("updates an actor added again", function()
    local w, a = world_of(1, { 1 })
    w:add_turns(a[1], { speed = 4 })
    assert.are.same({ speed = 4, due = 1, started = 0 }, w:turn_info(a[1]))
    w:add_turns(a[1], { speed = 4, delay = 0 })
    assert.are.equal(0, w:turn_info(a[1]).due)
  end)

  it("emits base.turn_started on the actor, also from advance", function()
    local w, a = world_of(1, { 2 })
    local seen = {}
    support.only_handler(w, "base.turn_started", function(source, params)
      seen[#seen + 1] = { source == a[1], params.actor == a[1], params.time }
    end)
    assert.are.equal(a[1], w:next_turn())
    assert.are.same({ { true, true, 0.5 } }, seen)
    w:advance(10)
    assert.are.equal(21, #seen)
    assert.are.same({ true, true, 10.5 }, seen[21])
  end)

  it("cannot be advanced from inside a turn's handler", function()
    local w, a = world_of(1, { 1 })
    local failed = {}
    support.only_handler(w, "base.turn_started", function() w:next_turn() end)
    support.only_handler(w, "base.handler_failed", function(_, p) failed[#failed + 1] = p.message end, "spec: failed")
    assert.are.equal(a[1], w:next_turn())
    assert.are.equal(1, #failed)
    assert.matches("cannot advance the world it runs in", failed[1])
    assert.are.equal(1, w.time)
    assert.are.equal(2, w:turn_info(a[1]).due) -- the turn happened all the same
  end)

  -- A mod's turn handler gets the actor (and params): the actor's world is
  -- how it acts. Mod code reads the world as its callbacks' ctx.world has it
  -- (no save); the host reads its own world.
  it("lets a mod's turn handler act through actor.world", function()
    local dir = support.tempdir()
    support.write(dir .. "/mods/walker/mod.lua", 'return { id = "walker", version = "0.1.0", requires = { base = "*" } }')
    support.write(dir .. "/mods/walker/init.lua", [[
data:add{ _type = "base.actor_archetype", _id = "walker", events = { { id = "base.turn_started",
  handler = function(me)
    local world = me.world
    world:move(me, me.x + 1, me.y)
    me.state.saw_save = pcall(function() return world.save end)
  end } } }]])
    local w = strata.world.new{ seed = 1, mods = { "walker" }, mod_path = { dir .. "/mods" } }
    local map = w:create_map{ width = 5, height = 1, fill = "floor" }
    local a = w:create_actor{ archetype = "walker.walker", map = map, x = 0, y = 0 }
    assert.is_true(rawequal(w, a.world))
    w:add_turns(a)
    w:advance(3)
    assert.equal(3, a.x)
    assert.is_false(a.state.saw_save)
    os.execute("rm -rf " .. dir)
  end)

  it("refuses bad arguments, naming the function", function()
    local w, a = world_of(1, { 1 })
    local other = strata.world.new{}:create_actor{}
    assert.error_matches(function() w:add_turns(a[1], { speed = 0 }) end, "world:add_turns: speed must be")
    assert.error_matches(function() w:add_turns(a[1], { speed = 0 / 0 }) end, "speed must be")
    assert.error_matches(function() w:add_turns(a[1], { speeed = 2 }) end, "unknown option 'speeed'.*speed")
    assert.error_matches(function() w:add_turns(a[1], { delay = -1 }) end, "delay must be")
    assert.error_matches(function() w:add_turns(other) end, "world:add_turns: expected an object of this world")
    assert.error_matches(function() w:add_turns(3) end, "expected an object of this world")
    assert.error_matches(function() w:turn_took(a[1], -2) end, "world:turn_took: duration must be")
    local b = w:create_actor{}
    assert.error_matches(function() w:turn_took(b, 1) end, "world:turn_took: actor#%d+ has no turns")
    local err = support.err_of(function() w:add_turns(a[1], { speed = 0 }) end)
    assert.matches("turns_spec.lua:%d+:", err)
  end)
end)

describe("turns played by a mod's own code", function()
  -- A mod whose monsters chase the player by a distance map in their turns' handler.
  local function hunt_world()
    local dir = support.tempdir()
    support.write(dir .. "/hunt/mod.lua", 'return { id = "hunt", version = "0.1.0", requires = { base = "^0.1" } }')
    support.write(dir .. "/hunt/init.lua", [[
data:add{ _type = "base.handler", _id = "act", run = function(source, params, args)
  local world = source.world
  local field = source.map:distance_map({ world:player() }, { connectivity = 8 })
  local x, y = field:step_down(source.x, source.y)
  if x then world:move(source, x, y) end
  world:turn_took(source, args.took)
end }
events:register("base.turn_started", "hunt: seen", function(source, params, result)
  source.state.turns = (source.state.turns or 0) + (source.world:turn_info(source) and 1 or 0)
end)]])
    local w = strata.world.new{ seed = 1, mods = { "hunt" }, mod_path = { dir } }
    local map = w:create_map{ width = 12, height = 3, fill = "floor" }
    local hero = w:create_actor{ map = map, x = 0, y = 1, player = true }
    local orc = w:create_actor{ map = map, x = 11, y = 1 }
    orc:subscribe("base.turn_started", "hunt.act", { took = 2 })
    w:add_turns(orc)
    return w, hero, orc
  end

  it("acts through its actor's world: a distance map's step, its action's duration", function()
    local w, _, orc = hunt_world()
    assert.are.equal(orc, w:next_turn())
    assert.are.equal(10, orc.x)
    assert.are.equal(3, w:turn_info(orc).due) -- took 2 from its start at 1
    assert.are.equal(1, orc.state.turns)
  end)
end)

describe("turns near the end of time", function()
  it("refuse a first turn or an action past the latest time a timer can have, saying so", function()
    local w = strata.world.new{ seed = 1 }
    local a = w:create_actor{}
    assert.error_matches(function() w:add_turns(a, { speed = 1e-320 }) end,
      "world:add_turns: actor#%d+'s next turn would start at inf, past 1e%+300, the latest time a timer can have")
    assert.error_matches(function() w:add_turns(a, { delay = 1e308 }) end, "next turn would start at 1e%+308, past 1e%+300")
    assert.is_nil(w:turn_info(a))
    w:add_turns(a)
    assert.error_matches(function() w:turn_took(a, 1e308) end, "world:turn_took: actor#%d+'s next turn would start at")
    assert.are.equal(1, w:turn_info(a).due)
  end)

  it("report a turn that cannot be scheduled again as its timer's failure, the actor out", function()
    local w = strata.world.new{ seed = 1 }
    local a = w:create_actor{}
    w:add_turns(a, { speed = 1e-300, delay = 0 })
    assert.are.equal(a, w:next_turn())
    local who, failures = w:next_turn()
    assert.is_nil(who)
    assert.matches("actor#%d+'s next turn would start at 2e%+300, past 1e%+300", failures[1].message)
  end)
end)

describe("a turn's failing handler", function()
  it("is among the failures next_turn and advance return, with its event", function()
    local w, a = world_of(1, { 1 })
    support.only_handler(w, "base.turn_started", function() error("the orc trips") end, "spec: orc")
    local who, failures = w:next_turn()
    assert.are.equal(a[1], who)
    assert.are.equal(1, #failures)
    assert.matches("the orc trips", failures[1].message)
    assert.are.equal("base.turn_started", failures[1].event)
    assert.are.equal("spec: orc", failures[1].handler)
    failures = w:advance(2)
    assert.are.equal(2, #failures)
    assert.are.equal(4, w:turn_info(a[1]).due) -- the turns happened all the same
  end)
end)
