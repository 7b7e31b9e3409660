-- strata run mods/examples/scripts/putit.lua [seed]
-- Walks a player from North Tyris into putit paradise and down to its tenth floor.
local strata = require "strata"
local here = arg[0]:match("^(.*)/scripts/[^/]*$") or "mods/examples"
local world = strata.world.new{ seed = tonumber(arg[1]) or 42, mods = { "base", "examples" },
  mod_path = { here .. "/.." } }
local overworld = world:get_or_create_map("examples.north_tyris")
local player = world:create_actor{ player = true }
world:travel(player, overworld)
local entrance
for f in overworld:features() do
  if f.type == "entrance" then entrance = f end
end
print(("North Tyris: the entrance to putit paradise is at (%d, %d)"):format(entrance.x, entrance.y))
local map = world:travel(player, entrance)
while true do
  local down
  for f in map:features() do
    if f.type == "stairs" and f.floor_delta > 0 then down = f end
  end
  print(("floor %d (level %d): %d putits, player at (%d, %d)"):format(world:current_floor(), map.level,
    #map:objects("actor") - 1, player.x, player.y))
  if not down then break end
  map = world:travel(player, down)
end
local area = world:current_area()
print(("deepest floor %d, deepest visited %d"):format(area.deepest_floor, area.deepest_visited))
print(map:render())
