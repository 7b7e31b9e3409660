-- Errors raised by the public API name the public function and point at the
-- caller's line, never at a file inside strata (lua/strata/, bindings/).
local strata = require "strata"

local PATH = { "mods", "spec/fixtures/mods" }
local THIS = "error_locations_spec.lua"

local err_of = require("support").err_of

local function check(err, name)
  assert.is_nil(err:find("lua/strata/", 1, true), err)
  assert.is_nil(err:find("bindings/", 1, true), err)
  assert.is_nil(err:find("strata/[%w_]+%.lua"), err)
  if name then assert.truthy(err:find(name, 1, true), ("'%s' not named in: %s"):format(name, err)) end
end

describe("error messages", function()
  local w = strata.world.new{ seed = 1, mods = { "crypt", "dungeon" }, mod_path = PATH }
  local map = w:create_map{ width = 4, height = 3, fill = "floor" }
  local hero = w:create_actor{ map = map, x = 0, y = 0, player = true }
  local area = w:create_area("crypt.crypt")

  -- Each case: the call, and the public name its message must carry.
  local cases = {
    { function() w:object(hero) end, "world:object" },
    { function() w:object("3") end, "world:object" },
    { function() map:set(4, 0, "wall") end, "set" },
    { function() map:set(0, 0) end, "set" },
    { function() map:find_path({ 0, 0 }, { 9, 9 }) end, "find_path" },
    { function() map:render{ glyphs = "crypt.nope" } end, "map:render" },
    { function() w:create_area("crypt.cryp") end, "world:create_area" },
    { function() w:create_actor{ archetype = "crypt.gobiln" } end, "world:create_actor" },
    { function() w:create_map{ width = -1, height = 2 } end, "world:create_map" },
    { function() w:travel(hero, 5) end, "world:travel" },
    { function() w:travel(hero, map, { x = 9, y = 0 }) end, "world:travel" },
    { function() w:create_stairs(map, 9, 9) end, "world:create_stairs" },
    { function() w:create_entrance(map, 1, 1, "cave") end, "world:create_entrance" },
    { function() w:schedule{ after = -1, handler = "crypt.candles" } end, "world:schedule" },
    { function() w:schedule{ handler = "crypt.candle" } end, "world:schedule" },
    { function() w:advance(-1) end, "world:advance" },
    { function() w:emit("crypt.nothing", {}) end, "world:emit" },
    { function() w:save(7) end, "world:save" },
    { function() area:floor("one") end, ":floor" },
    { function() area:add_floor(map, 0.5) end, ":add_floor" },
    { function() hero.state.f = function() end end, "state.f" },
    { function() hero.state.t = { [1.5] = true } end, "state.t" },
    { function() hero.state[1.5] = true end, "state" },
    { function() hero:subscribe("crypt.nothing", "crypt.candles") end, "subscribe" },
    { function() strata.world.new{ mods = { "nosuchmod" }, mod_path = PATH } end, "nosuchmod" },
    { function() strata.world.open("/nonexistent/x.db") end, "cannot open" },
    { function() strata.layout.run("crypt.levl", map, { seed = 1 }) end, "crypt.levl" },
    { function() strata.xymap.parse("+ 0\n\n0 #-\n\n+ 0") end, "points to empty space" },
    { function() strata.worldgen.generate{ dims = { 0, 5, 1 } } end, "strata.worldgen.generate: dims" },
    { function() strata.worldgen.read("/nonexistent/w.txt") end, "strata.worldgen.read" },
    { function() strata.worldgen.to_area(w, {}, { area = "crypt.crypt" }) end, "strata.worldgen.to_area" },
  }

  for i, c in ipairs(cases) do
    it(("case %d (%s) names it and points at the caller"):format(i, c[2]), function()
      local err = err_of(c[1])
      check(err, c[2])
      assert.truthy(err:find(THIS, 1, true) or not err:find("%.lua:%d+:"), err)
    end)
  end

  it("an unknown archetype suggests archetypes of that kind, not handlers", function()
    local err = err_of(function() w:create_actor{ archetype = "crypt.gobiln" } end)
    assert.is_nil(err:find("crypt.candles", 1, true), err)
  end)

  it("a float key is reported once, with its key path", function()
    local err = err_of(function() hero.state.t = { [1.5] = true } end)
    local _, count = err:gsub("actor#", "")
    assert.equal(1, count, err)
    assert.matches("state%.t", err)
  end)
end)
