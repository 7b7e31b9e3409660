-- North Tyris: a unique one-floor area at the root of the world.
data:add{ _type = "base.map_archetype", _id = "north_tyris", properties = { outdoor = true },
  generate = function(ctx)
    local m = ctx.world:create_map{ width = 60, height = 40, fill = "grass", archetype = "examples.north_tyris" }
    -- a few woods, placed from the floor's own stream
    for _ = 1, 12 do
      local x, y = ctx.rng:int(0, 55), ctx.rng:int(0, 35)
      m:fill(x, y, ctx.rng:int(2, 5), ctx.rng:int(2, 5), "tree")
    end
    return m
  end,
  starting_pos = { 30, 20 } }
data:add{ _type = "base.area_archetype", _id = "world", types = { "world" },
  floors = { [1] = "examples.north_tyris" }, deepest_floor = 1 }
data:add{ _type = "base.unique_area", _id = "north_tyris", area = "examples.world", parent = "root" }
