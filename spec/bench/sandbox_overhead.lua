-- The sandbox's cost: a handler doing a million table operations (500,000
-- writes, 500,000 reads; spec/fixtures/mods/bench), run as a mod's timer
-- handler (a guarded call: budget timer, counting allocator, savepoint, the
-- timer machinery) and the same function called by the host without any of
-- that, both on the main thread and in a plain coroutine. Prints the medians
-- and the ratio to the faster unsandboxed way.
--   lua5.4 spec/bench/sandbox_overhead.lua [ROUNDS]   (from the repository root)
local strata = require "strata"
local rounds = tonumber(arg and arg[1]) or 21

local w = strata.world.new{ seed = 1, mods = { "base", "bench" }, mod_path = { "spec/fixtures/mods" } }
local run = w.data["base.handler"]:ensure("bench.churn").run
local out = w:create_object{ kind = "result" }
local SUM = 125000250000

local function median(xs) table.sort(xs) return xs[(#xs + 1) // 2] end
local function time(fn)
  collectgarbage() collectgarbage()
  local t = os.clock()
  fn()
  return os.clock() - t
end

local direct, plain, sandboxed = {}, {}, {}
for i = 1, rounds do
  -- interleaved, so that all three see the same machine
  direct[i] = time(function() assert(run() == SUM) end)
  plain[i] = time(function()
    local ok, r = coroutine.resume(coroutine.create(run))
    assert(ok and r == SUM)
  end)
  out.state.sum = 0
  sandboxed[i] = time(function()
    w:schedule{ after = 0, handler = "bench.churn", args = { out = out } }
    local failures = w:advance(0)
    assert(#failures == 0, failures[1] and failures[1].message)
  end)
  assert(out.state.sum == SUM, "the sandboxed handler did not run")
end
local d, p, s = median(direct), median(plain), median(sandboxed)
local base = math.min(d, p)
print(("unsandboxed, main thread  %6.2f ms (median of %d)"):format(d * 1000, rounds))
print(("unsandboxed, coroutine    %6.2f ms"):format(p * 1000))
print(("sandboxed timer handler   %6.2f ms"):format(s * 1000))
print(("ratio                     %6.3f (sandboxed / faster unsandboxed)"):format(s / base))
