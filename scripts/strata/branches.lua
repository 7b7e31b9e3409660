-- strata.branches: procedural dungeon branches (API.md section 8). The
-- bookkeeping is the C core's (core/src/branch.c: cells, the rules for new
-- exits, the budget, deleting a branch), and so are moves through branch
-- exits, the first crossing that makes a branch and its rooms, the timers of
-- start-exit resets and idle collapse, and collapsing (core/src/branch_move.c,
-- move.h). This file adds world.branches:make_start, the branch archetypes
-- as the core reads them (checked here), and handles (branch:rooms(), ...).
return function(M, I)
  local World, kinds, handle = I.World, I.kinds, I.handle
  local options = require "strata.options"
  local private = require "strata.private"
  local owner = private.owner

  local function fail(fmt, ...) error(fmt:format(...), 0) end

  local DIRECTIONS = { "north", "east", "south", "west", "northeast", "southeast", "southwest", "northwest" }
  local is_direction = {}
  for _, d in ipairs(DIRECTIONS) do is_direction[d] = true end
  -- Defaults of base.branch_archetype fields left out.
  M.branch_defaults = { directions = { "north", "east", "south", "west" }, max_unexplored_exits = 4,
    max_new_exits_per_room = 2 }

  -- A branch archetype by ID, its values checked (the schema checks their types).
  local function archetype(w, id)
    local a = w._registry:view("base.branch_archetype"):ensure(id)
    local function bad(fmt, ...) fail("branch archetype '%s': " .. fmt, id, ...) end
    local seen = {}
    for i, d in ipairs(a.directions or {}) do
      if not is_direction[d] then bad("directions[%d]: '%s' is no direction%s", i, d, options.suggest(d, DIRECTIONS)) end
      if seen[d] then bad("directions: '%s' is listed twice", d) end
      seen[d] = true
    end
    if a.directions and #a.directions == 0 then bad("directions is empty") end
    for _, k in ipairs{ "max_unexplored_exits", "max_new_exits_per_room" } do
      if a[k] ~= nil and a[k] < 1 then bad("%s must be at least 1, got %d", k, a[k]) end
    end
    if a.max_idle ~= nil and not (a.max_idle > 0 and a.max_idle < math.huge) then bad("max_idle must be a number > 0, got %s", tostring(a.max_idle)) end
    local r = a.start_exit_reset
    if r then
      if not (type(r.every) == "number" and r.every > 0 and r.every < math.huge) then bad("start_exit_reset.every must be a number > 0, got %s", tostring(r.every)) end
      if r.chance ~= nil and not (r.chance >= 0 and r.chance <= 1) then bad("start_exit_reset.chance must be between 0 and 1, got %s", tostring(r.chance)) end
    end
    return a
  end

  -- The core asks for branch archetypes through the dispatcher (strata.runtime).
  I.branch_archetype = function(w, id)
    local a, d = archetype(w, id), M.branch_defaults
    return a, a.directions or d.directions, a.max_unexplored_exits or d.max_unexplored_exits,
      a.max_new_exits_per_room or d.max_new_exits_per_room
  end

  -- ---- world.branches ---------------------------------------------------------------------
  -- One object per world, with no fields: its world is in private.owner (as
  -- for grid), so a mod given it (through its world view) reaches no host world.
  local Branches = {}
  Branches.__index = Branches
  Branches.__newindex = function() error("world.branches is read-only", 2) end
  Branches.__tostring = function() return "world.branches" end
  private.protect(Branches, "strata.branches")
  local of_world = setmetatable({}, { __mode = "k" }) -- world -> its world.branches

  function World._branches_of(w)
    local b = of_world[w]
    if not b then
      b = setmetatable({}, Branches)
      owner[b] = w
      of_world[w] = b
    end
    return b
  end

  local function world_of(self, what)
    local w = owner[self]
    if not w or of_world[w] ~= self then fail("%s: call it as world.branches:%s(...)", what, what:match("[%w_]+$")) end
    return w
  end

  -- world.branches:make_start(hub, { north = "mod.archetype", ... }) -> { north = exit, ... }
  function Branches:make_start(hub, starts)
    local w = world_of(self, "world.branches:make_start")
    I.room_of(w, hub, "world.branches:make_start")
    if type(starts) ~= "table" or next(starts) == nil then
      fail("world.branches:make_start: expected { direction = branch archetype ID, ... }, got %s", tostring(starts))
    end
    local dirs = {}
    for dir, id in pairs(starts) do
      if type(dir) ~= "string" or not is_direction[dir] then
        fail("world.branches:make_start: '%s' is no direction%s", tostring(dir), options.suggest(tostring(dir), DIRECTIONS))
      end
      if type(id) ~= "string" then fail("world.branches:make_start: %s: expected a branch archetype ID, got %s", dir, type(id)) end
      archetype(w, id)
      dirs[#dirs + 1] = dir
    end
    table.sort(dirs, function(a, b)
      local ia, ib
      for i, d in ipairs(DIRECTIONS) do if d == a then ia = i end if d == b then ib = i end end
      return ia < ib
    end)
    local ok, r = w:_atomic(function()
      local out = {}
      for _, dir in ipairs(dirs) do out[dir] = handle(w, w._s:branch_make_start(hub.uid, dir, starts[dir])) end
      return out
    end)
    if not ok then error(r, 0) end
    return r
  end

  -- world.branches:list() -> every live branch, in uid order
  function Branches:list()
    local w, out = world_of(self, "world.branches:list"), {}
    for _, o in ipairs(w._s:objects()) do if o.kind == "branch" then out[#out + 1] = handle(w, o.uid) end end
    return out
  end
  require("strata.boundary").wrap_all(Branches, "world.branches:")


  -- ---- handles ------------------------------------------------------------------------------
  local function uids_to_handles(w, uids)
    for i, u in ipairs(uids) do uids[i] = handle(w, u) end
    return uids
  end

  local function collapse_handle(b, opts)
    if opts ~= nil then fail("branch:collapse takes no options") end
    I.check_alive(b, "collapse")
    I.core_call(owner[b], "branch_collapse", b.uid)
  end

  kinds.branch = {
    methods = {
      rooms = function(b) I.check_alive(b, "rooms") return uids_to_handles(owner[b], owner[b]._s:branch_rooms(b.uid)) end,
      members = function(b) I.check_alive(b, "members") return uids_to_handles(owner[b], owner[b]._s:branch_members(b.uid)) end,
      collapse = collapse_handle,
      -- Every rule of section 8 checked on the branch as it stands: true | false, message.
      check = function(b) I.check_alive(b, "check") return owner[b]._s:branch_check(b.uid) end,
    },
    get = {
      hub = function(b) return handle(owner[b], (owner[b]._s:branch_info(b.uid))) end,
      unexplored = function(b) return select(3, owner[b]._s:branch_info(b.uid)) end,
      room_count = function(b) return select(4, owner[b]._s:branch_info(b.uid)) end,
      last_act = function(b) return select(5, owner[b]._s:branch_info(b.uid)) end,
    },
    delete = collapse_handle, -- a branch is deleted as it collapses
  }
  -- The cell index is the branch's own.
  local function index_delete(h)
    fail("delete: %s is the cell index of a branch: collapse the branch instead", tostring(h))
  end
  kinds.branch_cells = { delete = index_delete, internal = true } -- (not in world:objects())
  kinds.branch_index = { delete = index_delete, internal = true }

  -- A branch's rooms and exits follow its rules: deleting or re-pointing one
  -- by hand would leave its cells and budget wrong, and a hub would leave its
  -- first rooms without their way back.
  local function branch_of_exit(w, e) return w._s:branch_room(select(1, w._s:exit_info(e)) or 0) end
  local function guard(kind, field, what, test)
    local t = kinds[kind]
    local inner = field and t.set[field] or t.delete
    local wrapped = function(h, ...)
      local b = test(owner[h], h.uid)
      if b then fail("%s: %s is part of branch#%d: collapse the branch instead", what, tostring(h), b) end
      return inner(h, ...)
    end
    if field then t.set[field] = wrapped else t.delete = wrapped end
  end
  guard("room", nil, "room:delete", function(w, uid)
    local b = w._s:branch_room(uid)
    if b then return b end
    for _, o in ipairs(w._s:objects()) do
      if o.kind == "branch" and w._s:branch_info(o.uid) == uid then return o.uid end
    end
  end)
  guard("exit", nil, "exit:delete", branch_of_exit)
  guard("exit", "to", "exit.to", branch_of_exit)

  local room = kinds.room
  room.methods = room.methods or {}
  room.get = room.get or {}
  room.methods.set_clear = function(r, clear)
    I.check_alive(r, "set_clear")
    if type(clear) ~= "boolean" then fail("room:set_clear: expected a boolean, got %s", type(clear)) end
    local w = owner[r]
    if not w._s:branch_room(r.uid) then fail("room:set_clear: %s is no room of a branch", tostring(r)) end
    w:_touch(r.uid)
    w._s:branch_set_clear(r.uid, clear)
  end
  local function room_field(i)
    return function(r) return (select(i, owner[r]._s:branch_room(r.uid))) end
  end
  room.get.branch = function(r)
    local b = owner[r]._s:branch_room(r.uid)
    return b and handle(owner[r], b)
  end
  room.get.depth = room_field(4)
  room.get.clear = function(r)
    local s = owner[r]._s
    if not s:branch_room(r.uid) then return nil end
    return (select(5, s:branch_room(r.uid)))
  end
  room.get.cell = function(r)
    local b, x, y = owner[r]._s:branch_room(r.uid)
    return b and { x = x, y = y }
  end
end
