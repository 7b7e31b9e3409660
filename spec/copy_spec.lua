-- `strata copy SRC DST` (issue 39, "Past one machine"): a world copied whole
-- between stores, a file to a file and, when a PostgreSQL server is given
-- (STRATA_PG_URI), a file to the server and back; `strata dump --json` of
-- every copy prints the same bytes as the original's, on the example worlds
-- and on a world with every kind of state. Run through the built executable.
local support = require "support"

local root = os.getenv("STRATA_SOURCE_DIR") or "."
local BIN = os.getenv("STRATA_BIN") or (root .. "/build/strata")
local q = support.q
local MODS = " --mod-path " .. q(support.fixture_mods)

local function strata(args) return support.sh("NO_COLOR=1 " .. q(BIN) .. " " .. args .. " </dev/null") end

-- `strata dump --json` of the world at place: its text (asserting success).
local function dumped(place)
  local out, code = support.sh(q(BIN) .. " dump --json " .. q(place) .. MODS .. " 2>&1")
  assert.equal(0, code, place .. ": " .. out)
  return out
end

-- `strata copy src dst`, asserting success and silence.
local function copy(src, dst)
  local out, code = strata("copy " .. q(src) .. " " .. q(dst) .. MODS)
  assert.equal(0, code, out)
  assert.equal("", out)
end

-- The worlds the copies are checked on, each saved to a file of dir: { { name, path } }.
local function saved_worlds(dir)
  local list = support.example_worlds()
  list[#list + 1] = { "everything", (support.everything_world()) }
  for _, e in ipairs(list) do
    local path = ("%s/%s.db"):format(dir, e[1])
    e[2]:save(path)
    e[2] = path
  end
  return list
end

local dir, worlds
setup(function()
  dir = support.tempdir()
  worlds = saved_worlds(dir)
end)
teardown(function() os.execute("rm -rf " .. q(dir)) end)

describe("strata copy", function()
  it("copies a world file to another, the same world (dump --json byte for byte)", function()
    for _, e in ipairs(worlds) do
      local other = ("%s/%s-other.db"):format(dir, e[1])
      copy(e[2], other)
      assert.equal(dumped(e[2]), dumped(other), e[1])
    end
  end)

  it("replaces what DST holds, as a save to another place does", function()
    local dst = dir .. "/replaced.db"
    copy(worlds[1][2], dst)
    copy(worlds[2][2], dst)
    assert.equal(dumped(worlds[2][2]), dumped(dst))
  end)

  support.each_store(describe, pending, function(store)
    it("copies a world file to the server and back, the same world in all three", function()
      for _, e in ipairs(worlds) do
        local there, back = store.fresh(), ("%s/%s-back.db"):format(dir, e[1])
        copy(e[2], there)
        copy(there, back)
        local text = dumped(e[2])
        assert.equal(text, dumped(there), e[1])
        assert.equal(text, dumped(back), e[1])
      end
    end)

    it("refuses the server's world as its own DST, however the URI spells it", function()
      local there = store.fresh()
      copy(worlds[1][2], there)
      local other = there:gsub("^postgresql://", "postgres://")
      local out, code = strata("copy " .. q(there) .. " " .. q(other))
      support.usage_line("copy", out, code, "is SRC: a copy needs another place")
    end)
  end, "PostgreSQL")

  it("refuses DST naming SRC, by the same name or another (exit 2), and leaves it as it was", function()
    local src = worlds[1][2]
    local before = support.read(src)
    os.execute("ln -s " .. q(src) .. " " .. q(dir .. "/link.db"))
    for _, dst in ipairs{ src, dir .. "/./" .. worlds[1][1] .. ".db", dir .. "/link.db" } do
      local out, code = strata("copy " .. q(src) .. " " .. q(dst))
      support.usage_line("copy", out, code, "DST '[^']*' is SRC: a copy needs another place", dst)
    end
    assert.equal(before, support.read(src))
  end)

  it("says in one line (exit 1) why a world cannot be opened or saved, and writes nothing", function()
    local out, code = strata("copy " .. q(dir .. "/missing.db") .. " " .. q(dir .. "/new.db"))
    support.refused_line("copy", out, code, "cannot open '[^']*missing%.db'")
    assert.is_nil(support.read(dir .. "/new.db"))
    support.write(dir .. "/junk.db", "not a world\n")
    out, code = strata("copy " .. q(dir .. "/junk.db") .. " " .. q(dir .. "/new.db"))
    support.refused_line("copy", out, code, "cannot open '[^']*junk%.db'")
    assert.is_nil(support.read(dir .. "/new.db"))
    out, code = strata("copy " .. q(worlds[1][2]) .. " " .. q(dir .. "/no/such/folder.db") .. MODS)
    support.refused_line("copy", out, code, "cannot save to '[^']*folder%.db'")
    -- a mod the world needs, not found: the option that finds it
    out, code = support.sh("NO_COLOR=1 " .. q(BIN) .. " copy " .. q(worlds[4][2]) .. " " .. q(dir .. "/new.db"))
    support.refused_line("copy", out, code, "mod 'crypt' not found.*%-%-mod%-path DIR")
    assert.is_nil(support.read(dir .. "/new.db"))
  end)

  it("takes its arguments as every command does (exit 2 and a hint for a mistake)", function()
    local out, code = strata("copy " .. q(worlds[1][2]))
    support.usage_line("copy", out, code, "missing DST")
    out, code = strata("copy - " .. q(dir .. "/x.db"))
    support.usage_line("copy", out, code, "SRC cannot be '%-': a world is stored in an SQLite file or a postgresql")
    out, code = strata("copy " .. q(worlds[1][2]) .. " " .. q(dir .. "/x.db") .. " --overwrit")
    support.usage_line("copy", out, code, "unknown option '%-%-overwrit' %(nearest known: ")
    out, code = strata("copy --help")
    assert.equal(0, code, out)
    assert.matches("usage: strata copy SRC DST %[options%]", out)
    assert.matches("postgresql://", out)
    out, code = strata("help")
    assert.matches("\n  copy +copy a world whole", out)
  end)
end)
