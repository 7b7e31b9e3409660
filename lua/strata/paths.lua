-- strata.paths: where strata's own mods are, and the mod search path.
--
-- The mod path is the list of directories a world searches for mods, in
-- order (the first directory holding <id>/mod.lua wins):
--
--   1. the user's directories, as given (mod_path = "dir" or { "a", "b" });
--   2. the directory of strata's own mods (base, examples), always, last,
--      unless the user's list already names it.
--
-- Nothing depends on the working directory: with no mod_path a world
-- searches only the built-in directory; a game's own mods are found by naming
-- their directory (relative names are taken from the working directory, as
-- io.open does).
--
-- The built-in directory is the first of:
--   - $STRATA_MODS_DIR, when set and not empty;
--   - the source tree's mods/, when this file is <root>/lua/strata/paths.lua
--     and <root>/mods/base/mod.lua exists (build tree: scripts/env, busted,
--     build/strata);
--   - the installed mods beside the installed Lua files (a prefix moved, or
--     made with `cmake --install --prefix DIR`);
--   - the installed mods of the prefix the build was configured with (even if
--     missing, so that "mod 'base' not found in ..." names where it looked).
local core = require "strata.core"

local M = {}

local realpath = core.paths.realpath

-- Files are looked at before they are opened (strata/file.h): a FIFO would
-- block a read, a device would never end, and a write renamed over anything
-- but a regular file would replace it.

-- What is at path ("a regular file", "a directory", "a FIFO", ...), links
-- followed; nil when nothing is.
function M.kind(path) return core.paths.kind(path) end

-- The most bytes read() takes unless told: layout, glyph and mapping
-- files are a few hundred kilobytes at most.
M.READ_MAX = 64 * 1024 * 1024

-- The text of the regular file at path, or nil, "<what> '<path>': why"
-- (what: how the caller's errors begin, default "cannot read"); a file of
-- more than max bytes (default M.READ_MAX) is refused having read no more
-- than max + 1 of them (strata_file_read), whatever its size claims.
function M.read(path, what, max)
  return core.paths.read(path, what or "cannot read", max or M.READ_MAX, "the most strata reads of a text file")
end

-- Writes data to path whole or not at all, replacing only a regular file:
-- true, or nil, "cannot write '<path>': why".
function M.write(path, data) return core.paths.write(path, data) end

-- Whether a and b, two places a world is stored (paths, or postgresql://
-- URIs), name the same world: one file under two names (links resolved), or
-- one server's URI with its query parameters in another order, its scheme
-- spelt postgres://, or its world= left to its default, main. A copy onto
-- its own source would replace the world it is reading.
local function store_key(s)
  local scheme, rest = s:match("^(postgres)ql(://.*)$")
  if not scheme then scheme, rest = s:match("^(postgres)(://.*)$") end
  if not scheme then return realpath(s) or s end
  local base, query = rest:match("^([^?]*)%??(.*)$")
  local params, world = {}, "main"
  for kv in query:gmatch("[^&]+") do
    local k, v = kv:match("^([^=]*)=?(.*)$")
    if k == "world" then world = v else params[#params + 1] = kv end
  end
  table.sort(params)
  params[#params + 1] = "world=" .. world
  return "postgresql" .. base .. "?" .. table.concat(params, "&")
end
function M.same_store(a, b) return store_key(a) == store_key(b) end

local function readable(path) return core.paths.check_read(path, "") ~= nil end

-- The directory of this file, resolved now: a relative package.path entry
-- is relative to the working directory of the require, which may change.
local here
do
  local source = debug.getinfo(1, "S").source
  local file = source:sub(1, 1) == "@" and source:sub(2) or nil
  local dir = file and (file:match("^(.*)/[^/]*$") or ".")
  here = dir and (realpath(dir) or dir)
end

local function holds_mods(dir) return readable(dir .. "/base/mod.lua") end

local builtin

-- The directory of strata's own mods (see the rules above), absolute.
function M.builtin_mods()
  local env = os.getenv("STRATA_MODS_DIR")
  if env and env ~= "" then return env end
  if builtin then return builtin end
  local candidates = {}
  if here then
    candidates[#candidates + 1] = here .. "/../../mods"
    if core.paths.lua_to_mods ~= "" then candidates[#candidates + 1] = here .. "/" .. core.paths.lua_to_mods end
  end
  for _, dir in ipairs(candidates) do
    if holds_mods(dir) then
      builtin = realpath(dir) or dir
      return builtin
    end
  end
  builtin = core.paths.install_mods
  return builtin
end

-- The list of directories to search for mods: user's entries (nil, a
-- directory, or a list of directories), then the built-in directory unless
-- one of them is already it. Always a new table.
function M.mod_path(user)
  local list = {}
  if type(user) == "string" then
    list[1] = user
  elseif type(user) == "table" then
    for i, dir in ipairs(user) do
      if type(dir) ~= "string" then
        error(("mod_path: entry %d must be a directory (a string), got %s"):format(i, type(dir)), 2)
      end
      list[i] = dir
    end
  elseif user ~= nil then
    error("mod_path: expected a directory or a list of directories, got " .. type(user), 2)
  end
  local builtin_dir = M.builtin_mods()
  local real = realpath(builtin_dir) or builtin_dir
  for _, dir in ipairs(list) do
    if dir == builtin_dir or (realpath(dir) or dir) == real then return list end
  end
  list[#list + 1] = builtin_dir
  return list
end

return M
