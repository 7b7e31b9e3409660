-- Noise from the core (core/include/strata/noise.h): simplex noise and the
-- diamond-square heights NoiseMap uses, seeded from a seed or a generator.
local strata = require "strata"

describe("strata.noise", function()
  it("gives simplex noise in [-1, 1], the same for the same seed, continuous", function()
    local a, b, c = strata.noise.simplex(7), strata.noise.simplex(7), strata.noise.simplex(8)
    local lo, hi, jump, differ = 1, -1, 0, false
    for i = 0, 9999 do
      local x, y = (i % 100) * 0.173 - 5, (i // 100) * 0.191 + 2
      local v = a:at(x, y)
      assert(v == b:at(x, y))
      differ = differ or v ~= c:at(x, y)
      lo, hi = math.min(lo, v), math.max(hi, v)
      jump = math.max(jump, math.abs(a:at(x + 1e-4, y) - v))
    end
    assert.is_true(differ)
    assert.is_true(lo >= -1 and hi <= 1)
    assert.is_true(lo < -0.5 and hi > 0.5)
    assert.is_true(jump < 0.01)
  end)

  it("seeds from a generator, moving it on", function()
    local r1, r2 = strata.rng.new(3), strata.rng.new(3)
    local a, b = strata.noise.simplex(r1), strata.noise.simplex(r2)
    assert.are.equal(a:at(0.5, 0.25), b:at(0.5, 0.25))
    assert.are.equal(r1:state(), r2:state())
    assert.are_not.equal(strata.rng.new(3):state(), r1:state())
    local w = strata.world.new{ seed = 9 }
    local s = strata.noise.simplex(w.rng:stream("terrain"))
    assert.are.equal(strata.noise.simplex(strata.rng.new(9):stream("terrain")):at(1.5, 2.5), s:at(1.5, 2.5))
  end)

  it("gives the diamond-square heights in [0, 1]", function()
    local h1 = strata.noise.heights(30, 20, { rng = strata.rng.new(11), variance = 0.6 })
    local h2 = strata.noise.heights(30, 20, { rng = strata.rng.new(11), variance = 0.6 })
    assert.are.equal(30, h1.width)
    assert.are.equal(20, h1.height)
    local lo, hi = 1, 0
    for y = 0, 19 do
      for x = 0, 29 do
        local v = h1:at(x, y)
        assert(v == h2:at(x, y))
        lo, hi = math.min(lo, v), math.max(hi, v)
      end
    end
    assert.are.equal(0, lo)
    assert.are.equal(1, hi)
    local h3 = strata.noise.heights(30, 20, { seed = 5 })
    assert.are.equal(strata.noise.heights(30, 20, { seed = 5 }):at(3, 4), h3:at(3, 4))
  end)

  it("refuses bad arguments", function()
    local n = strata.noise.simplex(1)
    assert.error_matches(function() strata.noise.simplex({}) end, "strata.noise.simplex: expected a seed")
    assert.error_matches(function() n:at("x", 1) end, "number expected")
    assert.error_matches(function() strata.noise.heights(0, 5, { seed = 1 }) end,
      "strata.noise.heights: width and height")
    assert.error_matches(function() strata.noise.heights(5, 5, { seed = {} }) end, "option 'seed' must be an integer or a string")
    assert.are.equal(strata.noise.simplex("x"):at(0.3, 0.4), strata.noise.simplex(strata.rng.new("x")):at(0.3, 0.4))
    assert.error_matches(function() strata.noise.heights(5, 5, { sed = 1 }) end, "unknown option 'sed'")
    assert.error_matches(function() strata.noise.heights(5, 5, { seed = 1, variance = 0 / 0 }) end, "variance must be")
    assert.error_matches(function() strata.noise.heights(5, 5, {}) end, "needs a seed or an rng")
    assert.error_matches(function() strata.noise.heights(5, 5, { seed = 1 }):at(5, 0) end, "out of the heights")
  end)
end)

describe("strata.noise.simplex at hostile coordinates", function()
  it("is in [-1, 1] wherever x, y or their sum is not finite", function()
    local n = strata.noise.simplex(1)
    for _, p in ipairs{ { 0 / 0, 1 }, { math.huge, 1 }, { 1.7e308, 1.7e308 }, { -1.7e308, -1.7e308 }, { 1e308, 1e308 } } do
      local v = n:at(p[1], p[2])
      assert.is_true(v >= -1 and v <= 1, ("at(%g, %g) = %s"):format(p[1], p[2], tostring(v)))
    end
  end)
end)
