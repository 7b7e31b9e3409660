-- examples/love/main.lua: the crypt in LÖVE (docs/luajit.md, "LÖVE"). The game
-- is game.lua's (strata.ffi); this file draws it and feeds it keys.
--
--   love examples/love            (strata.ffi on LUA_PATH, libstrata found: docs/luajit.md)
--
-- Keys: arrows or h j k l y u b n step, > < the stairs, g walk to the stairs,
-- s save, L load the save, q quit. STRATA_LOVE_SAVE names the save (default:
-- world.db in LÖVE's save folder). STRATA_LOVE_SCRIPT="g > s L" plays those
-- words (keys) one a frame, takes a screenshot, checks the colours of a few
-- cells against what the game says they show, prints the verdict and quits
-- with status 0 or 1: how scripts/test runs it headless (xvfb-run).
local game = require "game"

local CELL = 16
-- The colours of what a cell shows (in sight; what was seen is drawn at half).
local COLOURS = {
  hero = { 0.2, 0.9, 0.2 }, ghoul = { 0.9, 0.2, 0.2 }, stairs = { 0.95, 0.85, 0.2 },
  wall = { 0.55, 0.55, 0.6 }, floor = { 0.2, 0.2, 0.3 },
}
local ARROWS = { left = "h", right = "l", up = "k", down = "j" }

local g                 -- the game
local script            -- the scripted words left, or nil
local checked = false

-- What the cell's colour is: r, g, b (0..1).
local function colour(x, y, fov, seen)
  local what, visible = g:cell(x, y, fov, seen)
  if not what then return 0, 0, 0 end
  local c = COLOURS[what]
  local k = visible and 1 or 0.5
  return c[1] * k, c[2] * k, c[3] * k
end

local function save_path()
  local p = os.getenv("STRATA_LOVE_SAVE")
  if p and p ~= "" then return p end
  return love.filesystem.getSaveDirectory() .. "/world.db"
end

local function press(key)
  if key == "q" or key == "escape" then love.event.quit(0) return end
  if key == "L" then
    local loaded, why = game.load(save_path())
    if loaded then g = loaded else g.log = why end
    return
  end
  g:key(ARROWS[key] or key)
end

function love.load()
  love.filesystem.createDirectory("")
  g = game.new(tonumber(os.getenv("STRATA_LOVE_SEED") or "") or 7, save_path())
  local words = os.getenv("STRATA_LOVE_SCRIPT")
  if words then
    script = {}
    for w in words:gmatch("%S+") do script[#script + 1] = w end
  end
end

-- The screenshot's verdict: the hero's cell, each ghoul in sight, a cell of
-- each kind in sight and one never seen, in the colours the game says.
local function check(image)
  local fov, seen = g:sight()
  local bad, looked = {}, 0
  local want = { hero = true, ghoul = true, wall = true, floor = true, unseen = true }
  for y = 0, game.height - 1 do
    for x = 0, game.width - 1 do
      local what = g:cell(x, y, fov, seen) or "unseen"
      if want[what] then
        want[what] = what == "ghoul" or nil    -- every ghoul, one of the rest
        looked = looked + 1
        local r, gr, b = image:getPixel(x * CELL + CELL / 2, y * CELL + CELL / 2)
        local er, eg, eb = colour(x, y, fov, seen)
        if math.abs(r - er) > 0.02 or math.abs(gr - eg) > 0.02 or math.abs(b - eb) > 0.02 then
          bad[#bad + 1] = ("%s at (%d, %d): %.2f %.2f %.2f, expected %.2f %.2f %.2f"):format(what, x, y, r, gr, b, er, eg, eb)
        end
      end
    end
  end
  want.ghoul = nil
  for what in pairs(want) do bad[#bad + 1] = "no " .. what .. " cell to look at" end
  if #bad > 0 then
    print("love example: FAILED\n  " .. table.concat(bad, "\n  "))
    return false
  end
  local hero = g:hero()
  print(("love example: ok, %d cells checked; floor %d at (%d, %d), time %g"):format(looked, hero.map.floor, hero.x, hero.y, g.world.time))
  return true
end

function love.update()
  if not script or checked then return end
  if #script > 0 then press(table.remove(script, 1)) return end
  checked = true
  love.graphics.captureScreenshot(function(image) love.event.quit(check(image) and 0 or 1) end)
end

function love.keypressed(key)
  -- (with shift, the text typed is the key: love.textinput)
  if script or love.keyboard.isDown("lshift", "rshift") then return end
  press(key)
end

function love.textinput(text)
  if script then return end
  if text == ">" or text == "<" or text == "L" then press(text) end
end

function love.draw()
  local fov, seen = g:sight()
  for y = 0, game.height - 1 do
    for x = 0, game.width - 1 do
      love.graphics.setColor(colour(x, y, fov, seen))
      love.graphics.rectangle("fill", x * CELL, y * CELL, CELL, CELL)
    end
  end
  love.graphics.setColor(1, 1, 1)
  local hero = g:hero()
  love.graphics.print(("floor %d  time %g  %s"):format(hero.map.floor, g.world.time, g.log), 4, game.height * CELL + 3)
end
