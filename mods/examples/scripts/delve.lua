-- strata run mods/examples/scripts/delve.lua [SEED]
-- Two adventurers explore the well's dungeon branches (mods/examples/dungeon.lua):
-- onwards through unexplored exits when there are any, clearing guarded rooms
-- by fighting their monsters' placeholders; then they rest until the branch
-- collapses and they find themselves at the bottom of the well again.
local strata = require "strata"
local here = arg[0]:match("^(.*)/scripts/[^/]*$") or "mods/examples"
local seed = tonumber(arg[1]) or 1
local world = strata.world.new{ seed = seed, mods = { "base", "examples" }, mod_path = { here .. "/.." } }
local hub = world.data["base.handler"]:ensure("examples.well_setup").run(world)
local ana = world:create_actor{ room = hub, props = { name = "Ana" } }
local bo = world:create_actor{ room = hub, props = { name = "Bo" } }
local dice = world.rng:stream("delve")

local function step(who)
  local room = who.room
  if room.uid == hub.uid then -- back at the well: into the branch again
    assert(world:go(who, "east"))
    print(("%s goes east again: %s"):format(who.props.name, who.room.name))
    return
  end
  if room.clear == false then
    local names = {}
    for i, m in ipairs(room.props.monsters) do names[i] = m.name end
    print(("  %s fights %s in %s"):format(who.props.name, table.concat(names, ", "), room.name))
    room:set_clear(true)
  end
  local onwards, all = {}, room:exits()
  for _, e in ipairs(all) do if e.to == nil then onwards[#onwards + 1] = e end end
  local e = #onwards > 0 and onwards[dice:int(1, #onwards)] or all[dice:int(1, #all)]
  assert(world:go(who, e.name))
  local r = who.room
  print(("%s goes %s: %s%s"):format(who.props.name, e.name, r.name, r.cell and (" at (%d, %d)"):format(r.cell.x, r.cell.y) or ""))
end

-- Both go east: the first one through makes the branch, the second joins it.
world:go(ana, "east")
world:go(bo, "east")
local branch = ana.room.branch
print(("Ana and Bo enter branch#%d at %s"):format(branch.uid, ana.room.name))
for _ = 1, 12 do
  step(ana)
  step(bo)
  world:advance(30)
end
print(("branch#%d: %d rooms, %d unexplored exits, members: %d"):format(branch.uid, branch.room_count,
  branch.unexplored, #branch:members()))
assert(branch:check())
-- Resting: nobody acts, the branch collapses within two max_idle.
world:advance(1200)
print(("after resting: branch alive: %s; Ana is in %s, Bo is in %s"):format(tostring(branch:alive()), ana.room.name,
  bo.room.name))
-- The east exit leads to a new branch now.
world:go(ana, "east")
print(("Ana goes east again: branch#%d, %s"):format(ana.room.branch.uid, ana.room.name))
