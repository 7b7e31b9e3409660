-- strata.worldgen: random multi-floor worlds (docs/worldgen.md).
-- Generating, checking, the template file and the drawing are the C core's
-- (core/src/worldgen.c, bound in bindings/lua/worldgen.c); this file gives
-- them their public names and turns templates into maps and areas of a
-- world, through the world's public API only (create_map, fill,
-- create_stairs, create_area, add_floor).
local core = require "strata.core"
local options = require "strata.options"
local boundary = require "strata.boundary"

local M = {}

-- fn under its public name: an error names the function and points at the
-- line that called it, never at a file inside strata.
local public = boundary.wrap

-- ---- the core's functions ------------------------------------------------------------

-- The options of generate, floor and options as the core reads them. For a
-- mod (mod = true) they are copied raw (no metatable can hand the core a key
-- the check did not see) and conf is refused: it names a file, and a mod
-- reads only its own, through mod:read (whose text conf_text takes).
local function gen_opts(name, opts, mod)
  opts = options.check(name, opts, 3)
  if not mod then return opts or {} end
  local plain = {}
  for k, v in next, opts or {} do plain[k] = v end
  if plain.conf ~= nil then
    error("conf is not available to mods: it names a file (give the options themselves)", 0)
  end
  return plain
end

local function generate(name, mod)
  return public(name, function(opts) return core.worldgen.generate(gen_opts(name, opts, mod)) end)
end

local function floor(name, mod)
  return public(name, function(opts, z)
    opts = gen_opts(name, opts, mod)
    if math.type(z) ~= "integer" then error("the floor must be an integer, got " .. tostring(z), 0) end
    return core.worldgen.floor(opts, z)
  end)
end

M.generate = generate("strata.worldgen.generate")
M.floor = floor("strata.worldgen.floor")
-- What a mod's strata.worldgen has in their place (strata.mods; internal).
M._for_mods = { generate = generate("strata.worldgen.generate", true), floor = floor("strata.worldgen.floor", true) }

M.options = public("strata.worldgen.options", function(opts)
  return core.worldgen.options(gen_opts("strata.worldgen.options", opts))
end)

local function template_arg(t)
  if type(t) ~= "table" then
    error("expected a template (from strata.worldgen.generate, read or parse), got " .. type(t), 0)
  end
  return t
end

local function path_arg(path)
  if type(path) ~= "string" then error("expected a file path, got " .. type(path), 0) end
  return path
end

M.render = public("strata.worldgen.render", function(t, opts)
  opts = options.check("strata.worldgen.render", opts, 2)
  return core.worldgen.render(template_arg(t), opts)
end)
M.write = public("strata.worldgen.write", function(t, path)
  core.worldgen.write(template_arg(t), path_arg(path))
end)
M.read = public("strata.worldgen.read", function(path) return core.worldgen.read(path_arg(path)) end)
M.format = public("strata.worldgen.format", function(t) return core.worldgen.format(template_arg(t)) end)
M.parse = public("strata.worldgen.parse", function(text, name)
  if type(text) ~= "string" then error("expected the text of a template, got " .. type(text), 0) end
  return core.worldgen.parse(text, name)
end)
M.validate = public("strata.worldgen.validate", function(t) return core.worldgen.validate(template_arg(t)) end)

-- ---- templates as maps and areas ------------------------------------------------------

local TILES = { "wall", "hallway", "room", "start", "exit", "ascent", "descent" }

-- What each tile becomes on a world map: tokens of the base mod ("wall" blocks,
-- "floor" is walked on, the stairs are drawn < and >).
M.default_tokens = { wall = "wall", hallway = "floor", room = "floor", start = "stairs_up",
  exit = "floor", ascent = "stairs_up", descent = "stairs_down" }

local function token_table(given, fn)
  local out = {}
  for k, v in pairs(M.default_tokens) do out[k] = v end
  if given == nil then return out end
  if type(given) ~= "table" then error("option 'tokens' must be a table { tile = token }, got " .. type(given), 0) end
  for k, v in pairs(given) do
    if M.default_tokens[k] == nil then
      error(("option 'tokens': '%s' is not a tile%s"):format(tostring(k), options.suggest(tostring(k), TILES)), 0)
    end
    if type(v) ~= "string" or v == "" then
      error(("option 'tokens': tokens.%s must be a token name, got %s"):format(k, tostring(v)), 0)
    end
    out[k] = v
  end
  return out
end

-- The host world behind a world or a mod's view of one (strata.private), or nil.
local function host_world(w)
  local host = require("strata.private").world_of(w)
  if host and (host == w or require("strata.private").host[w] == host) then return host end
  return nil
end

-- Paints floor f (a floor table of a template) onto a new map of world and
-- places its stairs: up at the ascent, and at floor 1's start (the way back
-- out of an area, and where an entrance arrives), down at the descent.
local function paint(world, f, tokens)
  local rows = f.tiles
  local h, w = #rows, #rows[1]
  local map = world:create_map{ width = w, height = h, fill = tokens.wall }
  for y = 1, h do
    local row, x = rows[y], 1
    while x <= w do
      local name, e = row[x], x
      while e < w and row[e + 1] == name do e = e + 1 end
      if name ~= "wall" then map:fill(x - 1, y - 1, e - x + 1, 1, tokens[name]) end
      x = e + 1
    end
  end
  local props = {}
  local function mark(key, p, delta)
    if not p then return end
    local x, y = (p.x or p[1]) - 1, (p.y or p[2]) - 1
    props[key] = { x = x, y = y }
    if delta then world:create_stairs(map, x, y, { floor_delta = delta }) end
  end
  mark("start", f.start, -1)
  mark("ascent", f.ascent, -1)
  mark("descent", f.descent, 1)
  mark("exit", f.exit)
  map.props.worldgen = props
  return map
end

-- The floor table given, checked through a one-floor template of its own.
local function check_floor(f)
  if type(f) ~= "table" or type(f.tiles) ~= "table" or type(f.tiles[1]) ~= "table" then
    error("expected a floor of a template (t.floors[z] or strata.worldgen.floor(...)), got " .. tostring(f), 0)
  end
  -- A lone floor is no template (it may hold an ascent and a descent without
  -- the floors around them), so its tiles and points are checked here.
  local w, h = #f.tiles[1], #f.tiles
  for y = 1, h do
    local row = f.tiles[y]
    if type(row) ~= "table" or #row ~= w then error(("floor tiles[%d] must be a row of %d tiles"):format(y, w), 0) end
    for x = 1, w do
      if M.default_tokens[row[x]] == nil then
        error(("floor tiles[%d][%d]: %s is not a tile"):format(y, x, tostring(row[x])), 0)
      end
    end
  end
  for _, key in ipairs{ "start", "ascent", "descent", "exit" } do
    local p = f[key]
    if p ~= nil then
      local x, y = type(p) == "table" and (p.x or p[1]), type(p) == "table" and (p.y or p[2])
      if math.type(x) ~= "integer" or math.type(y) ~= "integer" or x < 1 or x > w or y < 1 or y > h then
        error(("floor %s must be a point { x, y } inside the %dx%d floor"):format(key, w, h), 0)
      end
    end
  end
end

-- to_map(world, floor, { tokens = }) -> map: one floor as a map of world,
-- with its stairs (for a floor generator, which attaches nothing itself).
M.to_map = public("strata.worldgen.to_map", function(world, f, opts)
  opts = options.check("strata.worldgen.to_map", opts, 2)
  world = host_world(world) or error("expected a world, got " .. tostring(world), 0)
  local tokens = token_table(opts and opts.tokens)
  check_floor(f)
  return paint(world, f, tokens)
end)

-- to_area(world, t, { area = ID, parent =, tokens = }) -> area: every floor
-- of t as a map of a new area (floors 1 .. z), stairs at the ascents and
-- descents, so that world:travel goes down the world the template describes.
M.to_area = public("strata.worldgen.to_area", function(world, t, opts)
  opts = options.check("strata.worldgen.to_area", opts, 2)
  world = host_world(world) or error("expected a world, got " .. tostring(world), 0)
  opts = opts or {}
  if type(opts.area) ~= "string" then
    error("option 'area' must name a base.area_archetype (\"mod.name\"), got " .. tostring(opts.area), 0)
  end
  local tokens = token_table(opts.tokens)
  -- The template is checked whole before anything is made.
  core.worldgen.validate(template_arg(t))
  local z = t.dims.z or t.dims[3]
  local area = world:create_area(opts.area, { parent = opts.parent, starting_floor = 1, deepest_floor = z })
  area.meta.worldgen = { seed = t.seed, dims = { x = t.dims.x or t.dims[1], y = t.dims.y or t.dims[2], z = z } }
  for n = 1, z do
    area:add_floor(paint(world, t.floors[n], tokens), n)
  end
  return area
end)

return M
