-- Saves that cannot lie: a real save, damaged (one leaf page of each table
-- zeroed; random bits flipped in 300 copies; meta replaced by a recursive
-- view; a view, trigger or index added; one uid moved far away; rows, tables
-- and pages valid in another save of the same game spliced in), opens as
-- exactly what was saved, compared object by object, or not at all
-- ("cannot open"). Each run is a child process under a time limit, so that a
-- hang fails here instead of stalling the suite (spec/fixtures/damage.lua).
-- In PostgreSQL (at the end): rows changed behind strata's back.
local strata = require "strata"
local support = require "support"
local LUA_PATH, LUA_CPATH = os.getenv("LUA_PATH") or "", os.getenv("LUA_CPATH") or ""

local function run(what)
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. dir))
  local cmd = ("LUA_PATH='%s' LUA_CPATH='%s' timeout 120 prlimit --as=4000000000 lua5.4 spec/fixtures/damage.lua %s %s 2>&1")
    :format(LUA_PATH, LUA_CPATH, dir, what)
  local p = io.popen(cmd)
  local out = p:read("a")
  local _, _, code = p:close()
  os.execute("rm -rf " .. dir)
  assert(code == 0, ("damage.lua %s: exit %s (124: it hung):\n%s"):format(what, tostring(code), out))
  local lines = {}
  for line in out:gmatch("[^\n]+") do
    local copies, failed, identical, other = line:match("(%d+) copies, (%d+) failed to open, (%d+) opened identical, (%d+) other")
    if copies then
      copies, failed, identical, other = tonumber(copies), tonumber(failed), tonumber(identical), tonumber(other)
      assert(other == 0, "a damaged save opened as something that was not saved:\n" .. line)
      assert(failed + identical == copies, line)
      lines[#lines + 1] = { line = line, copies = copies, failed = failed, identical = identical }
    end
  end
  assert(#lines > 0, out)
  return lines, out
end

describe("a damaged save", function()
  it("with one leaf page of any table zeroed does not open", function()
    local lines = run("pages")
    assert.equal(8, #lines)
    for _, l in ipairs(lines) do assert.equal(l.copies, l.failed, l.line) end
  end)

  it("with random bits flipped, in 300 copies, opens identical or not at all", function()
    local lines, out = run("flips")
    assert.equal(300, lines[1].copies)
    print("\n" .. out)
  end)

  it("with meta a recursive view, or a view, trigger or index added, does not open, at once", function()
    local lines, out = run("view")
    for _, l in ipairs(lines) do assert.equal(l.copies, l.failed, l.line) end
    local took = tonumber(out:match("took ([%d.]+) s"))
    assert.is_true(took < 1, out)
  end)

  it("with a uid moved to 10^8 or beyond does not open, and costs no memory", function()
    local lines, out = run("uid")
    for _, l in ipairs(lines) do assert.equal(l.copies, l.failed, l.line) end
    assert.is_true(tonumber(out:match("memory: (%d+) MB")) < 64, out)
    -- with the checksum forged, it opens as what it says, at the cost of the file
    assert.matches("forged uid 2%^39: opened, 304 objects, the moved one there", out)
    assert.is_true(tonumber(out:match("RSS grew ([%d.]+) MB")) < 64, out)
  end)

  -- Saves tied to themselves (docs/saves.md, "A save is one whole"): each is
  -- refused, and the one line names the table.
  it("with a row, a timer, a chunk, the seed row or a whole table of another save of the game does not open", function()
    local lines = run("splices")
    assert.is_true(#lines >= 18, #lines .. " cases")
    for _, l in ipairs(lines) do
      assert.is_true(l.copies > 0, l.line)
      assert.equal(l.copies, l.failed, l.line)
    end
  end)

  it("with a page an incremental save changed put back as it was (a lost write) does not open", function()
    local lines = run("stale")
    assert.equal(2, #lines)
    for _, l in ipairs(lines) do
      assert.is_true(l.copies >= 5, l.line)
      assert.equal(l.copies, l.failed, l.line)
    end
  end)
end)

-- Their counterparts in PostgreSQL (issue 39), where a world is the rows of
-- its schema: a row changed or deleted behind strata's back, or one of
-- another save of the game put in its place, is refused when the world
-- opens, one line naming the world. (Pages, journals and views are a file's.)
describe("a damaged save", function()
  local MODS = { mods = { "base", "testmod" }, mod_path = support.mod_path }

  -- A world with a row in every table, saved to place; returns it.
  local function saved(place)
    local w = strata.world.new{ seed = 5, mods = MODS.mods, mod_path = MODS.mod_path }
    local m = w:create_map{ width = 40, height = 40, fill = "rock" }
    m:set(3, 3, "floor")
    local a = w:create_actor{ archetype = "testmod.goblin", map = m, x = 3, y = 3, props = { hp = 7 } }
    for i = 1, 20 do w:create_object{ kind = "thing", props = { i = i } } end
    w:schedule{ after = 5, handler = "testmod.note", args = { tag = "x" } }
    a:subscribe("testmod.poked", "testmod.on_poke", { label = "a", add = 1 })
    w.rng:stream("dice"):int(6)
    w:save(place)
    return w
  end

  local function refused(place, what)
    local err = support.err_of(strata.world.open, place, MODS)
    assert.matches("cannot open '", err, 1, what)
  end

  support.each_store(describe, pending, function(store)
    it("with a row of any table changed or deleted behind strata's back does not open", function()
      for _, sql in ipairs{
        "UPDATE %s.objects SET x = x + 1 WHERE x IS NOT NULL",
        "UPDATE %s.objects SET kind = 'thinG' WHERE kind = 'thing' AND uid = (SELECT max(uid) FROM %s.objects)",
        "DELETE FROM %s.objects WHERE uid = (SELECT max(uid) FROM %s.objects)",
        "UPDATE %s.timers SET due = due + 1",
        "UPDATE %s.subscriptions SET priority = priority + 1",
        "UPDATE %s.rng SET state = state || '0'",
        "UPDATE %s.maps SET width = width + 1",
        "UPDATE %s.tiles SET cells = cells || '\\x00'::bytea",
        "UPDATE %s.mods SET version = '9.9.9' WHERE id = 'testmod'",
      } do
        local place = store.fresh()
        saved(place)
        support.psql(place, sql)
        refused(place, sql)
      end
    end)

    it("with a row of another save of the game in its place does not open", function()
      local place, other = store.fresh(), store.fresh()
      local w = saved(place)
      -- the same rows but one, saved by the same game to another world
      w:objects()[1].props.hp = 8
      w:save(other)
      local schema = "strata_" .. other:match("world=([%w_]+)")
      support.psql(place, ("UPDATE %%s.objects AS o SET props = t.props, sum = t.sum FROM %s.objects AS t"
        .. " WHERE o.uid = t.uid AND o.props IS DISTINCT FROM t.props"):format(schema))
      refused(place, "a row of another save")
      -- and the other save, whole, opens
      assert.equal(8, strata.world.open(other, MODS):objects()[1].props.hp)
    end)
  end, "PostgreSQL")
end)
