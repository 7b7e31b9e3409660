-- strata.ffi under LuaJIT: random generators and layouts (parse text,
-- generate onto a map), compared with the Lua 5.4 module.
local strata = require "strata.ffi"
local js = require "jit_support"
local support = require "support"

local CRYPT = [[ {
  Reset("wall")
  Place(minSize = {5 4} maxSize = {9 6} count = {4 6} minSpacing = 1 generator = Margins(1, None, Reset("floor")))
  Connect(On("floor"), (1, On("floor"), None), (4, On("wall"), Reset("floor")))
  Filter(And(On("floor"), Chance(0.1)), Set("moss")) } ]]

describe("strata.ffi (LuaJIT) random generators", function()
  it("draw what the 5.4 module's draw from the same seed", function()
    local code = [[
      local r = RNG.new(%s)
      local out = { r:int(6), r:int(-5, 5), ("%%.6f"):format(r:float()), tostring(r:chance(0.5)),
        ("%%.6f"):format(r:normal(1, 2)), r:pick{ "a", "b", "c" }, table.concat(r:shuffle{ 1, 2, 3, 4, 5 }, ","),
        r:state(), r:stream("k"):int(1000), r:stream(7):state() }
      io.write(table.concat(out, " "), "\n")]]
    local seeds = { "42", "-3", "'crypt'" }
    local script = {}
    for _, s in ipairs(seeds) do script[#script + 1] = code:format(s) end
    local expected = js.lua54("local RNG = require('strata').rng\n" .. table.concat(script, "\n"))
    local got = {}
    local old = io.write
    io.write = function(...) for _, v in ipairs { ... } do got[#got + 1] = v end end -- luacheck: ignore
    local ok, err = pcall(function()
      for _, s in ipairs(script) do assert(loadstring("local RNG = ...\n" .. s))(strata.rng) end
    end)
    io.write = old
    assert(ok, err)
    assert.equal(expected, table.concat(got))
  end)

  it("keeps and restores states", function()
    local r = strata.rng.new(5)
    local s = r:state()
    local a = r:int(100)
    assert.equal(r, r:set_state(s))
    assert.equal(a, r:int(100))
    assert.matches("rng:set_state: not a generator state", js.raised(r.set_state, r, "zz"))
    assert.matches("rng:int: interval is empty", js.raised(r.int, r, 3, 1))
    assert.matches("^strata.rng %x+$", tostring(r))
  end)
end)

describe("strata.ffi (LuaJIT) layouts", function()
  it("generate what the 5.4 module generates from the same seed", function()
    local expected = js.lua54(([[
      local strata = require "strata"
      local m = strata.tilemap.new{ width = 40, height = 20 }
      local g = assert(strata.layout.parse(%q, "crypt"))
      print(strata.layout.generate(g, m, { seed = 7, attempts = 20 }))
      io.write(m:render())
      local r = strata.rng.new(3)
      print(g:run(m, r), r:state())
      io.write(m:render())]]):format(CRYPT))
    local m = strata.tilemap.new{ width = 40, height = 20 }
    local g = assert(strata.layout.parse(CRYPT, "crypt"))
    local got = { tostring(strata.layout.generate(g, m, { seed = 7, attempts = 20 })), "\n", m:render() }
    local r = strata.rng.new(3)
    got[#got + 1] = tostring(g:run(m, r)) .. "\t" .. r:state() .. "\n"
    got[#got + 1] = m:render()
    assert.matches("^true\n", expected) -- (the layout made rooms of floor and moss)
    assert.matches("m", expected)
    assert.equal(expected, table.concat(got))
  end)

  it("parse files of named layouts as the 5.4 module does, and run one by name", function()
    local path = js.root .. "/spec/fixtures/keeperrl/random_layouts.txt"
    local expected = js.lua54(([[
      local strata = require "strata"
      local file, names = strata.layout.parse_file(io.open(%q):read("a"), "random_layouts.txt")
      print(#names, names[1], names[#names])
      local m = strata.tilemap.new{ width = 16, height = 16 }
      print(strata.layout.generate(file.castle_empty, m, { rng = strata.rng.new(11) }))
      io.write(m:render())]]):format(path))
    local file, names = strata.layout.parse_file(support.read(path), "random_layouts.txt")
    local m = strata.tilemap.new{ width = 16, height = 16 }
    local ok, why = strata.layout.generate(file.castle_empty, m, { rng = strata.rng.new(11) })
    local got = table.concat({ #names, names[1], names[#names] }, "\t") .. "\n" .. tostring(ok) ..
      (why and "\t" .. why or "") .. "\n" .. m:render()
    assert.equal(expected, got)
    assert.equal("strata.layout 'castle_empty'", tostring(file.castle_empty))
  end)

  it("answers a parse error with nil, reason naming where; refuses bad options", function()
    local g, why = strata.layout.parse("{ Reset(\"wall\") Bogus() }", "bad")
    assert.is_nil(g)
    assert.matches("^strata.layout.parse: bad:1:", why)
    local m = strata.tilemap.new{ width = 4, height = 4 }
    g = assert(strata.layout.parse('Reset("floor")'))
    assert.matches("strata.layout.generate: unknown option 'attempt' %(nearest known: attempts",
      js.raised(strata.layout.generate, g, m, { seed = 1, attempt = 3 }))
    assert.matches("strata.layout.run: give { rng = strata.rng.new%(seed%) } or { seed = n }",
      js.raised(strata.layout.run, g, m, {}))
    assert.matches("strata.layout.generate: option 'attempts' must be an integer of at least 1",
      js.raised(strata.layout.generate, g, m, { seed = 1, attempts = 0 }))
    assert.is_true(strata.layout.run(g, m, { seed = 1 }))
    assert.equal("floor", m:top(3, 3))
    assert.is_true(strata.layout.generate(g, m, { seed = 1, fill = "rock" }))
  end)
end)
