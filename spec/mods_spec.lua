-- Mods: load order, version constraints, the sandbox and guarded callbacks.
local strata = require "strata"
local mods = require "strata.mods"

local PATH = { "mods", "spec/fixtures/mods" }
local function world(list) return strata.world.new{ seed = 1, mods = list, mod_path = PATH } end

describe("mod loading", function()
  it("orders mods by requires, ties by id", function()
    local order = mods.resolve({ "patcher", "sandboxed" }, PATH)
    local ids = {}
    for i, m in ipairs(order) do ids[i] = m.id end
    assert.same({ "base", "sandboxed", "testmod", "patcher" }, ids)
  end)

  it("checks version constraints", function()
    assert.is_true(mods.satisfies("1.2.3", "1.2.3"))
    assert.is_false(mods.satisfies("1.2.4", "1.2.3"))
    assert.is_true(mods.satisfies("1.4.0", "^1.2"))
    assert.is_false(mods.satisfies("2.0.0", "^1.2"))
    assert.is_false(mods.satisfies("1.1.9", "^1.2"))
    assert.is_true(mods.satisfies("0.3.0", ">=0.3"))
    assert.is_false(mods.satisfies("0.2.9", ">=0.3"))
    assert.is_true(mods.satisfies("9.9.9", "*"))
  end)

  it("refuses a manifest with an unknown key or a malformed requires", function()
    local support = require "support"
    local dir = support.tempdir()
    local function try(manifest)
      os.execute("mkdir -p " .. dir .. "/odd")
      support.write(dir .. "/odd/mod.lua", manifest)
      support.write(dir .. "/odd/init.lua", "")
      local ok, err = pcall(strata.world.new, { seed = 1, mods = { "base", "odd" }, mod_path = { "mods", dir } })
      assert.is_false(ok)
      return err
    end
    assert.matches("mod odd: mod.lua: unknown key 'dependencies' %(nearest known: ",
      try('return { id = "odd", version = "1.0.0", dependencies = { base = "*" } }'))
    assert.matches("mod odd: mod.lua: unknown key 'requirs' %(nearest known: requires",
      try('return { id = "odd", version = "1.0.0", requirs = { base = "*" } }'))
    assert.matches("requires must be a table",
      try('return { id = "odd", version = "1.0.0", requires = "base" }'))
    assert.matches("requires must map mod IDs to version constraints",
      try('return { id = "odd", version = "1.0.0", requires = { "base" } }'))
    assert.matches("description must be a string",
      try('return { id = "odd", version = "1.0.0", description = 3 }'))
    -- a type of a mod it does not require: the message says to require it
    support.write(dir .. "/odd/mod.lua", 'return { id = "odd", version = "1.0.0" }')
    support.write(dir .. "/odd/init.lua", 'data:add{ _type = "base.prototype", _id = "p", key = "k" }')
    local ok, err = pcall(strata.world.new, { seed = 1, mods = { "odd" }, mod_path = { "mods", dir } })
    assert.is_false(ok)
    assert.matches("unknown type 'base.prototype'.*; mod odd does not require base: add it to "
      .. "the requires of its mod.lua, e.g. requires = { base = \"%*\" }", err)
  end)

  it("names the mods of a cycle, a missing mod and an unmet version", function()
    local ok, err = pcall(world, { "cyc_a" })
    assert.is_false(ok)
    assert.matches("cycle: cyc_a, cyc_b", err)
    ok, err = pcall(world, { "nosuchmod" })
    assert.matches("mod 'nosuchmod' not found", err)
    ok, err = pcall(world, { "needs_new" })
    assert.matches("mod needs_new requires testmod >=2.0, found 1.2.0", err)
  end)

  it("says so when a mod's folder exists but has no mod.lua", function()
    local support = require "support"
    local dir = support.tempdir()
    support.write(dir .. "/empty/init.lua", "")
    local ok, err = pcall(strata.world.new, { seed = 1, mods = { "empty" }, mod_path = { dir } })
    assert.is_false(ok)
    assert.matches("mod 'empty': its folder " .. dir:gsub("%p", "%%%0") .. "/empty has no mod.lua", err)
    assert.is_nil(err:find("not found", 1, true), err)
    -- a folder of that name later on the path, with mod.lua, is the mod
    local other = support.tempdir()
    support.write(other .. "/empty/mod.lua", 'return { id = "empty", version = "1.0.0" }')
    assert.is_true((pcall(strata.world.new, { seed = 1, mods = { "empty" }, mod_path = { dir, other } })))
    os.execute("rm -rf " .. support.q(dir) .. " " .. support.q(other))
  end)

  it("mod:load and require take names separated by / or . (docs/sandbox.md), one module per file", function()
    local support = require "support"
    local dir = support.tempdir()
    support.write(dir .. "/paths/mod.lua", 'return { id = "paths", version = "1.0.0", requires = { base = "*" } }')
    support.write(dir .. "/paths/data/map1.lua", "n = (n or 0) + 1 return { n = n }")
    support.write(dir .. "/paths/init.lua", [[
      local a, b = mod:load("data/map1"), mod:load("data.map1")
      local c, d = require("data/map1"), require "data.map1"
      assert(a == b and b == c and c == d and a.n == 1, "one module per file")
      local function refused(f, name)
        local ok, err = pcall(f, name)
        assert(not ok and err:find("not a relative path inside the mod", 1, true), name .. ": " .. tostring(err))
      end
      for _, name in ipairs{ "data/", "/data/map1", "data//map1", "data/../data/map1", "./data/map1",
                             "data/./map1", ".data/map1", "data\\map1", "data..map1", "data/.map1" } do
        refused(function(x) return mod:load(x) end, name)
        refused(require, name)
      end
      data:add{ _type = "base.handler", _id = "ok", run = function() end }]])
    local ok, err = pcall(strata.world.new, { seed = 1, mods = { "paths" }, mod_path = { dir } })
    os.execute("rm -rf " .. support.q(dir))
    assert.is_true(ok, tostring(err))
  end)

  -- A mod's files are read as layouts are (strata.paths.read): no more than
  -- the cap and a byte, whatever the file's size claims.
  it("mod:read and require refuse a file past strata.paths.READ_MAX, naming it", function()
    local support = require "support"
    local dir = support.tempdir()
    support.write(dir .. "/huge/mod.lua", 'return { id = "huge", version = "1.0.0" }')
    support.write(dir .. "/huge/big.txt", "")
    os.execute("truncate -s 8G " .. support.q(dir .. "/huge/big.txt"))
    support.write(dir .. "/huge/init.lua", 'mod:read("big.txt")')
    local ok, err = pcall(strata.world.new, { seed = 1, mods = { "huge" }, mod_path = { dir } })
    os.execute("rm -rf " .. support.q(dir))
    assert.is_false(ok)
    assert.matches("mod:read: mod huge: cannot read '.-big.txt': it is larger than 67108864 bytes", err)
  end)
end)

describe("the sandbox", function()
  local w
  setup(function() w = world({ "base", "sandboxed" }) end)

  it("refuses each forbidden facility with a clear error", function()
    local r = w.data["base.handler"]:ensure("sandboxed.report").run()
    assert.matches("io.open is not available to mods", r.io)
    assert.matches("os.execute is not available to mods", r.os_execute)
    assert.matches("debug.sethook is not available to mods", r.debug)
    assert.matches("package.loadlib is not available to mods", r.loadlib)
    assert.matches("only text chunks", r.bytecode)
    assert.matches("bytecode is not allowed", r.bytecode_text)
    assert.matches("has no file 'os'", r.require_os)
    assert.matches("has no file 'luv'", r.require_c)
    assert.matches("may require only their own files", r.require_escape)
    assert.matches("string.dump is not available", r.dump)
    assert.matches("__gc finalizers are not available", r.gc)
    assert.matches("attempt to index a nil value", r.string_mt)
    assert.equal("allowed", r.text_load)
  end)

  it("stops a runaway loop and a memory bomb; the world keeps working", function()
    local obj = w:create_object{ kind = "thing" }
    -- a stopped handler is reported by advance (time still moves), not raised
    w:schedule{ after = 1, handler = "sandboxed.runaway" }
    local failures = w:advance(2)
    assert.equal(1, #failures)
    assert.matches("sandboxed.runaway: stopped, budget exceeded", failures[1].message)
    -- the memory limit alone: the CPU budget out of reach (which of the two a
    -- machine reaches first would be a race)
    local budget = mods.budget_ms
    mods.budget_ms = 3600000
    w:schedule{ after = 1, handler = "sandboxed.bomb" }
    failures = w:advance(2)
    mods.budget_ms = budget
    assert.matches("sandboxed.bomb: stopped, memory limit exceeded", failures[1].message)
    w:schedule{ after = 1, handler = "sandboxed.sneaky" }
    failures = w:advance(2)
    assert.matches("sandboxed.sneaky: stopped, budget exceeded", failures[1].message)
    w:schedule{ after = 1, handler = "sandboxed.fine", args = { obj = obj } }
    w:advance(2)
    assert.is_true(obj.state.ran)
    assert.equal(0, #w:timers())
  end)
end)

describe("strata.reload", function()
  it("re-runs a mod in place, and refuses to drop an ID that state still uses", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert.is_true(os.execute("mkdir -p " .. dir .. " && cp -r spec/fixtures/mods/testmod " .. dir .. "/"))
    local init = dir .. "/testmod/init.lua"
    local f = io.open(init) local original = f:read("a") f:close()
    local function rewrite_init(text) local g = io.open(init, "w") g:write(text) g:close() end

    local w = strata.world.new{ seed = 1, mods = { "base", "testmod" }, mod_path = { "mods", dir } }
    local log = w:create_object{ kind = "log" }
    w:schedule{ after = 1, every = 1, handler = "testmod.note", args = { log = log, tag = "t" } }
    local entry = w.data["base.handler"]:ensure("testmod.note")

    -- renaming the handler the timer uses: refused, nothing changed
    rewrite_init((original:gsub('_id = "note"', '_id = "note2"'):gsub('handler = "testmod.note"', 'handler = "testmod.note2"')))
    local ok, err = pcall(strata.reload, { "testmod" })
    assert.is_false(ok)
    assert.matches("strata.reload testmod: failed, nothing changed", err)
    assert.matches("unknown ID 'testmod.note' %(handler of timer", err)
    w:advance(1)
    assert.matches("^t@1:", log.state.log[1])

    -- changing its behaviour: the live timer runs the new code, the entry keeps its identity
    rewrite_init((original:gsub('%("%%s@%%g:%%d"%)', '("new %%s@%%g:%%d")')))
    strata.reload{ "testmod" }
    w:advance(1)
    assert.matches("^new t@2:", log.state.log[2])
    assert.equal(entry, w.data["base.handler"]:ensure("testmod.note"))
    assert.has_error(function() strata.reload{ "nosuch" } end)
    os.execute("rm -rf " .. dir)
  end)
end)
