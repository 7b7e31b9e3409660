-- strata.branches: procedural dungeon branches (docs/branches.md). The
-- bookkeeping is the C core's (core/src/branch.c: cells, the rules for new
-- exits, the budget, deleting a branch), and so are moves through branch
-- exits, the first crossing that makes a branch and its rooms, the timers of
-- start-exit resets and idle collapse, and collapsing (core/src/branch_move.c,
-- move.h). This file adds world.branches:make_start and handles
-- (branch:rooms(), ...); strata.branch_archetype reads the archetypes.
local branch_archetype = require "strata.branch_archetype"
local handle_of = require "strata.handle"
local options = require "strata.options"
local private = require "strata.private"
local rooms = require "strata.rooms"
local runtime = require "strata.runtime"
local owner = private.owner
local handle = handle_of.new

-- What kinds of objects get and the world's field world.branches (installed by strata.world).
local kinds, fields = {}, {}

local function fail(fmt, ...) error(fmt:format(...), 0) end

local DIRECTIONS = branch_archetype.directions
local is_direction = branch_archetype.is_direction
local archetype = branch_archetype.get

-- ---- world.branches ---------------------------------------------------------------------
-- One object per world, with no fields: its world is in private.owner (as
-- for grid), so a mod given it (through its world view) reaches no host world.
local Branches = {}
Branches.__index = Branches
Branches.__newindex = function() error("world.branches is read-only", 2) end
Branches.__tostring = function() return "world.branches" end
private.protect(Branches, "strata.branches")
local is_branches
fields.branches, is_branches = private.per_world(Branches)

local function world_of(self, what)
  local w = owner[self]
  if not is_branches(self) then fail("%s: call it as world.branches:%s(...)", what, what:match("[%w_]+$")) end
  return w
end

-- world.branches:make_start(hub, { north = "mod.archetype", ... }) -> { north = exit, ... }
function Branches:make_start(hub, starts)
  local w = world_of(self, "world.branches:make_start")
  rooms.room_of(w, hub, "world.branches:make_start")
  if type(starts) ~= "table" or next(starts) == nil then
    fail("world.branches:make_start: expected { direction = branch archetype ID, ... }, got %s", tostring(starts))
  end
  local dirs = {}
  for dir, id in pairs(starts) do
    if type(dir) ~= "string" or not is_direction(dir) then
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
  for _, o in ipairs(w._s:objects("branch")) do out[#out + 1] = handle(w, o.uid) end
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
  handle_of.check_alive(b)
  runtime.call(owner[b], "branch_collapse", b.uid)
end

kinds.branch = {
  methods = {
    rooms = function(b) handle_of.check_alive(b) return uids_to_handles(owner[b], owner[b]._s:branch_rooms(b.uid)) end,
    members = function(b) handle_of.check_alive(b) return uids_to_handles(owner[b], owner[b]._s:branch_members(b.uid)) end,
    collapse = collapse_handle,
    -- Every rule of docs/branches.md ("The rules") checked on the branch as it stands: true | false, message.
    check = function(b) handle_of.check_alive(b) return owner[b]._s:branch_check(b.uid) end,
  },
  get = {
    hub = function(b) return handle(owner[b], (owner[b]._s:branch_info(b.uid))) end,
    unexplored = function(b) return select(3, owner[b]._s:branch_info(b.uid)) end,
    room_count = function(b) return select(4, owner[b]._s:branch_info(b.uid)) end,
    last_act = function(b) return select(5, owner[b]._s:branch_info(b.uid)) end,
  },
  delete = collapse_handle, -- a branch is deleted as it collapses
}

-- A branch's rooms and exits follow its rules: deleting or re-pointing one
-- by hand would leave its cells and budget wrong, and a hub would leave its
-- first rooms without their way back.
local function branch_of_exit(w, e) return w._s:branch_room(select(1, w._s:exit_info(e)) or 0) end
-- (rooms.kinds[kind]'s delete or set[field], checked first: these replace
-- them, strata.world installing strata.branches after strata.rooms)
local function guard(kind, field, what, test)
  local t = rooms.kinds[kind]
  local inner = field and t.set[field] or t.delete
  local wrapped = function(h, ...)
    local b = test(owner[h], h.uid)
    if b then fail("%s: %s is part of branch#%d: collapse the branch instead", what, tostring(h), b) end
    return inner(h, ...)
  end
  kinds[kind] = kinds[kind] or { set = {} }
  if field then kinds[kind].set[field] = wrapped else kinds[kind].delete = wrapped end
end
guard("room", nil, "room:delete", function(w, uid)
  local b = w._s:branch_room(uid)
  if b then return b end
  for _, o in ipairs(w._s:objects("branch")) do
    if w._s:branch_info(o.uid) == uid then return o.uid end
  end
end)
guard("exit", nil, "exit:delete", branch_of_exit)
guard("exit", "to", "exit.to", branch_of_exit)

local room = kinds.room
room.methods, room.get = {}, {}
room.methods.set_clear = function(r, clear)
  handle_of.check_alive(r)
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

return { kinds = kinds, fields = fields }
