-- Putit paradise: floors generated lazily by an area generator, each a cave of
-- rooms with stairs; ten floors, the last without stairs down.
local DEPTH = 10

local function room(m, rng)
  local w, h = rng:int(4, 9), rng:int(3, 6)
  local x, y = rng:int(1, m.width - w - 1), rng:int(1, m.height - h - 1)
  m:fill(x, y, w, h, "floor")
  return x + w // 2, y + h // 2
end

local function corridor(m, ax, ay, bx, by)
  m:fill(math.min(ax, bx), ay, math.abs(bx - ax) + 1, 1, "floor")
  m:fill(bx, math.min(ay, by), 1, math.abs(by - ay) + 1, "floor")
end

data:add{ _type = "base.area_generator", _id = "putit_paradise",
  generate_floor = function(area, floor, ctx)
    local m = ctx.world:create_map{ width = 40, height = 25, fill = "wall", archetype = "examples.putit_paradise" }
    local px, py = room(m, ctx.rng)
    local first = { px, py }
    for _ = 2, ctx.rng:int(4, 7) do
      local x, y = room(m, ctx.rng)
      corridor(m, px, py, x, y)
      px, py = x, y
    end
    area:add_floor(m, floor)   -- attached now, so stairs know where they are
    ctx.world:create_stairs(m, first[1], first[2], { floor_delta = -1 })
    if floor < (area.deepest_floor or math.huge) then
      ctx.world:create_stairs(m, px, py, { floor_delta = 1 })
    end
    m.level = floor * 2        -- difficulty grows twice as fast as depth
    return m
  end }

data:add{ _type = "base.map_archetype", _id = "putit_paradise", properties = { indoor = true, music = "putit" },
  renew = { restock_every = 3600, renew_every = 86400 },
  on_spawn = function(map, ctx)
    for i = 1, 2 + map.level // 4 do
      local x, y
      repeat x, y = ctx.rng:int(0, map.width - 1), ctx.rng:int(0, map.height - 1) until map:has(x, y, "floor")
      ctx.world:create_actor{ archetype = "examples.putit", map = map, x = x, y = y }
    end
  end,
  on_restock = function(map, ctx)
    map.props.putitoros = (map.props.putitoros or 0) + ctx.steps
  end,
  on_renew = function(map, ctx)
    map.props.renewals = (map.props.renewals or 0) + ctx.steps
  end,
  events = { { id = "base.map_entered", name = "The putits are watching.", priority = 50,
    handler = function(map, params)
      map.props.welcomes = (map.props.welcomes or 0) + 1
    end } } }

data:add{ _type = "base.actor_archetype", _id = "putit", state = { hp = 5 } }
data:add{ _type = "base.area_archetype", _id = "putit_paradise", types = { "dungeon" },
  image = "examples.feat_area_castle", generator = "examples.putit_paradise", deepest_floor = DEPTH }
data:add{ _type = "base.unique_area", _id = "putit_paradise", area = "examples.putit_paradise",
  parent = "examples.north_tyris", on_floor = 1, at = { 43, 6 } }
