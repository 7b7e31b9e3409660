-- strata play (issue "See it and drive it"): driven by --script through the
-- examples' dungeon, two floors down, saved, reopened where the player was;
-- without a terminal it refuses; after a failing hook the terminal is restored.
local strata = require "strata"
local support = require "support"

local bin = os.getenv("STRATA_BIN")
local root = os.getenv("STRATA_SOURCE_DIR") or "."

-- Keys that walk the cursor from the player to (x, y), then go there.
local function walk_keys(player, x, y)
  local keys = { "g" }
  for _ = 1, math.abs(x - player.x) do keys[#keys + 1] = x > player.x and "l" or "h" end
  for _ = 1, math.abs(y - player.y) do keys[#keys + 1] = y > player.y and "j" or "k" end
  keys[#keys + 1] = "enter"
  return table.concat(keys, " ")
end

local function stairs(map, pred)
  for f in map:features() do if pred(f) then return f end end
end

local function play(dir, keys)
  support.write(dir .. "/keys.txt", keys)
  return support.sh(("cd %s && %s play w.db --script keys.txt"):format(dir, bin))
end

describe("strata play", function()
  it("descends two floors by the keys of a script, saves, and reopens where it stopped", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    -- a world where the player stands in North Tyris
    local w = strata.world.new{ seed = 4, mods = { "base", "examples" } }
    local hero = w:create_actor{ player = true }
    local tyris = w:travel(hero, w:get_or_create_map("examples.north_tyris"))
    local door = stairs(tyris, function(f) return f.type == "entrance" end)
    w:save(dir .. "/w.db")

    local out, code = play(dir, walk_keys(hero, door.x, door.y) .. " > s q")
    assert.equal(0, code, out)
    assert.matches("you enter examples.putit_paradise, floor 1", out)
    assert.matches("examples.putit_paradise | floor 1 |", out)
    for floor = 2, 3 do
      local again = strata.world.open(dir .. "/w.db")
      local p = again:player()
      local down = stairs(p.map, function(f) return f.type == "stairs" and f.floor_delta > 0 end)
      out, code = play(dir, walk_keys(p, down.x, down.y) .. " > q")
      assert.equal(0, code, out)
      assert.matches("you enter examples.putit_paradise, floor " .. floor, out)
    end
    local last = strata.world.open(dir .. "/w.db")
    local p = last:player()
    assert.equal(3, p.map.floor)
    local up = stairs(p.map, function(f) return f.type == "stairs" and f.floor_delta < 0 end)
    assert.same({ up.x, up.y }, { p.x, p.y })       -- arrived on the stairs leading back
    assert.is_true(last.time > 0)                   -- time moved a second per step
    os.execute("rm -rf " .. dir)
  end)

  it("refuses without a terminal, in one line", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local out, code = support.sh(bin .. " play < /dev/null")
    assert.equal(1, code)
    assert.equal("strata: play: needs a terminal (or --script FILE to read keys from a file)\n", out)
  end)

  it("restores the terminal after a hook fails (in a pseudo-terminal)", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    local w = strata.world.new{ seed = 1, mods = { "base", "cursed" }, mod_path = { root .. "/spec/fixtures/mods" } }
    local town = w:create_map{ width = 5, height = 3, fill = "floor" }
    w:create_entrance(town, 1, 1, w:create_area("cursed.hell"))
    w:create_actor{ map = town, x = 1, y = 1, player = true }
    w:save(dir .. "/w.db")
    -- the player steps onto the cursed map's doorway: entering raises
    local cmd = ("cd %s && printf '>' | script -qec \"timeout --foreground 10 %s play w.db --mod-path %s/spec/fixtures/mods; stty -a\" /dev/null")
      :format(dir, bin, root)
    local out = support.sh(cmd)
    assert.matches("the curse strikes", out)
    assert.matches("[^-]icanon", out)     -- cooked mode again: raw mode was left behind
    assert.matches("[^-]echo ", out)
    os.execute("rm -rf " .. dir)
  end)
end)
