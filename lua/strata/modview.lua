-- strata.modview: the world as mod code sees it. One view per world: an
-- empty table whose methods are the world's, less what belongs to the host
-- (saving, dumping as JSON, running in real time) and anything internal, and whose rng and
-- data mod code cannot rewire. The view's methods call the world's with the
-- world itself, so no method ever runs on (or hands back) anything but a
-- world or its view.
local data = require "strata.data"
local private = require "strata.private"

local M = {}
local ModWorld = {}
local host_only = { save = true, run_realtime = true, to_json = true }
-- What the view holds, by list: a method later added to worlds (by strata or
-- by a host) is the host's until it is listed here. Internal methods a mod
-- may still call: base's map_renew timer handler.
M.methods = { "add_turns", "advance", "area_of", "areas", "cancel", "create_actor", "create_area", "create_entrance",
  "create_exit", "create_map", "create_object", "create_room", "create_stairs", "current_area",
  "current_floor", "current_map", "emit", "next_due", "next_turn", "remove_turns", "find_unique", "get_or_create_map", "go", "mods", "move",
  "object", "objects", "overrides", "player", "regenerate_child_maps", "schedule", "stream", "timers",
  "travel", "turn_info", "turn_took", "unique_area", "walk", "walk_plan", "_renew_timer" }
local listed = { time = true, seed = true, grid = true, branches = true } -- and the methods
for _, k in ipairs(M.methods) do listed[k] = true end
local mod_methods = {} -- name -> the view's method (the same for every view)
local mod_data, mod_rng = setmetatable({}, { __mode = "k" }), setmetatable({}, { __mode = "k" })

ModWorld.__index = function(v, k)
  local w = private.host[v]
  if k == "rng" then return mod_rng[v] end
  if k == "data" then return mod_data[v] end
  local m = mod_methods[k]
  if m then return m end
  if host_only[k] then error(("world:%s belongs to the host; mods cannot call it"):format(k), 2) end
  if not listed[k] then return nil end
  local f = w[k] -- a method, or a field of the world's (time, seed, grid, branches)
  if type(f) ~= "function" then return f end
  -- A tail call: an error raised at level 2 still points at the mod's line.
  m = function(self, ...) return f(private.host[self] or self, ...) end
  mod_methods[k] = m
  return m
end
ModWorld.__newindex = function(_, k) error(("world: cannot set field '%s'"):format(tostring(k)), 2) end
ModWorld.__tostring = function() return "world" end
ModWorld.__eq = function(a, b) return (private.host[a] or a) == (private.host[b] or b) end
private.protect(ModWorld, "strata.world")

-- The view of host world w (made once, by strata.world).
function M.new(w)
  local v = setmetatable({}, ModWorld)
  private.host[v], private.view[w] = w, v
  mod_data[v] = data.views(w._registry, true)
  local stream = function(_, key) return w:stream(key) end
  mod_rng[v] = setmetatable({}, private.protect({ __index = { stream = stream },
    __newindex = function() error("world.rng is read-only", 2) end }, "strata.world_rng"))
  return v
end

return M
