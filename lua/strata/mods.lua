-- strata.mods: finding mods, ordering them by their requirements, and running
-- each in its own sandboxed environment. Every mod is treated as hostile: it
-- gets capabilities (its own files through mod:read/mod:load, a strata
-- without paths or worlds, a world view without save), never the host's
-- objects, and its callbacks run as guarded calls under one CPU budget and
-- one memory limit (M.call). This table is the host's: mods never see it.
-- docs/sandbox.md lists the guarantees.
local data = require "strata.data"
local options = require "strata.options"

local M = {}
local frozen

M.budget_ms = 500        -- CPU time per callback the host starts (nested calls share it)
M.memory_kb = 128 * 1024 -- memory growth per callback

local core_paths = require("strata.core").paths
local paths = require "strata.paths"

-- A file of a mod: read only when it is a regular file inside the mod's
-- folder (a link out of it, a FIFO or a device is refused), of at most
-- strata.paths.READ_MAX bytes (read as layouts are: never more than that and
-- a byte); nil, why otherwise, and true when the file is there but could not
-- be read whole (why then names it: "cannot read '<path>': ...").
local function read_file(path, dir)
  if dir then
    local real, why = core_paths.file_in(dir, path)
    if not real then return nil, why end
    path = real
  end
  local text, why = paths.read(path)
  if not text then return nil, why, true end
  return text
end

-- The error of a mod's file that is missing or unreadable: "<what>: mod <id>
-- has no file '<name>' (<why>[; hint])", or "<what>: mod <id>: <why>" when
-- the file is there but could not be read whole.
local function file_error(what, id, name, why, there, hint)
  if there then return ("%s: mod %s: %s"):format(what, id, why) end
  return ("%s: mod %s has no file '%s' (%s%s)"):format(what, id, name, tostring(why), hint and "; " .. hint or "")
end

-- ---- versions ----------------------------------------------------------------
-- Versions, constraints and IDs come from mods: their lengths are checked
-- before any pattern runs on them (a pattern that backtracks is cubic in
-- them), and errors quote them cut.
local MAX_ID, MAX_VERSION = 64, 32

local function parse_version(s)
  if type(s) ~= "string" or #s > MAX_VERSION then return nil end
  local a, b, c = s:match("^(%d+)%.?(%d*)%.?(%d*)$")
  if not a then return nil end
  return { tonumber(a), tonumber(b) or 0, tonumber(c) or 0 }
end

local function cmp(x, y)
  for i = 1, 3 do if x[i] ~= y[i] then return x[i] < y[i] and -1 or 1 end end
  return 0
end

-- A value of a mod's quoted in an error, cut and its control characters escaped.
local quoted = options.quoted

-- "1.2.3" exact, "^1.2" same major and >=, ">=0.3", "*": its operator and
-- version, nil when it is none of these.
local function parse_constraint(c)
  if c == "*" then return "*" end
  if type(c) ~= "string" or #c > MAX_VERSION + 2 then return nil end
  local op, rest = c:match("^(%^?>?=?)(.*)$")
  local v = parse_version(rest)
  if not v or (op ~= "" and op ~= "^" and op ~= ">=") then return nil end
  return op, v
end

function M.satisfies(version, constraint)
  local v = parse_version(version)
  if not v then return false end
  local op, c = parse_constraint(constraint)
  if not op then error("bad version constraint " .. quoted(constraint), 0) end
  if op == "*" then return true end
  if op == "" then return cmp(v, c) == 0 end
  if op == "^" then return v[1] == c[1] and cmp(v, c) >= 0 end
  return cmp(v, c) >= 0
end

-- A mod ID: letters, digits and _, not starting with a digit, at most 64
-- bytes, and not "world" (the prefix of the entries a world keeps itself:
-- world.grid:add_prototype's). Checked before any path is built from it: an
-- ID is a folder's name.
function M.valid_id(id)
  return type(id) == "string" and #id <= MAX_ID and id:find("^[%a_][%w_]*$") ~= nil and id ~= "world"
end
local ID_RULE = " (an ID is letters, digits and _, not starting with a digit, at most 64 bytes, not \"world\")"

-- The chunk name of a mod's file: error positions say "<mod id>/<file>:line",
-- never where the mod is installed (a user's name, a host's layout).
function M.chunk_name(id, file) return "@" .. id .. "/" .. file end

-- ---- guarded calls --------------------------------------------------------------
-- M.call runs fn(...) as one guarded call (bindings/lua/guard.c): a
-- coroutine under a CPU timer (no hook until the budget is spent), with Lua's
-- and strata's C allocations counted. The budget belongs to the callback the
-- host started: nested calls (an event a handler emits) share it; once it is
-- spent a count hook makes every instruction raise again, so a pcall in mod
-- code cannot catch its way past it. These settings are the host's: mod code
-- never sees this table.
local core = require "strata.core"
local private = require "strata.private"
local guard = core.guard

-- An error value crossing out of mod code, as a string, without running any
-- of its metamethods (a __tostring that loops would run in the host).
local MAX_MESSAGE = 4000
local function message(what, err)
  local t = type(err)
  if t == "string" then
    if #err > MAX_MESSAGE then err = err:sub(1, MAX_MESSAGE) .. "... (message cut)" end
    return err
  end
  if t == "number" or t == "boolean" or t == "nil" then return tostring(err) end
  return what .. ": raised a " .. t .. " value (error values crossing out of a mod become this message)"
end
M.message = message

local function finish(what, status, exhausted, refused, ...)
  -- A callback that spent its budget has failed, even if it caught the error
  -- and returned (return pcall(f) leaves no instruction for the hook to stop).
  if status == "ok" and not exhausted then return ... end
  local err = ...
  if exhausted then
    err = what .. (": stopped, budget exceeded (%d ms of CPU time)"):format(M.budget_ms)
  elseif refused and (err == "not enough memory" or type(err) ~= "string") then
    err = what .. ": stopped, memory limit exceeded"
  elseif status == "yield" then
    err = what .. ": callbacks may not yield"
  else
    err = message(what, err)
  end
  if refused then collectgarbage() end
  error(err, 0)
end

-- What a callback returns crosses to the host as a copy (core.world_state.crossing
-- and border: raw reads, no function unless flags has "f", a table with a
-- metatable of its own refused), made on the callback's own thread before
-- its budget closes.
local border, crossing = core.world_state.border, core.world_state.crossing

-- state: the world state (w._s) whose handles may cross, or false: any world's.
local function guarded(what, flags, state, fn, ...)
  local n = select("#", ...)
  if n <= 4 then
    -- Mod code gets a world's mod view, never the host's world.
    local a, b, c, d = ...
    local view = private.view
    a, b, c, d = view[a] or a, view[b] or b, view[c] or c, view[d] or d
    return finish(what, guard.call(what, M.budget_ms, M.memory_kb * 1024, crossing, what, flags, state, fn,
      a, b, c, d))
  end
  local args = table.pack(...)
  for i = 1, n do args[i] = private.view[args[i]] or args[i] end
  return finish(what, guard.call(what, M.budget_ms, M.memory_kb * 1024, crossing, what, flags, state, fn,
    table.unpack(args, 1, n)))
end

function M.call(what, fn, ...) return guarded(what, "m", false, fn, ...) end
-- The same for a callback of world w: a handle of another world in its
-- results is refused.
function M.call_in(w, what, fn, ...) return guarded(what, "m", w._s, fn, ...) end
-- A callback of world w whose results the host does not use: nothing crosses.
function M.run_in(w, what, fn, ...) guarded(what, "d", w._s, fn, ...) end
-- The same for a callback that returns a definition (a patched entry): its
-- functions cross too, and a table with a metatable of its own is refused.
function M.call_definition(what, fn, ...) return guarded(what, "fm", false, fn, ...) end
-- A plain copy of v (mod code's, or the host's on its way to mod code);
-- flags "f": functions cross as themselves.
function M.copy(what, v, flags) return border(what, "", flags or "", v) end

-- ---- sandbox -------------------------------------------------------------------
local modenv = require "strata.modenv"
local deny = modenv.deny

-- A read-only table of `fields`, protected: the strata that mod code gets.
function frozen(name, fields)
  return setmetatable({}, private.protect({
    __index = fields,
    __newindex = function(_, k) error(("%s is read-only (cannot set '%s')"):format(name, tostring(k)), 2) end,
    -- (an iterator that does not hand out the table itself)
    __pairs = function()
      local k
      return function() local v k, v = next(fields, k) return k, v end
    end,
  }, name))
end

-- What a mod's strata.layout holds: everything but the read_* functions,
-- which take paths (its own files it reads with mod:read and passes as text).
local LAYOUT = { "always", "and", "and_", "apply", "area", "border", "chain", "chance", "choose", "connect",
  "fail", "filter", "flood_fill", "generate", "generator", "glyphs", "inside", "mapping", "mappings",
  "margins", "noise_map", "none", "not", "not_", "on", "or", "or_", "parse", "parse_file", "place",
  "position", "preview", "remove", "repeat", "repeat_", "reset", "run", "set", "set_front", "split_h",
  "split_v", "translate", "true", "xmod", "ymod" }

-- strata as a mod sees it: what builds data, maps and numbers; nothing that
-- takes a file path, makes, opens or saves worlds, reloads mods or changes
-- the host's settings (those are the host's: strata.world, strata.mods,
-- strata.reload, strata.paths, strata.realtime, strata.tokens.define,
-- strata.tiled, whose import takes a path or makes a world's map).
function M.strata_view(strata)
  local lay = {}
  for _, k in ipairs(LAYOUT) do lay[k] = strata.layout[k] end
  local opts = strata.options
  return frozen("strata", {
    version = strata.version,
    tilemap = frozen("strata.tilemap", { new = strata.tilemap.new, max_side = strata.tilemap.max_side,
      max_cells = strata.tilemap.max_cells }),
    tokens = frozen("strata.tokens", { new = strata.tokens.new }),
    rng = frozen("strata.rng", { new = strata.rng.new }),
    noise = frozen("strata.noise", { simplex = strata.noise.simplex, heights = strata.noise.heights }),
    markup = frozen("strata.markup", { render = strata.markup.render, strip = strata.markup.strip }),
    xymap = frozen("strata.xymap", { parse = strata.xymap.parse, grid = strata.xymap.grid,
      kinds = data.read_only(strata.xymap.kinds) }),
    layout = frozen("strata.layout", lay),
    -- world templates: everything but write and read, which take paths (and
    -- generate and floor without conf, another path)
    worldgen = frozen("strata.worldgen", { generate = strata.worldgen._for_mods.generate,
      floor = strata.worldgen._for_mods.floor,
      render = strata.worldgen.render, format = strata.worldgen.format, parse = strata.worldgen.parse,
      validate = strata.worldgen.validate, to_area = strata.worldgen.to_area, to_map = strata.worldgen.to_map }),
    options = frozen("strata.options", { check = opts.check, nearest = opts.nearest,
      suggest = opts.suggest, distance = opts.distance, known = require("strata.data").read_only(opts.known) }),
  })
end

-- A path inside the mod's folder: relative, "/"-separated names, no "..",
-- no empty or hidden parts, no NUL or other control character (a name ends
-- up in chunk names and errors, each one line). path: the name as a file path (a module
-- name's dots made slashes); hint: said after the refusal. level: the mod's
-- call, counted from here.
local function mod_file(mod, name, what, path, hint, level)
  path = path or name
  local bad = type(name) ~= "string" or name == "" or #name > 200 or name:find("%c") or name:sub(1, 1) == "/"
    or name:find("\\", 1, true)
  for part in ((bad and "" or path) .. "/"):gmatch("([^/]*)/") do
    bad = bad or part == "" or part == "." or part == ".." or part:sub(1, 1) == "."
  end
  if bad then
    error(("%s: %s is not a relative path inside the mod%s"):format(what, quoted(name), hint or ""), level or 3)
  end
  return mod.dir .. "/" .. path
end
M.mod_file = mod_file

-- What a builtin the sandbox wraps returns, or its error at the line of the
-- mod code that called the wrapper: `return at_caller(pcall(f, ...))`. (Called
-- by the wrapper, a builtin's own error would point at this file; called by
-- pcall, it has no position.)
local function at_caller(ok, ...)
  if ok then return ... end
  error(..., 2)
end

local function protected_rawset(t, k, v)
  local mt = debug.getmetatable(t)
  if mt and private.protected[mt] then error("rawset: strata's objects cannot be changed with rawset", 2) end
  return at_caller(pcall(rawset, t, k, v))
end

function M.environment(mod, api, seed)
  local env = {
    assert = assert, error = error, ipairs = ipairs, next = next, pairs = pairs, pcall = pcall,
    select = select, tonumber = tonumber, tostring = tostring, type = type, xpcall = xpcall,
    rawequal = rawequal, rawget = rawget, rawset = protected_rawset, rawlen = rawlen,
    -- Finalizers would run outside any guarded call, and the string metatable
    -- is shared by every mod: both stay out of reach. (A __gc added to a
    -- metatable after setmetatable never runs: Lua marks objects for
    -- finalization only when the metatable is set.)
    setmetatable = function(t, mt)
      if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
        error("setmetatable: __gc finalizers are not available to mods (sandbox)", 2)
      end
      return at_caller(pcall(setmetatable, t, mt))
    end,
    getmetatable = function(v)
      if type(v) == "string" then return nil end
      return getmetatable(v)
    end,
    print = print, _VERSION = _VERSION,
    io = setmetatable({}, { __index = function(_, k) error("io." .. tostring(k) .. " is not available to mods (sandbox)", 2) end }),
    debug = setmetatable({}, { __index = function(_, k) error("debug." .. tostring(k) .. " is not available to mods (sandbox)", 2) end }),
    package = { loadlib = deny("package.loadlib") },
    dofile = deny("dofile"), loadfile = deny("loadfile"), collectgarbage = deny("collectgarbage"),
  }
  for k, lib in pairs(modenv.libraries(mod, seed)) do env[k] = lib end
  env._G = env
  env.load = function(chunk, name, mode, chunk_env)
    if mode ~= nil and mode ~= "t" then error("load: only text chunks are allowed to mods (sandbox)", 2) end
    if type(chunk) == "string" and chunk:byte(1) == 27 then
      error("load: bytecode is not allowed to mods (sandbox)", 2)
    end
    -- A C function as the reader would run in C, unhooked, for as long as it
    -- returns text: called from Lua, the budget's hook can stop it.
    if type(chunk) == "function" then local reader = chunk chunk = function() return reader() end end
    if chunk_env == nil then chunk_env = env end
    return load(chunk, name, "t", chunk_env)
  end
  -- require "name" and mod:load("name"): a file of the mod, its name's parts
  -- separated by "/" or "." (Lua's own separator), run once: "data.map1" and
  -- "data/map1" are one module.
  local loaded = {}
  local ONLY = "mods may require only their own files and 'strata'"
  local ONLY_HINT = " (" .. ONLY .. ")"
  local function load_module(name, what)
    if name == "strata" then return api.strata end
    local module = type(name) == "string" and name:gsub("%.", "/") or nil
    local path = mod_file(mod, name, what, module and module .. ".lua", ONLY_HINT, 4)
    if loaded[module] ~= nil then return loaded[module] end
    local text, why, there = read_file(path, mod.dir)
    if not text then error(file_error(what, mod.id, name, why, there, ONLY), 3) end
    local chunk, err = load(text, M.chunk_name(mod.id, module .. ".lua"), "t", env)
    if not chunk then error(err, 3) end
    local r = chunk(name)
    if r == nil then r = true end
    loaded[module] = r
    return r
  end
  -- (not tail calls: the error levels above count this frame)
  env.require = function(name) local r = load_module(name, "require") return r end
  env.data, env.events, env.mod, env.strata = api.data, api.events, api.mod, api.strata
  return env, function(name) local r = load_module(name, "mod:load") return r end
end

-- ---- finding and ordering ---------------------------------------------------------
-- A manifest is data like any entry: a key it does not know is an error.
local MANIFEST_KEY_LIST = { "id", "version", "requires", "description" }
local MANIFEST_KEYS = {}
for _, k in ipairs(MANIFEST_KEY_LIST) do MANIFEST_KEYS[k] = true end
local MAX_DESCRIPTION, MAX_REQUIRES = 4000, 200

-- The manifest m of mod id, checked, as a copy of plain data. Run as a
-- guarded call: m is the mod's, and reading it is work done for the mod.
local function checked_manifest(id, m)
  local function bad(fmt, ...) error(("mod %s: mod.lua: " .. fmt):format(id, ...), 0) end
  if type(m) ~= "table" then error("mod " .. id .. ": mod.lua must return a table", 0) end
  for k in next, m do
    if not MANIFEST_KEYS[k] then
      local short = type(k) == "string" and #k <= MAX_ID
      bad("unknown key %s%s", quoted(k), short and options.suggest(k, MANIFEST_KEY_LIST) or "")
    end
  end
  local version, description, requires = rawget(m, "version"), rawget(m, "description"), rawget(m, "requires")
  if rawget(m, "id") ~= id then error(("mod %s: mod.lua says id = %s"):format(id, quoted(rawget(m, "id"))), 0) end
  if not parse_version(version) then bad("version must look like 1.2.3 (at most %d characters)", MAX_VERSION) end
  if description ~= nil and type(description) ~= "string" then bad("description must be a string") end
  if description and #description > MAX_DESCRIPTION then
    bad("description must be at most %d bytes (it has %d)", MAX_DESCRIPTION, #description)
  end
  if requires ~= nil and type(requires) ~= "table" then
    bad("requires must be a table { mod_id = \"constraint\" }")
  end
  local copy, n = {}, 0
  for dep, constraint in next, requires or {} do
    n = n + 1
    if n > MAX_REQUIRES then bad("requires names at most %d mods", MAX_REQUIRES) end
    if type(dep) ~= "string" or type(constraint) ~= "string" then
      bad("requires must map mod IDs to version constraints, got [%s] = %s", quoted(dep), quoted(constraint))
    end
    if not M.valid_id(dep) then bad("requires: %s is not a mod ID%s", quoted(dep), ID_RULE) end
    if not parse_constraint(constraint) then bad("requires %s: bad version constraint %s", dep, quoted(constraint)) end
    copy[dep] = constraint
  end
  return { id = id, version = version, description = description, requires = copy }
end

-- The manifest of mod id from the first of dirs holding <id>/mod.lua; nil
-- and the first folder <id> that has no mod.lua when none does.
local function manifest(id, dirs)
  if not M.valid_id(id) then error(("mod %s is not a mod ID%s"):format(quoted(id), ID_RULE), 0) end
  local bare
  for _, dir in ipairs(dirs) do
    local path = dir .. "/" .. id .. "/mod.lua"
    local text, why = read_file(path, dir .. "/" .. id)
    if not text and why ~= "no such file" and why ~= "its folder cannot be resolved" then
      error("mod " .. id .. ": mod.lua: " .. why, 0)
    end
    if why == "no such file" and not bare and core_paths.realpath(dir .. "/" .. id .. "/.") then
      bare = dir .. "/" .. id
    end
    if text then
      local chunk, err = load(text, M.chunk_name(id, "mod.lua"), "t", {})
      if not chunk then error("mod " .. id .. ": bad manifest: " .. err, 0) end
      local ok, m = pcall(M.call, "mod " .. id .. " manifest", chunk)
      if not ok then error("mod " .. id .. ": manifest failed: " .. tostring(m), 0) end
      m = M.call("mod " .. id .. " manifest", checked_manifest, id, m)
      m.dir = dir .. "/" .. id
      return m
    end
  end
  return nil, bare
end

-- A type of another mod that this one does not require is not loaded for
-- it (base's too): say so, where "unknown type" alone sent people looking
-- for a misspelling.
local function requires_hint(m, err)
  local ns = tostring(err):match("unknown type '([%w_]+)%.")
  if not ns or ns == m.id or m.requires[ns] then return "" end
  return ("; mod %s does not require %s: add it to the requires of its mod.lua, e.g. "
    .. "requires = { %s = \"*\" }"):format(m.id, ns, ns)
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
      local m, bare = manifest(id, dirs)
      if bare then
        errors[#errors + 1] = ("mod '%s': its folder %s has no mod.lua (a mod is a folder with mod.lua "
          .. "and init.lua)"):format(id, bare)
        found[id] = false
      elseif not m then
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

-- Loads mods into a new registry: returns registry, list of manifests. seed
-- (the world's) seeds each mod's math.random.
function M.load(ids, dirs, strata, seed)
  local reg = data.new()
  reg.call = M.call -- (a type's check runs as a guarded call)
  local order = M.resolve(ids, dirs)
  local view = M.strata_view(strata)
  for _, m in ipairs(order) do
    local function bind(fn) return function(_, ...) return fn(m.id, ...) end end
    local api = {
      strata = view,
      data = frozen("data", { add_type = bind(function(...) return reg:add_type(...) end),
               add = bind(function(...) return reg:add(...) end),
               patch = bind(function(...) return reg:patch(...) end) }),
      events = frozen("events", { register = bind(function(mod, ...) return M.register_event(reg, mod, ...) end) }),
    }
    local env, load_module
    -- mod:load("file") runs one of the mod's Lua files (as require does);
    -- mod:read("path") returns one of its files as text. Nothing else of
    -- the file system is reachable from a mod.
    api.mod = frozen("mod", { id = m.id, version = m.version,
      load = function(_, name) return load_module(name) end,
      read = function(_, name)
        local text, why, there = read_file(mod_file(m, name, "mod:read"), m.dir)
        if not text then error(file_error("mod:read", m.id, name, why, there), 2) end
        return text
      end })
    env, load_module = M.environment(m, api, seed)
    local path = m.dir .. "/init.lua"
    local text, why = read_file(path, m.dir)
    if not text and why ~= "no such file" then error("mod " .. m.id .. ": init.lua: " .. why, 0) end
    if text then
      local chunk, err = load(text, M.chunk_name(m.id, "init.lua"), "t", env)
      if not chunk then error("mod " .. m.id .. ": " .. err, 0) end
      local ok, e = pcall(guarded, "mod " .. m.id .. " init.lua", "d", false, chunk) -- (its result is not used)
      if not ok then error("mod " .. m.id .. ": " .. tostring(e) .. requires_hint(m, e), 0) end
    end
  end
  local errors = reg:finish(M.call_definition)
  if #errors > 0 then error("mods failed validation:\n  " .. table.concat(errors, "\n  "), 0) end
  local frozen_errors = reg:freeze()
  if #frozen_errors > 0 then error("mods failed validation:\n  " .. table.concat(frozen_errors, "\n  "), 0) end
  reg.load_args = { ids = ids, dirs = dirs, strata = strata, seed = seed }
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
  local ok, fresh = pcall(M.load, a.ids, a.dirs, a.strata, a.seed)
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
  opts = options.check("events:register", opts, 3)
  local priority = opts and opts.priority or 100
  if math.type(priority) ~= "integer" then
    error("events:register: priority must be an integer", 3)
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
