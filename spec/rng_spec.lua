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

-- A world stream has one state, the world's: what a timer handler draws is
-- where the next draw starts, in the same advance, the next one, and after a
-- save opened by another process.
describe("world streams drawn in timer handlers", function()
  local function run(args)
    local f = assert(io.popen("lua5.4 spec/fixtures/dice_process.lua " .. args .. " 2>&1"))
    local out = f:read("a")
    local ok = f:close()
    assert(ok, out)
    return out
  end

  it("go on drawing across 10 advances, a save and a reopen in a second process", function()
    local path = os.tmpname()
    run("build " .. path)
    local resumed = run("resume " .. path)
    os.remove(path)
    local control = run("control")
    assert.equal(control, resumed)
    local seen, n = {}, 0
    for v in resumed:gmatch("%d+") do
      assert.is_nil(seen[v], "drawn twice: " .. v .. " in\n" .. resumed)
      seen[v], n = true, n + 1
    end
    assert.equal(10, n)
  end)

  it("are the world's: values of one key share one position, derived streams follow the seed", function()
    local w = strata.world.new{ seed = 77 }
    local a, b = w.rng:stream("k"), w.rng:stream("k")
    local control = strata.rng.new(77):stream("k")
    assert.equal(control:int(1, 1e9), a:int(1, 1e9))
    assert.equal(control:int(1, 1e9), b:int(1, 1e9))
    assert.equal(a, b)
    assert.equal("k", a.key)
    assert.equal(strata.rng.new(77):stream("k"):stream("sub"):int(1, 1e9), a:stream("sub"):int(1, 1e9))
    assert.not_equal(strata.world.new{ seed = 78 }.rng:stream("k"):stream("sub"):int(1, 1e9),
      strata.world.new{ seed = 77 }.rng:stream("k"):stream("sub"):int(1, 1e9))
    assert.error_matches(function() a.x = 1 end, "stream 'k' has no fields to set")
  end)

  it("go on drawing when several runs fall in one advance", function()
    local w = strata.world.new{ seed = 4, mods = { "base", "testmod" }, mod_path = { "mods", "spec/fixtures/mods" } }
    local log = w:create_object{ kind = "log" }
    w:schedule{ after = 1, every = 1, handler = "testmod.roll", args = { log = log } }
    w:advance(3)
    w:advance(3)
    local direct = w.rng:stream("dice"):int(1, 1000000000)
    local values = { table.unpack(log.state.log) }
    values[#values + 1] = direct
    local control = strata.rng.new(0)
    local w2 = strata.world.new{ seed = 4 }
    control:set_state(w2.rng:stream("dice"):state())
    for i = 1, 7 do assert.equal(control:int(1, 1000000000), values[i]) end
  end)
end)

-- Normal and weighted draws (strata_rng_normal, strata_rng_weighted), on
-- fixed seeds: the verdicts never change from run to run.
describe("rng:normal and rng:weighted", function()
  it("draws normals whose mean and deviation are within bounds, the same every run", function()
    local r, r2 = strata.rng.new(1234), strata.rng.new(1234)
    local n, sum, sq = 20000, 0, 0
    for _ = 1, n do
      local x = r:normal(10, 2)
      assert(x == r2:normal(10, 2))
      sum, sq = sum + x, sq + x * x
    end
    local mean = sum / n
    local sd = math.sqrt(sq / n - mean * mean)
    -- the mean's standard error is 2 / sqrt(n) = 0.014: within 5 of them
    assert.is_true(math.abs(mean - 10) < 0.071, "mean " .. mean)
    assert.is_true(math.abs(sd - 2) < 0.05, "sd " .. sd)
    assert.are.equal(0, strata.rng.new(5):normal() * 0 + 0) -- (defaults: mean 0, sd 1)
    assert.are.equal(strata.rng.new(5):normal(0, 1), strata.rng.new(5):normal())
    assert.are.equal(3, r:normal(3, 0))
  end)

  it("draws keys by weight, whatever the table's order", function()
    local r = strata.rng.new(99)
    local count = { a = 0, b = 0, c = 0 }
    for _ = 1, 20000 do
      local k = r:weighted{ a = 3, b = 1, c = 0, d = 6 }
      count[k] = (count[k] or 0) + 1
    end
    assert.are.equal(0, count.c)
    assert.is_true(math.abs(count.a - 6000) < 350, "a " .. count.a) -- sd of a count under 70
    assert.is_true(math.abs(count.b - 2000) < 350, "b " .. count.b)
    assert.is_true(math.abs(count.d - 12000) < 350, "d " .. count.d)
    -- the same draws from tables built in other orders (keys are sorted first)
    local function draws(t)
      local g, out = strata.rng.new(7), {}
      for i = 1, 200 do out[i] = g:weighted(t) end
      return table.concat(out, " ")
    end
    local one = draws{ x = 1, y = 2, z = 3, [1] = 4, [2] = 0.5 }
    local t = {}
    for _, k in ipairs{ "z", 2, "y", 1, "x" } do t[k] = ({ x = 1, y = 2, z = 3, [1] = 4, [2] = 0.5 })[k] end
    for i = 1, 50 do t["pad" .. i] = 0 end
    for i = 1, 50 do t["pad" .. i] = nil end
    assert.are.equal(one, draws(t))
    -- a list: its indices
    local idx = r:weighted{ 0, 0, 5 }
    assert.are.equal(3, idx)
  end)

  it("draws from world streams too", function()
    local w = strata.world.new{ seed = 4 }
    local s = w.rng:stream("loot")
    local control = strata.rng.new(4):stream("loot")
    assert.are.equal(control:weighted{ a = 1, b = 1 }, s:weighted{ a = 1, b = 1 })
    assert.are.equal(control:normal(0, 1), s:normal(0, 1))
  end)

  it("refuses weights that are not finite numbers >= 0 with a positive sum", function()
    local r = strata.rng.new(1)
    assert.error_matches(function() r:weighted{ a = -1, b = 2 } end,
      "rng:weighted: weight of 'a' must be a finite number >= 0, got %-1")
    assert.error_matches(function() r:weighted{ a = 0 / 0 } end, "weight of 'a' must be a finite number")
    assert.error_matches(function() r:weighted{ a = math.huge } end, "weight of 'a' must be a finite number")
    assert.error_matches(function() r:weighted{ a = "x" } end, "weight of 'a' must be a finite number >= 0, got string")
    assert.error_matches(function() r:weighted{ a = 0, b = 0 } end, "rng:weighted: the weights sum to 0")
    assert.error_matches(function() r:weighted{} end, "rng:weighted: the weights sum to 0")
    assert.error_matches(function() r:weighted{ [{}] = 1 } end, "keys must be strings or numbers")
    assert.error_matches(function() r:weighted(3) end, "table expected")
    assert.error_matches(function() r:normal(0, -1) end, "rng:normal: sd must be a finite number >= 0")
    assert.error_matches(function() r:normal(0 / 0, 1) end, "rng:normal: mean must be a finite number")
  end)
end)

describe("rng:weighted with weights near the largest number", function()
  it("draws by weight when the weights' sum is past the largest number", function()
    local r, seen = strata.rng.new(5), { a = 0, b = 0, c = 0 }
    for _ = 1, 400 do
      local k = r:weighted{ a = 1e308, b = 1e308, c = 0 }
      seen[k] = seen[k] + 1
    end
    assert.are.equal(0, seen.c)
    assert.is_true(seen.a > 100 and seen.b > 100)
  end)
end)
