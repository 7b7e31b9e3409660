-- Format-2 saves (one row per map) still open, as exactly what was saved,
-- and the next save to the file upgrades it to format 3 (maps in chunks).
-- spec/fixtures/world_v2.save was written by the format-2 build (commit
-- 23e36bd) with spec/fixtures/world_v2.state, its state as
-- spec/fixtures/save_state.lua renders it: 33 objects, a 40x30 and a 100x70
-- map with stacks, 10 timers, 30 subscriptions, 3 streams.
local strata = require "strata"
local support = require "support"
local state_of = dofile("spec/fixtures/save_state.lua")

local OPEN = { mod_path = { "spec/fixtures/mods" } }
local V2 = support.read("spec/fixtures/world_v2.save")
local WANT = support.read("spec/fixtures/world_v2.state")

local function meta(path, key)
  local out = support.sh(("sqlite3 %s %s"):format(support.q(path),
    support.q(("SELECT value FROM meta WHERE key = '%s'"):format(key))))
  return out:gsub("%s+$", "")
end

local function inode(path) return (support.sh("stat -c %i " .. support.q(path))) end

describe("a format-2 save", function()
  local dir, path
  before_each(function()
    dir = support.tempdir()
    path = dir .. "/old.db"
    support.write(path, V2)
  end)
  after_each(function() os.execute("rm -rf " .. support.q(dir)) end)

  it("opens as exactly what was saved", function()
    assert.equal("2", meta(path, "version"))
    local w = strata.world.open(path, OPEN)
    assert.equal(WANT, state_of(w))
    assert.equal(V2, support.read(path)) -- opening writes nothing
  end)

  it("is upgraded to format 3 by the next save to it, then saved incrementally", function()
    local w = strata.world.open(path, OPEN)
    local was = inode(path)
    w:save(path)
    assert.not_equal(was, inode(path)) -- a full save, not format-3 rows in a format-2 file
    assert.equal("3", meta(path, "version"))
    assert.equal("2", meta(path, "rows.maps"))
    assert.equal("5", meta(path, "rows.tiles")) -- chunks of 64 x 64 cells: 40x30 in 1, 100x70 in 2 x 2
    assert.equal(WANT, state_of(strata.world.open(path, OPEN)))
    -- a cell of the large map: the next save writes into the file
    local big = w:object(2)
    big:set(70, 65, "wall")
    was = inode(path)
    w:save(path)
    assert.equal(was, inode(path))
    local now = state_of(w)
    assert.not_equal(WANT, now)
    assert.equal(now, state_of(strata.world.open(path, OPEN)))
  end)

  it("damaged (random bits flipped, 60 copies) opens identical or not at all", function()
    math.randomseed(2326)
    local failed, identical = 0, 0
    for _ = 1, 60 do
      local b = { V2:byte(1, -1) }
      for _ = 1, math.random(1, 8) do
        local at = math.random(1, #b)
        b[at] = b[at] ~ (1 << math.random(0, 7))
      end
      local parts = {}
      for j = 1, #b, 4096 do parts[#parts + 1] = string.char(table.unpack(b, j, math.min(j + 4095, #b))) end
      support.write(path, table.concat(parts))
      local ok, got = pcall(strata.world.open, path, OPEN)
      if ok then
        assert.equal(WANT, state_of(got))
        identical = identical + 1
      else
        assert.matches("cannot open", tostring(got))
        failed = failed + 1
      end
    end
    assert.equal(60, failed + identical)
  end)
end)
