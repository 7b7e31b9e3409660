-- strata.ffi.base: what every part of strata.ffi shares: the declarations
-- (cdefs.lua, generated from the public headers), libstrata loaded once, and
-- the helpers each function uses: its errors, its options tables, points.
--
-- Loading libstrata (docs/luajit.md, "Finding libstrata"), the first that loads:
--   1. $STRATA_FFI_LIB, a path or a name for ffi.load (nothing else is tried);
--      else libstrata_lua when the process has it loaded already (Linux:
--      strata.ffi.lua54 loaded it, for mods in Lua 5.4): its core, so that
--      the process has one;
--   2. "libstrata" on package.cpath (a LuaRocks tree's lib/lua/5.1/, a game's
--      own folder named on its cpath);
--   3. beside an installed strata.ffi: <prefix>/lib, <prefix>/lib64, where
--      <prefix>/share/lua/5.1/strata/ffi/ holds this file;
--   4. the system's name, "strata" (libstrata.so) then "libstrata.so.0",
--      found by the dynamic linker (LD_LIBRARY_PATH, ld.so.cache).
local ffi = require "ffi"
local cdefs = require "strata.ffi.cdefs"

ffi.cdef(cdefs.cdef)

local B = { ffi = ffi, constants = cdefs.constants }

-- The chunk-name prefix of strata.ffi's own files: errors point past them.
local here = debug.getinfo(1, "S").source:match("^(@.*/)[^/]*$") or "@"
local parent = here:match("^(@.*/)ffi/$")

local function try_load(name, tried)
  local ok, lib = pcall(ffi.load, name)
  if ok then return lib end
  tried[#tried + 1] = name
end

local function load_library()
  local tried = {}
  local env = os.getenv("STRATA_FFI_LIB")
  if env and env ~= "" then
    local lib = try_load(env, tried)
    if lib then return lib end
    error("strata.ffi: STRATA_FFI_LIB=" .. env .. " does not load", 0)
  end
  local lua54 = "libstrata_lua.so.0"
  pcall(ffi.cdef, "void *dlopen(const char *file, int mode);")
  if ffi.os == "Linux" and ffi.C.dlopen(lua54, 1 + 4) ~= nil then -- (RTLD_LAZY | RTLD_NOLOAD: only if loaded)
    local lib = try_load(lua54, tried)
    if lib then return lib end
  end
  local found = package.searchpath("libstrata", package.cpath)
  local lib = found and try_load(found, tried)
  if lib then return lib end
  local prefix = here:match("^@(.*)/share/lua/5%.1/strata/ffi/$")
  if prefix then
    for _, dir in ipairs { "lib", "lib64" } do
      lib = try_load(prefix .. "/" .. dir .. "/libstrata.so.0", tried)
      if lib then return lib end
    end
  end
  lib = try_load("strata", tried) or try_load("libstrata.so.0", tried)
  if lib then return lib end
  error("strata.ffi: libstrata not found (tried " .. table.concat(tried, ", ")
    .. "): set STRATA_FFI_LIB to its path, or put it on the library path", 0)
end

B.lib = load_library()
local lib = B.lib

-- ---- errors -------------------------------------------------------------------
-- The level for error() that points at the first caller outside strata.ffi
-- (and outside the strata.ffi module file, ../ffi.lua): a user's line, never
-- one of strata's (the house rule for errors, as the 5.4 module's boundary).
local function own(source)
  return source:sub(1, #here) == here or (parent and source == parent .. "ffi.lua")
end
function B.level()
  local level = 2
  while true do
    local info = debug.getinfo(level + 1, "S")
    if not info then return level end
    if not own(info.source) and info.what ~= "C" then return level end
    level = level + 1
  end
end

-- Raises "<file:line>: <name>: <message>" at the user's line: a bad argument
-- (a wrong type, an unknown option), what the 5.4 module raises too.
function B.raise(name, fmt, ...)
  error(name .. ": " .. fmt:format(...), B.level())
end

-- A new strata_error for one call.
local error_type = ffi.typeof("strata_error[1]")
function B.err() return error_type() end

-- The text of a strata_error as the 5.4 module words it: its message (or the
-- status's name), then " (line L, column C)" for a position in a text.
function B.message(err)
  local e = err[0]
  local text = e.message[0] ~= 0 and ffi.string(e.message) or ffi.string(lib.strata_status_name(e.status))
  if e.line > 0 then text = text .. (" (line %d, column %d)"):format(e.line, e.column) end
  return text
end

-- nil, "<name>: <message>": what a function returns when the core refused.
function B.fail(name, err)
  return nil, name .. ": " .. B.message(err)
end

-- ---- options ------------------------------------------------------------------
-- The (up to 3) names of known nearest to name, by the core's rule
-- (strata_nearest: edit distance, a dotted ID also by its part after the dot).
function B.nearest(name, known)
  local n = #known
  local arr = ffi.new("const char *[?]", n + 1)
  for i = 1, n do arr[i - 1] = known[i] end -- (known holds the strings alive)
  local near = ffi.new("const char *[3]")
  local kept = tonumber(lib.strata_nearest(name, arr, n, near, nil, 3))
  local out = {}
  for i = 0, kept - 1 do out[#out + 1] = ffi.string(near[i]) end
  return out
end

-- Checks an options table against the list of its keys: nil gives an empty
-- table; anything else but a table, or an unknown key, raises "<name>:
-- unknown option 'k' (nearest known: a, b, c)". Returns a plain copy read
-- raw (no __index or __pairs of the caller's runs), which the function reads.
function B.options(name, opts, known)
  if opts == nil then return {} end
  if type(opts) ~= "table" then B.raise(name, "options must be a table, got %s", type(opts)) end
  local set = known.set
  if not set then
    set = {}
    for _, k in ipairs(known) do set[k] = true end
    known.set = set
  end
  local copy = {}
  for k, v in next, opts do
    if not set[k] then
      local near = B.nearest(tostring(k), known)
      B.raise(name, "unknown option '%s'%s", tostring(k),
        #near > 0 and " (nearest known: " .. table.concat(near, ", ") .. ")" or "")
    end
    copy[k] = v
  end
  return copy
end

-- ---- values -------------------------------------------------------------------
local function integer(v) return type(v) == "number" and v == math.floor(v) and v > -2^53 and v < 2^53 end
B.integer = integer

-- x, y of a point { x, y } or { x = , y = } (integers), or an error naming what.
function B.point(name, v, what)
  if type(v) == "table" then
    local x, y = rawget(v, "x"), rawget(v, "y")
    if x == nil and y == nil then x, y = rawget(v, 1), rawget(v, 2) end
    if integer(x) and integer(y) then return x, y end
  end
  B.raise(name, "%s: expected a point { x, y } or { x =, y = }, got %s", what, tostring(v))
end

-- A point as strata returns one: both forms at once (p[1] == p.x).
function B.make_point(x, y) return { x, y, x = x, y = y } end

-- An integer argument, or an error naming it.
function B.int(name, v, what)
  if not integer(v) then B.raise(name, "%s: integer expected, got %s", what, tostring(v)) end
  return v
end

-- The C enum value (ctype) of the name v by the core's parser parse, or
-- raise(name, fmt, v): an algorithm's name and the like.
function B.enum(name, v, parse, ctype, fmt)
  local out = ffi.new(ctype .. "[1]")
  if type(v) ~= "string" or parse(v, out) == 0 then B.raise(name, fmt, tostring(v)) end
  return out[0]
end

-- A string argument, or an error naming it.
function B.str(name, v, what)
  if type(v) ~= "string" then B.raise(name, "%s: string expected, got %s", what, type(v)) end
  return v
end

-- A string the core allocated (strata_malloc), copied into Lua and freed.
function B.take_string(ptr, len)
  local s = ffi.string(ptr[0], len and len[0] or nil)
  lib.strata_free(ptr[0])
  return s
end

return B
