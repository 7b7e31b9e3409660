-- strata.layout: the layout language (KeeperRL's map generator language) from
-- Lua. Constructors build generators as values; each writes the same text the
-- language would, and the C reader turns that text into the tree that runs,
-- so a generator built in Lua and one written as text are the same thing.
local core = require "strata.core"
local private = require "strata.private"
local options = require "strata.options"
local boundary = require "strata.boundary"
local paths = require "strata.paths"

local M = {}

-- A node has no fields of its own (its text and kind are in a weak side
-- table): strata.layout.none and the others are shared by the host and every
-- mod, so none of them may be changed by assignment.
local node_fields = setmetatable({}, { __mode = "k" })
local Node = {}
Node.__index = function(n, k) local f = node_fields[n] return f and f[k] end
Node.__newindex = function() error("strata.layout: a generator or predicate is read-only", 2) end
Node.__tostring = function(n) return n.text end

local function node(text, kind)
  local n = setmetatable({}, Node)
  node_fields[n] = { text = text, kind = kind }
  return n
end
private.protect(Node, "strata.layout_node")
local function is_node(v) return type(v) == "table" and debug.getmetatable(v) == Node end

-- (Every function of this module is public, wrapped below: the wrapper puts
-- the caller's line.)
local function fail(fmt, ...) error(("strata.layout." .. fmt):format(...), 0) end

local function quote(s, where)
  if type(s) ~= "string" then fail("%s: expected a token (string), got %s", where, type(s)) end
  return '"' .. s:gsub('[\\"]', "\\%0") .. '"'
end

local function int(v, where)
  if math.type(v) ~= "integer" then fail("%s: expected an integer, got %s", where, tostring(v)) end
  return tostring(v)
end

local function num(v, where)
  if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
    fail("%s: expected a number, got %s", where, tostring(v))
  end
  return math.type(v) == "integer" and tostring(v) or ("%.17g"):format(v)
end

local function vec2(v, where)
  if type(v) ~= "table" then fail("%s: expected {x, y}, got %s", where, type(v)) end
  return ("{%s %s}"):format(int(v.x or v[1], where), int(v.y or v[2], where))
end

local function list(v, where)
  if type(v) ~= "table" then fail("%s: expected a list, got %s", where, type(v)) end
  return v
end

-- The text of v, a node of `kind` ("generator", made by e.g. strata.layout.set).
local function node_text(v, kind, example, where)
  if not is_node(v) or v.kind ~= kind then
    fail("%s: expected a %s (strata.layout.%s(...), ...), got %s", where, kind, example, tostring(v))
  end
  return v.text
end
local function gen(v, where) return node_text(v, "generator", "set", where) end
local function pred(v, where) return node_text(v, "predicate", "on", where) end

local function G(text) return node(text, "generator") end
local function P(text) return node(text, "predicate") end

local function tokens(name, ...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = quote((select(i, ...)), name) end
  return ("(%s)"):format(table.concat(parts, ", "))
end

-- ---- generators ---------------------------------------------------------------------
M.none = G("None")
M.fail = G("Fail")
function M.set(...) return G("Set" .. tokens("set", ...)) end
function M.reset(...) return G("Reset" .. tokens("reset", ...)) end
function M.remove(...) return G("Remove" .. tokens("remove", ...)) end
function M.set_front(t) return G(("SetFront(%s)"):format(quote(t, "set_front"))) end

function M.filter(p, g, alt)
  return G(("Filter(%s, %s%s)"):format(pred(p, "filter"), gen(g, "filter"), alt and ", " .. gen(alt, "filter") or ""))
end

-- margins(width, border, inside) or margins(side, width, border, inside);
-- name: the public function its errors name (margins, inside, border).
local function margins(name, a, b, c, d)
  if type(a) == "string" then
    if not ({ TOP = 1, BOTTOM = 1, LEFT = 1, RIGHT = 1 })[a:upper()] then fail("%s: side must be top, bottom, left or right, got %s", name, a) end
    return G(("MarginImpl(%s, %s, %s, %s)"):format(a:upper(), int(b, name), gen(c or M.none, name), gen(d or M.none, name)))
  end
  return G(("Margins(%s, %s, %s)"):format(int(a, name), gen(b or M.none, name), gen(c or M.none, name)))
end
function M.margins(a, b, c, d) return margins("margins", a, b, c, d) end
function M.inside(a, b, c)
  if type(a) == "string" then return margins("inside", a, b, M.none, c) end
  return margins("inside", a, M.none, b)
end
function M.border(a, b, c)
  if type(a) == "string" then return margins("border", a, b, c, M.none) end
  return margins("border", a, b, M.none)
end

function M.split_h(r, left, right)
  return G(("SplitH(%s, %s, %s)"):format(num(r, "split_h"), gen(left or M.none, "split_h"), gen(right or M.none, "split_h")))
end
function M.split_v(r, top, bottom)
  return G(("SplitV(%s, %s, %s)"):format(num(r, "split_v"), gen(top or M.none, "split_v"), gen(bottom or M.none, "split_v")))
end

local POSITIONS = {}
for _, p in ipairs{ "MIDDLE", "MIDDLE_V", "MIDDLE_H", "LEFT_CENTER", "RIGHT_CENTER", "TOP_CENTER",
  "BOTTOM_CENTER", "TOP_RIGHT", "TOP_LEFT", "BOTTOM_RIGHT", "BOTTOM_LEFT", "LEFT_STRETCHED",
  "RIGHT_STRETCHED", "BOTTOM_STRETCHED", "TOP_STRETCHED" } do POSITIONS[p] = true end

local function sizes(o, where)
  local parts = {}
  if o.size then parts[#parts + 1] = "size = " .. vec2(o.size, where) end
  if o.min_size then parts[#parts + 1] = "minSize = " .. vec2(o.min_size, where) end
  if o.max_size then parts[#parts + 1] = "maxSize = " .. vec2(o.max_size, where) end
  return parts
end

-- position{ position = "middle", size = {x, y} | min_size =, max_size =, generator = }
function M.position(o)
  if type(o) ~= "table" then fail("position: expected a table") end
  local pos = type(o.position) == "string" and o.position:upper() or "MIDDLE"
  if not POSITIONS[pos] then fail("position: unknown position %s", tostring(o.position)) end
  local parts = sizes(o, "position")
  table.insert(parts, 1, "position = " .. pos)
  parts[#parts + 1] = "generator = " .. gen(o.generator, "position")
  return G("Position(" .. table.concat(parts, " ") .. ")")
end

local function range(v, where)
  if math.type(v) == "integer" then return tostring(v) end
  if type(v) == "table" then
    int(v[2], where)
    return ("{%s %s}"):format(int(v[1], where), v[2] + 1)
  end
  fail("%s: expected an integer or {min, max}, got %s", where, tostring(v))
end

-- A max_size as the text says it (one past the last size taken).
local function past(v, where)
  vec2(v, where)
  return { (v.x or v[1]) + 1, (v.y or v[2]) + 1 }
end

-- One rectangle's fields as the text says them (on a copy: max_size goes one past).
local function place_elem(e)
  local o = {}
  for k, v in pairs(e) do o[k] = v end
  if o.max_size then o.max_size = past(o.max_size, "place max_size") end
  local parts = sizes(o, "place")
  parts[#parts + 1] = "generator = " .. gen(o.generator, "place")
  if o.count then parts[#parts + 1] = "count = " .. range(o.count, "place count") end
  if o.predicate then parts[#parts + 1] = "predicate = " .. pred(o.predicate, "place") end
  if o.min_spacing then parts[#parts + 1] = "minSpacing = " .. int(o.min_spacing, "place min_spacing") end
  return "(" .. table.concat(parts, " ") .. ")"
end

-- place{ size | min_size, max_size (max included), generator, count = n | {min, max}, predicate, min_spacing }
-- or place{ elem, elem, ..., choose = n } for several kinds of rectangles
function M.place(o)
  if type(o) ~= "table" then fail("place: expected a table") end
  if o.generator then return G("Place" .. place_elem(o)) end
  local elems = {}
  for i, e in ipairs(o) do elems[i] = place_elem(list(e, "place")) end
  if o.choose then return G(("Place(%s, %s)"):format(int(o.choose, "place choose"), table.concat(elems, " "))) end
  return G("Place(" .. table.concat(elems, ", ") .. ")")
end

-- noise_map(exponent, { { lower, upper, generator }, ... })
function M.noise_map(exponent, bands)
  local parts = {}
  for i, b in ipairs(list(bands or {}, "noise_map")) do
    list(b, "noise_map band")
    parts[i] = ("(%s, %s, %s)"):format(num(b[1], "noise_map"), num(b[2], "noise_map"), gen(b[3], "noise_map"))
  end
  return G(("NoiseMap(%s, {%s})"):format(num(exponent, "noise_map"), table.concat(parts, " ")))
end

function M.chain(gens)
  local parts = {}
  for i, g in ipairs(list(gens or {}, "chain")) do parts[i] = gen(g, "chain") end
  return G("{" .. table.concat(parts, " ") .. "}")
end

-- choose{ g1, { 0.7, g2 }, ... }: a number before a generator is its chance
function M.choose(gens)
  local parts = {}
  for i, e in ipairs(list(gens or {}, "choose")) do
    if is_node(e) then parts[i] = gen(e, "choose")
    else parts[i] = num(list(e, "choose")[1], "choose") .. " " .. gen(e[2], "choose") end
  end
  if #parts == 0 then fail("choose: needs at least one generator") end
  return G("Choose(" .. table.concat(parts, ", ") .. ")")
end

-- connect(cells_to_connect, { { cost | false, predicate, generator }, ... })
function M.connect(to_connect, elems)
  local parts = {}
  for i, e in ipairs(list(elems or {}, "connect")) do
    list(e, "connect element")
    parts[i] = ("(%s, %s, %s)"):format(e[1] and num(e[1], "connect cost") or "none", pred(e[2], "connect"), gen(e[3], "connect"))
  end
  if #parts == 0 then fail("connect: needs at least one element") end
  return G(("Connect(%s, %s)"):format(pred(to_connect, "connect"), table.concat(parts, ", ")))
end

-- repeat_(count | {min, max}, generator)
function M.repeat_(count, g) return G(("Repeat(%s, %s)"):format(range(count, "repeat"), gen(g, "repeat"))) end
M["repeat"] = M.repeat_
function M.flood_fill(p, g) return G(("FloodFill(%s, %s)"):format(pred(p, "flood_fill"), gen(g, "flood_fill"))) end

-- ---- predicates ----------------------------------------------------------------------
function M.on(t) return P(("On(%s)"):format(quote(t, "on"))) end
function M.not_(p) return P("Not " .. pred(p, "not")) end
M["not"] = M.not_
M.always = P("True")
M["true"] = M.always
local function many(name, preds, where)
  local parts = {}
  for i, p in ipairs(list(preds or {}, where)) do parts[i] = pred(p, where) end
  return P(name .. "(" .. table.concat(parts, ", ") .. ")")
end
function M.and_(list) return many("And", list, "and") end
function M.or_(list) return many("Or", list, "or") end
M["and"], M["or"] = M.and_, M.or_
function M.chance(p) return P(("Chance(%s)"):format(num(p, "chance"))) end
function M.area(radius, p, min_count)
  return P(("Area(%s, %s%s)"):format(int(radius, "area"), pred(p, "area"), min_count and ", " .. int(min_count, "area") or ""))
end
function M.xmod(div, mod) return P(("XMod(%s, %s)"):format(int(div, "xmod"), int(mod, "xmod"))) end
function M.ymod(div, mod) return P(("YMod(%s, %s)"):format(int(div, "ymod"), int(mod, "ymod"))) end
function M.translate(offset, p) return P(("Translate(%s, %s)"):format(vec2(offset, "translate"), pred(p, "translate"))) end

-- ---- text, running, registry ------------------------------------------------------------
function M.parse(text, name)
  if type(text) ~= "string" then error("strata.layout.parse: expected the text of a generator", 2) end
  return core.layout.parse(text, name)
end

-- A file of named layouts, given as its text; returns { name = generator }, names.
-- Text and paths have a function each (read_file below reads a path): no
-- guess at which a string is, so a mod, which gets only the text parsers,
-- can never make one open a file.
function M.parse_file(text, name)
  if type(text) ~= "string" then error("strata.layout.parse_file: expected the text of a layout file", 2) end
  return core.layout.parse_file(text, name)
end

-- The text of the file at path, for the read_* functions (the host's).
local function read_path(path, what)
  if type(path) ~= "string" then error("strata.layout." .. what .. ": expected a path", 3) end
  local text, why = paths.read(path, "strata.layout." .. what .. ": cannot read")
  if not text then error(why, 3) end
  return text
end

-- read_file(path) -> parse_file of the file's text, named by its path.
function M.read_file(path) return M.parse_file(read_path(path, "read_file"), path) end

local compiled = setmetatable({}, { __mode = "k" })

-- The registry IDs resolve in: the given world's, else the map's world's.
local function registry_of(world, map)
  if world ~= nil then
    local w = private.world_of(world)
    if not w then error("option 'world' must be a world", 0) end
    return w._registry
  end
  local w = private.world_of(map)
  if w then return w._registry end
  return nil
end

-- The runnable generator for a node, a core generator, or a base.layout ID
-- (resolved in world's registry: a world, or a world map whose world to use).
-- Its errors are named by the public function that called it.
local function generator(v, world)
  if is_node(v) then
    if v.kind ~= "generator" then error("a predicate is not a generator", 0) end
    local g = compiled[v]
    if not g then
      g = core.layout.parse(v.text, "strata.layout")
      compiled[v] = g
    end
    return g
  end
  local host = private.world_of(world)
  local reg = host and host._registry
  if type(v) == "userdata" then return v end
  if type(v) == "string" then
    if not reg then
      error("layout ID '" .. v .. "' needs a world to look it up in: pass a world map, or { world = w }", 0)
    end
    local entry = reg:view("base.layout"):ensure(v)
    local g = compiled[entry]
    if not g then
      if entry.generator ~= nil then g = generator(entry.generator, world)
      elseif entry.source then g = core.layout.parse(entry.source, v)
      else error("base.layout '" .. v .. "' has neither generator nor source", 0) end
      compiled[entry] = g
    end
    return g
  end
  error("expected a generator, a layout ID or a parsed layout, got " .. type(v), 0)
end
function M.generator(v, world) return generator(v, world) end

-- The tile map to write into: a standalone tile map, or a world map's
-- (touched first, so that a failing handler's savepoint can undo the edits).
local function tilemap_of(map, fn, level, write)
  if type(map) == "userdata" then return map end
  if type(map) == "table" and private.owner[map] and map.kind == "map" then
    return require("strata.tiles").of(map, write ~= false)
  end
  error(fn .. ": expected a tile map or a world map, got " .. tostring(map), level)
end

-- The generator a layout draws from, and the world stream (world.rng:stream,
-- or ctx.rng) it stands for, if any: that stream's state is lent to a
-- generator for the call and its draws written back after it (run,
-- generate): the world owns it.
local function rng_of(opts, fn, level)
  local r = opts.rng
  if r ~= nil then
    if type(r) == "userdata" and getmetatable(r) == "strata.stream" then
      return core.rng.new(0):set_state(r:state()), r
    end
    if type(r) == "userdata" then return r end
    error(fn .. ": option 'rng' must be a random generator (ctx.rng, strata.rng.new)", level)
  end
  if math.type(opts.seed) == "integer" then return core.rng.new(opts.seed) end
  error(fn .. ": give { rng = ctx.rng } or { seed = n }", level)
end


-- run(generator | id, map, { rng = | seed =, world = }) -> true, or false and the reason: one attempt.
function M.run(v, map, opts)
  opts = options.check("strata.layout.run", opts, 2)
  opts = opts or {}
  local g = generator(v, opts.world or map)
  local tm = tilemap_of(map, "strata.layout.run", 3)
  local rng, stream = rng_of(opts, "strata.layout.run", 3)
  -- (_run: the generator's run under no public name; the pcall gives the
  -- stream its draws back whether the run failed or not)
  local ok, res, why = pcall(g._run, g, tm, rng)
  if stream then stream:set_state(rng:state()) end
  if not ok then error(res, 0) end
  return res, why
end

-- generate(generator | id, map, { rng | seed, attempts = 10, fill = token, world = }) -> true | false, why:
-- retries on a cleared map, as KeeperRL's callers do.
function M.generate(v, map, opts)
  opts = options.check("strata.layout.generate", opts, 2)
  opts = opts or {}
  local attempts = opts.attempts or 10
  if math.type(attempts) ~= "integer" or attempts < 1 then
    error("strata.layout.generate: option 'attempts' must be an integer of at least 1, got " .. tostring(attempts), 2)
  end
  if opts.fill ~= nil and type(opts.fill) ~= "string" then
    error("strata.layout.generate: option 'fill' must be a token (string), got " .. type(opts.fill), 2)
  end
  local g = generator(v, opts.world or map)
  local tm = tilemap_of(map, "strata.layout.generate", 3)
  local rng, stream = rng_of(opts, "strata.layout.generate", 3)
  local done, why = false, nil
  for _ = 1, attempts do
    tm:clear(opts.fill)
    local ok, res, reason = pcall(g._run, g, tm, rng)
    if not ok then
      if stream then stream:set_state(rng:state()) end
      error(res, 0)
    end
    if res then done = true break end
    why = reason
  end
  if stream then stream:set_state(rng:state()) end
  if done then return true end
  return false, why
end

-- ---- glyph tables and previews (docs/layouts.md) ---------------------------------
local function text_arg(text, name, what)
  if type(text) ~= "string" then error("strata.layout." .. what .. ": expected text (read_" .. what .. " reads a path)", 3) end
  return text, name or what
end

local COLORS = { black = "30", red = "31", green = "32", brown = "33", yellow = "93", blue = "34",
  magenta = "35", cyan = "36", white = "37;1", gray = "90" }

-- glyphs(text [, name]) -> { [token] = { glyph =, color =, priority = } }: triples
-- `"token" glyph color`; a later line wins; lines starting with # are comments.
-- name (default "glyphs") is what errors call the text.
function M.glyphs(text, name)
  text, name = text_arg(text, name, "glyphs")
  local t, n, line_no = {}, 0, 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    line_no = line_no + 1
    local rest = line:match("^%s*(.-)%s*$")
    while rest ~= "" and not rest:find("^#") do
      local token, after = rest:match('^"([^"]*)"%s*(.*)$')
      if not token then token, after = rest:match("^(%S+)%s*(.*)$") end
      local glyph, color, tail = after:match("^(%S+)%s+(%S+)%s*(.*)$")
      if not glyph then
        error(("strata.layout.glyphs: %s:%d: expected \"token\" glyph color, found '%s'"):format(name, line_no, rest), 2)
      end
      if not COLORS[color] then
        error(("strata.layout.glyphs: %s:%d: unknown colour '%s' (black red green brown yellow blue magenta cyan white gray)"):format(name, line_no, color), 2)
      end
      n = n + 1
      t[token] = { glyph = glyph, color = color, priority = n }
      rest = tail
    end
  end
  return t
end

-- preview(tilemap, glyphs, { color = bool }) -> string: per cell the glyph of
-- its token of highest priority (the first in the cell on ties), space if none.
function M.preview(map, glyphs, opts)
  opts = options.check("strata.layout.preview", opts, 2)
  local tm = tilemap_of(map, "strata.layout.preview", 3, false)
  if glyphs ~= nil and type(glyphs) ~= "table" then
    error("strata.layout.preview: glyphs must be a table (strata.layout.glyphs), got " .. type(glyphs), 2)
  end
  local color = opts and opts.color
  -- Without a glyph table, the map's own tokens say how each cell looks.
  if not glyphs then return (tm:render():gsub("\n$", "")) end
  local out = {}
  for y = 0, tm.height - 1 do
    local row = {}
    for x = 0, tm.width - 1 do
      local best
      for _, tok in ipairs(tm:tokens(x, y)) do
        local g = glyphs and glyphs[tok]
        if g and (not best or g.priority > best.priority) then best = g end
      end
      if not best then row[#row + 1] = " "
      elseif color then row[#row + 1] = "\27[" .. COLORS[best.color] .. "m" .. best.glyph .. "\27[0m"
      else row[#row + 1] = best.glyph end
    end
    out[#out + 1] = table.concat(row)
  end
  return table.concat(out, "\n")
end

-- ---- mappings (docs/layouts.md) ------------------------------------------------------
-- Actions and how many arguments each takes.
local ACTIONS = { Place = 1, PlaceHostile = 1, Flag = 1, RemoveFlag = 1, ClearFurniture = 0,
  ClearLayer = 1, Stairs = 3, Stockpile = 1, Shop = 1, Items = 1, InsideFurniture = 0,
  OutsideFurniture = 0, AddGas = 1, HostileCreature = 1, PeacefulCreature = 1, AlliedPrisoner = 1 }

local function lex_mapping(text, name)
  local toks, i, line, n = {}, 1, 1, #text
  while i <= n do
    local c = text:sub(i, i)
    if c == "\n" then line = line + 1; i = i + 1
    elseif c:find("%s") then i = i + 1
    elseif c == "#" then i = (text:find("\n", i, true) or n + 1)
    elseif c == '"' then
      local j = text:find('"', i + 1, true)
      if not j then error(("strata.layout.mappings: %s:%d: unterminated string"):format(name, line), 0) end
      toks[#toks + 1] = { k = "string", v = text:sub(i + 1, j - 1), line = line }
      i = j + 1
    elseif c == "{" or c == "}" then toks[#toks + 1] = { k = c, v = c, line = line }; i = i + 1
    else
      local j = text:find('[%s{}"#]', i) or n + 1
      toks[#toks + 1] = { k = "word", v = text:sub(i, j - 1), line = line }
      i = j
    end
  end
  return toks
end

-- mappings(text [, name]) -> { [name] = { [token] = { { action, args... }, ... } } }:
-- `"name" [inherit "base" [append] | modify [append]] { "token" actions ... }`.
function M.mappings(text, name)
  text, name = text_arg(text, name, "mappings")
  local toks, pos = lex_mapping(text, name), 1
  local function err(t, msg) error(("strata.layout.mappings: %s:%d: %s"):format(name, t and t.line or 0, msg), 0) end
  local function peek() return toks[pos] end
  local function next_tok() pos = pos + 1 return toks[pos - 1] end
  local function action()
    local t = next_tok()
    if not t then err(toks[#toks], "expected an action") end
    if t.k == "{" or (t.k == "word" and t.v == "Chain") then
      if t.k == "word" then t = next_tok() if not t or t.k ~= "{" then err(t, "expected { after Chain") end end
      local list = {}
      while peek() and peek().k ~= "}" do
        for _, a in ipairs(action()) do list[#list + 1] = a end
      end
      if not next_tok() then err(toks[#toks], "expected }") end
      return list
    end
    local arity = t.k == "word" and ACTIONS[t.v]
    if not arity then err(t, "unknown action '" .. t.v .. "'") end
    local count = peek()
    if t.v == "Items" and count and count.k == "word" and math.tointeger(tonumber(count.v)) then
      -- the reference's `Items 1 "Sword"`, `Items 1 Potion Heal FLESH`: a count,
      -- then the list as a string or bare words up to the next string or
      -- brace; as { "Items", list, count }, so the list stays the first argument
      next_tok()
      local list = peek() and peek().k == "string" and next_tok().v
      if not list then
        local words = {}
        while peek() and peek().k == "word" do words[#words + 1] = next_tok().v end
        list = #words > 0 and table.concat(words, " ")
      end
      if not list then err(count, "Items needs the item list after its count") end
      return { { "Items", list, math.tointeger(tonumber(count.v)) } }
    end
    local a = { t.v }
    for _ = 1, arity do
      local v = next_tok()
      if not v or v.k == "{" or v.k == "}" then err(v or t, t.v .. " needs " .. arity .. " argument(s)") end
      a[#a + 1] = tonumber(v.v) or v.v
    end
    return { a }
  end
  local out, order = {}, {}
  while peek() do
    local kt = next_tok()
    if kt.k ~= "string" and kt.k ~= "word" then err(kt, "expected a mapping name") end
    local table_, append = {}, false
    local w = peek()
    if w and w.k == "word" and (w.v == "inherit" or w.v == "modify") then
      next_tok()
      local base = w.v == "modify" and kt.v or (function()
        local b = next_tok()
        if not b or (b.k ~= "string" and b.k ~= "word") then err(w, "expected the mapping to inherit") end
        return b.v
      end)()
      if not out[base] then err(w, "'" .. kt.v .. "' " .. w.v .. "s '" .. base .. "', which is not defined before it") end
      if peek() and peek().k == "word" and peek().v == "append" then
        next_tok()
        append = true
      end
      -- inherit keeps the base's tokens, append or not (the reference's reskin
      -- example lists only the tokens it changes); modify without append
      -- replaces the table, as in KeeperRL
      if append or w.v == "inherit" then
        for tok, acts in pairs(out[base]) do table_[tok] = acts end
      end
    elseif out[kt.v] then
      err(kt, "duplicate mapping '" .. kt.v .. "' (use modify)")
    end
    local open = next_tok()
    if not open or open.k ~= "{" then err(open or kt, "expected { after mapping '" .. kt.v .. "'") end
    local seen = {}
    while peek() and peek().k ~= "}" do
      local tt = next_tok()
      if tt.k ~= "string" and tt.k ~= "word" then err(tt, "expected a token") end
      if seen[tt.v] then err(tt, "token '" .. tt.v .. "' mapped twice in '" .. kt.v .. "'") end
      seen[tt.v] = true
      table_[tt.v] = action()
    end
    if not next_tok() then err(open, "mapping '" .. kt.v .. "' has no closing }") end
    if not out[kt.v] then order[#order + 1] = kt.v end
    out[kt.v] = table_
    local _ = append
  end
  return out, order
end

-- read_glyphs(path), read_mappings(path): glyphs and mappings of the file at
-- path (the host's; a mod reads its files with mod:read and passes the text).
function M.read_glyphs(path) return M.glyphs(read_path(path, "read_glyphs"), path) end
function M.read_mappings(path) return M.mappings(read_path(path, "read_mappings"), path) end

-- apply(map, mapping, actions) -> count: for every cell (column-major) and every
-- token in the cell's order, each action the mapping gives it:
-- actions[name](map, x, y, args...), or a base.handler ID run as
-- run(map, { x =, y =, token =, action = }, args).
function M.apply(map, mapping, actions, opts)
  opts = options.check("strata.layout.apply", opts, 2)
  local tm = tilemap_of(map, "strata.layout.apply", 3, false)
  if type(mapping) ~= "table" then error("strata.layout.apply: mapping must be a table { [token] = actions }, got " .. type(mapping), 2) end
  for tok, acts in pairs(mapping) do
    local ok = type(acts) == "table"
    for _, a in ipairs(ok and acts or {}) do ok = ok and type(a) == "table" and type(a[1]) == "string" end
    if not ok then
      error(("strata.layout.apply: mapping '%s' must be a list of actions { { name, args... }, ... }"):format(tostring(tok)), 2)
    end
  end
  if actions ~= nil and type(actions) ~= "table" then
    error("strata.layout.apply: actions must be a table { [action] = function or handler ID }, got " .. type(actions), 2)
  end
  local reg = registry_of(opts and opts.world, map)
  local count = 0
  for x = 0, tm.width - 1 do
    for y = 0, tm.height - 1 do
      for _, tok in ipairs(tm:tokens(x, y)) do
        for _, a in ipairs(mapping[tok] or {}) do
          local h = actions and actions[a[1]]
          if type(h) == "function" then h(map, x, y, table.unpack(a, 2))
          elseif type(h) == "string" then
            local entry = reg and reg:view("base.handler"):ensure(h)
            if not entry then
              error("strata.layout.apply: handler '" .. h .. "' needs a world: apply to a world map, or pass { world = w }", 2)
            end
            require("strata.mods").call(h, entry.run, map, { x = x, y = y, token = tok, action = a[1] }, { table.unpack(a, 2) })
          end
          count = count + 1
        end
      end
    end
  end
  return count
end

-- mapping(id, { world = w }) -> { [token] = actions }: a base.layout_mapping
-- entry of that world with its inherit chain resolved (the inherited tokens
-- are kept, with append or without, as in mappings()).
local function mapping(reg, id, depth)
  if depth > 32 then error("strata.layout.mapping: inherit chain too long at '" .. id .. "'", 0) end
  local e = reg:view("base.layout_mapping"):ensure(id)
  local out = {}
  if e.inherit then
    for k, v in pairs(mapping(reg, e.inherit, depth + 1)) do out[k] = v end
  end
  for k, v in pairs(e.tokens or {}) do out[k] = v end
  return out
end

function M.mapping(id, opts)
  opts = options.check("strata.layout.mapping", opts, 2)
  local reg = registry_of(opts and opts.world)
  if not reg then error("strata.layout.mapping: '" .. tostring(id) .. "' needs { world = w } to look it up in", 2) end
  -- a copy: the action lists are the registry's
  return core.world_state.border("strata.layout.mapping", "", "", mapping(reg, id, 0))
end

-- Every public function's errors name it and point at its caller, never at
-- this file (strata's own calls above go to the local functions, unwrapped).
return boundary.wrap_all(M, "strata.layout.")
