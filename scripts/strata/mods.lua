-- strata.mods: finding mods, ordering them by their requirements, and running
-- each in its own sandboxed environment. Callbacks from mods run under an
-- instruction budget and a memory limit (M.call).
local data = require "strata.data"
local options = require "strata.options"

local M = {}

M.budget = 10000000      -- instructions per callback
M.memory_kb = 128 * 1024 -- memory growth per callback

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- ---- versions ----------------------------------------------------------------
local function parse_version(s)
  if type(s) ~= "string" then return nil end
  local a, b, c = s:match("^(%d+)%.?(%d*)%.?(%d*)$")
  if not a then return nil end
  return { tonumber(a), tonumber(b) or 0, tonumber(c) or 0 }
end

local function cmp(x, y)
  for i = 1, 3 do if x[i] ~= y[i] then return x[i] < y[i] and -1 or 1 end end
  return 0
end

-- "1.2.3" exact, "^1.2" same major and >=, ">=0.3", "*".
function M.satisfies(version, constraint)
  local v = parse_version(version)
  if not v then return false end
  if constraint == "*" then return true end
  local op, rest = constraint:match("^(%^?>?=?)(.*)$")
  local c = parse_version(rest)
  if not c then error("bad version constraint '" .. tostring(constraint) .. "'", 0) end
  if op == "" then return cmp(v, c) == 0 end
  if op == "^" then return v[1] == c[1] and cmp(v, c) >= 0 end
  if op == ">=" then return cmp(v, c) >= 0 end
  error("bad version constraint '" .. tostring(constraint) .. "'", 0)
end

-- ---- guarded calls --------------------------------------------------------------
-- Runs fn(...) in a coroutine with a count hook: past the instruction budget
-- or the memory limit it is stopped with an error naming the mod and the ID.
local current_hook -- the hook of the guarded call now running, for coroutines it makes

function M.call(what, fn, ...)
  local co = coroutine.create(fn)
  local start_kb = collectgarbage("count")
  local steps = 0
  local limit = M.budget // 1000
  local outer = current_hook
  local hook
  hook = function()
    steps = steps + 1
    if steps > limit then error(what .. ": stopped, instruction budget exceeded", 0) end
    if collectgarbage("count") - start_kb > M.memory_kb then
      collectgarbage()
      if collectgarbage("count") - start_kb > M.memory_kb then
        error(what .. ": stopped, memory limit exceeded", 0)
      end
    end
  end
  debug.sethook(co, hook, "", 1000)
  current_hook = hook
  local res = table.pack(coroutine.resume(co, ...))
  current_hook = outer
  if not res[1] then
    local err = res[2]
    if coroutine.status(co) == "dead" then coroutine.close(co) end
    collectgarbage()
    error(err, 0)
  end
  if coroutine.status(co) ~= "dead" then
    error(what .. ": callbacks may not yield", 0)
  end
  return table.unpack(res, 2, res.n)
end

-- ---- sandbox -------------------------------------------------------------------
local function deny(name)
  return function() error(name .. " is not available to mods (sandbox)", 2) end
end

local function safe_string()
  local s = {}
  for k, v in pairs(string) do s[k] = v end
  s.dump = deny("string.dump")
  local rep = string.rep
  s.rep = function(str, n, sep)
    if #str * n > 64 * 1024 * 1024 then error("string.rep: result too large for a mod", 2) end
    return rep(str, n, sep)
  end
  return s
end

local function copy(t) local c = {} for k, v in pairs(t) do c[k] = v end return c end

-- Coroutines made by a mod inherit the budget of the callback that made them.
local function guarded_coroutine()
  local c = copy(coroutine)
  c.create = function(f)
    local co = coroutine.create(f)
    if current_hook then debug.sethook(co, current_hook, "", 1000) end
    return co
  end
  c.wrap = function(f)
    local co = c.create(f)
    return function(...)
      local r = table.pack(coroutine.resume(co, ...))
      if not r[1] then error(r[2], 0) end
      return table.unpack(r, 2, r.n)
    end
  end
  return c
end

function M.environment(mod, api)
  local env = {
    assert = assert, error = error, ipairs = ipairs, next = next, pairs = pairs, pcall = pcall,
    select = select, tonumber = tonumber, tostring = tostring, type = type, xpcall = xpcall,
    rawequal = rawequal, rawget = rawget, rawset = rawset, rawlen = rawlen,
    -- Finalizers would run outside any guarded call, and the string metatable
    -- is shared by every mod: both stay out of reach.
    setmetatable = function(t, mt)
      if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
        error("setmetatable: __gc finalizers are not available to mods (sandbox)", 2)
      end
      return setmetatable(t, mt)
    end,
    getmetatable = function(v)
      if type(v) == "string" then return nil end
      return getmetatable(v)
    end,
    print = print,
    string = safe_string(), table = copy(table), math = copy(math), utf8 = copy(utf8),
    coroutine = guarded_coroutine(),
    os = { time = os.time, clock = os.clock, date = os.date, difftime = os.difftime,
           execute = deny("os.execute"), remove = deny("os.remove"), rename = deny("os.rename"),
           exit = deny("os.exit"), getenv = deny("os.getenv"), tmpname = deny("os.tmpname") },
    io = setmetatable({}, { __index = function(_, k) error("io." .. tostring(k) .. " is not available to mods (sandbox)", 2) end }),
    debug = setmetatable({}, { __index = function(_, k) error("debug." .. tostring(k) .. " is not available to mods (sandbox)", 2) end }),
    package = { loadlib = deny("package.loadlib") },
    dofile = deny("dofile"), loadfile = deny("loadfile"), collectgarbage = deny("collectgarbage"),
  }
  env._G = env
  env.load = function(chunk, name, mode, chunk_env)
    if mode ~= nil and mode ~= "t" then error("load: only text chunks are allowed to mods (sandbox)", 2) end
    if type(chunk) == "string" and chunk:byte(1) == 27 then
      error("load: bytecode is not allowed to mods (sandbox)", 2)
    end
    return load(chunk, name, "t", chunk_env or env)
  end
  local loaded = {}
  env.require = function(name)
    if name == "strata" then return api.strata end
    if type(name) ~= "string" or name:find("%.%.") or name:find("^/") then
      error("require: mods may require only their own files and 'strata', not '" .. tostring(name) .. "'", 2)
    end
    if loaded[name] ~= nil then return loaded[name] end
    local path = mod.dir .. "/" .. name:gsub("%.", "/") .. ".lua"
    local text = read_file(path)
    if not text then
      error("require: mod " .. mod.id .. " has no file '" .. name .. "' (mods may require only their own files and 'strata')", 2)
    end
    local chunk, err = load(text, "@" .. path, "t", env)
    if not chunk then error(err, 2) end
    local r = chunk(name)
    if r == nil then r = true end
    loaded[name] = r
    return r
  end
  env.data, env.events, env.mod, env.strata = api.data, api.events, api.mod, api.strata
  return env
end

-- ---- finding and ordering ---------------------------------------------------------
local function manifest(id, dirs)
  for _, dir in ipairs(dirs) do
    local path = dir .. "/" .. id .. "/mod.lua"
    local text = read_file(path)
    if text then
      local chunk, err = load(text, "@" .. path, "t", {})
      if not chunk then error("mod " .. id .. ": bad manifest: " .. err, 0) end
      local ok, m = pcall(M.call, "mod " .. id .. " manifest", chunk)
      if not ok then error("mod " .. id .. ": manifest failed: " .. tostring(m), 0) end
      if type(m) ~= "table" then error("mod " .. id .. ": mod.lua must return a table", 0) end
      if m.id ~= id then error(("mod %s: mod.lua says id = %s"):format(id, tostring(m.id)), 0) end
      if not parse_version(m.version) then error("mod " .. id .. ": version must look like 1.2.3", 0) end
      m.requires = m.requires or {}
      m.dir = dir .. "/" .. id
      return m
    end
  end
  return nil
end

-- Returns manifests in load order: requires first, ties by id.
function M.resolve(ids, dirs)
  local found, errors = {}, {}
  local queue = {}
  for _, id in ipairs(ids) do queue[#queue + 1] = id end
  local i = 1
  while i <= #queue do
    local id = queue[i]
    i = i + 1
    if not found[id] then
      local m = manifest(id, dirs)
      if not m then
        errors[#errors + 1] = "mod '" .. id .. "' not found in " .. table.concat(dirs, ", ")
        found[id] = false
      else
        found[id] = m
        for dep in pairs(m.requires) do queue[#queue + 1] = dep end
      end
    end
  end
  for id, m in pairs(found) do
    if m then
      for dep, constraint in pairs(m.requires) do
        local d = found[dep]
        if d and not M.satisfies(d.version, constraint) then
          errors[#errors + 1] = ("mod %s requires %s %s, found %s"):format(id, dep, constraint, d.version)
        elseif d == false then
          errors[#errors + 1] = ("mod %s requires missing mod %s"):format(id, dep)
        end
      end
    end
  end
  if #errors > 0 then table.sort(errors) error(table.concat(errors, "\n"), 0) end
  local order, done, remaining = {}, {}, {}
  for id, m in pairs(found) do remaining[#remaining + 1] = id; _ = m end
  while #order < #remaining do
    local ready = {}
    for _, id in ipairs(remaining) do
      if not done[id] then
        local ok = true
        for dep in pairs(found[id].requires) do ok = ok and done[dep] end
        if ok then ready[#ready + 1] = id end
      end
    end
    if #ready == 0 then
      local cyc = {}
      for _, id in ipairs(remaining) do if not done[id] then cyc[#cyc + 1] = id end end
      table.sort(cyc)
      error("mods require each other in a cycle: " .. table.concat(cyc, ", "), 0)
    end
    table.sort(ready)
    done[ready[1]] = true
    order[#order + 1] = found[ready[1]]
  end
  return order
end

-- Loads mods into a new registry: returns registry, list of manifests.
function M.load(ids, dirs, strata)
  local reg = data.new()
  local order = M.resolve(ids, dirs)
  for _, m in ipairs(order) do
    local function bind(fn) return function(_, ...) return fn(m.id, ...) end end
    local api = {
      strata = strata,
      data = { add_type = bind(function(...) return reg:add_type(...) end),
               add = bind(function(...) return reg:add(...) end),
               patch = bind(function(...) return reg:patch(...) end) },
      events = { register = bind(function(mod, ...) return M.register_event(reg, mod, ...) end) },
    }
    local env
    api.mod = { id = m.id, version = m.version, dir = m.dir,
      load = function(_, name) return env.require(name) end }
    env = M.environment(m, api)
    local path = m.dir .. "/init.lua"
    local text = read_file(path)
    if text then
      local chunk, err = load(text, "@" .. path, "t", env)
      if not chunk then error("mod " .. m.id .. ": " .. err, 0) end
      local ok, e = pcall(M.call, "mod " .. m.id .. " init.lua", chunk)
      if not ok then error("mod " .. m.id .. ": " .. tostring(e), 0) end
    end
  end
  local errors = reg:finish()
  if #errors > 0 then error("mods failed validation:\n  " .. table.concat(errors, "\n  "), 0) end
  reg:freeze()
  reg.load_args = { ids = ids, dirs = dirs, strata = strata }
  return reg, order
end

-- Reloading is two steps, so that several worlds can each check the new
-- definitions before any of them changes. prepare_reload re-runs the mods of
-- reg from their files into a fresh registry; check(fresh) returns a list of
-- errors (IDs still used by live state); any error leaves reg untouched.
function M.prepare_reload(reg, id, check)
  local a = reg.load_args
  local known = false
  for _, m in ipairs(M.resolve(a.ids, a.dirs)) do known = known or m.id == id end
  if not known then error("strata.reload: mod '" .. tostring(id) .. "' is not loaded", 0) end
  local ok, fresh = pcall(M.load, a.ids, a.dirs, a.strata)
  if not ok then error("strata.reload " .. id .. ": failed, nothing changed:\n  " .. tostring(fresh), 0) end
  local errors = check(fresh)
  if #errors > 0 then
    error("strata.reload " .. id .. ": failed, nothing changed:\n  " .. table.concat(errors, "\n  "), 0)
  end
  return fresh
end

-- Replaces reg's entries by fresh's in place: an entry that exists before and
-- after keeps its table (an ID may name one entry per type), so code holding
-- it sees the new fields.
function M.commit_reload(reg, fresh)
  for type_id, entries in pairs(fresh.by_type) do
    for full, e in pairs(entries) do
      local old = reg.by_type[type_id] and reg.by_type[type_id][full]
      if old then
        for k in pairs(old) do old[k] = nil end
        for k, v in pairs(e) do old[k] = v end
        entries[full] = old
        if fresh.by_id[full] == e then fresh.by_id[full] = old end
      end
    end
  end
  for _, k in ipairs{ "types", "by_type", "by_id", "patches", "handlers" } do reg[k] = fresh[k] end
  return reg
end

-- events:register(event, name, fn, { priority }): a name belongs to the mod
-- that registered it first; another mod using it is an error, not a silent
-- replacement (the same mod registering it again replaces its own handler).
function M.register_event(reg, mod, event, name, fn, opts)
  if type(event) ~= "string" then error("events:register: event must be an ID string", 3) end
  if type(name) ~= "string" then error("events:register: name must be a string", 3) end
  if type(fn) ~= "function" then error("events:register: fn must be a function", 3) end
  options.check("events:register", opts, 3)
  local priority = opts and opts.priority or 100
  if type(priority) ~= "number" or priority ~= priority then
    error("events:register: priority must be a number", 3)
  end
  reg.handlers = reg.handlers or {}
  local list = reg.handlers[event] or {}
  reg.handlers[event] = list
  for i = #list, 1, -1 do
    if list[i].name == name then
      if list[i].mod ~= mod then
        error(("events:register: handler '%s' of %s belongs to mod %s"):format(name, event, list[i].mod), 3)
      end
      table.remove(list, i)
    end
  end
  list[#list + 1] = { name = name, fn = fn, mod = mod, priority = priority }
end

return M
