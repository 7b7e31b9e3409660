-- Errors raised by the C bindings (issue 30): every binding raises through
-- the lstrata_* helpers (bindings/lua/lstrata.h), so that no message carries
-- a position inside strata nor Lua's "bad argument #n to 'x'" words, and the
-- Lua side (strata.boundary) has nothing to strip: it only puts the caller's
-- line.
local root = os.getenv("STRATA_SOURCE_DIR") or "."
local core = require "strata.core"
local strata = require "strata"
local support = require "support"

-- Lua's auxiliary functions that raise with a position or in Lua's words.
local RAISERS = { "luaL_error", "luaL_argerror", "luaL_check", "luaL_opt", "luaL_argcheck",
  "luaL_argexpected", "luaL_typeerror" }

-- Files allowed to call them, and why.
local ALLOWED = {
  -- Lua 5.4's own pattern matcher (lstrlib.c) with work counted: it is
  -- string.find, match, gmatch and gsub themselves, so it raises as they do.
  ["guard_match.c"] = true,
}

local function binding_files()
  local p = assert(io.popen("ls " .. root .. "/bindings/lua/*.c"))
  local files = {}
  for path in p:lines() do files[#files + 1] = path end
  p:close()
  assert.is_true(#files > 10, "no binding files under " .. root .. "/bindings/lua")
  return files
end

describe("the bindings' errors", function()
  it("are raised through the lstrata_* helpers, never Lua's raising helpers", function()
    local found = {}
    for _, path in ipairs(binding_files()) do
      local name = path:match("[^/]+$")
      if not ALLOWED[name] then
        local n = 0
        for line in io.lines(path) do
          n = n + 1
          local code = line:gsub("/%*.-%*/", ""):gsub("^%s*%*.*", ""):gsub("^%s*/%*.*", "")
          for _, f in ipairs(RAISERS) do
            if code:find(f, 1, true) then found[#found + 1] = ("%s:%d: %s"):format(name, n, line) end
          end
        end
      end
    end
    assert.are.same({}, found)
  end)

  -- Functions only strata's own Lua calls (no public name): the message alone.
  local function raw_error(fn, ...)
    local ok, msg = pcall(fn, ...)
    assert.is_false(ok)
    return msg
  end

  it("of functions strata's Lua calls are the message alone, with no position nor Lua's words", function()
    local w = strata.world.new{ seed = 1 }
    local s = support.state(w)
    local msgs = {
      raw_error(s.create, s, {}),
      raw_error(s.set_time, s, "soon"),
      raw_error(s.room_create, s, nil),
      raw_error(s.grid_delete, s, {}),
      raw_error(s.branch_room_at, s, 1, "x", 2),
      raw_error(core.world_state.new, "seed"),
      raw_error(core.paths.kind, {}),
      raw_error(core.worldgen.parse, {}),
    }
    for _, msg in ipairs(msgs) do
      assert.is_string(msg)
      assert.is_nil(msg:find("bad argument", 1, true), msg)
      assert.is_nil(msg:match("^[^\n]-:%d+: "), msg)
    end
  end)

  -- With no binding raising in Lua's words, the boundary rewords none: it
  -- puts the public name and the caller's line before the message as it is.
  it("need no rewording at the boundary", function()
    local boundary = require "strata.boundary"
    local lua_words = "bad argument #2 to '?' (string expected, got table)"
    local set = boundary.wrap("map:set", function() error(lua_words, 0) end)
    local line = debug.getinfo(1, "l").currentline + 1
    local ok, err = pcall(function() set() end)
    assert.is_false(ok)
    assert.matches("binding_errors_spec%.lua:" .. line .. ": map:set: ", err)
    assert.are.equal("map:set: " .. lua_words, err:match("^[^:]*:%d+: (.*)$"))
  end)
end)
