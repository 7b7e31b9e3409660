-- strata.ffi: libstrata for LuaJIT (LÖVE, OpenResty, any LuaJIT program),
-- through the FFI: tile maps, paths, fields of view, distance maps, layouts,
-- XY maps, the world generator (docs/luajit.md). For a game's own code: no
-- mod sandbox runs here (mods run in a Lua 5.4 state: docs/luajit.md).
--
-- Layout: this file is the module (`require "strata.ffi"`); its parts are
-- lua/strata/ffi/*.lua, installed beside it under share/lua/5.1/strata/:
--   cdefs.lua   the declarations, generated from the public headers
--               (scripts/gen_ffi_cdefs; CTest's ffi/cdefs fails when stale)
--   base.lua    libstrata loaded once, and the helpers every part uses
--   <part>.lua  one a kind of thing; each returns function(M) that adds its
--               functions to the module table M (the names of the 5.4
--               module where the thing is the same: M.tilemap.new, M.tokens)
--   lua54.lua   not a part: Lua 5.4 mods beside LuaJIT (required on its own)
-- A world's part plugs into the map half by M.tilemap.wrap (a world's map:
-- its liveness and savepoint hooks) and by setting, on strata.ffi.base,
-- goal_cell (objects as distance-map goals), layout_generator (layout IDs)
-- and legend_entry (base.legend IDs); until then those are refused.
local base = require "strata.ffi.base"

local M = {
  version = base.ffi.string(base.lib.strata_version()),
  lib = base.lib, -- the C API itself, for what the Lua half does not wrap
}

for _, part in ipairs { "tilemap", "fov", "distmap", "rng", "layout", "xymap", "worldgen", "world" } do
  require("strata.ffi." .. part)(M)
end

return M
