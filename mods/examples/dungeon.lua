-- The well (docs/branches.md, after Evennia's tutorial dungeon): a hub room at
-- the bottom of a well with four start exits. Each is the way into dungeon
-- branches grown room by room as characters explore; for a while everyone
-- taking the same exit joins the same branch; a branch nobody acts in for
-- ten minutes collapses and sends its members back to the hub.
-- mods/examples/scripts/delve.lua explores it.

-- Room kinds by depth: deeper rooms are darker and more often guarded.
local KINDS = {
  { "Damp cave", "Water drips from the ceiling into shallow pools." },
  { "Collapsed hall", "Fallen pillars lie across the floor." },
  { "Crypt", "Niches in the walls hold dusty bones." },
  { "Fungus grotto", "Pale mushrooms glow faintly in the dark." },
  { "Flooded passage", "Cold water reaches your knees." },
}
-- Monsters' placeholders: a name and a strength a game would turn into actors.
local MONSTERS = { { "rat", 1 }, { "giant bat", 2 }, { "skeleton", 3 }, { "ghoul", 4 }, { "wraith", 6 } }

data:add{ _type = "base.room_generator", _id = "well_rooms", generate = function(ctx)
  local depth = ctx.depth
  local kind = KINDS[ctx.rng:int(1, #KINDS)]
  local monsters = {}
  -- the deeper, the more likely a room is guarded, and by worse things
  if ctx.rng:chance(math.min(0.15 + 0.1 * depth, 0.8)) then
    local top = math.min(#MONSTERS, 1 + depth // 2)
    for i = 1, ctx.rng:int(1, 1 + depth // 3) do
      local m = MONSTERS[ctx.rng:int(1, top)]
      monsters[i] = { name = m[1], strength = m[2] }
    end
  end
  local light = depth <= 1 and "Daylight falls from the well above." or depth <= 3 and "It is dim." or "It is pitch dark."
  return {
    name = ("%s (depth %d)"):format(kind[1], depth),
    desc = kind[2] .. " " .. light,
    -- a guarded room keeps its exits closed (all but the way back) until cleared
    clear = #monsters == 0,
    props = { monsters = monsters, kind = kind[1] },
  }
end }

-- Four branches off the well: two narrow and winding, two wide and sprawling.
data:add{ _type = "base.branch_archetype", _id = "well_narrow", room_generator = "examples.well_rooms",
  directions = { "north", "east", "south", "west" }, max_unexplored_exits = 2, max_new_exits_per_room = 2,
  start_exit_reset = { every = 300, chance = 0.75 }, max_idle = 600 }
data:add{ _type = "base.branch_archetype", _id = "well_wide", room_generator = "examples.well_rooms",
  directions = { "north", "east", "south", "west" }, max_unexplored_exits = 6, max_new_exits_per_room = 3,
  start_exit_reset = { every = 300, chance = 0.75 }, max_idle = 600 }

-- Makes the well in world: its hub room and four start exits. Returns the hub.
data:add{ _type = "base.handler", _id = "well_setup", run = function(world)
  local hub = world:create_room{ name = "The bottom of the well",
    desc = "A round chamber of wet stone. Passages lead off in four directions." }
  world.branches:make_start(hub, { north = "examples.well_narrow", east = "examples.well_wide",
    south = "examples.well_narrow", west = "examples.well_wide" })
  return hub
end }
