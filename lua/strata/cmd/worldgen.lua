-- strata worldgen --dims WxHxZ [options]: generates a multi-floor world
-- template and prints it, writes it (-o), or prints one read back (--read).
local strata = require "strata"
local cli = require "strata.cli"

local M = {}

local SIDE_MAX, CELLS_MAX = 65535, 1 << 28
local BIG = 1000000

-- --dims WxHxZ as three integers, within a tile map's side and a world's cells.
local function dims_of(s)
  local x, y, z = s:match("^(%d+)x(%d+)x(%d+)$")
  x, y, z = math.tointeger(tonumber(x)), math.tointeger(tonumber(y)), math.tointeger(tonumber(z))
  if not (x and y and z) or x < 1 or y < 1 or z < 1 then
    return nil, ("must be WxHxZ, three whole numbers of at least 1 (e.g. 25x25x3), got '%s'"):format(s)
  end
  if x > SIDE_MAX or y > SIDE_MAX or z > SIDE_MAX or x * y * z > CELLS_MAX then
    return nil, ("%s is too big: at most %d on a side and %d tiles in all"):format(s, SIDE_MAX, CELLS_MAX)
  end
  return { x, y, z }
end

M.spec = {
  name = "worldgen",
  summary = "generate a multi-floor world template and print it",
  forms = {
    "[--dims WxHxZ | --rand] [--conf FILE] [--seed N] [options] [-o FILE]",
    "--read FILE [--verbose | --silent | --debug] [--json]",
  },
  description = [[
Generates Z floors of W x H tiles: on each, waypoints joined by hallways,
rooms around the waypoints, stairs to the floors above and below; a start on
the first floor and an exit on the last. Each floor is checked with the
pathfinder and made again until it can be crossed (docs/worldgen.md).]],
  options = {
    { name = "dims", arg = "WxHxZ", check = dims_of,
      help = "floor width, height and number of floors (default 25x25x3)" },
    { name = "rand", kind = "flag", help = "draw the dims from the seed: sides of 10 to 50, 1 to 10 floors" },
    { name = "conf", kind = "path", stdio = "in", arg = "FILE", help = "read the options from a configuration file (dim_x = 40,\n"
      .. "seed = 7, ...: docs/worldgen.md; - : standard input); the flags given win" },
    { name = "seed", kind = "integer", arg = "N", help = "random seed, an integer (default 0)" },
    { name = "room-variance", kind = "integer", min = 3, arg = "N",
      help = "the largest side of a room, at least 3 (the smallest room side; default 5)" },
    { name = "path-alg", kind = "choice", choices = { "astar", "greedy", "bfs", "dijkstra" }, arg = "ALG",
      help = "the check's search: astar (default), greedy, bfs or dijkstra" },
    { name = "no-check", kind = "flag", help = "do not check that floors can be crossed" },
    { name = "output", short = "o", kind = "path", stdio = "out", arg = "FILE",
      help = "write the template to FILE (- : standard output) instead of printing it" },
    { name = "read", kind = "path", stdio = "in", arg = "FILE", help = "print the template in FILE (written with -o; - : standard input)" },
    { name = "json", kind = "flag", help = "print the template's figures (dims, seed, each floor's rooms and attempts)\n"
      .. "as one JSON document, the template in it unless -o is given" },
    { name = "verbose", kind = "flag", help = "say how each floor went, on stderr" },
    { name = "debug", kind = "flag", help = "also each attempt, its waypoints and hallways (wins\nover --verbose and --silent)" },
    { name = "silent", kind = "flag", help = "nothing on stderr but errors" },
  },
  epilog = [[
The template is printed in colour on a terminal unless NO_COLOR is set to
something. Big worlds (a million tiles or more) show their progress on stderr
unless --silent. Exit status 2 for a mistake in the arguments; 1 with one
line on stderr for a file that cannot be read or written, or a floor that
stays impassable.]],
}

-- Errors read "worldgen: message" on one line (strata.cli adds the name).
M.names_errors = true

local function is_tty(fd)
  local ok, uv = pcall(require, "luv")
  return ok and uv.guess_handle(fd) == "tty"
end

-- The figures --json prints: dims, seed, start and exit, each floor's rooms,
-- stairs and attempts.
local function figures(t)
  local floors, attempts = strata.json.array(), 0
  for z, f in ipairs(t.floors) do
    floors[z] = { floor = z, rooms = #f.rooms, attempts = f.attempts,
      ascent = f.ascent and { f.ascent.x, f.ascent.y }, descent = f.descent and { f.descent.x, f.descent.y } }
    attempts = attempts + f.attempts
  end
  return { dims = { t.dims[1], t.dims[2], t.dims[3] }, seed = t.seed, attempts = attempts, floors = floors,
    start = { t.start.x, t.start.y, t.start.z }, exit = { t.exit.x, t.exit.y, t.exit.z } }
end

function M.run(o)
  o.check = not o.no_check
  o.out = o.output
  -- The reference's order: debug wins over the other two, then verbose.
  local level = o.debug and 2 or o.verbose and 1 or o.silent and -1 or 0
  local err = io.stderr

  local t
  if o.json and o.out == "-" then cli.usage_error("--json prints on standard output: -o - cannot go there too") end
  if o.rand and o.dims then cli.usage_error("--rand draws the dims: give --dims or --rand, not both") end
  if o.read then
    if o.dims or o.rand or o.conf or o.seed or o.room_variance or o.path_alg or not o.check or o.out then
      cli.usage_error("--read prints a template as it is: it takes none of --dims, --rand, --conf, --seed, --room-variance, "
        .. "--path-alg, --no-check, -o")
    end
    local label = o.read == "-" and "standard input" or o.read
    t = cli.call("strata.worldgen.parse", strata.worldgen.parse, cli.read(o.read), label)
    if level >= 1 then err:write(("strata worldgen: read %s: %dx%dx%d, seed %d\n"):format(o.read, t.dims[1], t.dims[2], t.dims[3], t.seed)) end
  else
    -- the options as generate takes them: the conf file's, then the flags given
    local opts = { conf = o.conf, dims = o.dims, rand = o.rand, seed = o.seed,
      room_variance = o.room_variance, path_alg = o.path_alg }
    if o.conf == "-" then opts.conf, opts.conf_text = nil, cli.read("-") end
    if not o.check then opts.post_check = false end
    local ok, resolved = pcall(cli.call, "strata.worldgen.options", strata.worldgen.options, opts)
    if not ok then error((tostring(resolved):gsub("^conf_text:", "standard input:")), 0) end
    opts = resolved
    local d = opts.dims
    local big = d[1] * d[2] * d[3] >= BIG and level >= 0
    local live = big and level == 0 and is_tty(2)
    local log
    if level >= 1 or live then
      log = function(lvl, message, floor)
        if lvl == "debug" and level < 2 then return end
        if live then err:write(("\rstrata worldgen: floor %d of %d\27[K"):format(floor, d[3]))
        else err:write("strata worldgen: ", message, "\n") end
      end
    end
    local started = os.clock()
    opts.log = log
    local ok, res = pcall(cli.call, "strata.worldgen.generate", strata.worldgen.generate, opts)
    if live then err:write("\r\27[K") end -- the progress line goes, error or not
    if not ok then error(res, 0) end
    t = res
    if big or level >= 1 then
      local attempts = 0
      for _, f in ipairs(t.floors) do attempts = attempts + f.attempts end
      err:write(("strata worldgen: %d floor%s of %dx%d, seed %d, in %.2f s (%d attempt%s)\n"):format(
        d[3], d[3] == 1 and "" or "s", d[1], d[2], opts.seed, os.clock() - started, attempts, attempts == 1 and "" or "s"))
    end
  end

  if o.out then
    if o.out == "-" then cli.write(strata.worldgen.format(t))
    else cli.call("strata.worldgen.write", strata.worldgen.write, t, o.out) end
    if level >= 1 then err:write("strata worldgen: wrote ", o.out, "\n") end
  end
  if o.json then
    local doc = figures(t)
    if not o.out then doc.template = strata.worldgen.format(t) end
    cli.json(doc)
  elseif not o.out then
    cli.write(strata.worldgen.render(t, { color = cli.color(1) }))
  end
  return 0
end

return M
