-- Saves that cannot lie: a real save, damaged (one leaf page of each table
-- zeroed; random bits flipped in 300 copies; meta replaced by a recursive
-- view; a view, trigger or index added; one uid moved far away; rows, tables
-- and pages valid in another save of the same game spliced in), opens as
-- exactly what was saved, compared object by object, or not at all
-- ("cannot open"). Each run is a child process under a time limit, so that a
-- hang fails here instead of stalling the suite (spec/fixtures/damage.lua).
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
