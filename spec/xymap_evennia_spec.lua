-- Shortest routes on the maps of Evennia's XYZGrid unit tests, with the routes
-- those tests expect since they were fixed for scipy 1.17 (Evennia commit
-- 4ab0fdeee8). Many of these are ties between equally short routes; strata
-- breaks them by the rule in core/src/xymap_path.c's header. The maps and the
-- expected directions are restated here as facts about behaviour; the older
-- expectations (Evennia before that commit) differ in 11 of the 70 cases.
-- The rules: docs/xy-maps.md, "Routes".
local strata = require "strata"

-- The maps: the xyzgrid fixture mod's (MAP1 ... MAP12a).
local MAPS = {}
for id, text in pairs(dofile("spec/fixtures/mods/xyzgrid/maps.lua")) do
  MAPS[id:upper():gsub("A$", "a")] = text
end

local LEGENDS = {
  MAP12a = { T = { kind = "transition", target = { 1, 0, "map12b" } } },
}

-- { map, from, to, directions (space-separated, "" for no route)[, cells walked] }
local CASES = {
  { "MAP1", { 0, 0 }, { 1, 1 }, "n e" },
  { "MAP2", { 1, 0 }, { 4, 0 }, "e e e" },
  { "MAP2", { 1, 0 }, { 5, 1 }, "n e e e" },
  { "MAP2", { 2, 2 }, { 2, 5 }, "n n" },
  { "MAP2", { 4, 4 }, { 0, 5 }, "w n w w" },
  { "MAP2", { 4, 0 }, { 0, 5 }, "n w n n n w w" },
  { "MAP2", { 5, 3 }, { 0, 3 }, "s w w w w n" },
  { "MAP3", { 0, 0 }, { 1, 0 }, "" },
  { "MAP3", { 2, 0 }, { 5, 0 }, "e e" },
  { "MAP3", { 0, 0 }, { 1, 1 }, "ne" },
  { "MAP3", { 4, 1 }, { 4, 3 }, "ne nw" },
  { "MAP3", { 2, 2 }, { 3, 5 }, "nw ne" },
  { "MAP3", { 2, 2 }, { 1, 5 }, "nw ne w" },
  { "MAP3", { 5, 5 }, { 0, 0 }, "sw nw sw se sw sw" },
  { "MAP3", { 5, 2 }, { 1, 2 }, "nw n nw sw s" },
  { "MAP3", { 4, 1 }, { 1, 1 }, "nw w sw" },
  { "MAP4", { 1, 0 }, { 1, 2 }, "n" },
  { "MAP4", { 0, 1 }, { 2, 1 }, "e" },
  { "MAP4", { 4, 1 }, { 1, 0 }, "w w n e s" },
  { "MAP4", { 1, 2 }, { 2, 3 }, "ne" },
  { "MAP4", { 2, 2 }, { 0, 4 }, "ne w nw w" },
  { "MAP5", { 0, 0 }, { 1, 0 }, "e" },
  { "MAP5", { 1, 0 }, { 0, 0 }, "" },
  { "MAP5", { 0, 1 }, { 1, 1 }, "e" },
  { "MAP5", { 1, 1 }, { 0, 1 }, "n w s" },
  { "MAP6", { 0, 0 }, { 2, 0 }, "e e" },
  { "MAP6", { 2, 0 }, { 0, 0 }, "e n w s w" },
  { "MAP6", { 4, 0 }, { 3, 0 }, "w" },
  { "MAP6", { 3, 0 }, { 4, 0 }, "n e s" },
  { "MAP6", { 1, 1 }, { 1, 2 }, "n" },
  { "MAP6", { 1, 2 }, { 1, 1 }, "e e s w" },
  { "MAP6", { 3, 1 }, { 1, 4 }, "w n n" },
  { "MAP6", { 0, 4 }, { 0, 0 }, "e e e s s s w s w" },
  { "MAP7", { 1, 0 }, { 1, 2 }, "n" },
  { "MAP7", { 1, 2 }, { 1, 0 }, "s" },
  { "MAP7", { 0, 1 }, { 2, 1 }, "e" },
  { "MAP7", { 2, 1 }, { 0, 1 }, "w" },
  { "MAP8", { 2, 0 }, { 2, 2 }, "n" },
  { "MAP8", { 0, 0 }, { 5, 3 }, "e e" },
  { "MAP8", { 5, 1 }, { 0, 3 }, "w w n w" },
  { "MAP8", { 1, 1 }, { 2, 2 }, "n w s" },
  { "MAP8", { 5, 3 }, { 5, 3 }, "" },
  { "MAP8", { 5, 3 }, { 0, 4 }, "s n n w" },
  { "MAP8", { 1, 4 }, { 3, 3 }, "w s e" },
  { "MAP9", { 0, 0 }, { 0, 1 }, "u" },
  { "MAP9", { 0, 0 }, { 1, 0 }, "d" },
  { "MAP9", { 1, 0 }, { 2, 1 }, "d u e u e d" },
  { "MAP9", { 2, 1 }, { 0, 1 }, "u w d w" },
  { "MAP10", { 0, 0 }, { 1, 0 }, "n e s" },
  { "MAP10", { 3, 0 }, { 3, 1 }, "" },
  { "MAP10", { 1, 3 }, { 0, 4 }, "e n w w" },
  { "MAP10", { 0, 1 }, { 3, 2 }, "e n e e" },
  { "MAP10", { 0, 1 }, { 0, 3 }, "e n n w" },
  { "MAP10", { 1, 3 }, { 0, 3 }, "w" },
  { "MAP10", { 3, 2 }, { 2, 2 }, "w" },
  { "MAP10", { 3, 2 }, { 1, 2 }, "w w" },
  { "MAP10", { 3, 3 }, { 0, 3 }, "w w", "3,3 2.5,3 2,3 1.5,3 1,3 0.5,3 0,3" },
  { "MAP10", { 2, 2 }, { 3, 2 }, "e", "2,2 2.5,2 3,2" },
  { "MAP11", { 2, 0 }, { 1, 2 }, "e nw e" },
  { "MAP11", { 1, 2 }, { 2, 0 }, "w se w" },
  { "MAP11", { 3, 0 }, { 0, 2 }, "nw", "3,0 2.5,0.5 2,1 1,1 0.5,1.5 0,2" },
  { "MAP11", { 0, 2 }, { 3, 0 }, "se", "0,2 0.5,1.5 1,1 2,1 2.5,0.5 3,0" },
  { "MAP12a", { 1, 0 }, { 1, 1 }, "w n e" },
  { "MAP12a", { 1, 1 }, { 1, 0 }, "w s e" },
}

local function cells_of(steps)
  local out = {}
  for _, s in ipairs(steps) do out[#out + 1] = ("%g,%g"):format(s.x, s.y) end
  return table.concat(out, " ")
end

describe("strata.xymap routes on Evennia's test maps", function()
  local parsed = {}
  local function map(name)
    parsed[name] = parsed[name] or strata.xymap.parse(MAPS[name], { legend = LEGENDS[name], z = name })
    return parsed[name]
  end

  for _, c in ipairs(CASES) do
    local name, from, to, want, cells = c[1], c[2], c[3], c[4], c[5]
    it(("%s (%d,%d) -> (%d,%d): %s"):format(name, from[1], from[2], to[1], to[2],
      want == "" and "no route" or want), function()
      local dirs, steps = map(name):shortest_path(from, to)
      if want == "" and from[1] .. "," .. from[2] ~= to[1] .. "," .. to[2] then
        assert.is_nil(dirs)                     -- no route: nil and a reason, as for tile maps
        return
      end
      assert.are.equal(want, table.concat(dirs, " "))
      if cells then assert.are.equal(cells, cells_of(steps)) end
    end)
  end

  it("walks back over the exactly shortest predecessor, not one a rounding error away", function()
    -- From (1,0) to (0,2) two five-hop routes cost 5.5 on paper: e n w w n sums to
    -- 5.5 in doubles, e n w n w to 5.500000000000001. Only the first
    -- is shortest to a heap Dijkstra such as scipy's, though the second's last
    -- predecessor, (1,2), is nearer the start than the first's, (0,1).
    local xy = strata.xymap.parse("+\n\n  #-#-#\n  | | |\n  #-#=#\n      |\n  #-#-#\n\n+", {
      legend = { ["-"] = { kind = "ew", weight = 1.2 }, ["="] = { kind = "ew", weight = 1.1 },
                 ["|"] = { kind = "ns", weight = 1.0 } } })
    local dirs, _, cost = xy:shortest_path({ 1, 0 }, { 0, 2 })
    assert.are.equal("e n w w n", table.concat(dirs, " "))
    assert.are.equal(1.2 + 1.0 + 1.1 + 1.2 + 1.0, cost)
  end)
end)
