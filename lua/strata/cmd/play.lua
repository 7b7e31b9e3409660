-- strata play [WORLD_FILE] [options]: explore a world in the terminal.
local strata = require "strata"
local cli = require "strata.cli"
local handle = require "strata.handle"

local M = {}

-- The keys, for --help and the in-game help (?).
local KEY_HELP = [[
  arrows, h j k l, y u b n   move (8 directions where the map allows; in a
                             room: the exits north, south, ..., northwest)
  < >                        stairs or an entrance under the player; in a
                             room: the exit up / down, else fly / dive
  :                          type an exit's name (or fly, dive), Enter to go
  f                          fight: clear a guarded branch room
  g                          auto-walk: on a tile map move the cursor; in a
                             room type the number of a room; Enter to go,
                             Esc to stop
  s                          save          q   save and quit
  ?                          this help
]]

M.spec = {
  name = "play",
  summary = "explore a world in the terminal",
  args = { { name = "WORLD_FILE", key = "file", kind = "path", optional = true,
    refuse_stdio = "a world file is an SQLite database, read and saved only as a file" } },
  description = [[Shows where the player is, a log of what happened and a status line. On a
tile map: the map around the player (area, floor, world time in the status
line). In a room (the grid world, dungeon branches): the room's name,
description and exits, on the grid the visual range around it, and in the
status line the grid map Z or the branch and its depth, and the world time.

Without WORLD_FILE, or when it does not exist yet, a new world starts from
an example (--example) and is saved to WORLD_FILE (default play.db); with
it, that world is opened and saved back to it.

keys:
]] .. KEY_HELP,
  options = {
    { name = "example", kind = "choice", choices = { "putit", "grid", "dungeon" }, arg = "NAME", help = [[
the world a new game starts from: putit (default: North
Tyris, the putit paradise dungeon down an entrance),
grid (the village of Hollin and its mine, rooms on XY
maps) or dungeon (the well and its dungeon branches)]] },
    { name = "mods", kind = "list", arg = "a,b", help = "mods to load (default: the world's own, or base,examples)" },
    { name = "mod-path", kind = "path", arg = "DIR", repeatable = true, help = "a directory to search for mods" },
    { name = "realtime", kind = "flag", help = "world time follows the clock (default: one second a move)" },
    { name = "script", kind = "path", stdio = "in", arg = "FILE", help = [[
read keys from FILE (- : standard input; words: a letter,
up, down, left, right, enter, esc, a number, :EXIT for a
typed exit) instead of the terminal; prints the last
screen without colour]] },
    { name = "seed", kind = "integer", arg = "N", default = 1, help = "seed of a new world" },
  },
  epilog = [[
Refuses to run without a terminal unless --script is given. Colours are
used unless NO_COLOR is set to something. Exit status 2 for a mistake in the
arguments.]],
}
-- every error is one line `strata: play: ...` (strata.cli), a library's too
M.names_errors = true
local function fail(msg) error("play: " .. msg, 0) end

local KEYS = { h = { -1, 0 }, l = { 1, 0 }, k = { 0, -1 }, j = { 0, 1 },
  y = { -1, -1 }, u = { 1, -1 }, b = { -1, 1 }, n = { 1, 1 },
  up = { 0, -1 }, down = { 0, 1 }, left = { -1, 0 }, right = { 1, 0 } }
local ARROWS = { ["\27[A"] = "up", ["\27[B"] = "down", ["\27[C"] = "right", ["\27[D"] = "left",
  ["\27OA"] = "up", ["\27OB"] = "down", ["\27OC"] = "right", ["\27OD"] = "left" }
local COLORS = { black = "30", red = "31", green = "32", brown = "33", yellow = "93", blue = "34",
  magenta = "35", cyan = "36", white = "37;1", gray = "90", grey = "90", orange = "33;1" }

-- The worlds a new game starts from: each puts the player in it and says where.
local EXAMPLES = {
  putit = function(w)
    local p = w:create_actor{ player = true }
    w:travel(p, w:get_or_create_map("examples.north_tyris"))
    return p, "a new world: North Tyris; the putit paradise is down an entrance (>)"
  end,
  grid = function(w)
    w.grid:add("examples.village", "examples.mine")
    w.grid:spawn()
    local p = w:create_actor{ room = w.grid:room(0, 0, "village"), player = true }
    return p, "a new world: the village of Hollin; the old mine is east of the market"
  end,
  dungeon = function(w)
    local hub = w.data["base.handler"]:ensure("examples.well_setup").run(w)
    local p = w:create_actor{ room = hub, player = true }
    return p, "a new world: the bottom of the well; each passage leads into a dungeon branch"
  end,
}

-- ---- the game ---------------------------------------------------------------------------------
local Game = {}
Game.__index = Game

local function new_game(o)
  local g = setmetatable({ log = {}, color = o.color, width = 80, height = 24 }, Game)
  if o.file and io.open(o.file, "rb") then
    g.world = cli.call("strata.world.open", strata.world.open, o.file, { mods = o.mods, mod_path = o.mod_path })
    g.file = o.file
    g:say("opened " .. o.file .. (o.example and " (it exists: --example not used)" or ""))
  else
    g.world = cli.call("strata.world.new", strata.world.new,
      { seed = o.seed, mods = o.mods or { "base", "examples" }, mod_path = o.mod_path })
    g.file = o.file or "play.db"
  end
  local w = g.world
  -- What dungeon branches tell a player (base.branch_message) goes to the log:
  -- what is said to the player, and who stumbles into the player's room.
  require("strata.mods").register_event(w._registry, "play", "base.branch_message", "play: messages",
    function(_, p)
      local me = g.player and p.actor and p.actor.uid == g.player.uid
      local here = g.player and g.player.room and p.room and g.player.room.uid == p.room.uid
      if (p.kind == "stumble" and here and not me) or (p.kind ~= "stumble" and me) then
        for line in tostring(p.text):gmatch("[^\n]+") do g:say(line) end
      end
    end)
  g.player = w:player()
  if not g.player then
    local msg
    g.player, msg = EXAMPLES[o.example or "putit"](w)
    g:say(msg)
  end
  g.rooms = g.player.room ~= nil
  if not g.rooms and not g.player.map then
    fail(("the player (%s) of %s is on no map and in no room"):format(tostring(g.player), g.file))
  end
  return g
end

function Game:say(msg)
  self.log[#self.log + 1] = msg
  if #self.log > 200 then table.remove(self.log, 1) end
end

function Game:feature_here()
  local p = self.player
  for f in p.map:features() do
    if f.x == p.x and f.y == p.y then return f end
  end
end

-- Handler failures of an advance (world:advance's list) go to the log.
function Game:report(failures)
  for _, f in ipairs(failures) do
    self:say(("a handler failed: %s (%s)"):format(f.handler, f.message))
  end
end

-- (each second of a walk looks around: what it passes is remembered)
function Game:pass_time(dt)
  self:report(self.world:advance(dt))
  local p = self.player
  if not self.rooms and p.map then self:look(p.map, p) end
end

function Game:take(dir)
  local f = self:feature_here()
  local down = f and (f.type == "entrance" or (f.floor_delta or 0) > 0)
  local up = f and f.type == "stairs" and f.floor_delta < 0
  if not f or (dir == ">" and not down) or (dir == "<" and not up) then
    self:say(dir == ">" and "there is no way down here" or "there is no way up here")
    return
  end
  local m, why = self.world:travel(self.player, f)
  if not m then self:say(why) return end
  local area = m.area
  self:say(area and ("you enter %s, floor %d"):format(area.archetype, m.floor) or "you arrive")
end

-- The name of an actor's archetype without its mod ("crypt.ghoul": "ghoul"), or nil.
local function short_name(a) return a.archetype and a.archetype:match("([^.]*)$") end

function Game:step(dx, dy)
  local p = self.player
  local m, x, y = p.map, p.x + dx, p.y + dy
  -- world:move lets actors share a cell (map:occupied counts them); the player
  -- does not walk into one
  if x >= 0 and y >= 0 and x < m.width and y < m.height and m:occupied(x, y) then
    for _, a in ipairs(m:objects("actor")) do
      if a.x == x and a.y == y then
        self:say(handle.a(short_name(a) or "someone") .. " is in the way")
        return
      end
    end
  end
  local ok, why = self.world:move(p, x, y)
  if not ok then self:say(why) return end
  if not self.realtime then self:pass_time(1) end
  local f = self:feature_here()
  if f then self:say(f.type == "entrance" and "an entrance is here (>)" or
    ("stairs %s are here (%s)"):format(f.floor_delta > 0 and "down" or "up", f.floor_delta > 0 and ">" or "<")) end
end

function Game:save()
  self.world:save(self.file)
  self:say("saved to " .. self.file)
end

-- Auto-walk: a stored walk to the cursor; in turn-based play, time runs until it ends.
function Game:walk_to(x, y)
  local plan = self.world:walk(self.player, { x, y }, { step_every = 1 })
  if self.realtime then self.walking = plan return end
  local guard = 0
  while plan.state == "walking" and guard < 10000 do
    self:pass_time(1)
    guard = guard + 1
  end
  self:say(plan.state == "arrived" and "you arrive" or "the way is " .. plan.state)
end

-- ---- rooms: the grid world and dungeon branches --------------------------------------------------
local EXIT_OF = { h = "west", l = "east", k = "north", j = "south", y = "northwest", u = "northeast",
  b = "southwest", n = "southeast", up = "north", down = "south", left = "west", right = "east" }

function Game:went(what)
  if not self.realtime then self:pass_time(1) end
  local r = self.player.room
  self:say(("%s: %s"):format(what, r.name))
end

-- Through the exit named (or aliased) dir; errors of mods' handlers and
-- generators are not swallowed: they end the game with the terminal restored.
function Game:go(dir)
  local ok, why = self.world:go(self.player, dir)
  if not ok then self:say(why) return false end
  self:went("you go " .. dir)
  return true
end

function Game:level(up)
  local room = self.player.room
  if room:exit(up and "up" or "down") then return self:go(up and "up" or "down") end
  if room.z == nil then self:say(up and "there is no way up here" or "there is no way down here") return end
  local ok, why = self.world.grid[up and "fly" or "dive"](self.world.grid, self.player)
  if not ok then self:say(why) return end
  self:went(up and "you fly up" or "you dive down")
end

function Game:command(text)
  text = text:match("^%s*(.-)%s*$")
  if text == "" then return end
  if text == "fly" then self:level(true)
  elseif text == "dive" then self:level(false)
  else self:go(text) end
end

-- Rooms auto-walk may go to: the grid's rooms, or the player's branch and its hub.
function Game:walk_targets()
  local room = self.player.room
  if room.z ~= nil then return self.world.grid:rooms{} end
  local branch = room.branch
  if not branch then
    for _, b in ipairs(self.world.branches:list()) do
      for _, m in ipairs(b:members()) do if m.uid == self.player.uid then branch = b end end
    end
  end
  if not branch then return {} end
  local list = { branch.hub }
  for _, r in ipairs(branch:rooms()) do list[#list + 1] = r end
  return list
end

-- A branch is no grid (world:walk routes with world.grid:path): a shortest way
-- by the exits that lead somewhere, walked one exit a second of world time.
local function route_by_exits(from, to)
  local prev, queue, seen = {}, { from }, { [from.uid] = true }
  local i = 1
  while queue[i] do
    local r = queue[i]
    i = i + 1
    if r.uid == to.uid then
      local names, at = {}, r
      while prev[at.uid] do
        table.insert(names, 1, prev[at.uid].name)
        at = prev[at.uid].from
      end
      return names
    end
    for _, e in ipairs(r:exits()) do
      local t = e.to
      if t and not seen[t.uid] then seen[t.uid] = true prev[t.uid] = { name = e.name, from = r } queue[#queue + 1] = t end
    end
  end
end

function Game:walk_to_room(target)
  local p = self.player
  if p.room.uid == target.uid then self:say("you are there") return end
  if target.z ~= nil and p.room.z ~= nil then
    local ok, plan = pcall(self.world.walk, self.world, p, target, { step_every = 1 })
    if not ok then self:say(tostring(plan)) return end
    if self.realtime then self.walking = plan return end
    local guard = 0
    while plan.state == "walking" and guard < 10000 do
      self:pass_time(1)
      guard = guard + 1
    end
    self:say(plan.state == "arrived" and "you arrive: " .. p.room.name or "the walk is " .. plan.state)
    return
  end
  local names = route_by_exits(p.room, target)
  if not names then self:say("no known way to " .. target.name) return end
  for _, name in ipairs(names) do
    local ok, why = self.world:go(p, name)
    if not ok then self:say("the walk stops: " .. why) return end
    if not self.realtime then self:pass_time(1) end
  end
  self:say("you arrive: " .. p.room.name)
end

-- The keys every screen shares: save, quit (false: the game ends), help,
-- Esc (stops a walk). True: go on.
function Game:common_key(k)
  if k == "s" then self:save()
  elseif k == "q" then self:save() return false
  elseif k == "?" then self.help = true
  elseif (k == "esc" or k == "\27") and self.walking then
    self.walking:cancel() self.walking = nil self:say("walk cancelled")
  end
  return true
end

function Game:room_key(k)
  if self.prompt then
    if k == "enter" or k == "\r" or k == "\n" then
      local text = self.prompt
      self.prompt = nil
      self:command(text)
    elseif k == "esc" or k == "\27" then self.prompt = nil
    elseif k == "\127" or k == "\8" then self.prompt = self.prompt:sub(1, -2)
    elseif k == " " or (k:match("^%g+$") and not (#k > 1 and KEYS[k])) then self.prompt = self.prompt .. k end  -- arrows: not text
    return true
  end
  if self.menu then
    if k:match("^%d+$") then self.menu.text = self.menu.text .. k
    elseif k == "\127" or k == "\8" then self.menu.text = self.menu.text:sub(1, -2)
    elseif k == "enter" or k == "\r" or k == "\n" then
      local menu = self.menu
      self.menu = nil
      local target = menu.rooms[tonumber(menu.text)]
      if target then self:walk_to_room(target) else self:say("no room numbered '" .. menu.text .. "'") end
    elseif k == "esc" or k == "\27" then
      self.menu = nil
      self:say("auto-walk cancelled")
    end
    return true
  end
  if k:sub(1, 1) == ":" and #k > 1 then self:command(k:sub(2))   -- a script's typed exit
  elseif EXIT_OF[k] then self:go(EXIT_OF[k])
  elseif k == "<" or k == ">" then self:level(k == "<")
  elseif k == ":" then self.prompt = ""
  elseif k == "f" then
    local room = self.player.room
    if room.clear == false then
      room:set_clear(true)
      self:say("you clear " .. room.name .. "; its exits are open")
      if not self.realtime then self:pass_time(1) end
    else self:say("there is nothing to fight here") end
  elseif k == "g" then
    local rooms = self:walk_targets()
    if #rooms == 0 then self:say("no rooms to walk to from here") return true end
    self.menu = { rooms = rooms, text = "" }
    self:say("auto-walk: type a room's number, Enter to go, Esc to stop")
  else return self:common_key(k)
  end
  return true
end

-- The room: name, description, exits, the visual range on the grid, the log, the status line.
function Game:room_screen()
  local p, w = self.player, self.world
  local room = p.room
  local out = {}
  if room.z ~= nil then
    -- a grid room shows itself as the reference's rooms do: the map between separators,
    -- the name, the description, the exits (room:appearance, with the map's options)
    local text = strata.markup.render(room:appearance{ width = math.min(1000, math.max(20, self.width - 1)) },
      { color = self.color }) -- (1000: the widest appearance, docs/grid.md)
    for line in (text .. "\n"):gmatch("([^\n]*)\n") do out[#out + 1] = line end
  else
    out[1] = self.color and ("\27[1m%s\27[0m"):format(room.name) or room.name
    if room.desc and room.desc ~= "" then out[#out + 1] = room.desc end
  end
  if room.clear == false then
    local names = {}
    for i, m in ipairs(type(room.props.monsters) == "table" and room.props.monsters or {}) do names[i] = tostring(m.name) end
    out[#out + 1] = ("guarded%s: the exits but the way back are closed until it is cleared (f)")
      :format(#names > 0 and " by " .. table.concat(names, ", ") or "")
  end
  if room.z == nil then
    local exits = {}
    for _, e in ipairs(room:exits()) do
      -- off the grid, an exit that leads nowhere is a branch's way on, made when crossed
      exits[#exits + 1] = e.name .. (e.to ~= nil and "" or " (unexplored)")
    end
    out[#out + 1] = "exits: " .. (#exits > 0 and table.concat(exits, ", ") or "none")
  end
  if self.menu then
    out[#out + 1] = ""
    -- as many as the terminal holds (a script's screen: all); the others still answer to their numbers
    local rooms = self.menu.rooms
    local shown = self.script and #rooms or math.max(3, self.height - 14)
    for i, r in ipairs(rooms) do
      if i > shown then out[#out + 1] = ("     ... %d more, up to %d"):format(#rooms - shown, #rooms) break end
      local where = r.z ~= nil and ("(%d, %d, %s)"):format(r.x, r.y, r.z)
        or r.cell and ("(%d, %d)"):format(r.cell.x, r.cell.y) or "(hub)"
      out[#out + 1] = ("%3d  %s %s"):format(i, r.name, where)
    end
    out[#out + 1] = "walk to: " .. self.menu.text
  end
  out[#out + 1] = ""
  for i = math.max(1, #self.log - 3), #self.log do out[#out + 1] = self.log[i] end
  if self.prompt then out[#out + 1] = "exit: " .. self.prompt end
  local where
  if room.z ~= nil then where = ("grid map %s | (%d, %d)"):format(room.z, room.x, room.y)
  elseif room.branch then
    where = ("branch#%d | depth %d | cell (%d, %d)"):format(room.branch.uid, room.depth, room.cell.x, room.cell.y)
  else where = room.name end
  out[#out + 1] = ("%s | time %g"):format(where, w.time)
  return table.concat(out, "\n")
end

-- One key; returns false to quit.
function Game:key(k)
  self.help = nil
  if self.rooms then return self:room_key(k) end
  if self.cursor then
    local d = KEYS[k]
    if d then
      local c, m = self.cursor, self.player.map
      c[1] = math.max(0, math.min(m.width - 1, c[1] + d[1]))
      c[2] = math.max(0, math.min(m.height - 1, c[2] + d[2]))
    elseif k == "enter" or k == "\r" or k == "\n" then
      local c = self.cursor
      self.cursor = nil
      self:walk_to(c[1], c[2])
    elseif k == "esc" or k == "\27" then
      self.cursor = nil
      self:say("auto-walk cancelled")
    end
    return true
  end
  local d = KEYS[k]
  if d then self:step(d[1], d[2])
  elseif k == "<" or k == ">" then self:take(k)
  elseif k == "g" then
    self.cursor = { self.player.x, self.player.y }
    self:say("auto-walk: move the cursor, Enter to go, Esc to stop")
  else return self:common_key(k)
  end
  return true
end

-- What the player sees, on a map whose tokens block sight (one of them has
-- transparent = false): the cells in view (map:fov from the player), and the
-- cells seen before on this map, kept by this session as a visibility set
-- per map, not saved (a reopened world starts unexplored). nil: no token
-- blocks sight, every cell is drawn. Called by each draw and each second.
function Game:look(m, p)
  local tt = require("strata.tiles").of(m).token_table
  local blocks = false
  for _, name in ipairs(tt:names()) do
    if not tt:traits(name).transparent then blocks = true break end
  end
  if not blocks then return nil end
  self.view = m:fov(p.x, p.y, { into = self.view })
  self.memory = self.memory or {}
  local seen = self.memory[m.uid]
  if seen then seen:add(self.view) else self.memory[m.uid] = m:fov(p.x, p.y) end
  return self.view, self.memory[m.uid]
end

-- The screen: the map around the player, the log, the status line. Cells
-- out of sight are blank, or dimmed when seen before (Game:sight).
function Game:screen()
  if self.help then return "keys (any key to go on):\n" .. KEY_HELP:gsub("\n$", "") end
  if self.rooms then return self:room_screen() end
  local p, w = self.player, self.world
  local m = p.map
  local rows = {}
  for line in (m:render() .. ""):gmatch("([^\n]*)\n") do rows[#rows + 1] = line end
  local view, seen = self:look(m, p)
  local marks, colors = {}, {}
  for f in m:features() do
    marks[f.y * m.width + f.x] = f.type == "entrance" and ">" or (f.floor_delta > 0 and ">" or "<")
  end
  -- the other actors where the player sees them now (never remembered: they move)
  local archetypes = w.data["base.actor_archetype"]
  for _, a in ipairs(m:objects("actor")) do
    if not view or view:visible(a.x, a.y) then
      local arch = a.archetype and archetypes:get(a.archetype)
      local i = a.y * m.width + a.x
      marks[i] = arch and arch.glyph or (short_name(a) or "&"):sub(1, 1)
      colors[i] = arch and COLORS[arch.color]
    end
  end
  marks[p.y * m.width + p.x] = "@"
  if self.cursor then marks[self.cursor[2] * m.width + self.cursor[1]] = "X" end
  local view_h = math.max(3, self.height - 7)
  local view_w = math.max(10, self.width)
  local x0 = math.max(0, math.min(m.width - view_w, p.x - view_w // 2))
  local y0 = math.max(0, math.min(m.height - view_h, p.y - view_h // 2))
  local tokens = w._s:tokens()
  local out = {}
  for y = y0, math.min(m.height - 1, y0 + view_h - 1) do
    local cells = {}
    local row = rows[y + 1] or ""
    for x = x0, math.min(m.width - 1, x0 + view_w - 1) do
      local mark = marks[y * m.width + x]
      local ch = mark or row:sub(x + 1, x + 1)
      local in_view = not view or view:visible(x, y)
      if not in_view and mark ~= "@" and mark ~= "X" and not seen:visible(x, y) then ch = " " end
      if self.color and ch ~= " " then
        local col
        if mark == "@" or mark == "X" or (mark and in_view) then
          col = mark == "@" and "1;37" or colors[y * m.width + x] or "1;33"
        elseif not in_view then col = "90"
        else
          local top = m:top(x, y)
          local tr = top and tokens:traits(top)
          col = tr and COLORS[tr.color]
        end
        if col then ch = "\27[" .. col .. "m" .. ch .. "\27[0m" end
      end
      cells[#cells + 1] = ch
    end
    out[#out + 1] = table.concat(cells)
  end
  out[#out + 1] = ""
  for i = math.max(1, #self.log - 3), #self.log do out[#out + 1] = self.log[i] end
  local area = m.area
  out[#out + 1] = ("%s | floor %s | (%d, %d) | time %g"):format(area and area.archetype or "no area",
    m.floor or "-", p.x, p.y, w.time)
  return table.concat(out, "\n")
end

-- ---- driving it ------------------------------------------------------------------------------
local function script_keys(path)
  local f = path == "-" and io.stdin or io.open(path, "r")
  if not f then fail("cannot read " .. path) end
  local text = f:read("a")
  if f ~= io.stdin then f:close() end
  local keys = {}
  for word in text:gmatch("%S+") do keys[#keys + 1] = word end
  return keys
end

local function run_script(g, path)
  g.script = true
  for _, k in ipairs(script_keys(path)) do
    if not g:key(k) then break end
  end
  io.stdout:write(g:screen(), "\n")
  return 0
end

-- A writer of whole texts to the terminal's luv stream: fn(text) returns once
-- every byte is written, or raises "play: cannot write to the terminal: ...".
-- uv.new_tty reopens the terminal non-blocking, where one write of a frame
-- larger than the terminal's buffer (~20 KB in colour at 100x40) takes only a
-- part; io.stdout then dropped the rest, and the log and status line never
-- showed. The stream is made blocking instead: a full buffer waits for the
-- terminal to drain, without spinning, and the loop completes a write that a
-- signal cut short. EAGAIN cannot come back from a blocking stream: if it
-- does, it is an error like the others, never a retry.
function M.writer(stream)
  local ok, err = stream:set_blocking(true)
  if not ok then fail("cannot write to the terminal: " .. tostring(err)) end
  return function(text)
    local i = 1
    while i <= #text do
      local n, werr = stream:try_write(i == 1 and text or text:sub(i))
      if not n then fail("cannot write to the terminal: " .. tostring(werr)) end
      i = i + n
    end
  end
end

-- The terminal: raw mode, restored on every way out (the end, an error, a signal).
local function run_tty(g, o)
  local uv = require "luv"
  local stdin = uv.new_tty(0, true)
  local stdout = uv.new_tty(1, false)
  local write = M.writer(stdout)
  local restored = false
  local signals = {}
  local err
  local function restore()
    if restored then return end
    restored = true
    pcall(write, "\27[?25h\27[0m\n")   -- the terminal may be what failed
    uv.tty_reset_mode()
    if not stdin:is_closing() then stdin:read_stop() stdin:close() end
    if not stdout:is_closing() then stdout:close() end
    for _, s in ipairs(signals) do if not s:is_closing() then s:close() end end
    if g.realtime_run then g.realtime_run:stop("quit") end
  end
  local function draw()
    local w, h = stdout:get_winsize()
    g.width, g.height = w or 80, h or 24
    write("\27[H\27[2J" .. g:screen())
  end
  -- A draw from the loop (clock, resize): a failure ends play with its message.
  local function redraw()
    local ok, e = pcall(draw)
    if not ok then err = err or e restore() end
  end
  local ok, e = pcall(function()
    stdin:set_mode(1)
    write("\27[?25l")
    if o.realtime then
      g.realtime = true
      g.realtime_run = g.world:run_realtime{ scale = 1, tick = 0.25,
        on_error = function(_, failures) g:report(failures) end }
      local t = uv.new_timer()
      signals[#signals + 1] = t
      t:start(250, 250, redraw)
    end
    for _, name in ipairs{ "sigint", "sigterm" } do
      local s = uv.new_signal()
      s:start(name, function() pcall(g.save, g) restore() end)
      signals[#signals + 1] = s
    end
    local winch = uv.new_signal()
    winch:start("sigwinch", redraw)
    signals[#signals + 1] = winch
    draw()
    stdin:read_start(function(rerr, data)
      if rerr or not data then restore() return end
      local okk, ke = pcall(function()
        -- One read may hold several keys (typed ahead, pasted): each in turn.
        local i = 1
        while i <= #data do
          local k = ARROWS[data:sub(i, i + 2)]
          if k then i = i + 3
          else
            local c = data:sub(i, i)
            k = (c == "\r" and "enter") or (c == "\27" and "esc") or c
            i = i + 1
          end
          if not g:key(k) then restore() return end
        end
        draw()
      end)
      if not okk then err = ke restore() end
    end)
    uv.run("default")
  end)
  restore()
  if not ok then error(e, 0) end
  if err then error(err, 0) end
  return 0
end

function M.run(o)
  local uv_ok, uv = pcall(require, "luv")
  local is_tty = uv_ok and uv.guess_handle(0) == "tty" and uv.guess_handle(1) == "tty"
  if not o.script and not is_tty then fail("needs a terminal (or --script FILE to read keys from a file)") end
  o.color = not o.script and cli.color(1)
  local g = new_game(o)
  if o.script then return run_script(g, o.script) end
  return run_tty(g, o)
end

return M
