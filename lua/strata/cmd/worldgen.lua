-- strata worldgen --dims WxHxZ [options]: generates a multi-floor world
-- template and prints it, writes it (-o), or prints one read back (--read).
local strata = require "strata"
local cli = require "strata.cli"

local M = {
  summary = "generate a multi-floor world template and print it",
  usage = [[
usage: strata worldgen [--dims WxHxZ | --rand] [--conf FILE] [--seed N] [options] [-o FILE]
       strata worldgen --read FILE [--verbose | --silent | --debug]

Generates Z floors of W x H tiles: on each, waypoints joined by hallways,
rooms around the waypoints, stairs to the floors above and below; a start on
the first floor and an exit on the last. Each floor is checked with the
pathfinder and made again until it can be crossed (docs/worldgen.md).

options:
  --dims WxHxZ         floor width, height and number of floors (default 25x25x3)
  --rand               draw the dims from the seed: sides of 10 to 50, 1 to 10 floors
  --conf FILE          read the options from a configuration file (dim_x = 40,
                       seed = 7, ...: docs/worldgen.md); the flags given win
  --seed N             random seed, an integer (default 0)
  --room-variance N    the largest side of a room, at least 3 (default 5)
  --path-alg ALG       the check's search: astar (default), greedy, bfs or dijkstra
  --no-check           do not check that floors can be crossed
  -o FILE              write the template to FILE instead of printing it
  --read FILE          print the template in FILE (written with -o)
  --verbose            say how each floor went, on stderr
  --debug              also each attempt, its waypoints and hallways (wins
                       over --verbose and --silent)
  --silent             nothing on stderr but errors

The template is printed in colour on a terminal unless NO_COLOR is set. Big
worlds (a million tiles or more) show their progress on stderr unless
--silent. Exit status 1 with one line on stderr for a bad option, a file
that cannot be read or written, or a floor that stays impassable.
]],
}

local function is_tty(fd)
  local ok, uv = pcall(require, "luv")
  return ok and uv.guess_handle(fd) == "tty"
end

local function color_on(fd)
  return not os.getenv("NO_COLOR") and is_tty(fd)
end

local SIDE_MAX, CELLS_MAX = 65535, 1 << 28
local BIG = 1000000
local ALGS = { astar = true, greedy = true, bfs = true, dijkstra = true }

-- Errors read "worldgen: message" on one line (strata.cli adds the name).
M.names_errors = true

local function fail(fmt, ...) error(fmt:format(...), 0) end

local function dims_of(s)
  local x, y, z = s:match("^(%d+)x(%d+)x(%d+)$")
  x, y, z = math.tointeger(tonumber(x)), math.tointeger(tonumber(y)), math.tointeger(tonumber(z))
  if not (x and y and z) or x < 1 or y < 1 or z < 1 then
    fail("--dims must be WxHxZ, three whole numbers of at least 1 (e.g. 25x25x3), got '%s'", s)
  end
  if x > SIDE_MAX or y > SIDE_MAX or z > SIDE_MAX or x * y * z > CELLS_MAX then
    fail("--dims %s is too big: at most %d on a side and %d tiles in all", s, SIDE_MAX, CELLS_MAX)
  end
  return { x, y, z }
end

function M.run(args)
  local o = { seed = 0, check = true }
  local i = 1
  while i <= #args do
    local a = args[i]
    local function value()
      i = i + 1
      if args[i] == nil then fail("%s needs a value (see 'strata worldgen --help')", a) end
      return args[i]
    end
    if a == "--dims" then o.dims = dims_of(value())
    elseif a == "--seed" then
      o.seed = cli.integer(value(), a)
      o.given_seed = true
    elseif a == "--room-variance" then
      local v = value()
      o.room_variance = math.tointeger(tonumber(v))
      if not o.room_variance or o.room_variance < 3 then
        fail("--room-variance must be an integer of at least 3 (the smallest room side), got '%s'", v)
      end
    elseif a == "--path-alg" then
      o.path_alg = value()
      if not ALGS[o.path_alg] then fail("--path-alg must be astar, greedy, bfs or dijkstra, got '%s'", o.path_alg) end
    elseif a == "--rand" then o.rand = true
    elseif a == "--conf" then o.conf = value()
    elseif a == "--no-check" then o.check = false
    elseif a == "-o" or a == "--output" then o.out = value()
    elseif a == "--read" then o.read = value()
    elseif a == "--verbose" then o.verbose = true
    elseif a == "--silent" then o.silent = true
    elseif a == "--debug" then o.debug = true
    else fail("unknown option '%s' (see 'strata worldgen --help')", a) end
    i = i + 1
  end
  -- The reference's order: debug wins over the other two, then verbose.
  local level = o.debug and 2 or o.verbose and 1 or o.silent and -1 or 0
  local err = io.stderr

  local t
  if o.rand and o.dims then fail("--rand draws the dims: give --dims or --rand, not both") end
  if o.read then
    if o.dims or o.rand or o.conf or o.given_seed or o.room_variance or o.path_alg or not o.check or o.out then
      fail("--read prints a template as it is: it takes none of --dims, --rand, --conf, --seed, --room-variance, "
        .. "--path-alg, --no-check, -o")
    end
    t = cli.call("strata.worldgen.read", strata.worldgen.read, o.read)
    if level >= 1 then err:write(("strata worldgen: read %s: %dx%dx%d, seed %d\n"):format(o.read, t.dims[1], t.dims[2], t.dims[3], t.seed)) end
  else
    -- the options as generate takes them: the conf file's, then the flags given
    local opts = { conf = o.conf, dims = o.dims, rand = o.rand, seed = o.given_seed and o.seed or nil,
      room_variance = o.room_variance, path_alg = o.path_alg }
    if not o.check then opts.post_check = false end
    opts = cli.call("strata.worldgen.options", strata.worldgen.options, opts)
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
    cli.call("strata.worldgen.write", strata.worldgen.write, t, o.out)
    if level >= 1 then err:write("strata worldgen: wrote ", o.out, "\n") end
  else
    cli.write(strata.worldgen.render(t, { color = color_on(1) }))
  end
  return 0
end

return M
