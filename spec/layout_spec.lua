-- Layouts (docs/layouts.md): every generator and predicate on
-- small maps, the Lua constructors, macros, parse errors, determinism.
local strata = require "strata"
local L = strata.layout

local function map(w, h) return strata.tilemap.new{ width = w, height = h } end

local rows = require("support").token_rows

-- One character per cell: the first letter of the top token, '.' when empty.
local function pic(m)
  local out = {}
  for y = 0, m.height - 1 do
    local row = {}
    for x = 0, m.width - 1 do
      local t = m:top(x, y)
      row[#row + 1] = t and t:sub(1, 1) or "."
    end
    out[#out + 1] = table.concat(row)
  end
  return table.concat(out, "\n")
end

local function run(text, w, h, seed)
  local m = map(w, h)
  local ok, why = L.run(L.parse(text), m, { seed = seed or 1 })
  return m, ok, why
end

local function count(m, token)
  local n = 0
  for y = 0, m.height - 1 do for x = 0, m.width - 1 do if m:has(x, y, token) then n = n + 1 end end end
  return n
end

describe("layout generators", function()
  it("Set appends once, SetFront inserts first, Reset replaces, Remove takes the first", function()
    local m = run([[{ Set("a", "b") Set("a") SetFront("z") SetFront("a") }]], 2, 1)
    assert.same({ "z+a+b z+a+b" }, rows(m))
    m = run([[{ Set("a") Reset("b", "b", "c") }]], 1, 1)
    assert.same({ "b+b+c" }, rows(m))
    m = run([[{ Reset("b", "c", "b") Remove("b") }]], 1, 1)
    assert.same({ "c+b" }, rows(m))
    m = run([[{ Set("a") Reset() Set "x" Remove("nothing") }]], 1, 1)
    assert.same({ "x" }, rows(m))
  end)

  it("None does nothing, Fail fails softly and says where", function()
    local m, ok = run("None", 2, 2)
    assert.is_true(ok)
    assert.same({ ". .", ". ." }, rows(m))
    local _, ok2, why = run('{ Set("a")\n  Fail }', 2, 2)
    assert.is_false(ok2)
    assert.matches("Fail at line 2:3", why)
  end)

  it("Filter runs per cell, column-major, on the current map, with an alternative", function()
    local m = run([[{ Filter(XMod(2, 0), Set("even"), Set("odd")) }]], 4, 1)
    assert.same("eoeo", pic(m))
    -- a cell sees what earlier cells did: the first cell (0,0) sets a mark the second reads through Translate
    m = run([[Filter(Translate({0 -1}, On("m")), Set("below"), Set("m"))]], 1, 3)
    assert.same({ "m", "below", "m" }, rows(m))
  end)

  it("Margins: inside first, then the four border strips; negative widths grow", function()
    local m = run([[Margins(1, Set("w"), Set("i"))]], 4, 3)
    assert.same("wwww\nwiiw\nwwww", pic(m))
    m = run([[Position(MIDDLE, {2 1}, Margins(-1, Set("r"), Set("c")))]], 4, 3)
    assert.same("rrrr\nrccr\nrrrr", pic(m))
    m = run([[{ Set("x") Margins(0, Set("w"), Set("i")) }]], 2, 2)
    assert.same({ "x+i x+i", "x+i x+i" }, rows(m))
  end)

  it("MarginImpl: one side, border before inside", function()
    assert.same("ttt\niii\niii", pic((run([[MarginImpl(TOP, 1, Set("t"), Set("i"))]], 3, 3))))
    assert.same("iii\niii\nbbb", pic((run([[MarginImpl(BOTTOM, 1, Set("b"), Set("i"))]], 3, 3))))
    assert.same("lii\nlii", pic((run([[MarginImpl(LEFT, 1, Set("l"), Set("i"))]], 3, 2))))
    assert.same("iir\niir", pic((run([[MarginImpl(RIGHT, 1, Set("r"), Set("i"))]], 3, 2))))
    -- the macros of the corpus, written out: Border(TOP, 1, X) is MarginImpl(TOP, 1, X, None)
    assert.same("xxx\n...", pic((run([[Def Border(Pos, Size, G) MarginImpl(Pos, Size, G, None) End Border(TOP, 1, Set("x"))]], 3, 2))))
  end)

  it("SplitH and SplitV cut at trunc(start + size * r)", function()
    assert.same("llrrr", pic((run([[SplitH(0.5, Set("l"), Set("r"))]], 5, 1))))
    assert.same("t\nb\nb", pic((run([[SplitV(0.5, Set("t"), Set("b"))]], 1, 3))))
    assert.same("rrr", pic((run([[SplitH(0.2, {}, Set("r"))]], 3, 1))))
  end)

  it("Position puts a rectangle at each of the fifteen anchors", function()
    local expect = {
      MIDDLE = ".....\n..x..\n.....", TOP_LEFT = "x....\n.....\n.....", TOP_RIGHT = "....x\n.....\n.....",
      BOTTOM_LEFT = ".....\n.....\nx....", BOTTOM_RIGHT = ".....\n.....\n....x",
      TOP_CENTER = "..x..\n.....\n.....", BOTTOM_CENTER = ".....\n.....\n..x..",
      LEFT_CENTER = ".....\nx....\n.....", RIGHT_CENTER = ".....\n....x\n.....",
      MIDDLE_V = "..x..\n..x..\n..x..", MIDDLE_H = ".....\nxxxxx\n.....",
      LEFT_STRETCHED = "x....\nx....\nx....", RIGHT_STRETCHED = "....x\n....x\n....x",
      TOP_STRETCHED = "xxxxx\n.....\n.....", BOTTOM_STRETCHED = ".....\n.....\nxxxxx" }
    for pos, want in pairs(expect) do
      assert.same(want, pic((run(("Position(%s, {1 1}, Set(\"x\"))"):format(pos), 5, 3))), pos)
    end
    -- a random size in [minSize, maxSize): 2 or 3 wide, exactly 1 high
    for seed = 1, 20 do
      local m = run([[Position(position = MIDDLE, minSize = {2 1}, maxSize = {4 2}, generator = Set("x"))]], 6, 3, seed)
      local n = count(m, "x")
      assert.is_true(n == 2 or n == 3)
    end
  end)

  it("Place puts non-overlapping rectangles where the predicate holds, spaced, or fails", function()
    for seed = 1, 30 do
      local m, ok = run([[{ Reset("g") Position(MIDDLE_V, {2 1}, Reset("rock"))
        Place((size = {2 2} generator = Set("a") count = 2 predicate = On("g") minSpacing = 1),
              (size = {1 1} generator = Set("b") count = {1 3}))
      }]], 8, 6, seed)
      assert.is_true(ok)
      assert.equal(8, count(m, "a"))
      for y = 0, 5 do for x = 3, 4 do assert.is_false(m:has(x, y, "a")) end end
      for y = 0, 5 do for x = 0, 7 do assert.is_false(m:has(x, y, "a") and m:has(x, y, "b")) end end
      local b = count(m, "b")
      assert.is_true(b >= 1 and b <= 2)
    end
    local _, ok, why = run([[Place({3 3}, Set("a"), 2, True)]], 4, 4)
    assert.is_false(ok)
    assert.matches("Place at line 1:1 found no room for element 1", why)
    -- the counted form picks that many of the elements at random
    local seen = {}
    for seed = 1, 20 do
      local m = run([[Place(1, ({1 1} Set("a")) ({1 1} Set("b")))]], 3, 3, seed)
      seen[count(m, "a") .. count(m, "b")] = true
    end
    assert.same({ ["10"] = true, ["01"] = true }, seen)
  end)

  it("Place is fast where KeeperRL tries 100,000 spots: a nearly full area", function()
    local t = os.clock()
    local m, ok = run([[{ Reset("x") Position(BOTTOM_RIGHT, {3 3}, Reset("g")) Place({3 3}, Set("p"), 1, On("g")) }]], 100, 100)
    assert.is_true(ok)
    assert.equal(9, count(m, "p"))
    assert.is_true(os.clock() - t < 2) -- a sanity bound only: timings belong to spec/bench
  end)

  it("NoiseMap splits the area into bands by height", function()
    local m, ok = run([[NoiseMap(0.65, { (0.0, 0.3, Set("low")) (0.3, 1.0, Set("high")) })]], 20, 20, 3)
    assert.is_true(ok)
    local low, high = count(m, "low"), count(m, "high")
    assert.equal(400, low + high)
    assert.is_true(low > 60 and low < 200)
  end)

  it("Chain stops at the first failure; Choose picks one by weight", function()
    local m, ok = run([[{ Set("a") Fail Set("b") }]], 1, 1)
    assert.is_false(ok)
    assert.same({ "a" }, rows(m))
    local a = 0
    for seed = 1, 200 do
      local mm = run([[Choose(0.8 Set("a"), Set("b"))]], 1, 1, seed)
      if mm:has(0, 0, "a") then a = a + 1 end
    end
    assert.is_true(a > 130 and a < 190)
  end)

  it("Connect carves the cheapest paths between cells and runs each element's generator", function()
    local m, ok = run([[{ Reset("rock")
      Position(LEFT_CENTER, {1 1}, Reset("floor")) Position(RIGHT_CENTER, {1 1}, Reset("floor"))
      Position(MIDDLE_V, {1 1}, Reset("wall"))
      Connect(On("floor"), (5, On("rock"), Reset("floor")), (2, On("wall"), Reset("door")))
    }]], 7, 3)
    assert.is_true(ok)
    assert.same("rrrwrrr\nfffdfff\nrrrwrrr", pic(m))
    -- none: impassable; an unreachable pair is skipped
    m, ok = run([[{ Reset("rock") Position(LEFT_CENTER, {1 1}, Reset("floor")) Position(RIGHT_CENTER, {1 1}, Reset("floor"))
      Position(MIDDLE_V, {1 1}, Reset("wall")) Connect(On("floor"), (none, On("wall"), None), (1, On("rock"), Reset("floor"))) }]], 5, 1)
    assert.is_true(ok)
    assert.same("frwrf", pic(m))
  end)

  it("Repeat runs n times; FloodFill spreads over the whole map from its seeds", function()
    local m = run([[Repeat(3, Filter(True, Set("x")))]], 1, 1)
    assert.same({ "x" }, rows(m))
    m = run([[{ Reset("f") Position(MIDDLE_V, {1 1}, Reset("w"))
      Position(TOP_LEFT, {1 1}, FloodFill(On("f"), Set("reached"))) }]], 5, 2)
    assert.same({ "f+reached f+reached w f f", "f+reached f+reached w f f" }, rows(m))
  end)
end)

describe("layout predicates", function()
  local function where(pred, w, h, pre)
    local m = run(("{ %s Filter(%s, Set(\"y\")) }"):format(pre or "", pred), w, h)
    local out = {}
    for y = 0, h - 1 do
      local row = {}
      for x = 0, w - 1 do row[#row + 1] = m:has(x, y, "y") and "y" or "." end
      out[#out + 1] = table.concat(row)
    end
    return table.concat(out, "\n")
  end

  it("On, Not, True, And, Or", function()
    local pre = [[Position(TOP_LEFT, {2 1}, Set("a")) Position(TOP_RIGHT, {2 1}, Set("b"))]]
    assert.equal("yy.\n...", where([[On("a")]], 3, 2, pre))
    assert.equal("..y\nyyy", where([[Not On("a")]], 3, 2, pre))
    assert.equal("yyy\nyyy", where("True", 3, 2))
    assert.equal(".y.\n...", where([[And(On("a"), On("b"))]], 3, 2, pre))
    assert.equal("yyy\n...", where([[Or(On("a"), On("b"))]], 3, 2, pre))
    assert.equal("yyy", where("And()", 3, 1))
    assert.equal("...", where("Or()", 3, 1))
  end)

  it("Chance draws once per evaluation", function()
    local m = run([[Filter(Chance(0.5), Set("y"))]], 40, 40, 9)
    local n = count(m, "y")
    assert.is_true(n > 700 and n < 900)
    assert.equal("...", where("Chance(0)", 3, 1))
  end)

  it("Area counts the square around the cell, the cell included", function()
    local pre = [[Position(MIDDLE, {1 1}, Set("a"))]]
    assert.equal("yyy\nyyy\nyyy", where([[Area(1, On("a"))]], 3, 3, pre))
    assert.equal("...\n...\n...", where([[Area(1, On("a"), 2)]], 3, 3, pre))
    assert.equal("...\n.y.\n...", where([[Area(0, On("a"))]], 3, 3, pre))
  end)

  it("XMod and YMod use map coordinates; Translate looks elsewhere, false off the map", function()
    assert.equal("y..y..", where("XMod(3, 0)", 6, 1))
    assert.equal(".\ny\n.\ny", where("YMod(2, 1)", 1, 4))
    local pre = [[Position(TOP_LEFT, {1 1}, Set("a"))]]
    assert.equal(".y\n..", where([[Translate({-1 0}, On("a"))]], 2, 2, pre))
    assert.equal("..\n..", where([[Translate({0 -5}, True)]], 2, 2))
  end)
end)

describe("layout text", function()
  it("reads strings with concatenation, ranges, vectors, named arguments, none, and comments", function()
    local m = run([[
      # a comment counts as whitespace
      { Set("map_" + "grass" + "_n" + 0)   # the number joins the token
        Position(position = TOP_LEFT, size = {x = 1 y = 1}, generator = Set("\"q\""))
        Repeat({2 3}, Set("r"))
        Place(none, Set("p"), 1, True, {1 1}, {2 2}) }]], 2, 1)
    assert.same({ 'map_grass_n0+"q"+r+p map_grass_n0+r' }, rows(m))
  end)

  it("expands macros by name and number of arguments, before their definition and nested", function()
    local g = L.parse([[
      Twice(Set("a"))
      Def Twice(G) { G Margin(0, G) } End
      Def Margin(W, G) Margins(W, None, G) End
      Def Margin(Side, W, G) MarginImpl(Side, W, None, G) End
    ]])
    local m = map(2, 1)
    L.run(g, m, { seed = 1 })
    assert.same({ "a a" }, rows(m))
    -- arithmetic on parameters and a parameter inside a word
    m = run([[Def Shrink(N) Margins((-N + 1), None, Set("in")) End Shrink(0)]], 3, 3)
    assert.equal("...\n.i.\n...", pic(m))
    m = run([[Def Wide(N) Position(MIDDLE, {(N * 2 - 1) 1}, Set("w")) End Wide(2)]], 5, 1)
    assert.equal(".www.", pic(m))
    -- a 0-argument macro works without brackets
    m = run([[Def Floor() Set("f") End Floor]], 1, 1)
    assert.same({ "f" }, rows(m))
  end)

  it("reads a file of named layouts with modify and inherit", function()
    local t, names = L.parse_file([[
      "a" Set("a")
      "b" inherit "a" Set("b")
      "a" modify Set("a2")
      bare Set("c")
    ]])
    assert.same({ "a", "b", "bare" }, names)
    local m = map(1, 1)
    L.run(t.a, m, { seed = 1 })
    assert.same({ "a2" }, rows(m))
  end)

  local function err(text, file)
    local ok, e = pcall(file and L.parse_file or L.parse, text)
    assert.is_false(ok)
    return e
  end

  it("names line:column and what was expected for every error", function()
    assert.matches("layout:1:3: unknown generator 'Sett' %(did you mean Set%?", err([[{ Sett("a") }]]))
    assert.matches("1:8: unknown predicate 'Onn'", err([[Filter(Onn("a"), None)]]))
    assert.matches("1:5: unterminated string", err([[Set("abc]]))
    assert.matches("expected a quoted string, found 'abc'", err([[Set(abc)]]))
    assert.matches("1:9: expected an integer %(width%), found 'x'", err([[Margins(x, None, None)]]))
    assert.matches("expected a number %(r%), found 'half'", err([[SplitH(half, None, None)]]))
    assert.matches("expected a placement position %(one of MIDDLE", err([[Position(CENTRE, {1 1}, None)]]))
    assert.matches("expected a margin side", err([[MarginImpl(UP, 1, None, None)]]))
    assert.matches("range {3 3} is empty", err([[Repeat({3 3}, None)]]))
    assert.matches("Position needs size, or minSize and maxSize", err([[Position(MIDDLE, none, None)]]))
    assert.matches("needs minSize < maxSize", err([[Position(position = MIDDLE, minSize = {3 3}, maxSize = {3 4}, generator = None)]]))
    assert.matches("a Place element needs size, or minSize and maxSize", err([[Place(generator = None)]]))
    assert.matches("Filter needs its argument 'generator'", err([[Filter(True)]]))
    assert.matches("Filter has no argument named 'gen'", err([[Filter(predicate = True gen = None)]]))
    assert.matches("argument 'predicate' of Filter given twice", err([[Filter(predicate = True predicate = True generator = None)]]))
    assert.matches("Not takes its predicate without brackets", err([[Filter(Not(On("x")), None)]]))
    assert.matches("XMod with div 0", err([[Filter(XMod(0, 1), None)]]))
    assert.matches("a Connect cost must be positive", err([[Connect(True, (0, True, None))]]))
    assert.matches("the chances of Choose add up to more than 1", err([[Choose(0.8 None, 0.5 None, None)]]))
    assert.matches("no commas between the generators", err([[{ None, None }]]))
    assert.matches("expected the end of the layout", err([[None None]]))
    assert.matches("'End' without a 'Def'", err([[End]]))
    assert.matches("macro M has no 'End'", err([[Def M() None]]))
    assert.matches("'Def' inside the definition of macro M", err([[Def M() Def N() None End End]]))
    assert.matches("macro M with 0 parameters is defined twice", err([[Def M() None End Def M() None End M]]))
    assert.matches("expected '%(' and the parameters of macro M", err([[Def M None End]]))
    assert.matches("the arguments of M have no '%)'", err([[Def M(A) A End M(None]]))
    assert.matches("duplicate layout name 'a'", err([["a" None "a" None]], true))
    assert.matches("'b' inherits 'c', which is not defined before it", err([["b" inherit "c" None]], true))
    assert.matches("'x' modify: no layout of that name", err([["x" modify None]], true))
    assert.matches("expected the name of a layout", err([[{ None }]], true))
  end)

  it("never hangs or overflows: recursive macros, deep nesting", function()
    local e = err([[Def Loop() { Loop() } End Loop()]])
    assert.matches("macro expansion does not end .*Loop", e)
    -- arguments that double at each call: stopped by the tokens copied
    e = err([[Def A(X) B(X X) End Def B(X) A(X X) End A(None)]])
    assert.matches("macro expansion too large at [AB] %(called on line 1%)", e)
    e = err(("{"):rep(100000) .. ("}"):rep(100000))
    assert.matches("nested more than %d+ deep", e)
    e = err("Filter(" .. ("Not "):rep(5000) .. "True, None)")
    assert.matches("nested more than", e)
  end)

  it("reports configuration errors at run time with the position, and soft failures apart", function()
    local ok, e = pcall(L.run, L.parse("\n  Margins(-1, Set(\"x\"), None)"), map(3, 3), { seed = 1 })
    assert.is_false(ok)
    assert.matches("layout line 2:3: Margins: the area %[%-1,4%)x%[%-1,4%) is outside the 3x3 map", e)
    ok, e = pcall(L.run, L.parse([[Place({4 4}, None, 1, True)]]), map(3, 3), { seed = 1 })
    assert.is_false(ok)
    assert.matches("does not fit in its 3x3 area", e)
  end)
end)

describe("layouts from Lua", function()
  it("constructors build the same trees as the text", function()
    local g = L.chain{
      L.reset("g"),
      L.margins(1, L.set("w"), L.filter(L.and_{ L.not_(L.on("w")), L.always }, L.set("in"), L.fail)),
      L.position{ position = "top_left", size = { 1, 1 }, generator = L.set_front("corner") },
      L.split_h(0.5, L.none, L.filter(L.xmod(2, 0), L.set("even"))),
      L.border("bottom", 1, L.remove("w")),
      L.choose{ L.none, { 0.5, L.set("maybe") } },
      L.repeat_({ 1, 2 }, L.set("rep")),
      L.flood_fill(L.on("in"), L.set("flooded")),
      L.filter(L.or_{ L.area(1, L.on("corner"), 1), L.translate({ 1, 0 }, L.on("x")), L.ymod(5, 4), L.chance(0) }, L.set("near")),
    }
    local text = L.parse(tostring(g))
    for seed = 1, 5 do
      local a, b = map(6, 5), map(6, 5)
      assert.same({ L.run(g, a, { seed = seed }) }, { L.run(text, b, { seed = seed }) })
      assert.same(rows(a), rows(b))
    end
    local placed = L.place{ count = { 2, 2 }, min_size = { 1, 1 }, max_size = { 2, 2 }, generator = L.set("p"), min_spacing = 1 }
    assert.equal("Place(minSize = {1 1} maxSize = {3 3} generator = Set(\"p\") count = {2 3} minSpacing = 1)", tostring(placed))
    local m = map(10, 10)
    assert.is_true(L.run(placed, m, { seed = 2 }))
    local c = L.connect(L.on("f"), { { 3, L.on("r"), L.reset("f") }, { false, L.on("w"), L.none } })
    assert.equal('Connect(On("f"), (3, On("r"), Reset("f")), (none, On("w"), None))', tostring(c))
    local nm = L.noise_map(0.65, { { 0, 0.5, L.set("lo") }, { 0.5, 1, L.set("hi") } })
    assert.is_true(L.run(nm, map(8, 8), { seed = 1 }))
  end)

  it("refuses bad arguments by name", function()
    assert.has_error(function() L.set(3) end, "strata.layout.set: expected a token (string), got number")
    assert.has_error(function() L.filter(L.set("x"), L.none) end)
    assert.has_error(function() L.margins(1.5, L.none, L.none) end)
    assert.has_error(function() L.position{ position = "centre", size = { 1, 1 }, generator = L.none } end)
    assert.has_error(function() L.run(L.on("x"), map(1, 1), { seed = 1 }) end)
    assert.has_error(function() L.run(L.none, map(1, 1)) end, "strata.layout.run: give { rng = ctx.rng } or { seed = n }")
  end)

  it("runs base.layout entries by ID on world maps, and retries with generate", function()
    local w = strata.world.new{ mods = { "base", "layouts" }, mod_path = { "mods", "spec/fixtures/mods" } }
    local m = w:create_map{ width = 20, height = 10 }
    assert.is_true(L.run("layouts.pond", m, { rng = w.rng:stream("pond") }))
    assert.is_true(m:has(10, 5, "water"))
    assert.is_true(L.run("layouts.walled", m, { seed = 1 }))
    assert.is_true(m:has(0, 0, "wall"))
    local ok, why = L.generate("layouts.never", m, { seed = 1, attempts = 3 })
    assert.is_false(ok)
    assert.matches("Fail", why)
    assert.has_error(function() L.run("layouts.pnod", m, { seed = 1 }) end)
    -- mappings as data, inherit resolved; actions as handlers by ID
    local marsh = L.mapping("layouts.marsh", { world = w })
    assert.same({ { "Place", "SWAMP" } }, marsh.water)
    assert.same({ { "Flag", "OUTDOOR" } }, marsh.grass)
    L.run("layouts.pond", m, { seed = 1 })
    assert.equal(8, L.apply(m, marsh, { Place = "layouts.count" }) - 192)
    assert.equal(8, m.props.placed)
  end)
end)

describe("layout determinism", function()
  it("gives the same map for the same seed, in one process and in another", function()
    local text = [[{ NoiseMap(0.7, { (0.0, 0.4, Reset("water")) (0.4, 1.0, Reset("grass")) })
      Place({3 3}, Margins(1, Set("wall"), Set("floor")), {2 4}, On("grass"), none, none, 1)
      Filter(Chance(0.1), Set("tree")) }]]
    local a, b = map(30, 20), map(30, 20)
    L.run(L.parse(text), a, { seed = 42 })
    L.run(L.parse(text), b, { seed = 42 })
    assert.same(rows(a), rows(b))
    local path = os.tmpname()
    local f = assert(io.open(path, "w")) f:write(text) f:close()
    local p = assert(io.popen(([[lua5.4 -e 'local s = require "strata"; local m = s.tilemap.new{ width = 30, height = 20 }
      local f = io.open("%s") local t = f:read("a") f:close()
      s.layout.run(s.layout.parse(t), m, { seed = 42 })
      for y = 0, 19 do local r = {} for x = 0, 29 do local k = m:tokens(x, y) r[#r + 1] = #k == 0 and "." or table.concat(k, "+") end print(table.concat(r, " ")) end']]):format(path)))
    local other = {}
    for line in p:lines() do other[#other + 1] = line end
    p:close()
    os.remove(path)
    assert.same(rows(a), other)
  end)
end)

describe("glyphs, mappings and the command line", function()
  it("previews with the glyph of each cell's highest-priority token, coloured on request", function()
    local g = L.glyphs('"floor" . white\n# a comment\n"floor" , white\n"wall" # brown\n"door" + gray')
    assert.equal(2, g.floor.priority)  -- a repeated token takes its later place
    assert.equal(",", g.floor.glyph)
    local m = run([[{ Reset("floor") Margins(1, Set("wall"), None) Position(TOP_LEFT, {1 1}, Set("door")) }]], 3, 3)
    assert.equal("+##\n#,#\n###", L.preview(m, g))
    assert.equal("\27[90m+\27[0m", L.preview(run([[Set("door")]], 1, 1), g, { color = true }))
    assert.has_error(function() L.glyphs('"a" x purple\n') end)
    assert.has_error(function() L.glyphs('"a" x\n') end)
  end)

  it("reads mappings with inherit, append and modify, and applies them cell by cell", function()
    local maps, order = L.mappings([[
      "default" { "floor" { Place "FLOOR" Flag EMPTY_ROOM } "rock" Place "MOUNTAIN" }
      "cave" inherit "default" append { "rock" Place "CAVE_ROCK" "down" Stairs DOWN "STAIRS" 0 }
      "bare" inherit "default" { "water" Place "WATER" }
      "default" modify append { "lava" Chain { ClearFurniture Place "MAGMA" } }
    ]])
    assert.same({ "default", "cave", "bare" }, order)
    assert.same({ { "Place", "CAVE_ROCK" } }, maps.cave.rock)
    assert.same({ { "Place", "FLOOR" }, { "Flag", "EMPTY_ROOM" } }, maps.cave.floor)
    assert.same({ { "Stairs", "DOWN", "STAIRS", 0 } }, maps.cave.down)
    -- inherit keeps the base's tokens without append too (KeeperRL drops them)
    assert.same({ { "Place", "FLOOR" }, { "Flag", "EMPTY_ROOM" } }, maps.bare.floor)
    assert.same({ { "ClearFurniture" }, { "Place", "MAGMA" } }, maps.default.lava)
    local m = run([[{ Reset("floor") Position(TOP_LEFT, {1 1}, Reset("rock")) }]], 2, 1)
    local seen = {}
    local n = L.apply(m, maps.cave, {
      Place = function(_, x, y, what) seen[#seen + 1] = ("%d,%d %s"):format(x, y, what) end })
    assert.equal(3, n) -- two actions on the floor cell, one on the rock
    assert.same({ "0,0 CAVE_ROCK", "1,0 FLOOR" }, seen)
    local function bad(text) local ok, e = pcall(L.mappings, text) assert.is_false(ok) return e end
    assert.matches("unknown action 'Plaice'", bad([["m" { "a" Plaice "X" }]]))
    assert.matches("Stairs needs 3 argument", bad([["m" { "a" Stairs DOWN }]]))
    assert.matches("duplicate mapping 'm'", bad([["m" { } "m" { }]]))
    assert.matches("token 'a' mapped twice", bad([["m" { "a" Flag X "a" Flag Y }]]))
    assert.matches("inherits 'z', which is not defined", bad([["m" inherit "z" { }]]))
  end)

  it("strata layout prints a preview, the tokens and a mapping's actions; exit 1 on failure", function()
    local bin = os.getenv("STRATA_BIN") or "build/strata"
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write([["hut" { Reset("grass") Position(MIDDLE, {3 3}, Margins(1, Reset("wall"), Reset("floor"))) }
"broken" Fail
]])
    f:close()
    local p = io.popen(("NO_COLOR=1 %s layout %s hut --size 5x5 --seed 3 --tokens 2>&1"):format(bin, path))
    local out = p:read("a")
    p:close()
    assert.equal("ggggg\ngwwwg\ngwfwg\ngwwwg\nggggg\nfloor                    1\ngrass                    16\nwall                     8\n", out)
    local q = io.popen(("%s layout %s broken --size 5x5 --attempts 2 2>&1; echo status=$?"):format(bin, path))
    out = q:read("a")
    q:close()
    assert.matches("broken failed 2 attempts; the last: Fail at line 2:10", out)
    assert.matches("status=1", out)
    os.remove(path)
  end)
end)
