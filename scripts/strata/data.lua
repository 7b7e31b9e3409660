-- strata.data: the data registry. Types declare field schemas; entries are
-- checked against them when added; references between entries are checked
-- once every mod is loaded, all errors reported together.
local M = {}

local Registry = {}
Registry.__index = Registry

-- Edit distance, for "did you mean" suggestions.
local function distance(a, b)
  local prev, cur = {}, {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    cur[0] = i
    for j = 1, #b do
      local cost = a:byte(i) == b:byte(j) and 0 or 1
      cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
    end
    prev, cur = cur, prev
  end
  return prev[#b]
end

-- The (up to 3) known names closest to name, as a readable suffix.
function M.nearest(name, known)
  local scored = {}
  for _, k in ipairs(known) do
    local short = k:match("%.(.*)$") or k
    local d = math.min(distance(name, k), distance(name:match("%.(.*)$") or name, short))
    scored[#scored + 1] = { k = k, d = d }
  end
  table.sort(scored, function(x, y) if x.d ~= y.d then return x.d < y.d end return x.k < y.k end)
  local out = {}
  for i = 1, math.min(3, #scored) do out[i] = scored[i].k end
  return out
end

local function suggest(name, known)
  local near = M.nearest(name, known)
  if #near == 0 then return "" end
  return " (nearest known: " .. table.concat(near, ", ") .. ")"
end
M.suggest = suggest

function M.new()
  local reg = setmetatable({
    types = {},     -- full type id -> { fields = {...}, mod = }
    by_type = {},   -- full type id -> { [id] = entry }
    by_id = {},     -- full id -> entry (any type)
    patches = {},   -- list of { mod, type, id, name, fn }
    frozen = false,
  }, Registry)
  -- The one type that exists before any mod: types are entries too.
  reg.types["base.type"] = { fields = {}, mod = "base" }
  reg.by_type["base.type"] = {}
  return reg
end

local function sorted_keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

function Registry:type_names() return sorted_keys(self.types) end

local valid_types = { string = true, number = true, integer = true, boolean = true,
  table = true, ["function"] = true, any = true }

-- mod: the loading mod's id (from the loader, never from the call stack).
function Registry:add_type(mod, def)
  if self.frozen then error("data:add_type: definitions are frozen after loading", 3) end
  if type(def) ~= "table" then error("data:add_type: expected a table, got " .. type(def), 3) end
  if type(def._id) ~= "string" or def._id == "" then error("data:add_type: _id must be a non-empty string", 3) end
  local full = mod .. "." .. def._id
  local fields = def.fields or {}
  if type(fields) ~= "table" then error("data:add_type " .. full .. ": fields must be a table", 3) end
  for name, f in pairs(fields) do
    if type(f) ~= "table" then error("data:add_type " .. full .. ": field '" .. tostring(name) .. "' must be a table", 3) end
    local types = type(f.type) == "table" and f.type or { f.type }
    for _, t in ipairs(types) do
      if not valid_types[t] then
        error("data:add_type " .. full .. ": field '" .. name .. "' has unknown type '" .. tostring(t) .. "'", 3)
      end
    end
  end
  if self.types[full] and self.types[full].mod ~= mod then
    error("data:add_type: type " .. full .. " already declared by mod " .. self.types[full].mod, 3)
  end
  self.types[full] = { fields = fields, mod = mod, open = def.open ~= false }
  self.by_type[full] = self.by_type[full] or {}
  return full
end

local function type_ok(value, want)
  if want == nil or want == "any" then return true end
  if want == "integer" then return math.type(value) == "integer" end
  return type(value) == want
end

local function has_function(v, seen)
  if type(v) == "function" then return true end
  if type(v) ~= "table" or seen[v] then return false end
  seen[v] = true
  for k, x in pairs(v) do
    if has_function(k, seen) or has_function(x, seen) then return true end
  end
  return false
end

-- Checks entry against its schema; returns an error message or nil.
local function check_entry(typedef, full, entry)
  for name, f in pairs(typedef.fields) do
    local v = entry[name]
    if v == nil and f.default ~= nil then
      v = f.default
      if type(v) == "table" then
        local copy = {}
        for k, x in pairs(v) do copy[k] = x end
        v = copy
      end
      entry[name] = v
    end
    if v == nil then
      if f.required then return "field '" .. name .. "' is required" end
    else
      local types = type(f.type) == "table" and f.type or { f.type }
      if f.ref then types = { "string" } end
      local ok = false
      for _, t in ipairs(types) do ok = ok or type_ok(v, t) end
      if not ok then
        return "field '" .. name .. "' must be " .. table.concat(types, " or ") .. ", got " .. type(v)
      end
    end
  end
  for name, v in pairs(entry) do
    if type(name) == "string" and name:sub(1, 1) == "_" then goto continue end
    local f = typedef.fields[name]
    local allows_fn = false
    if f then
      local types = type(f.type) == "table" and f.type or { f.type }
      for _, t in ipairs(types) do allows_fn = allows_fn or t == "function" end
      allows_fn = allows_fn or f.functions == true -- a table of callbacks, e.g. `events`
    elseif not typedef.open then
      return "unknown field '" .. tostring(name) .. "'"
    end
    if not allows_fn and has_function(v, {}) then
      return "field '" .. tostring(name) .. "' holds a function, but its type does not declare one"
    end
    ::continue::
  end
  return nil
end

function Registry:ensure_type(type_id, level)
  local t = self.types[type_id]
  if not t then
    error("unknown type '" .. tostring(type_id) .. "'" .. suggest(tostring(type_id), self:type_names()), level or 2)
  end
  return t
end

function Registry:add(mod, entry)
  if self.frozen then error("data:add: definitions are frozen after loading", 3) end
  if type(entry) ~= "table" then error("data:add: expected a table, got " .. type(entry), 3) end
  local type_id = entry._type
  if type(type_id) ~= "string" then error("data:add: _type must be a string", 3) end
  local typedef = self:ensure_type(type_id, 4)
  if type(entry._id) ~= "string" or entry._id == "" or entry._id:find("%.") then
    error("data:add " .. type_id .. ": _id must be a non-empty string without dots (the mod prefix is added)", 3)
  end
  local full = mod .. "." .. entry._id
  local e = {}
  for k, v in pairs(entry) do e[k] = v end
  e._id, e._mod, e._type = full, mod, type_id
  local msg = check_entry(typedef, full, e)
  if msg then error("data:add " .. type_id .. " " .. full .. ": " .. msg, 3) end
  local existing = self.by_id[full]
  if existing and existing._mod ~= mod then
    error("data:add: " .. full .. " already added", 3)
  end
  self.by_type[type_id][full] = e
  self.by_id[full] = e
  return full
end

function Registry:patch(mod, type_id, id, name, fn)
  if type(name) ~= "string" or type(fn) ~= "function" then
    error("data:patch(type, id, name, fn): name must be a string and fn a function", 3)
  end
  self:ensure_type(type_id, 4)
  for _, p in ipairs(self.patches) do
    if p.mod == mod and p.name == name and p.id == id then p.fn = fn return end
  end
  self.patches[#self.patches + 1] = { mod = mod, type = type_id, id = id, name = name, fn = fn }
end

-- After all mods ran: apply patches, check references. Returns a list of errors.
function Registry:finish()
  local errors = {}
  for _, p in ipairs(self.patches) do
    local e = self.by_type[p.type][p.id]
    if not e then
      errors[#errors + 1] = ("patch '%s' of mod %s: no %s '%s'%s"):format(p.name, p.mod, p.type,
        p.id, suggest(p.id, sorted_keys(self.by_type[p.type])))
    else
      local ok, err = pcall(p.fn, e)
      if not ok then errors[#errors + 1] = ("patch '%s' of mod %s: %s"):format(p.name, p.mod, tostring(err)) end
    end
  end
  for _, type_id in ipairs(sorted_keys(self.by_type)) do
    local fields = self.types[type_id].fields
    for _, id in ipairs(sorted_keys(self.by_type[type_id])) do
      local e = self.by_type[type_id][id]
      for _, fname in ipairs(sorted_keys(fields)) do
        local ref, v = fields[fname].ref, e[fname]
        if ref and v ~= nil then
          local target = self.by_type[ref]
          if not target or not target[v] then
            errors[#errors + 1] = ("%s %s: field '%s' refers to unknown %s '%s'%s"):format(type_id, id,
              fname, ref, tostring(v), suggest(tostring(v), target and sorted_keys(target) or {}))
          end
        end
      end
    end
  end
  return errors
end

function Registry:freeze() self.frozen = true end

function Registry:ids(type_id) return sorted_keys(self.by_type[type_id] or {}) end

-- The view strata.data[type] gives: get / ensure / iter.
local View = {}
View.__index = View

function View:get(id) return self._reg.by_type[self._type][id] end

function View:ensure(id)
  local e = self._reg.by_type[self._type][id]
  if e == nil then
    error(("unknown %s '%s'%s"):format(self._type, tostring(id),
      suggest(tostring(id), self._reg:ids(self._type))), 2)
  end
  return e
end

function View:iter()
  local list = {}
  for _, e in pairs(self._reg.by_type[self._type]) do list[#list + 1] = e end
  table.sort(list, function(a, b)
    local oa, ob = a._ordering or 0, b._ordering or 0
    if oa ~= ob then return oa < ob end
    return a._id < b._id
  end)
  local i = 0
  return function() i = i + 1 local e = list[i] if e then return e._id, e end end
end

function Registry:view(type_id)
  self:ensure_type(type_id, 3)
  return setmetatable({ _reg = self, _type = type_id }, View)
end

-- strata.data[type] over a registry (the one of the most recent world).
function M.views(reg_of)
  return setmetatable({}, { __index = function(_, type_id)
    local reg = reg_of()
    if not reg then error("strata.data: no mods loaded yet (create or open a world first)", 2) end
    return reg:view(type_id)
  end })
end

return M
