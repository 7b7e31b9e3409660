-- strata.serve: a process serving scopes of a world kept in PostgreSQL
-- (docs/lua-api.md, "Serving a world (PostgreSQL)"), over the core's
-- serving process (strata/serve.h, strata.core.serve). The core owns the
-- process, its leases and the world it serves: this file checks shapes,
-- binds the world to its mods as strata.world.open binds an opened one,
-- and turns handles into uids. Closing a handle (or collecting it) frees
-- the world; every use of the world after that is an error.
local core = require "strata.core"
local options = require "strata.options"
local boundary = require "strata.boundary"
local private = require "strata.private"
local handle_of = require "strata.handle"
local worlds = require "strata.world"

local M = {}

local Serve = {}
Serve.__index = Serve
-- handle -> { c = the core's serving process, world = the world it serves }:
-- beside the handle, so that no caller reads or replaces them.
local inner = setmetatable({}, { __mode = "k" })

local function open_one(self)
  local s = inner[self]
  if not s then error("not a serve handle: call it as serve:method(...)", 0) end
  if not s.c:is_open() then error("the serve handle is closed", 0) end
  return s
end

-- strata.serve.open(uri, { scopes =, label =, ttl =, wait =, mods =, mod_path = })
function M.open(uri, opts)
  opts = options.check("strata.serve.open", opts, 2)
  worlds._host_only("serving a world")
  if type(uri) ~= "string" then error("uri must be a string, got " .. type(uri), 0) end
  local c, state, saved_mods = core.serve.open(uri, opts)
  local what = ("cannot serve '%s'"):format(uri)
  local ok, w = pcall(worlds._open_state, "strata.serve.open", what, state, saved_mods, opts)
  if not ok then
    c:close() -- (its leases released at once: the mods are the caller's to fix)
    error(w, 0)
  end
  local self = setmetatable({}, Serve)
  inner[self] = { c = c, world = w }
  private.served[w] = self
  return self
end

-- serve:world() -> the world served (the same one at every call)
function Serve:world() return open_one(self).world end

-- serve:save() -> how many objects were handed over to other scopes
function Serve:save()
  local s = open_one(self)
  worlds._host_only("saving")
  return s.c:save(worlds._mod_list(s.world))
end

-- serve:poll(ms) -> how many objects arrived (waiting up to ms for the first)
function Serve:poll(ms)
  local s = open_one(self)
  worlds._host_only("polling")
  if math.type(ms) ~= "integer" then error("ms must be an integer, got " .. tostring(ms), 0) end
  return s.c:poll(ms)
end

-- serve:scope_of(object or uid) -> "area:U", "map:U", "world", or nil
function Serve:scope_of(x)
  local s = open_one(self)
  if handle_of.is(x) then x = x.uid end
  if math.type(x) ~= "integer" then
    error("expected an object or a uid, got " .. (type(x) == "number" and tostring(x) or type(x)), 0)
  end
  return s.c:scope_of(x)
end

-- serve:move(object or uid, map or uid, x, y): onto a map of this world or of
-- another scope (known when the world opened): the next save hands it over
function Serve:move(x, map, px, py)
  local s = open_one(self)
  if handle_of.is(x) then x = x.uid end
  if handle_of.is(map) then map = map.uid end
  for i, v in ipairs { x, map, px, py } do
    if math.type(v) ~= "integer" then
      error(("argument %d must be %s, got %s"):format(i, i == 1 and "an object or a uid" or i == 2 and
        "a map or a uid" or "an integer", type(v) == "number" and tostring(v) or type(v)), 0)
    end
  end
  s.c:move(x, map, px, py)
end

function Serve:owns(scope)
  if type(scope) ~= "string" then error("scope must be a string, got " .. type(scope), 0) end
  return open_one(self).c:owns(scope)
end

function Serve:holder() return open_one(self).c:holder() end

-- serve:close(): the leases released, the world freed; again: nothing
function Serve:close()
  local s = inner[self]
  if not s then error("not a serve handle: call it as serve:method(...)", 0) end
  worlds._host_only("closing a served world")
  s.c:close()
end

boundary.wrap_all(Serve, "serve:")
Serve.__close = function(self) self:close() end
Serve.__tostring = function(self)
  local s = inner[self]
  return s and s.c:is_open() and "serve " .. s.c:holder() or "serve (closed)"
end
private.protect(Serve, "strata.serve")

M.open = boundary.wrap("strata.serve.open", M.open)

return M
