-- The honest handler: tick n adds n * n to its counter's state (after real
-- work: a table filled and summed, a pattern search, a small map made). The
-- attacks: a loop that never ends, memory without end (Lua's and strata's C
-- memory), values nested without end.
data:add{ _type = "base.handler", _id = "tick", run = function(world, _, args)
  local c = args.counter
  local n = (c.state.n or 0) + 1
  local t = {}
  for i = 1, 500 do t[i] = i * n end
  local s = 0
  for i = 1, #t do s = s + t[i] end
  assert(s == n * 500 * 501 // 2)
  assert(("tick " .. n):find("%d+$") == 6)
  local m = world:create_map{ width = 8, height = 8, fill = "floor" }
  m:delete()
  c.state.n = n
  c.state.total = (c.state.total or 0) + n * n
end }
data:add{ _type = "base.handler", _id = "loop", run = function()
  while true do end
end }
data:add{ _type = "base.handler", _id = "bomb", run = function()
  local t = {}
  for i = 1, math.huge do t[i] = ("x"):rep(1000) .. i end
end }
data:add{ _type = "base.handler", _id = "cbomb", run = function(world)
  world:create_map{ width = 6000, height = 6000, fill = "floor" }
end }
data:add{ _type = "base.handler", _id = "deep", run = function()
  local t = {}
  while true do t = { t } end
end }
data:add{ _type = "base.handler", _id = "recurse", run = function()
  local function f() return { f() } end
  return f()
end }
