-- A new user's first hour, end to end (issue "One runtime"): a mod with its
-- own base.token walls, a layout in text syntax generating the floors of an
-- area, stairs placed by the generator, a timer; the player goes down three
-- floors; routes never enter a wall and maps draw with the mod's glyphs; the
-- world is saved and opened again in a second process, where all of it holds.
local run = require("support").sh

local function check_floors(out, floors)
  for _, n in ipairs(floors) do
    assert.matches(("floor %d: on the stairs up true, route %%d+ cells, 0 in walls"):format(n), out)
    assert.matches(("floor %d: glyphs wall=true w=false floor=true"):format(n), out)
  end
end

describe("a new user's first hour", function()
  it("walks down three floors, saves, and goes on in a second process", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir -p " .. dir))
    local path = dir .. "/first.db"
    local lua = "lua5.4 spec/fixtures/first_hour.lua"
    local out, code = run(lua .. " play " .. path)
    assert.equal(0, code, out)
    check_floors(out, { 1, 2, 3 })
    assert.matches("candles 7\n", out)                 -- 75 s of world time, a candle every 10 s

    local again, code2 = run(lua .. " resume " .. path)
    assert.equal(0, code2, again)
    check_floors(again, { 3, 4 })
    assert.matches("candles 10\n", again)             -- the timer went on where it was saved
    -- the floor saved is the floor reopened, cell for cell and on the same route
    local before = out:match("floor 3: on the stairs up true, route (%d+ cells, 0 in walls, cost [%d.]+)")
    local after = again:match("floor 3: on the stairs up true, route (%d+ cells, 0 in walls, cost [%d.]+)")
    assert.is_not_nil(before)
    assert.equal(before, after)
    os.execute("rm -rf " .. dir)
  end)
end)
