-- Procedural dungeon branches (docs/branches.md): seeded random walks checking
-- every rule after every move, the shared window of a start exit, idle
-- collapse, collapse(), and a save in the middle continued in another process.
local strata = require "strata"
local support = require "support"

local OPTS = { mods = { "base", "delve" }, mod_path = { "mods", "spec/fixtures/mods" } }
local STEP = { north = { 0, 1 }, east = { 1, 0 }, south = { 0, -1 }, west = { -1, 0 },
  northeast = { 1, 1 }, southeast = { 1, -1 }, southwest = { -1, -1 }, northwest = { -1, 1 } }
local OPPOSITE = { north = "south", south = "north", east = "west", west = "east",
  northeast = "southwest", southwest = "northeast", southeast = "northwest", northwest = "southeast" }

local function new_well(seed)
  local w = strata.world.new{ seed = seed, mods = OPTS.mods, mod_path = OPTS.mod_path }
  local hub = w:create_room{ name = "Hub", desc = "The bottom of the well." }
  local starts = w.branches:make_start(hub, { north = "delve.narrow", east = "delve.wide", south = "delve.guarded" })
  return w, hub, starts
end

local function isqrt(s)
  local r = math.floor(math.sqrt(s))
  while r * r > s do r = r - 1 end
  while (r + 1) * (r + 1) <= s do r = r + 1 end
  return r
end

-- Everything the rules say about a branch, checked from its handles alone
-- (independently of the core's own branch:check()).
local function check_branch(w, b, hub, arch)
  local rooms = b:rooms()
  local at, unexplored = {}, 0
  for _, r in ipairs(rooms) do
    local c = r.cell
    assert(not (c.x == 0 and c.y == 0), "a room in the hub cell")
    local key = c.x .. "," .. c.y
    assert(at[key] == nil, "two rooms in cell " .. key)
    at[key] = r
    assert.equal(isqrt(c.x * c.x + c.y * c.y), r.depth)
    assert.equal(b.uid, r.branch.uid)
  end
  local dirs = {}
  for _, d in ipairs(arch.directions or strata.world.branch_defaults.directions) do dirs[d] = true end
  for _, r in ipairs(rooms) do
    local c, has_back = r.cell, false
    for _, e in ipairs(r:exits()) do
      local s = STEP[e.name]
      assert(s, "exit named " .. e.name)
      local tx, ty = c.x + s[1], c.y + s[2]
      local to = e.to
      if to == nil then
        assert(dirs[e.name], "an unexplored exit " .. e.name .. " outside the archetype's directions")
        unexplored = unexplored + 1
        assert(not (tx == 0 and ty == 0), "an unexplored exit into the hub cell")
        assert.is_nil(at[tx .. "," .. ty], "an unexplored exit into a cell that holds a room")
      elseif to.uid == hub.uid then
        assert(tx == 0 and ty == 0, "an exit to the hub from a room not next to it")
        has_back = true
      else
        assert.equal(at[tx .. "," .. ty].uid, to.uid) -- adjacency
        local back = to:exit(OPPOSITE[e.name])
        if back and back.to and back.to.uid == r.uid then
          has_back = has_back or true
        else
          -- one-way: only an exit that was unexplored when its room was made
          assert(e.uid < to.uid, "a one-way exit made after the room it leads to")
        end
      end
    end
    assert(has_back, "room " .. r.name .. " has no way back")
  end
  assert.equal(unexplored, b.unexplored)
  assert(unexplored <= arch.max_unexplored_exits, "over the budget")
  assert.same({ true }, { b:check() })
  return at
end

-- A seeded random walk of n moves from the hub through start exit `dir`;
-- after every move: every rule, and for a new room the count of its new exits.
local function walk(seed, dir, n, on_room)
  local w, hub, starts = new_well(seed)
  local hero = w:create_actor{ room = hub }
  local arch = w.data["base.branch_archetype"]:get(({ north = "delve.narrow", east = "delve.wide",
    south = "delve.guarded" })[dir])
  local moves = w.rng:stream("walk")
  local made, refused, b = 0, 0, nil
  for _ = 1, n do
    local here = hero.room
    local exits = here:exits()
    if here.uid == hub.uid then exits = { starts[dir] } end
    local e = exits[moves:int(1, #exits)]
    -- mostly onwards: an unexplored exit when there is one
    local fresh = {}
    for _, x in ipairs(exits) do if x.to == nil then fresh[#fresh + 1] = x end end
    if #fresh > 0 and moves:chance(0.6) then e = fresh[moves:int(1, #fresh)] end
    local new_room = e.to == nil
    local open_before = here.uid ~= hub.uid and here.branch.unexplored or 0
    local ok, why = w:go(hero, e.name)
    if not ok then
      refused = refused + 1
      assert.equal(false, here.clear)
      assert.matches("not clear", why)
      assert.equal(here.uid, hero.room.uid)
      here:set_clear(moves:chance(0.5))
    else
      assert.equal(e.to.uid, hero.room.uid)
      if hero.room.uid ~= hub.uid then b = hero.room.branch end
      if new_room then
        made = made + 1
        local r = hero.room
        local back = r:exits()[1]
        assert.equal(OPPOSITE[e.name], back.name)
        assert.equal(here.uid, back.to.uid)
        -- the formula: open (after binding) and free directions give n's bounds
        local fresh, bound = 0, 0
        for i, x in ipairs(r:exits()) do if i > 1 and x.to == nil then fresh = fresh + 1 end end
        for _, other in ipairs(b:rooms()) do
          for _, x in ipairs(other:exits()) do
            if x.to and x.to.uid == r.uid and x.uid ~= e.uid then bound = bound + 1 end
          end
        end
        local open = open_before - (here.uid == hub.uid and 0 or 1) - bound
        local free = 0
        local cells = {}
        for _, o in ipairs(b:rooms()) do cells[o.cell.x .. "," .. o.cell.y] = true end
        for _, d in ipairs(arch.directions or strata.world.branch_defaults.directions) do
          local tx, ty = r.cell.x + STEP[d][1], r.cell.y + STEP[d][2]
          if not (tx == 0 and ty == 0) and not cells[tx .. "," .. ty] then free = free + 1 end
        end
        local n_max = math.min(arch.max_new_exits_per_room, arch.max_unexplored_exits - open, free)
        local lo = (n_max > 0 and open == 0) and 1 or 0
        assert(fresh >= lo and fresh <= math.max(n_max, 0),
          ("room %s: %d new exits, expected %d..%d"):format(r.name, fresh, lo, n_max))
        if on_room then on_room(r, w) end
      end
    end
    if b then check_branch(w, b, hub, arch) end
  end
  return { made = made, refused = refused, world = w, branch = b, hero = hero, hub = hub }
end

describe("dungeon branches", function()
  for _, case in ipairs{ { "narrow", "north", 11 }, { "wide", "east", 12 }, { "guarded (clear = false)", "south", 13 } } do
    it("keep every rule after every move of a 400-move random walk: " .. case[1], function()
      local made = 0
      for seed = case[3], case[3] + 2 do
        local r = walk(seed, case[2], 400)
        made = made + r.made
        -- a branch may close itself (every unexplored exit bound one-way): rare, never at once
        assert(r.made >= 3, "only " .. r.made .. " rooms made")
        if case[2] == "south" then assert(r.refused > 0, "no move was refused") end
      end
      assert(made >= 60, "only " .. made .. " rooms made in three walks")
    end)
  end

  it("give rooms the generator's spec, depth, cell and props; ctx sees depth, coords, branch", function()
    local seen = 0
    walk(3, "east", 100, function(r)
      seen = seen + 1
      assert.equal(r.depth, r.props.depth)
      assert.equal(r.branch.uid, r.props.branch)
      assert.equal(("%s %d,%d"):format(r.props.kind, r.cell.x, r.cell.y), r.name)
      assert.matches("^depth " .. r.depth .. ", roll %d+$", r.desc)
      assert.is_true(r.clear)
    end)
    assert(seen > 5)
  end)

  local function digest(w)
    local out = {}
    for _, o in ipairs(w:objects()) do
      if o.kind == "room" then
        local c = o.cell
        out[#out + 1] = ("room %d %s|%s|%s"):format(o.uid, o.name, o.desc, c and (c.x .. "," .. c.y) or "-")
      elseif o.kind == "exit" then
        out[#out + 1] = ("exit %d %s %d>%s"):format(o.uid, o.name, o.from.uid, o.to and o.to.uid or "?")
      end
    end
    return table.concat(out, "\n")
  end

  it("are the same for the same seed and moves, and differ for another seed", function()
    local a, b, c = walk(21, "east", 150), walk(21, "east", 150), walk(22, "east", 150)
    assert.equal(digest(a.world), digest(b.world))
    assert.not_equal(digest(a.world), digest(c.world))
  end)

  it("share a start exit's branch until the reset timer unbinds it (world:advance)", function()
    local w, hub, starts = new_well(5)
    local a, b, c = w:create_actor{ room = hub }, w:create_actor{ room = hub }, w:create_actor{ room = hub }
    assert.is_true(w:go(a, "north"))
    local first = a.room
    local branch = first.branch
    assert.equal(first.uid, starts.north.to.uid)
    w:advance(30)
    assert.is_true(w:go(b, "north")) -- inside the window: the same branch
    assert.equal(first.uid, b.room.uid)
    assert.equal(2, #branch:members())
    assert.same({ a.uid, b.uid }, { branch:members()[1].uid, branch:members()[2].uid })
    -- chance = 1, every = 60: unbound at most 2 x every after it was bound
    w:advance(90)
    assert.is_nil(starts.north.to)
    assert.is_true(w:go(c, "north"))
    local second = c.room.branch
    assert.not_equal(branch.uid, second.uid)
    assert.not_equal(first.uid, c.room.uid)
    assert.same({ 0, 1 }, { c.room.cell.x, c.room.cell.y })
    -- the old branch's members can still walk back to the hub: a one-way retreat
    assert.is_true(w:go(a, "south"))
    assert.equal(hub.uid, a.room.uid)
    assert.is_true(w:go(a, "north"))
    assert.equal(second.uid, a.room.branch.uid)
    assert.is_true(branch:alive())
  end)

  it("unbind a start exit at the rate of start_exit_reset.chance (each interval draws anew)", function()
    local w = strata.world.new{ seed = 12, mods = OPTS.mods, mod_path = OPTS.mod_path }
    local hub = w:create_room{ name = "Hub", desc = "The bottom of the well." }
    local starts = w.branches:make_start(hub, { west = "delve.coin" })
    -- Each branch made through the start exit is unbound after some intervals
    -- (each a draw with chance 0.5); then the next actor makes a new branch.
    local intervals, resets = 0, 0
    while intervals < 400 do
      assert.is_true(w:go(w:create_actor{ room = hub }, "west"))
      local n = 0
      repeat
        w:advance(10)
        n = n + 1
        -- (50 failed tosses in a row: a chance of 2^-50)
        assert(n <= 50, ("branch %d: no reset in 50 intervals"):format(resets + 1))
      until starts.west.to == nil
      intervals = intervals + n
      resets = resets + 1
    end
    -- a rate within 3 sigma of 1/2: 0.5 +- 3 * sqrt(0.25 / intervals)
    local sigma = math.sqrt(0.25 / intervals)
    assert.is_true(math.abs(resets / intervals - 0.5) <= 3 * sigma,
      ("%d resets in %d intervals"):format(resets, intervals))
  end)

  it("collapse when idle for max_idle: members go to the hub with move events, rooms and exits are deleted", function()
    local w, hub, starts = new_well(8)
    local a, b = w:create_actor{ room = hub }, w:create_actor{ room = hub }
    local moved = {}
    a:subscribe("base.moved", "delve.count_moves")
    b:subscribe("base.moved", "delve.count_moves")
    assert.is_true(w:go(a, "south"))
    assert.is_true(w:go(b, "south"))
    local branch = a.room.branch
    local first = a.room
    first:set_clear(true)
    -- a keeps acting: back and forth between the first room and the next; b never moves
    local out
    for _, e in ipairs(first:exits()) do if e.to == nil then out = e.name break end end
    assert.truthy(out)
    for _ = 1, 12 do -- 12 x 60 s = 720 s, far past max_idle = 100
      assert.is_true(w:go(a, a.room.uid == first.uid and out or OPPOSITE[out]))
      w:advance(60)
      assert.is_true(branch:alive())
    end
    local rooms, exits = branch:rooms(), {}
    for _, r in ipairs(rooms) do for _, e in ipairs(r:exits()) do exits[#exits + 1] = e end end
    moved.a, moved.b = a.state.moves, b.state.moves
    -- now nobody acts: gone within 2 x max_idle
    w:advance(200)
    assert.is_false(branch:alive())
    assert.equal(hub.uid, a.room.uid)
    assert.equal(hub.uid, b.room.uid)
    assert.equal(moved.a + 1, a.state.moves) -- the normal move events
    assert.equal(moved.b + 1, b.state.moves)
    for _, r in ipairs(rooms) do assert.is_false(r:alive()) end
    for _, e in ipairs(exits) do assert.is_false(e:alive()) end
    assert.is_nil(starts.south.to)
    assert.is_true(starts.south:alive())
    for _, o in ipairs(support.every_object(w)) do
      assert(o.kind ~= "branch_cells" and o.kind ~= "branch_index" and o.kind ~= "branch", "left: " .. tostring(o))
    end
    assert.same({}, w:timers())
    -- the start exit makes a new branch
    assert.is_true(w:go(a, "south"))
    assert.not_equal(branch.uid, a.room.branch.uid)
  end)

  it("collapse() by hand, and refuse bad archetypes, directions and room specs with nothing changed", function()
    local w, hub, starts = new_well(9)
    local a = w:create_actor{ room = hub }
    assert.is_true(w:go(a, "east"))
    local branch = a.room.branch
    for _ = 1, 20 do
      local ex = a.room:exits()
      w:go(a, ex[#ex].name)
    end
    local rooms = branch:rooms()
    assert(#rooms > 3)
    branch.state.note = "deep"
    branch:collapse()
    assert.is_false(branch:alive())
    assert.equal(hub.uid, a.room.uid)
    for _, r in ipairs(rooms) do assert.is_false(r:alive()) end
    assert.is_nil(starts.east.to)
    assert.has_error(function() branch:collapse() end)

    assert.error_matches(function() w.branches:make_start(hub, { nort = "delve.wide" }) end, "nearest known: north")
    assert.error_matches(function() w.branches:make_start(hub, { up = "delve.wid" }) end, "'up' is no direction")
    assert.error_matches(function() w.branches:make_start(hub, { west = "delve.wid" }) end, "delve.wide")
    assert.error_matches(function() w.branches:make_start(hub, { north = "delve.wide" }) end, "already has an exit 'north'")
    assert.is_nil(hub:exit("west"))
    assert.error_matches(function() a.room:set_clear(false) end, "no room of a branch")
    -- a branch's rooms, exits and hub are not deleted or re-pointed by hand
    assert.is_true(w:go(a, "east"))
    local b2, r2 = a.room.branch, a.room
    local count = #w:objects()
    assert.error_matches(function() r2:delete() end, "is part of branch#" .. b2.uid .. ": collapse the branch instead")
    assert.error_matches(function() hub:delete() end, "is part of branch#" .. b2.uid)
    assert.error_matches(function() r2:exits()[1]:delete() end, "exit:delete: exit#%d+ is part of branch#")
    assert.error_matches(function() r2:exits()[1].to = nil end, "exit.to: exit#%d+ is part of branch#")
    -- the cell index is bookkeeping: not listed by world:objects(), found by uid, not deleted by hand
    local internal = 0
    for _, o in ipairs(support.every_object(w)) do
      if o.kind == "branch_cells" or o.kind == "branch_index" then
        internal = internal + 1
        assert.error_matches(function() o:delete() end, "is the world's own bookkeeping: it cannot be deleted$")
      end
    end
    assert.is_true(internal >= 2) -- each live branch: its index and at least one cells object
    for _, o in ipairs(w:objects()) do assert.is_nil(o.kind:match("^branch_[ci]")) end
    assert.equal(count, #w:objects())
    assert.same({ true }, { b2:check() })
    w:go(a, "west")
    b2:delete() -- deleting a branch collapses it
    assert.is_false(b2:alive())
    assert.is_false(r2:alive())
    assert.equal(hub.uid, a.room.uid)
    assert.error_matches(function() a.room:set_clear("yes") end, "expected a boolean")
  end)

  it("stop a move whose generator fails or returns a bad spec, with the world unchanged", function()
    local dir = support.tempdir()
    support.write(dir .. "/bad/mod.lua", 'return { id = "bad", version = "0.1.0", requires = { base = "*" } }')
    support.write(dir .. "/bad/init.lua", [[
      data:add{ _type = "base.room_generator", _id = "typo", generate = function(ctx) return { nmae = "x" } end }
      data:add{ _type = "base.room_generator", _id = "boom", generate = function(ctx) ctx.rng:int(1, 6) error("no rooms today") end }
      data:add{ _type = "base.branch_archetype", _id = "typo", room_generator = "bad.typo" }
      data:add{ _type = "base.branch_archetype", _id = "boom", room_generator = "bad.boom", max_idle = 10 }
      data:add{ _type = "base.branch_archetype", _id = "up", room_generator = "bad.boom", directions = { "up" } }
    ]])
    local w = strata.world.new{ seed = 1, mods = { "base", "bad" }, mod_path = { "mods", dir } }
    local hub = w:create_room{ name = "Hub" }
    w.branches:make_start(hub, { north = "bad.typo", south = "bad.boom" })
    assert.error_matches(function() w.branches:make_start(hub, { east = "bad.up" }) end, "directions%[1%]: 'up' is no direction")
    local a = w:create_actor{ room = hub }
    local count, timers = #w:objects(), #w:timers()
    assert.error_matches(function() w:go(a, "north") end, "unknown room spec key 'nmae' %(nearest known: name")
    assert.error_matches(function() w:go(a, "south") end, "no rooms today")
    assert.equal(count, #w:objects())
    assert.equal(timers, #w:timers())
    assert.equal(hub.uid, a.room.uid)
    assert.is_nil(hub:exit("north").to)
  end)

  it("name the generator for every bad spec the core refuses, with the world unchanged", function()
    local dir = support.tempdir()
    support.write(dir .. "/bad/mod.lua", 'return { id = "bad", version = "0.1.0", requires = { base = "*" } }')
    support.write(dir .. "/bad/init.lua", [[
      local specs = { fn = { name = "x", props = { f = print } }, str = "room", none = false, num = { name = 5 },
        clear = { name = "x", clear = "yes" }, meta = { name = "x", props = setmetatable({}, {}) }, int = { "x" } }
      for k, spec in pairs(specs) do
        data:add{ _type = "base.room_generator", _id = k, generate = function() return spec or nil end }
        data:add{ _type = "base.branch_archetype", _id = k, room_generator = "bad." .. k }
      end
    ]])
    local expect = {
      -- (a function or a metatable never crosses the border: refused as the generator returns)
      fn = "bad%.fn generate: result%.props%.f: a function cannot cross to the host",
      str = "room generator 'bad.str': generate must answer a room spec",
      none = "room generator 'bad.none': generate must answer a room spec",
      num = "room generator 'bad.num': name must be a non%-empty string",
      clear = "room generator 'bad.clear': clear must be a boolean",
      meta = "bad%.meta generate: result%.props: holds a table with a metatable",
      int = "room generator 'bad.int': unknown room spec key '%(an integer%)' %(nearest known: name%)" }
    for k, msg in pairs(expect) do
      local w = strata.world.new{ seed = 1, mods = { "base", "bad" }, mod_path = { "mods", dir } }
      local hub = w:create_room{ name = "Hub" }
      w.branches:make_start(hub, { north = "bad." .. k })
      local a = w:create_actor{ room = hub }
      local count = #w:objects()
      assert.error_matches(function() w:go(a, "north") end, "^world:go: " .. msg)
      assert.equal(count, #w:objects())
      assert.same({}, w.branches:list())
      assert.equal(hub, a.room)
    end
  end)

  it("continue after a save in the middle in another process exactly as in one process", function()
    local dir = support.tempdir()
    local script = os.getenv("STRATA_SOURCE_DIR") and (os.getenv("STRATA_SOURCE_DIR") .. "/spec/fixtures/branch_walk.lua")
      or "spec/fixtures/branch_walk.lua"
    local function run(...)
      local args = {}
      for i, v in ipairs{ ... } do args[i] = support.q(v) end
      local out, code = support.sh("lua5.4 " .. support.q(script) .. " " .. table.concat(args, " "))
      assert.equal(0, code, out)
      return out
    end
    local control = run("control", "", "31")
    run("first", dir .. "/w.db", "31")
    local second = run("second", dir .. "/w.db", "31")
    assert.equal(control, second)
    assert(#control > 1000)
    assert.not_equal(control, run("control", "", "32"))
  end)
end)

describe("the well (mods/examples/dungeon.lua)", function()
  it("is explored by two adventurers under strata run until it collapses", function()
    local bin = os.getenv("STRATA_BIN") or "build/strata"
    local out, code = support.sh(bin .. " run mods/examples/scripts/delve.lua 1")
    assert.equal(0, code, out)
    assert.matches("Ana and Bo enter branch#%d+ at", out)
    assert.matches("fights", out)
    assert.matches("members: 2", out)
    assert.matches("after resting: branch alive: false; Ana is in The bottom of the well, Bo is in The bottom of the well", out)
    assert.matches("Ana goes east again: branch#%d+", out)
  end)

  it("has four start exits and guarded rooms with monsters' placeholders", function()
    local w = strata.world.new{ seed = 2, mods = { "base", "examples" }, mod_path = { "mods" } }
    local hub = w.data["base.handler"]:ensure("examples.well_setup").run(w)
    local names = {}
    for i, e in ipairs(hub:exits()) do names[i] = e.name end
    assert.same({ "north", "east", "south", "west" }, names)
    local hero = w:create_actor{ room = hub }
    local guarded = 0
    for _, dir in ipairs(names) do
      hero.room = hub
      assert.is_true(w:go(hero, dir))
      local b = hero.room.branch
      for _ = 1, 30 do
        local r = hero.room
        if r.clear == false then
          guarded = guarded + 1
          assert(#r.props.monsters > 0)
          assert.is_string(r.props.monsters[1].name)
          r:set_clear(true)
        end
        local ex = r:exits()
        w:go(hero, ex[#ex].name)
      end
      assert.same({ true }, { b:check() })
    end
    assert(guarded > 0)
  end)
end)

-- The reference's words (Evennia's tutorial dungeon), checked one by one (issue 35).
describe("dungeon branches as the reference has them", function()
  local mods = require "strata.mods"

  -- Every base.branch_message into a list: { kind, text, source, actor, room }.
  local function listen(w)
    local seen = {}
    mods.register_event(support.registry(w), "spec", "base.branch_message", "spec: messages", function(source, p)
      seen[#seen + 1] = { kind = p.kind, text = p.text, source = source.uid, actor = p.actor.uid,
                          room = p.room and p.room.uid }
    end)
    return seen
  end

  local function kinds(seen)
    local out = {}
    for i, m in ipairs(seen) do out[i] = m.kind end
    return out
  end

  it("answer to short exit names: '_EXIT_ALIASES = { \"north\": (\"n\",), \"east\": (\"e\",), ... }'", function()
    local w, hub = new_well(21)
    local a = w:create_actor{ room = hub }
    assert.equal(hub:exit("east").uid, hub:exit("e").uid)     -- a start exit by its short name
    assert.is_true(w:go(a, "e"))                               -- makes the branch, as "east" does
    local first = a.room
    assert.same({ 1, 0 }, { first.cell.x, first.cell.y })
    assert.equal(first:exit("west").uid, first:exit("w").uid)  -- the back exit
    for _, e in ipairs(first:exits()) do
      local short = ({ north = "n", east = "e", south = "s", west = "w", northeast = "ne",
                       southeast = "se", southwest = "sw", northwest = "nw" })[e.name]
      assert.equal(e.uid, first:exit(short).uid)
    end
    -- diagonals where the archetype has them (delve.wide has all eight)
    local diag
    for _ = 1, 40 do
      for _, e in ipairs(a.room:exits()) do
        if #e.name > 5 and e.to == nil then diag = diag or e end
      end
      if diag then break end
      local ex = a.room:exits()
      assert.is_true(w:go(a, ex[#ex].name))
    end
    assert.truthy(diag, "no diagonal unexplored exit in 40 moves")
    local short = diag.name:gsub("^(.)[a-z]-(east)$", "%1e"):gsub("^(.)[a-z]-(west)$", "%1w")
    local from = a.room
    assert.is_true(w:go(a, short))
    assert.equal(diag.to.uid, a.room.uid)
    assert.not_equal(from.uid, a.room.uid)
    assert.is_true(w:go(a, ({ ne = "sw", sw = "ne", se = "nw", nw = "se" })[short]))  -- and back
    assert.equal(from.uid, a.room.uid)
    -- no other name answers, and an exit of no branch keeps to its own names
    assert.same({ nil, "there is no way 'x' here" }, { w:go(a, "x") })
    local plain, other = w:create_room{ name = "Plain" }, w:create_room{ name = "Other" }
    w:create_exit(plain, other, { name = "east" })
    local b = w:create_actor{ room = plain }
    assert.is_nil(plain:exit("e"))
    assert.same({ nil, "there is no way 'e' here" }, { w:go(b, "e") })
  end)

  it("tell the player 'The path forwards is blocked!' in a room that is not clear, as an event with a text", function()
    local w, hub = new_well(22)
    local seen = listen(w)
    local a = w:create_actor{ room = hub }
    assert.is_true(w:go(a, "s"))                           -- delve.guarded: rooms are not clear
    local room = a.room
    assert.same({ "blocked" }, kinds(seen))
    assert.same({ kind = "blocked", text = "The path forwards is blocked!", source = a.uid, actor = a.uid,
                  room = room.uid }, seen[1])
    -- "traversing_object.msg(\"You can't get through this way yet!\")" when a way on is tried
    local on
    for _, e in ipairs(room:exits()) do if e.to == nil then on = on or e.name end end
    assert.same({ nil, "the way is blocked: this room is not clear yet" }, { w:go(a, on) })
    assert.same({ kind = "not_clear", text = "You can't get through this way yet!", source = a.uid,
                  actor = a.uid, room = room.uid }, seen[2])
    room:set_clear(true)
    assert.is_true(w:go(a, on))                            -- a new guarded room: blocked again
    assert.same({ "blocked", "not_clear", "blocked" }, kinds(seen))
    assert.is_true(w:go(a, OPPOSITE[on]))                  -- into a room made clear: nothing to say
    assert.same({ "blocked", "not_clear", "blocked" }, kinds(seen))
  end)

  it("tell whoever arrives at the hub 'You sense that if you want to team up, ...'", function()
    local w, hub = new_well(23)
    local seen = listen(w)
    local a = w:create_actor{ room = hub }
    assert.is_true(w:go(a, "east"))                        -- delve.wide: clear rooms, nothing said
    assert.same({}, kinds(seen))
    assert.is_true(w:go(a, "west"))                        -- back at the hub
    assert.same({ kind = "team_up", source = a.uid, actor = a.uid, room = hub.uid,
      text = "You sense that if you want to team up, you must all pick the same path from here ... "
          .. "or you'll quickly get separated." }, seen[1])
    -- from the surface too: any exit into a room with start exits
    local top = w:create_room{ name = "Top of the well" }
    w:create_exit(top, hub, { name = "down" })
    local b = w:create_actor{ room = top }
    assert.is_true(w:go(b, "down"))
    assert.same({ "team_up", "team_up" }, kinds(seen))
    assert.equal(b.uid, seen[2].actor)
  end)

  it("tell members of a collapsing branch 'the room suddenly rumbles and then collapses!', the hub 'someone stumbles out'", function()
    local w, hub = new_well(24)
    local a, b = w:create_actor{ room = hub }, w:create_actor{ room = hub }
    assert.is_true(w:go(a, "east"))
    assert.is_true(w:go(b, "east"))
    local branch = a.room.branch
    local seen = listen(w)
    branch:collapse()
    assert.same({ "collapse", "stumble", "collapse", "stumble" }, kinds(seen))
    for i, who in ipairs{ a, b } do
      assert.same({ kind = "collapse", source = who.uid, actor = who.uid, room = hub.uid,
        text = "After a long time of silence, the room suddenly rumbles and then collapses! "
            .. "All turns dark ...\n\nThen you realize you are back where you started." }, seen[2 * i - 1])
      assert.same({ kind = "stumble", source = hub.uid, actor = who.uid, room = hub.uid,
        text = "Suddenly someone stumbles out of a dark exit, covered in dust!" }, seen[2 * i])
    end
    -- the idle timer's collapse says the same
    assert.is_true(w:go(a, "north"))
    w:advance(1000)
    assert.equal(hub.uid, a.room.uid)
    assert.same({ "collapse", "stumble" }, { seen[5].kind, seen[6].kind })
  end)

  it("show their texts in strata play", function()
    local bin = os.getenv("STRATA_BIN")
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    support.write(dir .. "/keys.txt", "l h")
    local out, code = support.sh(("cd %s && %s play w.db --script keys.txt --example dungeon --seed 3"):format(dir, bin))
    assert.equal(0, code, out)
    assert.matches("You sense that if you want to team up, you must all pick the same path from here", out, 1, true)
    -- a guarded room says so on arrival, and its ways on say they are shut
    -- (the world play makes: the same seed, setup and player, so the same first rooms)
    local keys = {}
    for _, dir_key in ipairs{ { "north", "k" }, { "east", "l" }, { "south", "j" }, { "west", "h" } } do
      local w = strata.world.new{ seed = 3, mods = { "base", "examples" }, mod_path = { "mods" } }
      local hub = w.data["base.handler"]:ensure("examples.well_setup").run(w)
      local hero = w:create_actor{ room = hub, player = true }
      assert.is_true(w:go(hero, dir_key[1]))
      if hero.room.clear == false then keys = { dir_key[2] } break end
    end
    if #keys == 0 then pending("no guarded first room with seed 3") return end
    support.write(dir .. "/keys.txt", keys[1])
    os.remove(dir .. "/w.db")
    out, code = support.sh(("cd %s && %s play w.db --script keys.txt --example dungeon --seed 3"):format(dir, bin))
    assert.equal(0, code, out)
    assert.matches("The path forwards is blocked!", out, 1, true)
    os.execute("rm -rf " .. dir)
  end)
end)
