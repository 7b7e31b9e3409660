-- KeeperRL's layout corpus (spec/fixtures/keeperrl, CC BY-SA 2.0: see the
-- README and LICENSE there): every layout parses, and each runs at the sizes
-- the game uses with a success rate per attempt as good as KeeperRL's.
--
-- KeeperRL's rates were measured on 50 attempts, so a rate of ours below
-- theirs by less than the sampling noise of the two measurements is not a
-- difference: we run 200 seeds and ask that ours be at least KeeperRL's minus
-- two standard deviations of the difference of the two rates (one-sided,
-- about 98 % confidence; variances from Laplace's estimates, since 50/50 does
-- not mean a rate of exactly 1). KeeperRL's rates are layout_sizes.tsv's;
-- docs/benchmarks.md ("Layouts") says which of ours are lower and why.
local strata = require "strata"
local L = strata.layout

-- The fixtures, from the source tree (STRATA_SOURCE_DIR, set by CMake) or
-- from beside this spec.
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local dir = (os.getenv("STRATA_SOURCE_DIR") and os.getenv("STRATA_SOURCE_DIR") .. "/spec" or here)
  .. "/fixtures/keeperrl"
local SEEDS = 200

local function corpus_file(name) return assert(require("support").read(dir .. "/" .. name), "cannot read " .. name) end

describe("the KeeperRL corpus", function()
  local layouts, names = L.parse_file(corpus_file("random_layouts.txt"), "random_layouts.txt")

  it("parses: all 48 named layouts", function()
    assert.equal(48, #names)
    local seen = {}
    for _, n in ipairs(names) do
      assert.is_nil(seen[n])
      seen[n] = true
      assert.equal("userdata", type(layouts[n]))
    end
  end)

  it("reads its 15 mappings and its glyph table", function()
    local maps, order = L.read_mappings(dir .. "/layout_mapping.txt")
    assert.equal(15, #order)
    assert.same({ { "Place", "HELL_MOUNTAIN" } }, maps.z_level_hell.hard_rock)
    assert.is_not_nil(maps.z_level_hell.floor) -- inherited with append
    local g = L.read_glyphs(dir .. "/glyphs.txt")
    assert.equal("#", g.castle_wall.glyph)
    assert.equal("gray", g.castle_wall.color)
  end)

  it("runs each layout at its sizes, succeeding as often as KeeperRL", function()
    local rows, report = 0, {}
    for line in corpus_file("layout_sizes.tsv"):gmatch("[^\n]+") do
      local cols = {}
      for c in (line .. "\t"):gmatch("([^\t]*)\t") do cols[#cols + 1] = c end
      local name, w, h, k_ok, k_n = cols[1], tonumber(cols[4]), tonumber(cols[5]), tonumber(cols[7]), tonumber(cols[8])
      if w and layouts[name] then
        rows = rows + 1
        local ok = 0
        for seed = 1, SEEDS do
          local m = strata.tilemap.new{ width = w, height = h }
          if L.run(layouts[name], m, { seed = seed }) then ok = ok + 1 end
        end
        local p, q = ok / SEEDS, k_ok / k_n
        -- variances from Laplace's estimates (k + 1) / (n + 2): a rate measured
        -- as 50/50 is not known to be exactly 1
        local pa, qa = (ok + 1) / (SEEDS + 2), (k_ok + 1) / (k_n + 2)
        local sd = math.sqrt(pa * (1 - pa) / SEEDS + qa * (1 - qa) / k_n)
        report[#report + 1] = ("%s %dx%d: %d/%d (KeeperRL %d/%d)"):format(name, w, h, ok, SEEDS, k_ok, k_n)
        assert.is_true(p >= q - 2 * sd, report[#report])
      end
    end
    assert.equal(50, rows) -- every row of layout_sizes.tsv names a layout of the file
  end)
end)
