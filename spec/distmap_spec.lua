-- Distance maps from Lua (map:distance_map): against find_path's Dijkstra
-- from every cell, step_down, flee, update after edits, the goal forms
-- (points, handles, tokens, a predicate) and the errors.
local strata = require "strata"
local support = require "support"

local function tokens()
  local t = strata.tokens.new()
  t:define("wall", { passable = false, glyph = "#" })
  t:define("floor", { glyph = "." })
  t:define("mud", { cost = 2, glyph = "," })
  t:define("water", { cost = 3.5, glyph = "~" })
  t:define("stairs", { glyph = ">" })
  return t
end

-- A w x h map of random floor, mud, water and walls.
local function random_map(rng, w, h, t)
  local m = strata.tilemap.new{ width = w, height = h, fill = "floor", tokens = t }
  local kinds = { "floor", "floor", "floor", "mud", "water", "wall", "wall" }
  for y = 0, h - 1 do
    for x = 0, w - 1 do m:reset(x, y, kinds[rng:int(#kinds)]) end
  end
  return m
end

local function near(a, b) return math.abs(a - b) <= 1e-9 * math.max(1, math.abs(b)) end

describe("map:distance_map", function()
  it("gives each cell the cost of the cheapest route to its nearest goal (find_path's Dijkstra)", function()
    local rng = strata.rng.new(36)
    for trial = 1, 30 do
      local w, h = rng:int(2, 9), rng:int(2, 7)
      local m = random_map(rng, w, h, tokens())
      local goals = {}
      for k = 1, rng:int(1, 3) do goals[k] = { rng:int(0, w - 1), rng:int(0, h - 1) } end
      local conn = trial % 2 == 0 and 8 or 4
      local max = trial % 5 == 0 and 6.5 or nil
      local field = m:distance_map(goals, { connectivity = conn, diagonal_cost = math.sqrt(2), max_cost = max })
      for y = 0, h - 1 do
        for x = 0, w - 1 do
          local best
          if m:passable(x, y) then
            for _, g in ipairs(goals) do
              local path, cost = m:find_path({ x, y }, g, { algorithm = "dijkstra", connectivity = conn })
              if path and (not best or cost < best) then best = cost end
            end
          end
          if best and max and best > max then best = nil end
          local got = field:at(x, y)
          assert(best == nil and got == nil or best and got and near(got, best),
            ("trial %d cell (%d, %d): %s, expected %s"):format(trial, x, y, tostring(got), tostring(best)))
        end
      end
    end
  end)

  it("steps downhill to a goal; flee gives a new map whose walks end farther away", function()
    local rng = strata.rng.new(7)
    local m = random_map(rng, 12, 9, tokens())
    m:reset(0, 0, "floor")
    local field = m:distance_map({ { 0, 0 } }, { connectivity = 8 })
    local flee = field:flee(1.2)
    assert.are_not.equal(field, flee)
    assert.are.equal(0, field:at(0, 0))
    assert.is_nil(field:step_down(0, 0))
    for y = 0, 8 do
      for x = 0, 11 do
        local d = field:at(x, y)
        if d then
          local cx, cy, steps = x, y, 0
          while true do
            local nx, ny = field:step_down(cx, cy)
            if not nx then break end
            assert.is_true(field:at(nx, ny) < field:at(cx, cy))
            cx, cy, steps = nx, ny, steps + 1
            assert.is_true(steps <= 108)
          end
          assert.are.equal(0, field:at(cx, cy))
          cx, cy = x, y
          while true do
            local nx, ny = flee:step_down(cx, cy)
            if not nx then break end
            assert.is_true(flee:at(nx, ny) < flee:at(cx, cy))
            cx, cy = nx, ny
          end
          assert.is_true(field:at(cx, cy) >= d - 1e-9)
          assert.is_true(near(flee:at(cx, cy), -1.2 * field:at(cx, cy)))
        end
      end
    end
    assert.matches("strata.distmap 12x9", tostring(field))
    assert.are.equal(12, field.width)
    assert.are.equal(9, field.height)
  end)

  it("is brought up to date by update after edits, as a new distance map would be", function()
    local rng = strata.rng.new(99)
    local t = tokens()
    for trial = 1, 20 do
      local w, h = rng:int(3, 20), rng:int(3, 15)
      local m = random_map(rng, w, h, t)
      local goals = { { rng:int(0, w - 1), rng:int(0, h - 1) }, { rng:int(0, w - 1), rng:int(0, h - 1) } }
      local opts = { connectivity = trial % 2 == 0 and 8 or 4 }
      local field = m:distance_map(goals, opts)
      for _ = 1, 3 do
        for _ = 1, rng:int(1, 4) do
          m:reset(rng:int(0, w - 1), rng:int(0, h - 1), ({ "floor", "wall", "mud", "water" })[rng:int(4)])
        end
        assert.are.equal(field, field:update())
        local fresh = m:distance_map(goals, opts)
        for y = 0, h - 1 do
          for x = 0, w - 1 do
            local a, b = field:at(x, y), fresh:at(x, y)
            assert(a == nil and b == nil or a and b and near(a, b), ("trial %d (%d, %d)"):format(trial, x, y))
          end
        end
      end
    end
  end)

  it("takes goals as points, tokens or a predicate; no goals reach nothing", function()
    local m = strata.tilemap.new{ width = 6, height = 3, fill = "floor", tokens = tokens() }
    m:set(5, 2, "stairs")
    local by_token = m:distance_map({ token = "stairs" })
    assert.are.equal(0, by_token:at(5, 2))
    assert.are.equal(7, by_token:at(0, 0))
    local either = m:distance_map({ token = { "stairs", "water" } })
    assert.are.equal(7, either:at(0, 0))
    local seen = 0
    local by_fn = m:distance_map(function(x, y) seen = seen + 1 return x == 0 and y == 1 end)
    assert.are.equal(18, seen)
    assert.are.equal(0, by_fn:at(0, 1))
    assert.are.equal(6, by_fn:at(5, 0))
    local mixed = m:distance_map({ { x = 2, y = 1 }, { 2, 1 } })
    assert.are.equal(1, mixed:at(2, 0))
    local none = m:distance_map({})
    for y = 0, 2 do for x = 0, 5 do assert.is_nil(none:at(x, y)) end end
    -- walled in: unreached; a goal on a wall reaches nothing
    m:fill(3, 0, 1, 3, "wall")
    local cut = m:distance_map({ { 0, 0 }, { 3, 1 } })
    assert.is_nil(cut:at(4, 0))
    assert.is_nil(cut:at(3, 1))
    assert.are.equal(2, cut:at(2, 0))
  end)

  it("chases an actor on a world's map; update follows the map's edits", function()
    local w = strata.world.new{ seed = 1 }
    local map = w:create_map{ width = 8, height = 3, fill = "floor" }
    local hero = w:create_actor{ map = map, x = 6, y = 1 }
    local field = map:distance_map({ hero }, { connectivity = 8 })
    assert.are.equal(0, field:at(6, 1))
    assert.are.equal(6, field:at(0, 1))
    assert.same({ 1, 1 }, { field:step_down(0, 1) })
    map:fill(3, 0, 1, 3, "wall")
    field:update()
    assert.is_nil(field:at(0, 1))
    local other = w:create_map{ width = 2, height = 2, fill = "floor" }
    local stranger = w:create_actor{ map = other, x = 0, y = 0 }
    local err = support.err_of(function() return map:distance_map({ hero, stranger }) end)
    assert.matches("map:distance_map: goal 2: actor#%d+ is not on map#%d+", err)
  end)

  it("keeps a chaser off other actors with occupied (find_path's option); update follows them", function()
    local w = strata.world.new{ seed = 1 }
    local map = w:create_map{ width = 7, height = 3, fill = "floor" }
    local hero = w:create_actor{ map = map, x = 6, y = 1 }
    local guard = w:create_actor{ map = map, x = 3, y = 1 }
    local plain = map:distance_map({ hero })
    assert.same({ 3, 1 }, { plain:step_down(2, 1) }) -- "ignore", the default: through the guard
    local field = map:distance_map({ hero }, { occupied = "block" })
    assert.is_nil(field:at(3, 1)) -- held: unreached
    assert.are.equal(0, field:at(6, 1)) -- the goal is never held
    assert.are.equal(8, field:at(0, 1))
    -- a chaser's walk from anywhere never lands on another actor
    for y = 0, 2 do
      for x = 0, 6 do
        local cx, cy = x, y
        while field:at(cx, cy) and field:at(cx, cy) > 0 do
          cx, cy = field:step_down(cx, cy)
          assert.is_false(cx == 3 and cy == 1)
        end
      end
    end
    -- the chaser's own cell is held (by itself): unreached, yet it steps from there
    local chaser = w:create_actor{ map = map, x = 0, y = 1 }
    field = map:distance_map({ hero }, { occupied = "block", connectivity = 8 })
    assert.is_nil(field:at(0, 1))
    local cx, cy, steps = chaser.x, chaser.y, 0
    repeat
      cx, cy = field:step_down(cx, cy)
      steps = steps + 1
      assert.is_false(cx == 3 and cy == 1)
    until cx == hero.x and cy == hero.y
    assert.are.equal(6, steps)
    -- a runner fleeing the chaser never runs through it or the guard
    local runner = w:create_actor{ map = map, x = 4, y = 1 }
    local fear = map:distance_map({ chaser }, { occupied = "block" }):flee()
    local rx, ry = fear:step_down(runner.x, runner.y)
    assert.is_true(rx ~= nil and not (rx == 3 and ry == 1))
    chaser:delete()
    runner:delete()
    field = map:distance_map({ hero }, { occupied = "block" })
    assert.are.equal(7, map:distance_map({ hero }, { occupied = 1 }):at(0, 1)) -- 1 more: through
    assert.are.equal(8, map:distance_map({ hero }, { occupied = 5 }):at(0, 1))
    w:move(guard, 3, 0)
    field:update()
    assert.are.equal(6, field:at(0, 1))
    assert.is_nil(field:at(3, 0))
    local fled = field:flee()
    assert.is_nil(fled:at(3, 0)) -- the flee map keeps its source's held cells
  end)

  it("refuses occupied values it does not know, naming the known ones", function()
    local m = strata.tilemap.new{ width = 4, height = 3, fill = "floor" }
    local line = debug.getinfo(1, "l").currentline + 1
    local err = support.err_of(function() return m:distance_map({ { 0, 0 } }, { occupied = "blok" }) end)
    assert.matches("distmap_spec.lua:" .. line .. ": map:distance_map: option 'occupied' must be \"block\", \"ignore\" or a cost", err)
    err = support.err_of(function() return m:distance_map({ { 0, 0 } }, { occupied = -1 }) end)
    assert.matches("map:distance_map: option 'occupied' must be \"block\", \"ignore\" or a cost", err)
    err = support.err_of(function() return m:distance_map({ { 0, 0 } }, { occupied = true }) end)
    assert.matches("map:distance_map: option 'occupied' must be", err)
    err = support.err_of(function() return m:distance_map({ { 0, 0 } }, { ocupied = "block" }) end)
    assert.matches("map:distance_map: unknown option 'ocupied' %(nearest known: occupied", err)
    assert.are.equal(3, m:distance_map({ { 0, 0 } }, { occupied = "block" }):at(3, 0)) -- no world: no actors
  end)

  it("names the function, the caller's line and the nearest known option in its errors", function()
    local m = strata.tilemap.new{ width = 4, height = 3, fill = "floor" }
    local line = debug.getinfo(1, "l").currentline + 1
    local err = support.err_of(function() return m:distance_map({ { 0, 0 } }, { conectivity = 8 }) end)
    assert.matches("distmap_spec.lua:" .. line .. ": map:distance_map: unknown option 'conectivity' %(nearest known: connectivity", err)
    err = support.err_of(function() return m:distance_map({ { 0, 0 }, { 4, 0 } }) end)
    assert.matches("map:distance_map: goal 2 %(4, 0%) is outside the 4x3 map", err)
    err = support.err_of(function() return m:distance_map({ { 0, 0 } }, { connectivity = 6 }) end)
    assert.matches("map:distance_map: connectivity must be 4 or 8", err)
    err = support.err_of(function() return m:distance_map({ { 0, 0 } }, { diagonal_cost = 0.5 }) end)
    assert.matches("map:distance_map: diagonal cost must be at least 1", err)
    err = support.err_of(function() return m:distance_map({ { 0, 0 } }, { max_cost = -1 }) end)
    assert.matches("map:distance_map: max_cost must be", err)
    err = support.err_of(function() return m:distance_map({ token = "floor", tokens = 1 }) end)
    assert.matches("map:distance_map: unknown option 'tokens' %(nearest known: token", err)
    err = support.err_of(function() return m:distance_map("stairs") end)
    assert.matches("map:distance_map: argument #1: goals must be a list of points, { token = }", err)
    local field = m:distance_map({ { 0, 0 } })
    err = support.err_of(function() return field:at(4, 0) end)
    assert.matches("distmap:at: cell %(4, 0%) is outside the 4x3 map", err)
    err = support.err_of(function() return field:at("a", 0) end)
    assert.matches("distmap:at: argument #1: number expected, got string", err)
    err = support.err_of(function() return field:flee(-1) end)
    assert.matches("distmap:flee: flee factor must be a positive number", err)
    err = support.err_of(function() return field:flee():update() end)
    assert.matches("distmap:update: .*a flee map is not updated", err)
    err = support.err_of(function() return m:distance_map(function() error("no goal here") end) end)
    assert.matches("no goal here", err)
    m:close()
    err = support.err_of(function() return field:update() end)
    assert.matches("distmap:update: .*the map was closed", err)
  end)

  it("refuses a predicate that closes its map", function()
    local m = strata.tilemap.new{ width = 4, height = 3, fill = "floor" }
    local err = support.err_of(function() return m:distance_map(function() m:close() return true end) end)
    assert.matches("map:distance_map: .*the map was closed", err)
  end)
end)

describe("map:distance_map, as a new user and a hostile mod meet it", function()
  it("takes find_path's option name diagonal_cost; diagonal is refused naming it", function()
    local m = strata.tilemap.new{ width = 5, height = 5, fill = "floor" }
    local field = m:distance_map({ { 0, 0 } }, { connectivity = 8, diagonal_cost = 1 })
    local _, cost = m:find_path({ 4, 4 }, { 0, 0 }, { connectivity = 8, diagonal_cost = 1, algorithm = "dijkstra" })
    assert.are.equal(cost, field:at(4, 4))
    assert.are.equal(4, field:at(4, 4))
    local err = support.err_of(function() return m:distance_map({ { 0, 0 } }, { diagonal = 1 }) end)
    assert.matches("map:distance_map: unknown option 'diagonal' %(nearest known: diagonal_cost", err)
    assert.are.same({ "connectivity", "diagonal_cost", "max_cost" }, strata.options.known["map:distance_map"])
  end)

  it("names a bad goal by its number and its coordinates as given", function()
    local m = strata.tilemap.new{ width = 4, height = 3, fill = "floor" }
    local err = support.err_of(function() return m:distance_map({ { math.maxinteger, 0 } }) end)
    assert.matches("goal 1 %(" .. math.maxinteger .. ", 0%) is outside the 4x3 map", err)
    err = support.err_of(function() return m:distance_map({ { 0, 0 }, { 1.5, 0 } }) end)
    assert.matches("map:distance_map: goal 2 must be a point {x, y} with integer coordinates", err)
    local w = strata.world.new{ seed = 1 }
    local map = w:create_map{ width = 4, height = 3, fill = "floor" }
    local gone = w:create_actor{ map = map, x = 1, y = 1 }
    gone:delete()
    err = support.err_of(function() return map:distance_map({ gone }) end)
    assert.matches("map:distance_map: goal 1: actor#%d+ was deleted", err)
  end)

  it("refuses a flee factor whose distances would not be finite", function()
    local m = strata.tilemap.new{ width = 8, height = 3, fill = "floor" }
    local field = m:distance_map({ { 1, 1 } })
    assert.are.equal(-7e6 + 1, field:flee(1e6):at(7, 1))
    for _, factor in ipairs{ 1e300, 1e308 } do
      local err = support.err_of(function() return field:flee(factor) end)
      assert.matches("distmap:flee: flee factor " .. ("%g"):format(factor):gsub("%+", "%%+") .. " is too large for this map", err)
    end
  end)

  it("gives find_path's costs, or refuses costs too far apart for its fixed point", function()
    local t = tokens()
    t:define("ice", { cost = 1e12 })
    local m = strata.tilemap.new{ width = 100, height = 100, fill = "floor", tokens = t }
    m:fill(0, 50, 100, 1, "mud")
    local field = m:distance_map({ { 0, 0 } }, { connectivity = 8, diagonal_cost = 1e10 })
    local _, cost = m:find_path({ 60, 60 }, { 0, 0 }, { algorithm = "dijkstra", connectivity = 8, diagonal_cost = 1e10 })
    assert.are.equal(cost, field:at(60, 60))
    m:reset(99, 99, "ice") -- 1 beside 1e12: a step of 1 is below the fixed point's resolution
    local err = support.err_of(function() return field:update() end)
    assert.matches("distmap:update: costs too far apart for a distance map of a 100x100 map: 1 to 1e%+12", err)
    err = support.err_of(function() return m:distance_map({ { 0, 0 } }) end)
    assert.matches("map:distance_map: costs too far apart", err)
    m:reset(99, 99, "floor")
    err = support.err_of(function() return m:distance_map({ { 0, 0 } }, { connectivity = 8, diagonal_cost = 1e15 }) end)
    assert.matches("map:distance_map: costs too far apart .* diagonal_cost 1e%+15", err)
  end)
end)
