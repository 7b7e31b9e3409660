-- One rule for every options table and every data entry: an unknown key is an
-- error naming it and the nearest known keys. Generated from the one list
-- (strata.options.known) and from the base types' schemas, so that a new
-- option or type cannot be left out: a name in the list without a way to call
-- it here fails the first test.
local strata = require "strata"
local support = require "support"
local options = require "strata.options"
local data = require "strata.data"
local mods = require "strata.mods"

local PATH = { "mods", "spec/fixtures/mods" }

-- A misspelling of key that is no other known key: its last letter dropped,
-- or (for one-letter keys) doubled.
local function misspell(key, known)
  local taken = {}
  for _, k in ipairs(known) do taken[k] = true end
  local candidates = { key:sub(1, -2), key .. key:sub(-1), key:sub(2) }
  for _, c in ipairs(candidates) do
    if #c > 0 and not taken[c] then return c end
  end
  error("no misspelling for " .. key)
end

local function with(key, value)
  return { [key] = value }
end

-- How to call each function of the list with an options table.
local w = strata.world.new{ seed = 3, mods = { "base", "crypt", "dungeon" }, mod_path = PATH }
local map = w:create_map{ width = 4, height = 4, fill = "floor" }
local area = w:create_area("crypt.crypt")
local hero = w:create_actor{ map = map, x = 0, y = 0 }
local tm = strata.tilemap.new{ width = 3, height = 3, fill = "floor" }
local xy = strata.xymap.parse("+ 0 1\n\n0 #-#\n\n+ 0 1")
local wt = strata.worldgen.generate{ dims = { 5, 5, 1 } }
local calls = {
  ["strata.world.new"] = function(o) strata.world.new(o) end,
  ["strata.world.open"] = function(o) strata.world.open("nowhere.db", o) end,
  ["strata.lease.open"] = function(o) strata.lease.open("nowhere.db", o) end,
  ["strata.serve.open"] = function(o) strata.serve.open("nowhere.db", o) end,
  ["strata.world.from_json"] = function(o) strata.world.from_json("{}", o) end,
  ["strata.reload"] = function(o) o[1] = "crypt" strata.reload(o) end,
  ["world:create_map"] = function(o) w:create_map(o) end,
  ["world:save"] = function(o) w:save(os.tmpname(), o) end,
  ["world:create_actor"] = function(o) w:create_actor(o) end,
  ["world:create_object"] = function(o) w:create_object(o) end,
  ["world:schedule"] = function(o) w:schedule(o) end,
  ["world:run_realtime"] = function(o) w:run_realtime(o) end,
  ["world:travel"] = function(o) w:travel(hero, map, o) end,
  ["world:walk"] = function(o) w:walk(hero, { 1, 1 }, o) end,
  ["world:add_turns"] = function(o) w:add_turns(hero, o) end,
  ["strata.noise.heights"] = function(o) o.seed = o.seed or 1 strata.noise.heights(2, 2, o) end,
  ["world:create_area"] = function(o) w:create_area("crypt.crypt", o) end,
  ["world:create_entrance"] = function(o) w:create_entrance(map, 1, 1, area, o) end,
  ["world:create_stairs"] = function(o) w:create_stairs(map, 1, 1, o) end,
  ["world:areas"] = function(o) w:areas(o) end,
  ["area:delete"] = function(o) area:delete(o) end,
  ["object:subscribe"] = function(o) hero:subscribe("base.map_entered", "crypt.candles", nil, o) end,
  ["events:register"] = function(o)
    mods.register_event(support.registry(w), "spec", "base.map_entered", "spec: x", function() end, o)
  end,
  ["strata.layout.run"] = function(o) strata.layout.run("crypt.level", map, o) end,
  ["strata.layout.generate"] = function(o) strata.layout.generate("crypt.level", map, o) end,
  ["strata.layout.preview"] = function(o) strata.layout.preview(map, nil, o) end,
  ["strata.layout.apply"] = function(o) strata.layout.apply(map, {}, {}, o) end,
  ["strata.layout.mapping"] = function(o) strata.layout.mapping("x.y", o) end,
  ["strata.xymap.parse"] = function(o) strata.xymap.parse("+ 0\n\n0 #\n\n+ 0", o) end,
  ["strata.xymap.parse legend entry"] = function(o)
    o.kind = "node"
    strata.xymap.parse("+ 0\n\n0 #\n\n+ 0", { legend = { ["#"] = o } })
  end,
  ["strata.markup.render"] = function(o) strata.markup.render("x", o) end,
  ["strata.tilemap.new"] = function(o) strata.tilemap.new(o) end,
  ["map:fill"] = function(o) tm:fill(0, 0, 1, 1, "floor", o) end,
  ["map:find_path"] = function(o) tm:find_path({ 0, 0 }, { 1, 1 }, o) end,
  ["map:fov"] = function(o) tm:fov(0, 0, o) end,
  ["map:distance_map"] = function(o) tm:distance_map({ { 0, 0 } }, o) end,
  ["map:render"] = function(o) tm:render(o) end,
  ["tokens:define"] = function(o) strata.tokens.new():define("x", o) end,
  ["xy:visual_range"] = function(o) xy:visual_range({ 0, 0 }, o) end,
  ["map:to_svg"] = function(o) tm:to_svg(o) end,
  ["map:to_png"] = function(o) tm:to_png(o) end,
  ["map:to_tiled"] = function(o) tm:to_tiled(o) end,
  ["strata.tiled.import"] = function(o) strata.tiled.import(tm:to_tiled(), o) end,
  ["xy:to_svg"] = function(o) xy:to_svg(o) end,
  ["strata.worldgen.generate"] = function(o) strata.worldgen.generate(o) end,
  ["strata.worldgen.floor"] = function(o) strata.worldgen.floor(o, 1) end,
  ["strata.worldgen.options"] = function(o) strata.worldgen.options(o) end,
  ["strata.worldgen.render"] = function(o) strata.worldgen.render(wt, o) end,
  ["strata.worldgen.to_map"] = function(o) strata.worldgen.to_map(w, wt.floors[1], o) end,
  ["strata.worldgen.to_area"] = function(o) strata.worldgen.to_area(w, wt, o) end,
  ["world:objects"] = function(o) w:objects(o) end,
  ["world:create_room"] = function(o) o.name = o.name or "Hall" w:create_room(o) end,
  ["world.grid:spawn"] = function(o) w.grid:spawn(o) end,
  ["world.grid:rooms"] = function(o) w.grid:rooms(o) end,
  ["world.grid:exits"] = function(o) w.grid:exits(o) end,
  ["world.grid:view"] = function(o) w.grid:view(w:create_room{ name = "Hall" }, o) end,
  ["room:appearance"] = function(o) w:create_room{ name = "Hall" }:appearance(o) end,
  ["room:display_name"] = function(o) w:create_room{ name = "Hall" }:display_name(o) end,
  ["xy:display"] = function(o) xy:display(o) end,
  ["world:create_exit"] = function(o)
    o.name = o.name or "out"
    local r = w:create_room{ name = "Hall" }
    w:create_exit(r, r, o)
  end,
}

describe("strict options", function()
  it("every options table of the list can be called here", function()
    for name in pairs(options.known) do
      assert.is_function(calls[name], "no call for '" .. name .. "' in strict_options_spec.lua")
    end
  end)

  local names = {}
  for name in pairs(options.known) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    it(name .. ": each misspelt key is an error naming it and the nearest known keys", function()
      for _, key in ipairs(options.known[name]) do
        local wrong = misspell(key, options.known[name])
        local ok, err = pcall(calls[name], with(wrong, 1))
        assert.is_false(ok, name .. " accepted '" .. wrong .. "'")
        err = tostring(err)
        assert.truthy(err:find("unknown option '" .. wrong .. "'", 1, true), err)
        -- named by the function called (a legend entry is an option of strata.xymap.parse)
        local fn = name:gsub(" legend entry$", "")
        assert.truthy(err:find(fn .. ": ", 1, true), err)
        local near = err:match("%(nearest known: ([^)]*)%)")
        assert.is_not_nil(near, err)
        local listed = false
        for k in near:gmatch("[^, ]+") do listed = listed or k == key end
        assert.is_true(listed, ("%s: '%s' should suggest '%s': %s"):format(name, wrong, key, err))
      end
    end)
  end
end)

describe("strict data entries", function()
  -- The base types as the base mod declares them, in a registry of their own.
  local reg = data.new()
  for id, t in pairs(support.registry(w).types) do
    reg.types[id] = t
    reg.by_type[id] = {}
  end
  local base_types = {}
  for id, t in pairs(support.registry(w).types) do
    if t.mod == "base" and id ~= "base.type" then base_types[#base_types + 1] = id end
  end
  table.sort(base_types)

  -- Required values a type's check wants more of than their type says.
  local VALID = { ["base.legend"] = { kind = "node" } }

  -- The smallest valid entry of a type: its required fields filled in.
  local function minimal(type_id)
    local e = { _type = type_id, _id = "x" }
    for name, f in pairs(reg.types[type_id].fields) do
      if f.required then
        local t = f.ref and "string" or (type(f.type) == "table" and f.type[1] or f.type)
        e[name] = (VALID[type_id] or {})[name] or ({ string = "s", ["function"] = function() end, integer = 1,
          number = 1, boolean = true, table = {}, any = "s" })[t]
      end
    end
    return e
  end

  it("only base.prototype keeps free-form fields (Evennia prototypes carry any attribute)", function()
    local open = {}
    for _, id in ipairs(base_types) do if reg.types[id].open then open[#open + 1] = id end end
    assert.same({ "base.prototype" }, open)
  end)

  for _, type_id in ipairs(base_types) do
    it(type_id .. ": a misspelt field is an error naming the nearest known fields", function()
      assert.equal("spec.x", reg:add("spec", minimal(type_id)))
      if reg.types[type_id].open then return end
      local fields = {}
      for name in pairs(reg.types[type_id].fields) do fields[#fields + 1] = name end
      table.sort(fields)
      for _, field in ipairs(fields) do
        local e = minimal(type_id)
        local wrong = misspell(field, fields)
        e[wrong] = 1
        local ok, err = pcall(reg.add, reg, "spec", e)
        assert.is_false(ok, type_id .. " accepted '" .. wrong .. "'")
        assert.truthy(tostring(err):find("unknown field '" .. wrong .. "'", 1, true), err)
        assert.truthy(tostring(err):find("nearest known: [^)]*" .. field:gsub("%p", "%%%0")), err)
      end
    end)
  end

  it("nested tables of the base types are checked too", function()
    local ok, err = pcall(reg.add, reg, "spec", { _type = "base.map_archetype", _id = "y",
      renew = { restock_evry = 10 } })
    assert.is_false(ok)
    assert.matches("unknown key 'renew.restock_evry' %(nearest known: restock_every", err)
    ok, err = pcall(reg.add, reg, "spec", { _type = "base.grid_map", _id = "y", z = 1, map = "+ 0\n\n0 #\n\n+ 0",
      options = { map_visual_rang = 2 } })
    assert.is_false(ok)
    assert.matches("map_visual_range", err)
  end)

  it("a mod's misspelt field stops the world from loading, naming the entry", function()
    local dir = os.tmpname()
    os.remove(dir)
    os.execute("mkdir -p " .. dir .. "/typo")
    local f = io.open(dir .. "/typo/mod.lua", "w")
    f:write('return { id = "typo", version = "1.0.0", requires = { base = "*" } }')
    f:close()
    f = io.open(dir .. "/typo/init.lua", "w")
    f:write('data:add{ _type = "base.map_archetype", _id = "cave", propertes = { dark = true } }')
    f:close()
    local ok, err = pcall(strata.world.new, { mods = { "typo" }, mod_path = { "mods", dir } })
    os.execute("rm -rf " .. dir)
    assert.is_false(ok)
    assert.matches("base.map_archetype typo.cave: unknown field 'propertes' %(nearest known: properties", err)
  end)
end)

describe("nearest known names", function()
  -- One rule for the core, the binding and the Lua layer: options.nearest is
  -- the core's strata_nearest (the cases are spec/c/test_util.c's).
  local cases = {
    { "nmae", { "name", "desc", "clear", "props" }, { "name", "clear", "desc" } },
    { "crypt.gobiln", { "crypt.rat", "crypt.goblin", "base.floor", "crypt.gob" },
      { "crypt.goblin", "crypt.gob", "base.floor" } },
    { "x", { "name", "desc", "clear", "props" }, { "desc", "name", "clear" } },
    { "", { "b", "a", "c", "d" }, { "a", "b", "c" } },
  }

  it("options.nearest ranks as strata.core.nearest does", function()
    local core = require "strata.core"
    assert.is_function(core.nearest)
    for _, c in ipairs(cases) do
      assert.same(c[3], core.nearest(c[1], c[2]))
      assert.same(c[3], options.nearest(c[1], c[2]))
    end
    assert.equal(" (nearest known: name, clear, desc)", options.suggest("nmae", cases[1][2]))
    assert.equal("", options.suggest("nmae", {}))
  end)

  it("refuses a list that holds other than strings, naming the function", function()
    local ok, err = pcall(options.nearest, "a", { "b", 3 })
    assert.is_false(ok)
    assert.matches("strata.options.nearest: known%[2%] is a number, not a string", err)
  end)
end)

describe("options tables are read raw (the border rule)", function()
  it("a caller's __pairs and __index never run, and what is read is what was checked", function()
    local w = strata.world.new{ seed = 1 }
    local ran = 0
    local opts = setmetatable({ kind = "thing" }, {
      __pairs = function() ran = ran + 1; return next, {}, nil end,
      __index = function(_, k) ran = ran + 1; if k == "props" then return { evil = true } end end })
    local o = w:create_object(opts)
    local a = w:create_actor{}
    w:add_turns(a, setmetatable({}, { __index = function() ran = ran + 1; return 1e-9 end }))
    assert.equal(0, ran)
    assert.equal("thing", o.kind)
    assert.is_nil(o.props.evil)
    assert.near(1, w:turn_info(a).speed, 0)
  end)

  it("find_path's cost function is read raw: one behind __index is never asked", function()
    local m = strata.tilemap.new{ width = 4, height = 1, fill = "floor" }
    local asked = 0
    local opts = setmetatable({}, { __index = function(_, k)
      if k == "cost" then return function() asked = asked + 1; return 1 end end
    end })
    assert(m:find_path({ 0, 0 }, { 3, 0 }, opts))
    assert.equal(0, asked)
  end)

  it("an unknown key behind __pairs is still refused", function()
    local w = strata.world.new{ seed = 1 }
    local opts = setmetatable({ kind = "thing", kidn = 1 }, { __pairs = function() return next, { kind = "x" }, nil end })
    assert.error_matches(function() w:create_object(opts) end, "unknown option 'kidn'")
  end)
end)
