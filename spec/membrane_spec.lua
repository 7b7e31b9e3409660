-- The border between mod code and the host (docs/sandbox.md, "What crosses
-- the border"): every kind of callback returns every kind of hostile value,
-- each case in a child process under a time and memory limit (timeout,
-- prlimit), and the host reads what came back as any host would (fields,
-- length, pairs, ==). None may hang or crash the host; an error names the
-- callback; and the host keeps no table of the mod's (the mod changes the
-- table it returned afterwards, and the host sees nothing of it). Then the
-- world still saves and opens. Also: one depth limit for what is set, saved
-- and opened.
local strata = require "strata"
local support = require "support"

local LUA_PATH, LUA_CPATH = os.getenv("LUA_PATH") or "", os.getenv("LUA_CPATH") or ""
local sh_quote, write = support.q, support.write

-- ---- the hostile values -------------------------------------------------------------------
local LOOP = "function() while true do end end"
local VALUES = {
  { "a looping __index", "setmetatable({}, { __index = " .. LOOP .. " })" },
  { "a looping __pairs", "setmetatable({}, { __pairs = " .. LOOP .. " })" },
  { "a looping __len", "setmetatable({ 1 }, { __len = " .. LOOP .. " })" },
  { "a looping __eq", "setmetatable({}, { __eq = " .. LOOP .. " })" },
  { "a table 10 deep", "DEEP(10)" },
  { "a table 64 deep", "DEEP(64)" },
  { "a table 200 deep", "DEEP(200)" },
  { "a 100 MB string", "('x'):rep(100 * 1024 * 1024)" },
  { "a handle of another world", "FOREIGN" },
  { "NaN", "0 / 0" },
  { "infinity", "math.huge" },
  { "a function", "function() return 1 end" },
  { "a coroutine", "coroutine.create(function() end)" },
  { "a userdata", "strata.tilemap.new{ width = 2, height = 2 }" },
}

-- ---- the callbacks --------------------------------------------------------------------------
-- Each: the mod's definitions (V() gives the hostile value, and keeps it in
-- KEEP), the host's action (returns what came back to the host, if
-- anything), and the name its errors carry (one of: a value made in init.lua
-- may stop init.lua itself).
local KINDS = {
  { "an area generator", name = "m%.g", init = [[
    data:add{ _type = "base.area_generator", _id = "g", generate_floor = function() return V() end }
    data:add{ _type = "base.area_archetype", _id = "a", generator = "m.g" }]],
    host = [[return w:create_area("m.a"):floor(1)]] },
  { "a map archetype's generate", name = "m%.ma", init = [[
    data:add{ _type = "base.map_archetype", _id = "ma", generate = function() return V() end }
    data:add{ _type = "base.area_archetype", _id = "a", floors = { [1] = "m.ma" } }]],
    host = [[return w:create_area("m.a"):floor(1)]] },
  { "a room generator", name = "m%.r", init = [[
    data:add{ _type = "base.room_generator", _id = "r", generate = function() return V() end }
    data:add{ _type = "base.branch_archetype", _id = "b", room_generator = "m.r" }]],
    host = [[
    local hub = w:create_room{ name = "Hub" }
    w.branches:make_start(hub, { north = "m.b" })
    local a = w:create_actor{ room = hub }
    w:go(a, "north")
    return a.room.name]] },
  { "a starting_pos", name = "m%.sp", init = [[
    data:add{ _type = "base.map_archetype", _id = "sp", starting_pos = function() return V() end }]],
    host = [[
    local m = w:create_map{ width = 4, height = 4, fill = "floor", archetype = "m.sp" }
    local hero = w:create_actor{}
    w:travel(hero, m)
    return { hero.x, hero.y }]] },
  { "a map archetype's on_enter", name = "m%.oe", init = [[
    data:add{ _type = "base.map_archetype", _id = "oe", on_enter = function() return V() end }]],
    host = [[
    w:travel(w:create_actor{}, w:create_map{ width = 4, height = 4, fill = "floor", archetype = "m.oe" })]] },
  { "an event handler, to the host's emit", name = "m: ev", init = [[
    events:register("m.ev", "m: ev", function() return V() end)]],
    host = [[return w:emit("m.ev", {}, {})]] },
  { "an event handler, to an emit of the core", name = "m: entered", init = [[
    events:register("base.map_entered", "m: entered", function() return V() end)]],
    host = [[w:travel(w:create_actor{}, w:create_map{ width = 4, height = 4, fill = "floor" })]] },
  { "an event handler, into its params", name = "m: plant", init = [[
    events:register("m.ev", "m: plant", function(_, params)
      local v = V()
      params.v = v
      if type(v) == "table" then setmetatable(params, getmetatable(v)) end
    end)]],
    host = [[local params = { x = 1 } w:emit("m.ev", params) return params]] },
  { "a timer handler", name = "m%.h", init = [[
    data:add{ _type = "base.handler", _id = "h", run = function() return V() end }]],
    host = [[w:schedule{ after = 1, handler = "m.h" } return w:advance(2)]] },
  { "a timer handler, into state and timer args", name = "m%.h", init = [[
    data:add{ _type = "base.handler", _id = "h", run = function(world)
      local v = V()
      world:create_object{ kind = "x" }.state.v = v
      world:schedule{ after = 10, handler = "m.h", args = { v = v } }
    end }]],
    host = [[w:schedule{ after = 1, handler = "m.h" } return w:advance(2)]] },
  { "a data:patch", name = { "m%.pa", "patch 'p' of mod m" }, init = [[
    data:add{ _type = "base.map_archetype", _id = "pa", properties = {} }
    data:patch("base.map_archetype", "m.pa", "p", function(e) e.properties = { v = V() } end)]],
    host = [[
    w:create_map{ width = 2, height = 2, archetype = "m.pa" }
    return w.data["base.map_archetype"]:get("m.pa")]] },
  { "a type's check", name = { "m%.t", "mod m init%.lua" }, init = [[
    data:add_type{ _id = "t", check = function() return V() end }
    data:add{ _type = "m.t", _id = "e" }]],
    host = [[return w.data["m.t"]:get("m.e")]] },
  { "a type's schema", name = { "m%.t", "mod m init%.lua" }, init = [[
    data:add_type{ _id = "t", fields = { f = V() } }
    data:add{ _type = "m.t", _id = "e" }]],
    host = [[return require("support").registry(w).types["m.t"].fields]] },
  { "a layout mapping", name = { "m%.lm", "mod m init%.lua" }, init = [[
    data:add{ _type = "base.layout_mapping", _id = "lm", tokens = { floor = { { "a", V() } } } }]],
    host = [[return strata.layout.mapping("m.lm", { world = w })]] },
}

local COMMON = [[
local function DEEP(n) local t = { leaf = 1 } for _ = 1, n do t = { x = t } end return t end
local function V() local v = (HOSTILE) KEEP = v return v end
data:add{ _type = "base.event", _id = "give" }
data:add{ _type = "base.event", _id = "mutate" }
data:add{ _type = "base.event", _id = "ev" }
events:register("m.give", "m: give", function(_, p) FOREIGN = p.h end)
-- afterwards: the table the mod handed over, changed
events:register("m.mutate", "m: mutate", function()
  if type(KEEP) == "table" then pcall(rawset, KEEP, "mutated", true) end -- (strata's objects refuse)
end)
]]

-- The child: a world with mod m, the host's action, what came back read as
-- a host reads, the mod's change looked for, the world saved and opened.
local DRIVER = [==[
local strata = require "strata"
local dir = arg[1]
local function say(...) io.write(table.concat({ ... }, " "), "\n") io.flush() end
local function short(s) s = tostring(s):gsub("\n", " | ") return #s > 300 and s:sub(1, 300) .. "..." or s end
local ok, w = pcall(strata.world.new, { seed = 1, mods = { "base", "m" }, mod_path = { dir } })
if not ok then say("ERR", short(w)) say("DONE") return end
require("support").only_handler(w, "base.handler_failed", function(_, f) say("ERR", f.handler, short(f.message)) end, "spec: failed")
local other = strata.world.new{ seed = 2 }
w:emit("m.give", { h = other:create_object{ kind = "elsewhere" } })
local action = assert(loadfile(dir .. "/host.lua"))
local okh, seen = pcall(action, w, strata)
if not okh then say("ERR", short(seen)) seen = nil end
if type(seen) == "table" and getmetatable(seen) == nil then
  for _, f in ipairs(seen) do if type(f) == "table" and f.message then say("ERR", f.handler, short(f.message)) end end
end
-- read as any host reads (a mod's metamethod would run here, outside any budget)
local function touch(v, depth)
  if type(v) ~= "table" or depth > 80 then return end
  local _ = v.x, v[1], #v, v == {}
  for _, x in pairs(v) do touch(x, depth + 1) end
end
touch(seen, 0)
w:emit("m.mutate", {})
local function kept(v, depth)
  if type(v) ~= "table" or depth > 80 then return false end
  if rawget(v, "mutated") ~= nil then return true end
  for _, x in next, v do if kept(x, depth + 1) then return true end end
  return false
end
if kept(seen, 0) then say("KEPT") end
w:save(dir .. "/w.db")
strata.world.open(dir .. "/w.db", { mod_path = { dir } })
say("DONE")
]==]

local function run_case(kind, value)
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. sh_quote(dir .. "/m")))
  write(dir .. "/m/mod.lua", 'return { id = "m", version = "1.0.0", requires = { base = "*" } }')
  write(dir .. "/m/init.lua", COMMON:gsub("HOSTILE", function() return value end) .. kind.init .. "\n")
  write(dir .. "/host.lua", "local w, strata = ...\n" .. kind.host .. "\n")
  write(dir .. "/driver.lua", DRIVER)
  local cmd = ("cd %s && LUA_PATH=%s LUA_CPATH=%s timeout 20 prlimit --as=4000000000 lua5.4 driver.lua %s 2>&1")
    :format(sh_quote(dir), sh_quote(LUA_PATH), sh_quote(LUA_CPATH), sh_quote(dir))
  local p = io.popen(cmd)
  local out = p:read("a")
  local _, _, code = p:close()
  os.execute("rm -rf " .. sh_quote(dir))
  return code, out
end

describe("the border, property: every callback returns every hostile value", function()
  for _, kind in ipairs(KINDS) do
    for _, v in ipairs(VALUES) do
      it(("%s returns %s"):format(kind[1], v[1]), function()
        local code, out = run_case(kind, v[2])
        assert(code == 0, ("exit %s (124: hung; 139: crashed):\n%s"):format(tostring(code), out))
        assert(out:find("DONE", 1, true), "the world did not save and open:\n" .. out)
        assert(not out:find("KEPT", 1, true), "the host kept the mod's table:\n" .. out)
        local names = type(kind.name) == "table" and kind.name or { kind.name }
        for line in out:gmatch("ERR[^\n]*") do
          local named = false
          for _, n in ipairs(names) do named = named or line:find(n) ~= nil end
          assert(named, ("an error that does not name the callback (/%s/):\n%s"):format(names[1], out))
        end
      end)
    end
  end
end)

-- ---- one depth limit ------------------------------------------------------------------------
local function deep(n) local t = 1 for _ = 1, n do t = { x = t } end return t end

describe("one depth limit for what is set, saved and opened", function()
  local path = os.tmpname()
  after_each(function() os.remove(path) end)

  it("the deepest value a path and its value allow saves and opens; one deeper is refused when set", function()
    local w = strata.world.new{ seed = 1 }
    local h = w:create_object{ kind = "x" }
    -- props (level 0) > state (1) > v (2) > 62 tables > a number at level 64
    h.state.v = deep(62)
    local err = select(2, pcall(function() h.state.w = deep(63) end))
    assert.matches("tables nested deeper than 64 levels", err)
    -- through persistent tables: a path of 63 keys, then a table
    local s = h.state
    for _ = 1, 62 do s.p = {} s = s.p end
    s.q = 1 -- level 64
    err = select(2, pcall(function() s.p = { 1 } end))
    assert.matches("tables nested deeper than 64 levels", err)
    -- timer args start at level 0
    w:schedule{ after = 10, handler = "base.map_renew", args = deep(64) }
    err = select(2, pcall(w.schedule, w, { after = 10, handler = "base.map_renew", args = deep(65) }))
    assert.matches("tables nested deeper than 64 levels", err)
    w:save(path, { overwrite = true })
    local again = strata.world.open(path)
    local o = again:object(h.uid)
    local v, depth = o.state.v, 0
    while type(v) == "table" do v, depth = v.x, depth + 1 end
    assert.equal(62, depth)
    assert.equal(1, v)
  end)

  it("a handle of another world is not stored as a uid of this one", function()
    local a, b = strata.world.new{ seed = 1 }, strata.world.new{ seed = 1 }
    local ha = a:create_object{ kind = "x" }
    local hb = b:create_object{ kind = "x" }
    assert.equal(ha.uid, hb.uid)
    local err = select(2, pcall(function() ha.state.friend = hb end))
    assert.matches("cannot store a handle of another world", err)
    -- nor handed back to the host by a callback of world a
    local failed
    require("support").only_handler(a, "base.handler_failed", function(_, f) failed = f.message end, "spec: log")
    require("support").only_handler(a, "base.map_entered", function() return { h = hb } end, "spec: back")
    assert.is_nil(a:emit("base.map_entered", {}))
    assert.matches("'spec: back' of mod spec: result%.h: a handle of another world", failed)
    require("support").only_handler(a, "base.map_entered", function() return { h = ha } end, "spec: own")
    assert.equal(ha, a:emit("base.map_entered", {}).h)
  end)
end)
