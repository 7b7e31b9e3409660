-- A world remembers the save it opened or last saved (docs/saves.md, "Two
-- processes"): saving to that file after another process saved there is
-- refused, naming the file, unless the host asks to overwrite. In each store
-- (support.each_store: SQLite, and PostgreSQL when a server is given).
local strata = require "strata"
local support = require "support"

local LUA = "lua5.4"
local MODS = { mods = { "base" }, mod_path = { "mods" } }
local q = support.q

local function child(args)
  local out, code = support.sh(LUA .. " spec/fixtures/save_child.lua " .. args)
  assert.equal(0, code, out)
  return out
end

local function tags_of(path)
  local seen = {}
  for _, o in ipairs(strata.world.open(path, MODS):objects()) do seen[o.props.tag] = true end
  local list = {}
  for t in pairs(seen) do list[#list + 1] = t end
  table.sort(list)
  return list
end

describe("two processes that opened one save", function()
  support.each_store(describe, pending, function(store)
    local dir, path
    before_each(function()
      dir = support.tempdir()
      path = store.fresh()
      local w = strata.world.new{ seed = 1, mods = MODS.mods, mod_path = MODS.mod_path }
      for i = 1, 50 do w:create_object{ kind = "thing", props = { tag = "first", i = i } } end
      w:save(path)
    end)
    after_each(function()
      os.execute("rm -rf " .. q(dir))
      store.remove(path)
    end)

    for _, how in ipairs{ "reopen", "new" } do
      it("the second save is refused when the other process saved there (" .. how .. ")", function()
        local mine = strata.world.open(path, MODS)
        for _, o in ipairs(mine:objects()) do o.props.tag = "mine" end
        -- another process saves there: from the file (incremental) or a new world (full)
        support.write(dir .. "/go", "")
        assert.equal("saved theirs\n", child(how .. " " .. q(path) .. " theirs " .. q(dir .. "/go")))
        local theirs = store.name == "SQLite" and support.read(path) -- (a file's bytes, untouched)
        local err = support.err_of(mine.save, mine, path)
        -- (a file names itself again, "PATH was saved ..."; a server's world, "the world was saved ...")
        assert.matches("^world:save: cannot save to '" .. path:gsub("%p", "%%%0") .. "': [^\n]*was saved by another"
          .. " process since this world opened it", err)
        assert.is_true(not theirs or theirs == support.read(path), "the other process's save was written over")
        assert.same({ "theirs" }, tags_of(path))
        -- unless the host asks to
        mine:save(path, { overwrite = true })
        assert.same({ "mine" }, tags_of(path))
        -- and from then on the file is this world's again
        mine:create_object{ kind = "thing", props = { tag = "mine" } }
        mine:save(path)
        assert.same({ "mine" }, tags_of(path))
      end)
    end

    it("a save by this world itself, or to another path, needs nothing", function()
      local mine = strata.world.open(path, MODS)
      for _ = 1, 3 do
        mine:create_object{ kind = "thing", props = { tag = "first" } }
        mine:save(path)
      end
      local elsewhere = store.fresh()
      mine:save(elsewhere)
      mine:save(elsewhere)
      assert.same({ "first" }, tags_of(elsewhere))
      store.remove(elsewhere)
    end)
  end)

  it("an unknown option is named with the nearest known", function()
    local dir = support.tempdir()
    local path = dir .. "/w.db"
    strata.world.new{ seed = 1 }:save(path)
    local w = strata.world.open(path, MODS)
    local ok, err = pcall(function() w:save(path, { overwrit = true }) end)
    assert.is_false(ok)
    assert.matches("^[^:]*save_generation_spec.lua:%d+: world:save: unknown option 'overwrit' %(nearest known: overwrite%)", err)
    assert.matches("world:save: options must be a table", support.err_of(w.save, w, path, 3))
    os.execute("rm -rf " .. q(dir))
  end)
end)
