-- Pictures of maps (issue "See it and drive it"): SVG that parses as XML, PNG
-- that decodes (python3's xml and zlib read them back), and `strata render`.
local strata = require "strata"
local support = require "support"

local bin = os.getenv("STRATA_BIN")

-- Decodes a PNG (8-bit RGB, filter 0 rows, as strata writes them) with python3
-- and returns width, height and the colours at the given pixels ("r,g,b").
local function png_pixels(path, points)
  local py = [[
import sys, zlib, struct
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w = 8, b'', 0
while pos < len(d):
    n, = struct.unpack('>I', d[pos:pos+4]); kind = d[pos+4:pos+8]; body = d[pos+8:pos+8+n]
    assert zlib.crc32(d[pos+4:pos+8+n]) & 0xffffffff == struct.unpack('>I', d[pos+8+n:pos+12+n])[0]
    if kind == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10]); assert (depth, ctype) == (8, 2)
    if kind == b'IDAT': idat += body
    pos += 12 + n
raw = zlib.decompress(idat); row = 1 + 3 * w
assert len(raw) == row * h
print(w, h)
for p in sys.argv[2:]:
    x, y = map(int, p.split(','))
    assert raw[y * row] == 0
    o = y * row + 1 + 3 * x
    print('%d,%d,%d' % tuple(raw[o:o+3]))
]]
  local script = os.tmpname()
  support.write(script, py)
  local args = {}
  for _, p in ipairs(points) do args[#args + 1] = p[1] .. "," .. p[2] end
  local out, code = support.sh(("python3 %s %s %s"):format(script, path, table.concat(args, " ")))
  os.remove(script)
  assert.equal(0, code, out)
  local lines = {}
  for l in out:gmatch("[^\n]+") do lines[#lines + 1] = l end
  local w, h = lines[1]:match("(%d+) (%d+)")
  return tonumber(w), tonumber(h), { table.unpack(lines, 2) }
end

-- Parses SVG text as XML with python3; returns the root's width, height and
-- how many rect / text / polyline elements it holds.
local function svg_facts(text)
  local path = os.tmpname()
  support.write(path, text)
  local out, code = support.sh(("python3 -c \"import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); " ..
    "ns = '{http://www.w3.org/2000/svg}'; print(r.get('width'), r.get('height'), len(r.findall('.//' + ns + 'rect')), " ..
    "len(r.findall('.//' + ns + 'text')), len(r.findall('.//' + ns + 'polyline')))\" %s"):format(path))
  os.remove(path)
  assert.equal(0, code, out)
  local w, h, rects, texts, lines = out:match("(%d+) (%d+) (%d+) (%d+) (%d+)")
  return tonumber(w), tonumber(h), tonumber(rects), tonumber(texts), tonumber(lines)
end

describe("pictures", function()
  local world = strata.world.new{ seed = 1 }
  local m = world:create_map{ width = 10, height = 5, fill = "floor" }
  m:fill(5, 0, 1, 4, "wall")
  m:set(2, 2, "water")
  local path = assert(m:find_path({ 0, 0 }, { 9, 0 }, { connectivity = 8 }))

  it("a tile map as SVG: valid XML, one square per run of cells, the route drawn", function()
    local w, h, rects, _, lines = svg_facts(m:to_svg{ cell = 8, path = path })
    assert.same({ 80, 40 }, { w, h })
    assert.is_true(rects >= 5)
    assert.equal(1, lines)
    local text = m:to_svg{ cell = 8 }
    assert.truthy(text:find('fill="#404040"', 1, true))   -- wall: impassable, no colour
    assert.truthy(text:find('fill="#325abe"', 1, true))   -- water: base.token colour blue
    assert.is_nil(text:find("polyline", 1, true))
  end)

  it("a tile map as PNG: it decodes, its size and colours are the cells'", function()
    local file = os.tmpname()
    support.write(file, m:to_png{ cell = 6, path = path })
    local w, h, px = png_pixels(file, { { 5 * 6 + 1, 1 }, { 2 * 6 + 1, 2 * 6 + 1 }, { 7 * 6 + 1, 4 * 6 + 1 },
      { 0 * 6 + 3, 0 * 6 + 3 } })
    os.remove(file)
    assert.same({ 60, 30 }, { w, h })
    assert.equal("64,64,64", px[1])       -- the wall
    assert.equal("50,90,190", px[2])      -- the water
    assert.equal("216,208,192", px[3])    -- floor off the route
    assert.equal("230,60,40", px[4])      -- the middle of a route cell
  end)

  it("an XY map as SVG: its glyphs and the route's cells", function()
    local xy = strata.xymap.parse("+ 0 1 2\n\n1 #-#\n  | |\n0 #-#-#\n\n+ 0 1 2")
    local w, h, rects, texts = svg_facts(xy:to_svg{ cell = 10, from = { 0, 0 }, to = { 1, 1 } })
    assert.same({ 50, 30 }, { w, h })
    assert.equal(1 + 5, rects)           -- the background and the five cells walked
    assert.equal(10, texts)              -- five nodes and five links
    assert.error_matches(function() xy:to_svg{ from = { 0, 0 } } end, "both 'from' and 'to'")
  end)

  it("refuses bad sizes and foreign paths with clear errors", function()
    assert.error_matches(function() m:to_png{ cell = 65 } end, "cell must be 1 to 64")
    assert.error_matches(function() m:to_svg{ path = { { 99, 0 } } } end, "outside the 10x5 map")
    local big = world:create_map{ width = 2000, height = 10 }
    assert.error_matches(function() big:to_png{ cell = 10 } end, "larger than 16384 pixels")
  end)

  it("strata render draws a saved world's map and a mod's layout", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local dir = support.tempdir()
    world:create_actor{ map = m, x = 0, y = 0, player = true }
    world:save(dir .. "/w.db")
    local out, code = support.sh(("%s render %s/w.db --png %s/w.png --cell 4 --path 0,0,9,0"):format(bin, dir, dir))
    assert.equal(0, code, out)
    local w, h, px = png_pixels(dir .. "/w.png", { { 5 * 4 + 1, 1 } })
    assert.same({ 40, 20 }, { w, h })
    assert.equal("64,64,64", px[1])
    out, code = support.sh(("%s render crypt.level --mods crypt --mod-path %s/spec/fixtures/mods --svg %s/l.svg --seed 3")
      :format(bin, os.getenv("STRATA_SOURCE_DIR") or ".", dir))
    assert.equal(0, code, out)
    local lw, lh = svg_facts(support.read(dir .. "/l.svg"))
    assert.same({ 480, 240 }, { lw, lh })
    out, code = support.sh(("%s render %s/w.db"):format(bin, dir))
    assert.equal(2, code) -- a mistake in the arguments
    assert.equal("strata: render: give one of --svg FILE, --png FILE and --info; try 'strata render --help'\n", out)
    os.execute("rm -rf " .. dir)
  end)
end)
