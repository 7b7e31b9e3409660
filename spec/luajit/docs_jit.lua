-- docs/luajit.md runs: each of its Lua blocks as a script of its own, in a
-- child luajit that finds libstrata and libstrata_lua on the library path
-- (the build's), as a game would with them installed.
local js = require "jit_support"
local support = require "support"

local function blocks(path)
  local out = {}
  for body in assert(support.read(path)):gmatch("\n```lua\n(.-)\n```") do out[#out + 1] = body end
  return out
end

describe("docs/luajit.md", function()
  it("every Lua block runs under LuaJIT", function()
    local list = blocks(js.root .. "/docs/luajit.md")
    assert.is_true(#list >= 2)
    local dir = support.tempdir()
    for i, body in ipairs(list) do
      support.write(("%s/block%d.lua"):format(dir, i), body .. "\n")
      local out, code = support.sh(("cd %s && env -u STRATA_FFI_LIB LUA_PATH=%s LUA_CPATH=';;' LD_LIBRARY_PATH=%s "
        .. "STRATA_LUA_DIR=%s luajit block%d.lua"):format(support.q(dir), support.q(js.root .. "/lua/?.lua;;"),
        support.q(js.build), support.q(js.root .. "/lua"), i))
      assert.equal(0, code, ("block %d:\n%s\n%s"):format(i, body, out))
    end
    support.sh("rm -rf " .. support.q(dir))
  end)
end)
