-- Packaging (issue 37): the version at run time is project()'s, the list of
-- specs an installed rock runs agrees with the specs, and a mod's C memory
-- limit holds in whatever build of strata.core LUA_CPATH finds, the rock's
-- too (spec/install/rock.sh runs this spec against a `luarocks make` tree),
-- where the process also ends cleanly once Lua has unloaded the module.
local support = require "support"
local strata = require "strata"

local root = os.getenv("STRATA_SOURCE_DIR") or "."

-- "X.Y.Z" from the project() line of CMakeLists.txt.
local function project_version()
  local text = assert(support.read(root .. "/CMakeLists.txt"))
  return text:match("\nproject%(strata VERSION (%d+%.%d+%.%d+)")
end

describe("packaging", function()
  it("strata.version is project()'s", function()
    assert.is_string(project_version())
    assert.equal(project_version(), strata.version)
  end)

  it("the specs a rock runs are those that need no build tree, the others named with a reason", function()
    local listed, excepted = {}, {}
    for line in assert(support.read(root .. "/spec/install/rock_specs.txt")):gmatch("[^\n]+") do
      local except = line:match("^# not: (spec/%S+_spec%.lua) %(.+%)$")
      if except then excepted[except] = true
      elseif not line:match("^#") then listed[line] = true end
    end
    -- A spec needs the build tree when it runs the executable.
    local marker = { "STRATA_" .. "BIN", "build/" .. "strata" }
    local p = io.popen("cd " .. support.q(root) .. " && ls spec/*_spec.lua")
    local seen = {}
    for f in p:lines() do
      local text = assert(support.read(root .. "/" .. f))
      local needs = text:find(marker[1], 1, true) or text:find(marker[2], 1, true)
      seen[f] = true
      if needs then
        assert.is_nil(listed[f], f .. " runs the executable: not for a rock")
        assert.is_nil(excepted[f], f .. " runs the executable: no reason needed")
      else
        assert.is_true(listed[f] or excepted[f], f .. " is neither listed nor named with a reason")
        assert.is_nil(listed[f] and excepted[f], f .. " is both listed and left out")
      end
    end
    p:close()
    for f in pairs(listed) do assert.is_true(seen[f], f .. " is listed but no spec") end
    for f in pairs(excepted) do assert.is_true(seen[f], f .. " is named but no spec") end
  end)

  it("a mod's C allocations past its memory limit fail, and the process ends cleanly", function()
    local dir = support.tempdir()
    support.write(dir .. "/big/mod.lua", 'return { id = "big", version = "1.0.0", requires = { base = "*" } }')
    -- Six maps of 64 M cells each, all made in C: the limit (128 MB) stops them.
    support.write(dir .. "/big/init.lua", [[
data:add{ _type = "base.handler", _id = "grow", run = function(world)
  for i = 1, 6 do world:create_map{ width = 8000, height = 8000 } end
end }]])
    -- The CPU budget out of reach: only the memory limit can stop the handler.
    support.write(dir .. "/host.lua", [[
local strata = require "strata"
strata.mods.budget_ms = 3600000
local w = strata.world.new{ seed = 1, mods = { "big" }, mod_path = { arg[1] } }
w:schedule{ after = 1, handler = "big.grow" }
local failures = w:advance(2)
print("failures", #failures, failures[1] and failures[1].message)
local m = w:create_map{ width = 3, height = 1, fill = "floor" }
print("after", m:render())]])
    local out, code = support.sh(("cd %s && LUA_PATH=%s LUA_CPATH=%s timeout 60 prlimit --as=4000000000 lua5.4 host.lua %s")
      :format(support.q(dir), support.q(os.getenv("LUA_PATH") or ""), support.q(os.getenv("LUA_CPATH") or ""),
        support.q(dir)))
    os.execute("rm -rf " .. support.q(dir))
    assert.equal(0, code, "exit " .. code .. " (124: hung; 134, 139: crashed):\n" .. out)
    assert.matches("failures\t1\t[^\n]*out of memory", out)
    assert.matches("after\t...", out)
  end)
end)
