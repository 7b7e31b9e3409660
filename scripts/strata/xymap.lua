-- strata.xymap: the C parser and views (strata.core.xymap), plus legends
-- taken from the data registry: a legend value that is a string is the ID of a
-- base.legend entry, and a list entry is an ID whose entry names its symbol.
local core = require "strata.core"

local M = setmetatable({}, { __index = core.xymap })

local function legend_entry(id, where)
  local reg = require("strata.world").registry()
  if not reg then
    error(("strata.xymap.parse: legend %s names '%s', but no mods are loaded (create a world first)")
      :format(where, id), 4)
  end
  local view = reg:view("base.legend")
  local ok, e = pcall(view.ensure, view, id)
  if not ok then error("strata.xymap.parse: legend " .. where .. ": " .. tostring(e), 4) end
  local t = {}
  for k, v in pairs(e) do
    if type(k) ~= "string" or (k:sub(1, 1) ~= "_" and k ~= "symbol") then t[k] = v end
  end
  return t, e.symbol
end

function M.parse(text, opts)
  if type(opts) == "table" and type(opts.legend) == "table" then
    local legend = {}
    for key, value in pairs(opts.legend) do
      if type(value) == "string" then
        local where = math.type(key) == "integer" and ("[" .. key .. "]") or ("'" .. tostring(key) .. "'")
        local entry, symbol = legend_entry(value, where)
        if math.type(key) == "integer" then
          if type(symbol) ~= "string" then
            error(("strata.xymap.parse: legend %s: base.legend '%s' has no symbol"):format(where, value), 2)
          end
          key = symbol
        elseif symbol ~= nil and symbol ~= key then
          error(("strata.xymap.parse: legend '%s' names base.legend '%s', whose symbol is '%s'")
            :format(key, value, symbol), 2)
        end
        legend[key] = entry
      else
        legend[key] = value
      end
    end
    local o = {}
    for k, v in pairs(opts) do o[k] = v end
    o.legend = legend
    opts = o
  end
  return core.xymap.parse(text, opts)
end

return M
