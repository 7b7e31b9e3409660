-- strata.options: the one rule for options tables. Every public function that
-- takes an options table lists its keys here, once; an unknown key is an
-- error naming it and the nearest known keys. The spec that feeds each of
-- these a misspelt key is generated from this same list, so a new options
-- table cannot be left unchecked (spec/strict_options_spec.lua).
local boundary = require "strata.boundary"
local core = require "strata.core"
local private = require "strata.private"

local M = {}

-- What check returns for nil options: one table for every call (a hot path,
-- world:travel with no options, then allocates nothing), which no caller may
-- fill: writing to it is an error.
local none = setmetatable({}, private.protect({
  __newindex = function(_, k) error("strata.options: the empty options are read-only (" .. tostring(k) .. ")", 2) end,
}, "strata.options"))

-- The (up to 3) names of `known` nearest to `name`, ranked by the core's one
-- rule (strata_nearest: edit distance, a dotted ID also by its part after the
-- dot, so "crypt.gobiln" finds "crypt.goblin"; ties by name). known is copied
-- first: it may be a read-only view, which the core reads raw.
function M.nearest(name, known)
  local list = {}
  for i, k in ipairs(known) do list[i] = k end
  return core.nearest(tostring(name), list)
end

-- The edit distance of two strings (strata_edit_distance).
function M.distance(a, b) return core.edit_distance(a, b) end

-- A value of a user's quoted in an error, at most 40 bytes of it, its control
-- characters written as \ddd: an error stays one line a terminal shows as is.
function M.quoted(v)
  if type(v) ~= "string" then return tostring(v) end
  v = #v > 40 and v:sub(1, 40) .. "..." or v
  return "'" .. v:gsub("%c", function(c) return "\\" .. c:byte() end) .. "'"
end

-- " (nearest known: a, b, c)", or "" when nothing is known.
function M.suggest(name, known)
  local near = M.nearest(name, known)
  if #near == 0 then return "" end
  return " (nearest known: " .. table.concat(near, ", ") .. ")"
end

-- Every options table of the Lua API, by the name its errors use. The C
-- bindings check theirs in C (lstrata_check_options); they are listed here
-- too, so that the spec covers them from the same list.
M.known = {
  ["strata.world.new"] = { "seed", "mods", "mod_path" },
  ["strata.world.open"] = { "mods", "mod_path" },
  ["strata.world.from_json"] = { "mods", "mod_path" },
  ["strata.reload"] = { "world" },
  ["world:create_map"] = { "width", "height", "fill", "archetype", "tokens" },
  ["world:create_actor"] = { "archetype", "map", "x", "y", "props", "tags", "player", "room" },
  ["world:objects"] = { "kind" },
  ["world:create_room"] = { "name", "desc", "props" },
  ["world.grid:spawn"] = { "x", "y", "z" },
  ["world.grid:rooms"] = { "x", "y", "z", "name" },
  ["world.grid:exits"] = { "from", "to", "name" },
  ["world.grid:view"] = { "dist", "mode", "character", "target", "target_path_style", "max_size", "builder" },
  ["room:appearance"] = { "width", "builder", "target", "map_display", "map_visual_range", "map_mode",
    "map_character_symbol", "map_align", "map_target_path_style", "map_fill_all", "map_separator_char" },
  ["room:display_name"] = { "builder" },
  ["world:create_exit"] = { "name", "desc", "aliases" },
  ["world:create_object"] = { "kind", "archetype", "map", "x", "y", "props", "tags" },
  ["world:schedule"] = { "after", "every", "handler", "args" },
  ["world:run_realtime"] = { "scale", "tick", "until_time", "on_error", "on_stop", "on_advance", "loop", "clock" },
  ["world:travel"] = { "x", "y" },
  ["world:walk"] = { "step_every" },
  ["world:add_turns"] = { "speed", "delay" },
  ["world:create_area"] = { "parent", "params", "generator", "starting_floor", "deepest_floor", "at", "floor" },
  ["world:create_entrance"] = { "floor" },
  ["world:create_stairs"] = { "floor_delta" },
  ["world:areas"] = { "archetype", "type", "parent" },
  ["area:delete"] = { "children" },
  ["object:subscribe"] = { "priority" },
  ["events:register"] = { "priority" },
  ["strata.layout.run"] = { "rng", "seed", "world" },
  ["strata.layout.generate"] = { "rng", "seed", "attempts", "fill", "world" },
  ["strata.layout.mapping"] = { "world" },
  ["strata.layout.preview"] = { "color" },
  ["strata.layout.apply"] = { "world" },
  ["strata.xymap.parse"] = { "legend", "z", "world" },
  ["strata.markup.render"] = { "color" },
  ["strata.worldgen.generate"] = { "dims", "rand", "conf", "conf_text", "seed", "room_variance", "path_alg",
    "post_check", "log" },
  ["strata.worldgen.floor"] = { "dims", "rand", "conf", "conf_text", "seed", "room_variance", "path_alg",
    "post_check", "log" },
  ["strata.worldgen.options"] = { "dims", "rand", "conf", "conf_text", "seed", "room_variance", "path_alg",
    "post_check", "log" },
  ["strata.worldgen.render"] = { "color" },
  ["strata.worldgen.to_map"] = { "tokens" },
  ["strata.worldgen.to_area"] = { "area", "parent", "tokens" },
  ["strata.serve.open"] = { "scopes", "label", "ttl", "wait", "mods", "mod_path" },
  ["strata.tiled.import"] = { "world", "mapping", "layer", "objects" },
  ["map:to_tiled"] = { "tile_size", "objects" },
  -- checked in C
  ["strata.tilemap.new"] = { "width", "height", "fill", "tokens" },
  ["strata.noise.heights"] = { "rng", "seed", "variance" },
  ["strata.lease.open"] = { "holder", "ttl" },
  ["map:fill"] = { "push" },
  ["map:find_path"] = { "algorithm", "connectivity", "diagonal_cost", "threads", "cost", "cost_min", "occupied" },
  ["map:distance_map"] = { "connectivity", "diagonal_cost", "max_cost" },
  ["map:fov"] = { "radius", "algorithm", "light_walls", "into" },
  ["map:render"] = { "path", "path_glyph", "glyphs" },
  ["tokens:define"] = { "passable", "transparent", "cost", "glyph", "color" },
  ["map:to_svg"] = { "cell", "path" },
  ["map:to_png"] = { "cell", "path" },
  ["xy:to_svg"] = { "cell", "from", "to" },
  ["world:save"] = { "overwrite" },
  ["xy:visual_range"] = { "dist", "mode", "character", "target", "target_path_style", "max_size", "builder" },
  ["xy:display"] = { "builder" },
  ["strata.xymap.parse legend entry"] = { "kind", "display", "weight", "weights", "directions",
    "aliases", "interrupt", "average", "target", "spawn_aliases", "prototype" },
}

local sets = {}
for name, keys in pairs(M.known) do
  local set = {}
  for _, k in ipairs(keys) do set[k] = true end
  sets[name] = set
end

-- Raises "<fn>: unknown option 'k' (nearest known: ...)" at `level` (see
-- M.check) unless every key of opts is known for fn; copies opts' entries
-- into copy when given. Reads raw: a caller's __pairs or __index never runs.
local function scan(fn, opts, level, copy)
  if type(opts) ~= "table" then
    error(("%s: options must be a table, got %s"):format(fn, type(opts)), boundary.level(level + 1))
  end
  local set = sets[fn] or error("strata.options: no options list for " .. fn)
  for k, v in next, opts do
    if not set[k] then
      error(("%s: unknown option '%s'%s"):format(fn, tostring(k), M.suggest(tostring(k), M.known[fn])),
        boundary.level(level + 1))
    end
    if copy then copy[k] = v end
  end
  return copy
end

-- Raises "<fn>: unknown option 'k' (nearest known: ...)" at `level` (default:
-- the caller of the function that called check; none when that is strata's
-- own code, strata.boundary) unless every key of opts is known for fn. nil
-- opts are accepted; anything else but a table is an error. Returns a plain
-- copy of opts read raw (the border rule: what a caller hands in is data),
-- which the caller reads instead of opts.
function M.check(fn, opts, level)
  if opts == nil then return none end
  local copy = scan(fn, opts, (level or 2) + 1, {}) -- (not a tail call: scan's level counts this frame)
  return copy
end

-- M.check without the copy, for a hot path that reads opts' few keys raw
-- itself (world:travel): no table made a call.
function M.check_keys(fn, opts, level)
  if opts ~= nil then scan(fn, opts, (level or 2) + 1) end
end

return M
