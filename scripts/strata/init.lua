-- strata: the Lua face of the runtime. The C core lives in strata.core; the
-- parts written in Lua are loaded on first use, so `require "strata"` stays
-- cheap and each part can require the others without cycles.
local core = require "strata.core"

local strata = {
  version = core.version,
  tilemap = core.tilemap,
  tokens = core.tokens,
  rng = core.rng,
  xymap = core.xymap,
}

-- Parts loaded on first use: strata.<name> requires the module given here.
local lazy = {
  markup = "strata.markup",
}

return setmetatable(strata, {
  __index = function(t, name)
    local module = lazy[name]
    if module == nil then return nil end
    local value = require(module)
    rawset(t, name, value)
    return value
  end,
})
