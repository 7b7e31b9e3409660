-- The quick-start hub: one area whose floors are a hub and two test rooms,
-- linked by stairs, not stacked: the rooms lie one and two floors "below" it.
local function hub_room(name)
  return function(ctx)
    local m = ctx.world:create_map{ width = 20, height = 20, fill = "floor", archetype = "examples." .. name }
    m:fill(0, 0, 20, 1, "wall"); m:fill(0, 19, 20, 1, "wall")
    m:fill(0, 0, 1, 20, "wall"); m:fill(19, 0, 1, 20, "wall")
    return m
  end
end
data:add{ _type = "base.map_archetype", _id = "quickstart_hub", generate = hub_room("quickstart_hub"), starting_pos = { 10, 10 } }
data:add{ _type = "base.map_archetype", _id = "item_room", generate = hub_room("item_room"), properties = { test = "items" } }
data:add{ _type = "base.map_archetype", _id = "ai_room", generate = hub_room("ai_room"), properties = { test = "ai" } }
data:add{ _type = "base.area_archetype", _id = "quickstart",
  floors = { [1] = "examples.quickstart_hub", [2] = "examples.item_room", [3] = "examples.ai_room" },
  deepest_floor = 3 }

-- Builds the hub area with its stairs and puts a player on the hub.
function quickstart_setup(world)
  local area = world:create_area("examples.quickstart")
  local hub, items, ai = area:floor(1), area:floor(2), area:floor(3)
  world:create_stairs(hub, 5, 10, { floor_delta = 1 })    -- to the item room
  world:create_stairs(hub, 15, 10, { floor_delta = 2 })   -- to the AI room
  world:create_stairs(items, 10, 10, { floor_delta = -1 })
  world:create_stairs(ai, 10, 10, { floor_delta = -2 })
  local player = world:create_actor{ player = true }
  world:travel(player, hub)
  return area, player
end
data:add{ _type = "base.handler", _id = "quickstart_setup", run = function(world) return quickstart_setup(world) end }
