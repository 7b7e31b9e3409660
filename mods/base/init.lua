-- The base types (docs/mods-and-world.md). Their systems may arrive later; the
-- schemas are declared here so that every mod validates against them. Every
-- type is closed: a key not listed is an error naming the nearest known keys.
local F = { type = "function" }
local T = { type = "table" }
local S = { type = "string" }
local N = { type = "number" }
local I = { type = "integer" }
local B = { type = "boolean" }
-- A point: { x, y } or { x =, y = }.
local POINT = { type = "table", fields = { I, I, x = I, y = I } }
-- Lists of { id =, name =, priority =, handler = fn } (archetype events).
local EV = { type = "table", functions = true, items = { type = "table", functions = true,
  fields = { id = { type = "string", required = true }, name = S, priority = I,
             handler = { type = "function", required = true } } } }

data:add_type{ _id = "event", fields = { params = T } }
data:add_type{ _id = "handler", fields = { run = { type = "function", required = true } } }
data:add_type{ _id = "map_archetype", fields = {
  properties = T, generate = F, on_spawn = F, starting_pos = { type = { "function", "table" } },
  on_load = F, on_enter = F, on_leave = F, on_restock = F, on_renew = F, events = EV,
  spawn = { type = "table", fields = { every = N, max = I } },
  renew = { type = "table", fields = { restock_every = N, renew_every = N, regenerate = B,
    keep = { type = "table", fields = { actors = B, tags = { type = "table", items = S } } } } } },
  -- A spawn tick is a timer's run: no shorter than the world's shortest timer
  -- period (STRATA_TIMER_MIN_EVERY), or an advance would barely move time.
  check = function(e)
    local every, max = type(e.spawn) == "table" and e.spawn.every, type(e.spawn) == "table" and e.spawn.max
    if every and not (every >= 0.001 and every < math.huge) then
      return ("spawn.every must be a finite number of seconds >= 0.001, got %s"):format(tostring(every))
    end
    if max and max < 0 then return ("spawn.max must be an integer >= 0, got %d"):format(max) end
  end }
data:add_type{ _id = "area_generator", fields = { generate_floor = F, params = T } }
data:add_type{ _id = "area_archetype", fields = {
  types = { type = "table", items = S }, image = S, floors = T,
  generator = { ref = "base.area_generator" }, starting_floor = I, deepest_floor = I,
  params = T, meta = T, events = EV } }
-- parent: "root", or a unique area added before this one (earlier in the same
-- mod, or by a mod loaded before it: one it requires), so that a misspelt
-- parent is an error here and not an area that never appears. `at` is checked
-- against the parent's floor when that floor is generated (core/src/unique.c).
data:add_type{ _id = "unique_area", fields = {
  area = { ref = "base.area_archetype", required = true }, parent = S,
  on_floor = I, at = POINT, starting_floor = I, eager = B },
  check = function(e, ids)
    local x, y = e.at and (e.at.x or e.at[1]), e.at and (e.at.y or e.at[2])
    if e.at ~= nil and not (x and y and x >= 0 and y >= 0) then
      return ("at must be a cell (x, y >= 0), got (%s, %s)"):format(tostring(x), tostring(y))
    end
    if e.parent == nil or e.parent == "root" then return nil end
    local known = ids("base.unique_area")
    for _, id in ipairs(known) do if id == e.parent then return nil end end
    return ("parent '%s' is not a base.unique_area added before it (in this mod or a mod it requires)%s")
      :format(e.parent, strata.options.suggest(e.parent, known))
  end }
data:add_type{ _id = "room_generator", fields = { generate = { type = "function", required = true } } }
data:add_type{ _id = "branch_archetype", fields = {
  room_generator = { ref = "base.room_generator", required = true }, directions = { type = "table", items = S },
  max_unexplored_exits = I, max_new_exits_per_room = I,
  start_exit_reset = { type = "table", fields = { every = N, chance = N } }, max_idle = N } }
-- What a grid map's schema cannot say (Evennia's load errors): see docs/grid.md.
-- A prototype's props: plain data (strings, numbers, booleans, tables of
-- them), as object properties hold. Returns an error message or nil.
local function props_error(props, where)
  if type(props) ~= "table" then return ("%s must be a table of plain data, got %s"):format(where, type(props)) end
  local seen = {}
  local function walk(t, path, depth)
    if seen[t] then return ("%s%s holds a cycle (a table that contains itself)"):format(where, path) end
    if depth > 32 then return ("%s%s is nested too deeply"):format(where, path) end
    seen[t] = true
    for k, v in next, t do
      local kp = type(k) == "string" and path .. "." .. k or path .. "[" .. tostring(k) .. "]"
      if type(k) ~= "string" and math.type(k) ~= "integer" then
        return ("%s%s: keys must be strings or integers, got %s"):format(where, path, math.type(k) or type(k))
      end
      local msg
      if type(v) == "table" then msg = walk(v, kp, depth + 1)
      elseif type(v) ~= "string" and type(v) ~= "number" and type(v) ~= "boolean" then
        msg = ("%s%s is a %s: props hold strings, numbers, booleans and tables of them"):format(where, kp, type(v))
      end
      if msg then return msg end
    end
    seen[t] = nil
  end
  return walk(props, "", 0)
end
local function has_function(v, seen)
  if type(v) == "function" then return true end
  if type(v) ~= "table" or seen[v] then return false end
  seen[v] = true
  for k, x in next, v do if has_function(k, seen) or has_function(x, seen) then return true end end
  return false
end
-- A legend entry's kind: one the XY map parser knows. Returns an error message or nil.
local function kind_error(kind)
  local kinds = strata.xymap.kinds
  for _, k in ipairs(kinds) do if k == kind then return nil end end
  if kind == nil then return "field 'kind' is required" end
  return ("field 'kind': unknown legend kind '%s'%s"):format(tostring(kind), strata.options.suggest(tostring(kind), kinds))
end
local DIRS = { n = true, ne = true, e = true, se = true, s = true, sw = true, w = true, nw = true, ["*"] = true }
-- Prototype coordinates are C ints, INT_MIN meaning "any" (bindings/lua/grid.c).
local COORD_MAX = (1 << 31) - 1
local function check_grid_map(e)
  if type(e.map) ~= "string" or not e.map:find("%S") then return "map is required and cannot be empty" end
  local align = e.options and e.options.map_align
  if align ~= nil and align ~= "l" and align ~= "c" and align ~= "r" then
    return ("options.map_align must be 'l', 'c' or 'r', got '%s'"):format(tostring(align))
  end
  -- One character, its markup around it: a room's appearance repeats it its width times.
  local sep = e.options and e.options.map_separator_char
  if type(sep) == "string" and (#sep > 32 or utf8.len(strata.markup.strip(sep)) ~= 1) then
    return ("options.map_separator_char must be one character (with its markup, at most 32 bytes), got %d bytes")
      :format(#sep)
  end
  for key, v in pairs(e.legend or {}) do
    if type(key) ~= "string" or #key ~= 1 or key == " " or key == "\n" then
      return ("legend key '%s' is invalid: keys must be one character other than space"):format(tostring(key))
    end
    if type(v) ~= "string" and type(v) ~= "table" then
      return ("legend '%s' must be a base.legend ID or a table { kind =, ... }"):format(key)
    end
    local msg = type(v) == "table" and kind_error(v.kind)
    if msg then return ("legend '%s': %s"):format(key, msg) end
  end
  for key, v in pairs(e.prototypes or {}) do
    local parts = {}
    if type(key) == "string" then for p in (key .. ","):gmatch("([^,]*),") do parts[#parts + 1] = p end end
    local ok = (#parts == 2 or #parts == 3)
    for i = 1, 2 do ok = ok and parts[i] ~= nil and (parts[i] == "*" or parts[i]:match("^%-?%d+$") ~= nil) end
    if ok and #parts == 3 then ok = DIRS[parts[3]] ~= nil end
    if not ok then
      return ("prototype key '%s' is invalid: expected \"X,Y\" or \"X,Y,dir\" (integers or *, dir n ... nw or *)")
        :format(tostring(key))
    end
    for i = 1, 2 do
      local n = parts[i] ~= "*" and math.tointeger(tonumber(parts[i]))
      if n ~= false and not (n and n >= -COORD_MAX and n <= COORD_MAX) then
        return ("prototype key '%s' is invalid: coordinates are integers from %d to %d or *")
          :format(key, -COORD_MAX, COORD_MAX)
      end
    end
    if type(v) ~= "string" and type(v) ~= "table" then
      return ("prototype '%s' must be a base.prototype ID or a table { key =, desc =, parent = }"):format(key)
    end
    -- `prototypes` may hold functions as far as the schema goes, so that
    -- this names the prototype key and field; none is allowed.
    if type(v) == "table" and v.props ~= nil then
      local msg = props_error(v.props, ("prototype '%s': props"):format(key))
      if msg then return msg end
    end
    if has_function(v, {}) then
      return ("prototype '%s' holds a function: prototypes hold plain data"):format(key)
    end
  end
end
data:add_type{ _id = "grid_map", check = check_grid_map, fields = { z = { type = { "string", "integer" }, required = true },
  map = { type = "string", required = true },
  legend = T, prototypes = { type = "table", functions = true },
  options = { type = "table", fields = { map_visual_range = I, map_mode = S,
    map_character_symbol = S, map_target_path_style = S, map_separator_char = S,
    map_fill_all = B, map_align = S, map_display = B } } } }
data:add_type{ _id = "legend", fields = { symbol = S, kind = { type = "string", required = true },
  display = S, weight = N, weights = T, directions = T, aliases = T,
  interrupt = B, average = B, target = T, spawn_aliases = T, prototype = S },
  check = function(e) return kind_error(e.kind) end }
-- props: set on each room / exit the prototype decides (docs/grid.md).
data:add_type{ _id = "prototype", open = true, fields = { kind = S, parent = S, key = S, desc = S,
  props = { type = "table", functions = true } },
  check = function(e) return e.props ~= nil and props_error(e.props, "field 'props'") or nil end }
-- The base prototypes of grid rooms and exits (Evennia's xyz_room, xyz_exit).
data:add{ _type = "base.prototype", _id = "xyz_room", kind = "room", key = "An empty room", desc = "" }
data:add{ _type = "base.prototype", _id = "xyz_exit", kind = "exit", desc = "" }
-- Checked when added: a size a tile map can have, and the source, parsed (its
-- errors say source:line:column); it is parsed again when the layout first runs.
data:add_type{ _id = "layout", fields = { size = POINT, generator = { type = "any", functions = true }, source = S },
  check = function(e)
    local max, cells = strata.tilemap.max_side, strata.tilemap.max_cells
    local w, h = e.size and (e.size.x or e.size[1]), e.size and (e.size.y or e.size[2])
    if e.size ~= nil and not (w and h and w >= 1 and h >= 1 and w <= max and h <= max and w * h <= cells) then
      return ("size must be two integers from 1 to %d (at most %d cells), got (%s, %s)")
        :format(max, cells, tostring(w), tostring(h))
    end
    if e.source == nil then return nil end
    local ok, err = pcall(strata.layout.parse, e.source, "source")
    if not ok then return (tostring(err):gsub("^strata%.layout%.parse: ", "")) end
  end }
data:add_type{ _id = "layout_mapping", fields = { inherit = { ref = "base.layout_mapping" },
  append = B, tokens = T } }
-- A tile token's meaning: `name` is the token maps hold (default: the part of
-- the ID after the dot); a later mod's entry for the same name overrides.
-- `transparent` (default: passable's value) says whether sight passes (map:fov).
data:add_type{ _id = "token", fields = { name = S, passable = B, transparent = B, cost = N, glyph = S, color = S } }
data:add_type{ _id = "glyphs", fields = { glyphs = T } }
-- `glyph` and `color`: how `strata play` draws its actors (default: the first
-- letter of its name).
data:add_type{ _id = "actor_archetype", fields = { state = T, events = EV, glyph = S, color = S } }

-- Events the runtime itself emits.
for _, id in ipairs{ "map_entered", "map_left", "before_travel", "floor_generated",
                     "object_created", "object_deleted", "handler_failed", "before_move", "moved",
                     "branch_message", "turn_started" } do
  data:add{ _type = "base.event", _id = id }
end

-- The area world:create_entrance makes around a map of no area (strata/area.h,
-- STRATA_AREA_ONE_MAP): declared so that saves holding one name a known ID.
data:add{ _type = "base.area_archetype", _id = "one_map", starting_floor = 1, deepest_floor = 1 }

-- The common tokens, so that a world's walls block and its maps draw without
-- any mod: a mod redefines one by adding a base.token entry with that name.
-- Walls, rock and trees block sight (transparent follows passable); water
-- and lava do not. A door lets sight through: a game with closed doors gives
-- them a token of their own, or its door entry transparent = false
-- (docs/tile-maps.md, "Field of view").
data:add{ _type = "base.token", _id = "floor", glyph = "." }
data:add{ _type = "base.token", _id = "wall", passable = false, glyph = "#" }
data:add{ _type = "base.token", _id = "rock", passable = false, glyph = "#", color = "gray" }
data:add{ _type = "base.token", _id = "door", glyph = "+", color = "brown" }
data:add{ _type = "base.token", _id = "water", cost = 3, glyph = "~", color = "blue" }
data:add{ _type = "base.token", _id = "deep_water", passable = false, transparent = true, glyph = "~", color = "blue" }
data:add{ _type = "base.token", _id = "lava", passable = false, transparent = true, glyph = "~", color = "red" }
data:add{ _type = "base.token", _id = "grass", glyph = ",", color = "green" }
data:add{ _type = "base.token", _id = "tree", passable = false, glyph = "T", color = "green" }
data:add{ _type = "base.token", _id = "mud", cost = 2, glyph = "%", color = "brown" }
data:add{ _type = "base.token", _id = "stairs_down", glyph = ">" }
data:add{ _type = "base.token", _id = "stairs_up", glyph = "<" }

-- While the player is on a map with `renew`, this timer applies restock and renew as they fall due.
data:add{ _type = "base.handler", _id = "map_renew", run = function(world, _, args) world:_renew_timer(args.map) end }
-- The core's own timers (core/include/strata/move.h), declared so that saves
-- holding them name known IDs; the core runs them itself, never these:
-- a stored walk's next step (world:walk); dungeon branches collapsing when
-- idle for max_idle, and unbinding a start exit (start_exit_reset).
local function run_by_the_core() end
data:add{ _type = "base.handler", _id = "walk_step", run = run_by_the_core }
data:add{ _type = "base.handler", _id = "branch_idle", run = run_by_the_core }
data:add{ _type = "base.handler", _id = "branch_reset", run = run_by_the_core }
-- an object's next turn (core/include/strata/turns.h)
data:add{ _type = "base.handler", _id = "turn", run = run_by_the_core }
