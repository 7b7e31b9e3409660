-- The luv examples of docs/embedding.md (examples/luv/), each run as a host
-- runs it, on luv's loop: a TCP front end sharing the loop with a realtime
-- run, event-driven waking, hot reload. Every run has a fake clock the spec
-- moves, so no verdict depends on the machine's speed; a TCP client shares
-- the loop, and a file event is waited for with a generous bound that is
-- never the verdict (what happened is).
local uv = require "luv"
local support = require "support"

local root = os.getenv("STRATA_SOURCE_DIR") or "."
local EXAMPLES = root .. "/examples/luv"

-- Starts an example with opts (it returns what it made).
local function start(name, opts)
  local chunk = assert(loadfile(EXAMPLES .. "/" .. name .. ".lua"))
  return chunk(opts)
end

local fake_clock, settle = support.fake_clock, support.settle

-- Runs the loop until done() is true; the bound (20 s) only keeps a broken
-- example from hanging the spec.
local function run_until(done, what)
  local expired = false
  local guard = uv.new_timer()
  guard:start(20000, 0, function() expired = true end)
  while not done() and not expired do uv.run("once") end
  guard:close()
  assert.truthy(done(), "no " .. what .. " within 20 s")
end

-- Closes every handle left on the loop (a spec file shares luv's loop with the next).
local function close_all()
  uv.walk(function(h) if not h:is_closing() then h:close() end end)
  uv.run("default")
end

describe("examples/luv", function()
  after_each(function()
    require("strata.realtime").stop_all("cleanup")
    close_all()
  end)

  it("waking.lua: advances only when a ring is due, then stops at until_time", function()
    local lines = {}
    local clock = fake_clock(0)
    local ex = start("waking", { clock = clock.read, print = function(s) lines[#lines + 1] = s end })
    -- the bell rings at world times 1, 2.5 and 4; 4 world seconds a second
    for _, t in ipairs{ 0.125, 0.25, 0.5, 0.625, 2 } do
      clock.now = t
      settle()
    end
    assert.same({
      "woke at world time 1: rings so far 1, next due 2.5",
      "woke at world time 2.5: rings so far 2, next due 4",
      "woke at world time 5: rings so far 3, next due none",
      "stopped (until_time) at world time 5 after 3 advances",
    }, lines)
    assert.equal(5, ex.world.time)
  end)

  it("tcp_front_end.lua: a client's ring is scheduled, the run wakes for it and tells the client", function()
    local clock = fake_clock(0)
    local ex = start("tcp_front_end", { clock = clock.read, port = 0, print = function() end })
    local got = ""
    local client = uv.new_tcp()
    client:connect("127.0.0.1", ex.port, function(err)
      assert.is_nil(err)
      client:read_start(function(rerr, chunk)
        assert.is_nil(rerr)
        if chunk then got = got .. chunk end
      end)
      client:write("ring 2\n")
    end)
    run_until(function() return got:find("\n") end, "answer to 'ring 2'")
    assert.equal("ok: the bell rings at world time 2\n", got)
    clock.now = 1.5
    settle()
    assert.equal(0, #ex.bell.state)
    clock.now = 2.5
    run_until(function() return got:find("ding") end, "ring")
    assert.equal("ok: the bell rings at world time 2\nding at world time 2\n", got)
    client:write("time\n")
    run_until(function() return got:find("time 2.5\n", 1, true) end, "answer to 'time'")
    client:write("nonsense\n")
    run_until(function() return got:find("commands:") end, "answer to a wrong command")
    assert.matches("commands: ring SECONDS, time, quit\n$", got)
  end)

  it("hot_reload.lua: a changed mod is reloaded in the live world; a broken one is reported, the world goes on", function()
    local dir = support.tempdir()
    assert(os.execute(("cp -R %s %s"):format(support.q(EXAMPLES .. "/mods"), support.q(dir .. "/mods"))))
    local reports = {}
    local ex = start("hot_reload", { clock = fake_clock(0).read, mod_path = dir .. "/mods",
      print = function(s) reports[#reports + 1] = s end })
    local world, bell = ex.world, ex.bell
    local function ring()
      world:schedule{ after = 1, handler = "bell.ring", args = { bell = bell, who = "spec" } }
      assert.same({}, world:advance(1))
      return bell.state[#bell.state].sound
    end
    assert.equal("ding", ring())
    local init = dir .. "/mods/bell/init.lua"
    local source = support.read(init)
    support.write(init, (source:gsub('sound = "ding"', 'sound = "dong"')))
    run_until(function() return #reports >= 1 end, "reload")
    assert.same({ "reloaded bell" }, reports)
    assert.equal("dong", ring())
    support.write(init, source .. "\ndata:add{ oops\n")
    run_until(function() return #reports >= 2 end, "failed reload")
    assert.matches("^reload failed, the world goes on as it was: strata%.reload bell: failed, nothing changed", reports[2])
    assert.matches("init%.lua:%d+:", reports[2])
    assert.equal("dong", ring())
    os.execute("rm -rf " .. support.q(dir))
  end)
end)
