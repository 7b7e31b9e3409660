-- The bookkeeping has one owner (issue 30, "a typed bookkeeping schema"): what
-- areas, maps, features, the world record and the grid's map list keep is
-- read and written by the core (core/src/sys.c spells its stored layout), and
-- the Lua layer reads it through the runtime's getters, never through `sys`
-- paths; the stored layout stays the one saves have always held.
local strata = require "strata"
local support = require "support"
local root = os.getenv("STRATA_SOURCE_DIR") or "."


-- Lines of a Lua file that read or write a `sys` path (comments left out).
local function sys_lines(path)
  local out = {}
  local n = 0
  for line in (assert(support.read(root .. "/" .. path), path) .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    local code = line:gsub("%-%-.*$", "")
    if code:find('"sys"', 1, true) or code:find("sys(", 1, true) then out[#out + 1] = n .. ": " .. line end
  end
  return out
end

describe("the bookkeeping schema", function()
  it("no file of the Lua library reads or writes a sys path", function()
    local files = support.library_files()
    assert.is_true(#files > 20)
    for _, file in ipairs(files) do assert.same({}, sys_lines(file), file) end
  end)

  it("a map's own tokens are kept by the core, across a save", function()
    local w = strata.world.new{ seed = 2 }
    local m = w:create_map{ width = 3, height = 1, fill = "floor", tokens = { bog = { cost = 5, glyph = "~" } } }
    m:define_token("pit", { passable = false })
    m:set(1, 0, "bog")
    m:set(2, 0, "pit")
    assert.same({ bog = { cost = 5, glyph = "~" }, pit = { passable = false } }, support.runtime(w):map_tokens(m.uid))
    local path = os.tmpname()
    w:save(path)
    local r = strata.world.open(path)
    os.remove(path)
    local m2 = r:object(m.uid)
    assert.equal(5, m2:cost(1, 0))
    assert.is_false(m2:passable(2, 0))
    assert.same({ bog = { cost = 5, glyph = "~" }, pit = { passable = false } }, support.runtime(r):map_tokens(m.uid))
  end)

  it("fields read through the core keep the saved layout", function()
    local w = strata.world.new{ seed = 3, mods = { "base", "examples" } }
    local over = w:unique_area("examples.north_tyris")
    local map = over:floor(1)
    local path = os.tmpname()
    w:save(path)
    local r = strata.world.open(path, { mods = { "base", "examples" } })
    os.remove(path)
    local a2 = r:find_unique("examples.north_tyris")
    assert.equal(over.uid, a2.uid)
    local m2 = a2:floor(1)
    assert.equal(map.uid, m2.uid)
    local area, floor = r:area_of(m2)
    assert.equal(a2, area)
    assert.equal(1, floor)
    assert.equal(1, m2.floor)
    -- an entrance leads to its area's starting floor when it names none
    for f in m2:features() do
      if f.type == "entrance" then
        assert.is_number(f.target.floor)
        assert.equal(f.target.area.starting_floor, f.target.floor)
        assert.is_nil(f.floor_delta)
      end
    end
  end)

  it("the grid's map list is the core's, on one object, across a save", function()
    local w = strata.world.new{ seed = 1, mods = { "base", "examples" } }
    assert.same({}, w.grid:maps())
    local kinds = {}
    for _, o in ipairs(support.state(w):objects()) do kinds[o.kind] = (kinds[o.kind] or 0) + 1 end
    assert.is_nil(kinds.grid_maps)
    local ids = {}
    for id in pairs(support.registry(w).by_type["base.grid_map"] or {}) do ids[#ids + 1] = id end
    table.sort(ids)
    if #ids == 0 then return end
    w.grid:add(ids[1])
    assert.same({ ids[1] }, support.state(w):grid_map_ids())
    local path = os.tmpname()
    w:save(path)
    local r = strata.world.open(path, { mods = { "base", "examples" } })
    os.remove(path)
    assert.same({ ids[1] }, support.state(r):grid_map_ids())
    assert.equal(ids[1], r.grid:maps()[1].id)
  end)
end)
