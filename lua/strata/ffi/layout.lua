-- strata.ffi.layout: the layout language (KeeperRL's map generator language,
-- docs/layouts.md) over strata/layout.h: parse text, run a generator on a
-- tile map, generate with retries, as the 5.4 module's strata.layout
-- (docs/lua-api.md, "Layouts"). A generator keeps the parsed file it
-- belongs to alive (the file is freed when no generator of it is left).
-- A layout ID (a base.layout entry) is a world's: base.layout_generator,
-- when the world part sets it, resolves one.
local base = require "strata.ffi.base"
local ffi, lib = base.ffi, base.lib
local raise = base.raise

local Generator = {}
local gen_mt = { __index = Generator }
gen_mt.__tostring = function(g)
  local name = rawget(g, "_name")
  return name ~= "" and ("strata.layout '%s'"):format(name) or "strata.layout"
end
gen_mt.__newindex = function(_, k) raise("generator", "cannot set field '%s'", tostring(k)) end

-- The parsed file of text (fn: the core's parser), or nil, reason. The
-- message names NAME:LINE:COL already: err's line and column are not added.
local function parse_text(name, fn, text, label, what)
  if type(text) ~= "string" then raise(name, "expected the text of %s", what) end
  if label ~= nil and type(label) ~= "string" then raise(name, "argument #2: a name (string) expected") end
  local err = base.err()
  local file = fn(text, #text, label or "layout", err)
  if file == nil then
    err[0].line, err[0].column = 0, 0
    return base.fail(name, err)
  end
  return ffi.gc(file, lib.strata_layout_file_free)
end

local function generator(file, gen, name)
  return setmetatable({ _file = file, _gen = gen, _name = name }, gen_mt)
end

-- strata.layout.parse(text, name) -> a generator | nil, reason
local function parse(text, label)
  local file, why = parse_text("strata.layout.parse", lib.strata_layout_parse_generator, text, label, "a generator")
  if not file then return nil, why end
  return generator(file, lib.strata_layout_at(file, 0), "")
end

-- strata.layout.parse_file(text, name) -> { [name] = generator }, names | nil, reason
local function parse_file(text, label)
  local file, why = parse_text("strata.layout.parse_file", lib.strata_layout_file_parse, text, label, "a layout file")
  if not file then return nil, why end
  local out, names = {}, {}
  for i = 0, tonumber(lib.strata_layout_count(file)) - 1 do
    local n = ffi.string(lib.strata_layout_name(file, i))
    out[n] = generator(file, lib.strata_layout_at(file, i), n)
    names[#names + 1] = n
  end
  return out, names
end

-- The generator of v (a generator, or an ID its world resolves).
local function generator_of(name, v, world)
  if getmetatable(v) == gen_mt then return v end
  if type(v) == "string" and base.layout_generator then return base.layout_generator(name, v, world) end
  raise(name, "argument #1: a generator (strata.layout.parse) expected, got %s", type(v))
end

-- One attempt: true | false, why; a core refusal: nil, reason.
local function run_once(name, g, p, rng)
  local res, why, err = ffi.new("strata_layout_result[1]"), ffi.new("char[256]"), base.err()
  if lib.strata_layout_run(rawget(g, "_gen"), p, rng.rng, res, why, 256, err) ~= 0 then return base.fail(name, err) end
  if res[0] == lib.STRATA_LAYOUT_OK then return true end
  return false, ffi.string(why)
end

-- generator:run(map, rng) -> true | false, why
function Generator:run(map, rng)
  local p = base.map_edit("generator:run", map)
  if not base.is_rng(rng) then raise("generator:run", "argument #2: a random generator (strata.rng.new) expected") end
  return run_once("generator:run", self, p, rng)
end

local RUN = { "rng", "seed", "world" }
-- strata.layout.run(generator | id, map, { rng = | seed =, world = }) -> true | false, why
local function run(v, map, opts)
  local name = "strata.layout.run"
  opts = base.options(name, opts, RUN)
  local g = generator_of(name, v, opts.world or map)
  local p = base.map_edit(name, map)
  return run_once(name, g, p, base.rng_of(name, opts))
end

local GENERATE = { "rng", "seed", "attempts", "fill", "world" }
-- strata.layout.generate(generator | id, map, { rng | seed, attempts = 10, fill =, world = })
-- -> true | false, why: retries on a cleared map (to fill, or empty)
local function generate(v, map, opts)
  local name = "strata.layout.generate"
  opts = base.options(name, opts, GENERATE)
  local attempts = opts.attempts or 10
  if not base.integer(attempts) or attempts < 1 then
    raise(name, "option 'attempts' must be an integer of at least 1, got %s", tostring(attempts))
  end
  if opts.fill ~= nil and type(opts.fill) ~= "string" then
    raise(name, "option 'fill' must be a token (string), got %s", type(opts.fill))
  end
  local g = generator_of(name, v, opts.world or map)
  local p = base.map_edit(name, map)
  local rng = base.rng_of(name, opts)
  local fill, err = 0, base.err()
  if opts.fill then
    fill = lib.strata_tokens_intern(lib.strata_tilemap_tokens(p), opts.fill, #opts.fill, err)
    if fill == 0 then return base.fail(name, err) end
  end
  local why
  for _ = 1, attempts do
    lib.strata_tilemap_clear(p, fill, err)
    local ok, reason = run_once(name, g, p, rng)
    if ok then return true end
    if ok == nil then return nil, reason end
    why = reason
  end
  return false, why
end

return function(M)
  base.is_rng = M.rng.is
  M.layout = {
    parse = parse, parse_file = parse_file, run = run, generate = generate,
    is = function(v) return getmetatable(v) == gen_mt end,
  }
end
