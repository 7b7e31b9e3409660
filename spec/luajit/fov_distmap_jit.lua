-- strata.ffi under LuaJIT: fields of view, lines, circles and distance
-- maps, compared with the Lua 5.4 module on the same map.
local strata = require "strata.ffi"
local js = require "jit_support"

local MAP_SOURCE = [[
local function build(strata)
  local m = strata.tilemap.new{ width = 20, height = 10, fill = "floor",
    tokens = { wall = { passable = false, glyph = "#" }, mud = { cost = 3 }, glass = { passable = false, transparent = true } } }
  m:fill(5, 0, 1, 7, "wall")
  m:fill(10, 3, 1, 7, "wall")
  m:fill(14, 2, 4, 1, "glass")
  m:fill(2, 7, 3, 2, "mud")
  m:set(15, 6, "stairs")
  return m
end
-- every cell's value as one line of text
local function field_text(f, w, h)
  local out = {}
  for y = 0, h - 1 do for x = 0, w - 1 do
    local d = f:at(x, y)
    local sx, sy = f:step_down(x, y)
    out[#out + 1] = (d and ("%.3f"):format(d) or "-") .. (sx and ("@" .. sx .. "," .. sy) or "")
  end end
  return table.concat(out, " ")
end
local function set_text(s)
  local out = {}
  for x, y in s:cells() do out[#out + 1] = x .. "," .. y end
  return s:count() .. ": " .. table.concat(out, " ")
end
]]
local chunk = assert(loadstring(MAP_SOURCE .. "return build, field_text, set_text"))
local build, field_text, set_text = chunk()

local FOVS = { "{}", "{ radius = 5 }", "{ algorithm = 'permissive' }", "{ algorithm = 'basic', light_walls = false }" }
local FIELDS = { "{ { 0, 0 } }", "{ { 0, 0 }, { 19, 9 } }, { connectivity = 8 }",
  "{ token = 'stairs' }, { connectivity = 8, diagonal_cost = 1 }", "{ { 3, 3 } }, { max_cost = 6 }",
  "function(x, y) return x == 19 and y < 3 end" }

describe("strata.ffi (LuaJIT) fields of view", function()
  it("sees what the 5.4 module sees, for every algorithm", function()
    local script = { MAP_SOURCE, "local m = build(require 'strata')" }
    for _, o in ipairs(FOVS) do script[#script + 1] = ("print(set_text(m:fov(7, 4, %s)))"):format(o) end
    local expected = js.lua54(table.concat(script, "\n"))
    local m, got = build(strata), {}
    for _, o in ipairs(FOVS) do
      got[#got + 1] = set_text(assert(m:fov(7, 4, assert(loadstring("return " .. o))())))
    end
    assert.equal(expected, table.concat(got, "\n") .. "\n")
  end)

  it("keeps sets: visible, add, into, tostring", function()
    local m = build(strata)
    local a = assert(m:fov(1, 1, { radius = 3 }))
    assert.is_true(a:visible(1, 1))
    assert.is_false(a:visible(19, 9))
    assert.is_false(a:visible(-1, 99))
    local n = a:count()
    local b = assert(m:fov(18, 8, { radius = 3 }))
    assert.equal(a, a:add(b))
    assert.is_true(a:count() > n)
    local c = assert(m:fov(18, 8, { radius = 2, into = b }))
    assert.equal(b, c)
    assert.matches("^strata.fov %d+ cells of a 20x10 map$", tostring(c))
    assert.matches("map:fov: unknown option 'raduis' %(nearest known: radius", js.raised(m.fov, m, 1, 1, { raduis = 2 }))
    assert.matches("map:fov: unknown algorithm 'x'", js.raised(m.fov, m, 1, 1, { algorithm = "x" }))
    local none, why = m:fov(99, 1)
    assert.is_nil(none)
    assert.matches("^map:fov: ", why)
  end)

  it("draws lines and circles as the 5.4 module does", function()
    local expected = js.lua54([[
      local strata = require "strata"
      for x, y in strata.line(0, 0, 7, -3) do io.write(x, ",", y, " ") end
      for x, y in strata.circle(2, 2, 4) do io.write(x, ",", y, " ") end]])
    local got = {}
    for x, y in strata.line(0, 0, 7, -3) do got[#got + 1] = x .. "," .. y .. " " end
    for x, y in strata.circle(2, 2, 4) do got[#got + 1] = x .. "," .. y .. " " end
    assert.equal(expected, table.concat(got))
    assert.matches("strata.circle: argument #3: radius must be 0 to 65535", js.raised(strata.circle, 0, 0, -1))
  end)
end)

describe("strata.ffi (LuaJIT) distance maps", function()
  it("measures what the 5.4 module measures, steps where it steps, flees as it flees", function()
    local script = { MAP_SOURCE, "local m = build(require 'strata')" }
    for _, f in ipairs(FIELDS) do
      script[#script + 1] = ("do local f = m:distance_map(%s); print(field_text(f, 20, 10)); print(field_text(f:flee(), 20, 10)) end"):format(f)
    end
    local expected = js.lua54(table.concat(script, "\n"))
    local m, got = build(strata), {}
    for _, f in ipairs(FIELDS) do
      local field = assert(assert(loadstring("local m = ...; return m:distance_map(" .. f .. ")"))(m))
      got[#got + 1] = field_text(field, 20, 10)
      got[#got + 1] = field_text(assert(field:flee()), 20, 10)
    end
    assert.equal(expected, table.concat(got, "\n") .. "\n")
  end)

  it("updates with the map's edits as a new field would be", function()
    local m = build(strata)
    local f = assert(m:distance_map({ { 0, 0 } }, { connectivity = 8 }))
    assert.equal(20, f.width)
    assert.equal(10, f.height)
    m:fill(0, 2, 5, 1, "wall")
    assert.equal(f, f:update())
    assert.equal(field_text(assert(m:distance_map({ { 0, 0 } }, { connectivity = 8 })), 20, 10), field_text(f, 20, 10))
    assert.matches("^strata.distmap 20x10$", tostring(f))
  end)

  it("refuses what the 5.4 module refuses", function()
    local m = build(strata)
    assert.matches("map:distance_map: unknown option 'diagonal' %(nearest known: diagonal_cost",
      js.raised(m.distance_map, m, { { 0, 0 } }, { diagonal = 1 }))
    assert.matches("map:distance_map: goal 1 %(30, 0%) is outside the 20x10 map", js.raised(m.distance_map, m, { { 30, 0 } }))
    assert.matches("map:distance_map: argument #1: goals must be", js.raised(m.distance_map, m, 7))
    local f = assert(m:distance_map({ { 0, 0 } }))
    assert.matches("distmap:at: cell %(20, 0%) is outside the 20x10 map", js.raised(f.at, f, 20, 0))
    local none, why = f:flee(1e308)
    assert.is_nil(none)
    assert.matches("^distmap:flee: flee factor 1e%+308 is too large", why)
    m:close()
    assert.matches("distmap:update: the map was closed", js.raised(f.update, f))
  end)
end)
