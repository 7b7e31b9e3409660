-- Errors as structured values (issue 30): the core's refusals carry the
-- function, a refusal code and the subjects; the Lua messages are formatted
-- from them once, naming the Lua function at the caller's line. Nothing on
-- the Lua side rewrites a core message, and a mod's message longer than the
-- core's error buffer comes back whole through the failure record, not
-- through a cache keyed by its first bytes.
local support = require "support"
local strata = require "strata"

-- (ctest runs specs by their full path, busted by spec/...)
local function quote(s) return (s:gsub("%p", "%%%0")) end
local AT = "^[^:]-structured_errors_spec%.lua:%d+: "

local new_world, err_of = support.new_world, support.err_of

-- The Lua files of the strata library, read whole.
local function library_sources()
  local root = os.getenv("STRATA_SOURCE_DIR") or "."
  local out = {}
  for _, path in ipairs(support.library_files()) do out[path] = assert(support.read(root .. "/" .. path)) end
  return out
end

describe("structured errors", function()
  it("no Lua pattern strips a C function's name and no message is cached by its first bytes", function()
    for path, text in pairs(library_sources()) do
      assert.is_nil(text:find("strata_[%w_]+", 1, true), path .. " strips strata_ names")
      assert.is_nil(text:find('"^strata_', 1, true), path .. " strips strata_ names")
      assert.is_nil(text:find("full_message", 1, true), path .. " restores cut messages")
      assert.is_nil(text:find("keep_message", 1, true), path .. " caches messages")
    end
  end)

  it("two long messages sharing their first 600 bytes come back each whole", function()
    local w = new_world()
    local head = ("x"):rep(600)
    local n = 0
    support.registry(w).by_type["base.handler"]["dungeon.noop"].run = function(_, _, args)
      n = n + 1
      error(head .. " ending " .. args.tag, 0)
    end
    local seen = {}
    support.only_handler(w, "base.handler_failed", function(_, failure) seen[#seen + 1] = failure.message end)
    w:schedule{ after = 1, handler = "dungeon.noop", args = { tag = "one" } }
    w:schedule{ after = 2, handler = "dungeon.noop", args = { tag = "two" } }
    local failures = w:advance(3)
    assert.equal(2, n)
    assert.equal(2, #failures)
    assert.equal(head .. " ending one", failures[1].message)
    assert.equal(head .. " ending two", failures[2].message)
    assert.same({ head .. " ending one", head .. " ending two" }, seen)
  end)

  it("a floor generator's long error is raised whole, named by the Lua function", function()
    local w = new_world()
    local long = ("y"):rep(1500)
    support.registry(w).by_type["base.area_generator"]["dungeon.cave"].generate_floor = function() error(long, 0) end
    local cave = w:create_area("dungeon.cave")
    local err = err_of(function() cave:floor(1) end)
    assert.matches(AT .. "area:floor: ", err)
    assert.equal(long, err:sub(-#long))
  end)

  it("the core's refusals name the Lua function at the caller's line", function()
    local w = new_world()
    local town = w:create_area("dungeon.town")
    local m1 = w:create_map{ width = 3, height = 3, fill = "floor" }
    local m2 = w:create_map{ width = 3, height = 3, fill = "floor" }
    town:add_floor(m1, 1)
    local line = debug.getinfo(1, "l").currentline + 1
    local err = err_of(function() town:add_floor(m2, 1) end)
    assert.matches(("^[^:]-structured_errors_spec%%.lua:%d: area:add_floor: floor 1 of %s is taken %%(%s%%)$"):format(
      line, quote(tostring(town)), quote(tostring(m1))), err)
    err = err_of(function() town:add_floor(m1, 2) end)
    assert.matches(AT .. "area:add_floor: " .. quote(tostring(m1)) .. " is already floor 1 of " .. quote(tostring(town)) .. "$", err)
    -- stairs on a map that is no area's floor
    local loose = w:create_map{ width = 3, height = 3, fill = "floor" }
    local stairs = w:create_stairs(loose, 1, 1, { floor_delta = 1 })
    local hero = w:create_actor{ map = loose, x = 0, y = 0, player = true }
    err = err_of(function() w:travel(hero, stairs) end)
    assert.matches(AT .. "world:travel: .* stand on map#%d+, which is not a floor of any area", err)
    -- an emit of an undeclared event names the function it was called through
    assert.matches(AT .. "object:emit: unknown base.event 'dungeon.nope'",
      err_of(function() hero:emit("dungeon.nope", {}) end))
    assert.matches(AT .. "world:emit: unknown base.event 'dungeon.nope'",
      err_of(function() w:emit("dungeon.nope", {}) end))
  end)
end)
