-- Serving a world from Lua (issue 39, docs/lua-api.md "Serving a world
-- (PostgreSQL)"): strata.serve.open over the core's serving process
-- (strata/serve.h), two serve handles in one Lua state, each holding one
-- area of a world in PostgreSQL. The CTest test lua/serve runs this file
-- under the fixture pg_server, which writes the server's URI to
-- STRATA_PG_URI_FILE (STRATA_PG_URI names another server). Without one (the
-- whole busted run, no PostgreSQL) it is pending. No verdict waits on time:
-- a poll takes what was queued before it whether or not its wait ends at the
-- notification, and leases that must stay held have a ttl of ten minutes.
local strata = require "strata"
local support = require "support"

local base = support.pg_uri()
if not base then
  describe("strata.serve", function() pending("no PostgreSQL server (run by ctest -R lua/serve under pg_server)") end)
  return
end

-- A world of its own each test (48 random bits: two runs in one second too).
local random = assert(io.open("/dev/urandom", "rb"))
local function fresh_uri()
  local name = "servespec_" .. random:read(6):gsub(".", function(c) return ("%02x"):format(c:byte()) end)
  return support.pg_world(base, name)
end

-- A build without libpq (STRATA_WITH_POSTGRES off) has the function, which says so.
local probe_ok, probe = pcall(strata.serve.open, fresh_uri(), { scopes = { "world" } })
if not probe_ok and tostring(probe):find("without PostgreSQL", 1, true) then
  describe("strata.serve", function() pending("strata built without PostgreSQL (STRATA_WITH_POSTGRES)") end)
  return
end
if probe_ok then probe:close() end

-- Two areas with a map each, a hero (with props) and a bag it carries on
-- A's map, saved whole to a fresh world: its URI and the uids.
local function make_world()
  local uri = fresh_uri()
  local w = strata.world.new{ seed = 7 }
  local area_a, area_b = w:create_area("base.one_map"), w:create_area("base.one_map")
  local map_a = w:create_map{ width = 8, height = 8, fill = "floor" }
  local map_b = w:create_map{ width = 8, height = 8, fill = "floor" }
  area_a:add_floor(map_a, 1)
  area_b:add_floor(map_b, 1)
  local hero = w:create_actor{ map = map_a, x = 1, y = 1, props = { hp = 10, bag = { "rope", { weight = 2.5 } } } }
  w:create_actor{ map = map_a, x = 2, y = 2 }
  w:save(uri)
  return uri, { a = "area:" .. area_a.uid, b = "area:" .. area_b.uid, map_a = map_a.uid, map_b = map_b.uid,
    hero = hero.uid }
end

describe("strata.serve", function()
  it("two handles in one Lua state: an actor moved onto B's map is handed over by A's save, picked up by B's poll",
    function()
    local uri, t = make_world()
    local sa = strata.serve.open(uri, { scopes = { t.a }, label = "a", ttl = 600 })
    local sb = strata.serve.open(uri, { scopes = { t.b }, label = "b", ttl = 600 })
    local wa, wb = sa:world(), sb:world()
    assert.equal(wa, sa:world())
    assert.equal(2, #wa:objects{ kind = "actor" })
    assert.equal(0, #wb:objects{ kind = "actor" })
    assert.is_nil(wb:object(t.hero))
    assert.matches("^a@[^:]+:%d+:%x+$", sa:holder())
    assert.matches("^b@", sb:holder())
    assert.is_true(sa:owns(t.a))
    assert.is_false(sa:owns(t.b))
    local hero = wa:object(t.hero)
    assert.equal(t.a, sa:scope_of(hero))
    assert.equal(t.a, sa:scope_of(t.hero))
    assert.is_nil(sa:scope_of(t.map_b)) -- (B's map is not in A's world)
    assert.is_nil(sb:scope_of(t.hero))

    hero.props.trips = 1
    -- B's map is not in A's world: serve:move names it by uid.
    assert.error_matches(function() sa:move(hero, 999999, 0, 0) end, "#999999 is neither in this world")
    assert.error_matches(function() sa:move(hero, t.map_b, 1.5, 0) end, "argument 3 must be an integer")
    sa:move(hero, t.map_b, 5, 5)
    assert.equal(t.b, sa:scope_of(hero))
    assert.equal(1, sa:save())
    assert.is_nil(wa:object(t.hero))
    assert.equal(0, sa:save())

    assert.equal(1, sb:poll(5000))
    local arrived = wb:object(t.hero)
    assert.is_not_nil(arrived)
    assert.equal(t.map_b, arrived.map.uid)
    assert.equal(5, arrived.x)
    assert.equal(1, arrived.props.trips)
    assert.equal(10, arrived.props.hp)
    assert.same({ "rope", { weight = 2.5 } }, arrived.props.bag)
    assert.equal(t.b, sb:scope_of(arrived))
    assert.equal(0, sb:poll(0)) -- once

    -- A plain opener sees the hero once, on B's map.
    local all = strata.world.open(uri)
    assert.equal(2, #all:objects{ kind = "actor" })
    assert.equal(t.map_b, all:object(t.hero).map.uid)
    sa:close()
    sb:close()
  end)

  it("options: an unknown key names the nearest known ones; shapes are checked; the core's rules come through",
    function()
    local uri, t = make_world()
    local err = support.err_of(function() strata.serve.open(uri, { scope = { t.a } }) end)
    assert.matches("serve_spec%.lua:%d+: strata%.serve%.open: unknown option 'scope' %(nearest known: scopes", err)
    err = support.err_of(function() strata.serve.open(uri, { scopes = t.a }) end)
    assert.matches("serve_spec%.lua:%d+: strata%.serve%.open: scopes must be a list of strings", err)
    err = support.err_of(function() strata.serve.open(uri, { scopes = { t.a, 12 } }) end)
    assert.matches("strata%.serve%.open: scopes%[2%] must be a string, got number", err)
    err = support.err_of(function() strata.serve.open(uri, { scopes = { t.a }, ttl = "long" }) end)
    assert.matches("strata%.serve%.open: option 'ttl' must be a number, got string", err)
    err = support.err_of(function() strata.serve.open(uri) end)
    assert.matches("serve_spec%.lua:%d+: strata%.serve%.open: scopes must be a list of strings, got nil", err)
    -- the core's words
    err = support.err_of(function() strata.serve.open(uri, { scopes = { "area:x" } }) end)
    assert.matches("serve_spec%.lua:%d+: strata%.serve%.open: scope 1: 'area:x' is not area:UID, map:UID or world",
      err)
    err = support.err_of(function() strata.serve.open(uri, { scopes = {} }) end)
    assert.matches("strata%.serve%.open: no scope to serve", err)
    err = support.err_of(function() strata.serve.open(uri, { scopes = { t.a }, wait = -1 }) end)
    assert.matches("strata%.serve%.open: ttl and wait must be 0 to", err)
    err = support.err_of(function() strata.serve.open("world.db", { scopes = { t.a } }) end)
    assert.matches("strata%.serve%.open: not a postgresql:// URI", err)
    local sa = strata.serve.open(uri, { scopes = { t.a }, label = "holder", ttl = 600 })
    err = support.err_of(function() strata.serve.open(uri, { scopes = { t.b, t.a } }) end)
    assert.matches("serve_spec%.lua:%d+: strata%.serve%.open: " .. t.a .. " is held by holder@", err)
    -- all or none: B was released again, so that another takes it at once
    strata.serve.open(uri, { scopes = { t.b } }):close()
    err = support.err_of(function() sa:scope_of("hero") end)
    assert.matches("serve_spec%.lua:%d+: serve:scope_of: expected an object or a uid, got string", err)
    err = support.err_of(function() sa:poll("soon") end)
    assert.matches("serve_spec%.lua:%d+: serve:poll: ", err)
    sa:close()
  end)

  it("world:save on a served world is refused by the core, in one line naming strata.serve", function()
    local uri, t = make_world()
    local sa = strata.serve.open(uri, { scopes = { t.a } })
    local err = support.err_of(function() sa:world():save(uri) end)
    assert.matches("^[^\n]*serve_spec%.lua:%d+: world:save: this world is served by its process[^\n]*strata%.serve",
      err)
    assert.is_nil(err:find("\n"))
    sa:close()
  end)

  it("closing: idempotent, the world and its maps refuse every use after, __close and the collector close too",
    function()
    local uri, t = make_world()
    local sa = strata.serve.open(uri, { scopes = { t.a }, label = "closing" })
    local w = sa:world()
    local map = w:object(t.map_a)
    local hero = w:object(t.hero)
    sa:close()
    sa:close()
    for _, call in ipairs{
      function() sa:save() end, function() sa:poll(0) end, function() sa:world() end,
      function() sa:owns(t.a) end, function() sa:holder() end, function() sa:scope_of(t.hero) end } do
      assert.matches("serve_spec%.lua:%d+: serve:[%a_]+: the serve handle is closed", support.err_of(call))
    end
    assert.matches("serve_spec%.lua:%d+: world:create_actor: .*closed with its serve handle",
      support.err_of(function() w:create_actor{ map = map, x = 0, y = 0 } end))
    -- (a map handle's tile methods name themselves, at no line: as for a deleted map)
    assert.matches("map:passable: " .. "the world was closed", support.err_of(function() return map:passable(0, 0) end))
    assert.matches("serve_spec%.lua:%d+: world:advance: .*closed with its serve handle",
      support.err_of(function() w:advance(1) end))
    assert.matches("serve_spec%.lua:%d+: world:travel: .*closed with its serve handle",
      support.err_of(function() w:travel(hero, map) end))
    -- (fields read through metamethods, at no line: as a world's field reads are)
    assert.matches("closed with its serve handle", support.err_of(function() return hero.props.hp end))
    assert.matches("closed with its serve handle", support.err_of(function() return w.time end))
    -- a closed world is no longer a live world: reloading its mods passes it by
    local plain = strata.world.new{ seed = 1 }
    strata.reload("base")
    assert.is_false(support.state(plain):closed())
    -- its lease was released: another takes the area at once (wait 0)
    do
      local s <close> = strata.serve.open(uri, { scopes = { t.a } })
      assert.is_not_nil(s:world():object(t.hero))
    end
    -- __close released it; then a handle left to the collector, its world too
    strata.serve.open(uri, { scopes = { t.a } })
    collectgarbage()
    collectgarbage()
    local again = strata.serve.open(uri, { scopes = { t.a } })
    again:close()
  end)

  it("the world keeps its handle alive: dropped, the handle stays open while its world is used", function()
    local uri, t = make_world()
    local w = strata.serve.open(uri, { scopes = { t.a }, ttl = 600 }):world()
    collectgarbage()
    collectgarbage()
    assert.is_not_nil(w:object(t.hero))
    w:object(t.hero).props.hp = 3
    local err = support.err_of(function() strata.serve.open(uri, { scopes = { t.a } }) end)
    assert.matches("is held by", err)
  end)
end)
