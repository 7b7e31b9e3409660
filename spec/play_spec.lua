-- strata play (issue "See it and drive it"): driven by --script through the
-- examples' dungeon, two floors down, saved, reopened where the player was;
-- without a terminal it refuses; after a failing hook the terminal is restored.
-- In rooms: across the grid example's transition and into the dungeon branches
-- of the well, by keys, saved, reopened where the player was. A frame larger
-- than the terminal's buffer is written whole (the terminal is non-blocking).
local strata = require "strata"
local support = require "support"
local uv = require "luv"

local bin = os.getenv("STRATA_BIN")
local root = os.getenv("STRATA_SOURCE_DIR") or "."

-- Keys that walk the cursor from the player to (x, y), then go there.
local function walk_keys(player, x, y)
  local keys = { "g" }
  for _ = 1, math.abs(x - player.x) do keys[#keys + 1] = x > player.x and "l" or "h" end
  for _ = 1, math.abs(y - player.y) do keys[#keys + 1] = y > player.y and "j" or "k" end
  keys[#keys + 1] = "enter"
  return table.concat(keys, " ")
end

local function stairs(map, pred)
  for f in map:features() do if pred(f) then return f end end
end

local function play(dir, keys, extra)
  support.write(dir .. "/keys.txt", keys)
  return support.sh(("cd %s && %s play w.db --script keys.txt %s"):format(dir, bin, extra or ""))
end

-- The key of each short direction of a grid route.
local KEY_OF = { n = "k", s = "j", e = "l", w = "h", ne = "u", nw = "y", se = "n", sw = "b" }

local function index_of(list, room)
  for i, r in ipairs(list) do if r.uid == room.uid then return i end end
end

describe("strata play", function()
  it("descends two floors by the keys of a script, saves, and reopens where it stopped", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    -- a world where the player stands in North Tyris
    local w = strata.world.new{ seed = 4, mods = { "base", "examples" } }
    local hero = w:create_actor{ player = true }
    local tyris = w:travel(hero, w:get_or_create_map("examples.north_tyris"))
    local door = stairs(tyris, function(f) return f.type == "entrance" end)
    w:save(dir .. "/w.db")

    local out, code = play(dir, walk_keys(hero, door.x, door.y) .. " > s q")
    assert.equal(0, code, out)
    assert.matches("you enter examples.putit_paradise, floor 1", out)
    assert.matches("examples.putit_paradise | floor 1 |", out)
    for floor = 2, 3 do
      local again = strata.world.open(dir .. "/w.db")
      local p = again:player()
      local down = stairs(p.map, function(f) return f.type == "stairs" and f.floor_delta > 0 end)
      out, code = play(dir, walk_keys(p, down.x, down.y) .. " > q")
      assert.equal(0, code, out)
      assert.matches("you enter examples.putit_paradise, floor " .. floor, out)
    end
    local last = strata.world.open(dir .. "/w.db")
    local p = last:player()
    assert.equal(3, p.map.floor)
    local up = stairs(p.map, function(f) return f.type == "stairs" and f.floor_delta < 0 end)
    assert.same({ up.x, up.y }, { p.x, p.y })       -- arrived on the stairs leading back
    assert.is_true(last.time > 0)                   -- time moved a second per step
    os.execute("rm -rf " .. dir)
  end)

  it("shows the keys on ?, the same list as --help's", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    local out, code = play(dir, "?")
    assert.equal(0, code, out)
    assert.matches("keys %(any key to go on%):\n", out)
    local help = support.sh(bin .. " play --help")
    for _, line in ipairs{ "auto%-walk: on a tile map move the cursor", "save          q   save and quit" } do
      assert.matches(line, out)
      assert.matches(line, help)
    end
    os.execute("rm -rf " .. dir)
  end)

  it("refuses without a terminal, in one line", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local out, code = support.sh(bin .. " play < /dev/null")
    assert.equal(1, code)
    assert.equal("strata: play: needs a terminal (or --script FILE to read keys from a file)\n", out)
  end)

  it("restores the terminal after a hook fails (in a pseudo-terminal)", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    local w = strata.world.new{ seed = 1, mods = { "base", "cursed" }, mod_path = { root .. "/spec/fixtures/mods" } }
    local town = w:create_map{ width = 5, height = 3, fill = "floor" }
    w:create_entrance(town, 1, 1, w:create_area("cursed.hell"))
    w:create_actor{ map = town, x = 1, y = 1, player = true }
    w:save(dir .. "/w.db")
    -- the player steps onto the cursed map's doorway: entering raises
    local cmd = ("cd %s && printf '>' | script -qec \"timeout --foreground 10 %s play w.db --mod-path %s/spec/fixtures/mods; stty -a\" /dev/null")
      :format(dir, bin, root)
    local out = support.sh(cmd)
    assert.matches("the curse strikes", out)
    assert.matches("[^-]icanon", out)     -- cooked mode again: raw mode was left behind
    assert.matches("[^-]echo ", out)
    os.execute("rm -rf " .. dir)
  end)
  it("walks the grid example across its transition, saves, and reopens in the mine", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    -- the same grid, in this process, gives the route's keys (spawning draws nothing)
    local w = strata.world.new{ seed = 1, mods = { "base", "examples" } }
    w.grid:add("examples.village", "examples.mine")
    w.grid:spawn()
    local route = w.grid:path(w.grid:room(0, 0, "village"), w.grid:room(0, 2, "mine"))
    local keys = {}
    for i, d in ipairs(route) do keys[i] = KEY_OF[d] end
    assert.same({ "k", "l", "u", "l" }, keys)

    -- a new world from the example (w.db does not exist yet), a refused way and a
    -- refused flight, the walk, a save, quit
    local out, code = play(dir, "h < q", "--example grid")
    assert.equal(0, code, out)
    assert.matches("a new world: the village of Hollin", out)
    assert.matches("there is no way 'west' here", out)
    assert.matches("Can't fly here - you'd hit your head.", out, 1, true)
    assert.matches("grid map village | (0, 0) | time 0", out, 1, true)
    out, code = play(dir, table.concat(keys, " ") .. " s q")
    assert.equal(0, code, out)
    assert.matches("you go east: The Mine Mouth", out)
    -- the room as the reference shows one (room:appearance): the map between separators,
    -- the name, the description, "Exits: ..."
    assert.matches("^~+\n +@%-# *\n", out)           -- the mine's visual range, the player on it
    assert.matches("\n~+\nThe Mine Mouth\nDaylight fades behind you", out)
    assert.matches("\nExits: east and south\n", out)
    assert.matches("grid map mine | %(0, 2%) | time 4\n$", out)

    local again = strata.world.open(dir .. "/w.db")
    local p = again:player()
    assert.same({ "mine", 0, 2 }, { p.room.z, p.room.x, p.room.y })
    assert.equal(4, again.time)                     -- a second a move

    -- auto-walk (a stored walk) to the deep gallery, chosen by its number; a typed exit back
    local n = index_of(again.grid:rooms{}, again.grid:room(2, 0, "mine"))
    out, code = play(dir, "g " .. n)
    assert.equal(0, code, out)
    assert.matches(("%3d  The Deep Gallery (2, 0, mine)\n"):format(n), out, 1, true)
    assert.matches("\nwalk to: " .. n .. "\n", out, 1, true)
    out, code = play(dir, ("g %d enter :north q"):format(n))
    assert.equal(0, code, out)
    assert.matches("you arrive: The Deep Gallery", out)
    assert.matches("you go north: A low tunnel", out)
    local last = strata.world.open(dir .. "/w.db")
    p = last:player()
    assert.same({ "mine", 2, 1 }, { p.room.z, p.room.x, p.room.y })
    assert.equal(4 + 4 + 1, last.time)              -- four steps of the walk, one move
    os.execute("rm -rf " .. dir)
  end)

  it("enters a dungeon branch from the well, explores, saves, and reopens in the same room", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    local out, code = play(dir, "l s q", "--example dungeon --seed 3")
    assert.equal(0, code, out)
    assert.matches("a new world: the bottom of the well", out)
    assert.matches("you go east: ", out)
    assert.matches("branch#%d+ | depth 1 | cell %(1, 0%) | time 1\n$", out)
    local w = strata.world.open(dir .. "/w.db")
    local first = w:player().room
    assert.is_not_nil(first.branch)
    assert.equal(1, first.depth)

    -- three rooms on, each by its exit's typed name (clearing a guarded room first)
    local visited = { [first.uid] = true }
    for _ = 1, 3 do
      w = strata.world.open(dir .. "/w.db")
      local room = w:player().room
      local pick
      for _, e in ipairs(room:exits()) do if e.to == nil then pick = pick or e end end
      if not pick then for _, e in ipairs(room:exits()) do if not visited[e.to.uid] then pick = pick or e end end end
      pick = pick or room:exits()[1]
      out, code = play(dir, (room.clear == false and "f " or "") .. ":" .. pick.name .. " s q")
      assert.equal(0, code, out)
      assert.matches("you go " .. pick.name .. ": ", out, 1, true)
      local now = strata.world.open(dir .. "/w.db"):player().room
      visited[now.uid] = true
      -- the screen shows the room the reopened world has the player in
      assert.equal(now.name .. "\n", out:sub(1, #now.name + 1))
      assert.matches(("branch#%d | depth %d | cell (%d, %d) | time "):format(now.branch.uid, now.depth,
        now.cell.x, now.cell.y), out, 1, true)
    end
    w = strata.world.open(dir .. "/w.db")
    local branch = w:player().room.branch
    assert.is_true(branch.room_count >= 3)          -- (seed 3: three rooms, the last one guarded and cleared)
    assert.is_true(branch:check())

    -- auto-walk back to the hub (number 1 of the list) by the explored exits
    out, code = play(dir, "g")                     -- the list (a script that ends without q: no save)
    assert.equal(0, code, out)
    assert.matches("  1  The bottom of the well (hub)\n", out, 1, true)
    assert.matches("\nwalk to: \n", out, 1, true)
    out, code = play(dir, "g 1 enter q")
    assert.equal(0, code, out)
    assert.matches("you arrive: The bottom of the well", out, 1, true)
    assert.equal("The bottom of the well", strata.world.open(dir .. "/w.db"):player().room.name)
    os.execute("rm -rf " .. dir)
  end)

  it("draws what the player sees where walls block sight, and what it saw before (issue 36)", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    local w = strata.world.new{ seed = 1, mods = { "base" } }
    local map = w:create_map{ width = 20, height = 5, fill = "floor" }
    for y = 0, 3 do map:reset(10, y, "wall") end -- a wall with a gap at the bottom
    w:create_actor{ map = map, x = 2, y = 1, player = true }
    w:save(dir .. "/w.db")
    local function rows(out)
      local r = {}
      for line in out:gmatch("[^\n]*") do
        if #r < 5 and #line == 20 then r[#r + 1] = line end
      end
      return r
    end
    local out, code = play(dir, "q")
    assert.equal(0, code, out)
    local r = rows(out)
    assert.equal("..@.......#         ", r[2], out)  -- beyond the wall: not in sight
    assert.equal("..........#         ", r[1], out)
    assert.equal("..........:", r[5]:sub(1, 10) .. (r[5]:sub(11, 11) == "." and ":" or "?"), out)
    -- through the gap and back: what was seen stays drawn (dimmed in colour)
    out, code = play(dir, "j j j l l l l l l l l l l h h h h h h h h h h k k k q")
    assert.equal(0, code, out)
    r = rows(out)
    assert.equal(20, #r[1], out)
    assert.equal(".", r[1]:sub(19, 19), out)          -- (18, 0), seen from beyond the wall
    assert.equal("@", r[2]:sub(3, 3), out)
    -- a reopened world starts unexplored: the session kept what it saw
    out = play(dir, "q")
    assert.equal(" ", rows(out)[1]:sub(19, 19), out)
    os.execute("rm -rf " .. dir)
  end)

  -- The README's crypt (spec/fixtures/mods/crypt): its walls block sight, and
  -- its ghoul is drawn where the hero sees it, never behind a wall.
  it("shows the crypt's hero what it sees, the ghoul in view and not behind walls (issue 36)", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    local mods = root .. "/spec/fixtures/mods"
    local w = strata.world.new{ seed = 7, mods = { "crypt" }, mod_path = { mods } }
    local town = w:create_map{ width = 10, height = 5, fill = "floor" }      -- (the README's game)
    local door = w:create_entrance(town, 4, 2, w:create_area("crypt.crypt"))
    local hero = w:create_actor{ map = town, x = 1, y = 1, player = true }
    local map = w:travel(hero, door)
    local ghoul
    for _, a in ipairs(map:objects("actor")) do if a.archetype == "crypt.ghoul" then ghoul = a end end
    assert.is_not_nil(ghoul, "no ghoul on the crypt's floor 1")
    support.write(dir .. "/none.txt", "")
    -- play's screen of the world as it is now (80x24: 17 rows of the map from
    -- y0), cell by cell against map:fov from the hero; whether it drew the ghoul
    local saves = 0
    local function screen()
      saves = saves + 1
      local file = ("w%d.db"):format(saves)
      w:save(dir .. "/" .. file)
      local out, code = support.sh(("cd %s && %s play %s --mod-path %s --script none.txt"):format(dir, bin, file, mods))
      assert.equal(0, code, out)
      local lines = {}
      for line in out:gmatch("([^\n]*)\n") do lines[#lines + 1] = line end
      local y0 = math.max(0, math.min(map.height - 17, hero.y - 8))
      local view, hidden_floor, drawn = map:fov(hero.x, hero.y), 0, false
      for y = y0, y0 + 16 do
        for x = 0, map.width - 1 do
          local ch = lines[y - y0 + 1]:sub(x + 1, x + 1)
          if not view:visible(x, y) then
            assert.equal(" ", ch, ("(%d, %d) is out of sight:\n%s"):format(x, y, out))
            if map:passable(x, y) then hidden_floor = hidden_floor + 1 end
          else
            assert.not_equal(" ", ch, out)
          end
          if x == ghoul.x and y == ghoul.y then drawn = ch == "g" end
        end
      end
      assert.is_true(hidden_floor > 0, out)            -- floor behind walls is blank
      assert.equal(view:visible(ghoul.x, ghoul.y), drawn, out)
      return drawn
    end
    -- from where it waits to the hero's side, turn by turn: drawn only once in view
    local seen = { [screen()] = true }
    local guard = 0
    repeat
      w:next_turn()
      guard = guard + 1
      seen[screen()] = true
    until (seen[true] and seen[false]) or guard > 60
    assert.is_true(seen[true] and seen[false])
    -- beside the hero, the ghoul is in the way: a step onto it is refused
    repeat w:next_turn() guard = guard + 1 until math.abs(ghoul.x - hero.x) + math.abs(ghoul.y - hero.y) == 1 or guard > 100
    w:save(dir .. "/beside.db")
    local key = ({ ["1,0"] = "l", ["-1,0"] = "h", ["0,1"] = "j", ["0,-1"] = "k" })[(ghoul.x - hero.x) .. "," .. (ghoul.y - hero.y)]
    support.write(dir .. "/step.txt", key)
    local out, code = support.sh(("cd %s && %s play beside.db --mod-path %s --script step.txt"):format(dir, bin, mods))
    assert.equal(0, code, out)
    assert.matches("a ghoul is in the way\n", out, 1, true)
    assert.matches(("| (%d, %d) |"):format(hero.x, hero.y), out, 1, true)
    os.execute("rm -rf " .. dir)
  end)

  it("names the examples it knows", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local out, code = support.sh(bin .. " play --example gird --script /dev/null")
    assert.equal(2, code) -- a mistake in the arguments
    assert.equal("strata: play: --example must be one of putit, grid, dungeon, got 'gird'; try 'strata play --help'\n", out)
  end)

  it("says so when the player is on no map and in no room", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    local w = strata.world.new{ seed = 1, mods = { "base" } }
    w:create_actor{ player = true }
    w:save(dir .. "/w.db")
    local out, code = play(dir, "q")
    assert.equal(1, code)
    assert.equal("strata: play: the player (actor#1) of w.db is on no map and in no room\n", out)
    os.execute("rm -rf " .. dir)
  end)

  it("restores the terminal after a room generator fails (in a pseudo-terminal)", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    local w = strata.world.new{ seed = 1, mods = { "base", "cursed" }, mod_path = { root .. "/spec/fixtures/mods" } }
    local hub = w:create_room{ name = "The rim of the pit" }
    w.branches:make_start(hub, { north = "cursed.pit" })
    w:create_actor{ room = hub, player = true }
    w:save(dir .. "/w.db")
    -- north makes the branch's first room: its generator raises
    local cmd = ("cd %s && printf 'k' | script -qec \"timeout --foreground 10 %s play w.db --mod-path %s/spec/fixtures/mods; stty -a\" /dev/null")
      :format(dir, bin, root)
    local out = support.sh(cmd)
    assert.matches("the curse strikes deeper", out)
    assert.matches("[^-]icanon", out)
    assert.matches("[^-]echo ", out)
    -- and the world on disk is as it was: the player at the rim
    assert.equal("The rim of the pit", strata.world.open(dir .. "/w.db", { mod_path = { root .. "/spec/fixtures/mods" } }):player().room.name)
    os.execute("rm -rf " .. dir)
  end)

  -- A pseudo-terminal of 100x40 whose reader reads nothing until play has
  -- ended or 2 s have passed: every frame is larger than the terminal's
  -- buffer, so play has to wait for it to drain. (Were play to take over 2 s
  -- to draw, the buffer would drain first and this could pass on a play that
  -- drops data; it cannot fail on one that does not.)
  local SLOW_PTY = [[
import os, pty, sys, fcntl, termios, struct, subprocess
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
env = dict(os.environ)
env.pop("NO_COLOR", None)
env["TERM"] = "xterm-256color"
p = subprocess.Popen(sys.argv[1:], stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
os.close(slave)
os.write(master, b"q")  # typed ahead: read once the first frame is drawn
try:
    p.wait(timeout=2)
except subprocess.TimeoutExpired:
    pass
out = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the terminal closed
        break
    if not chunk:
        break
    out += chunk
sys.stdout.write("status:%d\n" % p.wait(timeout=10))
sys.stdout.buffer.write(out)
]]

  it("draws whole frames in colour on a terminal larger than 80x24 (a slow reader)", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    support.write(dir .. "/slow_pty.py", SLOW_PTY)
    local out = support.sh(("cd %s && timeout 20 python3 slow_pty.py %s play w.db"):format(dir, bin))
    assert.matches("^status:0\n", out)
    assert.matches("\27%[32m", out)                 -- in colour: the frame is ~20 KB
    local last = out:match(".*\27%[H\27%[2J(.*)$")
    assert.is_not_nil(last, out:sub(1, 200))
    -- the frame's end: the log, the status line, then the cursor shown again
    local tail = "\na new world: North Tyris[^\n]*\r?\nexamples%.world | floor 1 | %(%d+, %d+%) | time 0\27%[%?25h"
    assert.is_truthy(last:find(tail), ("the frame ends %q"):format(last:sub(-120)))
    os.execute("rm -rf " .. dir)
  end)

  describe("its terminal writer", function()
    local play = require "strata.cmd.play"

    it("writes a whole text to a non-blocking pipe whose buffer is full, waiting for the reader", function()
      local dir = support.tempdir()
      local fds = assert(uv.pipe({ nonblock = true }, { nonblock = true }))
      -- fill the pipe until the kernel says EAGAIN
      local filled, chunk = 0, ("f"):rep(4096)
      while true do
        local n, _, name = uv.fs_write(fds.write, chunk, -1)
        if not n then assert.equal("EAGAIN", name) break end
        filled = filled + n
      end
      assert.is_true(filled > 0)
      -- a reader that drains it (cat, into a file) only now
      local outfd = assert(uv.fs_open(dir .. "/out", "w", tonumber("644", 8)))
      local exited, proc
      proc = assert(uv.spawn("cat", { stdio = { fds.read, outfd, 2 } }, function(code)
        exited = code
        proc:close()
      end))
      uv.fs_close(fds.read)
      uv.fs_close(outfd)
      local pipe = uv.new_pipe(false)
      assert(pipe:open(fds.write))
      local text = {}
      for i = 1, 5000 do text[i] = ("%05d\n"):format(i) end  -- 30 KB, more than a pipe's buffer
      text = table.concat(text)
      play.writer(pipe)(text)
      pipe:close()
      uv.run("default")
      assert.equal(0, exited)
      local got = support.read(dir .. "/out")
      assert.equal(filled + #text, #got)
      assert.equal(chunk:rep(filled // #chunk) .. chunk:sub(1, filled % #chunk), got:sub(1, filled))
      assert.equal(text, got:sub(filled + 1))
      os.execute("rm -rf " .. dir)
    end)

    it("raises one clear line on a write error", function()
      local fd = assert(uv.fs_open("/dev/full", "w", 0))
      local pipe = uv.new_pipe(false)
      assert(pipe:open(fd))
      local ok, err = pcall(play.writer(pipe), "a frame")
      pipe:close()
      uv.run("default")
      assert.is_false(ok)
      assert.equal("play: cannot write to the terminal: ENOSPC: no space left on device", err)
    end)
  end)
end)
