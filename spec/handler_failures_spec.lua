-- Time never stops for one handler: a timer or event handler that raises is
-- undone (whatever it changed), reported with the timer, the handler ID, the
-- mod and the message, and the others run.
local strata = require "strata"
local support = require "support"


local function faulty_world() return support.new_world(5, { "base", "faulty" }) end

-- Everything a save holds, as text, to compare states (but its generation:
-- file.id and save.*, new with every save, and the checksums and sums, which
-- cover file.id).
local function saved(w)
  local path = os.tmpname()
  w:save(path)
  local f = assert(io.popen("sqlite3 " .. path .. " .dump"))
  local text = f:read("a")
  f:close()
  os.remove(path)
  text = text:gsub("INSERT INTO meta VALUES%('file%.id'[^\n]*\n", ""):gsub("INSERT INTO meta VALUES%('save%.[^\n]*\n", "")
  text = text:gsub("INSERT INTO meta VALUES%('sum%.[^\n]*\n", "")
  return (text:gsub("(INSERT INTO [^\n]*),%-?%d+%);\n", "%1);\n"))
end

describe("a failing timer handler", function()
  it("one of three due timers raises: the clock reaches the target, the others run, nothing of it stays", function()
    local w = faulty_world()
    local log = w:create_object{ kind = "log" }
    local map = w:create_map{ width = 3, height = 3, fill = "floor" }
    w:schedule{ after = 5, handler = "faulty.note", args = { log = log, tag = "first" } }
    local bad = w:schedule{ after = 6, every = 10, handler = "faulty.wreck", args = { log = log, map = map } }
    w:schedule{ after = 7, handler = "faulty.note", args = { log = log, tag = "third" } }
    local dice = w.rng:stream("dice"):state()
    local seen = {}
    support.only_handler(w, "base.handler_failed", function(_, failure) seen[#seen + 1] = failure end)

    local failures = w:advance(100)
    assert.equal(100, w.time)
    assert.same({ "first@5", "third@7" }, { log.state[1], log.state[2] })
    -- the repeating timer stayed scheduled: it failed again at 16, 26, ..., 96
    assert.equal(10, #failures)
    local f = failures[1]
    assert.equal(bad, f.timer)
    assert.equal("faulty.wreck", f.handler)
    assert.equal("faulty", f.mod)
    assert.matches("the bell cracked", f.message)
    assert.equal(10, #seen)
    assert.equal(bad, seen[1].timer)
    -- nothing the handler did is left
    assert.is_nil(log.state.wrecked)
    assert.equal(2, #log.state)
    assert.is_false(log:has_tag("wrecked"))
    assert.same({ "floor" }, map:tokens(0, 0))
    assert.is_true(map:passable(1, 1))
    assert.equal(0, #log:subscriptions())
    for _, o in ipairs(w:objects()) do assert.is_not.equal("debris", o.kind) end
    local timers = w:timers()
    assert.equal(1, #timers)
    assert.equal(bad, timers[1].uid)
    assert.equal(dice, w.rng:stream("dice"):state())
  end)

  it("leaves the world exactly as it was before the failing handler ran", function()
    local w = faulty_world()
    local log = w:create_object{ kind = "log" }
    local map = w:create_map{ width = 3, height = 3, fill = "floor" }
    w:schedule{ after = 5, handler = "faulty.wreck", args = { log = log, map = map } }
    local twin = faulty_world()
    local tlog = twin:create_object{ kind = "log" }
    twin:create_map{ width = 3, height = 3, fill = "floor" }
    local _ = tlog
    twin:schedule{ after = 1e9, handler = "faulty.note", args = { log = tlog, tag = "x" } }
    twin:cancel(twin:timers()[1].uid)
    w:advance(5)
    twin:advance(5)
    -- the same objects, tiles, tokens, timers and streams (uids drawn by the
    -- failed handler stay used: only the counter differs)
    local a, b = saved(w):gsub("'next_uid',%d+", ""), saved(twin):gsub("'next_uid',%d+", "")
    assert.equal(b, a)
  end)
end)

describe("a failing event handler", function()
  it("is undone and reported; the chain goes on without it", function()
    local w = faulty_world()
    local log = w:create_object{ kind = "log" }
    local seen = {}
    support.only_handler(w, "base.handler_failed", function(_, failure) seen[#seen + 1] = failure end)
    assert.equal(11, w:emit("faulty.rang", { log = log }, 0))
    assert.is_nil(log.state.b)
    assert.equal(1, #seen)
    assert.equal("faulty: b", seen[1].handler)
    assert.equal("faulty.rang", seen[1].event)
    assert.matches("b fails", seen[1].message)
  end)

  it("a failing handler of base.handler_failed is not reported again", function()
    local w = faulty_world()
    local log = w:create_object{ kind = "log" }
    local calls = 0
    support.only_handler(w, "base.handler_failed", function() calls = calls + 1 error("loops?") end, "spec: bad")
    assert.equal(11, w:emit("faulty.rang", { log = log }, 0))
    assert.equal(1, calls)
  end)
end)
