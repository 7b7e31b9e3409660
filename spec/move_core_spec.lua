-- Movement is the core's (core/include/strata/move.h, issue 30): a walk the
-- core stores continues in a world opened from Lua, saves whose walks and
-- branch timers walk.lua and branches.lua wrote go on, the move events carry
-- points as strata gives them, and the step and branch timers are the core's
-- own, whatever a mod makes of their handlers.
local strata = require "strata"

local support = require "support"
local tile_world = support.walk_world

local function reopen(w, opts)
  local path = os.tmpname()
  w:save(path)
  local again = strata.world.open(path, opts)
  os.remove(path)
  return again
end

describe("movement in the core", function()
  it("a walk stored by the core's strata_walk goes on in the world opened from Lua", function()
    local w, _, hero = tile_world()
    support.runtime(w):walk(hero.uid, 7, 2, 1)          -- the C function, as a C game calls it
    w:advance(2)
    local again = reopen(w)
    local h2 = again:player()
    local plan = again:walk_plan(h2)
    assert.equal("walking", plan.state)
    again:advance(30)
    assert.equal("arrived", plan.state)
    assert.same({ 7, 2 }, { h2.x, h2.y })
  end)

  it("a walk in the layout walk.lua stored (sys.walk and a base.walk_step timer) goes on", function()
    local w, _, hero = tile_world()
    local timer = w:schedule{ after = 1, handler = "base.walk_step", args = { actor = hero.uid } }
    support.state(w):set(hero.uid, "sys", { walk = { x = 7, y = 0, every = 1, timer = timer, state = "walking" } }, "sys")
    local again = reopen(w)
    again:advance(20)
    local h2 = again:player()
    assert.same({ 7, 0 }, { h2.x, h2.y })
    assert.equal("arrived", again:walk_plan(h2).state)
  end)

  it("the core's refusals reach Lua named by the Lua function", function()
    local w, _, hero = tile_world()
    assert.same({ nil, "the way is blocked" }, { w:move(hero, 4, 0) })
    assert.error_matches(function() w:walk(hero, { 7, 0 }, { step_every = 0 }) end,
      "world:walk: step_every must be a number of at least 0.001 seconds", nil, true)
    assert.error_matches(function() w:walk(hero, { 7, 0 }, { step_every = 1 / 0 }) end, "world:walk: step_every")
  end)

  it("tile moves emit points with [1], [2] and x, y", function()
    local w, _, hero = tile_world()
    local seen
    require("strata.mods").register_event(support.registry(w), "spec", "base.moved", "spec: log", function(_, p)
      seen = { p.from.x, p.from.y, p.to[1], p.to[2], p.to.x, p.to.y, p.map == hero.map, p.actor == hero }
    end)
    assert.is_true(w:move(hero, 1, 1))
    assert.same({ 0, 0, 1, 1, 1, 1, true, true }, seen)
  end)

  it("walks step by the core's own base.walk_step, whatever a mod patches", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir -p " .. dir .. "/patcher"))
    local f = assert(io.open(dir .. "/patcher/mod.lua", "w"))
    f:write('return { id = "patcher", version = "0.1.0", requires = { base = "^0.1" } }')
    f:close()
    f = assert(io.open(dir .. "/patcher/init.lua", "w"))
    f:write('data:patch("base.handler", "base.walk_step", "stop", function(e) e.run = function() error("patched away") end end)')
    f:close()
    local w = strata.world.new{ seed = 2, mods = { "base", "patcher" }, mod_path = { dir } }
    local m = w:create_map{ width = 8, height = 3, fill = "floor" }
    local hero = w:create_actor{ map = m, x = 0, y = 0 }
    local plan = w:walk(hero, { 5, 0 })
    assert.same({}, w:advance(10))
    assert.equal("arrived", plan.state)
    os.execute("rm -rf " .. dir)
  end)

  it("a branch made before (its timers in sys.btimers) collapses by the core's idle timer after a reopen", function()
    local opts = { mods = { "base", "delve" }, mod_path = { "mods", "spec/fixtures/mods" } }
    local w = strata.world.new{ seed = 5, mods = opts.mods, mod_path = opts.mod_path }
    local hub = w:create_room{ name = "Hub" }
    w.branches:make_start(hub, { north = "delve.narrow" })
    local a = w:create_actor{ room = hub }
    assert.is_true(w:go(a, "north"))
    local b = a.room.branch
    local timers = support.state(w):snapshot(b.uid, "sys", "btimers")
    assert.is_number(timers.idle)
    local again = reopen(w, opts)
    again:advance(10000)
    assert.equal("Hub", again:object(a.uid).room.name)
    assert.is_nil(again:object(b.uid))
  end)
end)
