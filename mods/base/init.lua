-- The base types of the API (section 2). Their systems may arrive later; the
-- schemas are declared here so that every mod validates against them.
local F = { type = "function" }
local T = { type = "table" }
local EV = { type = "table", functions = true } -- lists of { id =, name =, priority =, handler = fn }

data:add_type{ _id = "event", fields = { params = T } }
data:add_type{ _id = "handler", fields = { run = { type = "function", required = true } } }
data:add_type{ _id = "map_archetype", fields = {
  properties = T, generate = F, on_spawn = F, starting_pos = { type = { "function", "table" } },
  on_load = F, on_enter = F, on_leave = F, renew = T, on_restock = F, on_renew = F, events = EV } }
data:add_type{ _id = "area_generator", fields = { generate_floor = F, params = T } }
data:add_type{ _id = "area_archetype", fields = {
  types = T, image = { type = "string" }, floors = T, generator = { ref = "base.area_generator" },
  starting_floor = { type = "integer" }, deepest_floor = { type = "integer" }, params = T, meta = T,
  events = EV } }
data:add_type{ _id = "unique_area", fields = {
  area = { ref = "base.area_archetype", required = true }, parent = { type = "string" },
  on_floor = { type = "integer" }, at = T, starting_floor = { type = "integer" },
  eager = { type = "boolean" } } }
data:add_type{ _id = "room_generator", fields = { generate = F } }
data:add_type{ _id = "branch_archetype", fields = {
  room_generator = { ref = "base.room_generator" }, directions = T,
  max_unexplored_exits = { type = "integer" }, max_new_exits_per_room = { type = "integer" },
  start_exit_reset = T, max_idle = { type = "number" } } }
data:add_type{ _id = "grid_map", fields = { z = { type = "string" }, map = { type = "string" },
  legend = T, prototypes = T, options = T } }
data:add_type{ _id = "legend", fields = { symbol = { type = "string" }, kind = { type = "string", required = true },
  display = { type = "string" }, weight = { type = "number" }, weights = T, directions = T, aliases = T,
  interrupt = { type = "boolean" }, average = { type = "boolean" }, target = T, spawn_aliases = T,
  prototype = { type = "string" } } }
data:add_type{ _id = "prototype", fields = { kind = { type = "string" }, parent = { type = "string" } } }
data:add_type{ _id = "layout", fields = { size = T, generator = { type = "any", functions = true }, source = { type = "string" } } }
data:add_type{ _id = "layout_mapping", fields = { inherit = { ref = "base.layout_mapping" },
  append = { type = "boolean" }, tokens = T } }
data:add_type{ _id = "token", fields = { passable = { type = "boolean" }, cost = { type = "number" },
  glyph = { type = "string" }, color = { type = "string" } } }
data:add_type{ _id = "glyphs", fields = { glyphs = T } }
data:add_type{ _id = "actor_archetype", fields = { state = T, events = EV } }

-- Events the runtime itself emits.
for _, id in ipairs{ "map_entered", "map_left", "before_travel", "floor_generated",
                     "object_created", "object_deleted" } do
  data:add{ _type = "base.event", _id = id }
end

-- While the player is on a map with `renew`, this timer applies restock and renew as they fall due.
data:add{ _type = "base.handler", _id = "map_renew", run = function(world, _, args) world:_renew_timer(args.map) end }
