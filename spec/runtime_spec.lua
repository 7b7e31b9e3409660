-- The core's runtime under a Lua world (bindings/lua/runtime.c): floors,
-- events and timers run in C and find their logic in the registry; what the
-- Lua side keeps (cached streams, handler lists, long messages) stays in step.
local strata = require "strata"
local support = require "support"

local new_world = support.new_world

describe("the runtime of a Lua world", function()
  it("a stream the host holds and the floor generator draw the same numbers", function()
    local a, b = new_world(4), new_world(4)
    local ca, cb = a:create_area("dungeon.cave"), b:create_area("dungeon.cave")
    -- a draws from the floor's stream before the floor exists; b does not
    local key = "area#" .. ca.uid .. " floor 1"
    local s = a.rng:stream(key)
    local first = s:int(1000)
    b.rng:stream(key):int(1000)
    local ma, mb = ca:floor(1), cb:floor(1)
    assert.equal(mb:render(), ma:render())
    -- and the held stream goes on from where the generator left it
    assert.equal(b.rng:stream(key):int(1000), s:int(1000))
    assert.is_number(first)
  end)

  it("takes integer priorities only", function()
    local mods = require "strata.mods"
    local w = new_world()
    for _, bad in ipairs{ 1.5, 0 / 0, "1" } do
      local ok, err = pcall(mods.register_event, support.registry(w), "spec", "base.map_entered", "spec: p",
        function() end, { priority = bad })
      assert.is_false(ok)
      assert.matches("priority must be an integer", err)
    end
    assert.has_no.errors(function()
      mods.register_event(support.registry(w), "spec", "base.map_entered", "spec: p", function() end, { priority = -3 })
    end)
  end)

  it("sees global handlers a host puts in the registry after the world was made", function()
    local w = new_world()
    local log = {}
    support.only_handler(w, "base.floor_generated",
      function(map, params) log[#log + 1] = params.floor .. " " .. tostring(map == params.map) end, "spec: seen", 5)
    local cave = w:create_area("dungeon.cave")
    cave:floor(1)
    cave:floor(2)
    assert.same({ "1 true", "2 true" }, log)
    support.only_handler(w, "base.floor_generated", nil)
    cave:floor(3)
    assert.equal(2, #log)
  end)

  it("hands each handler copies of an emit's params and results, and the host a copy of the result", function()
    local w = new_world()
    local params = { fn = function() return 7 end, t = { 1 } }
    local seen = {}
    support.registry(w).handlers["dungeon.blocked"] = {
      { name = "a", priority = 1, mod = "spec", fn = function(_, p, r)
        seen[1] = p ~= params and p.t ~= params.t and p.fn() == 7 and r
        p.t[1] = 2 -- changes the handler's copy only
        return { p.t[1] } end },
      { name = "b", priority = 2, mod = "spec", fn = function(_, p, r) seen[2] = p.t[1] == 1 and r[1] == 2 return r end },
      { name = "c", priority = 3, mod = "spec", fn = function(_, _, r) return "stop" end },
      { name = "d", priority = 4, mod = "spec", fn = function() seen[3] = true end } }
    local start = { "start" }
    local r = w:emit("dungeon.blocked", params, start)
    assert.is_true(seen[1] ~= start and seen[1][1] == "start", "the default is handed as a copy")
    assert.is_true(seen[2])
    assert.is_nil(seen[3])
    assert.same({ 2 }, r)
    assert.equal(1, params.t[1])
    -- a function is no result: it would run outside any budget
    support.only_handler(w, "dungeon.blocked", function() return { f = print } end, "f")
    local failed
    support.only_handler(w, "base.handler_failed", function(_, f) failed = f.message end)
    assert.is_nil(w:emit("dungeon.blocked", {}))
    assert.matches("result%.f: a function cannot cross to the host", failed)
    -- nested emits keep their own
    support.registry(w).handlers["dungeon.blocked"] = { { name = "n", mod = "spec", priority = 1, fn = function(_, p)
      if p.depth < 3 then return w:emit("dungeon.blocked", { depth = p.depth + 1 }) + 1 end
      return 0
    end } }
    assert.equal(3, w:emit("dungeon.blocked", { depth = 0 }))
  end)

  it("keeps a mod's long error message whole through the core", function()
    local w = new_world()
    local long = ("x"):rep(900)
    support.registry(w).by_type["base.handler"]["dungeon.noop"].run = function() error(long, 0) end
    w:schedule{ after = 1, handler = "dungeon.noop" }
    local failures = w:advance(2)
    assert.equal(1, #failures)
    assert.equal(long, failures[1].message)
  end)

  it("lets a world and its runtime be collected", function()
    local weak = setmetatable({}, { __mode = "k" })
    do
      local w = new_world()
      w:create_area("dungeon.cave"):floor(1)
      weak[w] = true
    end
    collectgarbage()
    collectgarbage()
    assert.is_nil(next(weak))
  end)

  it("runs nested generation from inside a generator on the same runtime", function()
    local w = new_world()
    local tower = w:unique_area("dungeon.tower") -- its parents first, each floor in C
    assert.is_not_nil(w:find_unique("dungeon.world"))
    assert.equal(tower, w:find_unique("dungeon.tower"))
    local m = w:get_or_create_map("dungeon.deep_cave", 2)
    assert.equal(2, m.floor)
  end)
end)
