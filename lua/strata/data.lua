-- strata.data: the data registry. Types declare field schemas; entries are
-- checked against them when added; references between entries are checked
-- once every mod is loaded, all errors reported together.
local M = {}

local Registry = {}
Registry.__index = Registry

local boundary = require "strata.boundary"
local options = require "strata.options"
local private = require "strata.private"
local border = require("strata.core").world_state.border

M.nearest = options.nearest
local suggest = options.suggest
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

-- What a field's schema may say. `fields` describes a table field's own keys
-- (checked like an entry's: unknown keys are errors unless `open`), `items`
-- the schema of every element of a list field.
local field_keys = { type = true, ref = true, required = true, default = true,
  functions = true, fields = true, items = true, open = true }
local field_key_list = { "default", "fields", "functions", "items", "open", "ref", "required", "type" }

local function check_schema(full, fields, where)
  if type(fields) ~= "table" then error("data:add_type " .. full .. ": " .. where .. " must be a table", boundary.level(3)) end
  for name, f in pairs(fields) do
    local at = where == "fields" and ("field '" .. tostring(name) .. "'") or (where .. "." .. tostring(name))
    if type(f) ~= "table" then error("data:add_type " .. full .. ": " .. at .. " must be a table", boundary.level(3)) end
    for k in pairs(f) do
      if not field_keys[k] then
        error(("data:add_type %s: %s: unknown schema key '%s'%s"):format(full, at, tostring(k),
          suggest(tostring(k), field_key_list)), boundary.level(3))
      end
    end
    local types = type(f.type) == "table" and f.type or { f.type }
    for _, t in ipairs(types) do
      if not valid_types[t] then
        error("data:add_type " .. full .. ": " .. at .. " has unknown type '" .. tostring(t) .. "'", boundary.level(3))
      end
    end
    if f.fields ~= nil then check_schema(full, f.fields, at .. " fields") end
    if f.items ~= nil then check_schema(full, { ["[]"] = f.items }, at .. " items") end
  end
end

-- mod: the loading mod's id (from the loader, never from the call stack).
function Registry:add_type(mod, def)
  if self.frozen then error("data:add_type: definitions are frozen after loading", 2) end
  if type(def) ~= "table" then error("data:add_type: expected a table, got " .. type(def), 2) end
  if type(def._id) ~= "string" or def._id == "" then error("data:add_type: _id must be a non-empty string", 2) end
  local full = mod .. "." .. def._id
  for k in pairs(def) do
    if k ~= "_id" and k ~= "fields" and k ~= "open" and k ~= "check" then
      error(("data:add_type %s: unknown key '%s'%s"):format(full, tostring(k),
        suggest(tostring(k), { "_id", "fields", "open", "check" })), 2)
    end
  end
  if def.check ~= nil and type(def.check) ~= "function" then
    error("data:add_type " .. full .. ": check must be a function(entry, ids) -> message | nil", 2)
  end
  -- the schema the registry reads later is its own copy: a metatable the mod
  -- gives its table afterwards reaches nothing
  local ok_copy, fields = pcall(border, "data:add_type " .. full, "fields", "f", def.fields or {})
  if not ok_copy then error(fields, 2) end
  check_schema(full, fields, "fields")
  if self.types[full] and self.types[full].mod ~= mod then
    error("data:add_type: type " .. full .. " already declared by mod " .. self.types[full].mod, 2)
  end
  -- Closed unless the type says otherwise: a misspelt field is an error, not a silent extra.
  -- check(entry, ids) -> message | nil: what a schema cannot say (grid maps' prototype keys, ...).
  self.types[full] = { fields = fields, mod = mod, open = def.open == true, check = def.check }
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

local function sorted_names(fields)
  local out = {}
  for k in pairs(fields) do out[#out + 1] = tostring(k) end
  table.sort(out)
  return out
end

local function allows_function(f)
  if f.functions == true then return true end -- a table of callbacks, e.g. `events`
  local types = type(f.type) == "table" and f.type or { f.type }
  for _, t in ipairs(types) do if t == "function" or t == "any" and f.functions then return true end end
  return false
end

local check_fields

-- How an error names the value at path: "field 'renew'" at the top of an
-- entry, "key 'renew.restock_every'" inside one of its tables.
local function name_of(path)
  if path:find("[.[]") then return "key '" .. path .. "'" end
  return "field '" .. path .. "'"
end

-- Checks one value against its field schema f; path is its key path
-- ("renew", "renew.restock_every"). Returns an error message or nil.
local function check_value(f, v, path)
  local at = name_of(path)
  local types = type(f.type) == "table" and f.type or { f.type }
  if f.ref then types = { "string" } end
  local ok = false
  for _, t in ipairs(types) do ok = ok or type_ok(v, t) end
  if not ok then
    return at .. " must be " .. table.concat(types, " or ") .. ", got " .. type(v)
  end
  if not allows_function(f) and has_function(v, {}) then
    return at .. " holds a function, but its type does not declare one"
  end
  if type(v) == "table" and f.fields then
    local msg = check_fields(f.fields, f.open, v, path)
    if msg then return msg end
  end
  if type(v) == "table" and f.items then
    for i, x in ipairs(v) do
      local msg = check_value(f.items, x, path .. "[" .. i .. "]")
      if msg then return msg end
    end
  end
  return nil
end

-- Checks the keys of t against fields (defaults filled in); unknown keys are
-- errors unless open. Keys starting with "_" are the registry's own.
function check_fields(fields, open, t, where)
  local prefix = where and (where .. ".") or ""
  for name, f in pairs(fields) do
    local v = t[name]
    if v == nil and f.default ~= nil then
      v = f.default
      if type(v) == "table" then
        local copy = {}
        for k, x in pairs(v) do copy[k] = x end
        v = copy
      end
      t[name] = v
    end
    local path = prefix .. tostring(name)
    if v == nil then
      if f.required then return name_of(path) .. " is required" end
    else
      local msg = check_value(f, v, path)
      if msg then return msg end
    end
  end
  for name, v in pairs(t) do
    if not (type(name) == "string" and name:sub(1, 1) == "_") and fields[name] == nil then
      if not open then
        return "unknown " .. name_of(prefix .. tostring(name)) .. suggest(tostring(name), sorted_names(fields))
      end
      if has_function(v, {}) then
        return name_of(prefix .. tostring(name)) .. " holds a function, but its type does not declare one"
      end
    end
  end
  return nil
end

-- Entries as the registry keeps them: plain data (copied, so the mod that
-- added an entry keeps no handle on the tables in it), functions, and
-- strata's own values (layout nodes, tile maps, ...). A table with any other
-- metatable is refused: the host reads entries outside any guarded call, and
-- a mod's __index or __pairs would run there. The copy is the border's
-- (core.world_state.border): raw reads, depth and size bounded.
local function plain_copy(v, where) return border(where, "", "fm", v) end
M.plain_copy = plain_copy

-- Checks entry against its schema; returns an error message or nil.
local function check_entry(typedef, _, entry)
  return check_fields(typedef.fields, typedef.open, entry, nil)
end

function Registry:ensure_type(type_id, level)
  local t = self.types[type_id]
  if not t then
    error("unknown type '" .. tostring(type_id) .. "'" .. suggest(tostring(type_id), self:type_names()),
      boundary.level(level or 2))
  end
  return t
end

-- The message of what is wrong with entry (plain data, its own copy) as an
-- entry of typedef, or nil (nil, error when the check itself raised); closed: unknown keys are errors even in an open
-- type. check(entry, ids): ids(type) lists the IDs of that type added so far
-- (sorted), for what must come before the entry (a unique area's parent).
-- It is the type's mod's code: a guarded call (self.call, strata.mods.call)
-- on a copy of the entry, its message copied back.
function Registry:check_as(typedef, e, where, closed)
  local msg = check_fields(typedef.fields, typedef.open and not closed, e, nil)
  if not msg and typedef.check then
    local call = self.call or function(_, fn, ...) return fn(...) end
    local ok, m = pcall(call, where .. ": check", typedef.check, plain_copy(e, where),
      function(t) return self:ids(t) end)
    if not ok then return nil, m end -- the check itself failed: the caller raises it
    if m ~= nil and type(m) ~= "string" then m = "check returned a " .. type(m) .. ", not a message or nil" end
    msg = m
  end
  return msg
end

function Registry:add(mod, entry)
  if self.frozen then error("data:add: definitions are frozen after loading", 2) end
  if type(entry) ~= "table" then error("data:add: expected a table, got " .. type(entry), 2) end
  local type_id = entry._type
  if type(type_id) ~= "string" then error("data:add: _type must be a string", 2) end
  local typedef = self:ensure_type(type_id, 3)
  if type(entry._id) ~= "string" or entry._id == "" or entry._id:find("%.") then
    error("data:add " .. type_id .. ": _id must be a non-empty string without dots (the mod prefix is added)", 2)
  end
  local full = mod .. "." .. entry._id
  local ok_copy, e = pcall(plain_copy, entry, "data:add " .. type_id .. " " .. full)
  if not ok_copy then error(e, 2) end
  e._id, e._mod, e._type = full, mod, type_id
  local msg, failed = self:check_as(typedef, e, "data:add " .. type_id .. " " .. full)
  if failed then error(failed, 2) end
  if msg then error("data:add " .. type_id .. " " .. full .. ": " .. msg, 2) end
  local existing = self.by_id[full]
  if existing and existing._mod ~= mod then
    error("data:add: " .. full .. " already added", 2)
  end
  self.by_type[type_id][full] = e
  self.by_id[full] = e
  return full
end

function Registry:patch(mod, type_id, id, name, fn)
  if type(name) ~= "string" or type(fn) ~= "function" then
    error("data:patch(type, id, name, fn): name must be a string and fn a function", 2)
  end
  self:ensure_type(type_id, 3)
  for _, p in ipairs(self.patches) do
    if p.mod == mod and p.name == name and p.id == id then p.fn = fn return end
  end
  self.patches[#self.patches + 1] = { mod = mod, type = type_id, id = id, name = name, fn = fn }
end

-- After all mods ran: apply patches, check references. Returns a list of errors.
-- call(what, fn, ...) runs each patch function: strata.mods.call, so that a
-- patch runs under its mod's budget like any other mod code.
local function plain_call(_, fn, ...) return fn(...) end

function Registry:finish(call)
  call = call or plain_call
  local errors = {}
  for _, p in ipairs(self.patches) do
    local e = self.by_type[p.type][p.id]
    if not e then
      errors[#errors + 1] = ("patch '%s' of mod %s: no %s '%s'%s"):format(p.name, p.mod, p.type,
        p.id, suggest(p.id, sorted_keys(self.by_type[p.type])))
    else
      -- The patch changes a copy, and the registry keeps a copy of what it
      -- made: a patch that keeps the entry it was handed holds nothing of the registry.
      local what = ("patch '%s' of mod %s"):format(p.name, p.mod)
      local ok, res = pcall(call, what, function(entry) p.fn(entry) return entry end, plain_copy(e, what))
      -- (a call without the border: the host's own, copied here)
      if ok and call == plain_call then ok, res = pcall(plain_copy, res, what) end
      -- what the patch made is an entry like any other: checked against its type again
      local msg = not ok and tostring(res) or check_entry(self.types[p.type], p.id, res)
      if msg then
        if msg:sub(1, #what) ~= what then msg = what .. ": " .. msg end
        errors[#errors + 1] = msg
      else
        self.by_type[p.type][p.id] = res
        if self.by_id[p.id] == e then self.by_id[p.id] = res end
      end
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

-- Patches ran on copies of the entries: copied again, each entry replaced by
-- its copy (never refilled in place: a table a patch or check kept is not
-- the registry's), so that nothing mod code handed in stays reachable from it.
function Registry:freeze()
  local errors = {}
  for type_id, entries in pairs(self.by_type) do
    for id, e in pairs(entries) do
      local ok, c = pcall(plain_copy, e, type_id .. " " .. id)
      if ok then
        entries[id] = c
        if self.by_id[id] == e then self.by_id[id] = c end
      else
        errors[#errors + 1] = c
      end
    end
  end
  self.frozen = true
  return errors
end

function Registry:ids(type_id) return sorted_keys(self.by_type[type_id] or {}) end
-- Every entry's ID, of any type (sorted).
function Registry:all_ids() return sorted_keys(self.by_id) end

-- An ID may name entries of several types (a unique area, its area archetype and
-- its map archetype are often all "mod.vernis"): an object's archetype is looked
-- up among the archetypes of its kind, where its kind has a type for them.
local archetype_types = { map = "base.map_archetype", area = "base.area_archetype",
  actor = "base.actor_archetype" }
function M.archetype_type(kind) return archetype_types[kind] end

-- The archetype `id` of an object of `kind`, or nil.
function Registry:archetype(kind, id)
  local t = archetype_types[kind]
  if t then return self.by_type[t] and self.by_type[t][id] end
  return self.by_id[id]
end

-- The view world.data[type] gives: get / ensure / iter. A view holds no
-- fields: its registry and type are in a side table (mod code given a view
-- cannot reach the registry through it).
local View = {}
local view_of = setmetatable({}, { __mode = "k" }) -- view -> { reg =, type =, wrap = }
View.__index = View
View.__newindex = function(v) error("world.data[\"" .. view_of[v].type .. "\"] is read-only: mods add entries with data:add", 2) end
private.protect(View, "strata.data_view")

local function entries(v) local d = view_of[v] return d.reg.by_type[d.type], d.wrap end

function View:get(id)
  local t, wrap = entries(self)
  return wrap(t[id])
end

-- "unknown <type> 'id' (nearest known: ...)", for a view's missing id.
function M.unknown(view, id)
  local d = view_of[view]
  return ("unknown %s '%s'%s"):format(d.type, tostring(id), suggest(tostring(id), d.reg:ids(d.type)))
end

function View:ensure(id)
  local t, wrap = entries(self)
  local e = t[id]
  if e == nil then error(M.unknown(self, id), boundary.level(2)) end
  return wrap(e)
end

function View:iter()
  local t, wrap = entries(self)
  local list = {}
  for _, e in pairs(t) do list[#list + 1] = e end
  table.sort(list, function(a, b)
    local oa, ob = a._ordering or 0, b._ordering or 0
    if oa ~= ob then return oa < ob end
    return a._id < b._id
  end)
  local i = 0
  return function() i = i + 1 local e = list[i] if e then return e._id, wrap(e) end end
end

local function same(e) return e end

-- Plain views (no wrap) are made once per registry and type: the runtime asks
-- for one at every emit, and a view reads the registry live anyway.
local plain_views = setmetatable({}, { __mode = "k" }) -- registry -> { [type] = view }
function Registry:view(type_id, wrap)
  self:ensure_type(type_id, 3)
  local cache = wrap == nil and plain_views[self]
  if cache and cache[type_id] then return cache[type_id] end
  local v = setmetatable({}, View)
  view_of[v] = { reg = self, type = type_id, wrap = wrap or same }
  if wrap == nil then
    if not cache then cache = {} plain_views[self] = cache end
    cache[type_id] = v
  end
  return v
end

-- Entries as mod code sees them: read-only (a mod cannot change another
-- mod's definitions, or its handler functions, after loading), nested
-- tables too. Functions are given as they are.
local ReadOnly = {}
local ro_target = setmetatable({}, { __mode = "k" })
local ro_cache = setmetatable({}, { __mode = "k" })
local function read_only(t)
  if type(t) ~= "table" then return t end
  local r = ro_cache[t]
  if r then return r end
  r = setmetatable({}, ReadOnly)
  ro_target[r] = t
  ro_cache[t] = r
  return r
end
M.read_only = read_only
ReadOnly.__index = function(r, k) return read_only(ro_target[r][k]) end
ReadOnly.__newindex = function(r, k)
  local t = ro_target[r]
  error(("definitions are read-only once loaded (%s, key '%s')"):format(tostring(t._id or "entry"), tostring(k)), 2)
end
ReadOnly.__len = function(r) return #ro_target[r] end
ReadOnly.__pairs = function(r)
  local t = ro_target[r]
  local k
  return function()
    local v
    k, v = next(t, k)
    if k == nil then return nil end
    return k, read_only(v)
  end, r, nil
end
private.protect(ReadOnly, "strata.definition")

-- world.data: the views of one world's registry, world.data[type] -> get / ensure / iter.
-- With for_mods, the entries they give are read-only.
function M.views(reg, for_mods)
  local wrap = for_mods and read_only or nil
  return setmetatable({}, private.protect({
    __index = function(_, type_id) return reg:view(type_id, wrap) end,
    __newindex = function() error("world.data is read-only: mods add entries with data:add", 2) end,
  }, "strata.data"))
end

return M
