-- Issue 30, "One owner": the core's savepoint is the only journal (ctx.rng is
-- a view of a world stream, like world.rng:stream), world:create_map is the
-- core's map creation in one savepoint, and the pre-1.0 shims are gone.
local strata = require "strata"
local support = require "support"

-- A world of base and a mod "t" whose init.lua is `init`.
local function world_with(init)
  local dir = support.tempdir()
  support.write(dir .. "/t/mod.lua", 'return { id = "t", version = "0.1.0", requires = { base = "*" } }')
  support.write(dir .. "/t/init.lua", init)
  return strata.world.new{ seed = 3, mods = { "base", "t" }, mod_path = { "mods", dir } }
end

-- An event whose handler draws from the stream in params, then fails; its
-- savepoint is undone, and the draw with it.
local DRAW_AND_FAIL = [[
  data:add{ _type = "base.event", _id = "draw" }
  events:register("t.draw", "drawer", function(_, params) params.rng:int(1, 6) error("after a draw") end)
]]

describe("one journal", function()
  it("the Lua library keeps no stream state nor savepoint journal of its own", function()
    for _, f in ipairs(support.library_files()) do
      local text = support.read((os.getenv("STRATA_SOURCE_DIR") or ".") .. "/" .. f)
      for _, word in ipairs{ "stream_rng", "_streams_to_core", "_sync_streams", "record_stream",
        "_txn_open", "_txn_close", "lent_stream", "stream_generator", "txn.touched", "._txn" } do
        assert.is_nil(text:find(word, 1, true), f .. " still has " .. word)
      end
    end
  end)

  it("ctx.rng of a floor generator is the world's stream of that floor", function()
    local w = world_with(DRAW_AND_FAIL .. [[
      data:add{ _type = "base.area_generator", _id = "g", generate_floor = function(area, n, ctx)
        local key = "area#" .. area.uid .. " floor " .. n
        area.state.same = ctx.rng == ctx.world.rng:stream(key)
        area.state.name = tostring(ctx.rng)
        ctx.rng:int(1, 100)
        local before = ctx.rng:state()
        ctx.world:emit("t.draw", { rng = ctx.rng })
        area.state.undone = ctx.rng:state() == before
        area.state.after = before
        return ctx.world:create_map{ width = 2, height = 2, fill = "floor" }
      end }
      data:add{ _type = "base.area_archetype", _id = "a", generator = "t.g" }
    ]])
    local a = w:create_area("t.a")
    a:floor(1)
    assert.is_true(a.state.same)
    assert.equal("stream 'area#" .. a.uid .. " floor 1'", a.state.name)
    assert.is_true(a.state.undone)
    assert.equal(a.state.after, w.rng:stream("area#" .. a.uid .. " floor 1"):state())
  end)

  it("draws of a room generator's ctx.rng in a failing handler are undone", function()
    local w = world_with(DRAW_AND_FAIL .. [[
      data:add{ _type = "base.room_generator", _id = "r", generate = function(ctx)
        ctx.rng:int(1, 100)
        local before = ctx.rng:state()
        ctx.world:emit("t.draw", { rng = ctx.rng })
        return { name = ctx.rng:state() == before and "undone" or "kept", desc = tostring(ctx.rng) }
      end }
      data:add{ _type = "base.branch_archetype", _id = "b", room_generator = "t.r" }
    ]])
    local hub = w:create_room{ name = "Hub" }
    w.branches:make_start(hub, { north = "t.b" })
    local actor = w:create_actor{ room = hub }
    w:go(actor, "north")
    assert.equal("undone", actor.room.name)
    assert.matches("^stream 'branch#%d+ cell 0,%-?%d+'$", actor.room.desc)
  end)

  it("a map a rolled-back savepoint made is gone, through the view of its tiles too", function()
    local w = strata.world.new{ seed = 1 }
    local m
    assert.is_false(w:_atomic(function()
      m = w:create_map{ width = 3, height = 2 }
      m:set(0, 0, "wall") -- its tiles' view is made and kept
      error("undo")
    end))
    assert.is_false(m:alive())
    assert.error_matches(function() m:set(1, 1, "wall") end, "map#%d+ was deleted")
  end)

  it("an edit through any view of a map's tiles is undone with its savepoint (the binding journals it)", function()
    local w = strata.world.new{ seed = 1 }
    local m = w:create_map{ width = 3, height = 2, fill = "floor" }
    local tm = support.state(w):tilemap(m.uid) -- a view no Lua forwarder touched
    assert.is_false(w:_atomic(function()
      tm:set(0, 0, "wall")
      tm:fill(1, 0, 2, 2, "water")
      error("undo")
    end))
    assert.same({ "floor" }, m:tokens(0, 0))
    assert.same({ "floor" }, m:tokens(2, 1))
  end)
end)

describe("world:create_map", function()
  it("is one savepoint: a fill or a token it refuses leaves no map behind", function()
    local w = strata.world.new{ seed = 1 }
    local n = #w:objects()
    assert.error_matches(function() w:create_map{ width = 3, height = 2, fill = {} } end, "world:create_map")
    assert.error_matches(function() w:create_map{ width = 3, height = 2, tokens = { lava = 5 } } end,
      "world:create_map")
    assert.equal(n, #w:objects())
    assert.equal(n, support.state(w):count())
  end)

  it("is the core's map creation: its archetype's properties and renewal, refusals from the core", function()
    local w = world_with([[
      data:add{ _type = "base.map_archetype", _id = "shop", properties = { gold = 5 },
        renew = { restock_every = 10 } }
    ]])
    local m = w:create_map{ width = 3, height = 2, archetype = "t.shop", fill = "floor" }
    assert.equal(5, m.props.gold)
    assert.equal("t.shop", m.archetype)
    assert.is_false(m:passable(0, 0) == nil)
    assert.error_matches(function() w:create_map{ width = 3, height = 2, archetype = "t.shp" } end,
      "world:create_map: .*unknown base.map_archetype 't.shp'.*t.shop")
    assert.error_matches(function() w:create_map{ width = 0, height = 2 } end, "world:create_map: .*0")
  end)
end)

describe("the pre-1.0 shims are gone", function()
  it("world:new_* (use world:create_*)", function()
    local w = strata.world.new{ seed = 1 }
    for _, name in ipairs{ "new_map", "new_actor", "new_object" } do assert.is_nil(w[name], name) end
  end)

  it("create_entrance's old order (area, x, y, map)", function()
    local w = strata.world.new{ seed = 1, mods = { "base", "examples" } }
    local m = w:create_map{ width = 3, height = 3, fill = "floor" }
    local a = w:create_area("examples.quickstart")
    assert.error_matches(function() w:create_entrance(a, 1, 1, m) end,
      "world:create_entrance: expected a map, got area#")
  end)

  it("sub.cancel as a field (sub:cancel() is the method)", function()
    local w = world_with([[data:add{ _type = "base.handler", _id = "h", run = function() end }
      data:add{ _type = "base.event", _id = "e" }]])
    local o = w:create_object{ kind = "thing" }
    local sub = o:subscribe("t.e", "t.h")
    assert.is_nil(rawget(sub, "cancel"))
    assert.error_matches(function() sub.cancel() end, "sub:cancel: call it with a colon")
    assert.is_true(sub:cancel())
    assert.is_false(sub:cancel())
  end)

  it("strata.data (world.data[type] in its place)", function()
    assert.is_nil(strata.data)
  end)
end)
