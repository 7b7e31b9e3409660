-- The layout language as the reference's own text writes it (issue 35):
-- each form the reference's examples use parses and runs beside KeeperRL's
-- corpus syntax, which keeps its meaning (docs/layouts.md, "Differences from
-- the reference").
local strata = require "strata"
local L = strata.layout

local function map(w, h) return strata.tilemap.new{ width = w, height = h } end

local rows = require("support").token_rows

local function run(text, w, h, seed)
  local m = map(w, h)
  local ok, why = L.run(L.parse(text), m, { seed = seed or 1 })
  assert.is_true(ok, why)
  return rows(m)
end

local function parse_error(text)
  local ok, e = pcall(L.parse, text)
  assert.is_false(ok)
  return tostring(e)
end

describe("Margin, Border and Inside as built-ins", function()
  -- "Margin(Width, BorderGenerator, InsideGenerator)
  --  Margin([TOP, BOTTOM, LEFT or RIGHT], Width, BorderGenerator, InsideGenerator)"
  it("Margin(Width, Border, Inside) is Margins", function()
    assert.same(run('Margins(1, Set("w"), Set("f"))', 4, 3), run('Margin(1, Set("w"), Set("f"))', 4, 3))
  end)
  it("Margin(TOP|BOTTOM|LEFT|RIGHT, Width, Border, Inside) is MarginImpl", function()
    for _, side in ipairs{ "TOP", "BOTTOM", "LEFT", "RIGHT" } do
      assert.same(run(("MarginImpl(%s, 1, Set(\"w\"), Set(\"f\"))"):format(side), 4, 3),
                  run(("Margin(%s, 1, Set(\"w\"), Set(\"f\"))"):format(side), 4, 3))
    end
    -- the reference's example (its closing bracket restored)
    local m = run('Margin(TOP, 3, Set("water"), Margin(TOP, 10, Set("sand"), Set("grass")))', 2, 15)
    assert.same({ "water water", "water water", "water water" }, { m[1], m[2], m[3] })
    assert.same({ "sand sand", "grass grass" }, { m[13], m[14] })
  end)
  -- "{ Set("floor") Border(1, Set("wall")) }"
  it("Border(Width, G) and Border(SIDE, Width, G) run G on the frame", function()
    assert.same({ "floor+wall floor+wall floor+wall", "floor+wall floor floor+wall", "floor+wall floor+wall floor+wall" },
                run('{ Set("floor") Border(1, Set("wall")) }', 3, 3))
    assert.same({ "w w w", ". . .", }, run('Border(TOP, 1, Set("w"))', 3, 2))
    assert.same({ ". . .", ". f .", ". . ." }, run('Inside(1, Set("f"))', 3, 3))
    assert.same({ ". .", "f f" }, run('Inside(TOP, 1, Set("f"))', 2, 2))
  end)
  it("a file's own macro of that name and arity still wins", function()
    assert.same({ "x x", "x x" }, run('Def Border(Size, Gen) Set("x") End Border(1, Set("w"))', 2, 2))
  end)
  -- A run's error names the form the user wrote, and the built-in it reads as.
  it("a run's error names Border, Margin or Inside as written", function()
    local function run_error(text)
      local ok, why = pcall(L.run, L.parse(text), map(4, 4), { seed = 1 })
      assert.is_false(ok)
      return why
    end
    local nest = function(form, n) return form:rep(n) .. 'Set("x")' .. (")"):rep(n) end
    assert.matches("line 1:21: Border %(as Margins%): the area %[2,3%)x%[4,5%) is outside the 4x4 map",
      run_error(nest("Border(1, ", 3)))
    assert.matches("line 1:85: Margin %(as MarginImpl%): the area", run_error(nest("Margin(TOP, 1, None, ", 6)))
    assert.matches("line 1:1: Inside %(as Margins%): the area", run_error('Inside(5, Set("x"))'))
    assert.matches("line 1:1: Margins: the area", run_error('Margins(5, None, Set("x"))'))
  end)
  it("bad forms are one error naming line and column", function()
    assert.matches("layout:1:8: expected an integer %(width%)", parse_error('Margin(Set("w"), Set("f"))'))
    assert.matches("layout:2:7: Border needs its argument 'generator'", parse_error('\nBorder(TOP, 1)'))
  end)
end)

describe("NoiseMap without the exponent", function()
  -- "NoiseMap( (Lower, Upper, Generator), . . (Lower, Upper, Generator) )"
  local ref = [[NoiseMap(
    (0.0, 0.3, Set("water")),
    (0.3, 0.4, Set("sand")),
    (0.4, 0.8, Set("grass")),
    (0.8, 1.0, Set("mountain"))
  )]]
  it("reads the reference's elements and uses KeeperRL's common exponent 0.65", function()
    local corpus = [[NoiseMap(0.65, { (0.0, 0.3, Set("water")) (0.3, 0.4, Set("sand"))
      (0.4, 0.8, Set("grass")) (0.8, 1.0, Set("mountain")) })]]
    for seed = 1, 5 do assert.same(run(corpus, 12, 9, seed), run(ref, 12, 9, seed)) end
  end)
  -- docs/layouts.md: the exponent may be left out and the elements listed in
  -- `{ }` as KeeperRL lists them, or in brackets.
  it("without the exponent, the elements may be in { } as KeeperRL writes them", function()
    local curly = [[NoiseMap({ (0.0, 0.3, Set("water")) (0.3, 0.4, Set("sand"))
      (0.4, 0.8, Set("grass")) (0.8, 1.0, Set("mountain")) })]]
    for seed = 1, 5 do assert.same(run(ref, 12, 9, seed), run(curly, 12, 9, seed)) end
    assert.matches("layout:1:29: expected '%(' a NoiseMap element, found '%)'", parse_error('NoiseMap({ (0, 1, Set("a")) )'))
  end)
  it("an exponent may still be given before the elements", function()
    assert.same(run('NoiseMap(0.85, { (0, 1, Set("a")) })', 5, 5), run('NoiseMap(0.85, (0, 1, Set("a")))', 5, 5))
  end)
  it("a bad element is one error naming line and column", function()
    assert.matches("layout:2:22: expected '%(' %(a NoiseMap element%) or '%)'", parse_error('NoiseMap(\n(0.0, 0.3, Set("w")) Set("x"))'))
  end)
end)

describe("Place elements without commas", function()
  -- "Place( ({4 4}, Reset("lava"), 1, True) (none, Reset("floor"), {3 7}, True, {5 5}, {10 10}, 2) )"
  it("the reference's two-element Place parses and runs", function()
    local m = map(40, 30)
    local g = L.parse([[{ Set("rock") Place(
      ({4 4}, Reset("lava"), 1, True)
      (none, Reset("floor"), {3 7}, True, {5 5}, {10 10}, 2)
    ) }]])
    assert.is_true(L.run(g, m, { seed = 3 }))
    local lava = 0
    for x = 0, 39 do for y = 0, 29 do if m:top(x, y) == "lava" then lava = lava + 1 end end end
    assert.equal(16, lava)
  end)
  it("commas between elements are still accepted", function()
    assert.same(run('Place(({1 1}, Set("a")), ({1 1}, Set("b")))', 3, 3), run('Place(({1 1}, Set("a")) ({1 1}, Set("b")))', 3, 3))
  end)
  it("anything else between elements is one error naming line and column", function()
    assert.matches("layout:1:25: expected '%(' %(a Place element%) or '%)', found 'Set'", parse_error('Place(({1 1}, Set("a")) Set("b"))'))
  end)
end)

describe("Position with the reference's inclusive sizes", function()
  -- "Places a wall of width between 2 and 4 running vertically through the middle.
  --  Position( MIDDLE_V, none, Set("wall"), {2 0}, {4 0} )"
  local function widths(text)
    local seen = {}
    for seed = 1, 60 do
      local m = map(12, 3)
      assert.is_true(L.run(L.parse(text), m, { seed = seed }))
      local n = 0
      for x = 0, 11 do if m:top(x, 0) == "wall" then n = n + 1 end end
      seen[n] = true
    end
    local out = {}
    for n in pairs(seen) do out[#out + 1] = n end
    table.sort(out)
    return out
  end
  it("positional minSize and maxSize are inclusive, as the reference writes them", function()
    assert.same({ 2, 3, 4 }, widths('Position(MIDDLE_V, none, Set("wall"), {2 0}, {4 0})'))
    assert.same({ 2, 3, 4 }, widths('Position(MIDDLE_V, none, Filter(predicate = True, generator = Set("wall")), {2 0}, {4 0})'))
    assert.matches("layout:1:1: Position needs minSize <= maxSize", parse_error('Position(MIDDLE, none, Set("w"), {2 2}, {1 3})'))
  end)
  it("named maxSize keeps KeeperRL's exclusive meaning (the corpus's form)", function()
    assert.same({ 2, 3 }, widths('Position(position = MIDDLE_V, minSize = {2 1}, maxSize = {4 2}, generator = Set("wall"))'))
  end)
end)

describe("mappings as the reference writes them", function()
  local text = [[
"default_mapping" {
  "grass" Place "GRASS"
  "castle_wall" Place "CASTLE_WALL"
  "castle_floor" Place "FLOOR_STONE1"
  "sword" Items 1 "Sword"
  "potion" Items 1 Potion Heal FLESH
  "corpse" Items "battle_corpse"
}
"super_level_mapping" inherit "default_mapping" {
  "castle_wall" Place "MY_SUPER_WALL"
  "sword" Items 1 "MySuperSword"
}
]]
  -- "sword" Items 1 "Sword" / "potion" Items 1 Potion Heal FLESH
  it("Items takes a count before the item list, and a list of bare words", function()
    local m = L.mappings(text)
    assert.same({ { "Items", "Sword", 1 } }, m.default_mapping.sword)
    assert.same({ { "Items", "Potion Heal FLESH", 1 } }, m.default_mapping.potion)
    assert.same({ { "Items", "battle_corpse" } }, m.default_mapping.corpse)
  end)
  -- "You can use multiple mappings to reskin your levels in various ways."
  it("inherit without append keeps the parent's other tokens", function()
    local m = L.mappings(text).super_level_mapping
    assert.same({ { "Place", "GRASS" } }, m.grass)
    assert.same({ { "Place", "MY_SUPER_WALL" } }, m.castle_wall)
    assert.same({ { "Items", "MySuperSword", 1 } }, m.sword)
    assert.same({ { "Place", "FLOOR_STONE1" } }, m.castle_floor)
  end)
  it("so does a base.layout_mapping entry that inherits", function()
    local w = strata.world.new{ mods = { "base", "layouts" }, mod_path = { "mods", "spec/fixtures/mods" } }
    local m = L.mapping("layouts.reskin", { world = w })
    assert.same({ { "Flag", "OUTDOOR" } }, m.grass)
    assert.same({ { "Place", "ICE" } }, m.water)
  end)
  it("an Items without its list is one error naming the line", function()
    local ok, e = pcall(L.mappings, '"m" {\n  "sword" Items 1\n}')
    assert.is_false(ok)
    assert.matches("mappings:2: Items needs", tostring(e))
  end)
end)
