-- The documentation runs: every Lua code block of README.md and docs/lua-api.md
-- is executed (issue "A repository that stands alone"). A block whose first
-- line is `-- mods/<mod>/<file>.lua` is written to that file in a temporary
-- folder instead; a block starting `-- in a mod's init.lua` is run as the
-- init.lua of a mod of its own. Each other block runs as a script in that
-- folder, with the blocks before it in the same file already run. The other
-- files of docs/ show fragments (`...` where a mod's own code goes) and are
-- not run.
local root = os.getenv("STRATA_SOURCE_DIR") or "."

local function blocks(path)
  local f = assert(io.open(root .. "/" .. path))
  local text = f:read("a")
  f:close()
  local out = {}
  for body in text:gmatch("\n```lua\n(.-)\n```") do out[#out + 1] = body end
  return out
end

local support = require "support"
local sh = support.sh

-- support.write with a newline after text.
local function write_line(path, text) support.write(path, text .. "\n") end

local function run_file(doc)
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. dir))
  local ran, written = 0, {}
  for i, body in ipairs(blocks(doc)) do
    local file = body:match("^%-%- (mods/[%w_]+/[%w_]+%.lua)")
    if file then
      write_line(dir .. "/" .. file, body)
      written[file:match("^mods/([%w_]+)/")] = true
    elseif body:match("^%-%- in a mod's init%.lua") then
      local mod = "doc" .. i
      write_line(("%s/mods/%s/mod.lua"):format(dir, mod),
        ('return { id = "%s", version = "0.1.0", requires = { base = "*" } }'):format(mod))
      write_line(("%s/mods/%s/init.lua"):format(dir, mod), body)
      write_line(("%s/block%d.lua"):format(dir, i), ('local strata = require "strata"\n' ..
        'strata.world.new{ mods = { "%s" }, mod_path = { "mods" } }'):format(mod))
      local out, code = sh(("cd %s && lua5.4 block%d.lua"):format(dir, i))
      assert.equal(0, code, ("%s block %d (a mod's init.lua):\n%s\n%s"):format(doc, i, body, out))
      ran = ran + 1
    else
      write_line(("%s/block%d.lua"):format(dir, i), 'local strata = require "strata"\n' .. body)
      local out, code = sh(("cd %s && lua5.4 block%d.lua"):format(dir, i))
      assert.equal(0, code, ("%s block %d:\n%s\n%s"):format(doc, i, body, out))
      ran = ran + 1
    end
  end
  -- the mods a document shows load into a world
  for mod in pairs(written) do
    write_line(dir .. "/load_" .. mod .. ".lua", ('require("strata").world.new{ mods = { "%s" }, mod_path = { "mods" } }'):format(mod))
    local out, code = sh(("cd %s && lua5.4 load_%s.lua"):format(dir, mod))
    assert.equal(0, code, ("%s: mod %s does not load:\n%s"):format(doc, mod, out))
    ran = ran + 1
  end
  os.execute("rm -rf " .. dir)
  return ran
end

describe("the documentation", function()
  for _, doc in ipairs{ "README.md", "docs/lua-api.md" } do
    it(doc .. ": every Lua block runs", function()
      assert.is_true(run_file(doc) > 0)
    end)
  end
end)
