-- The base types' checks (issue 29): what a mod gets wrong in a base.layout,
-- base.legend, base.grid_map or base.unique_area is refused when the mod adds
-- the entry, naming the entry; what only a generated floor can tell is
-- refused when that floor is generated, naming the unique area. And
-- strata.layout's errors name the public function and the caller's line.
local strata = require "strata"
local support = require "support"

local THIS = "data_checks_spec.lua"

-- Loads one mod "m" (requiring base) with init.lua = init, in a fresh folder;
-- extra = { [mod id] = init } adds mods it may require.
local function load(init, extra, requires)
  local dir = support.tempdir()
  local function mod(id, text, req)
    support.write(("%s/%s/mod.lua"):format(dir, id),
      ("return { id = %q, version = \"0.1.0\", requires = { base = \"*\"%s } }"):format(id, req or ""))
    support.write(("%s/%s/init.lua"):format(dir, id), text)
  end
  for id, text in pairs(extra or {}) do mod(id, text) end
  mod("m", init, requires)
  local ok, w = pcall(strata.world.new, { seed = 1, mods = { "m" }, mod_path = { dir } })
  os.execute("rm -rf " .. support.q(dir))
  return ok, w
end

local function refused(init, extra, requires)
  local ok, err = load(init, extra, requires)
  assert.is_false(ok, "expected the mod to be refused")
  return tostring(err)
end

local function loads(init, extra, requires)
  local ok, w = load(init, extra, requires)
  assert.is_true(ok, tostring(w))
  return w
end

describe("base.layout", function()
  it("parses its source when the mod adds it: the ID, line:column and the parser's message", function()
    local err = refused([[data:add{ _type = "base.layout", _id = "level", size = { 10, 5 }, source = [=[{
  Reset("wall")
  Plase(size = {3 3} generator = Reset("floor")) }]=] }]])
    assert.matches("data:add base.layout m.level: source:3:3: unknown generator 'Plase' %(did you mean Place%?", err)
  end)

  it("refuses a size no map can have", function()
    assert.matches("data:add base.layout m.l: size must be two integers from 1 to 65535 %(at most 268435456 cells%), got %(0, 5%)",
      refused([[data:add{ _type = "base.layout", _id = "l", size = { 0, 5 }, source = 'Reset("wall")' }]]))
    assert.matches("size must be two integers from 1 to 65535 %(at most 268435456 cells%), got %(40, 70000%)",
      refused([[data:add{ _type = "base.layout", _id = "l", size = { x = 40, y = 70000 }, source = 'Reset("wall")' }]]))
  end)

  it("a good layout still loads and runs", function()
    local w = loads([[data:add{ _type = "base.layout", _id = "l", size = { 4, 3 }, source = 'Reset("wall")' }]])
    local m = w:create_map{ width = 4, height = 3 }
    assert.is_true(strata.layout.generate("m.l", m, { seed = 1 }))
    assert.is_true(m:has(1, 1, "wall"))
  end)
end)

describe("strata.layout's errors", function()
  local L = strata.layout
  local tm = strata.tilemap.new{ width = 5, height = 5 }
  local g = L.set("floor")
  -- Each case: the call, and the public name its message must carry.
  local cases = {
    { function() L.generate(g, tm, { seed = 1, fill = {} }) end, "strata.layout.generate: option 'fill'" },
    { function() L.generate(g, tm, { seed = 1, attempts = "x" }) end, "strata.layout.generate: option 'attempts'" },
    { function() L.generate(g, tm, { seed = 1, attempts = 0 }) end, "strata.layout.generate: option 'attempts'" },
    { function() L.preview(tm, 5) end, "strata.layout.preview" },
    { function() L.apply(tm, 5) end, "strata.layout.apply" },
    { function() L.apply(tm, { floor = 5 }) end, "strata.layout.apply" },
    { function() L.set(5) end, "strata.layout.set: expected a token" },
    { function() L.margins(1.5) end, "strata.layout.margins" },
    { function() L.inside(1.5, g) end, "strata.layout.inside" },
    { function() L.place{ generator = g, max_size = 5 } end, "strata.layout.place" },
    { function() L.place{ { generator = g, max_size = { 1 } } } end, "strata.layout.place" },
    { function() L.noise_map(1, 5) end, "strata.layout.noise_map" },
    { function() L.noise_map(1, { 5 }) end, "strata.layout.noise_map" },
    { function() L.chain(5) end, "strata.layout.chain" },
    { function() L.choose{ 5 } end, "strata.layout.choose" },
    { function() L.connect(L.on("a"), { 5 }) end, "strata.layout.connect" },
    { function() L.repeat_({ 1 }, g) end, "strata.layout.repeat" },
    { function() L.and_(5) end, "strata.layout.and" },
    { function() L.translate(5) end, "strata.layout.translate" },
    { function() L.split_h(0.5, 5) end, "strata.layout.split_h" },
    { function() L.generate(nil, tm, { seed = 1 }) end, "strata.layout.generate" },
    { function() L.parse("Plase()") end, "strata.layout.parse: layout:1:1: unknown generator 'Plase'" },
    { function() L.mapping("x", { world = 5 }) end, "strata.layout.mapping" },
  }
  for i, c in ipairs(cases) do
    it(("case %d names %s and points at the caller"):format(i, c[2]), function()
      local ok, err = pcall(c[1])
      assert.is_false(ok)
      err = tostring(err)
      assert.truthy(err:find(c[2], 1, true), err)
      assert.is_nil(err:find("strata/layout.lua", 1, true), err)
      assert.is_nil(err:find("bad argument", 1, true), err)
      assert.truthy(err:find(THIS, 1, true), err)
    end)
  end

  it("a layout ID of a world map is looked up under generate's name", function()
    local w = strata.world.new{}
    local ok, err = pcall(L.generate, "base.nope", w:create_map{ width = 3, height = 3 }, { seed = 1 })
    assert.is_false(ok)
    assert.matches("^strata.layout.generate: unknown base.layout 'base.nope'", err)
  end)
end)

describe("base.legend", function()
  it("refuses an unknown kind when the mod adds it, suggesting the nearest", function()
    assert.matches("data:add base.legend m.l: field 'kind': unknown legend kind 'eww' %(nearest known: ew",
      refused([[data:add{ _type = "base.legend", _id = "l", symbol = "~", kind = "eww" }]]))
    -- a grid map's own legend entries too
    assert.matches("data:add base.grid_map m.g: legend '~': field 'kind': unknown legend kind 'portl' %(nearest known: ",
      refused([[data:add{ _type = "base.grid_map", _id = "g", z = "a", map = "+ 0 1\n\n0 #~#\n\n+ 0 1\n",
        legend = { ["~"] = { kind = "portl" } } }]]))
  end)

  it("a kind a patch made bad is named at world.grid:add, not as bad argument to '?'", function()
    local w = loads([[data:add{ _type = "base.legend", _id = "l", symbol = "~", kind = "ew" }
      data:add{ _type = "base.grid_map", _id = "g", z = "a", map = "+ 0 1\n\n0 #~#\n\n+ 0 1\n", legend = { ["~"] = "m.l" } }
      data:patch("base.legend", "m.l", "worse", function(e) e.kind = "eww" end)]])
    local ok, err = pcall(function() w.grid:add("m.g") end)
    assert.is_false(ok)
    assert.matches(THIS:gsub("%.", "%%.") .. ":%d+: world.grid:add: grid map 'm.g': legend entry '~' needs a known kind", err)
    assert.is_nil(err:find("'?'", 1, true), err)
    assert.is_nil(err:find("bad argument", 1, true), err)
  end)

  it("strata.xymap.parse names itself for a bad legend entry", function()
    local ok, err = pcall(strata.xymap.parse, "+ 0 1\n\n0 #q#\n\n+ 0 1\n", { legend = { q = { kind = "portal" } } })
    assert.is_false(ok)
    assert.matches("^strata.xymap.parse: legend entry 'q' needs a known kind", err)
    assert.is_nil(err:find("'?'", 1, true), err)
  end)
end)

describe("base.grid_map prototype keys", function()
  local function key(k)
    return ([[data:add{ _type = "base.grid_map", _id = "g", z = "a", map = "+ 0 1\n\n0 #-#\n\n+ 0 1\n",
      prototypes = { [%q] = { key = "x" } } }]]):format(k)
  end

  it("refuses a coordinate out of range when the mod adds the map, naming the map and the key", function()
    for _, k in ipairs{ "-1,-9223372036854775808", "99999999999999999999,1", "2147483648,0", "0,-2147483648,n" } do
      local err = refused(key(k))
      assert.matches("data:add base.grid_map m.g: prototype key '" .. k:gsub("%-", "%%-") ..
        "' is invalid: coordinates are integers from %-2147483647 to 2147483647 or %*", err)
      local _, lines = err:gsub("\n", "")
      assert.equal(0, lines, err)
    end
  end)

  it("keeps the keys at the ends of the range", function()
    local w = loads(key("2147483647,-2147483647"))
    w.grid:add("m.g")
    w.grid:spawn()
    assert.equal(2, #w.grid:rooms())
  end)
end)

describe("base.unique_area", function()
  -- a root area whose one floor is 10x5 of floor, with a wall at (2, 2)
  local WORLD = [[
data:add{ _type = "base.map_archetype", _id = "over", generate = function(ctx)
  local m = ctx.world:create_map{ width = 10, height = 5, fill = "floor" }
  m:set(2, 2, "wall")
  return m
end }
data:add{ _type = "base.area_archetype", _id = "world", floors = { [1] = "w.over" }, deepest_floor = 1 }
data:add{ _type = "base.area_archetype", _id = "cave" }
data:add{ _type = "base.unique_area", _id = "world", area = "w.world", parent = "root" }
]]

  it("refuses a parent that is not a unique area added before it, suggesting the nearest", function()
    local err = refused([[
data:add{ _type = "base.area_archetype", _id = "a" }
data:add{ _type = "base.unique_area", _id = "top", area = "m.a", parent = "root" }
data:add{ _type = "base.unique_area", _id = "cave", area = "m.a", parent = "m.tpo" }]])
    assert.matches("data:add base.unique_area m.cave: parent 'm.tpo' is not a base.unique_area added before it " ..
      "%(in this mod or a mod it requires%) %(nearest known: m.top%)", err)
    -- defined later in the same mod: not yet there
    err = refused([[
data:add{ _type = "base.area_archetype", _id = "a" }
data:add{ _type = "base.unique_area", _id = "cave", area = "m.a", parent = "m.top" }
data:add{ _type = "base.unique_area", _id = "top", area = "m.a", parent = "root" }]])
    assert.matches("parent 'm.top' is not a base.unique_area added before it", err)
  end)

  it("takes root, no parent, an earlier one of the mod, or one of a mod it requires", function()
    loads([[
data:add{ _type = "base.area_archetype", _id = "a" }
data:add{ _type = "base.unique_area", _id = "top", area = "m.a", parent = "root" }
data:add{ _type = "base.unique_area", _id = "free", area = "m.a" }
data:add{ _type = "base.unique_area", _id = "cave", area = "m.a", parent = "m.top", on_floor = 1, at = { 1, 1 } }]])
    local w = loads([[data:add{ _type = "base.unique_area", _id = "cave", area = "w.cave", parent = "w.world",
      on_floor = 1, at = { 3, 3 } }]], { w = WORLD }, ', w = "*"')
    local over = w:get_or_create_map("w.world")
    local found
    for f in over:features() do if f.type == "entrance" then found = f end end
    assert.same({ 3, 3 }, { found.x, found.y })
  end)

  it("refuses an at with a negative coordinate when the mod adds it", function()
    assert.matches("data:add base.unique_area m.cave: at must be a cell %(x, y >= 0%), got %(%-1, 2%)",
      refused([[data:add{ _type = "base.area_archetype", _id = "a" }
data:add{ _type = "base.unique_area", _id = "cave", area = "m.a", parent = "root", at = { -1, 2 } }]]))
  end)

  -- The parent's floor belongs to another mod (w): generating it fails, naming
  -- the unique area of mod m and its at, and changes nothing.
  local function at_case(at)
    local w = loads(([[data:add{ _type = "base.unique_area", _id = "cave", area = "w.cave", parent = "w.world",
      on_floor = 1, at = { %s } }]]):format(at), { w = WORLD }, ', w = "*"')
    w:unique_area("w.world")
    local before = #w:objects()
    local ok, err = pcall(w.get_or_create_map, w, "w.world")
    assert.is_false(ok)
    assert.equal(before, #w:objects())
    return tostring(err)
  end

  it("checks at against the parent floor when it is generated: off the floor", function()
    assert.matches("^world:get_or_create_map: .*unique area 'm.cave': at %(20, 2%) is outside floor 1 of " ..
      "unique area 'w.world' %(map#%d+, 10x5%)", at_case("20, 2"))
  end)

  it("checks at against the parent floor when it is generated: an impassable cell", function()
    assert.matches("^world:get_or_create_map: .*unique area 'm.cave': at %(2, 2%) is impassable on floor 1 of " ..
      "unique area 'w.world' %(map#%d+%): its entrance could not be reached", at_case("2, 2"))
  end)
end)
