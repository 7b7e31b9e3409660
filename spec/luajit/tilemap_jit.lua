-- strata.ffi under LuaJIT: the loader, errors and options, token tables, tile
-- maps and their paths, compared with the Lua 5.4 module on the same inputs.
local strata = require "strata.ffi"
local js = require "jit_support"

-- The map both Lua versions build: walls, water (cost 4), a gap.
local MAP_SOURCE = [[
local function build(strata)
  local m = strata.tilemap.new{ width = 24, height = 12, fill = "floor",
    tokens = { wall = { passable = false, glyph = "#" }, water = { cost = 4, glyph = "~" } } }
  m:fill(6, 0, 1, 10, "wall")
  m:fill(12, 2, 1, 10, "wall")
  m:fill(18, 0, 1, 9, "wall")
  m:fill(2, 4, 3, 3, "water")
  m:fill(14, 5, 3, 4, "water")
  return m
end
]]
local build = assert(loadstring(MAP_SOURCE .. "return build"))()

local SEARCHES = {
  { {}, "{}" },
  { { connectivity = 8 }, "{ connectivity = 8 }" },
  { { connectivity = 8, diagonal_cost = 1 }, "{ connectivity = 8, diagonal_cost = 1 }" },
  { { algorithm = "dijkstra" }, "{ algorithm = 'dijkstra' }" },
  { { algorithm = "bfs", connectivity = 8 }, "{ algorithm = 'bfs', connectivity = 8 }" },
  { { algorithm = "greedy" }, "{ algorithm = 'greedy' }" },
  { { algorithm = "dijkstra", connectivity = 8, diagonal_cost = 1.5 }, "{ algorithm = 'dijkstra', connectivity = 8, diagonal_cost = 1.5 }" },
}

describe("strata.ffi (LuaJIT)", function()
  it("loads libstrata and says the 5.4 module's version", function()
    assert.equal(js.lua54('io.write(require("strata").version)'), strata.version)
    assert.is_string(require("strata.ffi.cdefs").cdef)
  end)

  it("finds the same routes as the 5.4 module, for every algorithm and neighbourhood", function()
    local script = { MAP_SOURCE, js.route_text_source, 'local strata = require "strata"', "local m = build(strata)" }
    for _, s in ipairs(SEARCHES) do
      script[#script + 1] = ("print(route_text(assert(m:find_path({ 0, 0 }, { 23, 11 }, %s))))"):format(s[2])
    end
    local expected = js.lua54(table.concat(script, "\n"))
    local m, got = build(strata), {}
    for _, s in ipairs(SEARCHES) do
      local path, cost = assert(m:find_path({ 0, 0 }, { x = 23, y = 11 }, s[1]))
      assert.equal(path.cost, cost)
      got[#got + 1] = js.route_text(path)
    end
    assert.equal(expected, table.concat(got, "\n") .. "\n")
  end)

  it("draws what the 5.4 module draws, the route over it", function()
    local expected = js.lua54(MAP_SOURCE .. [[
      local m = build(require "strata")
      io.write(m:render{ path = m:find_path({ 0, 0 }, { 23, 11 }), glyphs = { water = "w" } })]])
    local m = build(strata)
    assert.equal(expected, m:render{ path = m:find_path({ 0, 0 }, { 23, 11 }), glyphs = { water = "w" } })
    assert.equal(expected, m:render{ path = m:find_path({ 0, 0 }, { 23, 11 }):table(), glyphs = { water = "w" } })
  end)

  it("gives path values as the 5.4 module does: #p, p.cost, p:xy, p:cells, p:table, p[i]", function()
    local m = build(strata)
    local p = m:find_path({ 0, 0 }, { 5, 0 })
    assert.equal(6, #p)
    assert.equal(5, p.cost)
    assert.same({ 1, 0 }, { p:xy(2) })
    assert.is_nil(p:xy(7))
    assert.same({ 2, 0, x = 2, y = 0 }, p[3])
    local t = p:table()
    assert.equal(5, t.cost)
    assert.same({ 5, 0, x = 5, y = 0 }, t[6])
    assert.is_true(strata.path.is(p))
  end)

  it("keeps a long route (its buffer taken over from the search) whole through later searches", function()
    local m = strata.tilemap.new{ width = 20000, height = 2, fill = "floor" }
    local long = assert(m:find_path({ 0, 0 }, { 19999, 0 }))
    assert.equal(20000, #long)
    local short = assert(m:find_path({ 0, 0 }, { 3, 1 }))
    local again = assert(m:find_path({ 19999, 1 }, { 0, 1 }))
    collectgarbage()
    assert.equal(19999, long.cost)
    assert.same({ 19999, 0 }, { long:xy(20000) })
    assert.same({ 12345, 0 }, { long:xy(12346) })
    assert.same({ 0, 1 }, { again:xy(20000) })
    assert.equal(5, #short)
    assert.equal(20000, #long:table())
  end)

  it("answers no route with nil, reason, the 5.4 module's words", function()
    local m = build(strata)
    m:fill(0, 1, 6, 1, "wall")
    local expected = js.lua54(MAP_SOURCE .. [[
      local m = build(require "strata")
      m:fill(0, 1, 6, 1, "wall")
      print(m:find_path({ 0, 0 }, { 23, 11 }))]])
    local path, why = m:find_path({ 0, 0 }, { 23, 11 })
    assert.is_nil(path)
    assert.equal(expected, ("nil\t%s\n"):format(why))
    local p = assert(m:find_path({ 3, 3 }, { 3, 3 }))
    assert.equal(1, #p) -- a cell to itself: a route of no steps
  end)

  it("checks options: an unknown key is an error naming the nearest known, at the caller's line", function()
    local m = build(strata)
    -- (not a tail call: the closure's line is the caller's)
    local msg = js.raised(function() local p = m:find_path({ 0, 0 }, { 1, 0 }, { conectivity = 8 }) return p end)
    assert.matches("^[^\n]*tilemap_jit%.lua:%d+: map:find_path: unknown option 'conectivity' %(nearest known: connectivity", msg)
    assert.not_matches("strata/ffi", msg)
    msg = js.raised(function() return strata.tilemap.new{ width = 2, hieght = 2 } end)
    assert.matches("strata.tilemap.new: unknown option 'hieght' %(nearest known: height", msg)
    assert.matches("map:find_path: argument #1: expected a point", js.raised(m.find_path, m, { "a" }, { 1, 0 }))
    assert.matches("map:find_path: goal %(99, 0%) is outside the 24x12 map", js.raised(m.find_path, m, { 0, 0 }, { 99, 0 }))
    assert.matches("map:find_path: connectivity must be 4 or 8", js.raised(m.find_path, m, { 0, 0 }, { 1, 0 }, { connectivity = 6 }))
    assert.matches("map:set: cell %(30, 0%) is outside the 24x12 map", js.raised(m.set, m, 30, 0, "wall"))
  end)

  it("returns nil, reason when the core refuses, worded as the 5.4 module words it", function()
    local m = build(strata)
    local expected = js.lua54(MAP_SOURCE .. [[
      local m = build(require "strata")
      io.write((select(2, pcall(m.find_path, m, { 0, 0 }, { 1, 0 }, { connectivity = 8, diagonal_cost = 0.5 }))))]])
    local path, why = m:find_path({ 0, 0 }, { 1, 0 }, { connectivity = 8, diagonal_cost = 0.5 })
    assert.is_nil(path)
    assert.equal(expected:match("map:find_path: .*$"), why)
  end)

  it("takes a cost function: the same route as 5.4's; its error raised, naming the cell", function()
    local expected = js.lua54(MAP_SOURCE .. js.route_text_source .. [[
      local m = build(require "strata")
      print(route_text(assert(m:find_path({ 0, 0 }, { 23, 11 }, {
        cost = function(x, y, c) if y == 10 and x > 12 and x < 20 then return false end return c and c + x % 3 end }))))]])
    local m = build(strata)
    local p = assert(m:find_path({ 0, 0 }, { 23, 11 }, {
      cost = function(x, y, c) if y == 10 and x > 12 and x < 20 then return false end return c and c + x % 3 end }))
    assert.equal(expected, js.route_text(p) .. "\n")
    local msg = js.raised(m.find_path, m, { 0, 0 }, { 5, 0 }, { cost = function() error("boom", 0) end })
    assert.matches("map:find_path: option 'cost' raised at %(%d+, %d+%): boom", msg)
    msg = js.raised(m.find_path, m, { 0, 0 }, { 5, 0 }, { cost = function() return "x" end })
    assert.matches("map:find_path: option 'cost' answered a string at %(%d, 0%)", msg)
    -- the map is searched again afterwards as before
    assert.equal(5, assert(m:find_path({ 0, 0 }, { 5, 0 })).cost)
  end)

  it("takes occupied and cost_min (a standalone map holds no actors)", function()
    local m = build(strata)
    assert.equal(5, assert(m:find_path({ 0, 0 }, { 5, 0 }, { occupied = "block" })).cost)
    assert.equal(5, assert(m:find_path({ 0, 0 }, { 5, 0 }, { occupied = 3, cost_min = 1 })).cost)
    assert.matches("option 'occupied' must be", js.raised(m.find_path, m, { 0, 0 }, { 5, 0 }, { occupied = "x" }))
  end)

  it("edits cells as the 5.4 module does", function()
    local m = strata.tilemap.new{ width = 4, height = 3 }
    assert.is_nil(m:top(0, 0))
    assert.equal(m, m:set(0, 0, "floor"))
    m:set(0, 0, "rug"):add_front(0, 0, "stone")
    assert.same({ "stone", "floor", "rug" }, m:tokens(0, 0))
    assert.equal("rug", m:top(0, 0))
    assert.is_true(m:has(0, 0, "floor"))
    assert.equal(1, m:remove(0, 0, "floor"))
    assert.equal(0, m:remove(0, 0, "never"))
    m:reset(0, 0, "lava")
    assert.same({ "lava" }, m:tokens(0, 0))
    m:fill(1, 1, 9, 9, "grass", { push = true })
    assert.same({ "grass" }, m:tokens(3, 2))
    m:clear("floor")
    assert.same({ "floor" }, m:tokens(3, 2))
    assert.is_false(m:occupied(0, 0))
    assert.equal(4, m.width)
    assert.equal(3, m.height)
    assert.equal("strata.tilemap 4x3", tostring(m))
    m:close()
    assert.matches("map:set: the map was closed", js.raised(m.set, m, 0, 0, "floor"))
    assert.is_nil(m.width)
  end)

  it("keeps token tables as the 5.4 module does", function()
    local t = strata.tokens.new()
    t:define("mud", { cost = 3, color = "brown" })
    t:define("wall", { passable = false })
    assert.same({ passable = true, transparent = true, cost = 3, glyph = "m", color = "brown" }, t:traits("mud"))
    assert.same({ passable = false, transparent = false, cost = 1, glyph = "w" }, t:traits("wall"))
    assert.same({ "mud", "wall" }, t:names())
    local m = strata.tilemap.new{ width = 3, height = 1, fill = "mud", tokens = t }
    assert.equal(3, m:cost(1, 0))
    m:define_token("mud", { cost = 5 }) -- this map only
    assert.equal(5, m:cost(1, 0))
    assert.equal(3, t:traits("mud").cost)
    assert.equal(5, m.token_table:traits("mud").cost)
    local nil_, why = t:define("mud", { cost = -1 })
    assert.is_nil(nil_)
    assert.matches("^tokens:define: ", why)
    assert.matches("tokens:define: unknown option 'colour' %(nearest known: color",
      js.raised(t.define, t, "x", { colour = "red" }))
    assert.matches("^strata.tokens %(2 tokens%)$", tostring(t))
  end)

  it("draws pictures as the 5.4 module does", function()
    local expected = js.lua54(MAP_SOURCE .. [[
      local m = build(require "strata")
      io.write(#m:to_png{ cell = 4, path = m:find_path({ 0, 0 }, { 23, 11 }) }, " ", m:to_svg{ cell = 3 })]])
    local m = build(strata)
    assert.equal(expected, #m:to_png{ cell = 4, path = m:find_path({ 0, 0 }, { 23, 11 }) } .. " " .. m:to_svg{ cell = 3 })
  end)
end)
