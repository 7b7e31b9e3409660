-- strata.tiled: maps in Tiled's JSON map format (docs/tile-maps.md, "Tiled").
-- import reads a map Tiled wrote (its tile layers stacked into tokens through a
-- mapping, its object layers as objects) and to_tiled writes a map as Tiled
-- reads it. The text is read by strata.json (the core's reader), the map made
-- through the public map API: this file only checks the file's shape and
-- translates, and a file it refuses has made nothing (one line naming the JSON
-- path, "$.layers[0].data[17]", indices from 0 as in the file).
local strata = require "strata"
local options = require "strata.options"
local boundary = require "strata.boundary"
local private = require "strata.private"
local handle = require "strata.handle"

local M = {}

local GID_MAX = 0xFFFFFFFF
-- Tiled keeps a tile's flips (horizontal, vertical, diagonal, a hexagon's
-- 120° turn) in a gid's top four bits: a cell of strata has no orientation,
-- so they are masked off and the tile is the rest.
local GID_TILE = 0x0FFFFFFF

-- ---- checking the file's shape ---------------------------------------------------------

local function fail(path, fmt, ...) error(path .. ": " .. fmt:format(...), 0) end

local function json() return strata.json end

-- A decoded value as errors show it.
local function shown(v)
  if v == json().null then return "null" end
  if type(v) == "string" then return options.quoted(v) end
  if type(v) == "table" then return rawlen(v) > 0 and "an array" or "an object" end
  return tostring(v)
end

-- A decoded JSON array (a table of keys 1..n only), [] included.
local function is_array(v)
  if type(v) ~= "table" then return false end
  local n, count = rawlen(v), 0
  for _ in next, v do count = count + 1 end
  return count == n
end

local function array(v, path)
  if not is_array(v) then fail(path, "expected an array, got %s", shown(v)) end
  return v
end

local function object(v, path)
  if type(v) ~= "table" or (rawlen(v) > 0 and is_array(v)) then fail(path, "expected an object, got %s", shown(v)) end
  return v
end

local function int(v, path, lo, hi)
  if math.type(v) ~= "integer" or v < lo or v > hi then
    fail(path, "expected an integer from %d to %d, got %s", lo, hi, shown(v))
  end
  return v
end

local function number(v, path)
  if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
    fail(path, "expected a number, got %s", shown(v))
  end
  return v
end

local function str(v, path)
  if type(v) ~= "string" then fail(path, "expected a string, got %s", shown(v)) end
  return v
end

-- An optional string field (absent: default).
local function opt_str(t, key, path, default)
  if t[key] == nil then return default end
  return str(t[key], path .. "." .. key)
end

-- A tile's or object's class: "class" (Tiled 1.9 on), else "type" (before).
local function class_of(t, path)
  local c = opt_str(t, "class", path, "")
  if c == "" then c = opt_str(t, "type", path, "") end
  return c
end

-- A class property's value as plain data (JSON null refused).
local function plain(v, path)
  if v == json().null then fail(path, "null is not a property value") end
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in next, v do out[k] = plain(x, path .. (math.type(k) and ("[%d]"):format(k - 1) or "." .. k)) end
  return out
end

-- What each property type holds: a check of the value and how errors name it.
local PROPERTY = {
  string = { "a string", function(v) return type(v) == "string" end },
  color = { "a string", function(v) return type(v) == "string" end },
  file = { "a string", function(v) return type(v) == "string" end },
  int = { "an integer", function(v) return math.type(v) == "integer" end },
  object = { "an integer", function(v) return math.type(v) == "integer" end },
  float = { "a number", function(v) return type(v) == "number" end },
  bool = { "a boolean", function(v) return type(v) == "boolean" end },
  class = { "an object", function(v) return type(v) == "table" and not (rawlen(v) > 0 and is_array(v)) end },
}
local PROPERTY_TYPES = { "string", "int", "float", "bool", "color", "file", "object", "class" }

-- Tiled's list of properties, [{ name =, type =, value = }], as { name = value };
-- `reserved` is a name the caller gives the table itself (an object's name).
local function properties(list, path, reserved)
  local out = {}
  if list == nil then return out end
  for i, p in ipairs(array(list, path)) do
    local pp = ("%s[%d]"):format(path, i - 1)
    object(p, pp)
    local name = str(p.name, pp .. ".name")
    if out[name] ~= nil then fail(pp .. ".name", "'%s' twice", name) end
    if name == reserved then fail(pp .. ".name", "a property '%s' beside the object's %s", name, name) end
    local ty = opt_str(p, "type", pp, "string")
    local kind = PROPERTY[ty]
    if not kind then
      fail(pp .. ".type", "'%s' is not a property type (known: %s)", ty, table.concat(PROPERTY_TYPES, ", "))
    end
    if not kind[2](p.value) then fail(pp .. ".value", "expected %s (type %s), got %s", kind[1], ty, shown(p.value)) end
    out[name] = plain(p.value, pp .. ".value")
  end
  return out
end

-- ---- the tilesets and the mapping --------------------------------------------------------

-- The tilesets by firstgid: { first =, count = (nil: an external tileset's,
-- unknown), tiles = { [id] = { class =, token = } } }.
local function tilesets(list, max_side)
  local out = {}
  for i, ts in ipairs(array(list or {}, "$.tilesets")) do
    local p = ("$.tilesets[%d]"):format(i - 1)
    object(ts, p)
    local set = { first = int(ts.firstgid, p .. ".firstgid", 1, GID_TILE), tiles = {}, path = p }
    if ts.source ~= nil then
      str(ts.source, p .. ".source") -- (its tiles are in another file: gids map through `mapping` only)
    else
      set.count = int(ts.tilecount, p .. ".tilecount", 0, GID_TILE)
      for j, tile in ipairs(array(ts.tiles or {}, p .. ".tiles")) do
        local tp = ("%s.tiles[%d]"):format(p, j - 1)
        object(tile, tp)
        local id = int(tile.id, tp .. ".id", 0, math.max(set.count - 1, 0))
        local props = properties(tile.properties, tp .. ".properties")
        local token = props.strata_token
        if token ~= nil and (type(token) ~= "string" or token == "") then
          fail(tp .. ".properties", "strata_token must be a token name, got %s", shown(token))
        end
        set.tiles[id] = { class = class_of(tile, tp), token = token }
      end
    end
    out[#out + 1] = set
  end
  table.sort(out, function(a, b) return a.first < b.first end)
  for i = 2, #out do
    local prev = out[i - 1]
    if prev.first == out[i].first or (prev.count and prev.first + prev.count > out[i].first) then
      fail(out[i].path .. ".firstgid", "%d is inside %s's gids", out[i].first, prev.path)
    end
  end
  return out
end

-- gid -> token name: mapping[gid], mapping[the tile's class], the tile's
-- strata_token property, its class; raises for a gid in no tileset, one none
-- of these names, or a name the core would refuse (asked of a scratch token
-- table, once a name: its rule, not a copy of it). Answers are kept per gid.
local function resolver(sets, mapping)
  local known, scratch = {}, strata.tokens.new()
  return function(gid, path)
    local t = known[gid]
    if t then return t end
    local set
    for _, s in ipairs(sets) do if s.first <= gid then set = s end end
    if not set or (set.count and gid >= set.first + set.count) then fail(path, "gid %d is in no tileset", gid) end
    local tile = set.tiles[gid - set.first]
    t = mapping[gid] or (tile and tile.class ~= "" and mapping[tile.class]) or (tile and tile.token)
      or (tile and tile.class ~= "" and tile.class)
    if not t then
      fail(path, "gid %d has no token (give it one: mapping = { [%d] = name }, a class or a strata_token property)", gid, gid)
    end
    local ok, why = pcall(scratch.define, scratch, t, {})
    if not ok then fail(path, "gid %d: %s", gid, (tostring(why):gsub("^.-tokens:define: ", ""))) end
    known[gid] = t
    return t
  end
end

local function check_mapping(m)
  if m == nil then return {} end
  if type(m) ~= "table" then error("option 'mapping' must be a table { [gid or class] = token }, got " .. type(m), 0) end
  local out = {}
  for k, v in next, m do
    if not ((math.type(k) == "integer" and k >= 1 and k <= GID_TILE) or (type(k) == "string" and k ~= "")) then
      error(("option 'mapping': [%s] is neither a gid (1 to %d) nor a class"):format(tostring(k), GID_TILE), 0)
    end
    if type(v) ~= "string" or v == "" then
      error(("option 'mapping': [%s] must be a token name, got %s"):format(tostring(k), shown(v)), 0)
    end
    out[k] = v
  end
  return out
end

-- ---- the layers ------------------------------------------------------------------------

local B64 = {}
do
  local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  for i = 1, 64 do B64[alphabet:byte(i)] = i - 1 end
end

-- Base64 text (white space around it allowed, as Tiled's TMX writes) as bytes.
local function base64(s, path)
  s = s:match("^%s*(.-)%s*$")
  local pad = s:match("=*$")
  local body = s:sub(1, #s - #pad)
  if #pad > 2 or (#body + #pad) % 4 ~= 0 then fail(path, "not base64 (its length)") end
  local out, n = {}, 0
  for i = 1, #body, 4 do
    local v, k = 0, 0
    for j = i, math.min(i + 3, #body) do
      local d = B64[body:byte(j)]
      if not d then fail(path, "not base64 (%s at byte %d)", options.quoted(body:sub(j, j)), j - 1) end
      v, k = v << 6 | d, k + 1
    end
    v = v << (6 * (4 - k))
    n = n + 1
    out[n] = string.char(v >> 16 & 255, v >> 8 & 255, v & 255):sub(1, k - 1)
  end
  return table.concat(out)
end

-- A tile layer's gids (flip bits masked off; 0 an empty cell) as an array of w*h.
local function layer_gids(layer, p, w, h)
  if layer.chunks ~= nil then fail(p .. ".chunks", "chunks (an infinite map's) are not supported") end
  if int(layer.width, p .. ".width", 1, GID_MAX) ~= w then fail(p .. ".width", "%d for a map %d wide", layer.width, w) end
  if int(layer.height, p .. ".height", 1, GID_MAX) ~= h then fail(p .. ".height", "%d for a map %d high", layer.height, h) end
  local compression = opt_str(layer, "compression", p, "")
  if compression ~= "" then
    fail(p .. ".compression", "%s-compressed tile data is not supported (save the map with the tile layer format CSV"
      .. " or Base64 (uncompressed))", compression)
  end
  local encoding = opt_str(layer, "encoding", p, "csv")
  local gids = {}
  if encoding == "csv" then
    local data = array(layer.data, p .. ".data")
    if #data ~= w * h then fail(p .. ".data", "%d gids for a %dx%d layer", #data, w, h) end
    for i = 1, #data do
      local v = data[i]
      if math.type(v) ~= "integer" or v < 0 or v > GID_MAX then
        fail(("%s.data[%d]"):format(p, i - 1), "expected a gid (an integer from 0 to %d), got %s", GID_MAX, shown(v))
      end
      gids[i] = v & GID_TILE
    end
  elseif encoding == "base64" then
    local raw = base64(str(layer.data, p .. ".data"), p .. ".data")
    if #raw ~= 4 * w * h then fail(p .. ".data", "%s gids for a %dx%d layer", #raw % 4 == 0 and #raw // 4 or #raw / 4, w, h) end
    for i = 1, w * h do gids[i] = string.unpack("<I4", raw, 4 * i - 3) & GID_TILE end
  else
    fail(p .. ".encoding", "'%s' is not an encoding (csv or base64)", encoding)
  end
  return gids
end

-- The layers, groups opened, in order: { tiles = { {layer, path} }, objects = { {layer, path} } }.
local function walk_layers(list, path, out)
  for i, layer in ipairs(array(list, path)) do
    local p = ("%s[%d]"):format(path, i - 1)
    object(layer, p)
    local ty = str(layer.type, p .. ".type")
    if ty == "tilelayer" then out.tiles[#out.tiles + 1] = { layer, p }
    elseif ty == "objectgroup" then out.objects[#out.objects + 1] = { layer, p }
    elseif ty == "group" then walk_layers(layer.layers or {}, p .. ".layers", out)
    elseif ty ~= "imagelayer" then -- (an image layer is a picture: nothing of it is a cell or an object)
      fail(p .. ".type", "%s is not a layer type (known: tilelayer, objectgroup, group, imagelayer)", options.quoted(ty))
    end
  end
  return out
end

-- An object of an object layer as { kind =, x =, y =, props = } (its cell: the
-- one holding its top-left corner; a tile object's, whose y is its bottom, too).
local function read_object(o, p, map)
  object(o, p)
  if o.template ~= nil then
    fail(p .. ".template", "an object of a template file is not supported (detach it from the template in Tiled)")
  end
  local x, y = number(o.x, p .. ".x"), number(o.y, p .. ".y")
  if o.gid ~= nil then
    int(o.gid, p .. ".gid", 0, GID_MAX)
    y = y - (o.height == nil and map.th or number(o.height, p .. ".height"))
  end
  local cx, cy = math.floor(x / map.tw), math.floor(y / map.th)
  if cx < 0 or cy < 0 or cx >= map.w or cy >= map.h then
    fail(p, "cell (%g, %g) is outside the %dx%d map", cx, cy, map.w, map.h) -- (%g: x may be 1e300)
  end
  local name = opt_str(o, "name", p, "")
  local props = properties(o.properties, p .. ".properties", name ~= "" and "name" or nil)
  if name ~= "" then props.name = name end
  local kind = class_of(o, p)
  return { kind = kind ~= "" and kind or "object", x = math.tointeger(cx), y = math.tointeger(cy), props = props }
end

-- The whole file checked and read into a plan: nothing is made until it is.
local function read_map(t, mapping, opts)
  if type(t) ~= "table" or (next(t) ~= nil and is_array(t)) then fail("$", "expected a Tiled map (a JSON object), got %s", shown(t)) end
  if t.type ~= nil and t.type ~= "map" then fail("$.type", "%s, not 'map'", shown(t.type)) end
  local orientation = opt_str(t, "orientation", "$", "orthogonal")
  if orientation ~= "orthogonal" then fail("$.orientation", "%s maps are not supported (only orthogonal)", options.quoted(orientation)) end
  if t.infinite ~= nil and t.infinite ~= false then fail("$.infinite", "infinite maps are not supported (Tiled: Map Properties > Infinite off)") end
  local side = strata.tilemap.max_side
  local map = { w = int(t.width, "$.width", 1, side), h = int(t.height, "$.height", 1, side) }
  if map.w * map.h > strata.tilemap.max_cells then
    fail("$.height", "a %dx%d map is more than the %d cells a tile map may have", map.w, map.h, strata.tilemap.max_cells)
  end
  map.tw, map.th = int(t.tilewidth, "$.tilewidth", 1, GID_MAX), int(t.tileheight, "$.tileheight", 1, GID_MAX)
  local layers = walk_layers(t.layers or {}, "$.layers", { tiles = {}, objects = {} })
  local token = resolver(tilesets(t.tilesets), mapping)
  map.layers = {}
  local names = {}
  for _, l in ipairs(layers.tiles) do
    local name = opt_str(l[1], "name", l[2], "")
    names[#names + 1] = name
    if opts.layer == nil or opts.layer == name then
      local gids = layer_gids(l[1], l[2], map.w, map.h)
      for i, gid in ipairs(gids) do
        if gid ~= 0 then
          local c = i - 1
          gids[i] = token(gid, ("%s.data[%d] (cell (%d, %d))"):format(l[2], c, c % map.w, c // map.w))
        else
          gids[i] = false
        end
      end
      map.layers[#map.layers + 1] = gids
    end
  end
  if opts.layer ~= nil and #map.layers == 0 then
    error(("no tile layer '%s'%s"):format(opts.layer, options.suggest(opts.layer, names)), 0)
  end
  map.objects = {}
  if opts.objects ~= false then
    for _, l in ipairs(layers.objects) do
      for i, o in ipairs(array(l[1].objects or {}, l[2] .. ".objects")) do
        map.objects[#map.objects + 1] = read_object(o, ("%s.objects[%d]"):format(l[2], i - 1), map)
      end
    end
  end
  map.props = properties(t.properties, "$.properties")
  return map
end

-- Each layer's tokens pushed onto m's cells, in runs along the rows (one fill a run).
local function paint(m, plan)
  local w = plan.w
  for _, cells in ipairs(plan.layers) do
    for y = 0, plan.h - 1 do
      local x = 0
      while x < w do
        local t, e = cells[y * w + x + 1], x
        while e + 1 < w and cells[y * w + e + 2] == t do e = e + 1 end
        if t then m:fill(x, y, e - x + 1, 1, t, { push = true }) end
        x = e + 1
      end
    end
  end
end

-- The text of source: JSON text as it is (its first character past white
-- space is '{' or '['), anything else a path.
local function text_of(source)
  if type(source) ~= "string" then error("expected a Tiled map's JSON text or a path, got " .. type(source), 0) end
  if source:match("^%s*[{[]") then return source, "" end
  local text, why = require("strata.paths").read(source, "cannot read Tiled map")
  if not text then error(why, 0) end
  return text, source:match("[^/]*$") .. ": "
end

-- import(source, { world =, mapping =, layer =, objects = }) -> map, objects, props
M.import = boundary.wrap("strata.tiled.import", function(source, opts)
  opts = options.check("strata.tiled.import", opts, 2)
  local world = opts.world
  if world ~= nil and private.world_of(world) ~= world then
    error("option 'world' must be a world, got " .. tostring(world), 0)
  end
  if opts.layer ~= nil and type(opts.layer) ~= "string" then error("option 'layer' must be a layer's name", 0) end
  if opts.objects ~= nil and type(opts.objects) ~= "boolean" then error("option 'objects' must be a boolean", 0) end
  local mapping = check_mapping(opts.mapping)
  local text, name = text_of(source)
  local ok, plan = pcall(function() return read_map(json().decode(text), mapping, opts) end)
  if not ok then error(name .. tostring(plan):gsub("^strata%.json%.decode: ", ""), 0) end
  if world == nil then
    local m = strata.tilemap.new{ width = plan.w, height = plan.h }
    paint(m, plan)
    return m, plan.objects, plan.props
  end
  local done, m, objects = world:_atomic(function()
    local m = world:create_map{ width = plan.w, height = plan.h }
    paint(m, plan)
    for k, v in pairs(plan.props) do m.props[k] = v end
    local list = {}
    for i, o in ipairs(plan.objects) do
      list[i] = world:create_object{ kind = o.kind, map = m, x = o.x, y = o.y, props = o.props }
    end
    return m, list
  end)
  if not done then error(m, 0) end
  return m, objects, plan.props
end)

-- ---- export ------------------------------------------------------------------------------

-- A value of props as a Tiled property { name =, type =, value = }; `where`
-- names it in errors ("chest#4 props.gold").
local function property(name, v, where)
  local function check(x, at)
    if handle.is(x) then error(at .. ": a handle cannot be a Tiled property (to_tiled{ objects = false } leaves objects out)", 0) end
    if type(x) == "number" and (x ~= x or x == math.huge or x == -math.huge) then
      error(at .. ": " .. tostring(x) .. " cannot be written in JSON", 0)
    end
    if type(x) == "table" then for k, y in pairs(x) do check(y, at .. "." .. tostring(k)) end end
  end
  check(v, where)
  local ty = ({ boolean = "bool", string = "string", table = "class" })[type(v)]
    or (math.type(v) == "integer" and "int" or "float")
  return { name = name, type = ty, value = v, propertytype = ty == "class" and "" or nil }
end

-- props (a plain table) as Tiled's properties list, sorted by name; nil when empty.
local function property_list(props, label, skip)
  local names = {}
  for k in pairs(props) do
    if type(k) ~= "string" then error(("%s props[%s]: a Tiled property's name is a string"):format(label, tostring(k)), 0) end
    if k ~= skip then names[#names + 1] = k end
  end
  if #names == 0 then return nil end
  table.sort(names)
  local out = {}
  for i, k in ipairs(names) do out[i] = property(k, props[k], label .. " props." .. k) end
  return out
end

-- The tile layers of tm: one a depth of its cells' stacks (layer d holds each
-- cell's d-th token from the bottom), gids 1.. in the order tokens are met.
local function tile_layers(tm)
  local w, h = tm.width, tm.height
  local ids, names, layers = {}, {}, {}
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      for d, name in ipairs(tm:tokens(x, y)) do
        local id = ids[name]
        if not id then
          names[#names + 1] = name
          id = #names
          ids[name] = id
        end
        local data = layers[d]
        if not data then
          data = {}
          for i = 1, w * h do data[i] = 0 end
          layers[d] = data
        end
        data[y * w + x + 1] = id
      end
    end
  end
  if #layers == 0 then layers[1] = {} for i = 1, w * h do layers[1][i] = 0 end end
  return layers, names
end

-- to_tiled(tm, h, opts): tm the tile map, h the world map's handle (nil for a
-- standalone map: no objects, no properties).
function M._export(tm, h, opts)
  opts = options.check("map:to_tiled", opts, 3)
  local size = opts.tile_size == nil and 32 or opts.tile_size
  if math.type(size) ~= "integer" or size < 1 or size > 4096 then
    error("option 'tile_size' must be an integer from 1 to 4096, got " .. tostring(size), 0)
  end
  if opts.objects ~= nil and type(opts.objects) ~= "boolean" then error("option 'objects' must be a boolean", 0) end
  local w, h_ = tm.width, tm.height
  local data, names = tile_layers(tm)
  local layers = {}
  for d, cells in ipairs(data) do
    layers[d] = { id = d, name = d == 1 and "tokens" or "tokens " .. d, type = "tilelayer", width = w, height = h_,
      x = 0, y = 0, opacity = 1, visible = true, data = cells }
  end
  local tiles = {}
  for i, name in ipairs(names) do
    tiles[i] = { id = i - 1, type = name, properties = { { name = "strata_token", type = "string", value = name } } }
  end
  local root = { type = "map", version = "1.8", orientation = "orthogonal", renderorder = "right-down",
    width = w, height = h_, tilewidth = size, tileheight = size, infinite = false, compressionlevel = -1,
    layers = layers, tilesets = { { firstgid = 1, name = "strata tokens", tilewidth = size, tileheight = size,
      tilecount = #names, columns = math.max(#names, 1), margin = 0, spacing = 0, tiles = tiles[1] and tiles or nil } } }
  local objects = {}
  if h then
    local snapshot = require("strata.proxy").snapshot
    root.properties = property_list(snapshot(h.props), handle.label("map", h.uid))
    for _, o in ipairs(opts.objects ~= false and h:objects() or {}) do
      local props = snapshot(o.props)
      local name = type(props.name) == "string" and props.name or nil
      objects[#objects + 1] = { id = #objects + 1, name = name or "", type = o.kind, x = o.x * size, y = o.y * size,
        width = size, height = size, rotation = 0, visible = true,
        properties = property_list(props, handle.label(o.kind, o.uid), name and "name") }
    end
  end
  if objects[1] then
    layers[#layers + 1] = { id = #layers + 1, name = "objects", type = "objectgroup", draworder = "topdown",
      x = 0, y = 0, opacity = 1, visible = true, objects = objects }
  end
  root.nextlayerid, root.nextobjectid = #layers + 1, #objects + 1
  return json().encode(root)
end

-- map:to_tiled on a standalone map (the C type's method; see strata/init.lua).
M._to_tiled = boundary.wrap("map:to_tiled", function(tm, opts) return M._export(tm, nil, opts) end)

return M
