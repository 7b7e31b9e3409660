-- strata.ffi.lua54: sandboxed mods for a LuaJIT game, in a Lua 5.4 state of
-- libstrata_lua (strata/lua.h) inside the same process (docs/luajit.md,
-- "Sandboxed mods"). Require it before strata.ffi: it loads libstrata_lua,
-- and strata.ffi then finds that library loaded and uses its core (the
-- process has one copy of the core, whose worlds both sides reach).
--
-- libstrata_lua calls Lua 5.4's C API by the same names as LuaJIT's own
-- (lua_pushstring, ...), which the process already has: loaded plainly,
-- its calls would go to LuaJIT's functions and crash. It is loaded with
-- RTLD_DEEPBIND (glibc), so that it and its liblua5.4 look up their own
-- symbols first; every function of it is then taken by dlsym.
local ffi = require "ffi"

-- (each alone: strata.ffi's loader declares dlopen too)
for _, decl in ipairs {
  "void *dlopen(const char *file, int mode);", "void *dlsym(void *handle, const char *name);",
  "char *dlerror(void);", "typedef struct lua_State lua_State;",
  "typedef struct strata_lua_options { const char *lua_dir; } strata_lua_options;",
} do pcall(ffi.cdef, decl) end
local RTLD_NOW, RTLD_DEEPBIND = 2, 8

local M = {}

-- The functions taken from the library, by name and C type.
local API = {
  strata_lua_new = "lua_State *(*)(const strata_lua_options *, strata_error *)",
  luaL_loadbufferx = "int (*)(lua_State *, const char *, size_t, const char *, const char *)",
  lua_pcallk = "int (*)(lua_State *, int, int, int, intptr_t, void *)",
  lua_tolstring = "const char *(*)(lua_State *, int, size_t *)",
  lua_pushlstring = "const char *(*)(lua_State *, const char *, size_t)",
  lua_gettop = "int (*)(lua_State *)",
  lua_settop = "void (*)(lua_State *, int)",
  lua_close = "void (*)(lua_State *)",
}

local State = {}
State.__index = State

-- The chunk state:run calls: the code's results as strings.
local RUN = [[
local code, name = ...
local t = table.pack(assert(load(code, name))())
for i = 1, t.n do t[i] = tostring(t[i]) end
return table.unpack(t, 1, t.n)
]]

-- state:run(code, name) -> the chunk's results as strings (tostring'd in the
-- 5.4 state), or nil, its error. Only strings cross between the two Luas.
function State:run(code, name)
  local api, L = self.api, self.L
  if L == nil then error("strata.ffi.lua54: the state was closed", 2) end
  if type(code) ~= "string" then error("strata.ffi.lua54: state:run: the code must be a string", 2) end
  name = "=" .. (name or "lua54")
  local base = api.lua_gettop(L)
  local ok = api.luaL_loadbufferx(L, RUN, #RUN, "=strata.ffi.lua54", nil) == 0
  if ok then
    api.lua_pushlstring(L, code, #code)
    api.lua_pushlstring(L, name, #name)
    ok = api.lua_pcallk(L, 2, -1, 0, 0, nil) == 0
  end
  local out, len = {}, ffi.new("size_t[1]")
  for i = base + 1, api.lua_gettop(L) do
    local s = api.lua_tolstring(L, i, len)
    out[#out + 1] = s ~= nil and ffi.string(s, len[0]) or "?"
  end
  api.lua_settop(L, base)
  if not ok then return nil, out[#out] end
  return unpack(out)
end

function State:close()
  if self.L ~= nil then self.api.lua_close(ffi.gc(self.L, nil)) end
  self.L = nil
end

-- lua54.new{ library = path } -> a Lua 5.4 state set up for strata (its
-- sandbox, require "strata"), or nil, reason. library: libstrata_lua's path
-- (default: $STRATA_LUA_LIB, else "libstrata_lua.so.0" on the library path).
function M.new(opts)
  opts = opts or {}
  local path = opts.library or os.getenv("STRATA_LUA_LIB") or "libstrata_lua.so.0"
  local h = ffi.C.dlopen(path, RTLD_NOW + RTLD_DEEPBIND)
  if h == nil then return nil, "strata.ffi.lua54: " .. ffi.string(ffi.C.dlerror()) end
  local strata = require "strata.ffi" -- (after the dlopen: it takes this library's core)
  local api = {}
  for name, ctype in pairs(API) do
    local p = ffi.C.dlsym(h, name)
    if p == nil then return nil, "strata.ffi.lua54: " .. path .. " has no " .. name end
    api[name] = ffi.cast(ctype, p)
  end
  local err = ffi.new("strata_error[1]")
  local L = api.strata_lua_new(nil, err)
  if L == nil then return nil, "strata.ffi.lua54: " .. ffi.string(err[0].message) end
  return setmetatable({ L = ffi.gc(L, api.lua_close), api = api, strata = strata }, State)
end

return M
