-- The specs themselves (issue 33): what they share lives in spec/support.lua,
-- once; a world's internals are read only through support's white-box
-- accessors (support.state, support.runtime, support.registry), so that a
-- spec breaks on a change of behaviour, not of world.lua's private fields.
local support = require "support"
local root = os.getenv("STRATA_SOURCE_DIR") or "."

-- The specs' files, but one: sandbox_spec attacks from mod code, whose
-- strings name the private fields on purpose (to show that they read nil).
local SKIP = { ["spec/sandbox_spec.lua"] = true }
local function specs()
  local out = {}
  local p = assert(io.popen("cd " .. support.q(root) .. " && ls spec/*_spec.lua"))
  for path in p:lines() do if not SKIP[path] then out[#out + 1] = path end end
  p:close()
  return out
end

-- Lines of a spec without their comments, as { n, text }.
local function code_lines(path)
  local out, n = {}, 0
  for line in assert(support.read(root .. "/" .. path), path):gmatch("([^\n]*)\n?") do
    n = n + 1
    out[#out + 1] = { n, (line:gsub("%-%-.*$", "")) }
  end
  return out
end

-- support.q's body, written so that this line does not hold it.
local QUOTE = [[gsub("'", "']] .. [[\\''")]]

-- Fields with a leading underscore that are public: a data entry's own.
local PUBLIC = { _id = true, _type = true, _mod = true }

describe("the specs", function()
  it("read no private field of a world or handle (support's white-box accessors do)", function()
    local found = {}
    for _, path in ipairs(specs()) do
      for _, l in ipairs(code_lines(path)) do
        for name in l[2]:gmatch("[%w_%)%]]%.(_%l[%w_]*)") do
          if not PUBLIC[name] then found[#found + 1] = ("%s:%d: %s"):format(path, l[1], name) end
        end
      end
    end
    assert.same({}, found)
  end)

  it("define no helper of their own that spec/support.lua has", function()
    local shared = {}
    for name in pairs(support) do shared[name] = true end
    local found = {}
    for _, path in ipairs(specs()) do
      for _, l in ipairs(code_lines(path)) do
        local name = l[2]:match("^%s*local%s+function%s+([%w_]+)") or l[2]:match("^%s*local%s+([%w_]+)%s*=%s*function")
        if name and shared[name] then found[#found + 1] = ("%s:%d: %s"):format(path, l[1], name) end
        if l[2]:find(QUOTE, 1, true) then
          found[#found + 1] = ("%s:%d: quotes for sh (support.q)"):format(path, l[1])
        end
      end
    end
    assert.same({}, found)
  end)
end)
