-- strata.subscription: a persisted (event, handler ID, args) on an object,
-- as object:subscribe and object:subscriptions hand it out. Its fields
-- (uid, object, event, handler) are a copy: its methods use what it was
-- made with, kept out of reach in a side table.
local private = require "strata.private"
local owner = private.owner

local M = {}
local Subscription = {}
Subscription.__index = Subscription
local sub_data = setmetatable({}, { __mode = "k" })

-- A subscription of world w from t = { uid =, object =, event =, handler = } (t becomes it).
function M.new(w, t)
  local d = { uid = t.uid, object = t.object }
  t = setmetatable(t, Subscription)
  sub_data[t] = d
  owner[t] = w
  return t
end

-- sub:cancel() -> true, or false when it was gone already
function Subscription:cancel()
  local d = sub_data[self]
  if not d then error("sub:cancel: call it with a colon (sub:cancel())", 2) end
  return owner[self]._s:unsubscribe(d.uid)
end

function Subscription:alive()
  local d = sub_data[self]
  for _, sub in ipairs(owner[self]._s:subscriptions(d.object)) do
    if sub.uid == d.uid then return true end
  end
  return false
end

Subscription.__tostring = function(s) return "subscription#" .. sub_data[s].uid end
private.protect(Subscription, "strata.subscription")

return M
