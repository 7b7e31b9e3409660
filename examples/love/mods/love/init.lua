-- The LÖVE example's IDs for Lua 5.4 (`strata play WORLD --mod-path
-- examples/love/mods`): the game (examples/love/game.lua, under LuaJIT)
-- registers the same with the same logic. Its floors are all made when a game
-- starts, so the crypt here needs no generator.
data:add{ _type = "base.area_archetype", _id = "crypt", deepest_floor = 2 }
data:add{ _type = "base.actor_archetype", _id = "ghoul", glyph = "g", events = { { id = "base.turn_started",
  handler = function(ghoul)  -- a step down the hero's distance map each turn, to the hero's side
    local hero = ghoul.world:player()
    if hero.map ~= ghoul.map then return end
    local x, y = ghoul.map:distance_map({ hero }, { connectivity = 8 }):step_down(ghoul.x, ghoul.y)
    if x and (x ~= hero.x or y ~= hero.y) then ghoul.world:move(ghoul, x, y) end
  end } } }
