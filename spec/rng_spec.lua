-- Seeded generators from Lua: ranges, helpers, saved state, streams.
local strata = require "strata"

describe("strata.rng", function()
  it("repeats the same sequence for the same seed", function()
    local a, b = strata.rng.new(42), strata.rng.new(42)
    for _ = 1, 50 do assert.are.equal(a:int(1, 1000), b:int(1, 1000)) end
    local s1, s2 = strata.rng.new("world"), strata.rng.new("world")
    assert.are.equal(s1:float(), s2:float())
  end)

  it("draws integers in range, like math.random", function()
    local r = strata.rng.new(1)
    local seen = {}
    for _ = 1, 600 do
      local v = r:int(6)
      assert.is_true(v >= 1 and v <= 6)
      seen[v] = true
      local w = r:int(-2, 2)
      assert.is_true(w >= -2 and w <= 2)
    end
    assert.are.equal(6, #seen)
    assert.are.equal(7, r:int(7, 7))
  end)

  it("draws floats, chances, shuffles and picks", function()
    local r = strata.rng.new(2)
    for _ = 1, 100 do
      local f = r:float()
      assert.is_true(f >= 0 and f < 1)
      local g = r:float(5, 6)
      assert.is_true(g >= 5 and g < 6)
    end
    assert.is_false(r:chance(0))
    assert.is_true(r:chance(1))
    local t = { 1, 2, 3, 4, 5, 6, 7, 8 }
    assert.are.equal(t, r:shuffle(t))
    table.sort(t)
    assert.are.same({ 1, 2, 3, 4, 5, 6, 7, 8 }, t)
    local p = r:pick{ "a", "b" }
    assert.is_true(p == "a" or p == "b")
  end)

  it("saves and restores its state", function()
    local r = strata.rng.new(3)
    r:int(100)
    local saved = r:state()
    assert.are.equal(32, #saved)
    local next_values = { r:int(1000), r:int(1000), r:float() }
    r:set_state(saved)
    assert.are.same(next_values, { r:int(1000), r:int(1000), r:float() })
    local other = strata.rng.new(99):set_state(saved)
    r:set_state(saved)
    assert.are.equal(r:int(1000), other:int(1000))
  end)

  it("derives streams from the seed and a key, not from the position", function()
    local a, b = strata.rng.new(7), strata.rng.new(7)
    for _ = 1, 10 do b:int(10) end
    assert.are.equal(a:stream("floor 3"):int(1e9), b:stream("floor 3"):int(1e9))
    assert.are_not.equal(a:stream("floor 3"):int(1e9), a:stream("floor 4"):int(1e9))
    assert.are.equal(a:stream(5):int(1e9), a:stream("5"):int(1e9))
    assert.are.equal(a:stream("x"):stream("y"):int(1e9), b:stream("x"):stream("y"):int(1e9))
  end)

  it("names bad arguments", function()
    local r = strata.rng.new(1)
    assert.error_matches(function() strata.rng.new({}) end, "seed must be an integer or a string")
    assert.error_matches(function() strata.rng.new(1.5) end, "seed must be an integer")
    assert.error_matches(function() r:int(5, 1) end, "interval is empty")
    assert.error_matches(function() r:int(0) end, "interval is empty")
    assert.error_matches(function() r:int("x") end, "number expected")
    assert.error_matches(function() r:float(2, 1) end, "interval is empty")
    assert.error_matches(function() r:chance(0 / 0) end, "probability is NaN")
    assert.error_matches(function() r:pick{} end, "cannot pick from an empty list")
    assert.error_matches(function() r:shuffle(3) end, "table expected")
    assert.error_matches(function() r:set_state("zz") end, "not a generator state")
    assert.error_matches(function() r:stream({}) end, "string expected")
    assert.error_matches(function() r.int(5, 1) end, "rng:int: expected a strata.rng as self")
  end)
end)
