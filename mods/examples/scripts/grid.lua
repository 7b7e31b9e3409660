-- strata run mods/examples/scripts/grid.lua
-- Spawns the village of Hollin and its old mine (examples/grid.lua) as rooms
-- and exits, then walks a miner from the south gate to the deep gallery: half
-- the way, a save, the rest in the world read back from it.
local strata = require "strata"
local here = arg[0]:match("^(.*)/scripts/[^/]*$") or "mods/examples"
local opts = { mods = { "base", "examples" }, mod_path = { here .. "/.." } }
local world = strata.world.new{ seed = 1, mods = opts.mods, mod_path = opts.mod_path }

world.grid:add("examples.village", "examples.mine")
local c = world.grid:spawn()
print(("spawned: %d rooms, %d exits"):format(c.created.rooms, c.created.exits))
c = world.grid:spawn()
print(("spawned again: %d created, %d updated, %d deleted"):format(c.created.rooms + c.created.exits,
  c.updated.rooms + c.updated.exits, c.deleted.rooms + c.deleted.exits))

local gate = world.grid:room(0, 0, "village")
local gallery = world.grid:room(2, 0, "mine")
local miner = world:create_actor{ room = gate }
print(("%s: %s"):format(gate.name, gate.desc))
print(strata.markup.render(world.grid:view(gate), { color = false }))
print("the way to the deep gallery: " .. table.concat(world.grid:path(gate, gallery), " "))

local function where(w, a)
  local r = a.room
  return ("t=%d  %s (%d, %d, %s)"):format(w.time, r.name, r.x, r.y, r.z)
end

local plan = world:walk(miner, gallery, { step_every = 2 })
for _ = 1, 4 do
  world:advance(2)
  print(where(world, miner))
end
local file = os.tmpname()
world:save(file)
print("saved mid-way: " .. plan.state)

local again = strata.world.open(file, opts)
local m2 = again:object(miner.uid)
local resumed = again:walk_plan(m2)
while resumed.state == "walking" do
  again:advance(2)
  print(where(again, m2))
end
print("walk: " .. resumed.state)
print(("%s: %s"):format(m2.room.name, m2.room.desc))
os.remove(file)
