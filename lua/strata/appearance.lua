-- strata.appearance: what is seen of a room (docs/grid.md, "A room's
-- appearance"): on the grid, the map around the room between two separator
-- lines, then the name, the description and the exits, laid out by the grid
-- map's options as the reference's rooms lay themselves out; builders also
-- see a grid room's coordinates. Everything is read from the core and the
-- view (world.grid:view) each call: nothing is kept.
local handle_of = require "strata.handle"
local markup = require "strata.markup"
local options = require "strata.options"
local owner = require("strata.private").owner

local M = { kinds = { room = { methods = {} } } }
local methods = M.kinds.room.methods

local function fail(fmt, ...) error(fmt:format(...), 0) end

-- The reference's defaults for a map's display options.
local DEFAULTS = {
  map_display = true, map_visual_range = 2, map_mode = "nodes", map_character_symbol = "|g@|n",
  map_align = "c", map_target_path_style = "|y{display_symbol}|n", map_fill_all = true,
  map_separator_char = "|x~|n",
}
local KINDS = {
  map_display = "boolean", map_visual_range = "number", map_mode = "string", map_character_symbol = "string",
  map_align = "string", map_target_path_style = "string", map_fill_all = "boolean", map_separator_char = "string",
}
local ALIGN = { l = true, c = true, r = true }
-- The widest appearance, and the longest separator with its markup: an
-- appearance's size is bounded by its width (docs/grid.md).
local WIDTH_MAX, SEPARATOR_MAX = 1000, 32

-- Plain text (a name, a description) as markup: its `|` shown as written.
local function escape(s) return (s:gsub("|", "||")) end

local function text_width(s)
  local n = 0
  for line in (markup.strip(s) .. "\n"):gmatch("([^\n]*)\n") do
    local l = utf8.len(line) or #line
    if l > n then n = l end
  end
  return n
end

-- "a", "a and b", "a, b and c" (the reference's list of exits).
local function listing(names)
  if #names < 2 then return names[1] or "" end
  return table.concat(names, ", ", 1, #names - 1) .. " and " .. names[#names]
end

-- room:display_name{ builder = } -> the name; for builders a grid room's
-- name with its coordinates: "The South Gate (3,4,village)".
function methods.display_name(r, opts)
  opts = options.check("room:display_name", opts, 2)
  handle_of.check_alive(r)
  if opts and opts.builder and r.z ~= nil then return ("%s (%d,%d,%s)"):format(r.name, r.x, r.y, tostring(r.z)) end
  return r.name
end

-- One display option: the call's, else the grid map's, else the default.
local function option_of(opts, mo, id, k)
  local v, where = opts[k], "room:appearance: " .. k
  if v == nil then v, where = mo[k], ("room:appearance: grid map '%s' option %s"):format(tostring(id), k) end
  if v == nil then return DEFAULTS[k] end
  if type(v) ~= KINDS[k] then fail("%s must be a %s, got %s", where, KINDS[k], tostring(v)) end
  if k == "map_align" and not ALIGN[v] then fail("%s must be 'l', 'c' or 'r', got '%s'", where, v) end
  -- A grid map's is checked when its mod adds it (mods/base): a call's here.
  if k == "map_separator_char" and (#v > SEPARATOR_MAX or utf8.len(markup.strip(v)) ~= 1) then
    fail("%s must be one character (with its markup, at most %d bytes), got %d bytes", where, SEPARATOR_MAX, #v)
  end
  return v
end

-- room:appearance{ width = 78, builder =, target = room, map_... = } -> markup
function methods.appearance(r, opts)
  opts = options.check("room:appearance", opts, 2)
  opts = opts or {}
  handle_of.check_alive(r)
  local w = owner[r]
  local width = opts.width == nil and 78 or opts.width
  if math.type(width) ~= "integer" or width < 1 or width > WIDTH_MAX then
    fail("room:appearance: width must be an integer from 1 to %d, got %s", WIDTH_MAX, tostring(width))
  end
  local names = {}
  for _, e in ipairs(r:exits()) do names[#names + 1] = escape(e.name) end
  local text = { "|c" .. escape(methods.display_name(r, { builder = opts.builder })) .. "|n" }
  if r.desc ~= "" then text[#text + 1] = escape(r.desc) end
  if #names > 0 then text[#text + 1] = "Exits: " .. listing(names) end
  text = table.concat(text, "\n")
  local id = r.grid_map
  if id == nil then return text end
  local mo = w._registry.by_id[id] and w._registry.by_id[id].options or {}
  local function opt(k) return option_of(opts, mo, id, k) end
  if not opt("map_display") then return text end
  local fill = opt("map_fill_all")
  -- builders: no dist, the whole map (world.grid:view)
  local view = w.grid:view(r, { dist = not opts.builder and opt("map_visual_range") or nil, mode = opt("map_mode"),
    character = opt("map_character_symbol"), target = opts.target, builder = opts.builder,
    target_path_style = opt("map_target_path_style"),
    max_size = fill and { width } or nil })
  -- The window centres on itself (the reference centres the whole map's width).
  local map_w = text_width(view)
  local shown = fill and width or math.max(map_w, text_width(text))
  local align = opt("map_align")
  local indent = (" "):rep(math.max(0, align == "r" and shown - map_w or align == "c" and (shown - map_w) // 2 or 0))
  local sep = opt("map_separator_char"):rep(shown)
  return ("%s\n%s%s\n%s\n%s"):format(sep, indent, view:gsub("\n", "\n" .. indent), sep, text)
end

return M
