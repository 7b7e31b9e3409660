-- strata dump WORLD_FILE [--json]: a world file as text (docs/saves.md, "The JSON form").
local strata = require "strata"
local cli = require "strata.cli"

local M = {}

-- The options dump and load share.
M.mod_options = {
  { name = "mods", kind = "list", arg = "a,b", help = "mods to load (default: the ones the world names)" },
  { name = "mod-path", kind = "path", arg = "DIR", repeatable = true, help = "a directory to search for mods" },
}

M.spec = {
  name = "dump",
  summary = "print a world file: a summary, or with --json the whole world as JSON",
  args = { { name = "WORLD_FILE", key = "file", kind = "path",
    refuse_stdio = "a world file is an SQLite database, read only from a file" } },
  description = [[
Prints the world of WORLD_FILE (a saved world) on standard output: a short
summary (seed, time, mods, objects by kind, maps, timers, subscriptions,
random streams), or with --json the whole world as JSON (format
"strata-world", version 1: world:to_json), which `strata load` makes a world
file of again, the same world.]],
  options = {
    { name = "json", kind = "flag", help = "the whole world as JSON" },
    M.mod_options[1], M.mod_options[2],
  },
  epilog = [[
Exit status 2 for a mistake in the arguments; 1 with one line on stderr for a
file that cannot be opened.]],
}

-- Errors read "dump: message" (strata.cli adds the name).
M.names_errors = true

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

function M.run(o)
  local world = cli.call("strata.world.open", strata.world.open, o.file, { mods = o.mods, mod_path = o.mod_path })
  local text = world:to_json()
  cli.write(o.json and text or summary(o.file, strata.json.decode(text)))
  return 0
end

return M
