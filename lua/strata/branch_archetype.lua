-- strata.branch_archetype: base.branch_archetype entries as strata reads
-- them, their values checked (the data schema checks their types): by
-- world.branches:make_start, and by the runtime when the core asks for one.
local options = require "strata.options"

local M = {}

M.directions = { "north", "east", "south", "west", "northeast", "southeast", "southwest", "northwest" }
local is_direction = {}
for _, d in ipairs(M.directions) do is_direction[d] = true end
function M.is_direction(d) return is_direction[d] == true end

-- Defaults of the fields an archetype leaves out (strata.world.branch_defaults).
M.defaults = { directions = { "north", "east", "south", "west" }, max_unexplored_exits = 4,
  max_new_exits_per_room = 2 }

local function fail(fmt, ...) error(fmt:format(...), 0) end

-- The entry of ID `id` in world w's registry, checked.
function M.get(w, id)
  local a = w._registry:view("base.branch_archetype"):ensure(id)
  local function bad(fmt, ...) fail("branch archetype '%s': " .. fmt, id, ...) end
  local seen = {}
  for i, d in ipairs(a.directions or {}) do
    if not is_direction[d] then bad("directions[%d]: '%s' is no direction%s", i, d, options.suggest(d, M.directions)) end
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

-- The entry as the core reads it (resolver.h's strata_branch_def), defaults filled in.
function M.for_core(w, id)
  local a, d = M.get(w, id), M.defaults
  local reset = a.start_exit_reset
  return { mod = a._mod, dirs = a.directions or d.directions,
    max_unexplored = a.max_unexplored_exits or d.max_unexplored_exits,
    max_new = a.max_new_exits_per_room or d.max_new_exits_per_room,
    room_generator = a.room_generator, max_idle = a.max_idle,
    reset_every = reset and reset.every, reset_chance = reset and (reset.chance or 1) }
end

return M
