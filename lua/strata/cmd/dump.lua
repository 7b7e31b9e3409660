-- strata dump WORLD_FILE [--json]: a world file as text (docs/saves.md, "The JSON form").
local strata = require "strata"
local cli = require "strata.cli"

local M = {
  summary = "print a world file: a summary, or with --json the whole world as JSON",
  usage = [[
usage: strata dump WORLD_FILE [--json] [--mods a,b] [--mod-path DIR]

Prints the world of WORLD_FILE (a saved world) on standard output: a short
summary (seed, time, mods, objects by kind, maps, timers, subscriptions,
random streams), or with --json the whole world as JSON (format
"strata-world", version 1: world:to_json), which `strata load` makes a world
file of again, the same world.

options:
  --json            the whole world as JSON
  --mods a,b        mods to load (default: the world's own)
  --mod-path DIR    a directory to search for mods; repeatable

Exit status 1 with one line on stderr for a bad option or a file that cannot
be opened.
]],
}

-- Errors read "dump: message" (strata.cli adds the name).
M.names_errors = true

local function fail(msg) error(msg, 0) end

-- The options dump and load share: --mods, --mod-path; others are the command's (more(a, value)).
function M.parse(args, name, more)
  local o, pos = { mod_path = {} }, {}
  for a, value in cli.options(args, fail) do
    if a == "--mods" then o.mods = {} for m in value():gmatch("[^,]+") do o.mods[#o.mods + 1] = m end
    elseif a == "--mod-path" then o.mod_path[#o.mod_path + 1] = value()
    elseif a:sub(1, 1) == "-" and not more(o, a, value) then
      fail("unknown option " .. a .. " (see 'strata " .. name .. " --help')")
    elseif a:sub(1, 1) ~= "-" then pos[#pos + 1] = a end
  end
  return pos, o
end

-- The summary: counts from the JSON form, which holds all there is.
local function summary(file, t)
  local kinds, maps, names = {}, {}, {}
  for _, obj in ipairs(t.objects) do
    if not kinds[obj.kind] then names[#names + 1] = obj.kind end
    kinds[obj.kind] = (kinds[obj.kind] or 0) + 1
    if obj.tiles then maps[#maps + 1] = ("#%d %dx%d"):format(obj.uid, obj.tiles.width, obj.tiles.height) end
  end
  table.sort(names)
  local mods, streams = {}, {}
  for _, m in ipairs(t.mods) do mods[#mods + 1] = m.id .. " " .. m.version end
  for k in pairs(t.streams) do streams[#streams + 1] = k end
  local lines = {
    ("%s: seed %s, time %s, next uid %d"):format(file, tostring(t.seed), tostring(t.time), t.next_uid),
    "mods: " .. (#mods > 0 and table.concat(mods, ", ") or "none"),
    ("objects: %d"):format(#t.objects),
  }
  for _, k in ipairs(names) do lines[#lines + 1] = ("  %s: %d"):format(k, kinds[k]) end
  lines[#lines + 1] = "tile maps: " .. (#maps > 0 and table.concat(maps, ", ") or "none")
  lines[#lines + 1] = ("timers: %d, subscriptions: %d, random streams: %d"):format(#t.timers, #t.subscriptions, #streams)
  return table.concat(lines, "\n") .. "\n"
end

function M.run(args)
  local pos, o = M.parse(args, "dump", function(o, a) if a == "--json" then o.json = true return true end end)
  if #pos ~= 1 then fail("give one WORLD_FILE (see 'strata dump --help')") end
  local world = cli.call("strata.world.open", strata.world.open, pos[1], { mods = o.mods, mod_path = o.mod_path })
  local text = world:to_json()
  cli.write(o.json and text or summary(pos[1], strata.json.decode(text)))
  return 0
end

return M
