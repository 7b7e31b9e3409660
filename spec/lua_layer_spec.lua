-- Issue 30, "the Lua layer, one module a type": the Lua library is plain
-- modules over the core, one a type (handle, proxy, subscription, mod view,
-- world; streams are the binding's), each feature module returning its
-- methods for world.lua to install, with no table of internals they all
-- write into. Its enums are the core's (exported by the binding, never
-- integers spelt again in Lua) and it makes no code from strings.
local core = require "strata.core"
local support = require "support"
local root = os.getenv("STRATA_SOURCE_DIR") or "."

-- The lines of a library file without their comments.
local function code_lines(path)
  local out = {}
  for line in (support.read(root .. "/" .. path) .. "\n"):gmatch("(.-)\n") do
    out[#out + 1] = (line:gsub("%-%-.*$", ""))
  end
  return out
end

describe("the Lua library", function()
  it("gets the dispatcher's kinds from the core's strata_logic enum", function()
    local logic = core.runtime.logic
    local seen, n = {}, 0
    for name, kind in pairs(logic) do
      assert.is_string(name)
      assert.equal("integer", math.type(kind))
      assert.is_nil(seen[kind], name)
      seen[kind], n = name, n + 1
    end
    assert.equal(12, n)
    assert.equal("generate_floor", seen[0])
    assert.equal("generate_room", seen[11])
    -- no file names a kind by a number of its own
    for _, path in ipairs(support.library_files()) do
      for i, line in ipairs(code_lines(path)) do
        assert.is_nil(line:find("GENERATE[%u_,%s]*=%s*%d"), path .. ":" .. i .. ": " .. line)
        assert.is_nil(line:find("%[%d+%]%s*=%s*\"on_"), path .. ":" .. i .. ": " .. line)
      end
    end
  end)

  it("makes no code from strings (no load of a chunk it spells)", function()
    for _, path in ipairs(support.library_files()) do
      for i, line in ipairs(code_lines(path)) do
        assert.is_nil(line:find("%f[%w_]load%s*%(%s*%(?%s*[\"'%[]"), path .. ":" .. i .. ": " .. line)
      end
    end
  end)

  -- Each module loads first, alone, in a fresh Lua, and is a table: none
  -- depends on another having been loaded before it, nor is a function
  -- handed a table of internals to fill.
  for _, name in ipairs{ "handle", "proxy", "subscription", "modview", "modenv", "tiles", "runtime", "areas", "rooms",
    "walk", "grid", "branches", "branch_archetype", "world" } do
    it("strata." .. name .. " loads on its own and returns a table", function()
      local out, code = support.sh("lua5.4 -e " .. support.q(
        ('local m = require("strata.%s") io.write(type(m))'):format(name)))
      assert.equal(0, code, out)
      assert.equal("table", out)
    end)
  end

  it("has no shared table of internals: no file writes into another's", function()
    for _, path in ipairs(support.library_files()) do
      for i, line in ipairs(code_lines(path)) do
        local where = path .. ":" .. i .. ": " .. line
        assert.is_nil(line:find("internals", 1, true), where)
        assert.is_nil(line:find("%f[%w_]I%.[%w_]+%s*="), where)
        -- (only strata.world defines World's methods; the others return theirs)
        if not path:match("/world%.lua$") then assert.is_nil(line:find("function World[.:]"), where) end
      end
    end
  end)

  it("lives in lua/strata/ (its commands in lua/strata/cmd/), scripts/ keeping the developer tooling", function()
    for _, f in ipairs{ "init.lua", "world.lua", "handle.lua", "cli.lua", "cmd/run.lua", "cmd/play.lua" } do
      assert.is_string(support.read(root .. "/lua/strata/" .. f), f)
    end
    assert.is_nil(support.read(root .. "/scripts/strata/init.lua"))
    for _, f in ipairs{ "build", "test", "env", "deps", "demo", "bench", "fuzz", "pictures" } do
      assert.is_string(support.read(root .. "/scripts/" .. f), f)
    end
    assert.equal("lua/strata", support.library_dir)
    -- the library the specs run is that one
    local found = package.searchpath("strata.world", package.path)
    assert.is_truthy(found and found:find("lua/strata/world.lua", 1, true), found)
  end)
end)

