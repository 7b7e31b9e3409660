-- strata: the Lua face of the runtime. The C core lives in strata.core; the
-- parts written in Lua are loaded on first use, so `require "strata"` stays
-- cheap and each part can require the others without cycles.
local core = require "strata.core"

local strata = {
  version = core.version,
  tilemap = core.tilemap,
  tokens = core.tokens,
  rng = core.rng,
  noise = core.noise,
  json = core.json,
  lease = core.lease,
  line = core.geometry.line,
  circle = core.geometry.circle,
}

-- Parts loaded on first use: strata.<name> requires the module given here.
local lazy = {
  markup = "strata.markup",
  xymap = "strata.xymap",
  layout = "strata.layout",
  world = "strata.world",
  mods = "strata.mods",
  options = "strata.options",
  paths = "strata.paths",
  realtime = "strata.realtime",
  worldgen = "strata.worldgen",
  tiled = "strata.tiled",
  serve = "strata.serve",
}

-- map:to_tiled of a standalone map: a method of the binding's tile map type
-- written in Lua (strata.tiled, loaded on its first call; a tail call, so its
-- errors point at the caller's line).
debug.getregistry()["strata.tilemap"].methods.to_tiled = function(m, opts)
  return require("strata.tiled")._to_tiled(m, opts)
end

strata.reload = function(opts) return require("strata.world").reload(opts) end

return setmetatable(strata, {
  __index = function(t, name)
    local module = lazy[name]
    if module == nil then return nil end
    local value = require(module)
    rawset(t, name, value)
    return value
  end,
  -- pairs(strata) sees every part, loaded or not (it loads them).
  __pairs = function(t)
    for name in pairs(lazy) do local _ = t[name] end
    return next, t, nil
  end,
})
