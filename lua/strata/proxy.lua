-- strata.proxy: the persistent tables of handles (h.props, h.state, h.meta
-- and the tables inside them), read and written through the core's world
-- state at their path: a proxy holds no copy. What each points at (world,
-- uid, path) lives in a side table, out of reach of next() and rawget().
local boundary = require "strata.boundary"
local private = require "strata.private"
local owner = private.owner

local M = {}
local Proxy = {}
M.mt = Proxy
local proxy_data = setmetatable({}, { __mode = "k" }) -- proxy -> { uid =, label =, path = }

-- "map#3 state.a[2]": how messages name a table at path of the object `base` names.
function M.path_label(base, path)
  local s = base
  for i, k in ipairs(path) do
    if math.type(k) == "integer" then s = s .. "[" .. k .. "]"
    elseif i == 1 then s = s .. " " .. k
    else s = s .. "." .. k end
  end
  return s
end
local path_label = M.path_label

-- The table at `path` (a list of keys) of object uid of world, which
-- messages call `label` ("actor#4").
function M.new(world, uid, label, path)
  local p = setmetatable({}, Proxy)
  proxy_data[p] = { uid = uid, label = label, path = path }
  owner[p] = world
  return p
end

local function child_path(p, k)
  local path = {}
  for i, x in ipairs(p) do path[i] = x end
  path[#path + 1] = k
  return path
end

Proxy.__index = function(p, k)
  local d, w = proxy_data[p], owner[p]
  local s = w._s
  if not s:info(d.uid) then error(d.label .. " was deleted", 2) end
  local path = child_path(d.path, k)
  local v, is_table = s:get(d.uid, table.unpack(path))
  if is_table then return M.new(w, d.uid, d.label, path) end
  return v
end

Proxy.__newindex = boundary.lined(function(p, k, v)
  local d, w = proxy_data[p], owner[p]
  if type(k) ~= "string" and math.type(k) ~= "integer" then
    error(("%s: keys must be strings or integers, got %s %s"):format(
      path_label(d.label, d.path), math.type(k) or type(k), tostring(k)), 0)
  end
  local path = child_path(d.path, k)
  w._s:set(d.uid, path_label(d.label, path), v, table.unpack(path))
end)

-- A persistent table stored elsewhere is copied as it is now (world.c asks
-- through the function registered with core.world_state.types).
function M.snapshot(p)
  local d = proxy_data[p]
  return owner[p]._s:snapshot(d.uid, table.unpack(d.path))
end

Proxy.__pairs = function(p)
  local d = proxy_data[p]
  local keys = owner[p]._s:keys(d.uid, table.unpack(d.path))
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k == nil then return nil end
    return k, p[k]
  end, p, nil
end

Proxy.__len = function(p)
  local d = proxy_data[p]
  local s, n = owner[p]._s, 0
  while true do
    local v, is_table = s:get(d.uid, table.unpack(child_path(d.path, n + 1)))
    if v == nil and not is_table then return n end
    n = n + 1
  end
end

Proxy.__tostring = function(p) local d = proxy_data[p] return "state " .. path_label(d.label, d.path) end
private.protect(Proxy, "strata.state")

return M
