-- Format 3 saves (docs/saves.md, "Files from before"): rows checked by
-- FNV-1a, a byte at a time, as spec/fixtures/world_v3_tied.save was written
-- by the build before format 4 (commit 66d20ae, from world_v3_untied.save).
-- It opens as what it holds, the open writes nothing, and the first save
-- into it writes it whole in format 4, the next ones only what changed.
local strata = require "strata"
local support = require "support"

local V3 = support.read("spec/fixtures/world_v3_tied.save")
local MODS = { mod_path = { "mods" } }

describe("a format-3 save", function()
  local dir, path
  before_each(function()
    dir = support.tempdir()
    path = dir .. "/v3.db"
    support.write(path, V3)
  end)
  after_each(function() os.execute("rm -rf " .. support.q(dir)) end)

  it("opens as what it holds, and the open leaves it as it was", function()
    assert.equal("3", support.sql(path, "SELECT value FROM meta WHERE key = 'version'"))
    local w = strata.world.open(path, MODS)
    assert.same({ v3 = 20 }, support.tag_counts(w))
    assert.is_true(w:objects()[3]:has_tag("tied"))
    assert.equal(3, w.seed)
    assert.equal(1, #w:timers())
    assert.is_true(V3 == support.read(path), "the open wrote into the file")
  end)

  it("is saved whole in format 4 by the first save into it, then by what changed", function()
    local w = strata.world.open(path, MODS)
    local before = support.inode(path)
    w:objects()[5].props.tag = "new"
    w:save(path)
    assert.are_not.equal(before, support.inode(path)) -- a new file renamed over it
    assert.equal("4", support.sql(path, "SELECT value FROM meta WHERE key = 'version'"))
    local w2 = strata.world.open(path, MODS)
    assert.same({ v3 = 19, new = 1 }, support.tag_counts(w2))
    assert.is_true(w2:objects()[3]:has_tag("tied"))
    assert.equal(1, #w2:timers())
    -- the next save writes what changed, into the file
    local v4 = support.inode(path)
    w:objects()[6].props.tag = "new"
    w:save(path)
    assert.equal(v4, support.inode(path))
    assert.same({ v3 = 18, new = 2 }, support.tag_counts(strata.world.open(path, MODS)))
  end)

  it("lends no row to a format-4 file, which does not pass for format 3", function()
    local w = strata.world.open(path, MODS)
    w:save(path)
    support.write(dir .. "/was.db", V3)
    local uid = w:objects()[7].uid
    support.sql(path, ("ATTACH '%s' AS o; DELETE FROM objects WHERE uid = %d; INSERT INTO objects SELECT * FROM o.objects"
      .. " WHERE uid = %d;"):format(dir .. "/was.db", uid, uid))
    assert.matches("cannot open '[^']*': corrupt save: a row of objects %(#" .. uid .. "%) does not match its checksum$",
      support.err_of(strata.world.open, path, MODS))
    w:save(dir .. "/again.db")
    support.sql(dir .. "/again.db", "UPDATE meta SET value = 3 WHERE key = 'version'")
    assert.matches("cannot open '[^']*': corrupt save: a meta row does not match its checksum$",
      support.err_of(strata.world.open, dir .. "/again.db", MODS))
  end)
end)
