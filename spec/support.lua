-- spec/support.lua: what specs that run programs share (require "support";
-- LUA_PATH includes spec/ under ctest).
local assert = require "luassert" -- (busted gives specs its assert, not modules)
local M = {}

-- Runs cmd in sh; returns its output (stdout and stderr) and exit status.
function M.sh(cmd)
  local f = assert(io.popen(cmd .. " 2>&1; echo \"exit:$?\""))
  local out = f:read("a")
  f:close()
  local body, code = out:match("^(.-)exit:(%d+)%s*$")
  return body, tonumber(code)
end

-- A refusal by the strata command (out and code from M.sh): exit 1 and one
-- line `strata: CMD: ...` matching pattern, naming neither strata's own files
-- nor Lua's "bad argument". what: how a failed check names the case.
function M.refused_line(cmd, out, code, pattern, what)
  what = what or cmd
  assert.equal(1, code, what .. ": " .. out)
  assert.matches("^strata: " .. cmd:gsub("%p", "%%%0") .. ": [^\n]*\n$", out, 1, what)
  assert.not_matches("%.lua:%d", out, 1, what)
  assert.not_matches("bad argument", out, 1, what)
  assert.matches(pattern, out, 1, what)
  return out
end

-- A mistake in the strata command's arguments (out and code from M.sh): exit
-- 2 and one line `strata: CMD: ...` matching pattern and ending with the hint
-- "; try 'strata CMD[ SUB] --help'".
function M.usage_line(cmd, out, code, pattern, what)
  what = what or cmd
  assert.equal(2, code, what .. ": " .. out)
  assert.matches("^strata: " .. cmd:match("^%S+"):gsub("%p", "%%%0") .. ": [^\n]*; try 'strata " .. cmd:gsub("%p", "%%%0")
    .. " %-%-help'\n$", out, 1, what)
  assert.not_matches("%.lua:%d", out, 1, what)
  assert.matches(pattern, out, 1, what)
  return out
end

-- A world file to render: one map of width x height floor (edit(map) may
-- change it) with the player at (0, 0), saved in a new directory; returns
-- the directory and the file's path.
function M.map_file(width, height, edit)
  local dir = M.tempdir()
  local world = require("strata").world.new{ seed = 1 }
  local m = world:create_map{ width = width, height = height, fill = "floor" }
  if edit then edit(m) end
  world:create_actor{ map = m, x = 0, y = 0, player = true }
  world:save(dir .. "/w.db")
  return dir, dir .. "/w.db"
end

-- The error fn(...) raises, as a string (asserting that it raises).
function M.err_of(fn, ...)
  local ok, err = pcall(fn, ...)
  assert.is_false(ok, "expected an error")
  return tostring(err)
end

-- The walks' world: an 8x3 floor map with a wall at x = 4 from y = 0 to 1,
-- the player at (0, 0). Returns the world, the map and the player.
function M.walk_world()
  local w = require("strata").world.new{ seed = 2 }
  local m = w:create_map{ width = 8, height = 3, fill = "floor" }
  m:fill(4, 0, 1, 2, "wall")
  local hero = w:create_actor{ map = m, x = 0, y = 0, player = true }
  return w, m, hero
end

-- A clock a spec moves by hand (a realtime run's clock =): clock.read() is clock.now.
function M.fake_clock(now)
  local clock = { now = now or 0 }
  function clock.read() return clock.now end
  return clock
end

-- Runs what is ready on luv's loop, without waiting: a timer armed for 0 ms
-- fires within two iterations, so four are enough, however loaded the machine.
function M.settle()
  local uv = require "luv"
  for _ = 1, 4 do uv.run("nowait") end
end

-- s quoted for sh.
function M.q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- A new empty directory.
function M.tempdir()
  local p = io.popen("mktemp -d")
  local dir = p:read("l")
  p:close()
  return dir
end

-- Writes text to path, making its directory first.
function M.write(path, text)
  local dir = path:match("^(.*)/[^/]*$")
  if dir then assert(os.execute("mkdir -p " .. M.q(dir))) end
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

-- The files a write of path has beside it while under way (file_internal.h):
-- its temporaries, PATH.XXXXXX.tmp, and its lock, PATH-lock; a sorted list.
function M.write_leftovers(path)
  local f = assert(io.popen("ls -d " .. M.q(path) .. ".??????.tmp " .. M.q(path) .. "-lock 2>/dev/null"))
  local names = {}
  for line in f:lines() do names[#names + 1] = line end
  f:close()
  table.sort(names)
  return names
end

-- The Lua library's files (every .lua file of strata's Lua half, its CLI's
-- commands too), as paths from the source tree's root, sorted.
M.library_dir = "lua/strata"
function M.library_files()
  local root = os.getenv("STRATA_SOURCE_DIR") or "."
  local out = {}
  local p = assert(io.popen("cd " .. M.q(root) .. " && find " .. M.library_dir .. " -name '*.lua' | sort"))
  for path in p:lines() do out[#out + 1] = path end
  p:close()
  return out
end

-- The contents of path, or nil.
function M.read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- The mod folders the specs load from: strata's own, then the fixtures.
M.mod_path = { "mods", "spec/fixtures/mods" }

-- A new world of mods (default: base and dungeon) from M.mod_path, with
-- seed (default 1).
function M.new_world(seed, mods)
  return require("strata").world.new{ seed = seed or 1, mods = mods or { "base", "dungeon" }, mod_path = M.mod_path }
end

-- White-box access, for the specs that check what no public call shows: that
-- a refused call changed nothing inside (internal objects too), what the core
-- holds apart from the Lua layer, or a handler put straight into the data
-- registry as a mod's registration would. Specs reach a world's internals
-- only through these (spec/spec_support_spec.lua checks), so a change of
-- world.lua's private fields is one edit here.
function M.state(w) return w._s end          -- the core's world (strata.core)
function M.runtime(w) return w._rt end       -- the core's runtime (bindings/lua/runtime.c)
function M.registry(w) return w._registry end -- the data registry (strata.data)

-- Makes fn the only handler of event in w's registry (nil: none), as if mod
-- "spec" had registered it under name (default "spec: log") with priority
-- (default 1).
function M.only_handler(w, event, fn, name, priority)
  local reg = M.registry(w)
  reg.handlers = reg.handlers or {} -- (a world of no mods has none yet)
  reg.handlers[event] = fn and { { name = name or "spec: log", priority = priority or 1, mod = "spec",
    fn = fn } } or nil
end

-- The answer of sqlite3 to one query on a save (its last newline cut).
function M.sql(db, query)
  local out = M.sh("sqlite3 " .. M.q(db) .. " " .. M.q(query))
  return (out:gsub("\n$", ""))
end

-- A file's inode (a save written whole is a new file).
function M.inode(path) return (M.sh("stat -c %i " .. M.q(path))) end

-- How many of a world's objects carry each props.tag (the save fixtures tag theirs).
function M.tag_counts(w)
  local n = {}
  for _, o in ipairs(w:objects()) do
    local t = o.props.tag
    if t then n[t] = (n[t] or 0) + 1 end
  end
  return n
end

-- Every live object, the bookkeeping ones too (world:objects() leaves those
-- out): by uid, up to the next uid the world gives.
function M.every_object(w)
  local probe = w:create_object{ kind = "probe" }
  local top = probe.uid
  probe:delete()
  local out = {}
  for uid = 1, top - 1 do out[#out + 1] = w:object(uid) end
  return out
end

-- The map as rows of cells, each cell its tokens joined by '+', '.' when empty.
function M.token_rows(m)
  local out = {}
  for y = 0, m.height - 1 do
    local row = {}
    for x = 0, m.width - 1 do
      local t = m:tokens(x, y)
      row[#row + 1] = #t == 0 and "." or table.concat(t, "+")
    end
    out[#out + 1] = table.concat(row, " ")
  end
  return out
end

-- ---- worlds of every kind, in every store ---------------------------------------------

-- The fixture mods' folder (crypt, dungeon, ...), absolute when STRATA_SOURCE_DIR is set.
M.fixture_mods = (os.getenv("STRATA_SOURCE_DIR") or ".") .. "/spec/fixtures/mods"

local function examples_world()
  return require("strata").world.new{ seed = 4, mods = { "base", "examples", "crypt" }, mod_path = { M.fixture_mods } }
end

-- The crypt of the README's first hour: a town, the crypt's floors
-- generated on the way down, the candles' timer, the ghoul's turns.
local function crypt_world()
  local w = require("strata").world.new{ seed = 7, mods = { "crypt" }, mod_path = { M.fixture_mods } }
  local town = w:create_map{ width = 10, height = 5, fill = "floor" }
  local door = w:create_entrance(town, 4, 2, w:create_area("crypt.crypt"))
  local hero = w:create_actor{ map = town, x = 1, y = 1, player = true }
  w:schedule{ after = 10, every = 10, handler = "crypt.candles", args = { candles = w:create_object{ kind = "candles" } } }
  w:travel(hero, door)
  w:advance(60)
  return w
end

-- The example worlds, played a little: { { name, world } } for putit
-- paradise, the grid of two XY maps, the well's dungeon branches and the
-- crypt (their mods from M.fixture_mods and strata's own).
function M.example_worlds()
  local putit = examples_world()
  local p = putit:create_actor{ player = true }
  putit:travel(p, putit:get_or_create_map("examples.north_tyris"))
  local grid = examples_world()
  grid.grid:add("examples.village", "examples.mine")
  grid.grid:spawn()
  grid:create_actor{ room = grid.grid:room(0, 0, "village"), player = true }
  local dungeon = examples_world()
  local hub = dungeon.data["base.handler"]:ensure("examples.well_setup").run(dungeon)
  local hero = dungeon:create_actor{ room = hub, player = true }
  dungeon:go(hero, "east")
  dungeon:advance(30)
  return { { "putit", putit }, { "grid", grid }, { "dungeon", dungeon }, { "crypt", crypt_world() } }
end

-- Every kind of state at once: nested properties of every value type, tile
-- maps with tokens of their own and stacked cells, timers, subscriptions,
-- streams part-way, areas and floors, a unique area, grid maps, a dungeon
-- branch with members, turns. Returns the world and { thing =, hero = } uids.
function M.everything_world()
  local w = examples_world()
  local hero = w:create_actor{ player = true }
  w:travel(hero, w:get_or_create_map("examples.north_tyris"))
  w:unique_area("examples.putit_paradise")
  local m = w:create_map{ width = 7, height = 4, fill = "floor" }
  m:fill(1, 1, 2, 2, "crypt.moss")
  m:set(5, 2, "my.own_token")                        -- stacked on the floor
  m:set(5, 2, "crypt.moss")
  m:reset(6, 3)                                      -- an empty cell
  m:define_token("crypt.moss", { cost = 5 })          -- this map's own traits
  local thing = w:create_object{ kind = "chest", props = {
    hp = 3, ratio = 0.1, big = 2 ^ 62 + 0.0, neg = -0.0, name = "coffre à ✓", bytes = "\255\0\1",
    list = { 1, 2.5, "x", { deep = { deeper = { true, false } } } },
    mixed = { 1, 2, x = "y", [10] = "ten" }, empty = {}, ["$weird"] = 1, ref = m, ["key with spaces"] = 1,
  }, tags = { "locked" } }
  local ghoul = w:create_actor{ archetype = "crypt.ghoul", map = m, x = 0, y = 0 }
  w:add_turns(ghoul, { speed = 2 })
  w:add_turns(hero)
  thing:subscribe("base.moved", "crypt.candles", { candles = thing, n = 1 }, { priority = 5 })
  w:schedule{ after = 10, every = 10, handler = "crypt.candles", args = { candles = thing } }
  w:schedule{ after = 25.5, handler = "crypt.candles", args = { candles = thing } }
  local dice = w.rng:stream("dice")
  for _ = 1, 5 do dice:int(6) end
  w.grid:add("examples.village", "examples.mine")
  w.grid:spawn()
  local hub = w.data["base.handler"]:ensure("examples.well_setup").run(w)
  local a, b = w:create_actor{ room = hub }, w:create_actor{ room = hub }
  w:go(a, "east")
  w:go(b, "east")
  w:advance(30)
  return w, { thing = thing.uid, hero = hero.uid }
end

-- The PostgreSQL server the store specs also run against: $STRATA_PG_URI,
-- else the first line of the file $STRATA_PG_URI_FILE (CTest's pg_server
-- fixture writes it); nil and why when there is none.
function M.pg_uri()
  local uri = os.getenv("STRATA_PG_URI")
  if (uri == nil or uri == "") and os.getenv("STRATA_PG_URI_FILE") then
    uri = (M.read(os.getenv("STRATA_PG_URI_FILE")) or ""):match("^[^\n]*")
  end
  if uri == nil or uri == "" then return nil, "no server: STRATA_PG_URI is not set (ctest -R lua/stores starts one)" end
  return uri
end

-- uri with its world= parameter (strata's own: one schema a world) set to name.
function M.pg_world(uri, name)
  local base, query = uri:match("^([^?]*)%??(.*)$")
  local params = {}
  for kv in query:gmatch("[^&]+") do
    if not kv:match("^world=") then params[#params + 1] = kv end
  end
  params[#params + 1] = "world=" .. name
  return base .. "?" .. table.concat(params, "&")
end

-- A new world name on the server: specs run in parallel against one
-- server, so it is mktemp's letters (lower case, as a schema's name is).
local function fresh_world_name()
  local p = assert(io.popen("mktemp -u spec_XXXXXXXXXXXX"))
  local name = p:read("l"):lower():gsub("[^%w_]", "")
  p:close()
  return name
end

-- Why this strata cannot store worlds at uri (a probe: a world saved there
-- and opened again), or nil when it can.
local function pg_refused(uri)
  local strata = require "strata"
  local at = M.pg_world(uri, fresh_world_name())
  local ok, err = pcall(function()
    strata.world.new{ seed = 1 }:save(at)
    return strata.world.open(at)
  end)
  if ok then return nil end
  return "this strata does not store worlds in PostgreSQL: " .. tostring(err)
end

-- The stores the store-independent specs run in: SQLite always, and
-- PostgreSQL when a server is given (M.pg_uri). Each is { name =, fresh =
-- fn() -> a new place to save a world (a path in a new folder, or the
-- server's URI with a new world=), skip = why the store's cases are pending,
-- or nil, remove = fn(place) removing what fresh made }. The server's is
-- named "PostgreSQL" for busted --filter (CTest's lua/stores runs only it).
function M.stores()
  local list = { { name = "SQLite", fresh = function() return M.tempdir() .. "/w.db" end,
    remove = function(path) os.execute("rm -rf " .. M.q(path:match("^(.*)/[^/]*$"))) end } }
  local uri, why = M.pg_uri()
  why = why or pg_refused(uri)
  -- (a world on the server is left there: the server is a throw-away one)
  list[2] = { name = "PostgreSQL", skip = why, fresh = function() return M.pg_world(uri, fresh_world_name()) end,
    remove = function() end }
  return list
end

-- Runs body(store) inside describe("in <store>") for each of M.stores()
-- (only: the one of that name); a store that cannot run says why as a
-- pending case. busted's describe and pending are given, as a module does
-- not see a spec's globals.
function M.each_store(describe, pending, body, only)
  for _, store in ipairs(M.stores()) do
    if not only or store.name == only then
      describe("in " .. store.name, function()
        if store.skip then pending(store.skip) else body(store) end
      end)
    end
  end
end

-- Runs sql with psql in the database of place (a world's URI), "%s" in it
-- standing for the world's schema (strata_NAME for world=NAME): the rows as
-- psql prints them unaligned (asserting success).
function M.psql(place, sql)
  local name = assert(place:match("[?&]world=([%w_]+)"), place)
  local base = place:gsub("([?&])world=[%w_]+&?", "%1"):gsub("[?&]$", "")
  local out, code = M.sh("psql -X -q -A -t -v ON_ERROR_STOP=1 " .. M.q(base) .. " -c "
    .. M.q(sql:gsub("%%s", "strata_" .. name)))
  assert.equal(0, code, sql .. ": " .. out)
  return out
end

return M
