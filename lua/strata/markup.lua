-- strata.markup: the colour markup of map views and messages (Evennia's
-- convention): |r |g |y |b |m |c |w bright red, green, yellow, blue, magenta,
-- cyan, white; |x dark grey; capitals (|R |G ...) the normal shades, |X black;
-- |n back to normal; || a literal |. Anything else after | is left as written.
local M = {}

local CODES = {
  r = "1;31", g = "1;32", y = "1;33", b = "1;34", m = "1;35", c = "1;36", w = "1;37", x = "1;30",
  R = "0;31", G = "0;32", Y = "0;33", B = "0;34", M = "0;35", C = "0;36", W = "0;37", X = "0;30",
  n = "0",
}

-- Colour is used on a terminal (fd 2: standard error; else standard output), never
-- when NO_COLOR is set to something (https://no-color.org: an empty NO_COLOR
-- is as good as none).
function M.color_wanted(fd)
  local no = os.getenv("NO_COLOR")
  if no ~= nil and no ~= "" then return false end
  local ok, uv = pcall(require, "luv")
  return ok and uv.guess_handle(fd == 2 and 2 or 1) == "tty"
end

--- Renders markup as ANSI escapes (color = true) or plain text (color = false);
--- color = nil decides by the terminal and NO_COLOR.
local function check_text(fn, text)
  if type(text) ~= "string" then error(fn .. ": expected the text (a string), got " .. type(text), 3) end
end

function M.render(text, opts)
  check_text("strata.markup.render", text)
  require("strata.options").check("strata.markup.render", opts, 2)
  local color = opts and opts.color
  if color == nil then color = M.color_wanted() end
  local open = false -- a colour is on and must not leak past the end
  local out = text:gsub("|(.)", function(c)
    if c == "|" then return "|" end
    local code = CODES[c]
    if not code then return nil end
    if not color then return "" end
    open = code ~= "0"
    return "\27[" .. code .. "m"
  end)
  if open then out = out .. "\27[0m" end
  return out
end

--- The text with all markup removed (|| becomes |).
function M.strip(text)
  check_text("strata.markup.strip", text)
  return M.render(text, { color = false })
end

return M
