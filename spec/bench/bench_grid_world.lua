-- bench_grid_world.lua [SIDE]: the grid world at scale, through the Lua API.
-- A SIDE x SIDE XY map (default 141: 19,881 nodes), every node joined to its
-- east and north neighbours (the text of gen_grid_map.py's "grid"), is written
-- as a base.grid_map of a scratch mod; then, on fresh worlds:
--   spawn    world.grid:spawn() into an empty world (median of 3)
--   respawn  world.grid:spawn() again, nothing to change (median of 5)
--   save     world:save() of that world into a new file each time, so a full
--            save (median of 3, wall clock: it syncs; save_cpu_ms: the
--            process's own CPU time, without the wait for the disk)
--   resave   world:save() into the last of those files again after a respawn
--            that changed nothing: the incremental save (median of 3)
--   walk     one step of world:walk across the map (mean over its 2 x (SIDE-1)
--            steps, each world:advance(1) running one base.walk_step timer)
--   memory   bytes a room with its exits: the process's resident memory
--            after the first spawn less before it (garbage collected on both
--            sides), and its peak over that spawn (VmHWM, reset just before)
--            less the resident before, each divided by the rooms made
-- With a second argument "props", the prototypes also give props (two keys
-- per room, one per exit), so every room and exit carries them: the cost of
-- applying and reconciling them ("props":true in the line).
-- Prints one JSON line. Run: scripts/env lua5.4 spec/bench/bench_grid_world.lua [SIDE [props]]
local strata = require "strata"
local uv = require "luv"
local side = tonumber(arg[1]) or 141
local with_props = arg[2] == "props"

local function grid_text(n)
  local row, links = { "#" }, { "|" }
  for _ = 2, n do row[#row + 1] = "-#" links[#links + 1] = " |" end
  row, links = "  " .. table.concat(row), "  " .. table.concat(links)
  local lines = { "+", "" }
  for y = 1, n do
    if y > 1 then lines[#lines + 1] = links end
    lines[#lines + 1] = row
  end
  lines[#lines + 1] = ""
  lines[#lines + 1] = "+"
  return table.concat(lines, "\n") .. "\n"
end

local dir = os.tmpname()
os.remove(dir)
assert(os.execute("mkdir -p " .. dir .. "/gridbench"))
local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end
write(dir .. "/gridbench/mod.lua", 'return { id = "gridbench", version = "0.1.0", requires = { base = "^0.1" } }')
write(dir .. "/gridbench/init.lua", ('data:add{ _type = "base.grid_map", _id = "big", z = "big", map = %q,\n'
  .. '  prototypes = { ["*,*"] = { key = "A hall", desc = "One of many."%s }, ["*,*,*"] = { desc = "A doorway."%s } } }\n')
  :format(grid_text(side), with_props and ', props = { light = "dim", size = 3 }' or "",
    with_props and ', props = { door = "oak" }' or ""))

local function new_world()
  local w = strata.world.new{ seed = 1, mods = { "base", "gridbench" }, mod_path = { "mods", dir } }
  w.grid:add("gridbench.big")
  w.grid:map("big") -- parsed once here, so that spawn times the spawn
  return w
end

local function median(t)
  table.sort(t)
  return t[(#t + 1) // 2]
end

local function ms_cpu(f)
  collectgarbage()
  local t0 = os.clock()
  local r = f()
  return (os.clock() - t0) * 1000, r
end

local function resident()
  local f = assert(io.open("/proc/self/statm"))
  local pages = tonumber(f:read("a"):match("^%d+ (%d+)"))
  f:close()
  return pages * 4096 -- (Linux's page)
end
local function peak()
  local f = assert(io.open("/proc/self/status"))
  local kb = tonumber(f:read("a"):match("VmHWM:%s*(%d+)"))
  f:close()
  return kb * 1024
end

local spawn, counts, w = {}, nil, nil
local mem_room, peak_room
for i = 1, 3 do
  w = new_world()
  local before
  if i == 1 then
    collectgarbage()
    local f = assert(io.open("/proc/self/clear_refs", "w")) -- the peak starts again from here
    f:write("5")
    f:close()
    before = resident()
  end
  spawn[i], counts = ms_cpu(function() return w.grid:spawn() end)
  if i == 1 then
    local top = peak()
    collectgarbage()
    mem_room = (resident() - before) / counts.created.rooms
    peak_room = (top - before) / counts.created.rooms
  end
end
local respawn = {}
for i = 1, 5 do
  local ms, c = ms_cpu(function() return w.grid:spawn() end)
  assert(c.created.rooms + c.created.exits + c.updated.rooms + c.updated.exits + c.deleted.rooms + c.deleted.exits == 0)
  respawn[i] = ms
end
local save, save_cpu = {}, {}
for i = 1, 3 do
  local t0, c0 = uv.hrtime(), os.clock()
  w:save(dir .. "/w" .. i .. ".db")
  save[i], save_cpu[i] = (uv.hrtime() - t0) / 1e6, (os.clock() - c0) * 1000
end
local resave = {}
for i = 1, 3 do
  w.grid:spawn()
  local t0 = uv.hrtime()
  w:save(dir .. "/w3.db")
  resave[i] = (uv.hrtime() - t0) / 1e6
end
local f = io.open(dir .. "/w3.db", "rb")
local bytes = f:seek("end")
f:close()

local hero = w:create_actor{ room = w.grid:room(0, 0, "big") }
local goal = w.grid:room(side - 1, side - 1, "big")
local route_ms, plan = ms_cpu(function() return w:walk(hero, goal, { step_every = 1 }) end)
local steps = 2 * (side - 1)
local walk_ms = ms_cpu(function()
  for _ = 1, steps do w:advance(1) end
end)
assert(plan.state == "arrived" and hero.room.uid == goal.uid, "the walk did not arrive: " .. plan.state)

os.execute("rm -rf " .. dir)
print(('{"bench":"grid_world",%s"nodes":%d,"rooms":%d,"exits":%d,"spawn_ms":%.1f,"respawn_ms":%.1f,' ..
  '"save_ms":%.1f,"save_cpu_ms":%.1f,"resave_ms":%.2f,"save_bytes":%d,"walk_start_ms":%.2f,"walk_step_us":%.1f,"walk_steps":%d,' ..
  '"room_bytes":%.0f,"room_peak_bytes":%.0f}'):format(
  with_props and '"props":true,' or "", side * side, counts.created.rooms, counts.created.exits, median(spawn), median(respawn), median(save), median(save_cpu),
  median(resave), bytes,
  route_ms, walk_ms * 1000 / steps, steps, mem_room, peak_room))
