-- A new user's first hour, end to end (issue "One runtime"): a mod with its
-- own base.token walls, a layout in text syntax generating the floors of an
-- area, stairs placed by the generator, a timer; the player goes down three
-- floors; routes never enter a wall and maps draw with the mod's glyphs; the
-- world is saved and opened again in a second process, where all of it holds.
local support = require "support"
local run = support.sh

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

  -- Issue 36: the README's ghoul chases the hero down a distance map, turn by
  -- turn, and the chase goes on across a save as it does in one process.
  it("is chased by the crypt's ghoul, turn by turn, across a save", function()
    local dir = support.tempdir()
    local lua = "lua5.4 spec/fixtures/first_hour.lua "
    local control, code = run(lua .. "chase " .. dir .. "/control.db 30")
    assert.equal(0, code, control)
    local ds = {}
    for d in control:match("^(.-)reached"):gmatch("d=([%d.]+)") do ds[#ds + 1] = tonumber(d) end
    assert.is_true(#ds >= 4, control)                   -- it starts rooms away
    for i = 2, #ds do assert.is_true(ds[i] < ds[i - 1], control) end   -- nearer every turn
    assert.is_true(ds[#ds] <= 1.5, control)             -- beside the hero
    local walked = control:match("reached at t=[%d.]+\n(.*)$")
    local _, turns = walked:gsub("t=[%d.]+ ghoul", "")
    assert.equal(30, turns, control)                    -- the hero walks, the ghoul follows
    for d in walked:gmatch("d=([%d.]+)") do assert.is_true(tonumber(d) <= 4, control) end

    local first, code1 = run(lua .. "chase " .. dir .. "/split.db 30 12")
    assert.equal(0, code1, first)
    local rest, code2 = run(lua .. "chase-on " .. dir .. "/split.db 30")
    assert.equal(0, code2, rest)
    -- the two processes' turns are the control's, line for line
    assert.equal(walked, first:match("reached at t=[%d.]+\n(.*)$") .. rest)
    os.execute("rm -rf " .. dir)
  end)
end)
