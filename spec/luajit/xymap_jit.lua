-- strata.ffi under LuaJIT: XY maps (parse, nodes, exits, routes, views,
-- pictures), the same report from the same source under both modules.
local strata = require "strata.ffi"
local js = require "jit_support"

-- A report of every map of Evennia's XYZGrid tests (the fixture mod's) under
-- `strata` (either module): nodes, exits, every route between nodes, views.
local REPORT = [[
local function report(strata, maps)
  local out = {}
  local function put(...) local t = { ... } for i = 1, #t do t[i] = tostring(t[i]) end out[#out + 1] = table.concat(t, " ") end
  local ids = {}
  for id in pairs(maps) do ids[#ids + 1] = id end
  table.sort(ids)
  local legends = { map12a = { T = { kind = "transition", target = { 1, 0, "map12b" } } } }
  for _, id in ipairs(ids) do
    local xy, why = strata.xymap.parse(maps[id], { z = id, legend = legends[id] })
    if not xy then put(id, "refused") else
      put(id, tostring(xy))
      local nodes = xy:nodes()
      for _, n in ipairs(nodes) do
        put(" node", n.x, n.y, n[1], n[2], n.symbol, n.kind, n.interrupt, n.target and ("%g,%g,%s"):format(n.target[1], n.target[2], n.target[3]) or "")
        for _, e in ipairs(xy:exits(n.x, n.y)) do put("  exit", e.name, e.direction, e.to.x, e.to.y, ("%.3f"):format(e.weight)) end
      end
      for _, a in ipairs(nodes) do for _, b in ipairs(nodes) do
        local dirs, steps, cost = xy:shortest_path({ a.x, a.y }, b)
        if dirs then
          local cells = {}
          for _, s in ipairs(steps) do cells[#cells + 1] = s.x .. "," .. s.y .. s.symbol .. (s.node and "N" or "") end
          put(" route", a.x, a.y, b.x, b.y, table.concat(dirs, " "), ("%.3f"):format(cost), table.concat(cells, " "))
        else put(" route", a.x, a.y, b.x, b.y, steps) end
      end end
      put(xy:display())
      put(xy:display{ builder = true })
      local n = nodes[1]
      if n then
        put(xy:visual_range({ n.x, n.y }, { dist = 2 }))
        put(xy:visual_range(n, { dist = 3, mode = "scan", character = false }))
        local last = nodes[#nodes]
        put(xy:visual_range(n, { dist = false, target = { last.x, last.y }, max_size = { 7, 5 } }))
        put(#xy:to_svg{ cell = 10, from = n, to = last })
      end
    end
  end
  return table.concat(out, "\n")
end
]]
local report = assert(loadstring(REPORT .. "return report"))()

describe("strata.ffi (LuaJIT) XY maps", function()
  it("reads, routes and draws Evennia's maps as the 5.4 module does", function()
    local maps = js.root .. "/spec/fixtures/mods/xyzgrid/maps.lua"
    local expected = js.lua54(REPORT .. ("io.write(report(require 'strata', dofile(%q)))"):format(maps))
    assert.matches("route", expected)
    assert.equal(expected, report(strata, dofile(maps)))
  end)

  it("answers no node and no route with nil, reason, as the 5.4 module does", function()
    local xy = assert(strata.xymap.parse("+ 0 1 2 3\n\n0 #-#   #\n\n+ 0 1 2 3", { z = "lane" }))
    assert.same({ nil, "no node at (2, 0)" }, { xy:shortest_path({ 2, 0 }, { 3, 0 }) })
    assert.same({ nil, "no route between these nodes" }, { xy:shortest_path({ 0, 0 }, { 3, 0 }) })
    local dirs, steps, cost = xy:shortest_path({ 0, 0 }, { 0, 0 })
    assert.same({}, dirs)
    assert.equal(0, cost)
    assert.equal("lane", xy.z)
    assert.matches("xy:node: coordinate %(9, 0%) is outside the grid size", js.raised(xy.node, xy, 9, 0))
    assert.matches("xy:visual_range: unknown option 'dst' %(nearest known: dist", js.raised(xy.visual_range, xy, { 0, 0 }, { dst = 1 }))
    assert.matches("strata.xymap.parse: legend entry 'Q' needs a known kind",
      js.raised(strata.xymap.parse, "+ 0\n\n0 Q\n\n+ 0", { legend = { Q = { kind = "nope" } } }))
    local bad, why = strata.xymap.parse("+ 0 1\n\n0 #-\n\n+ 0 1")
    assert.is_nil(bad)
    assert.matches("^strata.xymap.parse: ", why)
    xy:close()
    assert.matches("xy:nodes: the map was closed", js.raised(xy.nodes, xy))
    assert.equal("strata.xymap (closed)", tostring(xy))
    assert.equal(js.lua54("io.write(table.concat(require('strata').xymap.kinds, ' '))"), table.concat(strata.xymap.kinds, " "))
  end)
end)
