-- A world's bookkeeping objects (issue 30, "One owner"): the world record, the
-- grid's map list and a branch's cell index are the core's. Which kinds they
-- are is the core's answer (strata_kind_is_bookkeeping); world:objects() never
-- lists them, and deleting one is the core's refusal, after which the world
-- still works and still saves. world:objects{ kind = } filters by kind.
local strata = require "strata"
local support = require "support"

local MODS = { "base", "delve", "xyzgrid" }
local KINDS = { "world_record", "grid_maps", "branch_index", "branch_cells" }

-- A world with one of each: a player, a grid map, a branch entered.
local function world_with_all()
  local w = support.new_world(11, MODS)
  local hub = w:create_room{ name = "Hub", desc = "The bottom of the well." }
  w.branches:make_start(hub, { north = "delve.narrow" })
  local hero = w:create_actor{ room = hub, player = true }
  w.grid:add("xyzgrid.map12a")
  w.grid:spawn()
  assert.is_true(w:go(hero, "north"))
  return w, hero
end

-- Every live object (world:object finds bookkeeping too), by kind.
local function by_kind(w)
  local out = {}
  for _, o in ipairs(support.every_object(w)) do
    out[o.kind] = out[o.kind] or {}
    table.insert(out[o.kind], o)
  end
  return out
end

-- The world's functions over what its bookkeeping keeps.
local function still_works(w, hero)
  assert.equal(hero, w:player())
  assert.is_number(w:stream("d"):float())
  assert.equal(1, #w.grid:maps())
  local b = hero.room.branch
  assert.is_not_nil(b)
  assert.same({ true }, { b:check() })
  assert.is_true(#b:rooms() >= 1)
end

describe("a world's bookkeeping objects", function()
  it("are not listed by world:objects(), however the world made them", function()
    local w = world_with_all()
    local all = by_kind(w)
    for _, kind in ipairs(KINDS) do assert.is_not_nil(all[kind], kind) end
    for _, o in ipairs(w:objects()) do
      for _, kind in ipairs(KINDS) do assert.not_equal(kind, o.kind) end
    end
  end)

  it("refuse delete with the core's message; the world still works, and after a save and open", function()
    local w, hero = world_with_all()
    local count = #w:objects()
    for _, kind in ipairs(KINDS) do
      for _, o in ipairs(by_kind(w)[kind]) do
        local line = debug.getinfo(1, "l").currentline + 1
        local ok, err = pcall(function() o:delete() end)
        assert.is_false(ok)
        assert.equal(("%s:%d: object:delete: %s is the world's own bookkeeping: it cannot be deleted")
          :format(debug.getinfo(1, "S").short_src, line, tostring(o)), err)
        assert.is_true(o:alive())
      end
    end
    assert.equal(count, #w:objects())
    still_works(w, hero)
    local dir = support.tempdir()
    w:save(dir .. "/w.db")
    local w2 = strata.world.open(dir .. "/w.db", { mod_path = support.mod_path })
    still_works(w2, w2:object(hero.uid))
    for _, kind in ipairs(KINDS) do assert.is_not_nil(by_kind(w2)[kind], kind) end
  end)
end)

describe("world:objects(opts)", function()
  it("{ kind = } gives the live objects of that kind, in uid order", function()
    local w = world_with_all()
    local dens = { w:create_object{ kind = "den" }, w:create_object{ kind = "den" } }
    w:create_object{ kind = "cave" }
    assert.same(dens, w:objects{ kind = "den" })
    assert.same({}, w:objects{ kind = "nothing" })
    local rooms = w:objects{ kind = "room" }
    assert.is_true(#rooms > 2)
    for _, r in ipairs(rooms) do assert.equal("room", r.kind) end
    assert.same(w:objects(), w:objects{})
  end)

  it("never gives bookkeeping, even asked for its kind", function()
    local w = world_with_all()
    for _, kind in ipairs(KINDS) do assert.same({}, w:objects{ kind = kind }) end
  end)

  it("refuses an unknown key (naming the nearest known), a kind not a string, an argument not a table", function()
    local w = world_with_all()
    assert.error_matches(function() w:objects{ knd = "den" } end,
      "^world:objects: unknown option 'knd' %(nearest known: kind%)$")
    assert.error_matches(function() w:objects{ kind = 5 } end,
      "^world:objects: kind must be a string, got number$")
    assert.error_matches(function() w:objects("den") end,
      "^world:objects: options must be a table, got string$")
  end)
end)
