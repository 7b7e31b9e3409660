-- SIGKILL at random points of incremental saves: after each kill the file opens,
-- complete, as the last save that returned or the one under way, compared object
-- by object with a record this spec keeps (a world of its own that takes the same
-- steps: spec/fixtures/changing_world.lua). In each store (support.each_store:
-- SQLite, and PostgreSQL when a server is given, where a kill inside a save
-- is a transaction the server rolls back); a file's journal is SQLite's.
local strata = require "strata"
local support = require "support"
local cw = dofile("spec/fixtures/changing_world.lua")

local LUA = "lua5.4"
local ROUNDS = 50
local PG_ROUNDS = 15 -- (the server's side is PostgreSQL's own; kept cheap)

local function read_file(p)
  local f = io.open(p)
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- Gone, or a zombie nobody reaps (a container's init may not).
local function dead(pid)
  local stat = read_file("/proc/" .. pid .. "/stat")
  return not stat or stat:match("^%d+ %b() (%a)") == "Z"
end

-- Kills rounds incremental savers of the world at path (store's), checking
-- the world after each kill against the record; returns how many kills
-- landed inside a save's transaction, as far as the store shows (a file's
-- hot journal), the saves in all and the states seen.
local function kill_savers(store, rounds)
  local path, dir = store.fresh(), support.tempdir()
  local log, pidfile = dir .. "/saver.log", dir .. "/saver.pid"
  -- The record: this process's own world, moved generation by generation.
  local model, model_gen = cw.build(strata), 0
  local records = { [0] = cw.record(model) }
  local function record(g)
    while model_gen < g do
      model_gen = model_gen + 1
      cw.step(model, model_gen)
      records[model_gen] = cw.record(model)
      records[model_gen - 3] = nil
    end
    return assert(records[g], "generation " .. g .. " is behind the record")
  end
  cw.build(strata):save(path) -- generation 0, a full save; the children's saves are incremental
  math.randomseed(os.time())
  local last, saves, hot, states = 0, 0, 0, { 0, 0 }
  for round = 1, rounds do
    os.remove(log)
    os.execute(("%s spec/fixtures/incremental_saver.lua %s %s >/dev/null 2>&1 & echo $! > %s")
      :format(LUA, support.q(path), log, pidfile))
    local pid = assert(read_file(pidfile)):match("%d+")
    -- After its first save, at a random moment: most of a generation's time is its save.
    -- (waited for however long it takes, or until the child is gone: a slow
    -- server or a loaded machine is no verdict)
    while not (read_file(log) or ""):find("\n") and not dead(pid) do os.execute("sleep 0.01") end
    os.execute(("sleep %.3f"):format(math.random() * 0.08))
    os.execute("kill -9 " .. pid .. " 2>/dev/null")
    for _ = 1, 500 do
      if dead(pid) then break end
      os.execute("sleep 0.01")
    end
    -- Killed inside a save's transaction: its journal is still there.
    if read_file(path .. "-journal") then hot = hot + 1 end
    local done = last
    for line in (read_file(log) or ""):gmatch("(%d+)\n") do done = tonumber(line) end
    assert.is_true(done > last, "round " .. round .. ": the child saved nothing")
    local w = strata.world.open(path, cw.MODS)
    local g = cw.gen(w)
    -- The last save that returned, or the next one (under way, or done but not logged).
    assert.is_true(g == done or g == done + 1, ("round %d: generation %d in the file, %d saved"):format(round, g, done))
    states[g - done + 1] = states[g - done + 1] + 1
    local want, got = record(g), cw.record(w)
    for uid, row in pairs(want.objects) do assert.equal(row, got.objects[uid], "object #" .. uid) end
    for uid in pairs(got.objects) do assert.is_not_nil(want.objects[uid], "object #" .. uid .. " should be gone") end
    assert.same(want.timers, got.timers)
    saves = saves + (g - last)
    last = g
  end
  os.execute("rm -rf " .. support.q(dir))
  store.remove(path)
  return hot, saves, states
end

describe("incremental saves killed at random points", function()
  support.each_store(describe, pending, function(store)
    local rounds = store.name == "SQLite" and ROUNDS or PG_ROUNDS
    it("leave the world as one of the two states, object by object (" .. rounds .. " kills)", function()
      local hot, saves, states = kill_savers(store, rounds)
      print(("\n%s: %d kills, %d incremental saves in all; %d kills inside a save's transaction (hot journal);"
        .. " the store held the last save %d times, the one under way %d times"):format(store.name, rounds, saves, hot,
        states[1], states[2]))
      assert.is_true(saves >= rounds)
      -- Some kills must land inside a save's transaction, or the spec is blind
      -- (a file shows it by its journal; the server rolls it back unseen).
      if store.name == "SQLite" then assert.is_true(hot > 0) end
    end)
  end)

  it("a full save over a file killed mid-save replaces it whole (its journal is settled first)", function()
    local path = os.tmpname()
    os.remove(path)
    path = path .. ".db"
    local log, pidfile = path .. ".log", path .. ".pid"
    cw.build(strata):save(path)
    math.randomseed(os.time())
    local hot = false
    for _ = 1, 40 do
      os.remove(log)
      os.execute(("%s spec/fixtures/incremental_saver.lua %s %s >/dev/null 2>&1 & echo $! > %s")
        :format(LUA, path, log, pidfile))
      local pid = assert(read_file(pidfile)):match("%d+")
      for _ = 1, 500 do
        if (read_file(log) or ""):find("\n") then break end
        os.execute("sleep 0.01")
      end
      os.execute(("sleep %.3f"):format(math.random() * 0.03))
      os.execute("kill -9 " .. pid .. " 2>/dev/null")
      for _ = 1, 500 do
        if dead(pid) then break end
        os.execute("sleep 0.01")
      end
      if read_file(path .. "-journal") then hot = true break end
    end
    assert.is_true(hot, "no kill landed inside a save in 40 tries")
    -- Another world, saved whole over that file: the old save's journal must not reach it.
    local other = strata.world.new{ seed = 99, mods = cw.MODS.mods, mod_path = cw.MODS.mod_path }
    for i = 1, 300 do other:create_object{ kind = "thing", props = { other = i } } end
    other:save(path)
    assert.is_nil(read_file(path .. "-journal"))
    local w = strata.world.open(path, cw.MODS)
    assert.same(cw.record(other).objects, cw.record(w).objects)
    for _, p in ipairs{ path, log, pidfile } do os.remove(p) end
  end)
end)
