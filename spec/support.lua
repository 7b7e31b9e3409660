-- spec/support.lua: what specs that run programs share (require "support";
-- LUA_PATH includes spec/ under ctest).
local M = {}

-- Runs cmd in sh; returns its output (stdout and stderr) and exit status.
function M.sh(cmd)
  local f = assert(io.popen(cmd .. " 2>&1; echo \"exit:$?\""))
  local out = f:read("a")
  f:close()
  local body, code = out:match("^(.-)exit:(%d+)%s*$")
  return body, tonumber(code)
end

-- s quoted for sh.
function M.q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- A new empty directory.
function M.tempdir()
  local p = io.popen("mktemp -d")
  local dir = p:read("l")
  p:close()
  return dir
end

-- Writes text to path, making its directory first.
function M.write(path, text)
  local dir = path:match("^(.*)/[^/]*$")
  if dir then assert(os.execute("mkdir -p " .. M.q(dir))) end
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

-- The contents of path, or nil.
function M.read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

return M
