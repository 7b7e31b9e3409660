-- The data registry: schemas, validation, references, patches, lookups.
local strata = require "strata"
local support = require "support"
local data = require "strata.data"

local PATH = { "mods", "spec/fixtures/mods" }
local function world(list) return strata.world.new{ seed = 1, mods = list, mod_path = PATH } end

describe("the data registry", function()
  it("namespaces IDs by mod and applies defaults", function()
    local w = world({ "testmod" })
    local rock = w.data["testmod.thing"]:ensure("testmod.rock")
    assert.equal("testmod.rock", rock._id)
    assert.equal("testmod", rock._mod)
    assert.equal(1, rock.weight)
    assert.is_nil(w.data["testmod.thing"]:get("rock"))
  end)

  it("suggests the nearest IDs and types", function()
    local w = world({ "testmod" })
    local ok, err = pcall(function() return w.data["testmod.thing"]:ensure("testmod.rok") end)
    assert.is_false(ok)
    assert.matches("unknown testmod.thing 'testmod.rok' %(nearest known: testmod.rock%)", err)
    ok, err = pcall(function() return w.data["base.handlr"] end)
    assert.matches("unknown type 'base.handlr' %(nearest known: base.handler", err)
  end)

  it("validates entries at once", function()
    local ok, err = pcall(world, { "badfield" })
    assert.is_false(ok)
    assert.matches("testmod.thing badfield.x: field 'weight' must be number, got string", err)
    local reg = data.new()
    reg:add_type("m", { _id = "t", fields = { f = { type = "function" }, n = { type = "integer", required = true } } })
    assert.has_error(function() reg:add("m", { _type = "m.t", _id = "a" }) end)
    assert.has_error(function() reg:add("m", { _type = "m.t", _id = "a", n = 1, other = print }) end)
    assert.equal("m.b", reg:add("m", { _type = "m.t", _id = "b", n = 1, f = print }))
    assert.has_error(function() reg:add("m", { _type = "m.nope", _id = "c" }) end)
  end)

  it("reports all broken references together after loading", function()
    local ok, err = pcall(world, { "badrefs" })
    assert.is_false(ok)
    assert.matches("field 'area' refers to unknown base.area_archetype 'badrefs.nowhere'", err)
    assert.matches("field 'handler' refers to unknown base.handler 'testmod.notee' %(nearest known: testmod.note", err)
  end)

  it("applies named patches and iterates by (_ordering, _id)", function()
    local w = world({ "patcher" })
    assert.equal(42, w.data["testmod.thing"]:ensure("testmod.rock").weight)
    local ids = {}
    for id in w.data["testmod.thing"]:iter() do ids[#ids + 1] = id end
    assert.same({ "patcher.pebble", "testmod.rock" }, ids)
  end)

  it("freezes definitions after loading", function()
    local w = world({ "testmod" })
    assert.has_error(function() w.data["base.event"].late = {} end)
    assert.has_error(function() support.registry(w):add("x", { _type = "base.event", _id = "late" }) end)
  end)
end)
