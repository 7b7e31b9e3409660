-- Floors that cost too much: memory strata allocates in C (a map of 3000 x
-- 3000 cells), or CPU time (a loop that never ends). And one that is fine.
data:add{ _type = "base.area_generator", _id = "big", generate_floor = function(area, floor, ctx)
  local m = ctx.world:create_map{ width = 3000, height = 3000, fill = "floor" }
  area:add_floor(m, floor)
  return m
end }
data:add{ _type = "base.area_generator", _id = "spin", generate_floor = function()
  while true do end
end }
data:add{ _type = "base.area_generator", _id = "small", generate_floor = function(area, floor, ctx)
  local m = ctx.world:create_map{ width = 4, height = 3, fill = "floor" }
  area:add_floor(m, floor)
  return m
end }
data:add{ _type = "base.area_archetype", _id = "big", generator = "hog.big" }
data:add{ _type = "base.area_archetype", _id = "spin", generator = "hog.spin" }
data:add{ _type = "base.area_archetype", _id = "small", generator = "hog.small" }
