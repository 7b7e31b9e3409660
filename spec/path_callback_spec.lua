-- Per-search costs and the occupancy layer from Lua (docs/tile-maps.md, "Costs
-- from a callback", "Occupancy"): map:find_path{ cost = function(x, y, cost) }
-- changing routes and matching the token costs when it answers them, bad
-- answers and failures as the search's error, and the cells actors hold
-- through moves, deletes, a rolled-back handler and a save opened again.
local strata = require "strata"
local support = require "support"

local function on_route(path, x, y)
  for _, px, py in path:cells() do
    if px == x and py == y then return true end
  end
  return false
end

local function floor_map(w, h)
  return strata.tilemap.new{ width = w, height = h, fill = "floor", tokens = { wall = { passable = false } } }
end

describe("map:find_path with a cost function", function()
  it("routes round a wall the function makes, and is asked x, y and the tokens' cost", function()
    local m = floor_map(6, 3)
    local asked = {}
    local path = assert(m:find_path({ 0, 1 }, { 5, 1 }, { cost = function(x, y, c)
      asked[#asked + 1] = { x, y, c }
      if x == 2 and y == 1 then return false end
      return c
    end }))
    assert.equal(8, #path)
    assert.is_false(on_route(path, 2, 1))
    assert.equal(1, asked[1][3])
    -- nil blocks too; a blocked goal is no route
    local none, why = m:find_path({ 0, 1 }, { 5, 1 }, { cost = function(x) if x ~= 5 then return 1 end end })
    assert.is_nil(none)
    assert.matches("no path", why)
  end)

  it("avoids a corridor it makes dear, and opens a wall (cost nil for it)", function()
    local m = floor_map(7, 4)
    m:fill(0, 3, 7, 1, "wall")
    m:fill(2, 1, 3, 1, "wall")
    m:set(3, 2, "wall")
    local seen_wall
    local function through(price)
      return function(x, y, c)
        if x == 3 and y == 2 then seen_wall = c return price end
        return c
      end
    end
    local p = assert(m:find_path({ 0, 2 }, { 6, 2 }, { algorithm = "dijkstra", cost = through(2) }))
    assert.is_nil(seen_wall)
    assert.equal(7, p.cost)
    assert.is_true(on_route(p, 3, 2))
    p = assert(m:find_path({ 0, 2 }, { 6, 2 }, { algorithm = "dijkstra", cost = through(9) }))
    assert.is_false(on_route(p, 3, 2))
    assert.equal(10, p.cost)
  end)

  it("finds routes as cheap as the token costs' when it answers them", function()
    local m = strata.tilemap.new{ width = 40, height = 30, fill = "floor",
      tokens = { wall = { passable = false }, water = { cost = 4 } } }
    local r = strata.rng.new(5)
    for y = 0, 29 do
      for x = 0, 39 do
        local k = r:int(10)
        if k <= 2 then m:set(x, y, "wall") elseif k <= 4 then m:set(x, y, "water") end
      end
    end
    m:reset(0, 0, "floor")
    m:reset(39, 29, "floor")
    for _, alg in ipairs{ "astar", "dijkstra" } do
      for _, conn in ipairs{ 4, 8 } do
        local asked = {}
        local a = m:find_path({ 0, 0 }, { 39, 29 }, { algorithm = alg, connectivity = conn })
        local b = m:find_path({ 0, 0 }, { 39, 29 }, { algorithm = alg, connectivity = conn,
          cost = function(x, y, c)
            local k = y * 40 + x
            assert(not asked[k], "asked twice")
            asked[k] = true
            return c
          end })
        assert.equal(a == nil, b == nil)
        if a then assert.near(a.cost, b.cost, 1e-9) end
      end
    end
  end)

  it("refuses a bad answer, naming map:find_path, the cell and the caller's line", function()
    local m = floor_map(4, 1)
    for _, bad in ipairs{ { 0 / 0, "nan" }, { -1, "%-1" }, { 0, "0" }, { math.huge, "inf" },
                          { {}, "a table" }, { "2", "a string" }, { true, "a boolean" } } do
      local err = support.err_of(function()
        return m:find_path({ 0, 0 }, { 3, 0 }, { cost = function(x) if x == 2 then return bad[1] end return 1 end })
      end)
      assert.matches("^[^:]*path_callback_spec%.lua:%d+: map:find_path: option 'cost' answered ", err)
      assert.matches(bad[2], err)
      assert.matches("%(2, 0%)", err)
    end
    local err = support.err_of(function()
      return m:find_path({ 0, 0 }, { 3, 0 }, { cost = function() error("no way") end })
    end)
    assert.matches("^[^:]*path_callback_spec%.lua:%d+: map:find_path: option 'cost' raised at %(3, 0%): .*no way", err)
    -- A*'s estimate assumes the cheapest token: cost_min lets a callback go below it
    err = support.err_of(function() return m:find_path({ 0, 0 }, { 3, 0 }, { cost = function() return 0.5 end }) end)
    assert.matches("map:find_path: .*cost_min", err)
    local p = assert(m:find_path({ 0, 0 }, { 3, 0 }, { cost = function() return 0.5 end, cost_min = 0.5 }))
    assert.equal(1.5, p.cost)
  end)

  it("refuses bad options", function()
    local m = floor_map(4, 1)
    assert.matches("map:find_path: option 'cost' must be a function",
      support.err_of(function() return m:find_path({ 0, 0 }, { 3, 0 }, { cost = 3 }) end))
    assert.matches("map:find_path: option 'occupied' must be \"block\", \"ignore\" or a cost",
      support.err_of(function() return m:find_path({ 0, 0 }, { 3, 0 }, { occupied = "wall" }) end))
    assert.matches("map:find_path: option 'occupied' must be \"block\", \"ignore\" or a cost",
      support.err_of(function() return m:find_path({ 0, 0 }, { 3, 0 }, { occupied = -1 }) end))
    assert.matches("map:find_path: unknown option 'costs' %(nearest known: cost",
      support.err_of(function() return m:find_path({ 0, 0 }, { 3, 0 }, { costs = print }) end))
  end)

  it("fails when the function edits, closes or searches its map", function()
    local m = floor_map(4, 1)
    local err = support.err_of(function()
      return m:find_path({ 0, 0 }, { 3, 0 }, { cost = function(x, y, c) m:set(0, 0, "wall") return c end })
    end)
    assert.matches("map:find_path: the map or its tokens changed during the search", err)
    err = support.err_of(function()
      return m:find_path({ 0, 0 }, { 3, 0 }, { cost = function(x, y, c) m:close() return c end })
    end)
    assert.matches("map:find_path: option 'cost' raised at %(3, 0%): .*map:close: the map is being searched", err)
    err = support.err_of(function()
      return m:find_path({ 0, 0 }, { 3, 0 }, { cost = function(x, y, c) m:find_path({ 0, 0 }, { 1, 0 }) return c end })
    end)
    assert.matches("option 'cost' raised at %(3, 0%): .*map:find_path: the search object is searching already", err)
    assert.truthy(m:find_path({ 0, 0 }, { 3, 0 })) -- and the map works after
  end)

  it("a world's map cannot be deleted from its search's function", function()
    local w = strata.world.new{ seed = 1 }
    local m = w:create_map{ width = 4, height = 1, fill = "floor" }
    local err = support.err_of(function()
      return m:find_path({ 0, 0 }, { 3, 0 }, { cost = function(x, y, c) m:delete() return c end })
    end)
    assert.matches("option 'cost' raised at %(3, 0%): .*is being searched", err)
    assert.is_true(m:alive())
  end)
end)

describe("the cells actors hold", function()
  local function world_map()
    local w = strata.world.new{ seed = 1 }
    local m = w:create_map{ width = 7, height = 3, fill = "floor" }
    return w, m
  end

  it("follow placements, moves and deletes; items hold none", function()
    local w, m = world_map()
    local a = w:create_actor{ map = m, x = 1, y = 1 }
    local b = w:create_actor{ map = m, x = 1, y = 1 }
    w:create_object{ kind = "item", map = m, x = 2, y = 2 }
    assert.is_true(m:occupied(1, 1))
    assert.is_false(m:occupied(2, 2))
    assert.truthy(w:move(a, 4, 1))
    assert.is_true(m:occupied(1, 1))
    assert.is_true(m:occupied(4, 1))
    b:delete()
    assert.is_false(m:occupied(1, 1))
    assert.matches("map:occupied: cell %(9, 0%) is outside the 7x3 map", support.err_of(function() return m:occupied(9, 0) end))
    assert.is_false(floor_map(3, 3):occupied(1, 1)) -- a map of no world holds no actors
  end)

  it("are put back by a rolled-back handler and counted again by an open", function()
    local w, m = world_map()
    local a = w:create_actor{ map = m, x = 1, y = 1 }
    support.only_handler(w, "base.map_entered", function(world)
      world:move(a, 5, 2)
      world:create_actor{ map = m, x = 6, y = 0 }
      a:delete()
      error("undone")
    end)
    w:emit("base.map_entered", {})
    assert.is_true(m:occupied(1, 1))
    assert.is_false(m:occupied(5, 2))
    assert.is_false(m:occupied(6, 0))
    local dir = support.tempdir()
    w:save(dir .. "/w.db")
    local again = strata.world.open(dir .. "/w.db")
    local m2 = again:object(m.uid)
    assert.is_true(m2:occupied(1, 1))
    assert.is_false(m2:occupied(5, 2))
    os.execute("rm -rf " .. support.q(dir))
  end)

  it("searches block them, charge them or ignore them; never the start and the goal", function()
    local w, m = world_map()
    w:create_actor{ map = m, x = 3, y = 1 }
    w:create_actor{ map = m, x = 0, y = 1 }
    w:create_actor{ map = m, x = 6, y = 1 }
    assert.is_true(on_route(assert(m:find_path({ 0, 1 }, { 6, 1 })), 3, 1))
    assert.is_true(on_route(assert(m:find_path({ 0, 1 }, { 6, 1 }, { occupied = "ignore" })), 3, 1))
    local p = assert(m:find_path({ 0, 1 }, { 6, 1 }, { occupied = "block" }))
    assert.is_false(on_route(p, 3, 1))
    assert.equal(8, p.cost)
    p = assert(m:find_path({ 0, 1 }, { 6, 1 }, { occupied = 3 }))
    assert.equal(8, p.cost)
    w:create_actor{ map = m, x = 3, y = 0 }
    w:create_actor{ map = m, x = 3, y = 2 }
    assert.is_nil(m:find_path({ 0, 1 }, { 6, 1 }, { occupied = "block" }))
    assert.equal(16, m:find_path({ 0, 1 }, { 6, 1 }, { occupied = 10 }).cost)
    -- with a cost function: the actors on top of its answer
    p = assert(m:find_path({ 0, 1 }, { 6, 1 }, { occupied = 10, cost = function(x, y, c) return c * 2 end }))
    assert.equal(22, p.cost)
  end)
end)
