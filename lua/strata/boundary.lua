-- strata.boundary: errors at the edge of the public API. A public function's
-- error must name that function and point at the line that called it, never
-- at a file inside strata: wrapping a function here raises it again at the
-- caller. The bindings raise with no position and in no words of Lua's when
-- strata's Lua calls them (bindings/lua/lstrata.h); what is left to strip is
-- the position a Lua file of strata's own puts with error(msg) at level 1.
local M = {}

-- The directory of strata's Lua files (this file's own), as chunk names spell it.
local here = debug.getinfo(1, "S").source:match("^@(.*/)[^/]*$") or ""
-- The binding leaves the lines of these files out of its errors (lstrata.c).
require("strata.core")._library_source("@" .. here)

-- True when `file` (as an error position spells it, possibly shortened to
-- "...tail" by Lua) is one of strata's own Lua files.
local function internal(file)
  if file == "strata" then return true end
  local tail = file:match("^%.%.%.(.*)$")
  if tail then
    local candidate = here .. (tail:match("[^/]*$") or "")
    return candidate:sub(-#tail) == tail
  end
  return file:sub(1, #here) == here
end

-- The message without the "file:line: " prefixes that strata's own Lua files
-- put in front of it (an error may cross several of them). It goes once
-- those files raise at level 0 or at their caller's level.
function M.strip(msg)
  if type(msg) ~= "string" then return msg end
  while true do
    local file, rest = msg:match("^([^\n]-):%d+: (.*)$")
    if not (file and internal(file)) then return msg end
    msg = rest
  end
end

-- msg as the public function `name` ("map:set", whose own name is `short`,
-- "set") says it: one that names the function in its own way ("set: ...",
-- "area#4:set: ...") by the public name; one that names it publicly already
-- ("world.rng:stream: ...") as it is; anything else prefixed with the public
-- name.
function M.named(name, short, msg)
  local lead, rest = msg:match("^([%w_.#:%[%]]+): (.*)$")
  if lead == name then return msg end
  if lead == short or (lead and lead:match("^[%w_]+#%d+[:.]([%w_]+)$") == short) then
    return name .. ": " .. rest
  end
  if lead and lead:match("[:.]([%w_]+)$") == short then return msg end
  return name .. ": " .. msg
end

-- fn wrapped: its errors come out at the level of the wrapped function's
-- caller, stripped, and named by `name` (M.named) when name is given (a
-- metamethod's messages name their field themselves).
local function wrap(name, fn)
  local short = name and (name:match("[:.]([%w_]+)$") or name)
  local function finish(ok, ...)
    if ok then return ... end
    local msg = ...
    if type(msg) == "string" then
      msg = M.strip(msg)
      if name then msg = M.named(name, short, msg) end
    end
    -- Level 2: the wrapper's frame was reused by this tail call, so level 2 is
    -- the code that called the public function.
    error(msg, 2)
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
