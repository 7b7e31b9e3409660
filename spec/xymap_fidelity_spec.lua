-- What Evennia's XYZGrid documentation says of its maps and their views,
-- checked against strata (issue 35, "XY maps and the grid world"): each test
-- quotes the reference's words it checks. docs/xy-maps.md and docs/grid.md,
-- "Differences from the reference", say where strata departs.
local strata = require "strata"
local parse = strata.xymap.parse

local function exits_of(xy, x, y)
  local out = {}
  for _, e in ipairs(xy:exits(x, y)) do out[#out + 1] = e.name .. ">" .. e.to.x .. "," .. e.to.y end
  return table.concat(out, " ")
end

local function parse_error(map, opts)
  local ok, err = pcall(parse, map, opts)
  assert.is_false(ok)
  return tostring(err)
end

describe("XY maps as the reference documents them", function()
  describe("link weights", function()
    -- "Individual links can however change this to a higher/lower weight (must be >=1)."
    -- "This value must be >= 1, and can be higher than 1 if a link should be less favored."
    it("refuses a link weight below 1, naming the link, its place and the rule", function()
      local err = parse_error("+\n\n  #=#\n\n+", { z = "z", legend = { ["="] = { kind = "ew", weight = 0.5 } } })
      assert.matches("EWMapLink '=' at XYZ=(0.5,0,z)", err, 1, true)
      assert.matches("must be >= 1", err, 1, true)
      assert.matches("line 3, column 4", err, 1, true)
    end)

    it("refuses a weight below 1 from one side too, and a weight of 0", function()
      local err = parse_error("+\n\n  #-#\n  |\n  #=#\n\n+",
        { z = "w", legend = { ["="] = { kind = "ew", weights = { w = 0.25 } } } })
      assert.matches("EWMapLink '=' at XYZ=(0.5,0,w)", err, 1, true)
      assert.matches("0.25", err, 1, true)
      assert.matches("line 5, column 4", err, 1, true)
      err = parse_error("+\n\n  #=#\n\n+", { z = "z", legend = { ["="] = { kind = "ew", weight = 0 } } })
      assert.matches("must be >= 1", err, 1, true)
    end)

    it("takes weights of 1 and more, and a symbol never drawn is not checked", function()
      local xy = parse("+\n\n  #=#\n\n+", { z = "z", legend = { ["="] = { kind = "ew", weight = 1 },
        ["~"] = { kind = "ew", weight = 0.5 } } })
      assert.equal("e>1,0", exits_of(xy, 0, 0))
    end)
  end)

  describe("one-way links", function()
    -- "These indicators should either be _first_ or _last_ in a link chain (think of them as
    -- arrows): #----->#  #>-----#  These two are equivalent"
    it("reads an arrow first in a chain as the same one-way link as an arrow last", function()
      for _, map in ipairs{ "+\n\n  #---->#\n\n+", "+\n\n  #>----#\n\n+", "+\n\n  #-->--#\n\n+" } do
        local xy = parse(map, { z = "z" })
        assert.equal("e>3,0", exits_of(xy, 0, 0))
        assert.equal("", exits_of(xy, 3, 0))
        assert.equal("e", table.concat(xy:shortest_path({ 0, 0 }, { 3, 0 }), " "))
        assert.is_nil(xy:shortest_path({ 3, 0 }, { 0, 0 }))
      end
      local xy = parse("+\n\n  #\n  v\n  |\n  |\n  #\n\n+", { z = "z" })
      assert.equal("s>0,0", exits_of(xy, 0, 2))
      assert.equal("", exits_of(xy, 0, 0))
    end)

    it("still refuses a link entered from a side it does not join", function()
      local err = parse_error("+\n\n  #-|-#\n\n+", { z = "z" })
      assert.matches("is not set up to link in that direction", err, 1, true)
    end)

    -- "Teleportation movement is always two-way, but you can use one-way links to create the
    -- effect of a one-way teleport: #-t t># In this example you can move east across the
    -- teleport, but not west since the teleporter-link is hidden behind a one-way exit."
    it("makes a one-way teleport of a teleporter behind an arrow", function()
      local xy = parse("+\n\n  #-t t>#\n\n+", { z = "z" })
      assert.equal("e>3,0", exits_of(xy, 0, 0))
      assert.equal("", exits_of(xy, 3, 0))
      xy = parse("+\n\n  #<t t-#\n\n+", { z = "z" })
      assert.equal("", exits_of(xy, 0, 0))
      assert.equal("w>0,0", exits_of(xy, 3, 0))
    end)

    -- The reference's own map of three teleporter pairs ("You can have multiple teleports on
    -- the same map, by assigning each pair a different (unused) unique symbol in your map
    -- legend"), its legend's `TeleportermapLink` read as the TeleporterMapLink it means.
    it("parses the reference's teleporter example map", function()
      local MAPSTR = [[
+ 0 1 2 3 4

2 t q #   q
  | v/ \  |
1 #-#-p #-#
  |     |
0 #-t p>#-#

+ 0 1 2 3 4
]]
      local xy = parse(MAPSTR, { z = "teleports", legend = {
        t = { kind = "teleporter" }, p = { kind = "teleporter" }, q = { kind = "teleporter" } } })
      assert.equal("n>0,1 e>0,1", exits_of(xy, 0, 0))      -- t: east from (0,0) comes out at (0,1)
      assert.equal("n>0,0 e>1,1 s>0,0", exits_of(xy, 0, 1))
      assert.equal("ne>2,2 e>3,0 w>0,1", exits_of(xy, 1, 1)) -- p: on to (3,0); no way north down the v
      assert.equal("n>3,1 e>4,0", exits_of(xy, 3, 0))       -- the arrow: no way back west into p
      assert.equal("n>1,1 w>3,1", exits_of(xy, 4, 1))       -- q: to (1,1), down the v
      assert.equal("se>3,1 sw>1,1", exits_of(xy, 2, 2))
      assert.equal("e", table.concat(xy:shortest_path({ 1, 1 }, { 3, 0 }), " "))
      assert.equal("n", table.concat(xy:shortest_path({ 4, 1 }, { 1, 1 }), " "))
      assert.equal(3, #xy:shortest_path({ 3, 0 }, { 1, 1 }))
    end)
  end)

  describe("views", function()
    -- "This new builder-only command shows the current map in its full form (also showing
    -- 'invisible' markers usually not visible to users."
    it("draws the whole map for builders, markers included", function()
      local xy = parse("+\n\n  #-t t-#-T\n  |\n  Ib#-#\n\n+", { z = "z",
        legend = { T = { kind = "transition", target = { 0, 0, "other" } } } })
      assert.equal("#-   -#- \n||        \n#-#-#    ", xy:display())
      assert.equal("#-t t-#-T\n||        \nIb#-#    ", xy:display{ builder = true })
    end)
  end)
end)

describe("the grid world's views as the reference documents them", function()
  local w, gate, market, loft
  before_each(function()
    w = strata.world.new{ seed = 1, mods = { "base", "examples" } }
    w.grid:add("examples.village", "examples.mine")
    w.grid:spawn()
    gate, market, loft = w.grid:room(0, 0, "village"), w.grid:room(2, 2, "village"), w.grid:room(3, 4, "village")
  end)

  local function lines(text)
    local out = {}
    for l in (strata.markup.strip(text) .. "\n"):gmatch("([^\n]*)\n") do out[#out + 1] = l end
    return out
  end

  -- "path view: This finds the shortest path to the "A gorgeous view" room ... you should see
  -- the start of the path visualized in yellow."
  it("draws the route to a target room in the grid view, as xy:visual_range does", function()
    local xy = w.grid:map("village")
    local want = xy:visual_range({ 0, 0 }, { dist = 2, character = "|g@|n", target = { 2, 2 } })
    assert.equal(want, w.grid:view(gate, { target = market }))
    assert.matches("|y#|n|y-|n|y#|n", w.grid:view(gate, { target = market }), 1, true)
    -- a target on another map: the route towards the transition it leaves by
    local deep = w.grid:room(2, 0, "mine")
    assert.matches("|y", w.grid:view(market, { target = deep }), 1, true)
    assert.has_error(function() w.grid:view(gate, { target = "market" }) end)
  end)

  it("shows builders the whole map with its markers and coordinates in room names", function()
    local v = strata.markup.strip(w.grid:view(gate, { builder = true }))
    assert.matches("#---T", v, 1, true)   -- the transition, invisible to players
    assert.matches("#-I", v, 1, true)     -- the interrupt node, shown as # to players
    assert.matches("\n@", v, 1, true)
    -- "get_display_name(looker) - this has been modified to show the coordinates of the
    -- entity as well as the #dbref if you have Builder or higher privileges."
    assert.equal("The South Gate", gate:display_name())
    assert.equal("The South Gate (0,0,village)", gate:display_name{ builder = true })
    assert.equal("The Bell Loft (3,4,village)", loft:display_name{ builder = true })
    local hall = w:create_room{ name = "Hall" }
    assert.equal("Hall", hall:display_name{ builder = true })
    local a = strata.markup.strip(gate:appearance{ width = 20, builder = true })
    assert.matches("#---T", a, 1, true)
    assert.matches("\nThe South Gate (0,0,village)\n", a, 1, true)
    assert.same({ "Hall" }, lines(hall:appearance{ builder = true }))
  end)

  -- "The default visualization is this: ~~~~ (the map) ~~~~ Dungeon Entrance / To the east,
  -- a narrow opening leads into darkness. / Exits: northeast and east"
  it("gives a room's appearance: the map between separators, name, description, exits", function()
    local l = lines(gate:appearance{ width = 20 })
    assert.same({ ("~"):rep(20), (" "):rep(8) .. "#  ", (" "):rep(8) .. "|  ", (" "):rep(8) .. "#-#",
      (" "):rep(8) .. "|  ", (" "):rep(8) .. "@  ", ("~"):rep(20), "The South Gate",
      "A gate of grey planks, open by day. The lane runs north.", "Exits: north" }, l)
    assert.matches("|x~|n", gate:appearance{ width = 20 }, 1, true)   -- "Defaults to "|x~|n""
    local m = lines(market:appearance{ width = 20 })
    assert.equal("Exits: north, east and southwest", m[#m])
  end)

  -- "map_align (str): One of 'r', 'c' or 'l'. This shifts the map relative to the room text."
  -- "map_fill_all (bool): If the map area should fill the entire client width (default) or
  -- change to always only be as wide as the room description."
  -- "map_separator_char (str): The char to use for the separator-lines"
  -- "map_display (bool): This turns off the display entirely for this map."
  it("honours map_align, map_fill_all, map_separator_char and map_display", function()
    assert.equal("@  ", lines(gate:appearance{ width = 20, map_align = "l" })[6])
    assert.equal((" "):rep(17) .. "@  ", lines(gate:appearance{ width = 20, map_align = "r" })[6])
    local narrow = lines(gate:appearance{ width = 200, map_fill_all = false })
    assert.equal(("~"):rep(56), narrow[1])  -- as wide as the description's longest line
    assert.equal(("="):rep(20), lines(gate:appearance{ width = 20, map_separator_char = "=" })[1])
    assert.same({ "The South Gate", "A gate of grey planks, open by day. The lane runs north.", "Exits: north" },
      lines(gate:appearance{ map_display = false }))
    assert.has_error(function() gate:appearance{ map_align = "middle" } end)
    local ok, err = pcall(gate.appearance, gate, { map_alig = "l" })
    assert.is_false(ok)
    assert.matches("map_align", tostring(err), 1, true)
  end)

  -- A world of base and a mod "opts" whose init.lua is init (a pcall's results).
  local function mod_world(init)
    local dir = os.tmpname()
    os.remove(dir)
    os.execute("mkdir -p " .. dir .. "/opts")
    local f = io.open(dir .. "/opts/mod.lua", "w")
    f:write('return { id = "opts", version = "0.1.0" }')
    f:close()
    f = io.open(dir .. "/opts/init.lua", "w")
    f:write(init)
    f:close()
    local ok, v = pcall(strata.world.new, { seed = 1, mods = { "base", "opts" }, mod_path = { dir } })
    os.execute("rm -rf " .. dir)
    return ok, v
  end

  it("takes the options from the grid map, a call's own winning", function()
    local ok, v = mod_world([==[data:add{ _type = "base.grid_map", _id = "m", z = "m", map = "+\n\n  #-#\n\n+",
      prototypes = { ["*,*"] = { key = "Field", desc = "Grass." } },
      options = { map_align = "l", map_separator_char = "-", map_display = true } }]==])
    assert.is_true(ok, tostring(v))
    v.grid:add("opts.m")
    v.grid:spawn()
    local l = lines(v.grid:room(0, 0, "m"):appearance{ width = 10 })
    assert.same({ ("-"):rep(10), "@-#", ("-"):rep(10), "Field", "Grass.", "Exits: east" }, l)
    assert.equal((" "):rep(7) .. "@-#", lines(v.grid:room(0, 0, "m"):appearance{ width = 10, map_align = "r" })[2])
  end)

  it("refuses a grid map whose map_align is none of l, c, r when the mod adds it", function()
    local ok, err = mod_world([==[data:add{ _type = "base.grid_map", _id = "m", z = "m", map = "+\n\n  #\n\n+",
      options = { map_align = "middle" } }]==])
    assert.is_false(ok)
    assert.matches("map_align must be 'l', 'c' or 'r', got 'middle'", tostring(err), 1, true)
  end)

  -- "map_separator_char (str): The char to use for the separator-lines"
  it("refuses a map_separator_char of more than one character when the mod adds the map", function()
    local ok, err = mod_world([==[data:add{ _type = "base.grid_map", _id = "m", z = "m", map = "+\n\n  #\n\n+",
      options = { map_separator_char = string.rep("~", 1000000) } }]==])
    assert.is_false(ok)
    assert.matches("options.map_separator_char must be one character", tostring(err), 1, true)
    assert.is_true(#tostring(err) < 400)
    ok = mod_world([==[data:add{ _type = "base.grid_map", _id = "m", z = "m", map = "+\n\n  #\n\n+",
      options = { map_separator_char = "|r\u{2550}|n" } }]==])
    assert.is_true(ok)
  end)

  it("bounds an appearance by its width: a call's separator is one character, the width at most the maximum", function()
    local ok, v = mod_world([==[data:add{ _type = "base.grid_map", _id = "m", z = "m", map = "+\n\n  #-#\n\n+" }]==])
    assert.is_true(ok, tostring(v))
    v.grid:add("opts.m")
    v.grid:spawn()
    local r = v.grid:room(0, 0, "m")
    assert.error_matches(function() r:appearance{ map_separator_char = "==" } end,
      "room:appearance: map_separator_char must be one character")
    assert.error_matches(function() r:appearance{ width = 100000 } end,
      "room:appearance: width must be an integer from 1 to 1000, got 100000")
    assert.equal(1000, #lines(r:appearance{ width = 1000, map_separator_char = "=" })[1])
  end)

  -- strata play shows a grid room by room:appearance: spec/play_spec.lua.
end)

describe("teleporters with more than one link", function()
  -- "Only a single link (or node) may connect to the teleport link."
  it("refuses a teleporter two links touch, naming it, its line and column", function()
    local err = parse_error("+ 0 1 2 3\n\n2 #-#-#\n  |   |\n1 #-t t>#\n  |     |\n0 #-----#\n\n+ 0 1 2 3\n", { z = "z" })
    assert.matches("TeleporterMapLink 't' at XYZ=(2,1,z)", err, 1, true)
    assert.matches("must have exactly one link connected to it", err, 1, true)
    assert.matches("(found: n, e)", err, 1, true)
    assert.matches("line 5, column 7", err, 1, true)
    -- the reference's own one-way teleport stays as it was
    assert.equal("e>3,0", exits_of(parse("+ 0 1 2 3\n\n0 #-t t>#\n\n+ 0 1 2 3\n", { z = "z" }), 0, 0))
  end)
end)
