-- strata.rooms: rooms and exits (text-world objects) and moving through them.
-- The state is the C core's (core/src/room.c, exit.c; the world state's
-- room_* / exit_* methods); this file puts handles on it: world:create_room,
-- world:create_exit, room.name/.desc/:exits(), exit.from/.to, actor.room and
-- world:go. Grid maps (strata.grid) and branches build on these.
local handle_of = require "strata.handle"
local options = require "strata.options"
local runtime = require "strata.runtime"
local owner = require("strata.private").owner
local handle = handle_of.new

-- The world's methods and what kinds of objects get (installed by strata.world);
-- room_of and place for strata.grid, strata.branches and strata.world.
local M = { world = {}, kinds = {} }
local world, kinds = M.world, M.kinds

local function fail(fmt, ...) error(fmt:format(...), 0) end

local function of_kind(w, h, kind, what)
  if not handle_of.is(h) or h.kind ~= kind or owner[h] ~= w then
    fail("%s: expected %s of this world, got %s", what, handle_of.a(kind), tostring(h))
  end
  if not h:alive() then fail("%s: %s was deleted", what, tostring(h)) end
  return h
end
-- h, checked to be a live room of world w (what: the public function, for errors).
function M.room_of(w, h, what) return of_kind(w, h, "room", what) end

local function text(v, what, may_be_empty)
  if type(v) ~= "string" or (v == "" and not may_be_empty) then
    fail("%s must be a %sstring, got %s", what, may_be_empty and "" or "non-empty ", v == "" and '""' or tostring(v))
  end
  return v
end

local function aliases_of(v, what)
  if v == nil then return nil end
  if type(v) ~= "table" then fail("%s: aliases must be a list of strings", what) end
  for i, a in ipairs(v) do text(a, ("%s: alias %d"):format(what, i)) end
  for k in pairs(v) do
    if math.type(k) ~= "integer" or k < 1 or k > #v then fail("%s: aliases must be a list of strings", what) end
  end
  return v
end

-- world:create_room{ name =, desc =, props = } -> room
function world:create_room(opts)
  opts = options.check("world:create_room", opts, 2)
  if type(opts) ~= "table" then fail("expected { name =, desc =, props = }") end
  text(opts.name, "name")
  if opts.desc ~= nil then text(opts.desc, "desc", true) end
  if opts.props ~= nil then self._s:check(opts.props, "room props") end
  local uid = self._s:room_create(opts.name, opts.desc or "")
  if opts.props ~= nil then self._s:set(uid, "room#" .. uid .. " props", opts.props, "props") end
  return handle(self, uid)
end

-- world:create_exit(from, to, { name =, desc =, aliases = }) -> exit; to may be nil (leads nowhere yet)
function world:create_exit(from, to, opts)
  opts = options.check("world:create_exit", opts, 2)
  of_kind(self, from, "room", "world:create_exit")
  if to ~= nil then of_kind(self, to, "room", "world:create_exit") end
  if type(opts) ~= "table" then fail("expected options { name =, desc =, aliases = }") end
  text(opts.name, "name")
  if opts.desc ~= nil then text(opts.desc, "desc", true) end
  aliases_of(opts.aliases, "world:create_exit")
  local ok, e = self:_atomic(function()
    local uid = self._s:exit_create(from.uid, to and to.uid, opts.name, opts.desc or "")
    if opts.aliases then self._s:exit_set_aliases(uid, opts.aliases) end
    return handle(self, uid)
  end)
  if not ok then error(e, 0) end
  return e
end

local function uids_to_handles(w, uids)
  for i, u in ipairs(uids) do uids[i] = handle(w, u) end
  return uids
end

kinds.room = {
  methods = {
    exits = function(r) handle_of.check_alive(r) return uids_to_handles(owner[r], owner[r]._s:room_exits(r.uid)) end,
    contents = function(r) handle_of.check_alive(r) return uids_to_handles(owner[r], owner[r]._s:room_contents(r.uid)) end,
    exit = function(r, dir)
      handle_of.check_alive(r)
      local e = owner[r]._s:exit_find(r.uid, text(dir, "direction"))
      return e and handle(owner[r], e)
    end,
  },
  get = {
    name = function(r) return (owner[r]._s:room_info(r.uid)) end,
    desc = function(r) return select(2, owner[r]._s:room_info(r.uid)) end,
  },
  set = {
    name = function(r, v) owner[r]:_touch(r.uid) owner[r]._s:room_set(r.uid, "name", text(v, "room.name")) end,
    desc = function(r, v) owner[r]:_touch(r.uid) owner[r]._s:room_set(r.uid, "desc", text(v, "room.desc", true)) end,
  },
  delete = function(r, opts)
    if opts ~= nil then fail("room:delete takes no options") end
    owner[r]._s:room_delete(r.uid)
  end,
}

local function exit_field(i)
  return function(e)
    local v = select(i, owner[e]._s:exit_info(e.uid))
    if (i == 1 or i == 2) and v then return handle(owner[e], v) end
    return v
  end
end
kinds.exit = {
  get = { from = exit_field(1), to = exit_field(2), name = exit_field(3), desc = exit_field(4), aliases = exit_field(5) },
  set = {
    to = function(e, v)
      if v ~= nil then of_kind(owner[e], v, "room", "exit.to") end
      owner[e]._s:exit_set(e.uid, "to", v and v.uid)
    end,
    name = function(e, v) owner[e]._s:exit_set(e.uid, "name", text(v, "exit.name")) end,
    desc = function(e, v) owner[e]._s:exit_set(e.uid, "desc", text(v, "exit.desc", true)) end,
    aliases = function(e, v) owner[e]._s:exit_set_aliases(e.uid, aliases_of(v, "exit.aliases") or {}) end,
  },
  delete = function(e, opts)
    if opts ~= nil then fail("exit:delete takes no options") end
    owner[e]._s:exit_delete(e.uid)
  end,
}

-- actor.room (any object that stands in rooms: actors above all)
kinds.actor = { get = {}, set = {} }
kinds.actor.get.room = function(a)
  local r = owner[a]._s:room_of(a.uid)
  return r and handle(owner[a], r)
end
kinds.actor.set.room = function(a, r)
  if r ~= nil then of_kind(owner[a], r, "room", "actor.room") end
  owner[a]._s:room_put(a.uid, r and r.uid)
end

-- Puts a new actor a of world w in room r (world:create_actor{ room = }).
function M.place(w, a, r)
  of_kind(w, r, "room", "world:create_actor")
  w._s:room_put(a.uid, r.uid)
end

-- world:go(actor, dir) -> true | nil, reason: through the exit of the
-- actor's room named dir (or with dir among its aliases), branch exits by
-- their rules: the core's strata_go, with base.before_move (which may
-- refuse) and base.moved.
function world:go(actor, dir)
  of_kind(self, actor, "actor", "world:go")
  text(dir, "world:go: direction")
  return runtime.call(self, "go", actor.uid, dir)
end

return M
