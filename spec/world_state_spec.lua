-- World state from Lua: handles, checked persistent tables, timers, events, RNG streams.
local strata = require "strata"
local support = require "support"

local MODS = { "base", "testmod" }
local function testmod_world(seed) return support.new_world(seed, MODS) end

describe("world handles", function()
  it("have uid, kind, alive and fail clearly once deleted", function()
    local w = testmod_world()
    local a = w:create_actor{}
    assert.equal("actor", a.kind)
    assert.is_true(a:alive())
    assert.equal(a, w:object(a.uid))
    a.state.hp = 5
    a:delete()
    assert.is_false(a:alive())
    assert.has_error(function() return a.state end, "state: actor#" .. a.uid .. " was deleted")
    assert.is_nil(w:object(a.uid))
    local b = w:create_object{ kind = "thing" }
    assert.is_true(b.uid > a.uid) -- uids are never reused
  end)

  it("unknown archetypes are refused with suggestions", function()
    local w = testmod_world()
    local ok, err = pcall(w.create_object, w, { kind = "actor", archetype = "testmod.gobiln" })
    assert.is_false(ok)
    assert.matches("unknown base.actor_archetype 'testmod.gobiln'.*testmod.goblin", err)
  end)
end)

describe("persistent tables refuse what cannot be saved", function()
  local w, a
  before_each(function() w = testmod_world() a = w:create_actor{} end)

  it("keeps nested data and handles", function()
    local other = w:create_object{ kind = "thing" }
    a.state.bag = { "sword", { gold = 5 }, owner = other }
    assert.equal("sword", a.state.bag[1])
    assert.equal(5, a.state.bag[2].gold)
    assert.equal(other, a.state.bag.owner)
    assert.equal(2, #a.state.bag)
    a.state.bag[2].gold = nil
    assert.is_nil(a.state.bag[2].gold)
    a.props.copy = a.state.bag -- a persistent table is copied by value
    a.state.bag[1] = "axe"
    assert.equal("sword", a.props.copy[1])
  end)

  it("refuses a function at assignment with the key path (properties)", function()
    assert.has_error(function() a.props.on_hit = function() end end,
      "actor#" .. a.uid .. " props.on_hit: cannot store a function; register it with data:add and store its ID")
  end)

  it("refuses a function in metadata and nested tables", function()
    local area = w:create_object{ kind = "area" }
    assert.has_error(function() area.meta.on_boss = print end,
      "area#" .. area.uid .. " meta.on_boss: cannot store a function; register it with data:add and store its ID")
    a.state.deep = { list = { 1, 2 } }
    local ok, err = pcall(function() a.state.deep.list[3] = { fn = print } end)
    assert.is_false(ok)
    assert.matches("actor#%d+ state.deep.list%[3%].fn: cannot store a function", err)
    assert.is_nil(a.state.deep.list[3]) -- nothing half-stored
    ok, err = pcall(function() a.state.x = { 1, { 2, { f = function() end } } } end)
    assert.matches("state.x%[2%]%[2%].f: cannot store a function", err)
    assert.is_nil(a.state.x)
  end)

  it("refuses coroutines, foreign userdata, cyclic tables and metatables", function()
    assert.has_error(function() a.state.c = coroutine.create(print) end)
    local ok, err = pcall(function() a.state.f = io.stdout end)
    assert.matches("state.f: cannot store a userdata", err)
    local t = {} t.self = t
    ok, err = pcall(function() a.state.t = t end)
    assert.matches("state.t.self: cannot store a cyclic table", err)
    ok, err = pcall(function() a.state.m = setmetatable({}, {}) end)
    assert.matches("cannot store a table with a metatable", err)
    ok, err = pcall(function() a.state.k = { [1.5] = true } end)
    assert.matches("keys must be strings or integers", err)
    -- the same table twice (not a cycle) is fine
    local shared = { 1 }
    a.state.pair = { shared, shared }
    assert.equal(1, a.state.pair[2][1])
  end)

  it("refuses functions in timer and subscription args", function()
    local ok, err = pcall(w.schedule, w, { after = 1, handler = "testmod.note", args = { cb = print } })
    assert.is_false(ok)
    assert.matches("timer args.cb: cannot store a function", err)
    assert.equal(0, #w:timers())
    ok, err = pcall(a.subscribe, a, "testmod.poked", "testmod.on_poke", { f = print })
    assert.matches("actor#%d+ subscription args.f: cannot store a function", err)
    assert.equal(0, #a:subscriptions())
  end)
end)

describe("timers", function()
  it("run due timers in (time, uid) order and repeat", function()
    local w = testmod_world()
    local log = w:create_object{ kind = "log" }
    w:schedule{ after = 5, handler = "testmod.note", args = { log = log, tag = "b" } }
    w:schedule{ after = 5, handler = "testmod.note", args = { log = log, tag = "c" } }
    w:schedule{ after = 2, every = 3, handler = "testmod.note", args = { log = log, tag = "r" } }
    local gone = w:schedule{ after = 1, handler = "testmod.note", args = { log = log, tag = "x" } }
    assert.is_true(w:cancel(gone))
    assert.is_false(w:cancel(gone))
    w:advance(9)
    assert.equal(9, w.time)
    local tags = {}
    for _, line in ipairs(log.state.log) do tags[#tags + 1] = line:match("^(.-):") end
    assert.same({ "r@2", "b@5", "c@5", "r@5", "r@8" }, tags)
    assert.has_error(function() w:advance(-1) end)
    assert.has_error(function() w:schedule{ after = 1, handler = "testmod.nope" } end)
  end)
end)

describe("events", function()
  it("includes the source archetype's events", function()
    local w = testmod_world()
    local g = w:create_actor{ archetype = "testmod.goblin" }
    local plain = w:create_actor{}
    assert.equal(1100, g:emit("testmod.poked", {}, 0))
    assert.equal(1000, plain:emit("testmod.poked", {}, 0))
  end)

  it("orders global handlers and subscriptions by (priority, name); stop ends", function()
    local w = testmod_world()
    local g = w:create_actor{}
    g:subscribe("testmod.poked", "testmod.on_poke", { label = "late", add = 1 }, { priority = 300 })
    g:subscribe("testmod.poked", "testmod.on_poke", { label = "early", add = 10 }, { priority = 1 })
    assert.equal(1011, g:emit("testmod.poked", { who = "t" }, 0))
    assert.same({ "poke early by t", "poke late by t" }, { g.state.log[1], g.state.log[2] })
    local s = g:subscribe("testmod.poked", "testmod.stopper", nil, { priority = 100 })
    assert.equal(1010, g:emit("testmod.poked", { who = "t" }, 0))
    s:cancel()
    assert.equal(1011, g:emit("testmod.poked", { who = "t" }, 0))
    assert.equal(1000, w:emit("testmod.poked", {}, 0))
    local ok, err = pcall(w.emit, w, "testmod.undeclared", {})
    assert.is_false(ok)
    assert.matches("unknown base.event 'testmod.undeclared'", err)
  end)
end)

describe("random streams", function()
  it("are reproducible per (seed, key) and independent of order", function()
    local a, b = testmod_world(5), testmod_world(5)
    local x = a.rng:stream("loot"):int(1, 1e9)
    b.rng:stream("other"):int(1, 10)
    assert.equal(x, b.rng:stream("loot"):int(1, 1e9))
    assert.equal(a.rng:stream("loot"), a.rng:stream("loot"))
  end)
end)

describe("strata run", function()
  it("drives world time from the luv loop", function()
    local bin = os.getenv("STRATA_BIN")
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local f = io.popen(bin .. " run spec/fixtures/realtime.lua 2>&1")
    local out = f:read("a")
    f:close()
    -- timers every 2 world seconds: as many ran as whole periods passed
    local ran, periods, reached = out:match("^(%d+)\t(%d+)\t(%a+)\n$")
    assert.equal("true", reached, out)
    assert.equal(periods, ran)
    assert.is_true(tonumber(ran) >= 3)
  end)
end)
