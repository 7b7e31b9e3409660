-- Format-2 saves (one row per map, before chunks) are no longer read: such a
-- file gets one clear line saying what made it, and is left as it was.
-- spec/fixtures/world_v2.save was written by the format-2 build (commit 23e36bd).
local strata = require "strata"
local support = require "support"

local V2 = support.read("spec/fixtures/world_v2.save")

describe("a format-2 save", function()
  local dir, path
  before_each(function()
    dir = support.tempdir()
    path = dir .. "/old.db"
    support.write(path, V2)
  end)
  after_each(function() os.execute("rm -rf " .. support.q(dir)) end)

  it("is refused with one line naming the file and what made it, and left as it was", function()
    local ok, err = pcall(strata.world.open, path, { mod_path = { "spec/fixtures/mods" } })
    assert.is_false(ok)
    assert.matches("^[^\n]*cannot open '" .. path:gsub("%p", "%%%0") .. "': save format 2 was made by strata < 0%.2[^\n]*$",
      tostring(err))
    assert.equal(V2, support.read(path))
  end)
end)
