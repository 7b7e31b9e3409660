-- A save from before saves were tied to themselves (docs/saves.md, "One save,
-- whole"): format 3 without sums in meta, its checksums not covering file.id,
-- as spec/fixtures/world_v3_untied.save was written by the build before them
-- (commit 32db3d6). It opens as what it holds, the open writes nothing, and
-- the first save into it writes it whole and tied, the next ones only what
-- changed.
local strata = require "strata"
local support = require "support"

local OLD = support.read("spec/fixtures/world_v3_untied.save")
local MODS = { mod_path = { "mods" } }

describe("a save from before saves were tied", function()
  local dir, path
  before_each(function()
    dir = support.tempdir()
    path = dir .. "/old.db"
    support.write(path, OLD)
  end)
  after_each(function() os.execute("rm -rf " .. support.q(dir)) end)

  it("opens as what it holds, and the open leaves it as it was", function()
    assert.equal("", support.sql(path, "SELECT key FROM meta WHERE key GLOB 'sum.*'"))
    local w = strata.world.open(path, MODS)
    assert.same({ old = 20 }, support.tag_counts(w))
    assert.equal(3, w.seed)
    assert.equal(1, #w:timers())
    assert.is_true(OLD == support.read(path), "the open wrote into the file")
  end)

  it("is saved whole by the first save into it, tied from then on", function()
    local w = strata.world.open(path, MODS)
    local old_id = support.sql(path, "SELECT value FROM meta WHERE key = 'file.id'")
    local before = support.inode(path)
    w:objects()[5].props.tag = "new"
    w:save(path)
    assert.are_not.equal(before, support.inode(path)) -- a new file renamed over it
    assert.equal("8", support.sql(path, "SELECT count(*) FROM meta WHERE key GLOB 'sum.*'"))
    assert.are_not.equal(old_id, support.sql(path, "SELECT value FROM meta WHERE key = 'file.id'"))
    assert.same({ old = 19, new = 1 }, support.tag_counts(strata.world.open(path, MODS)))
    -- the next save writes what changed, into the file
    local tied = support.inode(path)
    w:objects()[6].props.tag = "new"
    w:save(path)
    assert.equal(tied, support.inode(path))
    assert.same({ old = 18, new = 2 }, support.tag_counts(strata.world.open(path, MODS)))
    -- and a row of the old file, the same object as it was, no longer belongs to it
    support.write(dir .. "/was.db", OLD)
    local uid = w:objects()[7].uid
    support.sql(path, ("ATTACH '%s' AS o; DELETE FROM objects WHERE uid = %d; INSERT INTO objects SELECT * FROM o.objects"
      .. " WHERE uid = %d;"):format(dir .. "/was.db", uid, uid))
    assert.matches("cannot open '[^']*': corrupt save: a row of objects %(#" .. uid .. "%) does not match its checksum$",
      support.err_of(strata.world.open, path, MODS))
  end)

  it("is not what a tied save becomes with its sums taken out", function()
    local w = strata.world.open(path, MODS)
    w:save(path)
    support.sql(path, "DELETE FROM meta WHERE key GLOB 'sum.*';")
    assert.matches("cannot open '[^']*': corrupt save: a meta row does not match its checksum$",
      support.err_of(strata.world.open, path, MODS))
  end)
end)
