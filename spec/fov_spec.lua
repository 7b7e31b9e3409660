-- Field of view from Lua: map:fov against a brute-force definition and for
-- symmetry on random maps, its options, visibility sets, the transparent
-- trait (tokens, base's tokens, a map's own, kept by saves), strata.line and
-- strata.circle, and the errors of each.
local strata = require "strata"
local support = require "spec.support"

local function tokens()
  local t = strata.tokens.new()
  t:define("wall", { passable = false, glyph = "#" })
  t:define("floor", { glyph = "." })
  return t
end

-- A random map of floor and wall from a small generator of our own.
local function random_map(seed, w, h, per_100)
  local s = seed
  local function rnd(n)
    s = (s * 1103515245 + 12345) % 2147483648
    return s % n
  end
  local m = strata.tilemap.new{ width = w, height = h, fill = "floor", tokens = tokens() }
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if rnd(100) < per_100 then m:reset(x, y, "wall") end
    end
  end
  return m, rnd
end

local function opaque(m, x, y)
  if x < 0 or y < 0 or x >= m.width or y >= m.height then return false end
  return m:has(x, y, "wall")
end

-- The definition of symmetric shadowcasting, cell by cell. In the quadrant
-- of B (rows along the major axis of B - A; B at depth d and column c),
-- follow the segment from A's centre to B's centre: at row k (0 < k < d) it
-- crosses at x = c*k/d, each cell of the row the interval [j - 1/2, j + 1/2].
-- B is seen when no row stops it: x inside an opaque cell or between two;
-- x on the edge of one opaque cell is stopped unless the segment moved a
-- hair towards the transparent side passes every row before (Ford's sweep
-- keeps such a slope only while its sector goes on over that side).
local function seen_by_rays(m, ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  if dx == 0 and dy == 0 then return true end
  local major_y = math.abs(dy) >= math.abs(dx)
  local d = major_y and math.abs(dy) or math.abs(dx)
  local s = ((major_y and dy or dx) < 0) and -1 or 1
  local c = major_y and dx or dy
  local function cell(k, j)
    if major_y then return opaque(m, ax + j, ay + s * k) end
    return opaque(m, ax + s * k, ay + j)
  end
  -- 2x when x is on a boundary (odd), else nil and the cell holding x
  local function crossing(k)
    local twice = 2 * c * k
    if twice % d == 0 and (twice // d) % 2 ~= 0 then return twice // d end
    return nil, (twice + d) // (2 * d)
  end
  local function hair_passes(side, upto)
    for k = 1, upto - 1 do
      local t, j = crossing(k)
      if t then j = (t + side) // 2 end
      if cell(k, j) then return false end
    end
    return true
  end
  for k = 1, d - 1 do
    local t, j = crossing(k)
    if not t then
      if cell(k, j) then return false end
    else
      local left, right = cell(k, (t - 1) // 2), cell(k, (t + 1) // 2)
      if left and right then return false end
      if right and not hair_passes(-1, k) then return false end
      if left and not hair_passes(1, k) then return false end
    end
  end
  return true
end

describe("map:fov", function()
  it("sees what the brute-force definition sees, on random maps", function()
    local compared, wrong = 0, {}
    for seed = 1, 12 do
      local m, rnd = random_map(seed, 14 + seed, 10 + seed % 7, 10 + 3 * seed)
      for _ = 1, 3 do
        local ax, ay = rnd(m.width), rnd(m.height)
        local v = m:fov(ax, ay)
        for y = 0, m.height - 1 do
          for x = 0, m.width - 1 do
            if not opaque(m, x, y) then
              compared = compared + 1
              if v:visible(x, y) ~= seen_by_rays(m, ax, ay, x, y) then
                wrong[#wrong + 1] = ("seed %d: (%d, %d) -> (%d, %d)"):format(seed, ax, ay, x, y)
              end
            end
          end
        end
      end
    end
    assert.same({}, wrong)
    assert.is_true(compared > 2000)
  end)

  it("is symmetric: from transparent A, B is seen exactly when A is seen from B", function()
    local pairs_checked, asymmetric = 0, 0
    for seed = 20, 27 do
      local m = random_map(seed, 16, 12, 30)
      local views = {}
      for y = 0, m.height - 1 do
        for x = 0, m.width - 1 do
          if not opaque(m, x, y) then views[y * m.width + x] = m:fov(x, y, { light_walls = false }) end
        end
      end
      for a, va in pairs(views) do
        for b, vb in pairs(views) do
          if a < b then
            pairs_checked = pairs_checked + 1
            if va:visible(b % m.width, b // m.width) ~= vb:visible(a % m.width, a // m.width) then
              asymmetric = asymmetric + 1
            end
          end
        end
      end
    end
    assert.equal(0, asymmetric)
    assert.is_true(pairs_checked > 10000)
  end)

  it("honours the radius, light_walls, and permissive sees at least what symmetric does", function()
    for seed = 40, 47 do
      local m, rnd = random_map(seed, 40, 30, 25)
      local ax, ay = rnd(40), rnd(30)
      local all = m:fov(ax, ay)
      local near = m:fov(ax, ay, { radius = 6 })
      local dark = m:fov(ax, ay, { light_walls = false })
      local wide = m:fov(ax, ay, { algorithm = "permissive" })
      for y = 0, 29 do
        for x = 0, 39 do
          local inside = (x - ax) ^ 2 + (y - ay) ^ 2 <= 36
          assert.equal(inside and all:visible(x, y), near:visible(x, y))
          local start = x == ax and y == ay
          assert.equal(all:visible(x, y) and (start or not opaque(m, x, y)), dark:visible(x, y))
          if all:visible(x, y) then assert.is_true(wide:visible(x, y)) end
        end
      end
    end
  end)

  it("sees a whole open map from its corners and edges, and out of an opaque start", function()
    local m = strata.tilemap.new{ width = 70, height = 9, fill = "floor", tokens = tokens() }
    for _, alg in ipairs{ "symmetric", "permissive", "basic" } do
      for _, p in ipairs{ { 0, 0 }, { 69, 8 }, { 69, 0 }, { 0, 8 }, { 35, 0 }, { 35, 4 } } do
        assert.equal(630, m:fov(p[1], p[2], { algorithm = alg }):count())
      end
    end
    m:reset(35, 4, "wall")
    local v = m:fov(35, 4, { light_walls = false })
    assert.is_true(v:visible(35, 4))
    assert.equal(630, v:count())
    m:clear("wall")
    assert.equal(1, m:fov(5, 5, { light_walls = false }):count())
    assert.equal(9, m:fov(5, 5):count()) -- the walls around, lit
  end)

  it("gives sets: visible, count, cells in row order, add, into", function()
    local m = random_map(5, 30, 20, 25)
    local a, b = m:fov(3, 3, { radius = 5 }), m:fov(20, 15, { radius = 5 })
    local n, last = 0, -1
    for x, y in a:cells() do
      assert.is_true(a:visible(x, y))
      assert.is_true(y * 30 + x > last)
      last, n = y * 30 + x, n + 1
    end
    assert.equal(a:count(), n)
    local union = 0
    for y = 0, 19 do
      for x = 0, 29 do
        if a:visible(x, y) or b:visible(x, y) then union = union + 1 end
      end
    end
    assert.equal(a, a:add(b))
    assert.equal(union, a:count())
    assert.is_false(a:visible(-1, 0))
    assert.is_false(a:visible(30, 0))
    local reused = m:fov(10, 10, { into = b })
    assert.equal(b, reused)
    assert.is_true(b:visible(10, 10))
    assert.is_false(b:visible(20, 15) and not m:fov(10, 10):visible(20, 15))
    assert.matches("^strata.fov %d+ cells of a 30x20 map$", tostring(b))
  end)

  it("refuses what is wrong, naming map:fov and the caller's line", function()
    local m = random_map(3, 10, 10, 10)
    local line = debug.getinfo(1, "l").currentline + 1
    local err = support.err_of(function() return m:fov(10, 3) end)
    assert.matches("map:fov: field of view from %(10, 3%), outside the 10x10 map", err)
    assert.matches("fov_spec.lua:" .. line, err)
    assert.matches("map:fov: .*radius must be 0 %(unlimited%) or more",
      support.err_of(function() return m:fov(1, 1, { radius = -2 }) end))
    assert.matches("map:fov: .*unknown algorithm 'fast' %(known: symmetric, permissive, basic%)",
      support.err_of(function() return m:fov(1, 1, { algorithm = "fast" }) end))
    assert.matches("map:fov: unknown option 'raduis' %(nearest known: radius",
      support.err_of(function() return m:fov(1, 1, { raduis = 3 }) end))
    assert.matches("map:fov: .*option 'into' must be a visibility set",
      support.err_of(function() return m:fov(1, 1, { into = {} }) end))
    local other = strata.tilemap.new{ width = 4, height = 4, fill = "floor" }
    assert.matches("fov:add: cannot add the cells of a 4x4 map to a set of a 10x10 map",
      support.err_of(function() return m:fov(1, 1):add(other:fov(0, 0)) end))
    assert.matches("fov:visible: ", support.err_of(function() return m:fov(1, 1):visible("a", 1) end))
  end)
end)

describe("the transparent trait", function()
  it("defaults to passable's value, and follows edits of the map and its tokens", function()
    local t = strata.tokens.new()
    t:define("glass", { passable = false, transparent = true })
    t:define("wall", { passable = false })
    t:define("fog", { transparent = false })
    assert.is_true(t:traits("glass").transparent)
    assert.is_false(t:traits("wall").transparent)
    assert.is_false(t:traits("fog").transparent)
    assert.is_true(t:traits("fog").passable)
    assert.is_true(t:traits("never").transparent)
    t:define("fog", { cost = 2 }) -- an edit keeps what it does not name
    assert.is_false(t:traits("fog").transparent)
    local m = strata.tilemap.new{ width = 9, height = 1, fill = "floor", tokens = t }
    m:reset(4, 0, "glass")
    assert.equal(9, m:fov(0, 0):count())
    m:set(4, 0, "fog") -- a stack with one opaque token is opaque
    assert.equal(5, m:fov(0, 0):count())
    t:define("fog", { transparent = true })
    assert.equal(9, m:fov(0, 0):count())
  end)

  it("base's walls and rock block sight; water, lava and doors do not unless a game says so", function()
    local w = support.new_world(1, { "base" })
    local map = w:create_map{ width = 12, height = 3, fill = "floor" }
    for _, name in ipairs{ "wall", "rock", "tree" } do
      map:reset(5, 1, name)
      assert.is_false(map:fov(0, 1):visible(8, 1), name)
    end
    for _, name in ipairs{ "door", "water", "deep_water", "lava", "grass", "mud" } do
      map:reset(5, 1, name)
      assert.is_true(map:fov(0, 1):visible(8, 1), name)
    end
    -- a closed door, for this map: its own traits, kept with it by saves
    map:reset(5, 1, "door")
    map:define_token("door", { passable = false, transparent = false, glyph = "+" })
    assert.is_false(map:fov(0, 1):visible(8, 1))
    local dir = support.tempdir()
    w:save(dir .. "/w.db")
    local again = strata.world.open(dir .. "/w.db", { mods = { "base" }, mod_path = support.mod_path })
    local m2 = again:object(map.uid)
    assert.is_false(m2:fov(0, 1):visible(8, 1))
    assert.is_true(m2:fov(0, 1):visible(5, 1))
  end)
end)

describe("strata.line and strata.circle", function()
  it("walk a line's cells, both ends included, each step to a neighbour", function()
    local cells = {}
    for x, y in strata.line(0, 0, 5, 2) do cells[#cells + 1] = { x, y } end
    assert.same({ { 0, 0 }, { 1, 0 }, { 2, 1 }, { 3, 1 }, { 4, 2 }, { 5, 2 } }, cells)
    local n = 0
    for _ in strata.line(3, 3, 3, 3) do n = n + 1 end
    assert.equal(1, n)
  end)

  it("walk a circle's cells once each, clockwise from the top", function()
    local seen, n, first = {}, 0, nil
    for x, y in strata.circle(10, 10, 7) do
      first = first or { x, y }
      local key = x .. "," .. y
      assert.is_nil(seen[key])
      seen[key], n = true, n + 1
      assert.is_true(math.abs(math.sqrt((x - 10) ^ 2 + (y - 10) ^ 2) - 7) < 1)
    end
    assert.same({ 10, 3 }, first)
    assert.is_true(n >= 40)
    assert.matches("strata.circle: argument #3: radius must be 0 to 65535",
      support.err_of(function() return strata.circle(0, 0, -1) end))
    assert.matches("strata.line: ", support.err_of(function() return strata.line(0, 0, "x") end))
  end)
end)

describe("a visibility set asked about cells far off its map", function()
  it("answers false, as for any cell outside the map", function()
    local m = strata.tilemap.new{ width = 3, height = 3, fill = "floor" }
    local v = m:fov(1, 1)
    assert.is_false(v:visible(math.maxinteger, 0))
    assert.is_false(v:visible(0, math.mininteger))
    assert.is_false(v:visible(-1, 0))
  end)

  it("reads its options raw, as it checks their keys: no metamethod of theirs runs", function()
    local m = strata.tilemap.new{ width = 9, height = 9, fill = "floor" }
    local ran = false
    local opts = setmetatable({}, { __index = function() ran = true return 1 end })
    assert.are.equal(81, m:fov(4, 4, opts):count()) -- radius 0: unlimited
    assert.are.equal(0, m:distance_map(setmetatable({ { 1, 1 } }, getmetatable(opts)), opts):at(1, 1))
    assert.is_true(strata.noise.heights(4, 4, setmetatable({ seed = 1 }, getmetatable(opts))):at(0, 0) >= 0)
    assert.is_false(ran)
  end)

  it("names the number an integer option was given", function()
    local m = strata.tilemap.new{ width = 3, height = 3, fill = "floor" }
    assert.error_matches(function() m:fov(1, 1, { radius = 1.5 }) end, "map:fov: option 'radius' must be an integer, got 1.5")
    assert.error_matches(function() m:fov(1, 1, { radius = 0 / 0 }) end, "option 'radius' must be an integer, got %-?nan")
  end)
end)
