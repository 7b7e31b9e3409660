-- An open never writes (docs/saves.md, "Files beside a save"): a PATH-wal,
-- which strata never makes, or a PATH-journal that is not the journal of an
-- interrupted save of this file, is refused, naming it, and nothing is
-- touched; SQLite would have written it into the save (a WAL checkpointed, a
-- journal rolled back) and destroyed it.
local strata = require "strata"
local support = require "support"

local MODS = { mods = { "base" }, mod_path = { "mods" } }
local q = support.q

-- A save of a new world of n objects, each with props.tag = tag.
local function save_of(path, tag, n)
  local w = strata.world.new{ seed = 1, mods = MODS.mods, mod_path = MODS.mod_path }
  for i = 1, n do w:create_object{ kind = "thing", props = { tag = tag, i = i, pad = ("x"):rep(200) } } end
  w:save(path)
end

local function tag_of(path)
  local w = strata.world.open(path, MODS)
  local objs = w:objects()
  return objs[1].props.tag, #objs
end

-- Runs sql (which may copy files with .shell) in the sqlite3 shell on db.
local function sqlite(db, sql)
  local p = assert(io.popen("sqlite3 " .. q(db) .. " >/dev/null 2>&1", "w"))
  p:write(sql)
  p:close()
end

local function be32(s, i) return s:byte(i) << 24 | s:byte(i + 1) << 16 | s:byte(i + 2) << 8 | s:byte(i + 3) end

-- A rollback journal as SQLite leaves it once synced (a save killed after
-- that): the journal copied in the middle of a transaction on db (sql, then
-- copied to out), with its header's magic and record count filled in (SQLite
-- writes both when it syncs the journal, before it writes the database).
local function journal_of(db, sql, out)
  sqlite(db, "PRAGMA journal_mode=DELETE; BEGIN; " .. sql .. "\n.shell cp " .. q(db .. "-journal") .. " "
    .. q(out) .. "\nROLLBACK;\n")
  local j = assert(support.read(out), "no journal was copied")
  local sector, page = be32(j, 21), be32(j, 25)
  local n = (#j - sector) // (page + 8)
  assert.is_true(n > 0)
  j = "\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" .. string.char(n >> 24 & 255, n >> 16 & 255, n >> 8 & 255, n & 255) .. j:sub(13)
  support.write(out, j)
end

describe("a file beside a save", function()
  local dir, path, other
  before_each(function()
    dir = support.tempdir()
    path, other = dir .. "/w.db", dir .. "/other.db"
    save_of(path, "a", 300)
    save_of(other, "b", 900)
  end)
  after_each(function() os.execute("rm -rf " .. q(dir)) end)

  it("PATH-wal from another file: open refuses, naming it, and writes nothing", function()
    -- the WAL of another save, with its changes not yet checkpointed
    sqlite(other, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; UPDATE objects SET kind = 'x';\n.shell cp "
      .. q(other .. "-wal") .. " " .. q(path .. "-wal") .. "\n")
    local before, wal = support.read(path), support.read(path .. "-wal")
    assert.is_true(#wal > 0)
    local err = support.err_of(strata.world.open, path, MODS)
    assert.matches("cannot open '" .. path:gsub("%p", "%%%0") .. "': '" .. (path .. "-wal"):gsub("%p", "%%%0")
      .. "' lies beside it", err)
    assert.is_true(before == support.read(path), "the save was written")
    assert.is_true(wal == support.read(path .. "-wal"), "the WAL was changed")
    assert.is_nil(support.read(path .. "-shm"))
    -- a save there is refused the same way
    local w = strata.world.new{ seed = 1 }
    assert.matches("cannot save to '.*-wal' lies beside it", support.err_of(w.save, w, path))
    assert.is_true(before == support.read(path), "the save was written")
    os.remove(path .. "-wal")
    assert.same({ "a", 300 }, { tag_of(path) })
  end)

  it("PATH-journal of another file: open refuses, naming it, and writes nothing", function()
    journal_of(other, "UPDATE meta SET sum = sum + 1; UPDATE objects SET kind = 'x';", path .. "-journal")
    local before, journal = support.read(path), support.read(path .. "-journal")
    local err = support.err_of(strata.world.open, path, MODS)
    assert.matches("cannot open '" .. path:gsub("%p", "%%%0") .. "': '" .. (path .. "-journal"):gsub("%p", "%%%0")
      .. "' lies beside it and is not the journal of an interrupted save of this file", err)
    assert.is_true(before == support.read(path), "the save was written")
    assert.is_true(journal == support.read(path .. "-journal"), "the journal was changed")
    -- an incremental save of a world opened from it is refused too
    os.rename(path .. "-journal", dir .. "/j")
    local w = strata.world.open(path, MODS)
    os.rename(dir .. "/j", path .. "-journal")
    w:create_object{ kind = "thing" }
    assert.matches("cannot save to '.*-journal' lies beside it", support.err_of(w.save, w, path))
    assert.is_true(before == support.read(path), "the save was written")
    os.remove(path .. "-journal")
    assert.same({ "a", 300 }, { tag_of(path) })
  end)

  -- A journal of this very save, from a copy at the same generation changed
  -- the way a save changes it (meta first): rolled back, the save opens as it
  -- was (its first object's tag, and n objects).
  local function rolled_back(tag, n)
    local copy = dir .. "/copy.db"
    support.write(copy, support.read(path))
    journal_of(copy, "UPDATE meta SET sum = sum + 1; UPDATE objects SET kind = 'x';", path .. "-journal")
    assert.same({ tag, n }, { tag_of(path) })
    assert.is_nil(support.read(path .. "-journal"))
  end

  it("PATH-journal of an interrupted save of this very save is rolled back", function() rolled_back("a", 300) end)

  it("PATH-journal of a save written before generations, the same way", function()
    -- a save of the build before saves were tied (its checksums do not cover
    -- file.id), made older still: no generation
    support.write(path, support.read("spec/fixtures/world_v3_untied.save"))
    sqlite(path, "DELETE FROM meta WHERE key = 'file.id' OR key GLOB 'save.*';")
    rolled_back("old", 22) -- (and its world record, bookkeeping: world:objects() leaves it out)
  end)
end)
