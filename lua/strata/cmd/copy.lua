-- strata copy SRC DST: a world from one store to another, whole (a file to
-- a PostgreSQL server and back; docs/postgresql.md, "Copies and backups").
local strata = require "strata"
local cli = require "strata.cli"
local dump = require "strata.cmd.dump"
local paths = require "strata.paths"

local M = {}

local STORE = "a world is stored in an SQLite file or a postgresql:// URI, not read from a stream"

M.spec = {
  name = "copy",
  summary = "copy a world whole from one store to another (a file, a postgresql:// URI)",
  forms = { "SRC DST [options]" },
  args = {
    { name = "SRC", key = "src", kind = "path", refuse_stdio = STORE },
    { name = "DST", key = "dst", kind = "path", refuse_stdio = STORE },
  },
  description = [[
Opens the world stored at SRC and saves it whole to DST, each a world file's
path or a PostgreSQL URI (postgresql://... or postgres://..., libpq's form,
with world=NAME choosing the world on that server; default main). The mods
are bound as `strata dump` binds them: the ones the world names, or --mods.
The copy is the same world: `strata dump --json` of both prints the same
bytes. DST is replaced whole, as a save to another place is (world:save);
SRC is only read.]],
  options = { dump.mod_options[1], dump.mod_options[2] },
  epilog = [[
DST naming SRC (the same file, or the same server and world) is refused.
Exit status 2 for a mistake in the arguments; 1 with one line on stderr for
a world that cannot be opened or saved: nothing is written then.]],
}

-- Errors read "copy: message" (strata.cli adds the name).
M.names_errors = true

function M.run(o)
  if paths.same_store(o.src, o.dst) then
    cli.usage_error(("DST '%s' is SRC: a copy needs another place"):format(o.dst))
  end
  local world = cli.call("strata.world.open", strata.world.open, o.src, { mods = o.mods, mod_path = o.mod_path })
  cli.call("world:save", world.save, world, o.dst)
  return 0
end

return M
