-- XY maps (the ASCII map language of Evennia's XYZGrid): parsing, the
-- default legend, custom legends, errors, shortest paths and display.
-- The rules: docs/xy-maps.md.
local strata = require "strata"
local parse = strata.xymap.parse

local function route(xy, a, b)
  local dirs, steps, cost = xy:shortest_path(a, b)
  if dirs == nil then return "", "", nil end -- no route
  local cells = {}
  for _, s in ipairs(steps) do cells[#cells + 1] = ("%s,%s%s"):format(s.x, s.y, s.symbol) end
  return table.concat(dirs, " "), table.concat(cells, " "), cost
end

local function parse_error(map, opts)
  local ok, err = pcall(parse, map, opts or { z = "z" })
  assert.is_false(ok)
  return err
end

describe("strata.xymap", function()
  local BASIC = [[
+ 0 1 2

2 #-#-#
     /
1 #-#
  |  \
0 #---#

+ 0 1 2
]]

  describe("parsing", function()
    it("finds the nodes in scan order (rows bottom-up, left to right)", function()
      local xy = parse(BASIC, { z = "basic" })
      local seen = {}
      for _, n in ipairs(xy:nodes()) do seen[#seen + 1] = n.x .. "," .. n.y end
      assert.are.same({ "0,0", "2,0", "0,1", "1,1", "0,2", "1,2", "2,2" }, seen)
      assert.are.equal("basic", xy.z)
      assert.are.equal(2, xy.max_x)
      assert.are.equal(2, xy.max_y)
      -- a point strata returns carries both spellings, { x, y } and { x =, y = }
      assert.are.same({ 1, 1, x = 1, y = 1, symbol = "#", kind = "node", interrupt = false }, xy:node(1, 1))
      assert.is_nil(xy:node(1, 0))
      assert.matches("7 nodes", tostring(xy))
    end)

    it("ignores the axis numbers, which are optional", function()
      local bare = parse([[
+

  #-#-#
     /
  #-#
  |  \
  #---#

+
]])
      assert.are.equal(#parse(BASIC):nodes(), #bare:nodes())
      assert.are.equal(parse(BASIC):display(), bare:display())
    end)

    it("traces links into exits with averaged long-link weights", function()
      local xy = parse(BASIC)
      local exits = xy:exits(0, 0)
      assert.are.equal(2, #exits)
      assert.are.same({ name = "n", direction = "n", to = { 0, 1, x = 0, y = 1 }, weight = 1 }, exits[1])
      assert.are.same({ name = "e", direction = "e", to = { 2, 0, x = 2, y = 0 }, weight = 1 }, exits[2])
      local back = xy:exits(2, 0) -- traced in the order n, ne, e, se, s, sw, w, nw
      assert.are.equal("w", back[1].name)
      assert.are.equal("nw", back[2].name)
      assert.are.same({ 1, 1, x = 1, y = 1 }, back[2].to)
    end)

    it("uses the last line as the bottom marker when no line matches the top one", function()
      local xy = parse("+\n\n  #-#\n\nx+")
      assert.are.equal(2, #xy:nodes())
    end)
  end)

  describe("the default legend", function()
    it("one-way links lead only where they point", function()
      local xy = parse("+ 0 1 2\n\n0 #-->#\n\n+ 0 1 2")
      assert.are.equal("e", (route(xy, { 0, 0 }, { 2, 0 })))
      assert.are.equal("", (route(xy, { 2, 0 }, { 0, 0 })))
      local v = parse("+ 0\n\n1 #\n  v\n0 #\n\n+ 0")
      assert.are.equal("s", (route(v, { 0, 1 }, { 0, 0 })))
      assert.are.equal("", (route(v, { 0, 0 }, { 0, 1 })))
      local w = parse("+ 0 1\n\n0 #<#\n\n+ 0 1")
      assert.are.equal("w", (route(w, { 1, 0 }, { 0, 0 })))
      local n = parse("+ 0\n\n1 #\n  ^\n0 #\n\n+ 0")
      assert.are.equal("n", (route(n, { 0, 0 }, { 0, 1 })))
    end)

    it("crossings + and x pass straight through", function()
      local xy = parse([[
+ 0 1 2

2   # #
   x|
1 #-+-#
  | |
0 # # #

+ 0 1 2
]])
      assert.are.equal("e", (route(xy, { 0, 1 }, { 2, 1 })))
      assert.are.equal("n", (route(xy, { 1, 0 }, { 1, 2 })))
      assert.are.equal("ne", (route(xy, { 0, 1 }, { 1, 2 })))
      assert.are.equal("sw", (route(xy, { 1, 2 }, { 0, 1 })))
    end)

    it("routers pass opposite sides through and join a knee", function()
      local xy = parse([[
+ 0 1 2

2     #
     /
1 #-o

0

+ 0 1 2
]])
      local dirs, cells = route(xy, { 0, 1 }, { 2, 2 })
      assert.are.equal("e", dirs)
      assert.are.equal("0,1# 0.5,1- 1,1o 1.5,1.5/ 2,2#", cells)
    end)

    it("up and down links name their steps u and d", function()
      local xy = parse("+ 0\n\n1 #\n  u\n0 #\n\n+ 0")
      assert.are.equal("u", (route(xy, { 0, 0 }, { 0, 1 })))
      assert.are.equal("u", (route(xy, { 0, 1 }, { 0, 0 })))
      local d = parse("+ 0 1\n\n0 #d#\n\n+ 0 1")
      assert.are.equal("d", (route(d, { 0, 0 }, { 1, 0 })))
    end)

    it("blocked links are never used and show as the link they replace", function()
      local xy = parse("+ 0 1 2\n\n0 #-#b#\n\n+ 0 1 2")
      assert.are.equal("", (route(xy, { 0, 0 }, { 2, 0 })))
      assert.are.equal("e", (route(xy, { 0, 0 }, { 1, 0 })))
      assert.are.equal("#-#-#", xy:display())
      local around = parse([[
+ 0 1

1 #-#
  | |
0 #b#

+ 0 1
]])
      local dirs, _, cost = route(around, { 0, 0 }, { 1, 0 })
      assert.are.equal("n e s", dirs)
      assert.are.equal(3, cost)
    end)

    it("interrupt nodes and links are marked on the steps", function()
      local xy = parse("+ 0 1 2 3\n\n0 #-I-#i#\n\n+ 0 1 2 3")
      local _, steps = xy:shortest_path({ 0, 0 }, { 3, 0 })
      local marks = {}
      for _, s in ipairs(steps) do marks[#marks + 1] = s.interrupt and s.symbol or "." end
      assert.are.equal(". . I . . i .", table.concat(marks, " "))
      assert.are.equal("#-#-#-#", xy:display())
      assert.is_true(xy:node(1, 0).interrupt)
    end)

    it("teleporters join the links next to them, in pairs", function()
      local xy = parse("+ 0 1 2 3\n\n0 #-t t-#\n\n+ 0 1 2 3")
      local dirs, cells, cost = route(xy, { 0, 0 }, { 3, 0 })
      assert.are.equal("e", dirs)
      assert.are.equal("0,0# 0.5,0- 1,0t 2,0t 2.5,0- 3,0#", cells)
      assert.are.equal(1, cost)
      assert.are.equal("w", (route(xy, { 3, 0 }, { 0, 0 })))
      assert.are.equal("#-   -#", xy:display())
    end)

    it("several teleporter pairs through custom symbols", function()
      local xy = parse("+ 0 1 2 3 4 5\n\n0 #-t t-# #-p p-#\n\n+", {
        legend = { p = { kind = "teleporter" } } })
      -- nodes at X = 0, 3, 4 and 7: two separate teleporter-joined pairs
      assert.are.equal("e", (route(xy, { 0, 0 }, { 3, 0 })))
      assert.are.equal("e", (route(xy, { 4, 0 }, { 7, 0 })))
      assert.are.equal("", (route(xy, { 3, 0 }, { 4, 0 })))
    end)

    it("transition nodes are hidden and take at most one link", function()
      local xy = parse("+ 0 1\n\n0 #-T\n\n+ 0 1", { legend = {
        T = { kind = "transition", target = { 3, 4, "the cave" } } } })
      assert.are.equal("#-", xy:display():gsub(" +$", ""))
      assert.are.same({ 3, 4, "the cave" }, xy:node(1, 0).target)
      assert.are.equal("e", (route(xy, { 0, 0 }, { 1, 0 })))
      local err = parse_error("+ 0 1\n\n1   #\n    |\n0 #-T-#\n\n+ 0 1")
      assert.matches("MapTransitionNode 'T' at XYZ=%(1,0,z%) may have at most one link", err)
    end)

    it("displays | as the markup escape || and keeps the layout", function()
      assert.are.equal("#-#-#\n   / \n#-#  \n||  \\ \n#---#", parse(BASIC):display())
    end)
  end)

  describe("custom legends", function()
    it("sets weights, per-direction weights and averaging", function()
      local xy = parse("+ 0 1 2\n\n0 #=#-#\n\n+ 0 1 2", { legend = { ["="] = { kind = "ew", weight = 5 } } })
      local _, _, cost = xy:shortest_path({ 0, 0 }, { 2, 0 })
      assert.are.equal(6, cost)
      local dir = parse("+ 0 1\n\n0 #=#\n\n+ 0 1",
        { legend = { ["="] = { kind = "ew", weights = { w = 2, e = 7 } } } })
      assert.are.equal(2, select(3, dir:shortest_path({ 0, 0 }, { 1, 0 })))
      assert.are.equal(7, select(3, dir:shortest_path({ 1, 0 }, { 0, 0 })))
      local sum = parse("+ 0 1 2\n\n0 #-==#\n\n+ 0 1 2",
        { legend = { ["="] = { kind = "ew", weight = 3, average = false } } })
      assert.are.equal(7, select(3, sum:shortest_path({ 0, 0 }, { 2, 0 })))
    end)

    it("generic links take explicit directions, and aliases rename steps", function()
      local xy = parse("+ 0 1\n\n0 #y#\n\n+ 0 1", { legend = {
        y = { kind = "link", directions = { w = "e" }, aliases = { e = "climb" }, display = "~" } } })
      assert.are.equal("climb", (route(xy, { 0, 0 }, { 1, 0 })))
      assert.are.equal("", (route(xy, { 1, 0 }, { 0, 0 })))
      assert.are.equal("#~#", xy:display())
    end)

    it("overrides a default symbol", function()
      local xy = parse("+ 0 1\n\n0 #-#\n\n+ 0 1", { legend = { ["-"] = { kind = "ew", weight = 4 } } })
      assert.are.equal(4, select(3, xy:shortest_path({ 0, 0 }, { 1, 0 })))
    end)

    it("rejects bad legend entries", function()
      assert.error_matches(function() parse(BASIC, { legend = { ["##"] = { kind = "node" } } }) end,
        "Map%-legend key '##' is invalid")
      assert.error_matches(function() parse(BASIC, { legend = { [" "] = { kind = "node" } } }) end,
        "is invalid")
      assert.error_matches(function() parse(BASIC, { legend = { q = { kind = "portal" } } }) end,
        "needs a known kind")
      assert.error_matches(function() parse(BASIC, { legend = { q = 5 } } ) end, "must be a table")
      assert.error_matches(function() parse(BASIC, { legend = { q = { kind = "ew", colour = 1 } } }) end,
        "unknown option 'colour'")
      assert.error_matches(function() parse(BASIC, { legend = { q = { kind = "ew", weights = { e = -1 } } } }) end,
        "legend entry 'q': weights.e must be a number >= 1")
      assert.error_matches(function() parse(BASIC, { legend = { q = { kind = "link", directions = { up = "n" } } } }) end,
        "not a direction")
      assert.error_matches(function() parse(BASIC, { legend = { T = { kind = "transition", target = { 1 } } } }) end,
        "target must be")
      assert.error_matches(function() parse(BASIC, { zoom = 2 }) end, "unknown option 'zoom'")
    end)
  end)

  describe("errors name the problem, the symbol, the coordinate and line:column", function()
    it("for markers, symbols and nodes between coordinates", function()
      assert.matches("at least two '%+' symbols", parse_error("#-#\n+"))
      assert.matches("Symbol 'Q' on XY=%(0.5,0%) is not found in LEGEND. %(line 3, column 4%)",
        parse_error("+ 0 1\n\n0 #Q#\n\n+ 0 1"))
      assert.matches("Symbol '#' on XY=%(0.5,0%) marks a MapNode but is located between integer",
        parse_error("+ 0 1\n\n0  #\n\n+ 0 1"))
      assert.matches("No bottom%-left corner%-marker", parse_error("x\n+ 0 1 +"))
      assert.matches("empty", parse_error(""))
    end)

    it("for dangling links and links that do not link back", function()
      assert.matches("EWMapLink '%-' at XYZ=%(0.5,0,z%) points to empty space in the direction e! %(line 3, column 4%)",
        parse_error("+ 0 1\n\n0 #-\n\n+ 0 1"))
      assert.matches("NSMapLink '|' at XYZ=%(1,0,z%) was connected to from the direction w, but is not set up to link in that direction. %(line 3, column 5%)",
        parse_error("+ 0 1 2\n\n0 #-|-#\n\n+ 0 1 2"))
    end)

    it("for routers and smart links that cannot decide", function()
      assert.matches("RouterMapLink 'o' at XYZ=%(1,1,z%) cannot determine how to connect in/out directions n, ne, w.",
        parse_error([[
+ 0 1 2

2   # #
    |/
1 #-o

0

+ 0 1 2
]]))
      assert.matches("BlockedMapLink 'b' at XYZ=%(1,0,z%) must have exactly two connections",
        parse_error("+ 0 1 2\n\n0 #-b-#\n\n+ 0 1 2"))
    end)

    it("for unpaired and crowded teleporters", function()
      assert.matches("TeleporterMapLink 't' at XYZ=%(1,0,z%) found no matching teleporter to link to.",
        parse_error("+ 0 1\n\n0 #-t\n\n+ 0 1"))
      assert.matches("found too many matching teleporters",
        parse_error("+ 0 1 2 3 4\n\n0 #-t t-# t-#\n\n+"))
      assert.matches("must have exactly one link connected to it",
        parse_error("+ 0 1 2\n\n0 #-t-# t-#\n\n+"))
      assert.matches("can only connect to a Link",
        parse_error("+ 0 1 2\n\n0 #t  #-t\n\n+"))
    end)

    it("for duplicate direction names", function()
      assert.matches("BasicMapNode '#' at XYZ=%(1,0,z%) has more than one outgoing direction 'u'",
        parse_error("+ 0 1 2\n\n0 #u#u#\n\n+ 0 1 2"))
    end)
  end)

  describe("shortest_path", function()
    it("returns direction names and every cell walked, with world coordinates", function()
      local dirs, cells, cost = route(parse(BASIC), { 0, 0 }, { 2, 2 })
      -- Two routes of three hops tie; Evennia's choice goes north first.
      assert.are.equal("n e ne", dirs)
      assert.are.equal("0,0# 0,0.5| 0,1# 0.5,1- 1,1# 1.5,1.5/ 2,2#", cells)
      assert.are.equal(3, cost)
      local _, steps = parse(BASIC):shortest_path({ 0, 0 }, { 0, 1 })
      assert.are.same({ 0, 0.5, x = 0, y = 0.5, symbol = "|", node = false, interrupt = false }, steps[2])
    end)

    it("breaks ties toward the predecessor nearest the start, then the highest node index", function()
      -- A diamond: (1,0) and (0,1) both reach (1,1) in two hops; (0,1) has the higher index.
      local xy = parse("+ 0 1\n\n1 #-#\n  | |\n0 #-#\n\n+ 0 1")
      assert.are.equal("n e", (route(xy, { 0, 0 }, { 1, 1 })))
      assert.are.equal("w s", (route(xy, { 1, 1 }, { 0, 0 })))
    end)

    it("returns nil and a reason for no route (as tile maps do), no steps for the same node", function()
      local xy = parse("+ 0 1 2\n\n0 #-# #\n\n+ 0 1 2")
      local d, why = xy:shortest_path({ 0, 0 }, { 2, 0 })
      assert.is_nil(d)
      assert.matches("no route", why)
      local same, steps, cost = xy:shortest_path({ 0, 0 }, { 0, 0 })
      assert.are.same({}, same)
      assert.are.equal(0, cost)
      assert.are.equal(0, #steps)
      local hole = parse(BASIC)
      d, why = hole:shortest_path({ 1, 0 }, { 0, 0 })
      assert.is_nil(d)
      assert.matches("no node", why)
    end)

    it("has no cap on route length", function()
      local row = "  #" .. ("-#"):rep(600)
      local xy = parse("+\n\n" .. row .. "\n\n+")
      local dirs, _, cost = xy:shortest_path({ 0, 0 }, { 600, 0 })
      assert.are.equal(600, #dirs)
      assert.are.equal(600, cost)
    end)

    it("raises for coordinates outside the map", function()
      local xy = parse(BASIC)
      assert.error_matches(function() xy:shortest_path({ 5, 5 }, { 0, 0 }) end,
        "coordinate %(5, 5%) is outside the grid size of %(0,0%) %- %(2, 2%)")
      assert.error_matches(function() xy:node(-1, 0) end, "outside the grid")
      assert.error_matches(function() xy:shortest_path("a", { 0, 0 }) end, "expected a point")
      assert.error_matches(function() xy:exits(1, 0) end, "no node at that coordinate")
    end)
  end)

  it("refuses a closed map", function()
    local xy = parse(BASIC)
    xy:close()
    assert.error_matches(function() xy:display() end, "the map was closed")
  end)
end)

describe("xy:visual_range", function()
  local GRID = [[
+ 0 1 2 3 4

4 #-#-#-#-#
  |   |   |
3 #-#-#-#-#
  |   |   |
2 #-#-#-#-#
  |   |   |
1 #-#-#-#-#
  |   |   |
0 #-#-#-#-#

+ 0 1 2 3 4
]]
  local xy
  before_each(function() xy = parse(GRID) end)

  it("shows what is reachable within dist steps (nodes mode)", function()
    assert.are.equal("  #  \n  ||  \n#-@-#\n  ||  \n  #  ", xy:visual_range({ 2, 2 }, { dist = 1 }))
  end)

  it("shows the square of dist characters around the centre (scan mode)", function()
    assert.are.equal("#-#-#\n  ||  \n#-@-#\n  ||  \n#-#-#",
      xy:visual_range({ 2, 2 }, { dist = 2, mode = "scan" }))
  end)

  it("styles the route to a target as far as the view reaches", function()
    local view = xy:visual_range({ 2, 2 }, { dist = 1, target = { 2, 4 }, target_path_style = "<{display_symbol}>" })
    assert.are.equal("  <#>  \n  <||>  \n#-@-#\n  ||  \n  #  ", view)
  end)

  it("crops to max_size, draws no character when false, whole map when dist is false", function()
    assert.are.equal("  ||  \n#-#-#\n  ||  ",
      xy:visual_range({ 2, 2 }, { dist = 8, max_size = { 5, 3 }, character = false }))
    assert.are.equal(xy:display():gsub("^(.-)#(%-#%-#%-#%-#)$", "%1@%2"),
      xy:visual_range({ 0, 0 }, { dist = false }))
  end)

  it("gives just the character at dist 0 or where there is no node", function()
    assert.are.equal("@", xy:visual_range({ 1, 2 }, { dist = 0 }))
    local holes = parse("+ 0 1\n\n0 # #\n\n+ 0 1")
    assert.are.equal(" ", holes:visual_range({ 0, 0 }, { dist = 0, character = false }))
  end)

  it("does not blow up with distance: each node is visited once", function()
    local side = 60
    local rows = {}
    for y = side - 1, 0, -1 do
      rows[#rows + 1] = "  " .. ("#-"):rep(side - 1) .. "#"
      if y > 0 then rows[#rows + 1] = "  " .. ("|x"):rep(side - 1) .. "|" end
    end
    local big = parse("+\n\n" .. table.concat(rows, "\n") .. "\n\n+")
    local view = big:visual_range({ 30, 30 }, { dist = 40 })
    assert.are.equal(2 * (side - 1) + 1, #view:match("^[^\n]*"):gsub("||", "|"))
  end)

  it("names bad options", function()
    assert.error_matches(function() xy:visual_range({ 2, 2 }, { mode = "node" }) end,
      "Map.get_visual_range 'mode' was 'node' %- it must be either 'scan' or 'nodes'.")
    assert.error_matches(function() xy:visual_range({ 9, 9 }) end, "outside the grid size")
    assert.error_matches(function() xy:visual_range({ 2, 2 }, { range = 3 }) end, "unknown option 'range'")
    assert.error_matches(function() xy:visual_range({ 2, 2 }, { character = 5 }) end, "must be a string or false")
  end)
end)

describe("strata.markup", function()
  it("renders colours as ANSI or strips them, and keeps || as |", function()
    local s = "|y#|n-|r#|n ||"
    assert.are.equal("#-# |", strata.markup.render(s, { color = false }))
    assert.are.equal("\27[1;33m#\27[0m-\27[1;31m#\27[0m |", strata.markup.render(s, { color = true }))
    assert.are.equal("a|qb", strata.markup.strip("a|qb"))
  end)

  it("never colours with NO_COLOR set (the specs run with it)", function()
    assert.is_not_nil(os.getenv("NO_COLOR"))
    assert.are.equal("#", strata.markup.render("|g#|n"))
  end)

  it("names bad arguments", function()
    assert.error_matches(function() strata.markup.render(5) end, "strata.markup.render: expected the text %(a string%), got number")
    assert.error_matches(function() strata.markup.render("x", { colour = true }) end, "unknown option 'colour'")
  end)
end)

describe("strata.xymap.grid (several maps joined by transitions)", function()
  local function maps()
    local a = parse("+ 0 1 2\n\n0 #-#-T\n\n+ 0 1 2", { z = "the large tree",
      legend = { T = { kind = "transition", target = { 0, 0, "the small cave" } } } })
    local b = parse("+ 0 1 2\n\n1 #\n  |\n0 #-#-T\n\n+ 0 1 2", { z = "the small cave",
      legend = { T = { kind = "transition", target = { 1, 0, "the large tree" } } } })
    return a, b
  end

  it("routes across maps through transition nodes", function()
    local grid = strata.xymap.grid{ maps() }
    local dirs, steps, cost = grid:shortest_path({ 0, 0, "the large tree" }, { 0, 1, "the small cave" })
    assert.are.equal("e e n", table.concat(dirs, " "))
    local cells = {}
    for _, s in ipairs(steps) do cells[#cells + 1] = ("%s,%s,%s"):format(s.x, s.y, s.z) end
    assert.are.same({ "0,0,the large tree", "0.5,0,the large tree", "1,0,the large tree",
      "1.5,0,the large tree", "0,0,the small cave", "0,0.5,the small cave", "0,1,the small cave" }, cells)
    assert.are.equal(3, cost)
    local back = grid:shortest_path({ 0, 1, "the small cave" }, { 0, 0, "the large tree" })
    assert.are.equal("s e e w", table.concat(back, " "))
  end)

  it("keeps its maps alive and finds them by Z", function()
    local grid = strata.xymap.grid()
    local a, b = maps()
    grid:add(a):add(b)
    a, b = nil, nil
    collectgarbage()
    assert.matches("the small cave", tostring(grid:map("the small cave")))
    assert.is_nil(grid:map("nowhere"))
    assert.is_nil((grid:shortest_path({ 1, 0, "the large tree" }, { 1, 1, "the small cave" })))
  end)

  it("names an unknown Z, a repeated Z and a bad coordinate", function()
    local a, b = maps()
    local grid = strata.xymap.grid{ a, b }
    assert.error_matches(function() grid:shortest_path({ 0, 0, "moon" }, { 0, 0, "the small cave" }) end,
      "the grid has no map with Z 'moon'")
    assert.error_matches(function() grid:add(a) end, "already has a map with Z 'the large tree'")
    assert.error_matches(function() grid:shortest_path({ 0, 0 }, { 0, 0, "x" }) end, "expected a coordinate {X, Y, Z}")
  end)
end)

describe("legends from the data registry (base.legend)", function()
  local world = strata.world.new{ mods = { "base", "legends" }, mod_path = { "mods", "spec/fixtures/mods" } }
  local MAP = "+ 0 1 2\n\n0 #D#-T\n\n+ 0 1 2"

  it("resolves IDs by symbol key or by the entry's own symbol", function()
    local xy = strata.xymap.parse(MAP, { legend = { D = "legends.door", T = "legends.to_cave" }, world = world })
    assert.are.same({ 1, 0, "the small cave" }, xy:node(2, 0).target)
    assert.are.equal("#+#-", (xy:display():gsub(" +$", "")))
    local _, _, cost = xy:shortest_path({ 0, 0 }, { 1, 0 })
    assert.are.equal(5, cost)
    local listed = strata.xymap.parse(MAP, { legend = { "legends.door", "legends.to_cave" }, world = world })
    assert.are.same({ 1, 0, "the small cave" }, listed:node(2, 0).target)
    assert.is_not_nil(world)
  end)

  it("names unknown IDs, missing and clashing symbols", function()
    assert.error_matches(function() strata.xymap.parse(MAP, { legend = { D = "legends.dor", T = "legends.to_cave" }, world = world }) end,
      "legend 'D': unknown base.legend 'legends.dor'.*legends.door")
    assert.error_matches(function() strata.xymap.parse(MAP, { legend = { "legends.anywhere" }, world = world }) end,
      "base.legend 'legends.anywhere' has no symbol")
    assert.error_matches(function() strata.xymap.parse(MAP, { legend = { X = "legends.door" }, world = world }) end,
      "legend 'X' names base.legend 'legends.door', whose symbol is 'D'")
  end)
end)
