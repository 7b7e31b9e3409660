-- strata.tiles: the tile methods of map handles (map:set, map:find_path,
-- map:render, map:define_token, ...), forwarded to the tile map the core
-- keeps for the map object, every result of it (find_path's path and cost,
-- or nil and the reason; the binding counts arguments after self, as the
-- caller wrote them). The binding's edits touch the map first (the core
-- journals its tiles once per savepoint), so a savepoint can undo them.
local handle = require "strata.handle"
local private = require "strata.private"
local owner = private.owner

local M = {}

-- The view of a map's tiles. Views are cached per world (w._tilemaps); every
-- path that deletes a map object (handle:delete, area bookkeeping, a
-- rollback: the core tells) drops its view, so a cached view points at a
-- live map (and one missed would refuse to work: a view checks its map on
-- every use).
local function view(w, uid)
  local tm = w._tilemaps[uid]
  if not tm then
    tm = w._s:tilemap(uid)
    w._tilemaps[uid] = tm
  end
  return tm
end

-- (Every tile method passes here: each field read is a metamethod call.)
function M.of(h)
  local w = handle.is(h, "map") and owner[h]
  if not w then
    error(("expected a map as self (call it with a colon), got %s"):format(tostring(h)), 0)
  end
  local uid = h.uid
  local tm = w._tilemaps[uid]
  if not tm then
    if not w._s:info(uid) then error(("%s was deleted"):format(handle.label("map", uid)), 0) end
    tm = view(w, uid)
    if not tm then error(handle.label("map", uid) .. " has no tiles", 0) end
  end
  return tm
end
local tiles_of = M.of

-- Drops the views of maps that are gone (the core deleted them, or rolled
-- back their making). Every journey passes here: while no map was made,
-- deleted or edited since the last look (the core's count of map edits), no
-- view is checked, however many a game has made.
function M.drop_dead(w)
  local edits = w._s:kind_edits("map")
  if edits == w._tilemaps_checked then return end
  for uid in pairs(w._tilemaps) do
    if not w._s:info(uid) then w._tilemaps[uid] = nil end
  end
  w._tilemaps_checked = edits
end

-- Edits return the handle, never the world's tile map itself.
local function results(h, m, ...)
  if select("#", ...) > 0 and ... == m then return h, select(2, ...) end
  return ...
end

local methods = {}

-- Reads give every result of the tile map's method, as many as it gives.
-- Edits give exactly one (the map, or remove's count): kept in a local, not
-- passed through results, a vararg call that cost a sixth of an edit that
-- does no work (spec/bench/bench_areas.lua, ns_per_crossing).
for _, name in ipairs{ "tokens", "has", "top", "passable", "cost", "occupied", "find_path", "fov", "to_svg", "to_png" } do
  methods[name] = function(h, ...)
    local m = tiles_of(h)
    return results(h, m, m[name](m, ...))
  end
end
for _, name in ipairs{ "set", "add_front", "remove", "reset", "clear", "fill" } do
  methods[name] = function(h, ...)
    local m = tiles_of(h)
    local r = m[name](m, ...)
    if r == m then return h end
    return r
  end
end

-- map:distance_map(goals, opts): goals may name objects on this map (their
-- cells, read now: the field does not follow them); the rest goes as given.
function methods.distance_map(h, goals, ...)
  local tm = tiles_of(h)
  if type(goals) == "table" and not handle.is(goals) and rawget(goals, "token") == nil then
    local cells = {}
    for i = 1, rawlen(goals) do -- raw, as the binding reads the list
      local g = rawget(goals, i)
      if handle.is(g) then
        handle.check_alive(g, ("goal %d"):format(i))
        local on = g.map
        if not on or on.uid ~= h.uid then
          error(("goal %d: %s is not on %s"):format(i, handle.label(g.kind, g.uid), handle.label("map", h.uid)), 0)
        end
        cells[i] = { g.x, g.y }
      else
        cells[i] = g
      end
    end
    goals = cells
  end
  return tm:distance_map(goals, ...)
end

-- map:render{ path =, path_glyph =, glyphs = } with glyphs a table or the ID of a
-- base.glyphs entry of the map's world.
function methods.render(h, opts)
  local tm = tiles_of(h)
  if type(opts) == "table" and type(opts.glyphs) == "string" then
    local entry = owner[h]._registry:view("base.glyphs"):ensure(opts.glyphs)
    local glyphs = {}
    for token, g in pairs(entry.glyphs or {}) do glyphs[token] = type(g) == "table" and (g.char or g[1]) or g end
    local o = {}
    for k, v in pairs(opts) do o[k] = v end
    o.glyphs = glyphs
    opts = o
  end
  return tm:render(opts)
end

-- map:to_tiled(opts): the map, its objects and properties as Tiled's JSON text (strata.tiled).
function methods.to_tiled(h, opts) return require("strata.tiled")._export(tiles_of(h), h, opts) end

-- map:define_token(name, traits): traits for this map only, kept with it by
-- the core (strata_map_set_token) and defined again when the world is opened.
function methods.define_token(h, name, traits)
  local tm = tiles_of(h)
  if type(name) ~= "string" then error("token name must be a string, got " .. type(name), 0) end
  if type(traits) ~= "table" then error("traits must be a table, got " .. type(traits), 0) end
  tm:define_token(name, traits)
  owner[h]._rt:set_map_token(h.uid, name, traits)
  return h
end

-- A world's maps' own tokens defined on their tile maps (a world just opened).
function M.bind_map_tokens(w)
  for _, o in ipairs(w._s:objects()) do
    if o.kind == "map" then
      local defs = w._rt:map_tokens(o.uid)
      local tm = defs and w._s:tilemap(o.uid)
      if tm then for name, traits in pairs(defs) do tm:define_token(name, traits) end end
    end
  end
end

-- map.width, map.height (nil for a map without tiles) read through the
-- cached view: a field read makes no new view.
local function side(k)
  return function(h)
    local tm = view(owner[h], h.uid)
    return tm and tm[k]
  end
end

M.kinds = { map = { methods = methods, get = { width = side("width"), height = side("height") } } }

return M
