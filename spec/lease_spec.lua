-- Leases from Lua and `strata serve-check` (issue 39, docs/postgresql.md,
-- "Leases") against a PostgreSQL server: the CTest test lua/lease runs this
-- file under the fixture pg_server, which writes the server's URI to
-- STRATA_PG_URI_FILE (STRATA_PG_URI names another server). Without one (the
-- whole busted run, no PostgreSQL) it is pending. Expiry never comes by
-- waiting: a client of ttl 0 holds leases that are expired from the start.
local strata = require "strata"
local support = require "support"

local bin = os.getenv("STRATA_BIN") or "build/strata"
local q = support.q

local base = support.pg_uri()
if not base then
  describe("leases", function() pending("no PostgreSQL server (run by ctest -R lua/lease under pg_server)") end)
  return
end

-- A world of its own each run (48 random bits: two runs in one second too):
-- nothing left from an earlier run counts.
local random = assert(io.open("/dev/urandom", "rb"))
local world = "leasespec_" .. random:read(6):gsub(".", function(c) return ("%02x"):format(c:byte()) end)
random:close()
local uri = support.pg_world(base, world)

-- A build without libpq (STRATA_WITH_POSTGRES off) has the functions, which say so.
local probe_ok, probe = pcall(strata.lease.open, uri, { holder = "probe" })
if not probe_ok and tostring(probe):find("without PostgreSQL", 1, true) then
  describe("leases", function() pending("strata built without PostgreSQL (STRATA_WITH_POSTGRES)") end)
  return
end
if probe_ok then probe:close() end

local function strata_cmd(args) return support.sh("NO_COLOR=1 " .. q(bin) .. " " .. args) end

describe("strata.lease", function()
  it("two clients contend; an expired lease goes to the other with a higher fence; renew reports it lost", function()
    local a = strata.lease.open(uri, { holder = "a", ttl = 30 })
    local b = strata.lease.open(uri, { holder = "b" })
    local zero = strata.lease.open(uri, { holder = "zero", ttl = 0 })
    assert.matches("^a@[^:]+:%d+:%x+$", a:holder())
    assert.not_equal(a:holder(), b:holder())

    local l = a:acquire("area:1")
    assert.is_true(l.granted)
    assert.is_true(l.mine)
    assert.is_false(l.expired)
    assert.equal("area:1", l.scope)
    assert.equal(a:holder(), l.holder)
    local other = b:acquire("area:1")
    assert.is_false(other.granted)
    assert.equal(a:holder(), other.holder)
    assert.equal(l.fence, other.fence)
    assert.matches("^%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%d%.%d%d%dZ$", other.expires)
    assert.is_true(other.remaining > 0)

    -- ttl 0: granted, and expired at once
    local z = zero:acquire("map:45")
    assert.is_true(z.granted)
    assert.is_true(z.expired)
    local taken = b:acquire("map:45")
    assert.is_true(taken.granted)
    assert.equal(z.fence + 1, taken.fence)
    local lost = zero:renew()
    assert.equal(1, #lost)
    assert.equal("map:45", lost[1].scope)
    assert.equal(b:holder(), lost[1].holder)
    assert.same({}, zero:renew())
    assert.same({}, b:renew())

    -- the old fence is refused, the new one stands
    local ok, why = zero:check("map:45", z.fence)
    assert.is_nil(ok)
    assert.matches("map:45: fence %d+ is stale", why)
    assert.is_true(b:check("map:45", taken.fence))
    for _, c in ipairs{ a, b, zero } do c:close() end
  end)

  it("release gives a lease up at once; list says who holds what, until when", function()
    local a = strata.lease.open(uri, { holder = "lister", ttl = 60 })
    local l = a:acquire("branch:6")
    a:acquire("branch:7")
    a:release("branch:6")
    local seen = {}
    for _, e in ipairs(a:list()) do seen[e.scope] = e end
    assert.is_nil(seen["branch:6"].holder)
    assert.is_true(seen["branch:6"].expired)
    assert.equal(a:holder(), seen["branch:7"].holder)
    assert.is_true(seen["branch:7"].mine)
    assert.is_false(seen["branch:7"].expired)
    assert.equal(l.fence + 1, a:acquire("branch:6").fence)
    a:release()
    assert.same({}, a:renew())
    assert.is_nil((a:check("branch:7", 1)))
    a:close()
  end)

  it("errors name the function called, at the caller's line", function()
    local err = support.err_of(function() strata.lease.open(uri, { holde = "x" }) end)
    assert.matches("lease_spec%.lua:%d+: strata%.lease%.open: unknown option 'holde' %(nearest known: holder", err)
    err = support.err_of(function() strata.lease.open("world.db") end)
    assert.matches("lease_spec%.lua:%d+: strata%.lease%.open: not a postgresql:// URI", err)
    err = support.err_of(strata.lease.open, base .. "&world=Town")
    assert.matches("strata%.lease%.open: the world name must be 1 to 48 lowercase letters", err)
    err = support.err_of(strata.lease.open, uri, { ttl = -1 })
    assert.matches("strata%.lease%.open: ttl must be 0 to", err)
    local a = strata.lease.open(uri, { holder = "errs" })
    err = support.err_of(function() a:release("area:99") end)
    assert.matches("lease_spec%.lua:%d+: lease:release: area:99 is not held by this client", err)
    err = support.err_of(function() a:acquire(("x"):rep(200)) end)
    assert.matches("lease:acquire: a scope is 1 to 127 printable", err)
    a:close()
    err = support.err_of(function() a:list() end)
    assert.matches("lease:list: the lease client is closed", err)
    err = support.err_of(function() a:handovers() end)
    assert.matches("lease_spec%.lua:%d+: lease:handovers: the lease client is closed", err)
  end)

  it("handovers: per destination, the rows queued and the oldest's age (the database's clock)", function()
    local at = support.pg_world(base, world .. "_lag")
    local a = strata.lease.open(at, { holder = "lag" })
    assert.same({}, a:handovers())
    -- queued as a sender would, by SQL here (the oldest 5 s ago, by the server's clock)
    support.psql(at, "INSERT INTO %s.handovers (uid, from_scope, to_scope, fence, queued_at) VALUES"
      .. " (1, 'area:1', 'area:2', 1, now() - interval '5 seconds'), (2, 'area:1', 'area:2', 1, now()),"
      .. " (3, 'area:2', 'area:1', 3, now())")
    local list = a:handovers()
    assert.equal(2, #list)
    assert.same({ "area:1", 1 }, { list[1].scope, list[1].queued })
    assert.same({ "area:2", 2 }, { list[2].scope, list[2].queued })
    assert.is_true(list[2].oldest >= 5)
    assert.is_true(list[1].oldest >= 0)
    assert.is_nil(getmetatable(list[1]))
    list[1].queued = 99 -- a fresh table each call: nothing kept
    assert.equal(1, a:handovers()[1].queued)
    a:close()
  end)
end)

describe("strata serve-check", function()
  it("shows who holds what until when, expired ones marked; --json the same as data", function()
    local a = strata.lease.open(uri, { holder = "server-a", ttl = 600 })
    local zero = strata.lease.open(uri, { holder = "server-z", ttl = 0 })
    a:acquire("area:123")
    zero:acquire("area:124")
    local out, code = strata_cmd("serve-check " .. q(uri))
    assert.equal(0, code, out)
    local held = out:match("\n(area:123 [^\n]*)")
    assert.is_not_nil(held, out)
    assert.matches("held", held)
    assert.matches(a:holder(), held, 1, true)
    assert.matches("until %d%d%d%d%-", held)
    local expired = out:match("\n(area:124 [^\n]*)")
    assert.matches("expired", expired)
    assert.matches(zero:holder(), expired, 1, true)

    local json
    json, code = support.sh("NO_COLOR=1 " .. q(bin) .. " serve-check --json " .. q(uri) .. " 2>/dev/null")
    assert.equal(0, code, json)
    local t = strata.json.decode(json)
    assert.equal(world, t.world)
    local by = {}
    for _, e in ipairs(t.leases) do by[e.scope] = e end
    assert.equal(a:holder(), by["area:123"].holder)
    assert.is_false(by["area:123"].expired)
    assert.is_true(by["area:124"].expired)
    assert.is_number(by["area:123"].fence)
    assert.is_string(by["area:123"].expires)
    a:close()
    zero:close()
  end)

  it("shows the hand-overs queued per destination after the leases; --json handovers, [] when none", function()
    local at = support.pg_world(base, world .. "_sc")
    local a = strata.lease.open(at, { holder = "server-a", ttl = 600 })
    a:acquire("area:1")
    local out, code = strata_cmd("serve-check " .. q(at))
    assert.equal(0, code, out)
    assert.matches("\nhand%-overs: none queued\n$", out)
    local json
    json, code = support.sh("NO_COLOR=1 " .. q(bin) .. " serve-check --json " .. q(at) .. " 2>/dev/null")
    assert.equal(0, code, json)
    assert.matches('"handovers": ?%[%]', json)

    support.psql(at, "INSERT INTO %s.handovers (uid, from_scope, to_scope, fence, queued_at) VALUES"
      .. " (1, 'area:1', 'area:2', 1, now() - interval '5 seconds'), (2, 'area:1', 'area:2', 1, now()),"
      .. " (3, 'area:2', 'area:1', 3, now()), (4, 'area:1', 'branch:10', 1, now())")
    out, code = strata_cmd("serve-check " .. q(at))
    assert.equal(0, code, out)
    local after = out:match("\narea:1 [^\n]*\n(.*)$")
    assert.is_not_nil(after, out)
    local lines = {}
    for line in after:gmatch("[^\n]+") do lines[#lines + 1] = line end
    assert.equal(3, #lines, out)
    local seen = {}
    for i, line in ipairs(lines) do
      local scope, n, age = line:match("^hand%-overs: (%S+) +(%d+) queued, oldest (%d+%.%d) s$")
      assert.is_not_nil(scope, line)
      seen[i] = { scope, tonumber(n) }
      if scope == "area:2" then assert.is_true(tonumber(age) >= 5, line) end
    end
    assert.same({ { "area:1", 1 }, { "area:2", 2 }, { "branch:10", 1 } }, seen)

    json, code = support.sh("NO_COLOR=1 " .. q(bin) .. " serve-check --json " .. q(at) .. " 2>/dev/null")
    assert.equal(0, code, json)
    local t = strata.json.decode(json)
    assert.equal(3, #t.handovers)
    assert.same({ "area:2", 2 }, { t.handovers[2].scope, t.handovers[2].queued })
    assert.is_true(t.handovers[2].oldest >= 5)
    assert.same({ "branch:10", 1 }, { t.handovers[3].scope, t.handovers[3].queued })
    a:close()
  end)

  it("a URI it cannot use is one line, exit 1; no URI is a usage error", function()
    local out, code = strata_cmd("serve-check " .. q(base .. "&world=Town"))
    support.refused_line("serve-check", out, code, "the world name must be")
    out, code = strata_cmd("serve-check world.db")
    support.refused_line("serve-check", out, code, "not a postgresql:// URI")
    out, code = strata_cmd("serve-check </dev/null")
    support.usage_line("serve-check", out, code, "URI")
  end)
end)
