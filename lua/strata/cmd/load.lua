-- strata load FILE.json -o WORLD_FILE: a world file from the JSON form of a
-- world (strata dump --json, world:to_json; docs/saves.md, "The JSON form").
local strata = require "strata"
local cli = require "strata.cli"
local dump = require "strata.cmd.dump"

local M = {}

M.spec = {
  name = "load",
  summary = "make a world file from a world's JSON form (strata dump --json)",
  forms = { "FILE.json -o WORLD_FILE [options]" },
  args = { { name = "FILE.json", key = "file", kind = "path", stdio = "in" } },
  description = [[
Reads the JSON form of a world (format "strata-world", version 1, as
`strata dump --json` and world:to_json write it; - reads it from standard
input), checks it as a save is checked when opened (its mods loaded, every
ID known, uids unique, positions on maps that exist, tiles inside their maps)
and saves it to WORLD_FILE.]],
  options = {
    { name = "output", short = "o", kind = "path", arg = "FILE", help = "the world file to write (required)",
      refuse_stdio = "a world file is an SQLite database, written only to a file" },
    dump.mod_options[1], dump.mod_options[2],
  },
  epilog = [[
Bad JSON is refused with one line naming where it is ("$.objects[3].map: no
object #9"); nothing is written then. The world file is written whole or not
at all. Exit status 2 for a mistake in the arguments; 1 with one line on
stderr for a bad file.]],
}

-- Errors read "load: message" (strata.cli adds the name).
M.names_errors = true

function M.run(o)
  if not o.output then cli.usage_error("missing -o WORLD_FILE") end
  -- a world's JSON may be as large as the reader takes (STRATA_JSON_MAX_SIZE, 1 GiB)
  local text = cli.read(o.file, "cannot read", 1 << 30)
  local world = cli.call("strata.world.from_json", strata.world.from_json, text, { mods = o.mods, mod_path = o.mod_path })
  cli.call("world:save", world.save, world, o.output)
  return 0
end

return M
