-- strata.ffi.lua54: a LuaJIT process runs Lua 5.4 (libstrata_lua, its
-- sandbox for mods) beside strata.ffi, both on one core. Run in a child
-- luajit: the spec's own process has strata.ffi loaded from libstrata.
local js = require "jit_support"
local support = require "support"

local SCRIPT = [[
local lua54 = require "strata.ffi.lua54"
local state = assert(lua54.new())
local v, version, cost = assert(state:run([=[
  local strata = require "strata"
  local w = strata.world.new{ seed = 3, mods = { "base" } }
  local m = w:create_map{ width = 5, height = 2, fill = "floor" }
  return _VERSION, strata.version, m:find_path({ 0, 0 }, { 4, 1 }).cost]=]))
print(v, version, cost)
print(state:run("error('boom')", "mine"))
local strata = state.strata
print(strata.version, strata.tilemap.new{ width = 3, height = 3, fill = "floor" }:find_path({ 0, 0 }, { 2, 2 }).cost)
state:close()
print(pcall(state.run, state, "return 1"))
]]

describe("strata.ffi.lua54 (LuaJIT)", function()
  it("runs Lua 5.4 and strata's module inside LuaJIT, strata.ffi on libstrata_lua's core", function()
    local dir = support.tempdir()
    support.write(dir .. "/host.lua", SCRIPT)
    -- no libstrata anywhere strata.ffi looks: it can only take libstrata_lua's
    local out, code = support.sh(("cd %s && env -u STRATA_FFI_LIB -u LD_LIBRARY_PATH LUA_PATH=%s LUA_CPATH=';;' "
      .. "STRATA_LUA_DIR=%s STRATA_LUA_LIB=%s luajit host.lua"):format(support.q(dir),
      support.q(js.root .. "/lua/?.lua;;"), support.q(js.root .. "/lua"), support.q(js.build .. "/libstrata_lua.so.0")))
    support.sh("rm -rf " .. support.q(dir))
    assert.equal(0, code, out)
    local version = js.lua54("io.write(require('strata').version)")
    assert.equal(("Lua 5.4\t%s\t5.0\nnil\tmine:1: boom\n%s\t4\n"):format(version, version), out:match("^(.-)false"))
    assert.matches("false\t[^\n]*the state was closed", out)
  end)
end)
