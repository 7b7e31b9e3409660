-- The cellar's floors, as the C game's own generator draws them (game.c):
-- walls around, a barrel at (4, 2), stairs up at (1, 2) below the first
-- floor, stairs down at (10, 2) above the last.
data:add{ _type = "base.area_generator", _id = "cellar", generate_floor = function(area, floor, ctx)
  local m = ctx.world:create_map{ width = 12, height = 5, fill = "wall" }
  m:fill(1, 1, 10, 3, "floor")
  m:set(4, 2, "wall")
  area:add_floor(m, floor)
  if floor > 1 then ctx.world:create_stairs(m, 1, 2, { floor_delta = -1 }) end
  if floor < area.deepest_floor then ctx.world:create_stairs(m, 10, 2, { floor_delta = 1 }) end
  return m
end }
data:add{ _type = "base.area_archetype", _id = "cellar", generator = "cellar.cellar", deepest_floor = 2 }

-- Logic only the mod has: each map counts the visits it had.
events:register("base.map_entered", "cellar: visits", function(map)
  map.props.visits = (map.props.visits or 0) + 1
end)
