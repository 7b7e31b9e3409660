-- scripts/manpage.lua OUT: writes strata.1, the manual page of the `strata`
-- command, from the commands' own tables (strata.cli's help of each
-- strata.cmd.*'s spec), so that the page says what `strata help COMMAND` says.
-- The build runs it with the executable it made: strata run scripts/manpage.lua OUT.
local strata = require "strata"
local cli = require "strata.cli"
local out_path = assert(arg[1], "usage: strata run scripts/manpage.lua OUT")

-- Text as roff reads it: a backslash and a minus are escaped, and a line
-- that begins with a control character is not taken for a request.
local function roff(text)
  return (text:gsub("\\", "\\e"):gsub("%-", "\\-"):gsub("\n([.'])", "\n\\&%1"):gsub("^([.'])", "\\&%1"))
end

local lines = {
  ('.TH STRATA 1 "" "strata %s" "User Commands"'):format(strata.version),
  ".SH NAME",
  "strata \\- a game\\-world runtime: run Lua scripts and mods, draw, generate and explore maps",
  ".SH SYNOPSIS",
  ".B strata",
  ".I COMMAND",
  ".RI [ ARGS ...]",
  ".br",
  ".B strata",
  ".RB [ help ]",
  ".RI [ COMMAND ]",
  ".br",
  ".B strata",
  ".BR \\-\\-version | \\-V",
  ".SH DESCRIPTION",
  "strata is Lua 5.4 with the strata module and luv built in.",
  "Each command below takes",
  ".BR \\-\\-help ;",
  ".B strata help",
  "lists them.",
  "Every command reads its arguments the same way:",
  ".BI \\-\\- option \" value\"",
  "or",
  ".BI \\-\\- option = value ,",
  "short aliases such as",
  ".BR \\-o ,",
  ".B \\-\\-",
  "to end the options, and",
  ".B \\-",
  "for standard input or output wherever a file is read or written (a world file, an SQLite database, cannot be).",
  "An error is one line on standard error,",
  ".IR \"strata: COMMAND: message\" ,",
  "and exit status 1; a mistake in the arguments (an unknown option, a missing or bad value, an argument too many)",
  "adds a hint,",
  ".IR \"; try 'strata COMMAND \\-\\-help'\" ,",
  "and exits 2.",
  ".SH COMMANDS",
}
for _, name in ipairs(cli.commands) do
  local cmd = require("strata.cmd." .. name)
  lines[#lines + 1] = ".SS " .. name
  lines[#lines + 1] = roff(cmd.spec.summary) .. "."
  lines[#lines + 1] = ".PP"
  lines[#lines + 1] = ".nf"
  lines[#lines + 1] = roff((cli.help(cmd.spec):gsub("\n+$", "")))
  lines[#lines + 1] = ".fi"
end
for _, line in ipairs {
  ".SH ENVIRONMENT",
  ".TP", ".B STRATA_LUA_DIR", "where the executable finds its Lua files (by default beside itself, then where it was installed)",
  ".TP", ".B STRATA_MODS_DIR", "where strata's own mods (base, examples) are",
  ".TP", ".B STRATA_TRACEBACK", "when set, an error is printed with its Lua traceback",
  ".TP", ".B NO_COLOR", "when set to something (not empty), output is never coloured (no\\-color.org)",
  ".SH SEE ALSO",
  "The reference, installed with strata in its documentation directory:",
  roff("docs/lua-api.md, docs/c-api.md, docs/play.md, docs/grid.md, docs/worldgen.md, docs/layouts.md."),
} do lines[#lines + 1] = line end

local ok, err = strata.paths.write(out_path, table.concat(lines, "\n") .. "\n")
if not ok then error(err, 0) end
