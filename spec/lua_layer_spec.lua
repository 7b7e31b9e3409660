-- Issue 30, "the Lua layer, one module a type": the Lua library is plain
-- modules over the core. Its enums are the core's (exported by the binding,
-- never integers spelt again in Lua) and it makes no code from strings.
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
end)
