-- Worlds in PostgreSQL from Lua (docs/postgresql.md): strata.world.open and
-- world:save take a postgresql:// URI as they take a path, and the core's
-- errors come through as they are. Runs against the server CTest's fixture
-- pg_server starts (its URI in the file $STRATA_PG_URI_FILE) or the one
-- $STRATA_PG_URI names; without either, it says so and is pending.
local strata = require "strata"
local support = require "support"

local MODS = { mods = { "base" }, mod_path = { "mods" } }

local SERVER = support.pg_uri()
-- Worlds of this run: a name of their own, so that runs against one server never meet.
local RUN = ("lua%d_%d"):format(os.time(), math.random(1, 1e6))
local function uri(name) return support.pg_world(SERVER, RUN .. "_" .. name) end

local function scene()
  local w = strata.world.new{ seed = 5, mods = MODS.mods, mod_path = MODS.mod_path }
  local map = w:create_map{ width = 70, height = 66, fill = "floor" } -- two by two chunks
  map:set(68, 65, "wall")
  local hero = w:create_actor{ map = map, x = 3, y = 4, player = true }
  hero.props.bag = { "sword", { weight = 2.5 }, "\0\255" }
  w:create_object{ kind = "chest", props = { gold = 12 } }
  w.rng:stream("loot"):int(1, 6)
  return w, hero
end

describe("a world in PostgreSQL", function()
  if not SERVER then
    pending("no PostgreSQL server (CTest's fixture pg_server, or STRATA_PG_URI)")
    return
  end

  it("saves and opens as it does through a file", function()
    local w = scene()
    local dir = support.tempdir()
    w:save(dir .. "/w.db")
    local from_file = strata.world.open(dir .. "/w.db", MODS):to_json()
    os.execute("rm -rf " .. support.q(dir))
    w:save(uri("trip"))
    assert.equal(from_file, strata.world.open(uri("trip"), MODS):to_json())
  end)

  it("saves what changed into its own world, and another world object that saved before it wins", function()
    local w, hero = scene()
    w:save(uri("two"))
    local a, b = strata.world.open(uri("two"), MODS), strata.world.open(uri("two"), MODS)
    a:player().props.hp = 1
    a:save(uri("two"))
    assert.equal(a:to_json(), strata.world.open(uri("two"), MODS):to_json())
    b:player().props.hp = 2
    local err = support.err_of(b.save, b, uri("two"))
    assert.matches("^world:save: cannot save to '[^']*world=" .. RUN .. "_two': the world was saved by another"
      .. " process since this world opened it", err)
    b:save(uri("two"), { overwrite = true })
    assert.equal(2, strata.world.open(uri("two"), MODS):player().props.hp)
    assert.is_truthy(hero)
  end)

  it("names what is wrong in one line, from the caller's call", function()
    local err = support.err_of(strata.world.open, uri("nosuch"), MODS)
    assert.matches("^strata.world.open: cannot open '[^']*': no world '" .. RUN .. "_nosuch' in this database", err)
    assert.is_nil(err:find("\n"))
    err = support.err_of(strata.world.open, SERVER .. "&world=no-dash", MODS)
    assert.matches("^strata.world.open: cannot open '[^']*': the world name must be 1 to 48 lowercase", err)
  end)

  it("refuses in one line a table whose columns were altered behind strata's back", function()
    for name, alter in pairs{ type = "ALTER TABLE %s.objects ALTER COLUMN y TYPE integer",
                              gone = "ALTER TABLE %s.objects DROP COLUMN tags" } do
      scene():save(uri(name))
      support.psql(uri(name), alter)
      local err = support.err_of(strata.world.open, uri(name), MODS)
      assert.matches("^strata.world.open: cannot open '[^']*': corrupt save: .*objects", err)
      assert.is_nil(err:find("\n"))
    end
  end)
  it("opens and saves beside a reader holding an open's snapshot, neither waiting on the other", function()
    -- every session under a 2-second lock_timeout: a wait is an error, never a hang
    local place = uri("rdr") .. "&options=-c%20lock_timeout%3D2s"
    local w = scene()
    w:save(place)
    local base = SERVER .. (SERVER:find("?", 1, true) and "&" or "?") .. "application_name=" .. RUN .. "_rdr"
    local reader = assert(io.popen("psql -X -q -v ON_ERROR_STOP=1 " .. support.q(base) .. " >/dev/null", "w"))
    reader:write("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY;\n")
    for _, t in ipairs{ "meta", "mods", "objects", "timers", "subscriptions", "rng", "maps", "tiles" } do
      reader:write(("SELECT count(*) FROM strata_%s_rdr.%s;\n"):format(RUN, t))
    end
    reader:write("SELECT 'read';\n")
    reader:flush()
    -- until the reader has read every table and holds its transaction open (a state, not a time)
    local waiting = "SELECT count(*) FROM pg_stat_activity WHERE application_name = '" .. RUN
      .. "_rdr' AND state = 'idle in transaction' AND query = 'SELECT ''read'';'"
    local held = false
    for _ = 1, 3000 do
      held = support.psql(place, waiting):match("^1") ~= nil
      if held then break end
      os.execute("sleep 0.01")
    end
    assert.is_true(held)
    local newer = scene()
    newer:create_object{ kind = "chest" }
    newer:save(place, { overwrite = true }) -- a whole save
    assert.equal(newer:to_json(), strata.world.open(place, MODS):to_json())
    reader:close()
  end)
end)
