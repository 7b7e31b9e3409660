-- strata.modenv: the standard libraries a mod's environment holds, by
-- allowlist. Every table is made fresh for each mod from the names listed
-- here (a function a host adds to its own `string` or `table` reaches no
-- mod), and every listed function that loops in C over a count the caller
-- chooses, or over a length a metatable can lie about, is wrapped so that no
-- single C call does more than CHUNK steps: between them Lua instructions
-- run, where the budget's count hook stops a spent callback. The string
-- metatable's __index mod code sees is M.string (bindings/lua/guard.c swaps
-- it in for each guarded call). docs/sandbox.md lists all of this.
local core = require "strata.core"

local M = {}
local guard = core.guard

-- A function a mod may not call: it raises naming itself.
function M.deny(name)
  return function() error(name .. " is not available to mods (sandbox)", 2) end
end

-- A fresh table of the listed fields of lib; extra fields are added after.
local function listed(lib, names, extra)
  local t = {}
  for _, k in ipairs(names) do t[k] = lib[k] end
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end

-- ---- C loops, bounded ---------------------------------------------------------------
local CHUNK = 4096
local move, concat, insert, remove, sort, rep = table.move, table.concat, table.insert, table.remove,
  table.sort, string.rep
local tointeger, maxinteger, min = math.tointeger, math.maxinteger, math.min

-- Calls f, one of Lua's C functions, for a wrapper below (which tail-calls
-- this): f's errors are raised again at the mod's line, never at a line of
-- this file (a C function called from Lua puts its caller's position in its
-- errors, and a tail call to one does not drop the caller). A memory error
-- stays as it is.
-- This file's name as Lua spells it in positions (short_src: shortened the
-- same way), to drop the position Lua gives a C function's argument error
-- raised on a line of this file.
local SELF = debug.getinfo(1, "S").short_src .. ":"
local function rethrow(ok, ...)
  if ok then return ... end
  local err = ...
  if type(err) ~= "string" or err == "not enough memory" then error(err, 0) end
  if err:sub(1, #SELF) == SELF then
    local after = err:find(": ", #SELF + 1, true)
    if after then err = err:sub(after + 2) end
  end
  error(err, 2)
end
local function call(f, ...) return rethrow(pcall(f, ...)) end

local function int_arg(v, i, fname)
  local n = tointeger(type(v) == "string" and tonumber(v) or v)
  if n then return n end
  error(("bad argument #%d to '%s' (%s)"):format(i, fname, type(v) == "number"
    and "number has no integer representation" or "number expected, got " .. type(v)), 0)
end

-- True when t's length and elements are its own (a table without a
-- metatable): Lua's loop over #t is then bounded by the table's memory.
local raw_metatable, select, type = debug.getmetatable, select, type
local function plain(t) return type(t) == "table" and raw_metatable(t) == nil end

-- table.move in chunks, in the order Lua's loop takes (backwards when the
-- ranges overlap in one table), with Lua's own argument checks.
local function move_chunks(a1, f, e, t, a2)
  f, e, t = int_arg(f, 2, "move"), int_arg(e, 3, "move"), int_arg(t, 4, "move")
  if e < f or e - f < CHUNK then return move(a1, f, e, t, a2) end
  if not (f > 0 or e < maxinteger + f) then error("bad argument #3 to 'move' (too many elements to move)", 0) end
  local n = e - f + 1
  if t > maxinteger - n + 1 then error("bad argument #4 to 'move' (destination wrap around)", 0) end
  move(a1, 1, 0, 1, a2) -- Lua's checks of the tables themselves
  if t > e or t <= f or (a2 ~= nil and a1 ~= a2) then
    for i = 0, n - 1, CHUNK do move(a1, f + i, f + min(i + CHUNK, n) - 1, t + i, a2) end
  else
    local i = n
    while i > 0 do
      local k = i > CHUNK and i - CHUNK or 0
      move(a1, f + k, f + i - 1, t + k, a2)
      i = k
    end
  end
  return a2 == nil and a1 or a2
end

local function length(t)
  local n = #t
  if tointeger(n) == nil then error("object length is not an integer", 0) end
  return n
end

local function concat_chunks(t, sep, i, j)
  concat(t, sep, 1, 0) -- Lua's checks of t and sep
  i = i == nil and 1 or int_arg(i, 3, "concat")
  j = j == nil and length(t) or int_arg(j, 4, "concat")
  if j < i or j - i < CHUNK then return concat(t, sep, i, j) end
  local parts = {}
  for k = i, j, CHUNK do parts[#parts + 1] = concat(t, sep, k, j - k < CHUNK and j or k + CHUNK - 1) end
  return concat(parts, sep)
end

-- insert(t, pos, v) moves t[pos..#t] up by one: as a chunked move.
local function insert_at(t, pos, v)
  local e = length(t) + 1
  pos = int_arg(pos, 2, "insert")
  if pos < 1 or pos > e then error("bad argument #2 to 'insert' (position out of bounds)", 0) end
  move_chunks(t, pos, e - 1, pos + 1)
  t[pos] = v
end

local function remove_at(t, pos)
  local size = length(t)
  pos = pos == nil and size or int_arg(pos, 2, "remove")
  if pos ~= size and (pos < 1 or pos > size + 1) then
    error("bad argument #2 to 'remove' (position out of bounds)", 0)
  end
  local v = t[pos]
  if pos < size then move_chunks(t, pos + 1, size, pos) pos = size end
  t[pos] = nil
  return v
end

local function less(a, b) return a < b end

M.table = {
  move = function(...) return call(move_chunks, ...) end,
  concat = function(t, ...)
    if plain(t) and select("#", ...) < 3 then return call(concat, t, ...) end
    return call(concat_chunks, t, ...)
  end,
  -- (insert(t, v) and remove(t) of a plain table cannot fail: no pcall)
  insert = function(t, ...)
    local n = select("#", ...)
    if n == 1 and plain(t) then return insert(t, ...) end
    if n ~= 2 or plain(t) or type(t) ~= "table" then return call(insert, t, ...) end
    return call(insert_at, t, ...)
  end,
  remove = function(t, ...)
    if plain(t) then
      if select("#", ...) == 0 then return remove(t) end
      return call(remove, t, ...)
    end
    if type(t) ~= "table" then return call(remove, t, ...) end
    return call(remove_at, t, ...)
  end,
  -- Lua's default order compares in C; a Lua comparator puts an instruction
  -- (a hook point) in every comparison.
  sort = function(t, comp) return call(sort, t, comp == nil and less or comp) end,
  -- (bounded as Lua's is: at most a million results, its stack's limit)
  unpack = table.unpack,
  pack = table.pack,
}

-- ---- strings ---------------------------------------------------------------------------
local STRING_NAMES = { "byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "rep",
  "reverse", "sub", "upper", "pack", "packsize", "unpack" }

-- The string library of mod code, also the string metatable's __index while
-- a guarded call runs: no dump, counted pattern matching (guard_match.c),
-- and a rep that does not loop copying nothing.
M.string = listed(string, STRING_NAMES, guard.patterns)
M.string.rep = function(s, n, sep)
  if s == "" and (sep == nil or sep == "") then
    local ok, err = pcall(int_arg, n, 2, "rep")
    if not ok then error(err, 2) end
    return ""
  end
  return call(rep, s, n, sep)
end
guard.strings(M.string)

-- ---- coroutines ------------------------------------------------------------------------
-- A mod's coroutines count against the budget of the callback that runs them:
-- each joins the running call when it is made and whenever it is resumed or
-- closed (a coroutine kept from an earlier callback joins the new one).
local create, resume, close, hook, unpack = coroutine.create, coroutine.resume, coroutine.close, guard.hook,
  table.unpack
local coroutines = {
  create = function(f)
    local ok, co = pcall(create, f)
    if not ok then return rethrow(ok, co) end
    hook(co)
    return co
  end,
  resume = function(co, ...)
    if type(co) == "thread" then hook(co) end
    return call(resume, co, ...)
  end,
  close = function(co)
    if type(co) == "thread" then hook(co) end
    return call(close, co)
  end,
}
-- As Lua's wrap: a coroutine that fails is closed (its pending __close run).
coroutines.wrap = function(f)
  local ok, co = pcall(create, f)
  if not ok then return rethrow(ok, co) end
  hook(co)
  return function(...)
    hook(co)
    local r = table.pack(resume(co, ...))
    if r[1] then return unpack(r, 2, r.n) end
    local err = r[2]
    if coroutine.status(co) == "dead" then
      local ok, closing = close(co)
      if not ok then err = closing end
    end
    error(err, 0)
  end
end

-- ---- a mod's own math ----------------------------------------------------------------------
-- Its random numbers come from its own generator, seeded from the world's
-- seed and the mod's ID (math.randomseed reseeds only it).
local MATH_NAMES = { "abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge",
  "log", "max", "maxinteger", "min", "mininteger", "modf", "pi", "rad", "sin", "sqrt", "tan", "tointeger",
  "type", "ult" }

local function mod_math(mod, seed)
  local m = listed(math, MATH_NAMES)
  local r = core.rng.new(seed or 0):stream("mod " .. mod.id)
  m.random = function(a, b)
    if a == nil then return r:float() end
    if math.type(a) ~= "integer" and not (type(a) == "number" and a == math.floor(a)) then
      error("bad argument #1 to 'random' (number has no integer representation)", 2)
    end
    if b == nil then a, b = 1, a end
    if math.type(b) ~= "integer" and not (type(b) == "number" and b == math.floor(b)) then
      error("bad argument #2 to 'random' (number has no integer representation)", 2)
    end
    a, b = math.tointeger(a), math.tointeger(b)
    if a > b then error("bad argument to 'random' (interval is empty)", 2) end
    return r:int(a, b)
  end
  m.randomseed = function(x)
    local n = math.tointeger(x) or (type(x) == "number" and math.floor(x) or 0)
    r = core.rng.new(n):stream("mod " .. mod.id)
  end
  return m
end

-- The standard library tables of one mod: each fresh, only what is listed.
function M.libraries(mod, seed)
  return {
    string = listed(M.string, STRING_NAMES, { dump = M.deny("string.dump") }),
    table = listed(M.table, { "concat", "insert", "move", "pack", "remove", "sort", "unpack" }),
    math = mod_math(mod, seed),
    utf8 = listed(utf8, { "char", "charpattern", "codepoint", "codes", "len", "offset" }),
    coroutine = listed(coroutine, { "isyieldable", "running", "status", "yield" }, coroutines),
    os = { time = os.time, clock = os.clock, date = os.date, difftime = os.difftime,
      execute = M.deny("os.execute"), remove = M.deny("os.remove"), rename = M.deny("os.rename"),
      exit = M.deny("os.exit"), getenv = M.deny("os.getenv"), tmpname = M.deny("os.tmpname"),
      setlocale = M.deny("os.setlocale") },
  }
end

return M
