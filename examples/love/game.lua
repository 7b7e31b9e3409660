-- examples/love/game.lua: the game's logic, plain LuaJIT over strata.ffi (no
-- love.* here: main.lua draws it and feeds it keys; spec/luajit/love_jit.lua
-- plays it without LÖVE). A crypt of two floors made by a layout, a hero who
-- sees what the walls let him (map:fov), a ghoul stepping down the hero's
-- distance map on each of its turns, stairs between the floors, save
-- and load. The world file opens in `strata play FILE --mod-path
-- examples/love/mods`: mods/love declares the same IDs for Lua 5.4.
local strata = require "strata.ffi"

local M = {}
local Game = {}
Game.__index = Game

M.width, M.height = 40, 20
M.radius = 8

-- The floors' layout (the layout language, docs/layouts.md): rooms joined by corridors.
local LEVEL = assert(strata.layout.parse([[ {
  Reset("wall")
  Place(minSize = {5 4} maxSize = {9 6} count = {4 6} minSpacing = 1 generator = Margins(1, None, Reset("floor")))
  Connect(On("floor"), (1, On("floor"), None), (4, On("wall"), Reset("floor")))
} ]], "love.level"))

-- The floor's passable cells, in row order.
local function open_cells(map)
  local cells = {}
  for y = 0, map.height - 1 do
    for x = 0, map.width - 1 do
      if map:passable(x, y) then cells[#cells + 1] = { x, y } end
    end
  end
  return cells
end

-- The logic the world finds by ID: floors of the crypt.
local function registry()
  local data = strata.world.registry()
  data:add{ _type = "base.area_generator", _id = "love.floors", generate_floor = function(_, floor, ctx)
    local map = ctx.world:create_map{ width = M.width, height = M.height }
    assert(strata.layout.generate(LEVEL, map, { rng = ctx.rng, attempts = 20 }))
    local cells = open_cells(map)
    local here = table.remove(cells, ctx.rng:int(#cells))   -- stairs (floor 1: where the hero starts)
    local ghoul = table.remove(cells, ctx.rng:int(#cells))
    if floor == 1 then
      map:write("props.start", here)
      local down = cells[ctx.rng:int(#cells)]
      ctx.world:create_stairs(map, down[1], down[2], { floor_delta = 1 })
    else
      ctx.world:create_stairs(map, here[1], here[2], { floor_delta = -1 })
    end
    ctx.world:add_turns(ctx.world:create_actor{ archetype = "love.ghoul", map = map, x = ghoul[1], y = ghoul[2] })
    return map
  end }
  -- On each of its turns (a second of world time: the hero's step), a ghoul
  -- steps down the hero's distance map, to his side (mods/love: the same in 5.4).
  data:add{ _type = "base.actor_archetype", _id = "love.ghoul", events = { { id = "base.turn_started",
    handler = function(ghoul)
      local hero = ghoul.world:player()
      if hero.map ~= ghoul.map then return end
      local x, y = ghoul.map:distance_map({ hero }, { connectivity = 8 }):step_down(ghoul.x, ghoul.y)
      if x and (x ~= hero.x or y ~= hero.y) then ghoul.world:move(ghoul, x, y) end
    end } } }
  data:add{ _type = "base.area_archetype", _id = "love.crypt", generator = "love.floors", deepest_floor = 2 }
  return data
end

-- The world's token traits (a 5.4 world takes them from base's base.token entries).
local function tokens(world)
  world.tokens:define("wall", { passable = false, glyph = "#" })
  world.tokens:define("floor", { passable = true, glyph = "." })
  return world
end

-- A new game: both floors made now, so that any host opens every floor
-- (Lua 5.4's mod declares the crypt, not its generator).
function M.new(seed, path)
  local world = tokens(strata.world.new{ seed = seed, data = registry(), mods = { { id = "love", version = "0.1.0" } } })
  local crypt = assert(world:create_area("love.crypt"))
  local first = assert(crypt:floor(1))
  assert(crypt:floor(2))
  local start = first:read("props.start")
  world:create_actor{ map = first, x = start[1], y = start[2], player = true }
  return setmetatable({ world = world, path = path, seen = {}, log = "new game" }, Game)
end

-- The game saved at path, opened again (nil, reason when it cannot be).
function M.load(path)
  local world, why = strata.world.open(path, { data = registry() })
  if not world then return nil, why end
  return setmetatable({ world = tokens(world), path = path, seen = {}, log = "loaded" }, Game)
end

function Game:hero() return self.world:player() end

-- What the hero sees now (a visibility set), and what he saw on this floor.
function Game:sight()
  local hero = self:hero()
  local map = hero.map
  local fov = map:fov(hero.x, hero.y, { radius = M.radius })
  local seen = self.seen[map.uid] or {}
  self.seen[map.uid] = seen
  for x, y in fov:cells() do seen[y * map.width + x] = true end
  return fov, seen
end

-- The feature on (x, y) of map of that floor_delta, or nil.
local function stairs_at(map, x, y, delta)
  for f in map:features() do
    if f.floor_delta == delta and (x == nil or (f.x == x and f.y == y)) then return f end
  end
end
M.stairs_at = stairs_at

-- A step of the hero, a second of world time: the ghouls' turns.
function Game:step(dx, dy)
  local hero = self:hero()
  local ok, why = self.world:move(hero, hero.x + dx, hero.y + dy)
  if not ok then self.log = why return false end
  local failed = self.world:advance(1)
  assert(#failed == 0, failed[1] and failed[1].message)
  self.log = ("at %d, %d"):format(hero.x, hero.y)
  return true
end

-- Down (delta 1) or up (-1) the stairs the hero stands on.
function Game:stairs(delta)
  local hero = self:hero()
  local f = stairs_at(hero.map, hero.x, hero.y, delta)
  if not f then self.log = "no stairs here" return false end
  local map = assert(self.world:travel(hero, f))
  self.log = ("floor %d"):format(map.floor)
  return true
end

-- The hero walks to this floor's stairs (down on the first, up on the
-- second), a step at a time, the ghouls acting after each.
function Game:walk_to_stairs()
  local hero = self:hero()
  local f = stairs_at(hero.map, nil, nil, hero.map.floor == 1 and 1 or -1)
  local path = assert(hero.map:find_path({ hero.x, hero.y }, { f.x, f.y }, { connectivity = 8 }))
  for i = 1, #path do
    local x, y = path:xy(i)
    if x ~= hero.x or y ~= hero.y then self:step(x - hero.x, y - hero.y) end
  end
  return true
end

function Game:save()
  local ok, why = self.world:save(self.path)
  self.log = ok and ("saved to " .. self.path) or why
  return ok, why
end

-- The keys: h j k l y u b n (and the arrows: main.lua) step, > < the
-- stairs, g to the stairs, s save; L (load) is main.lua's (a new Game).
local STEPS = { h = { -1, 0 }, l = { 1, 0 }, k = { 0, -1 }, j = { 0, 1 },
                y = { -1, -1 }, u = { 1, -1 }, b = { -1, 1 }, n = { 1, 1 } }
function Game:key(key)
  local d = STEPS[key]
  if d then return self:step(d[1], d[2]) end
  if key == ">" then return self:stairs(1) end
  if key == "<" then return self:stairs(-1) end
  if key == "g" then return self:walk_to_stairs() end
  if key == "s" then return self:save() end
  return false
end

-- What a cell shows: "hero", "ghoul", "stairs", "wall", "floor" (and
-- whether in sight), or nil when never seen. fov, seen: Game:sight()'s.
function Game:cell(x, y, fov, seen)
  local hero = self:hero()
  local map = hero.map
  local visible = fov:visible(x, y)
  if not visible and not seen[y * map.width + x] then return nil end
  if x == hero.x and y == hero.y then return "hero", true end
  if visible then
    for _, a in ipairs(map:objects("actor")) do
      if a.x == x and a.y == y then return "ghoul", true end
    end
  end
  for f in map:features() do
    if f.x == x and f.y == y then return "stairs", visible end
  end
  return map:passable(x, y) and "floor" or "wall", visible
end

return M
