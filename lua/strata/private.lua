-- strata.private: what strata's own files share and mod code never reaches.
-- Handles, persistent-table proxies, streams, subscriptions and data views
-- carry no fields of their own: what they point at (their world, uid,
-- registry) lives in these weak side tables, keyed by the object, so that
-- neither next() nor rawget() nor an assignment can read or change it.
-- Worlds come in two faces: the host's (with save, and its internals in
-- fields) and one mod view per world (an empty table whose metatable offers
-- the methods mods may call). Nothing here is in the strata table that mods get.
local weak = { __mode = "k" }
local M = {
  owner = setmetatable({}, weak),     -- handle, proxy, stream, subscription -> its host world
  host = setmetatable({}, weak),      -- a world's mod view -> the host world
  view = setmetatable({}, weak),      -- a host world -> its mod view
  protected = setmetatable({}, weak), -- strata's metatables: rawset refuses their objects
  served = setmetatable({}, weak),    -- a served world -> its serve handle (strata.serve), kept alive by it
}

-- The host world behind a world, a mod view of one, or an object of one; nil otherwise.
function M.world_of(x)
  if type(x) ~= "table" then return nil end
  local w = M.host[x] or M.owner[x]
  if w then return w end
  if M.World and debug.getmetatable(x) == M.World then return x end
  return nil
end

-- What mod code may be given in place of v: a world's mod view for a world.
function M.for_mod(v)
  return M.view[v] or v
end

-- For world.grid and world.branches: a function w -> the one object of
-- metatable mt of world w (made on first use; its world in M.owner), and
-- whether an object is that one of its world.
function M.per_world(mt)
  local of = setmetatable({}, weak) -- world -> its object
  local function get(w)
    local o = of[w]
    if not o then
      o = setmetatable({}, mt)
      M.owner[o] = w
      of[w] = o
    end
    return o
  end
  local function is(o) local w = M.owner[o] return w ~= nil and of[w] == o end
  return get, is
end

-- Marks mt as one of strata's metatables: getmetatable() on its objects
-- gives `name`, setmetatable() on them fails, rawset() in mod code refuses them.
function M.protect(mt, name)
  mt.__metatable = name
  M.protected[mt] = true
  return mt
end

return M
