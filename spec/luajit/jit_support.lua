-- spec/luajit/jit_support.lua: what the LuaJIT specs of strata.ffi share
-- (spec/support.lua's helpers are theirs too: it loads under LuaJIT).
-- lua54(code): the same inputs through the Lua 5.4 module, for comparisons.
local support = require "support"
local M = {}

local root = os.getenv("STRATA_SOURCE_DIR") or "."
local build = os.getenv("STRATA_BUILD_DIR") or root .. "/build"
M.root, M.build = root, build

-- The output of code run by lua5.4 with the 5.4 module of the build tree,
-- or an error with what it printed.
function M.lua54(code)
  local dir = support.tempdir()
  support.write(dir .. "/script.lua", code)
  local env = ("LUA_PATH=%s LUA_CPATH=%s "):format(
    support.q(root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;;"), support.q(build .. "/lua/?.so;;"))
  local out, status = support.sh(env .. "lua5.4 " .. support.q(dir .. "/script.lua"))
  support.sh("rm -rf " .. support.q(dir))
  if status ~= 0 then error("lua5.4 failed: " .. out, 2) end
  return out
end

-- The message of the error fn(...) raises (nil when it raises none).
function M.raised(fn, ...)
  local ok, msg = pcall(fn, ...)
  if ok then return nil end
  return msg
end

-- A path's cells as text "x,y x,y ..." and its cost with 2 decimals: both
-- Lua versions print it alike (the source is handed to lua54 scripts too).
M.route_text_source = [[
local function route_text(path)
  local out = {}
  for _, x, y in path:cells() do out[#out + 1] = x .. "," .. y end
  return table.concat(out, " ") .. (" cost %.2f"):format(path.cost)
end
]]
M.route_text = assert(loadstring(M.route_text_source .. "return route_text"))()

return M
