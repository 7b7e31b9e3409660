-- Saves: the two-process test, unknown IDs on open, corrupt files, SIGKILL during a save.
-- What does not depend on the store runs in each (support.each_store: SQLite,
-- and PostgreSQL when STRATA_PG_URI names a server); corrupt files and
-- SIGKILL amid a file's journal and temporaries are SQLite's.
local strata = require "strata"
local support = require "support"

local MODS = { mods = { "base", "testmod" }, mod_path = { "mods", "spec/fixtures/mods" } }
local LUA = "lua5.4"

local function tmpname()
  local p = os.tmpname()
  os.remove(p)
  return p .. ".db"
end

local function run(cmd)
  local f = assert(io.popen(cmd .. " 2>&1"))
  local out = f:read("a")
  local ok, _, code = f:close()
  return out, ok, code
end

-- A world saved to path, then changed (the goblin's hp 9, a floor at (3, 3)
-- on its map): the world, the map and the goblin.
local function changed_since_saved(path)
  local w = strata.world.new{ seed = 1, mods = MODS.mods, mod_path = MODS.mod_path }
  local m = w:create_map{ width = 8, height = 8, fill = "rock" }
  local a = w:create_actor{ archetype = "testmod.goblin" }
  w:save(path)
  a.state.hp = 9
  m:set(3, 3, "floor")
  return w, m, a
end

describe("world saves", function()
  support.each_store(describe, pending, function(store)
    it("re-bind every handler, timer and subscription in a second process", function()
      local path = store.fresh()
      local ids, ok = run(LUA .. " spec/fixtures/two_process.lua build " .. support.q(path))
      assert.is_true(ok, ids)
      local log_uid, gob_uid = ids:match("(%d+)%s+(%d+)")
      local resumed, ok2 = run(("%s spec/fixtures/two_process.lua resume %s %s %s"):format(LUA, support.q(path), log_uid, gob_uid))
      assert.is_true(ok2, resumed)
      local control = run(LUA .. " spec/fixtures/two_process.lua control")
      assert.equal(control, resumed)
      -- and the outcome is not empty: timers from before and after the save ran
      assert.matches("rep@3:%d+\nonce@5:%d+\nrep@7:%d+\nrep@11:%d+\nrep@15:%d+\nrep@19:%d+", resumed)
      assert.matches("poke a by me\npoke b by me", resumed)
      assert.matches("result 1111", resumed) -- 1000 global + 100 archetype event + 1 + 10 subscriptions
      store.remove(path)
    end)

    it("keeps state, time, the uid counter and RNG positions in one process", function()
      local path = store.fresh()
      local w = strata.world.new{ seed = 3, mods = MODS.mods, mod_path = MODS.mod_path }
      local m = w:create_object{ kind = "map" }
      local a = w:create_actor{ archetype = "testmod.goblin", map = m, x = 4, y = 5 }
      a.state.inv = { "rope", n = 2.5, ref = m, flags = { [10] = true } }
      a:tag("hostile"):tag("small"):tag("x"):untag("x")
      w:advance(12.5)
      local r = w.rng:stream("k")
      r:int(1, 10)
      w:save(path)
      local expect = { r:int(1, 1e9), r:int(1, 1e9) }
      local w2 = strata.world.open(path, MODS)
      local a2 = w2:object(a.uid)
      assert.equal("actor", a2.kind)
      assert.equal("testmod.goblin", a2.archetype)
      assert.equal(4, a2.x)
      assert.equal(5, a2.y)
      assert.equal(w2:object(m.uid), a2.map)
      assert.equal(w:create_object{ kind = "z" }.uid, w2:create_object{ kind = "z" }.uid)
      assert.equal("rope", a2.state.inv[1])
      assert.same({ "hostile", "small" }, a2:tags())
      assert.is_true(a2:has_tag("small"))
      assert.is_false(a2:has_tag("x"))
      assert.equal(2.5, a2.state.inv.n)
      assert.equal(true, a2.state.inv.flags[10])
      assert.equal(w2:object(m.uid), a2.state.inv.ref)
      assert.equal(12.5, w2.time)
      assert.same(expect, { w2.rng:stream("k"):int(1, 1e9), w2.rng:stream("k"):int(1, 1e9) })
      store.remove(path)
    end)

    it("refuses a save whose IDs are unknown, listing each with where it is used", function()
      local path = store.fresh()
      local w = strata.world.new{ seed = 1, mods = MODS.mods, mod_path = MODS.mod_path }
      local a = w:create_actor{ archetype = "testmod.goblin" }
      local log = w:create_object{ kind = "log" }
      w:schedule{ after = 5, handler = "testmod.note", args = { log = log, tag = "x" } }
      a:subscribe("testmod.poked", "testmod.on_poke", { label = "a", add = 1 })
      w:save(path)
      -- the mod is missing
      local ok, err = pcall(strata.world.open, path, { mods = { "base" }, mod_path = MODS.mod_path })
      assert.is_false(ok)
      assert.matches("4 unknown IDs", err)
      assert.matches("unknown ID 'testmod.goblin' %(archetype of actor#" .. a.uid .. "%)", err)
      assert.matches("unknown ID 'testmod.note' %(handler of timer #%d+%)", err)
      assert.matches("unknown ID 'testmod.poked' %(event of subscription", err)
      assert.matches("unknown ID 'testmod.on_poke' %(handler of subscription", err)
      -- an ID was renamed: the nearest known ID is suggested
      ok, err = pcall(strata.world.open, path, { mods = MODS.mods, mod_path = { "mods", "spec/fixtures/mods_renamed" } })
      assert.is_false(ok)
      assert.matches("1 unknown ID:", err)
      assert.matches("unknown ID 'testmod.note' %(handler of timer #%d+%) %(nearest known: testmod.notes", err)
      -- the file is unchanged and still opens with the right mods
      local w2 = strata.world.open(path, MODS)
      assert.equal(1, #w2:timers())
      store.remove(path)
    end)

    it("save to the place it came from writes the changes, on top, reopened", function()
      local path = store.fresh()
      local w, m, a = changed_since_saved(path)
      w:save(path)
      local w2 = strata.world.open(path, MODS)
      assert.equal(9, w2:object(a.uid).state.hp)
      assert.same({ "rock", "floor" }, w2:object(m.uid):tokens(3, 3))
      -- and the reopened world saves into the same place, incrementally, on top
      w2:object(a.uid).state.hp = 10
      w2:save(path)
      assert.equal(10, strata.world.open(path, MODS):object(a.uid).state.hp)
      store.remove(path)
    end)
  end)

  it("a failed save (a directory in the way) loses nothing: the next save to the world's file has the changes", function()
    local path = tmpname()
    local w, m, a = changed_since_saved(path)
    -- a directory in the way of a new file: an error naming it, nothing written
    local dir = tmpname()
    os.execute("mkdir " .. dir)
    local ok, err = pcall(w.save, w, dir)
    assert.is_false(ok)
    assert.matches("cannot save to '" .. dir:gsub("%p", "%%%0") .. "': it is a directory", err)
    os.remove(dir)
    -- the changes are still to be written: the next save to the world's file has them
    w:save(path)
    local w2 = strata.world.open(path, MODS)
    assert.equal(9, w2:object(a.uid).state.hp)
    assert.same({ "rock", "floor" }, w2:object(m.uid):tokens(3, 3))
    os.remove(path)
  end)

  it("gives a clear error for foreign, corrupt and missing files", function()
    local path = tmpname()
    local f = io.open(path, "wb") f:write(("garbage"):rep(1000)) f:close()
    local ok, err = pcall(strata.world.open, path, MODS)
    assert.is_false(ok)
    assert.matches("cannot open '" .. path:gsub("%p", "%%%0") .. "'", err)
    os.execute("sqlite3 " .. path .. " 'create table t(x)' 2>/dev/null") -- a valid database of another kind
    os.remove(path)
    local db = io.popen("sqlite3 " .. path, "w")
    if db then db:write("create table meta(key, value); insert into meta values('format', 'other');") db:close() end
    ok, err = pcall(strata.world.open, path, MODS)
    assert.is_false(ok)
    assert.matches("not a strata world save", err)
    ok, err = pcall(strata.world.open, "/nonexistent/dir/w.db", MODS)
    assert.matches("cannot open '/nonexistent/dir/w.db'", err)
    os.remove(path)
  end)

  it("survives SIGKILL at random moments during saves: old or new world, never a mix", function()
    local path = tmpname()
    local pidfile = path .. ".pid"
    math.randomseed(os.time())
    local opened, gens, mid_save = 0, {}, 0
    for round = 1, 25 do
      os.execute(("%s spec/fixtures/saver.lua %s >/dev/null 2>&1 & echo $! > %s"):format(LUA, path, pidfile))
      local pf = io.open(pidfile) local pid = pf:read("l") pf:close()
      -- wait for a first save, then kill at a random moment
      for _ = 1, 200 do
        local f = io.open(path) if f then f:close() break end
        os.execute("sleep 0.02")
      end
      os.execute(("sleep %.3f"):format(math.random() * 0.3))
      os.execute("kill -9 " .. pid .. " 2>/dev/null")
      os.execute("sleep 0.05")
      -- a full save leaves its PATH.XXXXXX.tmp, an incremental one (the
      -- saver's later saves, to the file it saved to) a hot PATH-journal
      local f = io.open(path .. "-journal")
      if f then f:close() end
      if f or #support.write_leftovers(path) > 0 then mid_save = mid_save + 1 end
      local w = strata.world.open(path, { mods = { "base" }, mod_path = { "mods" } })
      local objs = w:objects()
      local g = objs[1].props.gen
      for _, o in ipairs(objs) do assert.equal(g, o.props.gen) end
      assert.equal(500 + g, #objs)
      opened = opened + 1
      gens[#gens + 1] = g
      _ = round
    end
    assert.equal(25, opened)
    -- the kills did land inside saves (a partial PATH.tmp or a hot PATH-journal was left
    -- behind); none at all in 25 rounds would mean the test is blind
    assert.is_true(mid_save > 0)
    -- the next save removes what the killed ones left
    strata.world.open(path, { mods = { "base" }, mod_path = { "mods" } }):save(path)
    assert.same({}, support.write_leftovers(path))
    os.remove(path) os.remove(path .. "-journal") os.remove(pidfile)
  end)
end)

describe("map objects", function()
  it("own their tiles, which are saved and reopened", function()
    local path = tmpname()
    local w = strata.world.new{ seed = 1, mods = MODS.mods, mod_path = MODS.mod_path }
    local m = w:create_map{ width = 6, height = 4, fill = "rock" }
    assert.equal("map", m.kind)
    m:set(2, 1, "floor")
    m:set(2, 1, "door")
    m:set(5, 3, "water")
    w:save(path)
    local w2 = strata.world.open(path, MODS)
    local m2 = w2:object(m.uid)
    assert.same({ "rock", "floor", "door" }, m2:tokens(2, 1))
    assert.same({ "rock", "water" }, m2:tokens(5, 3))
    assert.same({ "rock" }, m2:tokens(0, 0))
    assert.equal(6, m2.width)
    assert.equal(4, m2.height)
    m2:delete()
    assert.has_error(function() m2:tokens(0, 0) end)
    os.remove(path)
  end)
end)
