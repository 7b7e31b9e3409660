-- LÖVE finds strata.ffi: a game whose main.lua requires it, run headless by
-- Debian's love under xvfb-run, with libstrata on the library path only
-- (docs/luajit.md, "Installing and finding libstrata").
local js = require "jit_support"
local support = require "support"

local MAIN = [[
function love.load()
  local ok, strata = pcall(require, "strata.ffi")
  local f = assert(io.open(%q, "w"))
  if ok then
    local m = strata.tilemap.new{ width = 20, height = 5, fill = "floor" }
    local p = m:find_path({ 0, 0 }, { 19, 4 }, { connectivity = 8 })
    f:write(#p, " ", ("%%.2f"):format(p.cost), "\n")
  else
    f:write("error: ", tostring(strata), "\n")
  end
  f:close()
  love.event.quit(0)
end
]]

describe("strata.ffi in LÖVE", function()
  local _, missing = support.sh("command -v love && command -v xvfb-run")
  if missing ~= 0 then
    pending("love or xvfb-run missing (scripts/deps installs them)")
    return
  end
  it("is found by require in a game, libstrata on the library path", function()
    local dir = support.tempdir()
    support.write(dir .. "/main.lua", MAIN:format(dir .. "/out.txt"))
    local out, code = support.sh(("env -u STRATA_FFI_LIB LUA_PATH=%s LD_LIBRARY_PATH=%s SDL_AUDIODRIVER=dummy "
      .. "timeout 120 xvfb-run -a love %s"):format(support.q(js.root .. "/lua/?.lua;;"), support.q(js.build), support.q(dir)))
    local got = support.read(dir .. "/out.txt")
    support.sh("rm -rf " .. support.q(dir))
    assert.equal(0, code, out)
    assert.equal("20 20.66\n", got)
  end)
end)
