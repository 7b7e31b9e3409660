-- An 80x80 floor made with bulk calls only: a fill, 24 rooms, 23 corridors,
-- stairs both ways. bench.calls counts the calls into C per floor.
bench_calls = 0
data:add{ _type = "base.area_generator", _id = "rooms", generate_floor = function(area, floor, ctx)
  local rng = ctx.rng
  local m = ctx.world:create_map{ width = 80, height = 80, fill = "rock" }
  local px, py = 40, 40
  local calls = 1
  for _ = 1, 24 do
    local w, h = rng:int(4, 12), rng:int(4, 10)
    local x, y = rng:int(1, 78 - w), rng:int(1, 78 - h)
    m:fill(x, y, w, h, "floor")
    local cx, cy = x + w // 2, y + h // 2
    m:fill(math.min(px, cx), py, math.abs(cx - px) + 1, 1, "floor")
    m:fill(cx, math.min(py, cy), 1, math.abs(cy - py) + 1, "floor")
    px, py = cx, cy
    calls = calls + 5
  end
  area:add_floor(m, floor)
  ctx.world:create_stairs(m, 40, 40, { floor_delta = -1 })
  ctx.world:create_stairs(m, px, py, { floor_delta = 1 })
  bench_calls = calls
  return m
end }
data:add{ _type = "base.handler", _id = "calls", run = function() return bench_calls end }
data:add{ _type = "base.area_archetype", _id = "deep", generator = "bench.rooms" }

-- Dungeon branches (spec/bench/bench_branches.lua): a room generator of a
-- few kinds, as a game's might be, and a sprawling archetype.
local KINDS = { { "Cave", "Water drips from the ceiling." }, { "Hall", "Pillars hold up a vault." },
  { "Crypt", "Niches line the walls." }, { "Pool", "Dark water fills half the room." } }
data:add{ _type = "base.room_generator", _id = "cell_room", generate = function(ctx)
  local k = KINDS[ctx.rng:int(1, #KINDS)]
  local monster = ctx.rng:chance(0.3) and "rat" or nil
  return { name = k[1] .. " " .. ctx.coords.x .. "," .. ctx.coords.y, desc = k[2],
           props = { depth = ctx.depth, monster = monster } }
end }
data:add{ _type = "base.branch_archetype", _id = "sprawl", room_generator = "bench.cell_room",
  directions = { "north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest" },
  max_unexplored_exits = 100, max_new_exits_per_room = 4 }

-- The bookkeeping at scale (spec/bench/bench_schema.lua): areas whose floors
-- are added by hand, and one unique area among them.
data:add{ _type = "base.area_archetype", _id = "flat" }
data:add{ _type = "base.unique_area", _id = "landmark", area = "bench.flat", parent = "root" }
