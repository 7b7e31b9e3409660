-- strata.json_out: plain Lua data as one JSON text (RFC 8259), for the
-- commands' --json. An encoder only, in a file of its own so that it can be
-- swapped for the core's JSON writer. Deterministic: an object's keys are
-- sorted; integers stay integers and floats stay floats (%.17g, read back to
-- the same double). A table whose keys are 1..n is an array, an empty one
-- too unless made with json_out.object(); anything else must have string keys.
local M = {}

local OBJECT = {}

-- t (default a new table), marked to be written as an object even when empty.
function M.object(t) return setmetatable(t or {}, OBJECT) end

local ESCAPES = { ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f", ["\n"] = "\\n",
  ["\r"] = "\\r", ["\t"] = "\\t" }

local function fail(where, what) error(("json: %s at %s"):format(what, where), 0) end

local function string_of(s, where)
  -- JSON text is UTF-8: a string that is not cannot be written as it is
  if not utf8.len(s) then fail(where, "a string that is not UTF-8") end
  return '"' .. s:gsub('[%c"\\]', function(c) return ESCAPES[c] or ("\\u%04x"):format(c:byte()) end) .. '"'
end

local function number_of(n, where)
  if math.type(n) == "integer" then return ("%d"):format(n) end
  if n ~= n or n == math.huge or n == -math.huge then fail(where, "a number JSON cannot hold (" .. tostring(n) .. ")") end
  local s = ("%.17g"):format(n)
  if not s:find("[.eE]") then s = s .. ".0" end -- still a float when read back
  return s
end

local encode

local function table_of(t, where, open, out)
  if open[t] then fail(where, "a table inside itself") end
  open[t] = true
  local keys, n = {}, #t
  for k in next, t do
    if math.type(k) ~= "integer" or k < 1 or k > n then
      if type(k) ~= "string" then fail(where, "a key that is not a string (" .. tostring(k) .. ")") end
      keys[#keys + 1] = k
    end
  end
  if #keys == 0 and (n > 0 or getmetatable(t) ~= OBJECT) then
    out[#out + 1] = "["
    for i = 1, n do
      if i > 1 then out[#out + 1] = "," end
      encode(t[i], where .. "[" .. i .. "]", open, out)
    end
    out[#out + 1] = "]"
  else
    if n > 0 then fail(where, "a table with both a list and keys") end
    table.sort(keys)
    out[#out + 1] = "{"
    for i, k in ipairs(keys) do
      if i > 1 then out[#out + 1] = "," end
      out[#out + 1] = string_of(k, where)
      out[#out + 1] = ":"
      encode(t[k], where .. "." .. k, open, out)
    end
    out[#out + 1] = "}"
  end
  open[t] = nil
end

encode = function(v, where, open, out)
  local kind = type(v)
  if kind == "string" then out[#out + 1] = string_of(v, where)
  elseif kind == "number" then out[#out + 1] = number_of(v, where)
  elseif kind == "boolean" then out[#out + 1] = tostring(v)
  elseif kind == "table" then table_of(v, where, open, out)
  else fail(where, "a " .. kind .. " (plain data only)") end
end

-- The JSON text of v (strings, numbers, booleans, tables of them), without a
-- newline; an error "json: what at $.key[1]" for anything else.
function M.encode(v)
  local out = {}
  encode(v, "$", {}, out)
  return table.concat(out)
end

return M
