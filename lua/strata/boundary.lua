-- strata.boundary: errors at the edge of the public API. A public function's
-- error names that function and points at the line that called it, never at
-- a file inside strata. Code of strata's own raises with no position (level
-- 0, or at a level that M.level turns into 0 when the line it would point at
-- is strata's own); the public function's wrapper here puts the caller's
-- line. The bindings follow the same rule in C (bindings/lua/lstrata.c).
local M = {}

-- The chunk-name prefix of strata's own Lua files: this file's directory.
local here = debug.getinfo(1, "S").source:match("^(@.*/)[^/]*$") or "@"
-- The binding leaves the lines of these files out of its errors (lstrata.c).
require("strata.core")._library_source(here)

-- Whether a chunk named `source` is strata's own Lua.
local function own(source) return source == "=strata" or source:sub(1, #here) == here end

-- Lua's own limit on nested calls is hit at whatever line the calls reached
-- (a line of strata's, with its install path, when mod code recurses through
-- a public function), not where anything was found wrong: the public
-- function reports it as its own, at its caller's line.
local function own_limit(msg)
  return msg:match("C stack overflow$") or msg:match("stack overflow$") or msg
end

-- The level for error(msg, level) in the function calling this: `level` as
-- error counts it (2: that function's caller), or 0 when the code there is
-- strata's own, whose public function then puts its own caller's line. So a
-- helper that users and strata's files both call raises once, at the right line.
function M.level(level)
  local info = debug.getinfo(level + 1, "S")
  if info and own(info.source) then return 0 end
  return level
end

-- fn wrapped as the public function `name` ("world:travel"): its errors come
-- out at the line that called it, starting with its name (a message from
-- strata's helpers says what is wrong; the public name is the wrapper's to
-- give, as the binding gives a C function's). A metamethod's wrapper (name
-- nil) gives the line only: its messages name their field themselves.
local function wrap(name, fn)
  local prefix = name and name .. ": "
  -- A message that starts with a public name of the same method ("area:delete:
  -- ..." under object:delete, "world.rng:stream: ..." under world:stream,
  -- "strata.layout.place count: ..." under strata.layout.place) names what
  -- was called already.
  local same = name and "^[%w_.]+[:.]" .. name:match("[%w_]+$") .. "[: ]"
  local function finish(ok, ...)
    if ok then return ... end
    local msg = ...
    if type(msg) == "string" then msg = own_limit(msg) end
    if prefix and type(msg) == "string" and not msg:find(same) then msg = prefix .. msg end
    -- Level 2: the wrapper's frame was reused by this tail call, so level 2 is
    -- the code that called the public function.
    error(msg, M.level(2))
  end
  return function(...) return finish(pcall(fn, ...)) end
end

function M.wrap(name, fn) return wrap(name, fn) end

-- fn (a metamethod) wrapped: its errors come out at its caller's line, as they are.
function M.lined(fn) return wrap(nil, fn) end

-- Wraps every function of t whose key does not start with "_", naming each
-- `prefix .. key` ("world:" .. "travel").
function M.wrap_all(t, prefix)
  for k, f in pairs(t) do
    if type(f) == "function" and type(k) == "string" and k:sub(1, 1) ~= "_" then
      t[k] = M.wrap(prefix .. k, f)
    end
  end
  return t
end

return M
