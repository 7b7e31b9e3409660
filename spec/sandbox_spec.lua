-- The sandbox, tried as an attacker would: each attack is a few lines in a
-- mod's init.lua or in one of its handlers, run in a child process under a
-- time and memory limit (timeout, prlimit). Each must end in a clear error or
-- do no harm; none may hang, crash, or touch a file outside its test folder;
-- and the host's own world, made before the attack, must still save and open.
local LUA_PATH, LUA_CPATH = os.getenv("LUA_PATH") or "", os.getenv("LUA_CPATH") or ""
local SOURCE = os.getenv("STRATA_SOURCE_DIR") or os.getenv("PWD") or "."

local function sh_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() return true end
  return false
end

-- The driver the child runs: a host world first, then the attack's world
-- (mods base + evil), its handler run by a timer, then the host's checks.
local DRIVER = [==[
local strata = require "strata"
local dir = arg[1]
-- A test of one limit sets the other out of reach (arg[2]: the CPU budget):
-- which of two limits a machine reaches first is a race.
if arg[2] then strata.mods.budget_ms = tonumber(arg[2]) end
local function say(...) io.write(table.concat({ ... }, " "), "\n") io.flush() end
local host = strata.world.new{ seed = 3 }
local m = host:create_map{ width = 4, height = 4, fill = "floor" }
host:create_actor{ map = m, x = 1, y = 1, props = { hp = 5 } }
math.randomseed(99)
local host_random = { math.random(1000), math.random(1000) }
math.randomseed(99)
local ok, w = pcall(strata.world.new, { seed = 1, mods = { "base", "evil" }, mod_path = { dir } })
if not ok then
  say("INIT", tostring(w))
else
  say("INIT ok")
  local okh, failures = pcall(function()
    w:schedule{ after = 1, handler = "evil.attack" }
    return w:advance(2)
  end)
  if not okh then say("HANDLER raised", tostring(failures))
  elseif #failures == 0 then say("HANDLER ok")
  else for _, f in ipairs(failures) do say("HANDLER", f.message) end end
  local params = {}
  local okx, result = pcall(function() return w:emit("base.map_entered", params) end)
  if not okx then say("EMIT", tostring(result)) end
  -- host.lua (the attack's `after`): what the host does next with what came back
  local hostcode = loadfile(dir .. "/host.lua")
  if hostcode then
    local okc, e = pcall(hostcode, w, params, okx and result or nil, dir, strata)
    say("HOSTCODE", okc and "ok" or tostring(e))
  end
end
-- the host: its own world, its random numbers, its string library
assert(math.random(1000) == host_random[1] and math.random(1000) == host_random[2], "host math.random changed")
assert(("host"):find("o") == 2 and string.rep("ab", 2) == "abab", "host string library changed")
collectgarbage()
host:save(dir .. "/host.db")
local again = strata.world.open(dir .. "/host.db")
assert(#again:objects() == 2 and again:objects()[2].props.hp == 5)
say("HOST ok")
]==]

local n_attacks = 0

-- attack{ name, init = code, handler = code, expect = pattern | nil (harmless),
--         memory = true (a test of the memory limit: the CPU budget set out of reach),
--         victim = true (the code may name VICTIM, which must not appear),
--         secret = text that must not show up in the output (DIR: the test's folder),
--         host = code the host runs first, before require "strata" (VICTIM too),
--         after = code the host runs after the emit, as host.lua(w, params, result, dir, strata) }
local function attack(a)
  n_attacks = n_attacks + 1
  it(a[1], function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir -p " .. sh_quote(dir .. "/evil")))
    local victim = dir .. ".victim"
    os.remove(victim)
    local function fill(code) return (code or ""):gsub("VICTIM", ("%q"):format(victim)) end
    if a.victim then
      -- another mod, loaded first: what it owns must stay its own
      assert(os.execute("mkdir -p " .. sh_quote(dir .. "/victim")))
      write(dir .. "/victim/mod.lua", 'return { id = "victim", version = "1.0.0", requires = { base = "*" } }')
      write(dir .. "/victim/init.lua", a.victim)
      write(dir .. "/evil/mod.lua", 'return { id = "evil", version = "1.0.0", requires = { base = "*", victim = "*" } }')
    else
      write(dir .. "/evil/mod.lua", 'return { id = "evil", version = "1.0.0", requires = { base = "*" } }')
    end
    write(dir .. "/evil/init.lua", fill(a.init) .. "\n" ..
      'data:add{ _type = "base.handler", _id = "attack", run = function(world, params, args)\n' ..
      fill(a.handler) .. "\nend }\n" ..
      'data:add{ _type = "base.handler", _id = "noop", run = function() end }\n')
    write(dir .. "/evil/notes.txt", "a note of the mod's own\n")
    if a.shell then assert(os.execute("cd " .. sh_quote(dir .. "/evil") .. " && " .. a.shell)) end
    write(dir .. "/driver.lua", fill(a.host) .. "\n" .. DRIVER)
    if a.after then write(dir .. "/host.lua", "local w, params, result, dir, strata = ...\n" .. a.after) end
    local cmd = ("cd %s && LUA_PATH=%s LUA_CPATH=%s timeout 20 prlimit --as=4000000000 lua5.4 driver.lua %s %s 2>&1")
      :format(sh_quote(dir), sh_quote(LUA_PATH), sh_quote(LUA_CPATH), sh_quote(dir), a.memory and "3600000" or "")
    local p = io.popen(cmd)
    local out = p:read("a")
    local _, _, code = p:close()
    os.execute("rm -rf " .. sh_quote(dir))
    assert(code == 0, ("exit %s (124: hung; 139: crashed):\n%s"):format(tostring(code), out))
    assert(out:find("HOST ok", 1, true), "the host's world did not save and open:\n" .. out)
    assert(not exists(victim), "a file outside the test's folder was written: " .. victim)
    os.remove(victim)
    if a.expect then
      assert(out:find(a.expect), ("expected /%s/ in:\n%s"):format(a.expect, out))
    end
    if a.secret then assert(not out:find((a.secret:gsub("DIR", function() return dir end)), 1, true), "leaked: " .. out) end
    assert(not out:find("Segmentation", 1, true))
  end)
end

describe("the sandbox, attacked", function()
  -- ---- files anywhere ---------------------------------------------------------------
  attack{ "world:save from a handler writes nothing", handler = "world:save(VICTIM)",
    expect = "world:save belongs to the host" }
  attack{ "a world made in init.lua to save elsewhere", init = "strata.world.new{}:save(VICTIM)",
    expect = "INIT .*attempt to index a nil value %(field 'world'%)" }
  attack{ "strata.world.open of any path", init = "strata.world.open('/etc/passwd')",
    expect = "INIT .*field 'world'" }
  attack{ "strata.layout.glyphs('/etc/passwd') does not quote the file",
    init = "strata.layout.glyphs('/etc/passwd')", expect = "strata.layout.glyphs: glyphs:1: expected", secret = "root:" }
  attack{ "strata.layout.parse_file of a path", init = "strata.layout.parse_file('/etc/passwd')",
    expect = "strata.layout.parse_file: layouts:1:1: expected", secret = "root:" }
  attack{ "strata.layout.mappings of a path", init = "strata.layout.mappings('/etc/hostname')",
    expect = "strata.layout.mappings: mappings:1: expected" }
  attack{ "internals from a handler: world._mods", handler = "local m = world._mods[1]",
    expect = "attempt to index a nil value %(field '_mods'%)" }
  attack{ "internals from a handle: _world, _s", handler = [[
    local h = world:create_object{ kind = "thing" }
    assert(h._world == nil and world._s == nil and world._registry == nil and world._tilemaps == nil)
    assert(next(h) == nil)
    error("no internals")]], expect = "no internals" }
  attack{ "require outside the mod's folder", init = "require('..evil.init')",
    expect = "may require only their own files" }
  -- mod:load and require take "/"-separated names too: none of them leaves the folder
  -- (driver.lua, one folder up, is the file an escape would run)
  attack{ "mod:load of a /-path up out of the folder", init = "mod:load('../driver')",
    expect = "mod:load: '../driver' is not a relative path inside the mod" }
  attack{ "require of a /-path going down and back up out", init = "require('lib/../../driver')",
    expect = "require: 'lib/../../driver' is not a relative path inside the mod" }
  attack{ "mod:load of an absolute /-path", init = "mod:load('/etc/passwd')",
    expect = "not a relative path inside the mod", secret = "root:" }
  attack{ "require through a link to the folder above", shell = "ln -s .. up", init = "require('up/driver')",
    expect = "require: mod evil has no file 'up/driver' %(it leads outside the mod's folder" }
  attack{ "mod:read with ..", init = "mod:read('../driver.lua')", expect = "not a relative path inside the mod" }
  attack{ "mod:read of an absolute path", init = "mod:read('/etc/passwd')",
    expect = "not a relative path inside the mod", secret = "root:" }
  attack{ "mod:read with a NUL", init = "mod:read('notes.txt\\0.lua')", expect = "not a relative path" }
  attack{ "mod:read of its own file works", init = "assert(mod:read('notes.txt'):find('own'))",
    expect = "INIT ok" }
  attack{ "a link in the mod's folder to a file outside", shell = "ln -s /etc/passwd passwd.txt",
    init = "mod:read('passwd.txt')", expect = "it leads outside the mod's folder", secret = "root:" }
  attack{ "a link to a device", shell = "ln -s /dev/zero zero.lua", init = "require('zero')",
    expect = "leads outside the mod's folder" }
  attack{ "a FIFO in the mod's folder", shell = "mkfifo pipe.txt", init = "mod:read('pipe.txt')",
    expect = "not a regular file" }
  attack{ "init.lua itself a link out", shell = "rm init.lua && ln -s /etc/passwd init.lua",
    expect = "init.lua: it leads outside", secret = "root:" }
  attack{ "io, os.remove, dofile, loadfile, package.loadlib", init = [[
    for _, f in ipairs{ function() io.open(VICTIM, "w") end, function() os.remove("/tmp") end,
      function() dofile("/etc/passwd") end, function() loadfile("/etc/passwd") end,
      function() package.loadlib("libc.so.6", "*") end, function() os.execute("touch " .. VICTIM) end } do
      assert(not pcall(f))
    end]], expect = "INIT ok" }
  attack{ "binary chunks", init = "load(string.dump(function() end))", expect = "string.dump is not available" }

  -- ---- the budget -------------------------------------------------------------------
  attack{ "strata.mods.budget = math.huge", init = "strata.mods.budget = math.huge",
    expect = "field 'mods'" }
  attack{ "replacing strata's functions in the mod's strata", init = "strata.layout.run = print",
    expect = "strata.layout is read%-only" }
  attack{ "a budget error caught by pcall, in a loop", handler = "while true do pcall(function() while true do end end) end",
    expect = "evil.attack: stopped, budget exceeded" }
  attack{ "pcall(pcall, ...) and xpcall with a looping message handler", handler = [[
    while true do pcall(pcall, function() while true do end end)
      xpcall(function() while true do end end, function() while true do end end) end]],
    expect = "stopped, budget exceeded" }
  attack{ "a fresh budget per nested call: emit in a loop", init = [[
    events:register("base.map_entered", "evil: spin", function() while true do end end)]],
    handler = "while true do world:emit('base.map_entered', {}) end",
    expect = "HANDLER evil.attack: stopped, budget exceeded" }
  attack{ "a budget error caught by a tail-called pcall", handler = "return pcall(function() while true do end end)",
    expect = "evil.attack: stopped, budget exceeded" }
  attack{ "a loop in a coroutine", handler = "coroutine.wrap(function() while true do end end)()",
    expect = "stopped, budget exceeded" }
  attack{ "a coroutine resumed in a loop that swallows errors", handler = [[
    while true do coroutine.resume(coroutine.create(function() while true do end end)) end]],
    expect = "stopped, budget exceeded" }
  attack{ "a loop in __close", handler = [[
    do local x <close> = setmetatable({}, { __close = function() while true do end end }) error("x") end]],
    expect = "stopped, budget exceeded" }
  attack{ "a yield out of a callback", handler = "coroutine.yield(1)", expect = "callbacks may not yield" }

  -- ---- work and memory inside one C call --------------------------------------------
  attack{ "a catastrophic pattern in string.find",
    handler = "string.find(string.rep('a', 40000), '.-.-.-.-.-b')", expect = "stopped, budget exceeded" }
  attack{ "a catastrophic pattern through the string metatable",
    handler = "local s = ('a'):rep(40000) s:match('(.-)(.-)(.-)(.-)$x')", expect = "stopped, budget exceeded" }
  attack{ "a long plain search", handler = [[
    local s = ("a"):rep(20000000) local p = ("a"):rep(100000) .. "b"
    for i = 1, 100 do s:find(p, 1, true) end]], expect = "stopped, budget exceeded" }
  attack{ "a layout whose macro expansion never ends (a fuzzing find)",
    shell = "cp " .. SOURCE .. "/spec/fuzz/corpus/layout/known-expansion-hang.txt hang.txt",
    handler = "strata.layout.parse_file(mod:read('hang.txt'), 'hang')", expect = "macro expansion too large at Margin" }
  -- No hook runs inside C: what stops this is that strata's C allocations fail once the
  -- budget is spent (bindings/lua/guard.c); without that it runs for hours.
  attack{ "a layout that repeats its work a million times, all in C", handler = [[
    local g = strata.layout.parse('Repeat({1000000 1000001}, { Reset("rock") ' ..
      'Connect(On("rock"), (1, On("rock"), Reset("floor"))) })')
    strata.layout.run(g, strata.tilemap.new{ width = 60, height = 60 }, { seed = 1 })]],
    expect = "stopped, budget exceeded" }
  attack{ "string.rep with a separator", handler = "string.rep('', 1e9, 'x')", expect = "memory limit exceeded",
    memory = true }
  attack{ "table.concat of 480 MB", handler = [[
    local t = {} for i = 1, 30 do t[i] = ("x"):rep(1 << 24) end
    local big = table.concat(t) .. table.concat(t)]], expect = "memory limit exceeded", memory = true }
  attack{ "six 8000x8000 tile maps", handler = [[
    local maps = {} for i = 1, 6 do maps[i] = strata.tilemap.new{ width = 8000, height = 8000 } end]],
    expect = "out of memory", memory = true }
  attack{ "world maps of 8000x8000", handler = [[
    for i = 1, 6 do world:create_map{ width = 8000, height = 8000 } end]], expect = "out of memory", memory = true }
  attack{ "rng:shuffle of a table whose __len lies", handler = [[
    local t = setmetatable({ 1, 2, 3 }, { __len = function() return math.maxinteger end })
    strata.rng.new(1):shuffle(t) strata.rng.new(1):pick(t) world.rng:stream("x"):shuffle(t)]], expect = "HANDLER ok" }
  attack{ "a table grown without end", handler = "local t = {} for i = 1, math.huge do t[i] = i end",
    expect = "stopped" }
  attack{ "memory in a coroutine", handler = [[
    coroutine.wrap(function() local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(1000) .. i end end)()]],
    expect = "stopped" }

  -- ---- finalizers and error objects -------------------------------------------------
  attack{ "__gc on a strata type's metatable", handler = [[
    local mt = getmetatable(strata.tilemap.new{ width = 2, height = 2 })
    assert(type(mt) == "string") mt.__gc = function() while true do end end]],
    expect = "attempt to index a string value" }
  attack{ "__gc on a handle's metatable", handler = [[
    getmetatable(world:create_object{ kind = "x" }).__gc = function() while true do end end]],
    expect = "attempt to index a string value" }
  attack{ "a finalizer of its own", init = "setmetatable({}, { __gc = function() while true do end end })",
    expect = "__gc finalizers are not available" }
  attack{ "__gc added after setmetatable never runs", init = [[
    local mt = {} _G.keep = setmetatable({}, mt) mt.__gc = function() while true do end end]],
    expect = "INIT ok" }
  attack{ "an error object whose __tostring loops, from init.lua",
    init = "error(setmetatable({}, { __tostring = function() while true do end end }))",
    expect = "raised a table value" }
  attack{ "an error object whose __tostring loops, from a handler",
    handler = "error(setmetatable({}, { __tostring = function() while true do end end }))",
    expect = "raised a table value" }
  attack{ "a huge error message", handler = "error(('x'):rep(50000000))", expect = "message cut" }

  -- ---- no crash from Lua ------------------------------------------------------------
  attack{ "a table posing as a persistent table", handler = [[
    local h = world:create_object{ kind = "x" }
    h.state.x = setmetatable({}, { __strata_proxy = true, __snapshot = function() return 5 end })]],
    expect = "cannot store a table with a metatable" }
  attack{ "a table posing as a handle", handler = [[
    world:create_object{ kind = "x" }.state.x = setmetatable({ uid = 1 }, { __strata_handle = true })]],
    expect = "cannot store a table with a metatable" }
  attack{ "a strata type's __gc called by hand", handler = [[
    local m = strata.tilemap.new{ width = 2, height = 2 }
    getmetatable(m).__gc(m) m:set(0, 0, "wall")]], expect = "attempt to call a nil value %(field '__gc'%)" }
  attack{ "a tile map used after close", handler = [[
    local m = strata.tilemap.new{ width = 2, height = 2 } m:close() m:set(0, 0, "wall")]],
    expect = "the map was closed" }
  attack{ "a map used after its world object is deleted", handler = [[
    local map = world:create_map{ width = 3, height = 3, fill = "floor" }
    local same = map:set(0, 0, "wall")
    assert(same == map, "a tile edit returns the handle, not the world's tile map")
    map:delete() map:set(1, 1, "wall")]], expect = "was deleted" }
  attack{ "an XY map closed while a grid uses it", handler = [[
    local g = strata.xymap.grid()
    do local m <close> = strata.xymap.parse("+ 0 1\n\n1 #-#\n  | \n0 #-#\n\n+ 0 1\n") g:add(m) end]],
    expect = "the map is in a grid" }
  attack{ "rawset on a handle", handler = [[
    local h = world:create_object{ kind = "x" } rawset(h, "uid", 1)]], expect = "cannot be changed with rawset" }
  attack{ "assigning a handle's uid", handler = [[
    local h = world:create_object{ kind = "x" } h.uid = 1]], expect = "cannot set field 'uid'" }
  attack{ "setmetatable on a handle", handler = [[
    setmetatable(world:create_object{ kind = "x" }, nil)]], expect = "protected metatable" }
  attack{ "deep recursion", handler = "local function f() return 1 + f() end f()", expect = "stack overflow" }

  -- ---- one mod against the host or another mod -------------------------------------
  attack{ "replacing save in the world's metatable", handler = [[
    local mt = getmetatable(world) mt.save = function() end]], expect = "attempt to index a string value" }
  attack{ "replacing a method through the world view", handler = "world.advance = print",
    expect = "world: cannot set field 'advance'" }
  attack{ "another mod's event handler name", victim = [[
    events:register("base.map_entered", "greeter", function() end)]], init = [[
    events:register("base.map_entered", "greeter", function() error("hijacked") end)]],
    expect = "handler 'greeter' of base.map_entered belongs to mod victim" }
  attack{ "another mod's entries, patched after loading", victim = [[
    data:add{ _type = "base.handler", _id = "hello", run = function() return "hello" end }]],
    handler = [[world.data["base.handler"]:get("victim.hello").run = print]], expect = "definitions are read%-only" }
  attack{ "a definition with a metatable the host would run", init = [[
    data:add{ _type = "base.map_archetype", _id = "trap",
      renew = setmetatable({}, { __index = function() while true do end end }) }]],
    expect = "holds a table with a metatable" }
  attack{ "a definition's table changed after loading", init = [[
    local props = { dark = true }
    data:add{ _type = "base.map_archetype", _id = "cave", properties = props }
    _G.later = props]], handler = [[
    later.dark = setmetatable({}, { __index = function() while true do end end })
    local a = world.data["base.map_archetype"]:get("evil.cave")
    assert(a.properties.dark == true, "the registry kept the mod's own table")
    error("kept a copy")]], expect = "kept a copy" }
  attack{ "a patch that never ends", init = [[
    data:patch("base.handler", "base.map_renew", "spin", function() while true do end end)]],
    expect = "patch 'spin' of mod evil: .*budget exceeded" }
  attack{ "the strata table handed out by pairs", init = [[
    local _, t = pairs(strata) if type(t) == "table" then t.layout = nil end
    local f = pairs(strata) assert(type(f) == "function")]], expect = "INIT ok" }
  attack{ "another mod's definitions", handler = [[
    world.data["base.handler"]:get("base.map_renew").run = function() end]],
    expect = "definitions are read%-only" }
  attack{ "world.rng rewired", handler = "world.rng.stream = print", expect = "world.rng is read%-only" }
  attack{ "a method of world.grid replaced through a mod's view", handler = "world.grid.spawn = print",
    expect = "world.grid is read%-only" }
  attack{ "world.branches from a mod: no field, no metatable, no way to the host world", init = [[
    local seen = {}
    data:add{ _type = "base.room_generator", _id = "cave", generate = function(ctx)
      seen.world = ctx.world
      assert(next(ctx.world) == nil and rawget(ctx.world, "_s") == nil, "the view has fields")
      assert(not pcall(function() return ctx.world:save(VICTIM) end), "a generator saved the world")
      return { name = "Cave " .. ctx.depth }
    end }
    data:add{ _type = "base.branch_archetype", _id = "cave", room_generator = "evil.cave" }
    SEEN = seen]], handler = [[
    local b = world.branches
    assert(b == world.branches, "one object per world")
    assert(getmetatable(b) == "strata.branches", "the metatable is reachable")
    assert(next(b) == nil and rawget(b, "_world") == nil, "world.branches has fields")
    assert(not pcall(rawset, b, "make_start", print), "rawset on world.branches")
    assert(not pcall(setmetatable, b, nil), "setmetatable on world.branches")
    local ok, e = pcall(function() b.make_start = print end)
    assert(not ok and tostring(e):find("world.branches is read%-only"), tostring(e))
    ok, e = pcall(b.make_start, {}, nil, { north = "evil.cave" })
    assert(not ok and tostring(e):find("call it as world.branches:make_start"), tostring(e))
    local hub = world:create_room{ name = "Hub" }
    local starts = b:make_start(hub, { north = "evil.cave" })
    local a = world:create_actor{ room = hub }
    assert(world:go(a, "north"))
    assert(SEEN.world == world and rawequal(SEEN.world, world), "the generator's ctx.world is not the mod's view")
    assert(#b:list() == 1 and a.room.branch == b:list()[1] and starts.north.to == a.room)
    error("branches: held")]], expect = "branches: held" }
  attack{ "math.randomseed shared with the host", init = "math.randomseed(1) local _ = math.random(10)",
    handler = "math.randomseed(2)", expect = "HOST ok" }
  attack{ "the string library shared with the host", init = "string.find = nil string.rep = nil",
    expect = "INIT ok" }
  attack{ "the default token table", init = "strata.tokens.define('floor', { passable = false })",
    expect = "field 'define'" }

  -- ---- time that never moves --------------------------------------------------------
  attack{ "a timer every 1e-300", handler = "world:schedule{ after = 0, every = 1e-300, handler = 'evil.attack' }",
    expect = "'every' must be 0 %(once%) or at least" }
  attack{ "a timer every 0.001 runs at most 1000 times in one advance", handler = [[
    world:schedule{ after = 0, every = 0.001, handler = "evil.noop" }]], expect = "more runs up to time 2 dropped" }
  attack{ "a handler that schedules itself again, due now", handler = [[
    world:schedule{ after = 0, handler = "evil.attack" }]], expect = "postponed" }
  attack{ "a handler that advances the world it runs in", handler = "world:advance(1e6)",
    expect = "cannot advance the world it runs in" }
end)

-- ---- issue 31: the mod's environment, files and names ---------------------------------
-- A shell line that replaces the attacking mod's mod.lua by `code`.
local function manifest(code) return "cat > mod.lua <<'EOF'\n" .. code .. "\nEOF" end
-- A table whose length lies (os.time of its date fields: 1.6e9), whose missing
-- elements are "" and whose writes vanish, all through C functions: a C loop
-- over it runs no Lua instruction and allocates nothing.
local LYING = [[
local empty = setmetatable({}, { __index = table.concat })
local t = setmetatable({ year = 2020, month = 1, day = 1, hour = 0, min = 0, sec = 0, isdst = false },
  { __len = os.time, __index = empty, __newindex = rawequal })
assert(#t > 1e9 and t[5] == "")
]]
-- Every function of the strata a mod gets, called with a path through a folder
-- named "x(" (made by the attack's shell line, in the mod's folder).
local X_PATH = "evil/x(/../../../../../../../../etc/passwd"

describe("the mod's environment, attacked (issue 31)", function()
  attack{ "functions a host adds to the standard libraries reach no mod", host = [[
    for _, lib in ipairs{ string, table, math, utf8, coroutine, os } do
      lib.leak = function() io.open(VICTIM, "w"):close() end
    end]], init = [[
    for _, lib in ipairs{ string, table, math, utf8, coroutine, os } do if lib.leak then lib.leak() end end
    if ("").leak then ("").leak() end]], expect = "INIT ok" }
  attack{ "(''):dump shows another mod's constants", victim = [[
    data:add{ _type = "base.handler", _id = "hello", run = function() return "SECRET-OF-VICTIM" end }]],
    handler = [[
    local f = world.data["base.handler"]:get("victim.hello").run
    error(("").dump(f))]], expect = "attempt to call a nil value %(field 'dump'%)", secret = "SECRET-OF-VICTIM" }
  attack{ "string.dump through a string method in mod.lua", shell = manifest([[
    return { id = "evil", version = ("").dump(function() end) and "1.0.0", requires = { base = "*" } }]]),
    expect = "INIT .*attempt to call a nil value %(field 'dump'%)" }
  attack{ "the string library a mod sees holds no dump and counts its matching", init = [[
    assert(("").dump == nil and not pcall(string.dump, print), "dump reachable")
    assert(string.find == ("").find and string.gsub == ("").gsub, "two string libraries")
    local s = ("a"):rep(40000) s:find(".-.-.-.-.-b")]], expect = "INIT .*stopped, budget exceeded" }
  attack{ "a mod's changes to its string table reach neither the metatable nor another mod", victim = [[
    data:add{ _type = "base.handler", _id = "check", run = function()
      assert(("x"):upper() == "X" and string.upper("y") == "Y", "victim's string changed")
      error("victim held")
    end }]], init = [[
    string.upper = function() return "hijacked" end
    assert(("x"):upper() == "X", "the metatable's library is the mod's table")]],
    handler = 'world.data["base.handler"]:get("victim.check").run()', expect = "HANDLER .*victim held" }
  attack{ "a layout constant shared by the host and every mod", victim = [[
    data:add{ _type = "base.handler", _id = "check", run = function()
      assert(tostring(strata.layout.none) == "None" and tostring(strata.layout.always) == "True", "changed")
      error("victim held")
    end }]], init = [[
    pcall(function() strata.layout.none.text = "Fail" end)
    pcall(function() strata.layout.always.text = "False" end)]],
    handler = 'world.data["base.handler"]:get("victim.check").run()', expect = "HANDLER .*victim held" }
  attack{ "a method a host adds to worlds reaches no mod", host = [[
    require "strata.world"
    require("strata.private").World.export = function(_, path) io.open(path, "w"):close() end]],
    handler = "world:export(VICTIM)", expect = "HANDLER .*attempt to call a nil value %(method 'export'%)" }
  it("lists every method of a world as a mod's or the host's", function()
    require "strata.world"
    local listed = {}
    for _, k in ipairs(require("strata.modview").methods) do listed[k] = true end
    for k, v in pairs(require("strata.private").World) do
      if type(v) == "function" and type(k) == "string" and k:sub(1, 1) ~= "_" then
        assert(listed[k] or k == "save" or k == "run_realtime" or k == "to_json", "world:" .. k .. " is in neither list")
      end
    end
  end)
end)

describe("C loops of the standard library, attacked (issue 31)", function()
  attack{ "table.move of a trillion empty slots", handler = "table.move({}, 1, 1e12, 2)",
    expect = "stopped, budget exceeded" }
  attack{ "table.move of a trillion slots, backwards over itself", handler = "table.move({}, 1, 1e12, 5)",
    expect = "stopped, budget exceeded" }
  attack{ "table.move still moves what Lua's does", handler = [[
    local function seq(n) local t = {} for i = 1, n do t[i] = i end return t end
    local a = table.move(seq(20000), 1, 20000, 7) assert(a[7] == 1 and a[20006] == 20000 and a[6] == 6)
    local b = table.move(seq(20000), 5, 20000, 1) assert(b[1] == 5 and b[19996] == 20000 and b[19997] == 19997)
    local c = table.move(seq(20000), 1, 20000, 1, {}) assert(#c == 20000 and c[12345] == 12345)
    assert(not pcall(table.move, {}, math.mininteger, 0, 1), "too many elements")
    assert(#table.concat(seq(10000), ",") == 48893)
    local r = seq(10000) table.insert(r, 1, 0) assert(r[1] == 0 and r[10001] == 10000)
    assert(table.remove(r, 1) == 0 and r[1] == 1 and #r == 10000)
    local u = seq(10000) table.sort(u, function(x, y) return x > y end) assert(u[1] == 10000)
    table.sort(u) assert(u[1] == 1 and u[10000] == 10000)
    assert(select("#", table.unpack(u, 1, 10000)) == 10000)
    error("moves held")]], expect = "moves held" }
  attack{ "table.concat of a trillion empty strings made in C", handler = LYING .. [[
    table.concat(empty, "", 1, 1e12)]], expect = "stopped, budget exceeded" }
  attack{ "table.insert into a table whose length lies", handler = LYING .. "table.insert(t, 1, 'x')",
    expect = "stopped, budget exceeded" }
  attack{ "table.remove from a table whose length lies", handler = LYING .. "table.remove(t, 1)",
    expect = "stopped, budget exceeded" }
  attack{ "table.sort of a table whose length lies", handler = LYING .. "table.sort(t)",
    expect = "stopped, budget exceeded" }
  attack{ "table.unpack of a table whose length lies", handler = LYING .. "table.unpack(t)",
    expect = "too many results to unpack" }
  attack{ "string.rep of the empty string, math.maxinteger times", handler = [[
    assert(string.rep("", math.maxinteger) == "" and string.rep("", 1 << 62, "") == "")
    error("rep held")]], expect = "rep held" }
  attack{ "string.rep of the empty string through the string metatable", handler = [[
    assert((""):rep(math.maxinteger) == "")
    error("rep held")]], expect = "rep held" }
  attack{ "coroutine.close of a coroutine kept from init.lua, its __close looping", init = [[
    KEPT = coroutine.create(function()
      local x <close> = setmetatable({}, { __close = function() while true do end end })
      coroutine.yield()
    end)
    coroutine.resume(KEPT)]], handler = "coroutine.close(KEPT)", expect = "HANDLER .*stopped, budget exceeded" }
  attack{ "coroutine.wrap closes a failed coroutine, its looping __close under the budget", handler = [[
    local f = coroutine.wrap(function()
      local x <close> = setmetatable({}, { __close = function() while true do end end })
      error("fail")
    end)
    f()]], expect = "HANDLER .*stopped, budget exceeded" }
  attack{ "load with a C function as its reader", handler = "assert(load(os.time) == nil) error('load held')",
    expect = "load held", memory = true }
end)

describe("files from a mod, attacked (issue 31)", function()
  attack{ "strata.layout.glyphs of a path through a folder named x(", shell = "mkdir 'x('",
    init = ("strata.layout.glyphs(%q)"):format(X_PATH), expect = "strata.layout.glyphs: ", secret = "root:" }
  attack{ "strata.layout.glyphs of a FIFO through a folder named x(", shell = "mkdir 'x(' && mkfifo 'x(/fifo'",
    init = "strata.layout.glyphs('evil/x(/fifo')", expect = "strata.layout.glyphs: " }
  attack{ "strata.layout.mappings of a path through a folder named x(", shell = "mkdir 'x('",
    init = ("strata.layout.mappings(%q)"):format(X_PATH), expect = "strata.layout.mappings: ", secret = "root:" }
  attack{ "every function of the mod's strata, given a path", shell = "mkdir 'x('", init = ([[
    local seen, n = {}, 0
    local function try(t, name)
      if seen[t] then return end
      seen[t] = true
      for k, v in pairs(t) do
        if type(v) == "function" then
          n = n + 1
          local ok, e = pcall(v, PATH, PATH)
          if not ok and tostring(e):find("root:", 1, true) then error(name .. "." .. k .. " read the file") end
        elseif type(v) == "table" then try(v, name .. "." .. k) end
      end
    end
    try(strata, "strata")
    assert(n > 20, n .. " functions")]]):gsub("PATH", ("%q"):format(X_PATH)), expect = "INIT ok", secret = "root:" }
end)

describe("mod names and manifests, attacked (issue 31)", function()
  attack{ "an error in init.lua names the mod's file, not where it is installed", init = "error('where')",
    expect = "INIT .*mod evil: evil/init.lua:1: where", secret = "DIR/" }
  attack{ "an error in a handler names the mod's file", handler = "error('where')",
    expect = "HANDLER evil/init.lua:%d+: where", secret = "DIR/" }
  attack{ "a syntax error in a module the mod loads", shell = "echo 'local = 1' > lib.lua", init = "require 'lib'",
    expect = "evil/lib.lua:1: ", secret = "DIR/" }
  attack{ "an error in mod.lua", shell = manifest("return nil .. 'where'"), expect = "evil/mod.lua:1: attempt to concatenate",
    secret = "DIR/" }
  attack{ "errors of the bounded library functions point at the mod's line, not at strata's files", handler = [[
    local calls = { function() table.move(1, 1, 2, 3) end, function() table.concat({}, "", 1, 1e6) end,
      function() table.insert(setmetatable({}, {}), 5, 1) end, function() table.remove(setmetatable({}, {}), 5) end,
      function() table.sort({ 1, "x" }) end, function() string.rep("x", 1e15) end, function() (""):rep("", {}) end,
      function() coroutine.create(1) end, function() coroutine.close(coroutine.running()) end,
      function() coroutine.wrap(function() error("inner") end)() end }
    for i, f in ipairs(calls) do
      local ok, e = pcall(f)
      assert(not ok and type(e) == "string", i)
      assert(e:find("^evil/init%.lua:%d+: ") and not e:find("strata/"), i .. ": " .. e)
    end
    error("positions held")]], expect = "HANDLER .*positions held" }
  attack{ "a requires naming a folder inside another", shell = "mkdir -p ../quarantine/x && " ..
    [[echo 'return { id = "quarantine/x", version = "1.0.0" }' > ../quarantine/x/mod.lua && ]] ..
    [[echo 'print("QUARANTINE RAN")' > ../quarantine/x/init.lua && ]] ..
    manifest([[return { id = "evil", version = "1.0.0", requires = { base = "*", ["quarantine/x"] = "*" } }]]),
    expect = "'quarantine/x' is not a mod ID", secret = "QUARANTINE RAN" }
  attack{ "a requires naming the folder above", shell = manifest([[
    return { id = "evil", version = "1.0.0", requires = { base = "*", [".."] = "*" } }]]),
    expect = "'%.%.' is not a mod ID", secret = "DIR" }
  attack{ "a version of 3000 digits", shell = manifest([[
    return { id = "evil", version = ("1"):rep(3000) .. "x", requires = { base = "*" } }]]),
    expect = "INIT .*mod evil: mod.lua: version must look like 1.2.3" }
  attack{ "a version constraint of 3000 digits", shell = manifest([[
    return { id = "evil", version = "1.0.0", requires = { base = "^" .. ("1"):rep(3000) .. "x" } }]]),
    expect = "INIT .*version constraint" }
  attack{ "an unknown manifest key of 10 MB", shell = manifest([[
    return { id = "evil", version = "1.0.0", requires = { base = "*" }, [("k"):rep(10000000)] = 1 }]]),
    expect = "INIT .*mod evil: mod.lua: unknown key 'kkkk.-%.%.%.'" }
  attack{ "a hundred thousand requires", shell = manifest([[
    local r = { base = "*" } for i = 1, 100000 do r["m" .. i] = "*" end
    return { id = "evil", version = "1.0.0", requires = r }]]), expect = "INIT .*mod evil: mod.lua: requires .*at most" }
  attack{ "a description of 10 MB", shell = manifest([[
    return { id = "evil", version = "1.0.0", requires = { base = "*" }, description = ("d"):rep(10000000) }]]),
    expect = "INIT .*mod evil: mod.lua: description .*at most" }
  attack{ "an id of 10 MB", shell = manifest([[
    return { id = ("e"):rep(10000000), version = "1.0.0", requires = { base = "*" } }]]),
    expect = "INIT .*mod evil: mod.lua says id = 'eeee.-%.%.%.'" }
end)

describe("the host's own string library (issue 31)", function()
  local function lua(code)
    local p = io.popen(("LUA_PATH=%s LUA_CPATH=%s timeout 20 lua5.4 -e %s 2>&1")
      :format(sh_quote(LUA_PATH), sh_quote(LUA_CPATH), sh_quote(code)))
    local out = p:read("a")
    local _, _, code_ = p:close()
    return out, code_
  end
  it("require 'strata' leaves string.find and the string metatable the host's own", function()
    local out, code = lua([[
      local find, match, gmatch, gsub, index = string.find, string.match, string.gmatch, string.gsub, getmetatable("").__index
      require "strata"
      assert(string.find == find and string.match == match and string.gmatch == gmatch and string.gsub == gsub, "replaced")
      assert(getmetatable("").__index == index and index == string, "the metatable changed")
      io.write("ok")]])
    assert.equal(0, code, out)
    assert.equal("ok", out)
  end)
  it("a guarded call sees the mod-safe library through the string metatable; the host gets its own back", function()
    local out, code = lua([[
      local strata = require "strata"
      local find, dump = string.find, string.dump
      -- (functions do not cross back: the guarded call answers what it saw)
      local other_find, no_dump, other_index = strata.mods.call("probe", function()
        return ("").find ~= find, ("").dump == nil, getmetatable("").__index ~= string end)
      assert(other_find and no_dump and other_index, "a guarded call sees the host's string library")
      assert(("").find == find and ("").dump == dump and getmetatable("").__index == string, "not restored")
      pcall(strata.mods.call, "probe", function() error("x") end)
      assert(getmetatable("").__index == string, "not restored after an error")
      pcall(strata.mods.call, "probe", function() while true do end end)
      assert(getmetatable("").__index == string, "not restored after a spent budget")
      io.write("ok")]])
    assert.equal(0, code, out)
    assert.equal("ok", out)
  end)
  it("mod IDs the host lists are checked before any path is built", function()
    local mods = require "strata.mods"
    for _, id in ipairs{ "../evil", "a/b", "", "1abc", "a.b", "a b", ("a"):rep(100), "world" } do
      local ok, err = pcall(mods.resolve, { id }, { "/nonexistent" })
      assert.is_false(ok)
      assert.matches("is not a mod ID", err, 1, true)
    end
  end)
end)

describe("the border: what crosses from mod code to the host", function()
  local LOOP = "setmetatable({}, { __index = function() while true do end end })"
  attack{ "a starting_pos whose point has a looping __index", init = [[
    data:add{ _type = "base.map_archetype", _id = "trap", starting_pos = function() return ]] .. LOOP .. [[ end }]],
    handler = [[
    local m = world:create_map{ width = 4, height = 4, fill = "floor", archetype = "evil.trap" }
    world:travel(world:create_actor{}, m)]], expect = "HANDLER .*evil.trap starting_pos: result: holds a table with a metatable" }
  attack{ "an event handler's result with a looping __index, read by the host", init = [[
    events:register("base.map_entered", "evil: result", function() return ]] .. LOOP .. [[ end)]],
    -- (refused as it crosses: the emit's result is its default)
    after = "if result ~= nil then local _ = result.x, result[1] end", expect = "HOSTCODE ok" }
  attack{ "a metatable planted on the host's own params", init = [[
    events:register("base.map_entered", "evil: plant", function(_, params)
      setmetatable(params, { __index = function() while true do end end })
    end)]], after = "local _ = params.x", expect = "HOSTCODE ok" }
  attack{ "a schema table given a __pairs after add_type", init = [[
    local f = { x = { type = "number" } }
    data:add_type{ _id = "t", fields = f }
    data:add{ _type = "evil.t", _id = "e", x = 1 }
    setmetatable(f, { __pairs = function() while true do end end })
    setmetatable(f.x, { __index = function() while true do end end })]], expect = "INIT ok" }
  attack{ "a patch that keeps the entry it was handed", victim = [[
    data:add{ _type = "base.handler", _id = "hello", run = function() return "hello" end }]], init = [[
    data:patch("base.handler", "victim.hello", "keep", function(e) KEPT = e end)]],
    handler = "KEPT.run = 'hijacked'",
    after = [[assert(type(require("support").registry(w).by_type["base.handler"]["victim.hello"].run) == "function", "rewritten")]],
    expect = "HOSTCODE ok" }
  attack{ "strata.layout.mapping hands out copies", init = [[
    data:add{ _type = "base.layout_mapping", _id = "m", tokens = { floor = { { "torch", 1 } } } }]], handler = [[
    local t = strata.layout.mapping("evil.m", { world = world })
    t.floor[1][1] = "changed"
    local again = strata.layout.mapping("evil.m", { world = world })
    error(again.floor[1][1] == "changed" and "shared" or "copied")]], expect = "HANDLER .*copied" }
  attack{ "a table 25 levels deep in h.state and in timer args", handler = [[
    local t = {} local r = t for i = 1, 25 do r.x = {} r = r.x end
    world:create_object{ kind = "x" }.state.deep = t
    world:schedule{ after = 100, handler = "evil.noop", args = { deep = t } }]], expect = "HANDLER ok" }
  attack{ "a value built 72 deep through persistent tables", handler = [[
    local s = world:create_object{ kind = "x" }.state
    for i = 1, 60 do s.x = {} s = s.x end
    local t = {} local r = t for i = 1, 11 do r.x = {} r = r.x end
    s.y = t]],
    after = [[w:save(dir .. "/evil.db") strata.world.open(dir .. "/evil.db", { mod_path = { dir } })]],
    expect = "HANDLER .*nested deeper than 64" }
  attack{ "a handler run by the host's emit advances the world", init = [[
    events:register("base.map_entered", "evil: advance", function(source) source:advance(1e6) end)]],
    after = [[
    local seen
    require("support").only_handler(w, "base.handler_failed", function(_, f) seen = f.message end, "spec: log")
    w:emit("base.map_entered", {})
    assert(w.time < 100, "advanced to " .. w.time)
    error(seen, 0)]], expect = "HOSTCODE .*cannot advance the world it runs in" }
end)

describe("the sandbox's reach", function()
  it("covers at least 40 attacks", function() assert.is_true(n_attacks >= 40, n_attacks .. " attacks") end)
end)

-- ---- issue 31: the attacker's second round -----------------------------------------------
local SPIN = "function() while true do end end"

describe("the budget inside C functions and across callbacks, attacked (issue 31)", function()
  attack{ "a coroutine kept from init.lua, resumed in a handler, loops", init = [[
    KEPT = coroutine.create(function() coroutine.yield() while true do end end)
    coroutine.resume(KEPT)]], handler = "coroutine.resume(KEPT)", expect = "HANDLER .*stopped, budget exceeded" }
  attack{ "a wrapped coroutine kept from init.lua, called by an event handler the host's emit runs", init = [[
    KEPT = coroutine.wrap(function() coroutine.yield() while true do end end)
    KEPT()
    events:register("base.map_entered", "evil: kept", function() KEPT() end)]],
    after = [[
    local seen = {}
    require("support").only_handler(w, "base.handler_failed", function(_, f) seen[#seen + 1] = f.message end, "spec: log")
    w:emit("base.map_entered", {})
    error(table.concat(seen, "|"), 0)]], expect = "HOSTCODE event handler 'evil: kept' of mod evil: stopped, budget exceeded" }
  attack{ "the running coroutine of a callback, kept and resumed or closed later", handler = [[
    RUNNING = coroutine.running()
    assert(not coroutine.resume(RUNNING) and not pcall(coroutine.close, RUNNING))
    coroutine.wrap(function() assert(not coroutine.resume(RUNNING)) end)()]], init = [[
    events:register("base.map_entered", "evil: later", function()
      assert(coroutine.status(RUNNING) == "dead" and not coroutine.resume(RUNNING))
      coroutine.close(RUNNING)
    end)]], expect = "HANDLER ok" }
  attack{ "an error object with looping metamethods thrown across nested guarded calls", init = [[
    local e = setmetatable({}, { __tostring = ]] .. SPIN .. [[, __index = ]] .. SPIN .. [[,
      __eq = ]] .. SPIN .. [[, __concat = ]] .. SPIN .. [[, __len = ]] .. SPIN .. [[ })
    events:register("base.map_entered", "evil: throw", function() error(e) end)]],
    handler = [[local r = world:emit("base.map_entered", {}) error("emit returned")]], expect = "HANDLER .*emit returned" }
  attack{ "a table.sort comparator that loops", handler = [[
    local t = {} for i = 1, 100 do t[i] = i end table.sort(t, ]] .. SPIN .. [[)]], expect = "stopped, budget exceeded" }
  attack{ "a gsub replacement function that loops", handler = [[("aaaa"):gsub("a", ]] .. SPIN .. [[)]],
    expect = "stopped, budget exceeded" }
  attack{ "string.format of a value whose __tostring loops", handler = [[
    string.format("%s", setmetatable({}, { __tostring = ]] .. SPIN .. [[ }))]], expect = "stopped, budget exceeded" }
  attack{ "string.format('%99999d')", handler = "string.format('%99999d', 1)", expect = "HANDLER .*invalid conversion" }
  attack{ "string.rep of 1 GB through the string metatable", handler = "local s = ('x'):rep(1e9)",
    expect = "memory limit exceeded", memory = true }
  attack{ "C stack overflow through __tostring", handler = [[
    local t t = setmetatable({}, { __tostring = function(s) return tostring(s) end }) tostring(t)]],
    expect = "HANDLER .*stack overflow" }
  attack{ "C stack overflow through nested gsub", handler = [[
    local function f(s) return (s:gsub(".", f)) end f("aa")]], expect = "HANDLER .*stack overflow" }
  attack{ "C stack overflow through nested coroutines", handler = [[
    local function f() return coroutine.wrap(f)() end f()]], expect = "HANDLER .*evil/init.lua" }
  attack{ "an event handler that emits its own event without end", init = [[
    events:register("base.map_entered", "evil: again", function(source) source:emit("base.map_entered", {}) end)]],
    after = [[
    local seen = {}
    require("support").only_handler(w, "base.handler_failed", function(_, f) seen[#seen + 1] = f.message end, "spec: log")
    w:emit("base.map_entered", {})
    error(seen[1], 0)]], expect = "HOSTCODE [^\n]*stack overflow", secret = "strata/world.lua" }
  attack{ "a message handler that raises again", handler = "xpcall(error, function(m) error(m) end)",
    expect = "HANDLER ok" }
  attack{ "a spent budget leaves the next callback its own", init = [[
    events:register("base.map_entered", "evil: honest", function()
      local n = 0 for i = 1, 1000 do n = n + i end return { n = n } end)]],
    handler = "while true do end", after = "assert(result.n == 500500, 'the next callback was stopped')",
    expect = "HANDLER .*stopped, budget exceeded.*HOSTCODE ok" }
  attack{ "a memory bomb leaves the next callback its own limit", init = [[
    events:register("base.map_entered", "evil: honest", function()
      return { n = #("x"):rep(50000000), map = strata.tilemap.new{ width = 3000, height = 3000 }.width } end)]],
    handler = "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(1000) .. i end",
    after = "assert(result.n == 50000000 and result.map == 3000, 'the next callback was refused')",
    expect = "HANDLER .*memory limit exceeded.*HOSTCODE ok", memory = true }
  -- One C call runs past any budget until it returns: the core bounds the work
  -- of a distance and of a nearest call instead (4M and 16M cells).
  attack{ "strata.options.distance of two strings of 100,000 characters", handler = [[
    assert(strata.options.distance(("a"):rep(100000), ("b"):rep(100000)) == 100000) error("bounded")]],
    expect = "HANDLER .*bounded" }
  attack{ "strata.options.nearest of a long name among many long names", handler = [[
    local long, list = ("a"):rep(4000), {} for i = 1, 2000 do list[i] = ("b"):rep(3999) .. i end
    assert(#strata.options.nearest(long, list) == 3) error("bounded")]], expect = "HANDLER .*bounded" }
  attack{ "more coroutines in one callback than the budget follows", handler = [[
    local keep = {} for i = 1, 2000 do keep[i] = coroutine.create(print) end]],
    expect = "HANDLER .*too many coroutines in one callback" }
  attack{ "a chunk of a million nested parentheses", handler = "assert(not load(('('):rep(1000000))) error('held')",
    expect = "HANDLER .*held" }
end)

describe("memory through strata's C constructors, attacked (issue 31)", function()
  attack{ "layouts past the limit", handler = [[
    local keep = {} for i = 1, 100 do keep[i] = strata.layout.parse(("Reset(\"floor\") "):rep(200000)) end]],
    expect = "HANDLER .*memory", memory = true }
  attack{ "XY maps past the limit", handler = [[
    local head = { "+" } for i = 0, 199 do head[#head + 1] = tostring(i % 10) end
    local lines = { table.concat(head, " "), "" }
    for y = 199, 0, -1 do lines[#lines + 1] = (y % 10) .. " " .. ("#-"):rep(199) .. "#" lines[#lines + 1] = "" end
    lines[#lines + 1] = table.concat(head, " ")
    local text = table.concat(lines, "\n")
    local keep = {} for i = 1, 10000 do keep[i] = strata.xymap.parse(text) end]],
    expect = "HANDLER .*strata.xymap.parse: .*memory", memory = true }
  attack{ "paths and pictures past the limit", handler = [[
    local m = strata.tilemap.new{ width = 4000, height = 4000 }
    local keep = {} for i = 1, 100 do keep[i] = m:find_path({ 0, 0 }, { 3999, 3999 }) keep[-i] = m:to_png{ cell = 1 } end]],
    expect = "HANDLER .*memory", memory = true }
  attack{ "a memory bomb in a room generator", init = [[
    data:add{ _type = "base.room_generator", _id = "bomb", generate = function(ctx)
      local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(1000) .. i end
    end }
    data:add{ _type = "base.branch_archetype", _id = "bomb", room_generator = "evil.bomb" }]], handler = [[
    local hub = world:create_room{ name = "Hub" }
    world.branches:make_start(hub, { north = "evil.bomb" })
    world:go(world:create_actor{ room = hub }, "north")]], expect = "HANDLER .*memory limit exceeded", memory = true }
  attack{ "C memory made in one callback and freed in the next leaves the next its limit", init = [[
    KEPT = strata.tilemap.new{ width = 4000, height = 4000 }
    events:register("base.map_entered", "evil: again", function()
      KEPT:close() KEPT = nil
      local again = strata.tilemap.new{ width = 4000, height = 4000 }
      again:close()
      again = strata.tilemap.new{ width = 4000, height = 4000 }
      error("made again")
    end)]], after = [[
    local s = require("strata.core").guard.state()
    assert(s.depth == 0 and s.memory_limit == 0, "a limit left open")
    local m = strata.tilemap.new{ width = 4000, height = 4000 }]], expect = "HOSTCODE ok", memory = true }
  attack{ "C memory freed a hundred times in a loop does not run the count away", handler = [[
    for i = 1, 100 do strata.tilemap.new{ width = 3000, height = 3000 }:close() end
    local keep = {} for i = 1, 100 do keep[i] = strata.tilemap.new{ width = 3000, height = 3000 } end]],
    expect = "HANDLER .*out of memory", memory = true }
end)

describe("the border, attacked further (issue 31)", function()
  local LOOP = "setmetatable({}, { __index = " .. SPIN .. " })"
  attack{ "a room generator's result with a looping __index", init = [[
    data:add{ _type = "base.room_generator", _id = "trap", generate = function() return ]] .. LOOP .. [[ end }
    data:add{ _type = "base.branch_archetype", _id = "trap", room_generator = "evil.trap" }]], handler = [[
    local hub = world:create_room{ name = "Hub" }
    world.branches:make_start(hub, { north = "evil.trap" })
    world:go(world:create_actor{ room = hub }, "north")]], expect = "HANDLER .*holds a table with a metatable" }
  attack{ "an area generator's floor with a looping __index", init = [[
    data:add{ _type = "base.area_generator", _id = "trap", generate_floor = function() return ]] .. LOOP .. [[ end }
    data:add{ _type = "base.area_archetype", _id = "trap", generator = "evil.trap", deepest_floor = 2 }]], handler = [[
    local town = world:create_map{ width = 4, height = 4, fill = "floor" }
    local door = world:create_entrance(town, 1, 1, world:create_area("evil.trap"))
    world:travel(world:create_actor{ map = town, x = 2, y = 2 }, door)]],
    expect = "HANDLER .*evil.trap generate_floor: result: holds a table with a metatable" }
  attack{ "an XY map legend with looping metamethods", handler = [[
    strata.xymap.parse("+ 0\n\n0 #\n\n+ 0\n", { legend = setmetatable({}, { __index = ]] .. SPIN ..
    [[, __pairs = ]] .. SPIN .. [[ }) })]], expect = "HANDLER .*stopped, budget exceeded" }
  attack{ "params nested with a handle of another world, handed back", init = [[
    events:register("base.map_entered", "evil: back", function(_, params) return params end)]], after = [[
    local seen = {}
    require("support").only_handler(w, "base.handler_failed", function(_, f) seen[#seen + 1] = f.message end, "spec: log")
    local other = strata.world.new{ seed = 2 }
    local r = w:emit("base.map_entered", { nested = { { h = other:create_object{ kind = "x" } } } })
    assert(r == nil, "a handle of another world came back")
    error(seen[1], 0)]], expect = "HOSTCODE [^\n]*a handle of another world" }
  attack{ "a result string of 100 MB", init = [[
    events:register("base.map_entered", "evil: big", function() return ("x"):rep(100000000) end)]],
    after = [[
    local seen = {}
    require("support").only_handler(w, "base.handler_failed", function(_, f) seen[#seen + 1] = f.message end, "spec: log")
    -- (the mod's string.rep needs twice the string: its limit may refuse it)
    local r = w:emit("base.map_entered", {})
    assert(r and #r == 100000000 or seen[1]:find("memory limit exceeded"), tostring(seen[1]))]], expect = "HOSTCODE ok", memory = true }
  attack{ "integer keys 2^63-1 and -2^63 in state, saved and opened", handler = [[
    world:create_object{ kind = "x" }.state.t = { [math.maxinteger] = 1, [math.mininteger] = 2, [0] = 3 }]],
    after = [[
    w:save(dir .. "/evil.db")
    local again = strata.world.open(dir .. "/evil.db", { mod_path = { dir } })
    local t = again:objects()[1].state.t
    assert(t[math.maxinteger] == 1 and t[math.mininteger] == 2 and t[0] == 3, "keys changed")]],
    expect = "HOSTCODE ok" }
  attack{ "a NaN key in state", handler = [[world:create_object{ kind = "x" }.state[0/0] = 1]],
    expect = "HANDLER .*keys must be strings or integers, got float" }
  attack{ "a result of 5 million entries", init = [[
    events:register("base.map_entered", "evil: wide", function()
      local t = {} for i = 1, 5000000 do t[i] = true end return t end)]],
    after = [[
    local seen = {}
    require("support").only_handler(w, "base.handler_failed", function(_, f) seen[#seen + 1] = f.message end, "spec: log")
    assert(w:emit("base.map_entered", {}) == nil)
    error(seen[1], 0)]], expect = "HOSTCODE [^\n]*evil: wide", memory = true }
  attack{ "a result of a million keys crosses whole", init = [[
    events:register("base.map_entered", "evil: keys", function()
      local t = {} for i = 1, 1000000 do t["k" .. i] = i end return t end)]],
    after = [[assert(result and result.k1000000 == 1000000 and getmetatable(result) == nil)]], expect = "HOSTCODE ok",
    memory = true }
end)

describe("names, files and isolation, attacked further (issue 31)", function()
  attack{ "a link into /proc/self", shell = "ln -s /proc/self/environ env.txt && ln -s /proc/self/cwd/driver.lua d.lua",
    init = [[
    assert(not pcall(mod.read, mod, "env.txt"))
    assert(not pcall(mod.read, mod, "d.lua") and not pcall(require, "d"))]], expect = "INIT ok" }
  attack{ "a name with a newline or a terminal escape makes one line", init = [[mod:read("no\nHOST ok\27[2J")]],
    expect = "INIT [^\n]*mod:read: 'no\\10HOST ok\\27%[2J' is not a relative path", secret = "\27" }
  attack{ "an ID with unicode or control characters in requires", shell = manifest([[
    return { id = "evil", version = "1.0.0", requires = { base = "*", ["év\nil"] = "*" } }]]),
    expect = "INIT [^\n]*requires: '\195\169v\\10il' is not a mod ID" }
  attack{ "the string metatable out of every route", handler = [[
    assert(getmetatable("") == nil and ("").__index == nil and ("")["__index"] == nil)
    for _, v in ipairs{ 1, 1.5, true, print, coroutine.create(print) } do assert(getmetatable(v) == nil) end
    local ok = pcall(function() local s = "" s.upper = nil end)
    assert(not ok)
    error("string metatable held")]], expect = "HANDLER .*string metatable held" }
  attack{ "tables reachable from strata and from what its functions return, written to", init = [[
    local seen = {}
    local function poke(t, d)
      if seen[t] or d > 4 then return end
      seen[t] = true
      pcall(rawset, t, "pwned", true)
      pcall(function() t.pwned = true end)
      for _, v in pairs(t) do
        if type(v) == "table" then poke(v, d + 1)
        elseif type(v) == "function" then
          local r = table.pack(pcall(v))
          for i = 2, r.n do if type(r[i]) == "table" then poke(r[i], d + 1) end end
        end
      end
    end
    poke(strata, 0)]], after = [[
    local seen = {}
    local function find(t, name)
      if seen[t] then return end
      seen[t] = true
      assert(rawget(t, "pwned") == nil, name .. " was written")
      for k, v in pairs(t) do if type(v) == "table" then find(v, name .. "." .. tostring(k)) end end
    end
    find(strata, "strata")
    find(string, "string") find(table, "table")
    assert(strata.layout.none ~= nil)]], expect = "HOSTCODE ok" }
  attack{ "the safe string library written to through a victim's view", victim = [[
    data:add{ _type = "base.handler", _id = "check", run = function()
      assert(("x"):upper() == "X" and ("abc"):find("b") == 2, "victim's string methods changed")
      error("victim held")
    end }]], init = [[
    pcall(function() string.find = print end)
    pcall(function() getmetatable("").__index.upper = print end)]],
    handler = 'world.data["base.handler"]:get("victim.check").run()', expect = "HANDLER .*victim held" }
end)

describe("the world generator's configuration file from a mod, attacked (issue 35)", function()
  -- conf names a file: a mod reads only its own (mod:read), so generate and floor refuse it there
  for _, call in ipairs{ "strata.worldgen.generate(OPTS)", "strata.worldgen.floor(OPTS, 1)" } do
    attack{ call .. " with conf = a path", init = ([[
      local ok, e = pcall(function() return CALL end)
      assert(not ok and tostring(e):find("conf is not available to mods", 1, true), tostring(e))]])
      :gsub("CALL", (call:gsub("OPTS", '{ conf = "/etc/passwd" }'))), expect = "INIT ok", secret = "root:" }
    attack{ call .. " with conf behind __index", init = ([[
      local opts = setmetatable({ dims = { 5, 5, 1 } }, { __index = function(_, k)
        if k == "conf" then return "/etc/passwd" end end })
      local ok, e = pcall(function() return CALL end)
      assert(ok, tostring(e))]]):gsub("CALL", (call:gsub("OPTS", "opts"))), expect = "INIT ok", secret = "root:" }
  end
end)

describe("prototypes a mod keeps in the world, attacked (issue 35)", function()
  -- world.grid:add_prototype copies the entry at the border: a table the mod
  -- changes after, or one behind __index / __pairs, reaches the world only as data.
  attack{ "world.grid:add_prototype with a table changed after and one behind __index", handler = [[
    local e = { _id = "tower", key = "Tower", props = { a = 1 } }
    assert(world.grid:add_prototype(e) == "world.tower")
    e.key = "Changed" e.props.a = 2 e.props.f = print
    local ran = false
    local sly = setmetatable({ _id = "sly" }, { __index = function() ran = true return "x" end,
      __pairs = function() ran = true return next, {} end })
    local ok = pcall(function() return world.grid:add_prototype(sly) end)
    assert(not ran, "the mod's metamethod ran")
    local okp, err = pcall(function() return world.grid:add_prototype{ _id = "p", props = setmetatable({}, {}) } end)
    assert(not okp, "a props table with a metatable was stored")]],
    after = [[
    local stored = w._s:grid_prototypes()
    assert(#stored == 1 or (#stored == 2 and stored[2]._id == "world.sly"), #stored)
    assert(stored[1].key == "Tower" and stored[1].props.a == 1 and stored[1].props.f == nil, stored[1].key)]],
    expect = "HOSTCODE ok" }
end)

describe("turns and draws a mod makes, attacked (issue 36)", function()
  attack{ "world:next_turn from a handler", handler = [[
    world:add_turns(world:create_actor{})
    world:next_turn()]], expect = "HANDLER .*cannot advance the world it runs in" }
  -- each turn's runaway handler is stopped by the budget and undone; the turn happened
  attack{ "a runaway base.turn_started handler", init = [[
    events:register("base.turn_started", "evil: spin", function() while true do end end)]],
    handler = "world:add_turns(world:create_actor{}, { speed = 4 })",
    after = [[
    local info = w:turn_info(w:objects{ kind = "actor" }[1])
    assert(info and info.due == 2.25, "the turns stopped at " .. tostring(info and info.due))]],
    expect = "HOSTCODE ok" }
  attack{ "rng:weighted of a table behind __index and __pairs", handler = [[
    local ran = false
    local t = setmetatable({ a = 1 }, { __index = function() ran = true end,
      __pairs = function() ran = true return next, {} end })
    assert(strata.rng.new(1):weighted(t) == "a")
    assert(not ran, "the mod's metamethod ran")]], expect = "HANDLER ok" }
end)

describe("a search's cost function from a mod, attacked (issue 36)", function()
  -- map:find_path{ cost = } calls the mod's function once a cell, under the
  -- handler's budget: a loop stops with it (the budget's error, whichever of
  -- strata's frames it is met in), and only a number crosses back
  attack{ "a cost function that loops forever", handler = [[
    local m = world:create_map{ width = 30, height = 30, fill = "floor" }
    m:find_path({ 0, 0 }, { 29, 29 }, { cost = function() while true do end end })]],
    expect = "HANDLER .*budget exceeded" }
  attack{ "a cost function that catches the budget and loops again", handler = [[
    local m = world:create_map{ width = 30, height = 30, fill = "floor" }
    m:find_path({ 0, 0 }, { 29, 29 }, { cost = function()
      while true do pcall(function() while true do end end) end end })]],
    expect = "HANDLER .*budget exceeded" }
  attack{ "a cost function answering a table with metamethods", handler = [[
    local m = world:create_map{ width = 5, height = 1, fill = "floor" }
    local ran = false
    local sly = setmetatable({}, { __index = function() ran = true return 1 end,
      __tostring = function() ran = true return "1" end, __call = function() ran = true return 1 end })
    local ok, e = pcall(function() return m:find_path({ 0, 0 }, { 4, 0 }, { cost = function() return sly end }) end)
    assert(not ok and tostring(e):find("option 'cost' answered a table", 1, true), tostring(e))
    assert(not ran, "a metamethod of the answer ran")]],
    expect = "HANDLER ok" }
end)

describe("distance maps from mod code, attacked (issue 36)", function()
  attack{ "a goal predicate that never returns is stopped by the budget", handler = [[
    local m = world:create_map{ width = 30, height = 30, fill = "floor" }
    m:distance_map(function(x, y) while true do end end)]], expect = "stopped, budget exceeded" }
  attack{ "goals behind a lying __len and __index are read raw; answers as booleans", handler = [[
    local m = world:create_map{ width = 30, height = 30, fill = "floor" }
    local ran = false
    local goals = setmetatable({ { 1, 1 } }, { __len = function() ran = true return 1e12 end,
      __index = function() ran = true return { 2, 2 } end })
    local f = m:distance_map(goals)
    assert(not ran and f:at(1, 1) == 0 and f:at(5, 1) == 4, "read through the metatable")
    local g = m:distance_map(function(x, y) return x == 3 and setmetatable({}, { __index = error }) end)
    assert(g:at(3, 0) == 0 and g:at(0, 0) == 3)]], expect = "HANDLER ok" }
end)

describe("the game toolkit from mod code, attacked further (trial 36)", function()
  -- a search's cost function that deletes, searches again or saves: each refused, the handler clean
  attack{ "a cost function that deletes its map, searches it again or saves the world", handler = [[
    local m = world:create_map{ width = 8, height = 3, fill = "floor" }
    local function refused(opts, want)
      local ok, e = pcall(m.find_path, m, { 0, 0 }, { 5, 0 }, opts)
      assert(not ok and tostring(e):find(want, 1, true), tostring(e))
    end
    refused({ cost = function(x, y, c) m:delete() return c end }, "is being searched")
    refused({ cost = function(x, y, c) m:find_path({ 0, 0 }, { x, y }) return c end }, "searching already")
    refused({ cost = function(x, y, c) world:save("x.db") return c end }, "belongs to the host")
    assert(m:alive())]], expect = "HANDLER ok" }
  attack{ "goals, options and coordinates at the edges of the integers and the numbers", handler = [[
    local m = world:create_map{ width = 1, height = 1, fill = "floor" }
    local function refused(fn, want)
      local ok, e = pcall(fn)
      assert(not ok and tostring(e):find(want, 1, true), tostring(e))
    end
    refused(function() return m:distance_map({ { math.maxinteger, math.mininteger } }) end, "is outside the 1x1 map")
    refused(function() return m:distance_map({ { 0, 0 } }, { diagonal_cost = 0 / 0 }) end, "diagonal cost")
    refused(function() return m:distance_map({ { 0, 0 } }, { connectivity = 8, diagonal_cost = 1e308 }) end, "too far apart")
    local wide = world:create_map{ width = 8, height = 3, fill = "floor" }
    refused(function() return wide:distance_map({ { 0, 0 } }):flee(1e308) end, "too large")
    refused(function() return m:fov(math.maxinteger, 0, { radius = 0x3fffffff }) end, "out of range")
    assert(m:fov(0, 0, { radius = 0x3fffffff }):count() == 1)
    assert(strata.noise.simplex(1):at(1.7e308, 1.7e308) == 0)
    assert(world.rng:stream("w"):weighted{ a = 1e308, b = 1e308 })]], expect = "HANDLER ok" }
  -- a turn's handler reaches the world through its actor: it may act, never advance or save it
  attack{ "a turn's handler advancing, saving or deleting its actor through actor.world", init = [[
    events:register("base.turn_started", "evil: turn", function(actor, params, result)
      local world = actor.world
      assert(not pcall(world.next_turn, world) and not pcall(world.advance, world, 1))
      assert(not pcall(function() return world:save("x.db") end))
      actor:delete()
    end)]],
    handler = "world:add_turns(world:create_actor{}, { speed = 4 })",
    after = [[
    assert(#w:objects{ kind = "actor" } == 0, "the actor was not deleted in its turn")
    assert(w:next_turn() == nil)]],
    expect = "HOSTCODE ok" }
end)

-- Issue 37, the JSON form of a world: reading and writing JSON, and making
-- worlds of it, are the host's (strata.json, strata.world.from_json,
-- world:to_json): a mod reaches none of them, in init.lua or in a handler.
describe("the JSON form (issue 37)", function()
  local reach = [[
    local function absent(fn) local ok, v = pcall(fn) assert(not ok or v == nil, "reached") end
    absent(function() return strata.json end)
    absent(function() return strata.world.from_json end)]]
  attack{ "strata.json and strata.world.from_json out of a mod's reach", init = reach,
    handler = reach .. "\n    assert(not pcall(function() return world:to_json() end), 'world:to_json reached')",
    expect = "HANDLER ok" }
end)

-- Issue 39, leases: a connection to the world's database, and who owns what
-- of it, are the host's (strata.lease): a mod reaches none of it, in
-- init.lua or in a handler.
describe("leases (issue 39)", function()
  local reach = [[
    local function absent(fn) local ok, v = pcall(fn) assert(not ok or v == nil, "reached") end
    absent(function() return strata.lease end)
    absent(function() return strata.lease.open end)]]
  attack{ "strata.lease out of a mod's reach", init = reach, handler = reach, expect = "HANDLER ok" }
end)

-- Issue 39, serving a world from Lua: the serving process (its leases, its
-- saves and pick-ups, the world it frees at close) is the host's
-- (strata.serve): a mod reaches none of it, in init.lua or in a handler.
describe("serving a world (issue 39)", function()
  local reach = [[
    local function absent(fn) local ok, v = pcall(fn) assert(not ok or v == nil, "reached") end
    absent(function() return strata.serve end)
    absent(function() return strata.serve.open end)]]
  attack{ "strata.serve out of a mod's reach", init = reach, handler = reach, expect = "HANDLER ok" }
end)
