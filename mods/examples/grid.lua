-- A grid of two hand-drawn maps joined by a transition (docs/grid.md): the
-- village of Hollin and the old mine east of it. A cart track leaves the
-- village at its east edge (the `T` there stands for the mine's mouth) and
-- the mine's `T` leads back; the bell tower's stair is an interrupt node, so
-- a walk through it stops there. Spawned and walked by scripts/grid.lua.
data:add{ _type = "base.legend", _id = "to_mine", symbol = "T", kind = "transition", target = { 0, 2, "mine" } }
data:add{ _type = "base.legend", _id = "to_village", symbol = "T", kind = "transition", target = { 2, 2, "village" } }

data:add{ _type = "base.prototype", _id = "village_lane", kind = "room", parent = "base.xyz_room",
  key = "A muddy lane", desc = "Cottages lean over the lane; smoke rises from their chimneys." }
data:add{ _type = "base.prototype", _id = "mine_tunnel", kind = "room", parent = "base.xyz_room",
  key = "A low tunnel", desc = "Timber props hold up a ceiling of dripping rock.",
  props = { light = "dim" } } -- set on every tunnel room (docs/grid.md)

data:add{ _type = "base.grid_map", _id = "village", z = "village",
  map = [[
+ 0 1 2 3 4

4     #-#
      | |
3 #-#-#-I
  |   |
2 #   #---T
  |  /
1 #-#
  |
0 #

+ 0 1 2 3 4
]],
  legend = { T = "examples.to_mine" },
  prototypes = {
    ["*,*"] = "examples.village_lane",
    ["0,0"] = { key = "The South Gate", desc = "A gate of grey planks, open by day. The lane runs north." },
    ["2,2"] = { key = "The Market Square", desc = "Stalls crowd the square. A cart track leaves it eastward." },
    ["2,2,e"] = { desc = "Rutted by ore carts, the track winds east towards the hills." },
    ["3,3"] = { key = "The Tower Stair", desc = "Narrow steps spiral up the bell tower." },
    ["3,4"] = { key = "The Bell Loft", desc = "The great bell hangs silent above the roofs." },
  },
  options = { map_visual_range = 2, map_mode = "nodes" } }

data:add{ _type = "base.grid_map", _id = "mine", z = "mine",
  map = [[
+ 0 1 2

2 #-#-#
  |   |
1 T   #
      |
0     #

+ 0 1 2
]],
  legend = { T = "examples.to_village" },
  prototypes = {
    ["*,*"] = "examples.mine_tunnel",
    ["0,2"] = { key = "The Mine Mouth", desc = "Daylight fades behind you; the track runs on into the dark." },
    ["0,2,s"] = { desc = "The cart track, back towards the village." },
    ["2,0"] = { key = "The Deep Gallery", desc = "A seam of copper glints in your lamplight." },
  },
  options = { map_visual_range = 1, map_mode = "nodes" } }
