-- The JSON form of a whole world (issue 37; docs/saves.md, "The JSON form"):
-- world:to_json, strata.world.from_json, `strata dump --json` and `strata
-- load`. Dump, load, dump gives the same bytes on the example worlds and on
-- a world with every kind of state, which goes on after loading as the
-- original does; bad JSON is refused with its path, and nothing is made.
local strata = require "strata"
local support = require "support"

local root = os.getenv("STRATA_SOURCE_DIR") or "."
local fixtures = support.fixture_mods
local BIN = os.getenv("STRATA_BIN") or (root .. "/build/strata")

-- The world's JSON, loaded and dumped again: the same bytes; a save of it
-- (and of the original) to store, opened again, gives them too. Returns the
-- loaded world and the text.
local function round_trip(w, store)
  local opts = { mod_path = { fixtures } }
  local text = w:to_json()
  local again = strata.world.from_json(text, opts)
  assert.equal(text, again:to_json())
  for _, world in ipairs{ again, w } do
    local place = store.fresh()
    world:save(place)
    assert.equal(text, strata.world.open(place, opts):to_json())
    store.remove(place)
  end
  return again, text
end

describe("the JSON form of a world", function()
  support.each_store(describe, pending, function(store)
    it("round-trips the example worlds byte for byte", function()
      for _, e in ipairs(support.example_worlds()) do round_trip(e[2], store) end
    end)

    it("round-trips a world with every kind of state, which goes on as the original does", function()
      local w, uids = support.everything_world()
      local again, text = round_trip(w, store)
      assert.matches('"format": "strata%-world"', text)
      assert.matches('"version": 1', text)
      assert.matches('"legend": {', text)
      assert.matches('"stacks": %[', text)
      assert.matches('"%$bytes": "ff0001"', text)
      assert.matches('"%$ref": ', text)
      assert.matches('"%$table": %[', text)
      local props = again:object(uids.thing).props
      assert.equal(0.1, props.ratio)
      assert.equal("float", math.type(props.big))
      assert.equal("\255\0\1", props.bytes)
      assert.equal("ten", props.mixed[10])
      assert.equal(1, props["$weird"])
      -- the same dice, turns, timers and handlers from here on
      assert.equal(w.rng:stream("dice"):int(1000000), again.rng:stream("dice"):int(1000000))
      assert.equal(w:next_turn().uid, again:next_turn().uid)
      w:advance(100)
      again:advance(100)
      assert.equal(w:to_json(), again:to_json())
    end)
  end)

  it("is what strata dump --json prints and strata load makes a world file of", function()
    local dir = support.tempdir()
    local w = support.everything_world()
    w:save(dir .. "/w.db")
    local text = w:to_json()
    local out, code = support.sh(("%s dump %s/w.db --json --mod-path %s"):format(BIN, dir, fixtures))
    assert.equal(0, code, out)
    assert.equal(text, out)
    support.write(dir .. "/w.json", text)
    out, code = support.sh(("%s load %s/w.json -o %s/again.db --mod-path %s"):format(BIN, dir, dir, fixtures))
    assert.equal(0, code, out)
    out, code = support.sh(("%s dump %s/again.db --json --mod-path %s"):format(BIN, dir, fixtures))
    assert.equal(0, code, out)
    assert.equal(text, out)
    out, code = support.sh(("%s dump %s/again.db --mod-path %s"):format(BIN, dir, fixtures))
    assert.equal(0, code, out)
    assert.matches("seed 4, time 30%.0", out)
    assert.matches("mods: base 0%.1%.0, crypt 0%.1%.0, examples 0%.1%.0", out)
    assert.matches("tile maps: #%d+ 60x40", out)
    -- a bad file: one line naming where, and no world file
    support.write(dir .. "/bad.json", (text:gsub('"next_uid": %d+', '"next_uid": "x"')))
    out, code = support.sh(("%s load %s/bad.json -o %s/bad.db --mod-path %s"):format(BIN, dir, dir, fixtures))
    support.refused_line("load", out, code, "%$%.next_uid: expected an integer, got a string")
    assert.is_nil(io.open(dir .. "/bad.db"))
    out, code = support.sh(("%s dump %s/w.db --jsn"):format(BIN, dir))
    support.usage_line("dump", out, code, "unknown option '%-%-jsn' %(nearest known: %-%-json")
    os.execute("rm -rf " .. support.q(dir))
  end)

  describe("refuses bad input with its JSON path", function()
    local base_text
    setup(function()
      local w = strata.world.new{ seed = 1 }
      local m = w:create_map{ width = 3, height = 2, fill = "floor" }
      w:create_actor{ map = m, x = 1, y = 1, props = { hp = 3 } }
      base_text = w:to_json()
    end)

    local function refused(text, pattern)
      local err = support.err_of(function() local w = strata.world.from_json(text) return w end)
      assert.matches("world_json_spec%.lua:%d+: strata%.world%.from_json: " .. pattern, err)
      assert.not_matches("strata/[%w_]+%.lua", err)
    end
    local function edit(from, to)
      local text, n = base_text:gsub(from, to, 1)
      assert.equal(1, n, from)
      return text
    end

    it("when the text is not JSON, or not a world", function()
      refused(base_text:sub(1, 200), "%$%.objects%[0%][^:]*: the text ends[^\n]* %(line %d+, column %d+%)")
      refused("[]", "%$: expected an object %(a world%), got an array")
      refused(edit('"strata%-world"', '"strata-wold"'), '%$%.format: expected "strata%-world"')
      refused(edit('"version": 1', '"version": 2'), "%$%.version: version 2, and this strata reads version 1")
      refused(string.rep("[", 100000), "%$%[0%]%[0%].*: nested deeper than 512 levels")
    end)

    it("when a value has the wrong type or an unknown key", function()
      refused(edit('"x": 1', '"x": "1"'), "%$%.objects%[1%]%.x: expected an integer, got a string")
      refused(edit('"props": {', '"props": 5, "p": {'), "%$%.objects%[0%]%.p: unknown key 'p' %(nearest known: ")
      refused(edit('"kind": "actor"', '"kindd": "actor"'), "%$%.objects%[1%]%.kindd: unknown key 'kindd' %(nearest known: kind")
      refused(edit('"hp": 3', '"hp": null'), "%$%.objects%[1%]%.props%.props%.hp: null is no value to store")
      refused(edit('"hp": 3', '"hp": {"$rf": 1}'), [[%$%.objects%[1%]%.props%.props%.hp%["%$rf"%]: unknown key '%$rf' %(nearest known: %$ref]])
      refused(edit('"hp": 3', '"hp": ' .. string.rep('{"a": ', 70) .. "1" .. string.rep("}", 70)),
        "%$%.objects%[1%]%.props%.props%.hp%.a.*: tables nested deeper than 64 levels")
    end)

    it("when a uid dangles, repeats, or is past the counter", function()
      refused(edit('"map": 1', '"map": 99'), "%$%.objects%[1%]%.map: no object #99 %(a dangling uid%)")
      refused(edit('"uid": 2', '"uid": 1'), "%$%.objects%[1%]%.uid: uid 1 is also %$%.objects%[0%]'s")
      refused(edit('"next_uid": %d+', '"next_uid": 2'), "%$%.next_uid: 2 is not past every uid %(the largest is 2%)")
      refused(edit('"subscriptions": %[%]', '"subscriptions": [{"uid": 9, "object": 42, "event": "base.moved", '
        .. '"handler": "base.x", "args": null, "priority": 0}]'), "%$%.subscriptions%[0%]%.object: no object #42")
    end)

    it("when tiles fall outside their map or name no token", function()
      refused(edit('"rows": %["fff", "fff"%]', '"rows": ["fff", "ff"]'), "%$%.objects%[0%]%.tiles%.rows%[1%]: fewer characters than the map's width 3")
      refused(edit('"rows": %["fff", "fff"%]', '"rows": ["fff", "ffff"]'), "%$%.objects%[0%]%.tiles%.rows%[1%]: more than the map's 3 characters")
      refused(edit('"rows": %["fff", "fff"%]', '"rows": ["fff"]'), "%$%.objects%[0%]%.tiles%.rows: 1 rows, not the map's height 2")
      refused(edit('"rows": %["fff", "fff"%]', '"rows": ["fff", "fxf"]'), "%$%.objects%[0%]%.tiles%.rows%[1%]: character 2, 'x', is in no legend")
      refused(edit('"rows": %["fff", "fff"%]', '"rows": ["fff", "fff"], "stacks": [[3, 0, ["wall"]]]'),
        "%$%.objects%[0%]%.tiles%.stacks%[0%]: %(3, 0%) is outside the map %(3 x 2%)")
      refused(edit('"x": 1', '"x": 3'), "%$%.objects%[1%]: %(3, 1%) is outside map #1 %(3 x 2%)")
      refused(edit('"props": {\n        "props"', '"tags": {"a": 1}, "props": {\n        "props"'),
        '%$%.objects%[1%]%.tags: expected { "name": true, %.%.%. }')
      refused(edit('"f": "floor"', '"f": ""'), '%$%.objects%[0%]%.tiles%.legend%.f: not a token name')
      refused(edit('"f": "floor"', '"ff": "floor"'), "%$%.objects%[0%]%.tiles%.legend%.ff: a legend's key is one character")
    end)

    it("when an ID is known to no mod loaded", function()
      local text = edit('"kind": "actor"', '"kind": "actor", "archetype": "nope.ghost"')
      local err = support.err_of(function() local w = strata.world.from_json(text) return w end)
      assert.matches("strata%.world%.from_json: cannot load the world: 1 unknown ID:\n  unknown ID 'nope%.ghost'", err)
    end)
  end)
end)
