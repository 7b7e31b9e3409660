-- Every public function is documented in docs/lua-api.md (issue 29: world:move
-- and tile walks existed only in the source). Public: reachable from
-- `require "strata"` (the module table, recursively) or a method of a value
-- strata gives (worlds, handles of every kind, tile maps, paths, streams ...),
-- its name not starting with "_".
--
-- The rule: a function is documented when docs/lua-api.md writes a call of it,
-- its name followed at once by "(" or "{":
--   module functions by their full name, `strata.layout.run(`, or through a
--     local the document declares, `local L = strata.layout` then `L.run(`;
--   methods as `<kind>:<name>(`, the kind as the document calls such values
--     (`world:move(`, `map:find_path(`, `area:floor(`); a method every handle
--     has may be written `object:<name>(`.
-- Mentions without a call (`world:move` in a sentence) do not count, so every
-- function's page shows how it is called.
local strata = require "strata"

local root = os.getenv("STRATA_SOURCE_DIR") or "."
local f = assert(io.open(root .. "/docs/lua-api.md"))
local doc = f:read("a")
f:close()

-- `local X = strata.y` declarations: X.name( stands for strata.y.name(.
local aliases = {}
for alias, full in doc:gmatch("local ([%a_][%w_]*) = (strata[%w_.]*)") do
  aliases[full] = aliases[full] or {}
  table.insert(aliases[full], alias)
end

local function called(name)
  local at = 1
  while true do
    local i, j = doc:find(name, at, true)
    if not i then return false end
    local before, after = doc:sub(i - 1, i - 1), doc:sub(j + 1, j + 1)
    if (after == "(" or after == "{") and not before:match("[%w_.:]") then return true end
    at = j + 1
  end
end

local function module_documented(path)
  if called(path) then return true end
  local mod, name = path:match("^(.*)%.([^.]+)$")
  -- (a name that is a Lua keyword, strata.layout["and"], is called as a string key)
  if called(mod .. '["' .. name .. '"]') then return true end
  for _, alias in ipairs(aliases[mod] or {}) do
    if called(alias .. "." .. name) or called(alias .. '["' .. name .. '"]') then return true end
  end
  return false
end

local missing = {}
local function need(ok, name) if not ok then missing[name] = true end end

local function public(name) return type(name) == "string" and name:sub(1, 1) ~= "_" end

-- ---- the module table, recursively ---------------------------------------------------
local function walk(t, path, seen)
  if seen[t] then return end
  seen[t] = true
  local entries = {}
  for k, v in pairs(t) do entries[k] = v end
  -- Modules over a C table (strata.xymap over strata.core.xymap) offer its functions too.
  local mt = debug.getmetatable(t)
  if mt and type(mt.__index) == "table" then
    for k, v in pairs(mt.__index) do if entries[k] == nil then entries[k] = v end end
  end
  for k, v in pairs(entries) do
    if public(k) then
      local name = path .. "." .. k
      -- (tables but strata's own values, whose metatables are protected: modules)
      if type(v) == "function" then need(module_documented(name), name)
      elseif type(v) == "table" and type(getmetatable(v) or {}) == "table" then walk(v, name, seen) end
    end
  end
end

-- ---- methods of each kind of value ------------------------------------------------------
-- A value's methods: its metatable's `methods` (a table, or a function of
-- the value), else its __index table, else the metatable itself (whose
-- __index function looks methods up there); a plain table's own functions.
local function methods_of(v)
  local mt = debug.getmetatable(v)
  if type(v) == "table" and (mt == nil or mt.__index == nil) then return v end
  local m = mt.methods
  if type(m) == "function" then return m(v) end
  if type(m) == "table" then return m end
  if type(mt.__index) == "table" then return mt.__index end
  return mt
end

local function check_methods(v, kind, also)
  local methods = methods_of(v)
  assert.is_table(methods, "no methods found for " .. kind)
  local n = 0
  for name, fn in pairs(methods) do
    if public(name) and type(fn) == "function" then
      n = n + 1
      need(called(kind .. ":" .. name) or (also and called(also .. ":" .. name)), kind .. ":" .. name)
    end
  end
  return n
end

describe("docs/lua-api.md", function()
  before_each(function() missing = {} end)
  local function report()
    local names = {}
    for name in pairs(missing) do names[#names + 1] = name end
    table.sort(names)
    assert.same({}, names, "not documented in docs/lua-api.md (see the rule in api_documented_spec.lua)")
  end

  it("documents every function reachable from require 'strata'", function()
    walk(strata, "strata", {})
    report()
  end)

  it("documents the methods of every kind of value", function()
    local world = strata.world.new{ seed = 3, mods = { "base", "examples" } }
    local map = world:create_map{ width = 6, height = 4, fill = "floor" }
    local hero = world:create_actor{ map = map, x = 0, y = 0, player = true }
    local chest = world:create_object{ kind = "chest" }
    local area = world:create_area("examples.putit_paradise")
    local stairs = world:create_stairs(map, 1, 1, { floor_delta = 1 })
    local hub = world.data["base.handler"]:ensure("examples.well_setup").run(world)
    local walker = world:create_actor{ room = hub }
    assert(world:go(walker, "east"))
    local room, branch = walker.room, walker.room.branch
    local exit = room:exits()[1]
    local sub = hero:subscribe("base.map_entered", "base.walk_step")
    local plan = world:walk(hero, { 2, 2 })
    local tm = strata.tilemap.new{ width = 3, height = 3, fill = "floor" }
    local xy = strata.xymap.parse("+ 0 1\n\n0 #-#\n\n+ 0 1")
    local grid = strata.xymap.grid()

    -- Handles: each kind's methods (the common ones, the kind's own).
    local handles = { map = map, actor = hero, chest = chest, area = area, feature = stairs, room = room,
      exit = exit, branch = branch }
    for kind, h in pairs(handles) do
      assert.equal(kind, h.kind)
      check_methods(h, kind, "object")
    end
    -- Values strata gives, as the document calls them. C types carry the
    -- name their errors use (the metatable's `public`): the same one.
    local values = {
      world = world, stream = world.rng:stream("doc"), ["world.rng"] = world.rng, ["world.grid"] = world.grid,
      ["world.branches"] = world.branches, ["world.data[type]"] = world.data["base.token"],
      sub = sub, plan = plan,
      map = tm, path = tm:find_path({ 0, 0 }, { 2, 2 }), distmap = tm:distance_map({ { 0, 0 } }), tokens = strata.tokens.new(), rng = strata.rng.new(1),
      xy = xy, grid = grid, generator = strata.layout.parse([[ Reset("floor") ]]), fov = tm:fov(0, 0),
    }
    for kind, v in pairs(values) do
      local mt = debug.getmetatable(v)
      if type(v) == "userdata" then assert.equal(kind, mt.public) end
      check_methods(v, kind)
    end
    report()
  end)

  -- world:run_realtime's handle needs luv's loop, which a spec file cannot
  -- load in-process without breaking a later file's (busted unloads modules
  -- between files, and luv's loop goes with its module): its one method by name.
  it("documents the handle of world:run_realtime", function()
    assert.is_true(called("realtime:stop"))
    assert.is_true(called("realtime:sync"))
  end)

  it("documents world:move and tile walks (issue 29)", function()
    assert.is_true(called("world:move"))
    assert.is_true(called("world:walk"))
    assert.truthy(doc:find("world:walk(actor, { x, y }", 1, true))
  end)
end)
