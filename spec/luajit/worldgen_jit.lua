-- strata.ffi under LuaJIT: world templates (generate, floor, options,
-- render, format, parse, read, write, validate), the same report from the
-- same source under both modules.
local strata = require "strata.ffi"
local js = require "jit_support"
local support = require "support"

local REPORT = [[
local function report(strata)
  local out = {}
  local function put(v) out[#out + 1] = tostring(v) end
  local W = strata.worldgen
  for _, o in ipairs {
    { dims = { 30, 12, 3 }, seed = 7, room_variance = 6, path_alg = "astar" },
    { dims = { x = 20, y = 20, z = 2 }, seed = -4, post_check = false },
    { rand = true, seed = 99, path_alg = "bfs" },
  } do
    local t = assert(W.generate(o))
    put(table.concat({ t.dims.x, t.dims.y, t.dims.z, t.seed, t.room_variance, t.path_alg, tostring(t.post_check),
      t.start.x, t.start.y, t.start.z, t.exit.x, t.exit.y, t.exit.z }, " "))
    for z, f in ipairs(t.floors) do
      put(table.concat({ z, #f.rooms, f.attempts, f.ascent and f.ascent.x or "-", f.descent and f.descent.y or "-",
        f.tiles[2][3] }, " "))
    end
    put(W.render(t))
    local text = W.format(t)
    put(text)
    put(W.format(assert(W.parse(text, "again"))) == text)
    local f2 = assert(W.floor(o, 2))
    put(W.render(t):find("", 1, true) and #f2.rooms == #t.floors[2].rooms)
    local opts = W.options(o)
    put(table.concat({ opts.dims.x, opts.dims.y, opts.dims.z, opts.seed, opts.path_alg }, " "))
  end
  return table.concat(out, "\n")
end
]]
local report = assert(loadstring(REPORT .. "return report"))()

describe("strata.ffi (LuaJIT) world templates", function()
  it("generate, draw and write what the 5.4 module does", function()
    local expected = js.lua54(REPORT .. "io.write(report(require 'strata'))")
    assert.matches("#", expected)
    assert.equal(expected, report(strata))
  end)

  it("write whole and read back; refuse what the 5.4 module refuses", function()
    local W = strata.worldgen
    local t = assert(W.generate{ dims = { 12, 10, 2 }, seed = 3 })
    local dir = support.tempdir()
    assert.is_true(W.write(t, dir .. "/t.txt"))
    assert.same(t, assert(W.read(dir .. "/t.txt")))
    local none, why = W.read(dir .. "/missing.txt")
    assert.is_nil(none)
    assert.matches("^strata.worldgen.read: ", why)
    support.sh("rm -rf " .. support.q(dir))
    assert.matches("strata.worldgen.generate: unknown option 'sed' %(nearest known: seed",
      js.raised(W.generate, { dims = { 10, 10, 1 }, sed = 1 }))
    assert.matches("strata.worldgen.generate: room_variance must be at least 3",
      js.raised(W.generate, { dims = { 10, 10, 1 }, room_variance = 2 }))
    t.floors[1].tiles[1][1] = "lava"
    assert.matches("strata.worldgen.render: template floors%[1%].tiles%[1%]%[1%]: lava is not a tile", js.raised(W.render, t))
    t.floors[1].tiles[1][1] = "wall"
    assert.equal(t, W.validate(t))
    local logged = {}
    assert(W.generate{ dims = { 12, 10, 2 }, seed = 3, log = function(level, msg, floor) logged[#logged + 1] = level end })
    assert.matches("strata.worldgen.generate: option 'log' raised: .*nope",
      js.raised(W.generate, { dims = { 12, 10, 2 }, seed = 3, log = function() error("nope") end }))
    local bad, reason = W.parse("not a template", "x")
    assert.is_nil(bad)
    assert.matches("^strata.worldgen.parse: ", reason)
  end)
end)
