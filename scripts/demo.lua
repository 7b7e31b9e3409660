-- The demo run by scripts/demo: a cave-and-rooms tile map grown from a seed,
-- a path found across it, and the map printed with the path drawn.
local strata = require "strata"

local seed = tonumber(arg and arg[1]) or 7
local rng = strata.rng.new(seed)
local tokens = strata.tokens.new()
tokens:define("rock", { passable = false, glyph = "#", color = "grey" })
tokens:define("floor", { glyph = "." })
tokens:define("water", { cost = 4, glyph = "~", color = "blue" })

local W, H = 64, 22
local map = strata.tilemap.new{ width = W, height = H, fill = "rock", tokens = tokens }

-- Rooms joined in a chain by L-shaped corridors, then a few pools of water.
local rooms = {}
for _ = 1, 9 do
  local w, h = rng:int(5, 12), rng:int(3, 6)
  local x, y = rng:int(1, W - w - 1), rng:int(1, H - h - 1)
  map:fill(x, y, w, h, "floor")
  rooms[#rooms + 1] = { x = x + w // 2, y = y + h // 2 }
end
for i = 2, #rooms do
  local a, b = rooms[i - 1], rooms[i]
  map:fill(math.min(a.x, b.x), a.y, math.abs(a.x - b.x) + 1, 1, "floor")
  map:fill(b.x, math.min(a.y, b.y), 1, math.abs(a.y - b.y) + 1, "floor")
end
for _ = 1, 4 do
  local r = rooms[rng:int(#rooms)]
  map:fill(r.x - 1, r.y - 1, 3, 2, "water")
end

local from, to = rooms[1], rooms[#rooms]
local path, cost = map:find_path({ from.x, from.y }, { to.x, to.y },
                                 { algorithm = "astar", connectivity = 8 })
io.write(string.format("strata %s demo: %dx%d map, seed %d\n", strata.version, W, H, seed))
if not path then
  io.write("no path from room 1 to room ", #rooms, "\n")
  return 1
end
io.write(map:render{ path = path, path_glyph = "*" })
io.write(string.format("path from (%d, %d) to (%d, %d): %d steps, cost %.2f (water costs 4)\n",
  from.x, from.y, to.x, to.y, #path - 1, cost))
