-- Tile maps from Lua: cells, token traits, paths, rendering, and the error
-- raised for each kind of bad argument.
local strata = require "strata"

local function walls(m, cells)
  for _, c in ipairs(cells) do m:reset(c[1], c[2], "wall") end
end

describe("strata.tilemap", function()
  local tokens
  before_each(function()
    tokens = strata.tokens.new()
    tokens:define("wall", { passable = false, glyph = "#" })
    tokens:define("floor", { glyph = "." })
    tokens:define("water", { cost = 3, glyph = "~" })
  end)

  it("creates maps filled or empty, with width and height", function()
    local m = strata.tilemap.new{ width = 4, height = 3, fill = "floor", tokens = tokens }
    assert.are.equal(4, m.width)
    assert.are.equal(3, m.height)
    assert.are.same({ "floor" }, m:tokens(3, 2))
    local e = strata.tilemap.new{ width = 2, height = 2 }
    assert.are.same({}, e:tokens(0, 0))
    assert.is_nil(e:top(0, 0))
    assert.matches("strata.tilemap 4x3", tostring(m))
  end)

  it("stacks tokens: set, add_front, remove, reset, clear, has, top", function()
    local m = strata.tilemap.new{ width = 3, height = 3, fill = "floor", tokens = tokens }
    m:set(1, 1, "water"):set(1, 1, "door")
    m:add_front(1, 1, "rock")
    assert.are.same({ "rock", "floor", "water", "door" }, m:tokens(1, 1))
    assert.are.equal("door", m:top(1, 1))
    assert.is_true(m:has(1, 1, "water"))
    assert.is_false(m:has(1, 1, "lava"))
    assert.is_false(m:has(0, 0, "water"))
    m:set(1, 1, "water")
    assert.are.equal(2, m:remove(1, 1, "water"))
    assert.are.equal(0, m:remove(1, 1, "never-seen"))
    assert.are.same({ "rock", "floor", "door" }, m:tokens(1, 1))
    m:reset(1, 1, "wall")
    assert.are.same({ "wall" }, m:tokens(1, 1))
    m:reset(1, 1)
    assert.are.same({}, m:tokens(1, 1))
    m:clear("water")
    assert.are.same({ "water" }, m:tokens(1, 1))
    m:clear()
    assert.are.same({}, m:tokens(2, 2))
  end)

  it("fills rectangles in one call, clipped to the map", function()
    local m = strata.tilemap.new{ width = 5, height = 4, fill = "floor", tokens = tokens }
    m:fill(-1, -1, 3, 3, "wall")
    m:fill(3, 2, 10, 10, "water", { push = true })
    assert.are.equal("##...\n##...\n...~~\n...~~\n", m:render())
  end)

  it("takes passability and cost from token traits", function()
    local m = strata.tilemap.new{ width = 3, height = 1, fill = "floor", tokens = tokens }
    m:set(1, 0, "water")
    assert.are.equal(3, m:cost(1, 0))
    assert.is_true(m:passable(1, 0))
    m:set(1, 0, "wall")
    assert.is_false(m:passable(1, 0))
    assert.is_nil(m:cost(1, 0))
    local t = tokens:traits("water")
    assert.are.same({ passable = true, transparent = true, cost = 3, glyph = "~" }, t)
    assert.are.same({ passable = true, transparent = true, cost = 1, glyph = "l" }, tokens:traits("lava"))
  end)

  it("lets one map redefine tokens without touching others", function()
    local a = strata.tilemap.new{ width = 3, height = 1, fill = "floor", tokens = tokens }
    local b = strata.tilemap.new{ width = 3, height = 1, fill = "floor", tokens = tokens }
    a:define_token("floor", { passable = false })
    assert.is_false(a:passable(0, 0))
    assert.is_true(b:passable(0, 0))
    local c = strata.tilemap.new{ width = 2, height = 1, fill = "ice",
                                  tokens = { ice = { cost = 5, glyph = "=" } } }
    assert.are.equal(5, c:cost(0, 0))
    assert.are.equal("==\n", c:render())
  end)

  it("uses the default token table when given none", function()
    strata.tokens.define("spec_lava", { passable = false, glyph = "%" })
    local m = strata.tilemap.new{ width = 2, height = 1, fill = "spec_lava" }
    assert.is_false(m:passable(0, 0))
    assert.are.equal("%%\n", m:render())
    assert.is_false(strata.tokens.traits("spec_lava").passable)
  end)

  describe("find_path", function()
    local m
    before_each(function()
      m = strata.tilemap.new{ width = 7, height = 5, fill = "floor", tokens = tokens }
      walls(m, { { 3, 0 }, { 3, 1 }, { 3, 2 }, { 3, 3 } })
    end)

    it("finds optimal paths with every optimal algorithm", function()
      for _, alg in ipairs{ "astar", "dijkstra", "bfs" } do
        local p, cost = m:find_path({ 0, 0 }, { 6, 0 }, { algorithm = alg })
        assert.are.equal(14, cost, alg)
        assert.are.equal(15, #p, alg)
        assert.are.same({ 0, 0, x = 0, y = 0 }, p[1])  -- points carry both spellings
        assert.are.same({ 6, 0, x = 6, y = 0 }, p[#p])
        assert.are.equal(cost, p.cost)
      end
      local g = m:find_path({ 0, 0 }, { 6, 0 }, { algorithm = "greedy" })
      assert.is_true(g.cost >= 14)
    end)

    it("accepts {x =, y =} points and 8-connectivity", function()
      local p, cost = m:find_path({ x = 0, y = 0 }, { x = 6, y = 0 },
                                  { connectivity = 8, diagonal_cost = 1 })
      assert.are.equal(8, cost)
      assert.are.equal(9, #p)
      local _, c2 = m:find_path({ 0, 0 }, { 6, 0 }, { connectivity = 8 })
      assert.is_true(math.abs(c2 - (2 + 6 * math.sqrt(2))) < 1e-9) -- through (3, 4)
    end)

    it("prefers cheaper cells and reports no path as nil", function()
      local w = strata.tilemap.new{ width = 3, height = 2, fill = "floor", tokens = tokens }
      w:reset(1, 0, "water")
      local _, cost = w:find_path({ 0, 0 }, { 2, 0 })
      assert.are.equal(4, cost)
      walls(m, { { 3, 4 } })
      local none, why = m:find_path({ 0, 0 }, { 6, 0 })
      assert.is_nil(none)
      assert.equal("no path from (0, 0) to (6, 0)", why)  -- as XY maps: nil and a reason
      assert.is_nil(m:find_path({ 0, 0 }, { 3, 0 })) -- the goal is a wall
      local same = m:find_path({ 1, 1 }, { 1, 1 })
      assert.are.same({ { 1, 1, x = 1, y = 1 } }, { same[1] })
    end)

    it("returns a path value: length, cost, cells without a table each", function()
      local p, cost = m:find_path({ 0, 0 }, { 6, 0 })
      assert.are.equal("userdata", type(p))
      assert.are.equal(15, #p)
      assert.are.equal(cost, p.cost)
      assert.are.same({ 0, 0 }, { p:xy(1) })
      assert.are.same({ 6, 0 }, { p:xy(#p) })
      assert.are.equal(0, select("#", p:xy(0)))     -- nothing outside 1..#p
      assert.are.equal(0, select("#", p:xy(#p + 1)))
      local n, last = 0, nil
      for i, x, y in p:cells() do
        n = n + 1
        assert.are.equal(n, i)
        assert.are.same({ x, y }, { p:xy(i) })
        if last then assert.are.equal(1, math.abs(x - last[1]) + math.abs(y - last[2])) end
        last = { x, y }
      end
      assert.are.equal(#p, n)
      -- the table form, and p[i] and ipairs for code written for tables
      local t = p:table()
      assert.are.equal(#p, #t)
      assert.are.equal(cost, t.cost)
      for i, pt in ipairs(p) do
        assert.are.same(t[i], pt)
        assert.are.same({ pt.x, pt.y }, { p:xy(i) })
      end
      assert.are.same({ 0, 0, x = 0, y = 0 }, p[1])
      assert.is_nil(p[0])
      assert.is_nil(p[#p + 1])
      assert.matches("^strata.path %(15 cells, cost 14", tostring(p))
      -- a route of no steps
      local same = m:find_path({ 1, 1 }, { 1, 1 })
      assert.are.equal(1, #same)
      assert.are.equal(0, same.cost)
    end)

    it("draws a path value and its table form alike", function()
      local p = m:find_path({ 0, 0 }, { 6, 0 }, { algorithm = "dijkstra" })
      assert.are.equal(m:render{ path = p }, m:render{ path = p:table() })
      local small = strata.tilemap.new{ width = 2, height = 2, fill = "floor", tokens = tokens }
      assert.error_matches(function() small:render{ path = p } end,
        "option 'path': point 3 %(2, 0%) is outside the 2x2 map")
    end)

    it("finds the same route on one thread or two", function()
      -- long enough for the second thread: a 320 x 320 map, walls scattered
      local big = strata.tilemap.new{ width = 320, height = 320, fill = "floor", tokens = tokens }
      local r = strata.rng.new(24)
      for y = 0, 319 do
        for x = 0, 319 do
          if r:chance(0.2) then big:reset(x, y, "wall") end
        end
      end
      big:reset(0, 0, "floor")
      big:reset(319, 318, "floor")
      local routes = {}
      for threads = 1, 2 do
        local p = big:find_path({ 0, 0 }, { 319, 318 },
          { algorithm = "dijkstra", connectivity = 8, threads = threads })
        routes[threads] = p
      end
      assert.are.equal(routes[1].cost, routes[2].cost)
      assert.are.same(routes[1]:table(), routes[2]:table())
      -- and the same as A*'s cost: both optimal
      local a = big:find_path({ 0, 0 }, { 319, 318 }, { connectivity = 8 })
      assert.is_true(math.abs(a.cost - routes[2].cost) < 1e-9)
    end)

    it("draws a path on the rendered map", function()
      local p = m:find_path({ 0, 0 }, { 6, 0 }, { algorithm = "dijkstra" })
      local text = m:render{ path = p, path_glyph = "o", glyphs = { floor = " " } }
      local count = select(2, text:gsub("o", ""))
      assert.are.equal(15, count)
      assert.are.equal(5, select(2, text:gsub("\n", "")))
      assert.matches("#", text)
    end)
  end)

  describe("errors", function()
    local m
    before_each(function()
      m = strata.tilemap.new{ width = 4, height = 3, fill = "floor", tokens = tokens }
    end)

    it("names bad constructor options", function()
      assert.has_error(function() strata.tilemap.new() end)
      assert.has_error(function() strata.tilemap.new{ width = 0, height = 3 } end,
        "strata.tilemap.new: width and height must be integers in 1..65535")
      assert.error_matches(function() strata.tilemap.new{ width = 2.5, height = 3 } end,
        "option 'width' must be an integer")
      assert.error_matches(function() strata.tilemap.new{ width = 2, height = 3, colour = 1 } end,
        "unknown option 'colour'")
      assert.error_matches(function() strata.tilemap.new{ width = 2, height = 2, fill = "" } end,
        "token name cannot be empty")
      assert.error_matches(function() strata.tilemap.new{ width = 2, height = 2, tokens = 5 } end,
        "option 'tokens' must be")
      assert.error_matches(function()
        strata.tilemap.new{ width = 2, height = 2, tokens = { ice = { cost = -1 } } }
      end, "must be a positive finite number")
    end)

    it("names cells outside the map and wrong argument types", function()
      assert.error_matches(function() m:set(4, 0, "wall") end,
        "map:set: cell %(4, 0%) is outside the 4x3 map")
      assert.error_matches(function() m:tokens(0, -1) end, "outside the 4x3 map")
      assert.error_matches(function() m:set("a", 0, "wall") end, "number expected, got string")
      assert.error_matches(function() m:set(0, 0, {}) end, "map:set: argument #3: string expected, got table")
      assert.error_matches(function() m:set(0, 0) end, "string expected, got no value")
      assert.error_matches(function() m:set(0.5, 0, "x") end, "number has no integer representation")
      assert.error_matches(function() m.set(nil, 0, 0, "x") end, "map:set: expected a strata.tilemap as self")
      assert.error_matches(function() m:fill(0, 0, -1, 1, "x") end, "size must not be negative")
      assert.error_matches(function() m:fill(0, 0, 1, 1, "x", { pushh = true }) end, "unknown option 'pushh'")
    end)

    it("names bad path arguments", function()
      assert.error_matches(function() m:find_path({ 0, 0 }, { 9, 0 }) end,
        "map:find_path: goal %(9, 0%) is outside the 4x3 map")
      assert.error_matches(function() m:find_path({ -1, 0 }, { 1, 0 }) end, "start %(%-1, 0%) is outside")
      assert.error_matches(function() m:find_path(5, { 1, 0 }) end, "expected a point {x, y}, got number")
      assert.error_matches(function() m:find_path({ "a" }, { 1, 0 }) end, "integer coordinates")
      assert.error_matches(function() m:find_path({ 0, 0 }, { 1, 0 }, { algorithm = "dfs" }) end,
        "unknown algorithm 'dfs'")
      assert.error_matches(function() m:find_path({ 0, 0 }, { 1, 0 }, { connectivity = 6 }) end,
        "connectivity must be 4 or 8")
      assert.error_matches(function() m:find_path({ 0, 0 }, { 1, 0 }, { diagonal_cost = 0.5 }) end,
        "diagonal cost must be at least 1")
      assert.error_matches(function() m:find_path({ 0, 0 }, { 1, 0 }, { heuristic = "x" }) end,
        "unknown option 'heuristic'")
      assert.error_matches(function() m:find_path({ 0, 0 }, { 1, 0 }, { threads = 3 }) end,
        "threads must be 1 or 2")
      assert.error_matches(function() m:find_path({ 0, 0 }, { 1, 0 }, { thread = 1 }) end,
        "unknown option 'thread'.*threads")
      assert.error_matches(function() m:render{ path = { { 7, 7 } } } end,
        "point 1 %(7, 7%) is outside the 4x3 map")
      assert.error_matches(function() m:render{ glyphs = { floor = 1 } } end,
        "maps token names to glyph strings")
    end)

    it("refuses a closed map", function()
      m:close()
      assert.error_matches(function() m:set(0, 0, "x") end, "the map was closed")
      assert.matches("closed", tostring(m))
    end)

    it("names bad token traits", function()
      assert.error_matches(function() tokens:define("x", { cost = 0 }) end, "positive finite")
      assert.error_matches(function() tokens:define("x", { glyph = "ab" }) end, "one character")
      assert.error_matches(function() tokens:define("x", { passable = 1 }) end,
        "option 'passable' must be a boolean")
      assert.error_matches(function() tokens:define("x", { speed = 1 }) end, "unknown option 'speed'")
      assert.error_matches(function() tokens:define("x", 3) end, "table expected")
    end)
  end)
end)

describe("strata.tilemap argument checks on every method", function()
  local m
  before_each(function()
    m = strata.tilemap.new{ width = 2, height = 2, fill = "floor" }
  end)

  it("checks coordinates on every cell method", function()
    for _, call in ipairs{
      function() m:add_front(2, 0, "x") end, function() m:remove(0, 2, "x") end,
      function() m:reset(-1, 0) end, function() m:tokens(5, 5) end,
      function() m:top(0, 9) end, function() m:has(9, 0, "x") end,
      function() m:passable(2, 2) end, function() m:cost(-1, -1) end,
    } do
      assert.error_matches(call, "is outside the 2x2 map")
    end
  end)

  it("checks token names and option tables", function()
    assert.error_matches(function() m:add_front(0, 0, {}) end, "string expected, got table")
    assert.error_matches(function() m:remove(0, 0) end, "string expected, got no value")
    assert.error_matches(function() m:reset(0, 0, "") end, "token name cannot be empty")
    assert.error_matches(function() m:clear(("x"):rep(300)) end, "at most 255")
    assert.error_matches(function() m:has(0, 0, true) end, "string expected, got boolean")
    assert.error_matches(function() m:render(5) end, "table expected, got number")
    assert.error_matches(function() m:render{ path = 5 } end, "table expected")
    assert.error_matches(function() m:render{ glyphs = "x" } end, "option 'glyphs' must be a table")
    assert.error_matches(function() m:render{ colour = true } end, "unknown option 'colour'")
    assert.error_matches(function() m:define_token("floor", { cost = "high" }) end,
      "option 'cost' must be a number")
  end)

  it("lists the names a token table has interned", function()
    local t = strata.tokens.new()
    t:define("b", {})
    t:define("a", { glyph = "A" })
    assert.are.same({ "b", "a" }, t:names())
    assert.matches("strata.tokens %(2 tokens%)", tostring(t))
    local mt = strata.tilemap.new{ width = 1, height = 1, fill = "c", tokens = t }
    assert.are.same({ "b", "a", "c" }, mt.token_table:names())
  end)
end)
