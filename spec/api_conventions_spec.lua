-- The conventions of the Lua API (README "Conventions", docs/lua-api.md) held
-- by every kind of value, not only by worlds (issue 29): a world map's methods
-- give what a standalone map's give, every result; errors name the public
-- function and point at the caller's line, never `bad argument #n to 'name'`.
local strata = require "strata"

local THIS = "api_conventions_spec.lua"

local support = require "support"
local err_of = support.err_of

-- The error case c = { call, message } raises, checked to be at the caller's
-- line (this file) and to start with the message; returns it and its text
-- after the position.
local function raised(c)
  local err = err_of(c[1])
  local where, msg = err:match("^([^:]*:%d+): (.*)$")
  assert.truthy(where and where:find(THIS, 1, true), "not at the caller's line: " .. err)
  assert.equal(c[2], msg:sub(1, #c[2]), err)
  return err, msg
end

describe("a world map's methods", function()
  -- Two maps drawn alike: one a world's, one standalone.
  local world = strata.world.new{ seed = 1 }
  local function draw(m)
    m:clear("floor")
    m:fill(2, 0, 1, 2, "wall")
    m:set(4, 2, "water")
    return m
  end
  local function both()
    return draw(world:create_map{ width = 6, height = 3 }),
      draw(strata.tilemap.new{ width = 6, height = 3, tokens = support.state(world):tokens() })
  end

  -- Results compared as values: a map given back stands for itself, a path
  -- value by its cells and cost, a table by its contents.
  local function norm(v, self)
    if v == self then return "<self>" end
    if tostring(v):match("^strata%.path") then return { path = v:table() } end
    if tostring(v):match("^strata%.fov") then
      local cells = {}
      for x, y in v:cells() do cells[#cells + 1] = { x, y } end
      return { fov = cells }
    end
    if tostring(v):match("^strata%.distmap") then
      local cells = {}
      for y = 0, v.height - 1 do for x = 0, v.width - 1 do cells[#cells + 1] = v:at(x, y) or false end end
      return { distmap = cells }
    end
    return v
  end
  local function results(self, ...)
    local out = { n = select("#", ...) }
    for i = 1, out.n do out[i] = norm(select(i, ...), self) end
    return out
  end

  -- Arguments for each method (several calls where results differ in count).
  local calls = {
    set = { { 1, 1, "mud" } }, add_front = { { 1, 1, "mud" } }, remove = { { 4, 2, "water" }, { 0, 0, "nope" } },
    reset = { { 1, 1 }, { 1, 1, "floor" } }, clear = { { "floor" } }, fill = { { 0, 0, 2, 2, "mud", { push = true } } },
    tokens = { { 4, 2 } }, top = { { 4, 2 }, { 0, 0 } }, has = { { 4, 2, "water" } }, passable = { { 2, 0 } },
    cost = { { 4, 2 }, { 2, 0 } }, occupied = { { 4, 2 } }, define_token = { { "mud", { cost = 3 } } },
    find_path = { { { 0, 0 }, { 5, 0 } }, { { 0, 0 }, { 2, 0 } }, { { 0, 0 }, { 0, 0 } },
      { { 0, 0 }, { 5, 0 }, { connectivity = 8, algorithm = "dijkstra" } } },
    fov = { { 1, 1 }, { 0, 0, { radius = 2, algorithm = "permissive", light_walls = false } } },
    distance_map = { { { { 0, 0 } } }, { { token = "water" }, { connectivity = 8 } } },
    render = { {}, { { path_glyph = "*" } } }, to_svg = { { { cell = 4 } } }, to_png = { { { cell = 2 } } },
    to_tiled = { {}, { { tile_size = 8 } } },
  }

  it("are every method of a standalone map (but close, which a world's map has no use for)", function()
    local _, tm = both()
    local methods = debug.getmetatable(tm).methods
    for name in pairs(methods) do
      if name ~= "close" then
        assert.is_function(world:create_map{ width = 1, height = 1 }[name], "map:" .. name)
        assert.is_table(calls[name], "no call for map:" .. name .. " in " .. THIS)
      end
    end
  end)

  for name, list in pairs(calls) do
    it(("map:%s gives every result a standalone map's gives"):format(name), function()
      for _, args in ipairs(list) do
        local wm, tm = both()
        local got = results(wm, wm[name](wm, table.unpack(args)))
        local want = results(tm, tm[name](tm, table.unpack(args)))
        assert.same(want, got)
        assert.equal(wm:render(), tm:render())
      end
    end)
  end

  it("map:find_path gives path, cost or nil, reason (docs/lua-api.md's example)", function()
    local wm = both()
    local path, cost = wm:find_path({ 0, 0 }, { 5, 0 })
    assert.equal(path.cost, cost)
    local none, why = wm:find_path({ 0, 0 }, { 2, 0 })
    assert.is_nil(none)
    assert.equal("no path from (0, 0) to (2, 0)", why)
  end)
end)

describe("errors of every kind of value", function()
  local world = strata.world.new{ seed = 1, mods = { "base", "examples" } }
  local map = world:create_map{ width = 4, height = 3, fill = "floor" }
  local tm = strata.tilemap.new{ width = 4, height = 3, fill = "floor" }
  local hero = world:create_actor{ map = map, x = 0, y = 0 }
  local path = tm:find_path({ 0, 0 }, { 3, 0 })
  local xy = strata.xymap.parse("+ 0 1 2\n\n0 #-#-#\n\n+ 0 1 2", { z = "lane" })
  local grid = strata.xymap.grid()
  grid:add(xy)
  local rng = strata.rng.new(1)
  local tokens = strata.tokens.new()
  local area = world:create_area("examples.putit_paradise")

  -- The call, and the message it must give after "<this file>:<line>: ".
  local cases = {
    { function() map:find_path({ 0, 0 }, { 1, 1 }, { algoritm = "bfs" }) end,
      "map:find_path: unknown option 'algoritm' (nearest known: algorithm" },
    { function() tm:find_path({ 0, 0 }, { 1, 1 }, { algoritm = "bfs" }) end,
      "map:find_path: unknown option 'algoritm' (nearest known: algorithm" },
    { function() map:find_path({ 0, 0 }, { 9, 9 }) end, "map:find_path: goal (9, 9) is outside the 4x3 map" },
    { function() tm:set(9, 0, "wall") end, "map:set: cell (9, 0) is outside the 4x3 map" },
    { function() map:fov(9, 0) end, "map:fov: field of view from (9, 0), outside the 4x3 map" },
    { function() tm:fov(0, 0, { radus = 2 }) end, "map:fov: unknown option 'radus' (nearest known: radius" },
    { function() map:set(9, 0, "wall") end, "map:set: cell (9, 0) is outside the 4x3 map" },
    { function() tm:set("a", 0, "wall") end, "map:set: argument #1: number expected, got string" },
    { function() map:set("a", 0, "wall") end, "map:set: argument #1: number expected, got string" },
    { function() tm:fill(0, 0, 1, 1, "x", { pushh = true }) end, "map:fill: unknown option 'pushh'" },
    { function() tm.set(5, 0, 0, "x") end, "map:set: expected a strata.tilemap as self" },
    { function() map.set(5, 0, 0, "x") end, "map:set: expected a map as self" },
    { function() map:render{ path = { { 7, 7 } } } end, "map:render: option 'path': point 1 (7, 7) is outside" },
    { function() tm:to_svg{ cel = 3 } end, "map:to_svg: unknown option 'cel'" },
    { function() strata.tilemap.new{ width = 0, height = 3 } end,
      "strata.tilemap.new: width and height must be integers in 1..65535" },
    { function() path:xy("a") end, "path:xy: argument #1: number expected, got string" },
    { function() tokens:define("x", { cost = 0 }) end, "tokens:define: " },
    { function() strata.tokens.define(5) end, "strata.tokens.define: " },
    { function() rng:int("a") end, "rng:int: argument #1: number expected, got string" },
    { function() strata.rng.new({}) end, "strata.rng.new: " },
    { function() xy:node("a") end, "xy:node: argument #1: number expected, got string" },
    { function() xy:shortest_path({ 0, 0 }, { 9, 9 }) end, "xy:shortest_path: coordinate (9, 9) is outside" },
    { function() xy:visual_range({ 0, 0 }, { dst = 1 }) end, "xy:visual_range: unknown option 'dst'" },
    { function() grid:shortest_path(5, 6) end, "grid:shortest_path: argument #1: table expected, got number" },
    { function() strata.xymap.parse(5) end, "strata.xymap.parse: " },
    { function() strata.markup.render(5) end, "strata.markup.render: " },
    { function() hero:tag({}) end, "object:tag: " },
    { function() area:floor("one") end, "area:floor: " },
    { function() world:create_map{ width = "x", height = 2 } end, "world:create_map: " },
  }

  for i, c in ipairs(cases) do
    it(("case %d: %s"):format(i, c[2]), function()
      local err = raised(c)
      assert.is_nil(err:find("bad argument", 1, true), err)
      assert.is_nil(err:find("'?'", 1, true), err)
    end)
  end

  it("setting an actor's x or y points to world:move", function()
    for _, k in ipairs{ "x", "y" } do
      local err = err_of(function() hero[k] = 3 end)
      assert.truthy(err:find(THIS, 1, true), err)
      assert.truthy(err:find(("actor.%s cannot be set: use world:move(actor, x, y)"):format(k), 1, true), err)
    end
  end)
end)

describe("routes to where there is no node", function()
  -- (1, 1) is no node; (0, 1) is a node without exits.
  local xy = strata.xymap.parse("+ 0 1 2\n\n1 #   #\n\n0 #-#-#\n\n+ 0 1 2", { z = "lane" })
  local grid = strata.xymap.grid()
  grid:add(xy)

  it("xy:shortest_path says which end has no node", function()
    assert.same({ nil, "no node at (1, 1)" }, { xy:shortest_path({ 0, 0 }, { 1, 1 }) })
    assert.same({ nil, "no node at (1, 1)" }, { xy:shortest_path({ 1, 1 }, { 0, 0 }) })
    assert.same({ nil, "no route between these nodes" }, { xy:shortest_path({ 0, 0 }, { 0, 1 }) })
  end)

  it("grid:shortest_path says which end has no node, and on which map", function()
    assert.same({ nil, "no node at (1, 1) on map 'lane'" }, { grid:shortest_path({ 0, 0, "lane" }, { 1, 1, "lane" }) })
    assert.same({ nil, "no node at (1, 1) on map 'lane'" }, { grid:shortest_path({ 1, 1, "lane" }, { 0, 0, "lane" }) })
    assert.same({ nil, "no route between these nodes" }, { grid:shortest_path({ 0, 0, "lane" }, { 0, 1, "lane" }) })
  end)
end)

-- One owner (issue 30): the Lua layer's errors are raised where they are
-- found, at the right level, already naming the public function; nothing
-- strips positions of strata's own files or the core's "strata_" names from a
-- message afterwards, and no deeper helper leaks a line of lua/strata/.
describe("errors of the Lua layer's deepest helpers", function()

  it("no Lua file of strata strips positions or strata_ prefixes from a message", function()
    local root = os.getenv("STRATA_SOURCE_DIR") or "."
    for _, path in ipairs(support.library_files()) do
      local text = assert(support.read(root .. "/" .. path))
      -- A pattern that takes "file:line: " or "strata_fn: " off the front of a message.
      assert.is_nil(text:find(":%d+: ", 1, true), path .. " strips a position")
      assert.is_nil(text:find("%.lua:", 1, true), path .. " strips a position")
      assert.is_nil(text:find('"^strata_', 1, true), path .. " strips strata_ names")
      assert.is_nil(text:find("boundary.strip", 1, true), path .. " strips positions")
      assert.is_nil(text:find("boundary.named", 1, true), path .. " rewords names")
    end
    local boundary = require "strata.boundary"
    assert.is_nil(boundary.strip)
    assert.is_nil(boundary.named)
  end)

  local world = strata.world.new{ seed = 1, mods = { "base", "examples", "dungeon", "delve" },
    mod_path = { "mods", "spec/fixtures/mods" } }
  local map = world:create_map{ width = 4, height = 3, fill = "floor" }
  local hero = world:create_actor{ map = map, x = 0, y = 0, player = true }
  local area = world:create_area("examples.putit_paradise")
  local gone = world:create_map{ width = 2, height = 2 }
  gone:delete()
  local room = world:create_room{ name = "hall" }
  world.branches:make_start(room, { north = "delve.narrow" })
  world:go(world:create_actor{ room = room }, "north")
  local branch = world.branches:list()[1]
  branch:collapse()

  -- The call, and the message it must give after "<this file>:<line>: ".
  local cases = {
    -- option checks
    { function() area:delete{ childre = true } end, "area:delete: unknown option 'childre' (nearest known: children" },
    { function() world:create_room{ nme = "x" } end, "world:create_room: unknown option 'nme'" },
    { function() world:walk(hero, { 1, 1 }, { step_evry = 1 }) end, "world:walk: unknown option 'step_evry'" },
    { function() hero:subscribe("base.moved", "dungeon.noop", nil, { priorty = 1 }) end,
      "object:subscribe: unknown option 'priorty'" },
    { function() strata.worldgen.generate{ see = 1 } end, "strata.worldgen.generate: unknown option 'see'" },
    { function() strata.worldgen.floor({ see = 1 }, 1) end, "strata.worldgen.floor: unknown option 'see'" },
    { function() strata.worldgen.to_area(world, {}, { are = 1 }) end, "strata.worldgen.to_area: unknown option 'are'" },
    { function() strata.layout.run(strata.layout.reset("floor"), map, { sed = 1 }) end,
      "strata.layout.run: unknown option 'sed'" },
    { function() world.grid:exits{ romo = room } end, "world.grid:exits: unknown option 'romo'" },
    -- IDs looked up in the world's data
    { function() world:emit("examples.nothing", {}) end, "world:emit: unknown base.event 'examples.nothing'" },
    { function() world:schedule{ after = 1, handler = "examples.nope" } end,
      "world:schedule: unknown base.handler 'examples.nope'" },
    { function() world:create_area("examples.nope") end, "world:create_area: unknown base.area_archetype 'examples.nope'" },
    { function() hero:subscribe("examples.nothing", "dungeon.noop") end, "object:subscribe: unknown base.event" },
    { function() map:render{ glyphs = "examples.nope" } end, "map:render: unknown base.glyphs 'examples.nope'" },
    { function() world.grid:add("examples.nope") end, "world.grid:add: unknown base.grid_map 'examples.nope'" },
    { function() strata.layout.run("examples.nope", map, { seed = 1 }) end,
      "strata.layout.run: unknown base.layout 'examples.nope'" },
    { function() strata.xymap.parse("+ 0\n\n0 #\n\n+ 0", { legend = { ["#"] = "examples.nope" }, world = world }) end,
      "strata.xymap.parse: legend '#': unknown base.legend 'examples.nope'" },
    -- travel and movement refusals
    { function() world:travel(hero, 5) end, "world:travel: " },
    { function() world:travel(hero, map, { x = 9, y = 0 }) end, "world:travel: " },
    { function() world:travel(hero, map, { x = 1 }) end, "world:travel: y: expected an integer, got nil" },
    { function() world:move(hero, "a", 0) end, "world:move: " },
    -- tile maps: their methods, deleted ones, and what create_map does with them
    { function() gone:set(0, 0, "wall") end, "map:set: map#" },
    { function() map:define_token("mud", 5) end, "map:define_token: traits must be a table, got number" },
    { function() world:create_map{ width = 2, height = 2, fill = {} } end, "world:create_map: " },
    { function() world:create_map{ width = 2, height = 2, tokens = { mud = 5 } } end, "world:create_map: " },
    -- the common methods of handles
    { function() hero:delete{} end, "object:delete: actor#" },
    { function() world:objects{ knd = "den" } end, "world:objects: unknown option 'knd' (nearest known: kind)" },
    { function() hero:subscribe("base.moved", "dungeon.noop", nil, { priority = 1.5 }) end,
      "object:subscribe: priority must be an integer" },
    { function() world.rng:stream(5) end, "world.rng:stream: key must be a string" },
    -- grid and branch functions
    { function() world.grid:delete({}) end, "world.grid:delete: expected a z" },
    { function() world.grid:room("a", 0) end, "world.grid:room: x and y must be integers" },
    { function() world.grid:view(room, { radius = 1 }) end, "world.grid:view: unknown option 'radius'" },
    { function() world.branches.list(5) end, "world.branches:list: call it as world.branches:list(...)" },
    { function() world.branches:make_start(room, { west = "delve.wid" }) end,
      "world.branches:make_start: unknown base.branch_archetype 'delve.wid' (nearest known: delve.wide" },
    { function() world.branches:make_start(room, { nort = "delve.wide" }) end,
      "world.branches:make_start: 'nort' is no direction (nearest known: north" },
    { function() branch:rooms() end, "branch:rooms: branch#" },
    { function() branch:collapse{} end, "branch:collapse takes no options" },
    { function() room:set_clear(5) end, "room:set_clear: expected a boolean, got number" },
    { function() room:exit(5) end, "room:exit: direction must be a non-empty string, got 5" },
    { function() world:create_exit(room, nil, { name = 5 }) end, "world:create_exit: name must be a non-empty string" },
    { function() world.branches:make_start(5) end, "world.branches:make_start: " },
    -- layout functions
    { function() strata.layout.set(5) end, "strata.layout.set: expected a token (string), got number" },
    { function() strata.layout.margins(1.5, 1, 1, 1) end, "strata.layout.margins: expected an integer, got 1.5" },
    { function() strata.layout.place{ { size = 5 } } end, "strata.layout.place: expected {x, y}, got number" },
    { function() strata.layout.place{ size = { 2, 2 }, generator = strata.layout.reset("x"), count = "a" } end,
      "strata.layout.place count: expected an integer or {min, max}, got a" },
    { function() strata.layout.glyphs("x \"a\" b purple\n") end, "strata.layout.glyphs: glyphs:1: unknown colour 'b'" },
    { function() strata.layout.generate(strata.layout.reset("floor"), map, { seed = 1, attempts = 0 }) end,
      "strata.layout.generate: option 'attempts' must be an integer of at least 1, got 0" },
    { function() strata.layout.run("Set(", map, { seed = 1 }) end, "strata.layout.run: " },
  }

  for i, c in ipairs(cases) do
    it(("case %d: %s"):format(i, c[2]), function()
      local err, msg = raised(c)
      assert.is_nil(err:find("lua/strata/", 1, true), err)
      assert.is_nil(msg:find("%.lua:"), err)
    end)
  end

  it("data:add's checks name data:add at the mod's line, and strata.world.new at the caller's", function()
    local dir = support.tempdir()
    support.write(dir .. "/m/mod.lua", 'return { id = "m", version = "0.1.0", requires = { base = "*" } }')
    support.write(dir .. "/m/init.lua", '\n\ndata:add{ _type = "base.layout", _id = 5 }\n')
    local err = err_of(function() strata.world.new{ seed = 1, mods = { "m" }, mod_path = { dir } } end)
    os.execute("rm -rf " .. support.q(dir))
    assert.matches("^[^:]*" .. THIS:gsub("%p", "%%%0") .. ":%d+: strata%.world%.new: ", err)
    assert.matches("m/init%.lua:3: data:add base%.layout: _id must be", err)
    assert.is_nil(err:find("lua/strata/", 1, true), err)
  end)
end)

describe("errors of the builtins a mod's sandbox wraps", function()

  it("point at the mod's line, never at strata's sandbox", function()
    local dir = support.tempdir()
    support.write(dir .. "/m/mod.lua", 'return { id = "m", version = "0.1.0", requires = { base = "*" } }')
    support.write(dir .. "/m/init.lua", [[
data:add{ _type = "base.handler", _id = "meta", run = function(world)
  setmetatable(world:create_object{ kind = "x" }, nil)
end }
data:add{ _type = "base.handler", _id = "raw", run = function(world)
  rawset(5, 1, 2)
end }
]])
    local w = strata.world.new{ seed = 1, mods = { "m" }, mod_path = { dir } }
    os.execute("rm -rf " .. support.q(dir))
    w:schedule{ after = 1, handler = "m.meta" }
    w:schedule{ after = 2, handler = "m.raw" }
    local failures = w:advance(3)
    assert.equal(2, #failures)
    assert.matches("m/init%.lua:2: cannot change a protected metatable$", failures[1].message)
    assert.matches("m/init%.lua:5: bad argument #1 to 'rawset' %(table expected, got number%)$", failures[2].message)
  end)
end)
