-- scripts/pictures.lua DIR: the README's pictures (run by scripts/pictures).
local dir = assert(arg[1], "usage: strata run scripts/pictures.lua DIR")

-- A floor of the crypt mod (spec/fixtures/mods/crypt), the route from its
-- stairs up to its stairs down drawn over it.
local world = strata.world.new{ seed = 7, mods = { "crypt" }, mod_path = { "spec/fixtures/mods" } }
local floor = world:create_area("crypt.crypt"):floor(1)
local up, down
for f in floor:features() do
  if f.floor_delta == -1 then up = f else down = f end
end
local route = assert(floor:find_path(up, down, { connectivity = 8 }))
local png = assert(io.open(dir .. "/crypt.png", "wb"))
png:write(floor:to_png{ cell = 12, path = route })
png:close()

-- An XY map in Evennia's language, the route between two corners highlighted.
local xy = strata.xymap.parse([[
+ 0 1 2 3 4 5

5 #-#-#-#-#-#
  |   |     |
4 # #-#-#   #
  |  /   \  |
3 #-#     #-#
  | |     |
2 # #-#-#-# #
  |   |   | |
1 #-#-# #-#-#
      |     |
0 #-#-#-#-#-#

+ 0 1 2 3 4 5
]])
local svg = assert(io.open(dir .. "/xymap.svg", "w"))
svg:write(xy:to_svg{ cell = 16, from = { 0, 0 }, to = { 3, 4 } })
svg:close()
print("pictures written to " .. dir)
