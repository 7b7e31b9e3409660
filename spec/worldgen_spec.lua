-- strata.worldgen: multi-floor random worlds (docs/worldgen.md), their
-- template file, areas made from them, and the `strata worldgen` command.
local strata = require "strata"
local support = require "support"

local PATH = { "spec/fixtures/mods" }
local THIS = "worldgen_spec.lua"

local err_of = require("support").err_of

local function dims_of(t) return t.dims[1], t.dims[2], t.dims[3] end

-- The floor's arrival (start or ascent) and leaving (descent or exit) points.
local function ends(t, z)
  local f = t.floors[z]
  local _, _, zmax = dims_of(t)
  return z == 1 and t.start or f.ascent, z == zmax and t.exit or f.descent
end

-- A breadth-first search of the spec's own, 4 neighbours, over every tile but walls.
local function reachable(tiles, from, to)
  local h, w = #tiles, #tiles[1]
  local seen, queue, head = { [from[2] * w + from[1]] = true }, { { from[1], from[2] } }, 1
  while queue[head] do
    local x, y = queue[head][1], queue[head][2]
    head = head + 1
    if x == to[1] and y == to[2] then return true end
    for _, d in ipairs{ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } } do
      local nx, ny = x + d[1], y + d[2]
      if nx >= 1 and nx <= w and ny >= 1 and ny <= h and not seen[ny * w + nx] and tiles[ny][nx] ~= "wall" then
        seen[ny * w + nx] = true
        queue[#queue + 1] = { nx, ny }
      end
    end
  end
  return false
end

local TILES = { wall = true, hallway = true, room = true, start = true, exit = true, ascent = true, descent = true }

-- Everything a generated template promises, checked from its tables alone.
local function check_template(t, opts)
  local x, y, z = opts.dims[1], opts.dims[2], opts.dims[3]
  local rv = opts.room_variance or 5
  assert.same({ x, y, z, x = x, y = y, z = z }, t.dims)
  assert.equal(z, #t.floors)
  assert.same({ t.start[1], t.start[2], 1, x = t.start[1], y = t.start[2], z = 1 }, t.start)
  assert.equal(z, t.exit.z)
  assert.equal(t.exit[1], t.exit.x)
  local one_cell = x == 1 and y == 1
  for n, f in ipairs(t.floors) do
    assert.equal(y, #f.tiles)
    for _, row in ipairs(f.tiles) do
      assert.equal(x, #row)
      for _, tile in ipairs(row) do assert.is_true(TILES[tile], tile) end
    end
    -- points: floor 1 no ascent, the last floor no descent, every other both
    assert.equal(n > 1, f.ascent ~= nil)
    assert.equal(n < z, f.descent ~= nil)
    if n > 1 then assert.same(t.floors[n - 1].descent, f.ascent) end
    local from, to = ends(t, n)
    assert.equal(n == z and "exit" or "descent", f.tiles[to.y][to.x])
    if not one_cell then
      assert.equal(n == 1 and "start" or "ascent", f.tiles[from.y][from.x])
      assert.is_false(from.x == to.x and from.y == to.y)
    end
    if n == 1 then assert.same({ t.start.x, t.start.y, x = t.start.x, y = t.start.y }, f.start) end
    if n == z then assert.same({ t.exit.x, t.exit.y, x = t.exit.x, y = t.exit.y }, f.exit) end
    -- passable, by the spec's own search, from where one arrives to where one leaves
    if opts.post_check ~= false then
      assert.is_true(reachable(f.tiles, { from.x, from.y }, { to.x, to.y }),
        ("floor %d of %dx%dx%d seed %s (%s)"):format(n, x, y, z, tostring(opts.seed), tostring(opts.path_alg)))
    end
    -- rooms: one per waypoint when the floor is wide enough for any, sides
    -- in 3 .. max(3, room_variance), inside the floor, every cell a room (or a point)
    assert.equal((x >= 3 and y >= 3) and (x + y) // 4 or 0, #f.rooms)
    for _, r in ipairs(f.rooms) do
      assert.is_true(r.w >= 3 and r.w <= math.max(3, rv) and r.h >= 3 and r.h <= math.max(3, rv))
      assert.is_true(r.x >= 1 and r.y >= 1 and r.x + r.w - 1 <= x and r.y + r.h - 1 <= y)
      for ry = r.y, r.y + r.h - 1 do
        for rx = r.x, r.x + r.w - 1 do
          local tile = f.tiles[ry][rx]
          assert.is_true(tile == "room" or tile == "start" or tile == "exit" or tile == "ascent" or tile == "descent", tile)
        end
      end
    end
    assert.is_true(f.attempts >= 1)
  end
end

describe("strata.worldgen.generate", function()
  local DIMS = { { 25, 25, 3 }, { 40, 12, 4 }, { 7, 30, 2 }, { 3, 3, 5 }, { 1, 1, 1 }, { 2, 1, 3 }, { 60, 20, 1 } }
  for _, dims in ipairs(DIMS) do
    for _, alg in ipairs{ "astar", "greedy", "bfs" } do
      it(("%dx%dx%d, %s: floors, points, rooms, passable"):format(dims[1], dims[2], dims[3], alg), function()
        for _, seed in ipairs{ 1, 2, 42 } do
          local opts = { dims = dims, seed = seed, path_alg = alg, room_variance = 3 + seed % 5 }
          local t = strata.worldgen.generate(opts)
          check_template(t, opts)
          assert.equal(seed, t.seed)
          assert.equal(alg, t.path_alg)
          assert.is_true(t.post_check)
        end
      end)
    end
  end

  it("takes defaults: seed 0, room_variance 5, astar, the check on", function()
    local t = strata.worldgen.generate{ dims = { x = 20, y = 10, z = 2 } }
    assert.same({ 0, 5, "astar", true }, { t.seed, t.room_variance, t.path_alg, t.post_check })
    check_template(t, { dims = { 20, 10, 2 } })
  end)

  it("is the same for the same seed and differs for another", function()
    local opts = { dims = { 30, 20, 3 }, seed = 11, room_variance = 7, path_alg = "astar" }
    local a, b = strata.worldgen.generate(opts), strata.worldgen.generate(opts)
    assert.same(a, b)
    assert.equal(strata.worldgen.format(a), strata.worldgen.format(b))
    opts.seed = 12
    local c = strata.worldgen.generate(opts)
    assert.are_not.same(a.floors, c.floors)
    assert.are_not.equal(strata.worldgen.format(a), strata.worldgen.format(c))
  end)

  it("makes one floor alone, equal to that floor of the whole world", function()
    local opts = { dims = { 30, 15, 4 }, seed = 5, room_variance = 6 }
    local t = strata.worldgen.generate(opts)
    for z = 1, 4 do assert.same(t.floors[z], strata.worldgen.floor(opts, z)) end
    assert.matches("no floor 5", err_of(strata.worldgen.floor, opts, 5))
  end)

  it("without the check, generates each floor once", function()
    local opts = { dims = { 30, 15, 3 }, seed = 9, post_check = false }
    local t = strata.worldgen.generate(opts)
    check_template(t, opts)
    for _, f in ipairs(t.floors) do assert.equal(1, f.attempts) end
    assert.is_false(t.post_check)
  end)

  it("reports each floor to a log function", function()
    local seen = {}
    strata.worldgen.generate{ dims = { 20, 20, 3 }, seed = 1, log = function(level, message, floor)
      if level == "info" then seen[#seen + 1] = floor .. ": " .. message end
    end }
    assert.equal(3, #seen)
    assert.matches("^1: floor 1 of 3: %d+ rooms, passable after 1 attempt$", seen[1])
    local err = err_of(strata.worldgen.generate, { dims = { 5, 5, 1 }, log = function() error("stop here") end })
    assert.matches("stop here", err)
  end)

  it("names dims, room_variance and path_alg in its errors, at the caller's line", function()
    local cases = {
      { { dims = { 0, 5, 1 } }, "dims must be at least 1 each, got 0x5x1" },
      { { dims = { 5, -3, 1 } }, "dims must be at least 1" },
      { { dims = { 5, 5 } }, "dims must be three integers" },
      { { dims = { 5, 5, 1, 1 } }, "dims must be three integers" },
      { { dims = { 5, 5.5, 1 } }, "dims must be three integers" },
      { { dims = "5x5x1" }, "dims must be three integers" },
      { { dims = { 70000, 5, 1 } }, "dims 70000x5x1" },
      { { dims = { 5, 5, 1 }, room_variance = 2 }, "room_variance must be at least 3" },
      { { dims = { 5, 5, 1 }, path_alg = "dfs" }, "path_alg must be" },
      { { dims = { 5, 5, 1 }, sed = 1 }, "unknown option 'sed' %(nearest known: seed" },
      { { dims = { 5, 5, 1 }, seed = "x" }, "option 'seed' must be an integer" },
    }
    for _, c in ipairs(cases) do
      local ok, err = pcall(function() strata.worldgen.generate(c[1]) end)
      assert.is_false(ok)
      assert.matches("^[^\n]*" .. THIS .. ":%d+: strata%.worldgen%.generate: " .. c[2], err)
    end
  end)
end)

describe("the template file", function()
  local opts = { dims = { 24, 10, 3 }, seed = -4, room_variance = 4, path_alg = "bfs" }

  it("writes the same bytes for the same arguments and reads them back", function()
    local dir = support.tempdir()
    local t = strata.worldgen.generate(opts)
    strata.worldgen.write(t, dir .. "/a.txt")
    strata.worldgen.write(strata.worldgen.generate(opts), dir .. "/b.txt")
    local a = support.read(dir .. "/a.txt")
    assert.equal(a, support.read(dir .. "/b.txt"))
    assert.equal(a, strata.worldgen.format(t))
    local back = strata.worldgen.read(dir .. "/a.txt")
    assert.same(t, back)
    assert.equal(strata.worldgen.render(t), strata.worldgen.render(back))
    os.execute("rm -rf " .. support.q(dir))
    -- what a person sees
    assert.matches("^strata worldgen 1\nlegend # wall , hallway %. room S start E exit < ascent > descent\n" ..
      "dims 24 10 3\nseed %-4\nroom_variance 4\npath_alg bfs\npost_check true\nstart %d+ %d+ 1\nexit %d+ %d+ 3\n\nfloor 1\n", a)
  end)

  it("refuses a damaged file with the line", function()
    local text = strata.worldgen.format(strata.worldgen.generate(opts))
    local lines = {}
    for l in text:gmatch("([^\n]*)\n") do lines[#lines + 1] = l end
    local function damaged(n, with)
      local copy = { table.unpack(lines) }
      copy[n] = with
      return table.concat(copy, "\n") .. "\n"
    end
    local tiles = 0
    for i, l in ipairs(lines) do if l == "tiles" then tiles = i break end end
    local cases = {
      { damaged(1, "strata worldgen 9"), 1, "not one this strata reads" },
      { damaged(3, "dims 24 10"), 3, "expected 'dims X Y Z'" },
      { damaged(6, "path_alg dfs"), 6, "path_alg" },
      { damaged(tiles + 2, lines[tiles + 2]:sub(2)), tiles + 2, "23 tiles, expected 24" },
      { damaged(tiles + 3, "?" .. lines[tiles + 3]:sub(2)), tiles + 3, "'%?' is no tile" },
      { text:sub(1, #text - 30), #lines - 1, "20 tiles, expected 24" },
      { text .. "floor 4\n", #lines + 1, "after the last floor" },
    }
    for _, c in ipairs(cases) do
      local err = err_of(strata.worldgen.parse, c[1], "w.txt")
      assert.matches("strata%.worldgen%.parse: w%.txt:" .. c[2] .. ": .*" .. c[3], err)
    end
    local dir = support.tempdir()
    support.write(dir .. "/bad.txt", damaged(3, "dims 0 10 3"))
    local err = err_of(strata.worldgen.read, dir .. "/bad.txt")
    assert.matches("strata%.worldgen%.read: .*/bad%.txt:3: ", err)
    os.execute("rm -rf " .. support.q(dir))
    assert.matches("cannot read '/nonexistent/x.txt'", err_of(strata.worldgen.read, "/nonexistent/x.txt"))
  end)

  it("checks templates edited in Lua before writing them", function()
    local t = strata.worldgen.generate(opts)
    t.floors[2].tiles[1][1] = "lava"
    assert.matches("floors%[2%]%.tiles%[1%]%[1%]: lava is not a tile", err_of(strata.worldgen.format, t))
    t = strata.worldgen.generate(opts)
    t.floors[1].rooms[1].w = 9
    assert.matches("room 1 is 9x", err_of(strata.worldgen.validate, t))
    t = strata.worldgen.generate(opts)
    local a = t.floors[2].ascent
    t.floors[2].tiles[a.y][a.x] = "room"
    assert.matches("floor 2: the ascent %(%d+, %d+%) is drawn as room", err_of(strata.worldgen.render, t))
    assert.equal(t, strata.worldgen.validate(strata.worldgen.generate(opts)) and t)
  end)

  it("renders floors for a person, in colour when asked", function()
    local t = strata.worldgen.generate(opts)
    local plain, colored = strata.worldgen.render(t), strata.worldgen.render(t, { color = true })
    assert.matches("^floor 1 of 3: start %(%d+, %d+%), descent %(%d+, %d+%), %d+ rooms\n[#,.S>]+\n", plain)
    assert.matches("\n\nfloor 3 of 3: ascent %(%d+, %d+%), exit %(%d+, %d+%), %d+ rooms\n", plain)
    assert.is_nil(plain:find("\27", 1, true))
    assert.truthy(colored:find("\27[", 1, true))
    assert.equal(plain, (colored:gsub("\27%[[%d;]*m", "")))
  end)
end)

describe("worlds from templates", function()
  local function world()
    return strata.world.new{ seed = 3, mods = { "genworld" }, mod_path = PATH }
  end

  it("to_area: floors as maps, stairs at the ends, travelled from the start to the exit", function()
    local w = world()
    local t = strata.worldgen.generate{ dims = { 30, 14, 4 }, seed = 8, room_variance = 6 }
    local area = strata.worldgen.to_area(w, t, { area = "genworld.tower" })
    assert.equal(4, area.deepest_floor)
    local meta = area.meta.worldgen
    assert.same({ 8, 30, 14, 4 }, { meta.seed, meta.dims.x, meta.dims.y, meta.dims.z })
    local town = w:create_map{ width = 5, height = 5, fill = "floor" }
    local door = w:create_entrance(town, 2, 2, area)
    local hero = w:create_actor{ map = town, x = 0, y = 0, player = true }
    local map = w:travel(hero, door)
    -- the entrance arrives on the start (map coordinates are 0-based)
    assert.same({ 1, t.start.x - 1, t.start.y - 1 }, { map.floor, hero.x, hero.y })
    for z = 1, 4 do
      assert.equal(z, map.floor)
      local f, down = t.floors[z], nil
      for y = 1, 14 do
        for x = 1, 30 do
          local want = ({ wall = "wall", descent = "stairs_down", ascent = "stairs_up", start = "stairs_up" })[f.tiles[y][x]] or "floor"
          assert.equal(want, map:top(x - 1, y - 1))
        end
      end
      for feature in map:features() do
        if feature.floor_delta == 1 then down = feature end
      end
      local from, to = ends(t, z)
      local mark = map.props.worldgen[z == 1 and "start" or "ascent"]
      assert.same({ from.x - 1, from.y - 1 }, { mark.x, mark.y })
      assert.truthy(map:find_path({ hero.x, hero.y }, { to.x - 1, to.y - 1 }, { connectivity = 4 }))
      if z < 4 then
        assert.same({ down.x, down.y }, { to.x - 1, to.y - 1 })
        map = w:travel(hero, down)
        -- arriving on the next floor's ascent, under the descent just taken
        assert.same({ to.x - 1, to.y - 1 }, { hero.x, hero.y })
      else
        assert.is_nil(down)
        local exit = map.props.worldgen.exit
        assert.same({ t.exit.x - 1, t.exit.y - 1 }, { exit.x, exit.y })
      end
    end
  end)

  it("to_area: tokens of the caller's choosing; errors name what is wrong", function()
    local w = world()
    local t = strata.worldgen.generate{ dims = { 12, 8, 2 }, seed = 1 }
    local area = strata.worldgen.to_area(w, t, { area = "genworld.tower", tokens = { hallway = "mud", wall = "rock" } })
    local m = area:floor(1)
    local counts = {}
    for y = 0, 7 do for x = 0, 11 do local k = m:top(x, y) counts[k] = (counts[k] or 0) + 1 end end
    assert.truthy(counts.rock and counts.mud and not counts.wall)
    assert.matches("'halway' is not a tile %(nearest known: hallway",
      err_of(strata.worldgen.to_area, w, t, { area = "genworld.tower", tokens = { halway = "mud" } }))
    assert.matches("option 'area' must name", err_of(strata.worldgen.to_area, w, t, {}))
    assert.matches("genworld.towr", err_of(strata.worldgen.to_area, w, t, { area = "genworld.towr" }))
    assert.matches("unknown option 'are'", err_of(strata.worldgen.to_area, w, t, { are = "genworld.tower" }))
    t.floors[1].tiles[1][1] = 7
    assert.matches("is not a tile", err_of(strata.worldgen.to_area, w, t, { area = "genworld.tower" }))
    local ok, err = pcall(function() strata.worldgen.to_area(w, nil, { area = "genworld.tower" }) end)
    assert.is_false(ok)
    assert.matches(THIS .. ":%d+: strata%.worldgen%.to_area: expected a template", err)
  end)

  it("floor by floor: an area generator that makes each floor as it is reached", function()
    local w = world()
    local area = w:create_area("genworld.deep")
    local opts = { dims = { 40, 20, 5 }, seed = w.seed, room_variance = 6 }
    local hero = w:create_actor{ player = true }
    local map = w:travel(hero, area:floor(1))
    for z = 1, 5 do
      local f = strata.worldgen.floor(opts, z)
      for y = 1, 20 do
        for x = 1, 40 do assert.equal(f.tiles[y][x] == "wall", not map:passable(x - 1, y - 1)) end
      end
      if z < 5 then
        local down
        for feature in map:features() do if feature.floor_delta == 1 then down = feature end end
        assert.same({ f.descent.x - 1, f.descent.y - 1 }, { down.x, down.y })
        map = w:travel(hero, down)
        assert.same({ f.descent.x - 1, f.descent.y - 1 }, { hero.x, hero.y })
      end
    end
    assert.equal(5, area.deepest_visited)
  end)
end)

describe("strata worldgen (the command)", function()
  local bin = os.getenv("STRATA_BIN") or "build/strata"
  local sh, q = support.sh, support.q

  it("writes byte-identical files for the same arguments; --read prints what generation printed", function()
    local dir = support.tempdir()
    local args = " worldgen --dims 25x25x3 --seed 7 --room-variance 6 --path-alg astar"
    local _, c1 = sh(bin .. args .. " -o " .. q(dir .. "/a.txt"))
    local _, c2 = sh(bin .. args .. " -o " .. q(dir .. "/b.txt"))
    assert.same({ 0, 0 }, { c1, c2 })
    local a = support.read(dir .. "/a.txt")
    assert.truthy(a and #a > 25 * 25 * 3)
    assert.equal(a, support.read(dir .. "/b.txt"))
    assert.same(strata.worldgen.generate{ dims = { 25, 25, 3 }, seed = 7, room_variance = 6, path_alg = "astar" },
      strata.worldgen.read(dir .. "/a.txt"))
    local printed, c3 = sh(bin .. args)
    local read_back, c4 = sh(bin .. " worldgen --read " .. q(dir .. "/a.txt"))
    assert.same({ 0, 0 }, { c3, c4 })
    assert.equal(printed, read_back)
    assert.matches("^floor 1 of 3: start", printed)
    assert.is_nil(printed:find("\27", 1, true)) -- into a pipe: no colour
    os.execute("rm -rf " .. q(dir))
  end)

  it("exits non-zero with one line naming --dims for bad dims", function()
    for _, d in ipairs{ "0x5x1", "abcd", "-3x5x1", "5x5", "" } do
      local out, code = sh(bin .. " worldgen --dims " .. q(d) .. " --seed 1")
      assert.are_not.equal(0, code)
      assert.matches("^strata: worldgen: [^\n]*%-%-dims[^\n]*\n$", out)
      assert.is_nil(out:find("traceback", 1, true))
    end
    local out, code = sh(bin .. " worldgen --dims")
    assert.equal(2, code) -- a mistake in the arguments
    assert.matches("^[^\n]*%-%-dims needs a value[^\n]*\n$", out)
  end)

  it("names the option in every other error, in one line", function()
    local cases = {
      { "--dims 5x5x1 --room-variance 2", "%-%-room%-variance", 2 }, -- 2: a mistake in the arguments
      { "--dims 5x5x1 --path-alg dfs", "%-%-path%-alg", 2 },
      { "--dims 5x5x1 --seed x", "%-%-seed", 2 },
      { "--dims 5x5x1 --colour", "unknown option '%-%-colour'", 2 },
      { "--read /nonexistent/w.txt", "cannot read '/nonexistent/w.txt'", 1 },
      { "--read x --dims 5x5x1", "%-%-read", 2 },
    }
    for _, c in ipairs(cases) do
      local out, code = sh(bin .. " worldgen " .. c[1])
      assert.equal(c[3], code)
      assert.matches("^strata: worldgen: [^\n]*" .. c[2] .. "[^\n]*\n$", out)
    end
  end)

  it("says more with --verbose and --debug, nothing with --silent", function()
    local dir = support.tempdir()
    local out = sh(bin .. " worldgen --dims 20x20x2 --seed 1 --verbose -o " .. q(dir .. "/w.txt"))
    assert.matches("floor 1 of 2: %d+ rooms, passable after 1 attempt\n", out)
    assert.matches("wrote .*/w%.txt\n$", out)
    out = sh(bin .. " worldgen --dims 20x20x1 --seed 1 --debug -o " .. q(dir .. "/w.txt"))
    assert.matches("hallway %(%d+, %d+%) %-> %(%d+, %d+%)", out)
    -- a big world reports on stderr, unless --silent
    out = sh(bin .. " worldgen --dims 1000x1000x1 --seed 1 -o " .. q(dir .. "/big.txt"))
    assert.matches("^strata worldgen: 1 floor of 1000x1000, seed 1, in [%d.]+ s %(1 attempt%)\n$", out)
    out = sh(bin .. " worldgen --dims 1000x1000x1 --seed 1 --silent -o " .. q(dir .. "/big.txt"))
    assert.equal("", out)
    out = sh(bin .. " worldgen --dims 20x20x1 --no-check -o " .. q(dir .. "/w.txt"))
    assert.equal("", out)
    assert.matches("\npost_check false\n", support.read(dir .. "/w.txt"))
    os.execute("rm -rf " .. q(dir))
    out = sh(bin .. " worldgen --help")
    assert.matches("^usage: strata worldgen %[%-%-dims WxHxZ | %-%-rand%]", out)
  end)
end)

-- The reference's options, in its words (docs/worldgen.md, "Differences from the reference"; issue 35).
describe("the world generator as the reference has it", function()
  local bin = os.getenv("STRATA_BIN") or "build/strata"
  local sh, q = support.sh, support.q
  -- The error of generate(opts), called from a line of this file.
  local function gen_err(opts)
    local ok, err = pcall(function() strata.worldgen.generate(opts) end)
    assert.is_false(ok)
    return tostring(err)
  end

  it("defaults to 'dim_x=25, dim_y=25, dim_z=3' when no dims are given", function()
    local t = strata.worldgen.generate{ seed = 4 }
    check_template(t, { dims = { 25, 25, 3 } })
    assert.same(strata.worldgen.generate{ dims = { 25, 25, 3 }, seed = 4 }, t)
    assert.same(t.floors[2], strata.worldgen.floor({ seed = 4 }, 2))
    assert.same({ 25, 25, 3 }, { dims_of(strata.worldgen.generate()) })
    local out, code = sh(bin .. " worldgen --seed 4")
    assert.equal(0, code, out)
    assert.equal(strata.worldgen.render(t), out)
  end)

  it("draws the dims with rand = true: 'within a maximum z dimension of 10, and 50 for x and y'", function()
    local seen = {}
    for seed = 1, 30 do
      local t = strata.worldgen.generate{ rand = true, seed = seed, post_check = false }
      local x, y, z = dims_of(t)
      assert(x >= 10 and x <= 50 and y >= 10 and y <= 50 and z >= 1 and z <= 10, ("%dx%dx%d"):format(x, y, z))
      seen[("%dx%dx%d"):format(x, y, z)] = true
      -- from the seed: the same dims again, and the same world as those dims given
      assert.same(t.dims, strata.worldgen.generate{ rand = true, seed = seed, post_check = false }.dims)
      if seed <= 3 then
        assert.same(strata.worldgen.generate{ dims = { x, y, z }, seed = seed, post_check = false }, t)
        assert.same(t.floors[z], strata.worldgen.floor({ rand = true, seed = seed, post_check = false }, z))
      end
    end
    local n = 0
    for _ in pairs(seen) do n = n + 1 end
    assert(n >= 25, "only " .. n .. " different dims in 30 seeds")
    assert.same({ dims_of(strata.worldgen.generate{ seed = 3, rand = false }) }, { 25, 25, 3 })
    local err = gen_err({ rand = true, dims = { 5, 5, 1 } })
    assert.matches(THIS .. ":%d+: strata%.worldgen%.generate: rand = true draws the dims: give dims or rand, not both", err)
    err = gen_err({ rand = 1 })
    assert.matches("strata%.worldgen%.generate: option 'rand' must be a boolean", err)
    local out, code = sh(bin .. " worldgen --rand --seed 5")
    assert.equal(0, code, out)
    assert.equal(strata.worldgen.render(strata.worldgen.generate{ rand = true, seed = 5 }), out)
    out, code = sh(bin .. " worldgen --rand --dims 5x5x1")
    assert.equal(2, code)
    assert.equal("strata: worldgen: --rand draws the dims: give --dims or --rand, not both; try 'strata worldgen --help'\n", out)
  end)

  it("reads its options from a configuration file ('conf is the path to a ... config file')", function()
    local dir = support.tempdir()
    local conf = dir .. "/world.conf"
    support.write(conf, table.concat({
      "# the tower of the east",
      "[worldgen]",
      "dim_x = 30",
      "dim_y: 14",
      "DIM_Z = 4",
      "; comments start with # or ;",
      "",
      "seed = -11",
      "room_variance = 6",
      "post_check = yes",
      "path_alg = gbf_search",
    }, "\n") .. "\n")
    local want = strata.worldgen.generate{ dims = { 30, 14, 4 }, seed = -11, room_variance = 6, path_alg = "greedy" }
    assert.same(want, strata.worldgen.generate{ conf = conf })
    assert.same(want.floors[3], strata.worldgen.floor({ conf = conf }, 3))
    -- options given in the call win over the file's
    assert.same(strata.worldgen.generate{ dims = { 30, 14, 4 }, seed = 2, room_variance = 6, path_alg = "greedy" },
      strata.worldgen.generate{ conf = conf, seed = 2 })
    assert.same(strata.worldgen.generate{ rand = true, seed = -11, room_variance = 6, path_alg = "greedy" },
      strata.worldgen.generate{ conf = conf, rand = true })
    -- the command: --conf, with flags over the file
    local out, code = sh(bin .. " worldgen --conf " .. q(conf))
    assert.equal(0, code, out)
    assert.equal(strata.worldgen.render(want), out)
    out, code = sh(bin .. " worldgen --conf " .. q(conf) .. " --seed 2 --dims 10x10x1")
    assert.equal(0, code, out)
    assert.equal(strata.worldgen.render(strata.worldgen.generate{ dims = { 10, 10, 1 }, seed = 2,
      room_variance = 6, path_alg = "greedy" }), out)
    -- the same text given as conf_text (a mod's own file, read with mod:read; standard input)
    local text = support.read(conf)
    assert.same(want, strata.worldgen.generate{ conf_text = text })
    -- a mod gives one of its own files' text (conf, a path, it cannot)
    support.write(dir .. "/tower/mod.lua", 'return { id = "tower", version = "0.1.0", requires = { base = "*" } }\n')
    support.write(dir .. "/tower/tower.conf", text)
    support.write(dir .. "/tower/init.lua", 'local t = strata.worldgen.generate{ conf_text = mod:read("tower.conf") }\n'
      .. 'data:add{ _type = "base.token", _id = "made", glyph = "x", passable = #t.floors[3].rooms > 0,'
      .. ' color = ("dims %d %d %d"):format(t.dims[1], t.dims[2], t.dims[3]) }\n')
    local w = strata.world.new{ mods = { "tower" }, mod_path = { dir } }
    assert.equal("dims 30 14 4", w.data["base.token"]:get("tower.made").color)
    assert.same(strata.worldgen.options{ conf = conf }, strata.worldgen.options{ conf_text = text })
    assert.matches("strata%.worldgen%.generate: conf_text:1: unknown key 'dim_q'",
      support.err_of(strata.worldgen.generate, { conf_text = "dim_q = 3\n" }))
    assert.matches("strata%.worldgen%.generate: give conf %(a path%) or conf_text %(the text%), not both",
      support.err_of(strata.worldgen.generate, { conf = conf, conf_text = text }))
    out, code = sh(bin .. " worldgen --conf - < " .. q(conf))
    assert.equal(0, code, out)
    assert.equal(strata.worldgen.render(want), out)
    out, code = sh("echo 'dim_q = 3' | " .. bin .. " worldgen --conf -")
    assert.equal(1, code, out)
    assert.equal("strata: worldgen: standard input:1: unknown key 'dim_q' (nearest known: dim_x, dim_y, dim_z)\n", out)
    -- rand in the file
    support.write(conf, "rand = true\nseed = 8\n")
    assert.same(strata.worldgen.generate{ rand = true, seed = 8 }, strata.worldgen.generate{ conf = conf })
    assert.same(strata.worldgen.generate{ dims = { 6, 6, 2 }, seed = 8 },
      strata.worldgen.generate{ conf = conf, dims = { 6, 6, 2 } })
    os.execute("rm -rf " .. q(dir))
  end)

  it("refuses a bad configuration file with one line naming the file and the line", function()
    local dir = support.tempdir()
    local conf = dir .. "/bad.conf"
    local cases = {
      { "dim_x = 30\ndim_q = 4\n", "bad.conf:2: unknown key 'dim_q' %(nearest known: dim_x, dim_y, dim_z%)" },
      { "dim_x = 30\n\nroom_varience = 4\n", "bad.conf:3: unknown key 'room_varience' %(nearest known: room_variance" },
      { "dim_x = thirty\n", "bad.conf:1: dim_x must be a whole number from 1 to 65535, got 'thirty'" },
      { "dim_x = 0\n", "bad.conf:1: dim_x must be a whole number from 1 to 65535, got '0'" },
      { "dim_y = 40 # wide\n", "bad.conf:1: dim_y must be a whole number from 1 to 65535, got '40 # wide'" },
      { "seed = 99999999999999999999\n", "bad.conf:1: seed must be an integer, got '99999999999999999999'" },
      { "room_variance = 2\n", "bad.conf:1: room_variance must be a whole number of at least 3" },
      { "post_check = maybe\n", "bad.conf:1: post_check must be true or false %(yes, no, on, off, 1, 0%), got 'maybe'" },
      { "path_alg = dfs\n", "bad.conf:1: path_alg must be astar, greedy, bfs, dijkstra or gbf_search, got 'dfs'" },
      { "seed = 1\nseed = 2\n", "bad.conf:2: seed is given twice %(first on line 1%)" },
      { "rand = true\ndim_z = 4\n", "bad.conf:2: rand = true draws the dims: give dim_x, dim_y, dim_z or rand, not both" },
      { "dim_x = 4\nrand = on\n", "bad.conf:2: rand = true draws the dims: give dim_x, dim_y, dim_z or rand, not both" },
      { "[world]\n", "bad.conf:1: unknown section %[world%] %(the one section is %[worldgen%]%)" },
      { "dim_x 30\n", "bad.conf:1: expected 'key = value', found 'dim_x 30'" },
      { "seed = 1\n= 4\n", "bad.conf:2: expected 'key = value', found '= 4'" },
      { "seed = \n", "bad.conf:1: seed must be an integer, got ''" },
      { "seed = 1\0\n", "bad.conf:1: a NUL byte" },
      { "[worldgen]\nseed = 1\n[worldgen]\n", "bad.conf:3: section %[worldgen%] is given twice" },
    }
    for _, c in ipairs(cases) do
      support.write(conf, c[1])
      local err = gen_err({ conf = conf })
      assert.matches(THIS .. ":%d+: strata%.worldgen%.generate: [^\n]*" .. c[2], err)
      assert.is_nil(err:find("\n", 1, true), err)
      local out, code = sh(bin .. " worldgen --conf " .. q(conf))
      assert.equal(1, code)
      assert.matches("^strata: worldgen: [^\n]*" .. c[2] .. "[^\n]*\n$", out)
    end
    -- not a file, no file, not a string
    local err = gen_err({ conf = dir })
    assert.matches("strata%.worldgen%.generate: cannot read '[^']*': [^\n]*not a regular file", err)
    err = gen_err({ conf = dir .. "/none.conf" })
    assert.matches("strata%.worldgen%.generate: cannot read '[^']*none%.conf'", err)
    err = gen_err({ conf = 3 })
    assert.matches("strata%.worldgen%.generate: option 'conf' must be a string", err)
    local out, code = sh(bin .. " worldgen --conf " .. q(dir .. "/none.conf"))
    assert.equal(1, code)
    assert.matches("^strata: worldgen: cannot read '[^\n]*none%.conf'[^\n]*\n$", out)
    out, code = sh(bin .. " worldgen --read x --conf " .. q(conf))
    assert.equal(2, code)
    assert.matches("^strata: worldgen: %-%-read prints a template as it is: it takes none of [^\n]*%-%-conf", out)
    os.execute("rm -rf " .. q(dir))
  end)
end)
