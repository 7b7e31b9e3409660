-- strata load FILE.json -o WORLD_FILE: a world file from the JSON form of a
-- world (strata dump --json, world:to_json; docs/saves.md, "The JSON form").
local strata = require "strata"
local cli = require "strata.cli"
local paths = require "strata.paths"
local dump = require "strata.cmd.dump"

local M = {
  summary = "make a world file from a world's JSON form (strata dump --json)",
  usage = [[
usage: strata load FILE.json -o WORLD_FILE [--mods a,b] [--mod-path DIR]

Reads the JSON form of a world (format "strata-world", version 1, as
`strata dump --json` and world:to_json write it), checks it as a save is
checked when opened (its mods loaded, every ID known, uids unique, positions
on maps that exist, tiles inside their maps) and saves it to WORLD_FILE.

options:
  -o, --output FILE the world file to write (required)
  --mods a,b        mods to load (default: the ones the JSON names)
  --mod-path DIR    a directory to search for mods; repeatable

Bad JSON is refused with one line naming where it is ("$.objects[3].map: no
object #9"); nothing is written then. The world file is written whole or not
at all. Exit status 1 with one line on stderr for a bad option or file.
]],
}

-- Errors read "load: message" (strata.cli adds the name).
M.names_errors = true

local function fail(msg) error(msg, 0) end

function M.run(args)
  local pos, o = dump.parse(args, "load", function(o, a, value)
    if a == "-o" or a == "--output" then o.output = value() return true end
  end)
  if #pos ~= 1 or not o.output then fail("give one FILE.json and -o WORLD_FILE (see 'strata load --help')") end
  -- a world's JSON may be as large as the reader takes (STRATA_JSON_MAX_SIZE, 1 GiB)
  local text, why = paths.read(pos[1], "cannot read", 1 << 30)
  if not text then fail(why) end
  local world = cli.call("strata.world.from_json", strata.world.from_json, text, { mods = o.mods, mod_path = o.mod_path })
  cli.call("world:save", world.save, world, o.output)
  return 0
end

return M
