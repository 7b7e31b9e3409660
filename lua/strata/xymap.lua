-- strata.xymap: the C parser and views (strata.core.xymap), plus legends
-- taken from a world's data registry: a legend value that is a string is the
-- ID of a base.legend entry of that world (option `world`), and a list entry
-- is an ID whose entry names its symbol.
local core = require "strata.core"
local data = require "strata.data"

local M = setmetatable({}, { __index = core.xymap })

local function legend_entry(reg, id, where)
  if not reg then
    error(("legend %s names '%s': IDs are looked up in a world's registry, pass { world = w }")
      :format(where, id), 0)
  end
  local view = reg:view("base.legend")
  local e = view:get(id)
  if e == nil then error("legend " .. where .. ": " .. data.unknown(view, id), 0) end
  local t = {}
  for k, v in pairs(e) do
    if type(k) ~= "string" or (k:sub(1, 1) ~= "_" and k ~= "symbol") then t[k] = v end
  end
  return t, e.symbol
end

-- parse(text, { legend =, z =, world = }) through the C parser cparse, which
-- checks every other option.
local function parse(cparse, text, opts)
  require("strata.options").check("strata.xymap.parse", opts, 2)
  if type(opts) == "table" and (opts.world ~= nil or type(opts.legend) == "table") then
    local world = opts.world and require("strata.private").world_of(opts.world)
    if opts.world ~= nil and not world then
      error("option 'world' must be a world, got " .. tostring(world), 0)
    end
    local reg = world and world._registry
    local legend = opts.legend
    if type(legend) == "table" then
      legend = {}
      for key, value in pairs(opts.legend) do
        if type(value) == "string" then
          local where = math.type(key) == "integer" and ("[" .. key .. "]") or ("'" .. tostring(key) .. "'")
          local entry, symbol = legend_entry(reg, value, where)
          if math.type(key) == "integer" then
            if type(symbol) ~= "string" then
              error(("legend %s: base.legend '%s' has no symbol"):format(where, value), 0)
            end
            key = symbol
          elseif symbol ~= nil and symbol ~= key then
            error(("legend '%s' names base.legend '%s', whose symbol is '%s'")
              :format(key, value, symbol), 0)
          end
          legend[key] = entry
        else
          legend[key] = value
        end
      end
    end
    local o = {}
    for k, v in pairs(opts) do if k ~= "world" then o[k] = v end end
    o.legend = legend
    opts = o
  end
  return cparse(text, opts)
end
M.parse = require("strata.boundary").wrap("strata.xymap.parse",
  function(text, opts) return parse(core.xymap.parse, text, opts) end)
-- The parser whose errors name no function: a grid map's name the grid map instead.
function M._parse(text, opts) return parse(core.xymap._parse, text, opts) end

return M
