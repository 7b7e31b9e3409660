-- strata.ffi.rng: seeded generators (PCG32, strata/rng.h), as the 5.4
-- module's strata.rng (docs/lua-api.md, "Random numbers"): the same seed
-- gives the same draws in both. A generator is a struct of its own
-- (ffi.metatype): the core's state and the seed its streams derive from.
-- Seeds: an integer (exact up to 2^53 as a Lua number; an int64_t or
-- uint64_t cdata for the rest) or a string hashed to one.
local base = require "strata.ffi.base"
local ffi, lib = base.ffi, base.lib
local raise = base.raise

ffi.cdef [[
typedef struct strata_ffi_rng { strata_rng rng; uint64_t seed; } strata_ffi_rng;
]]
local rng_type = ffi.typeof("strata_ffi_rng")

local function seed_of(name, v)
  if type(v) == "string" then return lib.strata_hash64(0, v, #v) end
  if base.integer(v) then return ffi.cast("uint64_t", ffi.cast("int64_t", v)) end
  if ffi.istype("int64_t", v) or ffi.istype("uint64_t", v) then return ffi.cast("uint64_t", v) end
  raise(name, "seed must be an integer or a string, got %s", type(v))
end

local function new(seed)
  local r = rng_type()
  r.seed = seed_of("strata.rng.new", seed)
  lib.strata_rng_seed(r.rng, r.seed)
  return r
end

local Rng = {}

-- rng:int(n) -> 1..n;  rng:int(a, b) -> a..b
function Rng:int(a, b)
  local lo, hi = 1, a
  if b ~= nil then lo, hi = a, b end
  base.int("rng:int", lo, "argument #1")
  base.int("rng:int", hi, b ~= nil and "argument #2" or "argument #1")
  if lo > hi then raise("rng:int", "interval is empty") end
  return tonumber(lib.strata_rng_int(self.rng, lo, hi))
end

-- rng:float() -> [0, 1);  rng:float(a, b) -> [a, b)
function Rng:float(a, b)
  local f = lib.strata_rng_float(self.rng)
  if a == nil then return f end
  if type(a) ~= "number" or type(b) ~= "number" then raise("rng:float", "numbers expected") end
  if a > b then raise("rng:float", "interval is empty") end
  return a + (b - a) * f
end

function Rng:chance(p)
  if type(p) ~= "number" or p ~= p then raise("rng:chance", "argument #1: a probability expected") end
  return lib.strata_rng_chance(self.rng, p) ~= 0
end

function Rng:normal(mean, sd)
  mean, sd = mean or 0, sd or 1
  if type(mean) ~= "number" or mean ~= mean or math.abs(mean) == math.huge then raise("rng:normal", "mean must be a finite number") end
  if type(sd) ~= "number" or not (sd >= 0) or sd == math.huge then raise("rng:normal", "sd must be a finite number >= 0") end
  return lib.strata_rng_normal(self.rng, mean, sd)
end

-- rng:shuffle(t) -> t, its array part shuffled in place (raw: no metamethod runs)
function Rng:shuffle(t)
  if type(t) ~= "table" then raise("rng:shuffle", "argument #1: table expected, got %s", type(t)) end
  for i = #t, 2, -1 do
    local j = 1 + tonumber(lib.strata_rng_below(self.rng, i))
    local a, b = rawget(t, i), rawget(t, j)
    rawset(t, i, b)
    rawset(t, j, a)
  end
  return t
end

function Rng:pick(t)
  if type(t) ~= "table" then raise("rng:pick", "argument #1: table expected, got %s", type(t)) end
  if #t == 0 then raise("rng:pick", "cannot pick from an empty list") end
  return rawget(t, 1 + tonumber(lib.strata_rng_below(self.rng, #t)))
end

-- rng:state() -> 32 hex digits; rng:set_state(s) -> rng
function Rng:state()
  local text = ffi.new("char[?]", base.constants.STRATA_RNG_STATE_CHARS)
  lib.strata_rng_format(self.rng, text)
  return ffi.string(text)
end

function Rng:set_state(s)
  if type(s) ~= "string" or lib.strata_rng_parse(self.rng, s, #s) == 0 then
    raise("rng:set_state", "not a generator state (32 hex digits from rng:state())")
  end
  return self
end

-- rng:stream(key) -> a new generator, the same for the same (seed, key)
function Rng:stream(key)
  if type(key) == "number" then key = tostring(key) end
  if type(key) ~= "string" then raise("rng:stream", "argument #1: string expected, got %s", type(key)) end
  local r = rng_type()
  r.seed = lib.strata_hash64(self.seed, key, #key)
  lib.strata_rng_stream(r.rng, self.seed, key, #key)
  return r
end

ffi.metatype(rng_type, {
  __index = Rng,
  __tostring = function(r) return "strata.rng " .. r:state() end,
})

-- The generator of options { rng = } or { seed = } (name: the public function).
function base.rng_of(name, opts)
  if opts.rng ~= nil then
    if not ffi.istype(rng_type, opts.rng) then raise(name, "option 'rng' must be a random generator (strata.rng.new)") end
    return opts.rng
  end
  if opts.seed ~= nil then return new(opts.seed) end
  raise(name, "give { rng = strata.rng.new(seed) } or { seed = n }")
end

return function(M)
  M.rng = { new = new, is = function(v) return ffi.istype(rng_type, v) end }
end
