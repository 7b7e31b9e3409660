-- strata.tiled (issue 37): Tiled's JSON maps in (strata.tiled.import) and out
-- (map:to_tiled). The fixtures are a map of ours as Tiled 1.8.2 wrote it
-- (spec/fixtures/tiled, its README and LICENSE): the importer is checked
-- against what Tiled writes, the exporter by importing what it wrote.
local strata = require "strata"
local support = require "support"
local err_of, token_rows = support.err_of, support.token_rows

local THIS = "tiled_spec.lua"

-- The fixtures, from the source tree (STRATA_SOURCE_DIR, set by CMake) or from beside this spec.
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local dir = (os.getenv("STRATA_SOURCE_DIR") and os.getenv("STRATA_SOURCE_DIR") .. "/spec" or here)
  .. "/fixtures/tiled"
local function fixture(name) return (assert(support.read(dir .. "/" .. name), "cannot read " .. name)) end

-- Gid 4 (the fourth tile) has neither a class nor a strata_token property: a mapping names it.
local MAPPING = { [4] = "lava" }
-- The fixture's cells: "ground" (gid 1 class floor, gid 2 strata_token wall over class solid,
-- gid 3 class water) under "decor" (gid 4 at (6, 1); gid 3 flipped horizontally at (4, 3)).
local CELLS = {
  "wall wall wall wall wall wall wall wall",
  "wall floor floor floor floor floor floor+lava wall",
  "wall floor floor water water floor floor wall",
  "wall floor floor water water+water floor floor wall",
  "wall floor floor floor floor floor floor wall",
  "wall wall wall wall wall wall wall wall",
}
-- Its objects (tiles of 16 pixels), in the file's order.
local OBJECTS = {
  { kind = "chest", x = 3, y = 4, props = { name = "Golden chest", gold = 5, locked = true, note = "a mimic?", weight = 2.5 } },
  { kind = "spawn", x = 1, y = 4, props = { name = "start" } },
  { kind = "object", x = 6, y = 1, props = { glow = "#ff40c0ff" } },
}
local PROPS = { title = "the crypt's antechamber" }

-- A persistent table (an object's props) as a plain table.
local function copy(p)
  local out = {}
  for k, v in pairs(p) do out[k] = type(v) == "table" and copy(v) or v end
  return out
end

-- A world's objects as the plain tables a standalone import gives.
local function plain(list)
  local out = {}
  for i, o in ipairs(list) do out[i] = { kind = o.kind, x = o.x, y = o.y, props = copy(o.props) } end
  return out
end

-- The fixture's text edited: edit(t) changes its decoded form, which is encoded again.
local function edited(name, edit)
  local t = strata.json.decode(fixture(name))
  edit(t)
  return strata.json.encode(t)
end

-- The error an import raises, checked to name the function at this file's line.
local function refused(source, opts)
  local err = err_of(function() local _ = strata.tiled.import(source, opts) end)
  assert.matches("^[^:]*" .. THIS .. ":%d+: strata%.tiled%.import: ", err)
  assert.not_matches("strata/tiled%.lua", err)
  assert.not_matches("\n", err)
  return err
end

describe("strata.tiled.import", function()
  it("reads the map Tiled wrote (CSV) into a world: tokens at every cell, objects with their properties", function()
    local world = strata.world.new{ seed = 1 }
    local map, objects, props = strata.tiled.import(fixture("crypt.tmj"), { world = world, mapping = MAPPING })
    assert.equal("map", map.kind)
    assert.equal(8, map.width)
    assert.equal(6, map.height)
    assert.same(CELLS, token_rows(map))
    assert.same(OBJECTS, plain(objects))
    for _, o in ipairs(objects) do assert.equal(map.uid, o.map.uid) end
    assert.same(plain(objects), plain(map:objects()))
    assert.same(PROPS, props)
    assert.equal(PROPS.title, map.props.title)
  end)

  it("reads base64 tile data (uncompressed) as the same map", function()
    local world = strata.world.new{ seed = 1 }
    local map, objects = strata.tiled.import(fixture("crypt-base64.tmj"), { world = world, mapping = MAPPING })
    assert.same(CELLS, token_rows(map))
    assert.same(OBJECTS, plain(objects))
  end)

  it("without a world gives a standalone tile map and the objects as plain tables", function()
    local map, objects, props = strata.tiled.import(fixture("crypt.tmj"), { mapping = MAPPING })
    assert.matches("^strata%.tilemap", tostring(map))
    assert.same(CELLS, token_rows(map))
    assert.same(OBJECTS, objects)
    assert.same(PROPS, props)
  end)

  it("reads a file given by its path", function()
    local map = strata.tiled.import(dir .. "/crypt.tmj", { mapping = MAPPING })
    assert.same(CELLS, token_rows(map))
  end)

  it("takes one tile layer by name, a mapping by gid or class over the file's, and objects = false", function()
    local map, objects = strata.tiled.import(fixture("crypt.tmj"), { layer = "decor", mapping = MAPPING, objects = false })
    assert.same({ "lava" }, map:tokens(6, 1))
    assert.same({ "water" }, map:tokens(4, 3))
    assert.same({}, map:tokens(0, 0))
    assert.same({}, objects)
    local m2 = strata.tiled.import(fixture("crypt.tmj"), { mapping = { [4] = "lava", [1] = "grass", water = "deep_water", solid = "rock" } })
    assert.same({ "grass" }, m2:tokens(1, 1))
    assert.same({ "deep_water" }, m2:tokens(3, 2))
    assert.same({ "rock" }, m2:tokens(0, 0)) -- a class mapping over the tile's strata_token
  end)

  it("refuses a gid no mapping, class or strata_token names, naming the cell", function()
    local err = refused(fixture("crypt.tmj"))
    assert.matches("%$%.layers%[1%]%.data%[14%] %(cell %(6, 1%)%): gid 4 has no token", err)
  end)

  it("refuses an unknown layer or option, naming the nearest known", function()
    assert.matches("layer 'decr' .*nearest known: decor", refused(fixture("crypt.tmj"), { layer = "decr", mapping = MAPPING }))
    assert.matches("unknown option 'mapings' %(nearest known: mapping", refused(fixture("crypt.tmj"), { mapings = MAPPING }))
  end)

  it("refuses what it does not support, with the JSON path", function()
    local cases = {
      { fixture("crypt-zlib.tmj"), "%$%.layers%[0%]%.compression: zlib%-compressed tile data is not supported" },
      { edited("crypt.tmj", function(t) t.infinite = true end), "%$%.infinite: infinite maps" },
      { edited("crypt.tmj", function(t) t.orientation = "isometric" end), "%$%.orientation: 'isometric'" },
      { edited("crypt.tmj", function(t) t.layers[1].chunks = { {} } end), "%$%.layers%[0%]%.chunks: " },
      { edited("crypt.tmj", function(t) t.layers[3].objects[1].template = "chest.tx" end),
        "%$%.layers%[2%]%.objects%[0%]%.template: " },
      { edited("crypt.tmj", function(t) t.tilesets[1] = { firstgid = 1, source = "terrain.tsx" } end),
        "%$%.layers%[0%]%.data%[0%] %(cell %(0, 0%)%): gid 2 has no token" },
    }
    for _, c in ipairs(cases) do assert.matches(c[2], refused(c[1], { mapping = MAPPING })) end
  end)

  it("refuses hostile input, with the JSON path, before it makes anything", function()
    local max = strata.tilemap.max_side
    local cases = {
      { "{ not json", "strata%.tiled%.import: " },
      { "[1, 2]", "%$: expected a Tiled map" },
      { edited("crypt.tmj", function(t) t.width = -8 end), "%$%.width: expected an integer from 1 to " .. max },
      { edited("crypt.tmj", function(t) t.width = 1e9 end), "%$%.width: expected an integer from 1 to " .. max },
      { edited("crypt.tmj", function(t) t.width, t.height = max, max end), "%$%.height: a " .. max .. "x" .. max .. " map" },
      { edited("crypt.tmj", function(t) t.height = "6" end), "%$%.height: expected an integer" },
      { edited("crypt.tmj", function(t) t.layers[1].data[1] = 99 end), "%$%.layers%[0%]%.data%[0%] %(cell %(0, 0%)%): gid 99 is in no tileset" },
      { edited("crypt.tmj", function(t) t.layers[1].data[4] = "x" end), "%$%.layers%[0%]%.data%[3%]: expected a gid" },
      { edited("crypt.tmj", function(t) t.layers[1].data[4] = 1.5 end), "%$%.layers%[0%]%.data%[3%]: expected a gid" },
      { edited("crypt.tmj", function(t) t.layers[1].data[4] = -1 end), "%$%.layers%[0%]%.data%[3%]: expected a gid" },
      { edited("crypt.tmj", function(t) t.layers[1].data[4] = 2 ^ 40 // 1 end), "%$%.layers%[0%]%.data%[3%]: expected a gid" },
      { edited("crypt.tmj", function(t) t.layers[1].data[49] = 1 end), "%$%.layers%[0%]%.data: 49 gids for a 8x6 layer" },
      { edited("crypt.tmj", function(t) t.layers[1].width = 9 end), "%$%.layers%[0%]%.width: 9 for a map 8 wide" },
      { edited("crypt-base64.tmj", function(t) t.layers[1].data = "AgAA*AAA" end), "%$%.layers%[0%]%.data: not base64" },
      { edited("crypt-base64.tmj", function(t) t.layers[1].data = "AgAAAA==" end), "%$%.layers%[0%]%.data: 1 gids for a 8x6 layer" },
      { edited("crypt.tmj", function(t) t.layers[1].type = "spritelayer" end), "%$%.layers%[0%]%.type: 'spritelayer'" },
      { edited("crypt.tmj", function(t) t.tilesets[1].tiles[1].type = ("x"):rep(300) end),
        "%$%.layers%[0%]%.data%[9%] %(cell %(1, 1%)%): gid 1: token name is 300 bytes long" },
      { edited("crypt.tmj", function(t) t.tilesets[1].firstgid = 0 end), "%$%.tilesets%[0%]%.firstgid: " },
      { edited("crypt.tmj", function(t) t.layers[3].objects[1].x = 4800 end), "%$%.layers%[2%]%.objects%[0%]: cell %(300, 4%) is outside the 8x6 map" },
      { edited("crypt.tmj", function(t) t.layers[3].objects[2].x = -1e300 end), "%$%.layers%[2%]%.objects%[1%]: cell %(%-6%.25e%+298, 4%) is outside" },
      { edited("crypt.tmj", function(t) t.layers[3].objects[1].y = "top" end), "%$%.layers%[2%]%.objects%[0%]%.y: expected a number" },
      { edited("crypt.tmj", function(t) t.layers[3].objects[1].properties[1].value = "five" end),
        "%$%.layers%[2%]%.objects%[0%]%.properties%[0%]%.value: expected an integer %(type int%)" },
      { edited("crypt.tmj", function(t) t.layers[3].objects[1].properties[2].name = "gold" end),
        "%$%.layers%[2%]%.objects%[0%]%.properties%[1%]%.name: 'gold' twice" },
      { edited("crypt.tmj", function(t) t.layers[3].objects[1].properties[2].name = "name" end),
        "%$%.layers%[2%]%.objects%[0%]%.properties%[1%]%.name: a property 'name' beside the object's name" },
    }
    local world = strata.world.new{ seed = 1 }
    local before = #support.every_object(world)
    for _, c in ipairs(cases) do
      local err = refused(c[1], { world = world, mapping = MAPPING })
      assert.matches(c[2], err)
    end
    assert.equal(before, #support.every_object(world))
  end)

  it("refuses a mapping that is not gids or classes to token names", function()
    assert.matches("option 'mapping': %[0%]", refused(fixture("crypt.tmj"), { mapping = { [0] = "lava" } }))
    assert.matches("option 'mapping': %[4%] must be a token name", refused(fixture("crypt.tmj"), { mapping = { [4] = 7 } }))
  end)
end)

describe("map:to_tiled", function()
  -- A world map of stacked cells, an empty cell and objects with properties.
  local function drawn()
    local world = strata.world.new{ seed = 3 }
    local map = world:create_map{ width = 5, height = 4, fill = "floor" }
    map:fill(0, 0, 5, 1, "wall")
    map:set(2, 2, "water"):set(2, 2, "mud")
    map:reset(4, 3)
    map.props.title = "drawn"
    world:create_object{ kind = "chest", map = map, x = 1, y = 2, props = { name = "box", gold = 3, deep = { a = 1 } } }
    world:create_actor{ map = map, x = 3, y = 1, props = { hp = 7.5 } }
    return world, map
  end

  it("writes a map that import reads back the same: tokens at every cell, objects, properties", function()
    local _, map = drawn()
    local text = map:to_tiled()
    local world = strata.world.new{ seed = 4 }
    local back, objects, props = strata.tiled.import(text, { world = world })
    assert.same(token_rows(map), token_rows(back))
    assert.same(plain(map:objects()), plain(objects))
    assert.same({ title = "drawn" }, props)
  end)

  it("writes Tiled's format: a tile layer a stack depth, a tileset naming each token, an object layer", function()
    local _, map = drawn()
    local t = strata.json.decode(map:to_tiled{ tile_size = 24 })
    assert.equal("map", t.type)
    assert.equal("orthogonal", t.orientation)
    assert.equal(false, t.infinite)
    assert.equal(24, t.tilewidth)
    local tiles = {}
    for _, tile in ipairs(t.tilesets[1].tiles) do
      assert.equal("strata_token", tile.properties[1].name)
      tiles[tile.id + 1] = tile.properties[1].value
    end
    assert.same({ "wall", "floor", "water", "mud" }, tiles)
    assert.equal("tilelayer", t.layers[1].type)
    assert.equal("tilelayer", t.layers[3].type) -- (the cell of floor, water and mud)
    assert.equal(20, #t.layers[1].data)
    assert.equal(4, t.layers[3].data[2 * 5 + 2 + 1]) -- mud, gid 4, third from the bottom at (2, 2)
    assert.equal("objectgroup", t.layers[4].type)
    assert.equal(2, #t.layers[4].objects)
    assert.equal(24, t.layers[4].objects[1].x)
  end)

  it("round-trips the fixture: import, to_tiled, import gives the same map", function()
    local world = strata.world.new{ seed = 1 }
    local map, objects = strata.tiled.import(fixture("crypt.tmj"), { world = world, mapping = MAPPING })
    local again, objects2, props2 = strata.tiled.import(map:to_tiled(), { world = world })
    assert.same(CELLS, token_rows(again))
    assert.same(plain(objects), plain(objects2))
    assert.same(PROPS, props2)
  end)

  it("works on a standalone map the same", function()
    local map = strata.tiled.import(fixture("crypt-base64.tmj"), { mapping = MAPPING })
    local again = strata.tiled.import(map:to_tiled())
    assert.same(CELLS, token_rows(again))
  end)

  it("refuses what Tiled cannot hold, naming the object and key, at the caller's line", function()
    local world, map = drawn()
    world:create_object{ kind = "key", map = map, x = 0, y = 0, props = { door = world:create_object{ kind = "door" } } }
    local err = err_of(function() local _ = map:to_tiled() end)
    assert.matches("^[^:]*" .. THIS .. ":%d+: map:to_tiled: key#%d+ props%.door: a handle cannot be a Tiled property", err)
    assert.matches("unknown option 'tile_sise' %(nearest known: tile_size", err_of(function() local _ = map:to_tiled{ tile_sise = 3 } end))
  end)
end)
