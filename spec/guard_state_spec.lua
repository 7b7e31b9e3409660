-- The sandbox belongs to the Lua state that runs mods, not to the process:
-- `require "strata"` installs no signal handler; the first guarded call
-- installs one, for a real-time signal (never SIGPROF); the module is safe to
-- unload (built without -z nodelete, a process that ran a mod exits cleanly,
-- under valgrind too). Each check runs in a child lua5.4.
local SOURCE = os.getenv("STRATA_SOURCE_DIR") or os.getenv("PWD") or "."

local sh_quote = require("support").q

-- Runs code in a child `lua5.4` (under `prefix`, e.g. valgrind); returns its
-- output (stdout and stderr) and exit code.
local function child(code, prefix)
  local path = os.tmpname()
  local f = assert(io.open(path, "wb"))
  f:write(code)
  f:close()
  local p = io.popen(("%s timeout 300 lua5.4 %s %s 2>&1; echo \"EXIT $?\""):format(prefix or "",
    sh_quote(path), sh_quote(SOURCE .. "/spec/embed/mods")))
  local out = p:read("a")
  p:close()
  os.remove(path)
  local exit = tonumber(out:match("EXIT (%d+)%s*$"))
  return out, exit
end

-- The child's signals caught (/proc/self/status, SigCgt), as a function.
local CAUGHT = [[
local function caught()
  for line in io.lines("/proc/self/status") do
    local hex = line:match("^SigCgt:%s*(%x+)")
    if hex then return tonumber(hex, 16) end
  end
end
local function new_signals(before, after)
  local list = {}
  for s = 1, 64 do
    local bit = 1 << (s - 1)
    if after & bit ~= 0 and before & bit == 0 then list[#list + 1] = s end
    if before & bit ~= 0 and after & bit == 0 then list[#list + 1] = -s end
  end
  return table.concat(list, ",")
end
]]

-- A world with a mod whose callbacks run guarded: init.lua, a generator, and
-- one stopped by its budget.
local MOD_RUN = [[
local strata = require "strata"
strata.mods.budget_ms = 50
local w = strata.world.new{ seed = 1, mods = { "base", "hog" }, mod_path = { ... } }
w:create_area("hog.small"):floor(1)
local spin = w:create_area("hog.spin")
local ok, err = pcall(spin.floor, spin, 1)
assert(not ok and tostring(err):find("budget exceeded"), tostring(err))
print("ran")
]]

describe("the sandbox per Lua state", function()
  it("require 'strata' installs no signal handler", function()
    local out, exit = child(CAUGHT .. [[
local before = caught()
require "strata"
print("new: [" .. new_signals(before, caught()) .. "]")
]])
    assert.equals(0, exit, out)
    assert.matches("new: %[%]", out)
  end)

  it("require 'strata' leaves the host's string library its own, also after a mod ran", function()
    local out, exit = child([[
local lib = {}
for k, v in pairs(string) do lib[k] = v end
local index = getmetatable("").__index
local function same(when)
  for k, v in pairs(lib) do assert(string[k] == v, when .. ": string." .. k .. " changed") end
  for k in pairs(string) do assert(lib[k], when .. ": string." .. k .. " added") end
  assert(getmetatable("").__index == index, when .. ": the string metatable's __index changed")
end
require "strata"
same("after require")
]] .. MOD_RUN .. [[
same("after a mod ran")
print("same")
]])
    assert.equals(0, exit, out)
    assert.matches("same", out)
  end)

  it("counts C memory through the core's allocator, not a link-time wrap of malloc", function()
    local so = package.searchpath("strata.core", package.cpath)
    local p = io.popen("nm -D " .. sh_quote(so))
    local syms = p:read("a")
    p:close()
    assert.matches("strata_set_allocator", syms)
    assert.is_nil(syms:find("__wrap_malloc", 1, true), "malloc is still wrapped")
    assert.is_nil(syms:find("malloc_usable_size", 1, true), "malloc_usable_size is still used")
    assert.is_true(require("strata.core").guard.state().c_counted)
  end)

  it("the first guarded call installs one handler, for a real-time signal", function()
    local out, exit = child(CAUGHT .. [[
local before = caught()
]] .. MOD_RUN .. [[
print("new: [" .. new_signals(before, caught()) .. "]")
]])
    assert.equals(0, exit, out)
    local sig = tonumber(out:match("new: %[(%d+)%]"))
    assert.truthy(sig, out)
    assert.is_true(sig >= 34 and sig <= 64, out) -- SIGRTMIN..SIGRTMAX (glibc), not SIGPROF (27)
  end)

  it("the module is built without -z nodelete and a process that ran a mod exits cleanly", function()
    local so = package.searchpath("strata.core", package.cpath)
    assert.truthy(so, "strata.core not on LUA_CPATH")
    local p = io.popen("readelf -d " .. sh_quote(so))
    local dyn = p:read("a")
    p:close()
    assert.matches("NEEDED", dyn)
    assert.is_nil(dyn:find("NODELETE"), dyn)
    local out, exit = child(MOD_RUN)
    assert.equals(0, exit, out)
    assert.matches("ran", out)
  end)

  it("exits cleanly under valgrind: no invalid read, no jump to an unloaded module", function()
    if not os.execute("command -v valgrind >/dev/null 2>&1") then
      pending("valgrind is not installed")
      return
    end
    local out, exit = child(MOD_RUN, "valgrind -q --error-exitcode=3")
    assert.equals(0, exit, out)
    assert.matches("ran", out)
    assert.is_nil(out:find("Invalid read") or out:find("Jump to the invalid"), out)
  end)
end)
