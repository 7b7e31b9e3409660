-- strata run mods/examples/scripts/hub.lua
-- The quick-start hub: visits the item room and the AI room by their stairs.
local strata = require "strata"
local here = arg[0]:match("^(.*)/scripts/[^/]*$") or "mods/examples"
local world = strata.world.new{ seed = 1, mods = { "base", "examples" }, mod_path = { here .. "/.." } }
local setup = world.data["base.handler"]:ensure("examples.quickstart_setup")
local _, player = setup.run(world)
local function stairs(map, delta)
  for f in map:features() do
    if f.type == "stairs" and f.floor_delta == delta then return f end
  end
end
local hub = world:current_map()
for _, delta in ipairs{ 1, 2 } do
  local room = world:travel(player, stairs(hub, delta))
  print(("hub -> %s (floor %d, test %s) at (%d, %d)"):format(room.archetype, room.floor, room.props.test,
    player.x, player.y))
  world:travel(player, stairs(room, -delta))
  print(("back on the hub at (%d, %d)"):format(player.x, player.y))
end
