-- The command line's conventions (issue 37, "A good citizen"), the same for
-- every command because one parser reads them all from each command's table
-- (strata.cli): --opt value and --opt=value, short aliases, -- ending the
-- options, '-' for standard input or output wherever a file is read or
-- written, exit status 2 and a hint for a mistake in the arguments (1 stays
-- for what fails at run time), --help generated from the same table, -V,
-- --json, and no-color.org's NO_COLOR rule. Run through the built executable.
local support = require "support"

local bin = os.getenv("STRATA_BIN") or "build/strata"
local src = os.getenv("STRATA_SOURCE_DIR") or "."
local q = support.q
local MODS = "--mod-path " .. q(src .. "/mods") .. " --mod-path " .. q(src .. "/spec/fixtures/mods")
local COMMANDS = { "run", "layout", "render", "play", "worldgen", "grid" }

-- Runs `strata ARGS` (NO_COLOR=1, stdin from /dev/null unless redirected in
-- args); returns the output (stdout and stderr) and the status.
local function strata(args) return support.sh("NO_COLOR=1 " .. q(bin) .. " " .. args) end
local function stdout_of(args) return support.sh("NO_COLOR=1 " .. q(bin) .. " " .. args .. " 2>/dev/null") end

local function usage(cmd, args, pattern)
  local out, code = strata(args .. " </dev/null")
  return support.usage_line(cmd, out, code, pattern, args)
end

local HUT = [["hut" { Reset("grass") Position(MIDDLE, {3 3}, Margins(1, Reset("wall"), Reset("floor"))) }
]]
local dir, grid
setup(function()
  dir = support.tempdir()
  support.write(dir .. "/hut.txt", HUT)
  support.write(dir .. "/--hut.txt", HUT)
  grid = "grid " .. MODS .. " --world " .. q(dir .. "/g.db")
  for _, a in ipairs{ grid .. " --mods base,xyzgrid init", grid .. " add xyzgrid.map12a xyzgrid.map12b", grid .. " spawn",
    "worldgen --dims 10x10x2 --seed 4 -o " .. q(dir .. "/t.txt") } do
    local out, code = strata(a)
    assert(code == 0, out)
  end
end)
teardown(function() os.execute("rm -rf " .. q(dir)) end)

describe("options", function()
  it("take --opt value, --opt=value and a short alias alike", function()
    local a = stdout_of("worldgen --dims 10x10x2 --seed 3")
    assert.equal(a, (stdout_of("worldgen --dims=10x10x2 --seed=3")))
    assert.equal(0, select(2, strata("worldgen --dims 10x10x2 --seed 3 -o " .. q(dir .. "/o1.txt"))))
    assert.equal(0, select(2, strata("worldgen --dims 10x10x2 --seed 3 --output=" .. q(dir .. "/o2.txt"))))
    assert.equal(0, select(2, strata("worldgen --dims 10x10x2 --seed 3 -o" .. q(dir .. "/o3.txt"))))
    assert.equal(support.read(dir .. "/o1.txt"), support.read(dir .. "/o2.txt"))
    assert.equal(support.read(dir .. "/o1.txt"), support.read(dir .. "/o3.txt"))
    local out, code = strata(grid .. " --json list")
    assert.equal(0, code, out)
  end)

  it("end at --: what follows is an argument, even when it begins with --", function()
    local want = stdout_of("layout --size 5x5 --seed 3 " .. q(dir .. "/hut.txt") .. " hut")
    assert.equal("ggggg\ngwwwg\ngwfwg\ngwwwg\nggggg\n", want)
    local out, code = support.sh("cd " .. q(dir) .. " && NO_COLOR=1 " .. q(bin) .. " layout --size=5x5 --seed 3 -- --hut.txt hut")
    assert.equal(0, code, out)
    assert.equal(want, out)
  end)
end)

describe("a mistake in the arguments", function()
  it("is an unknown option named with the nearest known ones, exit 2, in every command", function()
    usage("run", "run --verbos x.lua", "unknown option '%-%-verbos' %(nearest known: %-%-help, %-%-watch%)")
    usage("layout", "layout --sed 3 x", "unknown option '%-%-sed' %(nearest known: %-%-seed")
    usage("render", "render --sed 3 x --svg x.svg", "unknown option '%-%-sed' %(nearest known: %-%-seed")
    usage("play", "play --sed 3", "unknown option '%-%-sed' %(nearest known: %-%-seed")
    usage("worldgen", "worldgen --sed 3", "unknown option '%-%-sed' %(nearest known: %-%-seed")
    usage("grid", "grid --wrld x.db list", "unknown option '%-%-wrld' %(nearest known: %-%-world")
    usage("grid list", grid .. " list --yes", "unknown option '%-%-yes'")
  end)

  it("is a missing value, a bad value, a missing argument or one too many, exit 2", function()
    usage("worldgen", "worldgen --seed", "%-%-seed needs a value %(N%)")
    usage("worldgen", "worldgen --seed x", "%-%-seed must be an integer, got 'x'")
    usage("worldgen", "worldgen --path-alg astr", "%-%-path%-alg must be one of astar, greedy, bfs, dijkstra, got 'astr'")
    usage("worldgen", "worldgen --no-check=yes", "%-%-no%-check takes no value")
    usage("layout", "layout x --attempts 0", "%-%-attempts must be an integer of at least 1, got '0'")
    usage("layout", "layout", "missing FILE_OR_ID")
    usage("layout", "layout a b c", "unexpected argument 'c'")
    usage("render", "render a b --svg x.svg", "unexpected argument 'b'")
    usage("run", "run", "missing FILE%.lua")
    usage("grid list", grid .. " list extra", "list: unexpected argument 'extra'")
    usage("grid path", grid .. " path 1 0 map12a 1", "path: missing Y2")
    usage("grid", grid .. " spwn", "unknown subcommand 'spwn' %(nearest known: spawn")
    local out, code = strata("frobnicate")
    assert.equal(2, code, out)
    assert.matches("^strata: unknown command 'frobnicate' %(nearest known: [^\n]*%); try 'strata help'\n$", out)
    out, code = strata("")
    assert.equal(2, code, out)
    assert.matches("^usage: strata COMMAND", out)
  end)

  it("is told apart from a failure at run time, which stays exit 1", function()
    local out, code = strata("render /no/such.db --svg " .. q(dir .. "/x.svg"))
    support.refused_line("render", out, code, "[Nn]o such file")
    out, code = strata(grid .. " show nowhere")
    support.refused_line("grid", out, code, "no map has Z 'nowhere'")
  end)
end)

describe("--help", function()
  -- Every option of the table, with the first words of its help, is in the text.
  local function covers(text, options, what)
    for _, d in ipairs(options or {}) do
      assert.is_truthy(text:find("--" .. d.name, 1, true), what .. ": --" .. d.name)
      assert.is_truthy(text:find(d.help:match("^[^\n]*"):sub(1, 30), 1, true), what .. ": help of --" .. d.name)
      if d.short then assert.is_truthy(text:find("-" .. d.short .. ", --" .. d.name, 1, true), what) end
    end
  end

  it("is made from the same table as the parser, for each command and subcommand", function()
    for _, name in ipairs(COMMANDS) do
      local spec = require("strata.cmd." .. name).spec
      local out, code = strata(name .. " --help")
      assert.equal(0, code, name)
      assert.matches("^usage: strata " .. name, out)
      covers(out, spec.options, name)
      assert.equal(out, (strata(name .. " -h")))
      assert.equal(out, (strata("help " .. name)))
      for _, sub in ipairs(spec.subcommands or {}) do
        assert.is_truthy(out:find(sub.help:match("^[^\n]*"), 1, true), name .. " lists " .. sub.name)
        local text = strata(name .. " " .. sub.name .. " --help")
        assert.matches("^usage: strata " .. name .. " %[options%] " .. sub.name, text)
        covers(text, sub.options, name .. " " .. sub.name)
        covers(text, spec.options, name .. " " .. sub.name)
      end
    end
  end)

  it("wins over a mistake beside it", function()
    local out, code = strata("layout --sed 3 --help")
    assert.equal(0, code, out)
    assert.matches("^usage: strata layout", out)
  end)
end)

describe("the version", function()
  it("is printed by -V, --version and version", function()
    local out, code = strata("-V")
    assert.equal(0, code)
    assert.matches("^strata %d+%.%d+%.%d+ %(Lua 5%.4%)\n$", out)
    assert.equal(out, (strata("--version")))
    assert.equal(out, (strata("version")))
  end)
end)

describe("'-'", function()
  it("reads standard input where a command reads a file", function()
    local hut = q(dir .. "/hut.txt")
    assert.equal(stdout_of("layout " .. hut .. " hut --size 5x5 --seed 3"),
      (stdout_of("layout - hut --size 5x5 --seed 3 < " .. hut)))
    local shown = stdout_of("worldgen --read " .. q(dir .. "/t.txt"))
    assert.matches("floor 1 of 2", shown)
    assert.equal(shown, (stdout_of("worldgen --read - < " .. q(dir .. "/t.txt"))))
    support.write(dir .. "/s.lua", "print('from stdin', arg[0], arg[1]) return 5")
    local out, code = strata("run - one < " .. q(dir .. "/s.lua"))
    assert.equal(5, code)
    assert.equal("from stdin\t-\tone\n", out)
  end)

  it("writes standard output where a command writes a file", function()
    local out = stdout_of("worldgen --dims 10x10x2 --seed 4 -o -")
    assert.equal(support.read(dir .. "/t.txt"), out)
    local world = select(2, support.map_file(6, 4))
    assert.equal(0, select(2, strata("render " .. q(world) .. " --svg " .. q(dir .. "/p.svg"))))
    assert.equal(support.read(dir .. "/p.svg"), (stdout_of("render " .. q(world) .. " --svg -")))
    assert.equal(0, select(2, strata("render " .. q(world) .. " --png " .. q(dir .. "/p.png"))))
    assert.equal(support.read(dir .. "/p.png"), (stdout_of("render " .. q(world) .. " --png -")))
  end)

  it("is refused for a world file, an SQLite database, and for two inputs at once", function()
    local sqlite = "cannot be '%-': a world file is an SQLite database"
    usage("render", "render - --svg x.svg", sqlite)
    usage("play", "play - --script x", sqlite)
    usage("grid", "grid --world - list", sqlite)
    usage("layout", "layout - hut --glyphs -", "%-%-glyphs and FILE_OR_ID cannot both be '%-' %(standard input is read once%)")
    usage("worldgen", "worldgen --json -o -", "%-%-json prints on standard output")
  end)
end)

describe("NO_COLOR", function()
  -- `strata ARGS` on a pseudo-terminal (script(1)), NO_COLOR as env says.
  local function on_tty(env, args)
    return (support.sh(env .. " script -qec " .. q(q(bin) .. " " .. args) .. " /dev/null </dev/null"))
  end

  it("turns colour off only when set to something (no-color.org), wherever colour is decided", function()
    -- the commands' (strata.cli's helper) and the library's (strata.markup's default)
    support.write(dir .. "/markup.lua", 'io.write(strata.markup.render("|rred|n"))')
    local runs = { "worldgen --dims 10x10x1 --seed 2", "run " .. q(dir .. "/markup.lua"),
      "layout " .. q(dir .. "/hut.txt") .. " --glyphs " .. q(src .. "/spec/fixtures/keeperrl/glyphs.txt") }
    for _, args in ipairs(runs) do
      assert.matches("\27%[", on_tty("env -u NO_COLOR", args), args)
      assert.matches("\27%[", on_tty("NO_COLOR=", args), "NO_COLOR empty: " .. args)
      assert.not_matches("\27%[", on_tty("NO_COLOR=1", args), "NO_COLOR=1: " .. args)
    end
  end)
end)

describe("--json", function()
  -- python3 (a listed dependency) reads the output as one JSON document and
  -- prints what expr picks from it (d).
  local function pick(output, expr)
    local file = dir .. "/doc.json"
    support.write(file, output)
    local out, code = support.sh("python3 -c " .. q("import json,sys; d = json.load(open(sys.argv[1])); print(" .. expr .. ")")
      .. " " .. q(file))
    assert.equal(0, code, out)
    return (out:gsub("\n$", ""))
  end
  local function doc(args)
    local out, code = stdout_of(args)
    assert.equal(0, code, args)
    assert.matches("^[{%[][^\n]*\n$", out, 1, args) -- one document, on one line
    return out
  end

  it("is on grid list, show and path", function()
    local list = doc(grid .. " list --json")
    assert.equal("2 xyzgrid.map12a map12a 3 5", pick(list, "len(d['maps']), d['maps'][0]['id'], d['maps'][0]['z'], "
      .. "d['maps'][0]['rooms'], d['maps'][0]['exits']"))
    local show = doc(grid .. " show map12a --json")
    assert.equal("xyzgrid.map12a 4 1 [1, 0, 'map12b'] <class 'float'>", pick(show, "d['id'], len(d['nodes']), "
      .. "len(d['transitions']), d['transitions'][0]['to'], type(d['links'][0]['weight'])"))
    local path = doc(grid .. " path 1 0 map12a 1 1 map12b --json")
    assert.equal("[1, 0, 'map12a'] [1, 1, 'map12b'] ['w', 'n', 'e', 'n']", pick(path, "d['from'], d['to'], d['steps']"))
  end)

  it("is on worldgen's figures and render --info", function()
    local gen = doc("worldgen --dims 10x10x2 --seed 4 --json")
    assert.equal("[10, 10, 2] 4 2 True", pick(gen, "d['dims'], d['seed'], len(d['floors']), "
      .. "d['template'] == open(sys.argv[1].replace('doc.json', 't.txt')).read()"))
    local world = select(2, support.map_file(6, 4))
    local info = doc("render " .. q(world) .. " --info --json --path 0,0,5,3")
    assert.equal("6 4 {'floor': 24} 5", pick(info, "d['width'], d['height'], d['tokens'], d['path']['steps']"))
    local text = stdout_of("render " .. q(world) .. " --info")
    assert.matches("^map %d+: 6x4, from ", text)
  end)

  it("writes an empty list as [] and an empty object as {}", function()
    local empty = "grid " .. MODS .. " --world " .. q(dir .. "/empty.db")
    assert.equal(0, select(2, strata(empty .. " --mods base,xyzgrid init")))
    assert.equal('{"maps":[]}\n', doc(empty .. " list --json"))
    assert.equal(0, select(2, strata(empty .. " add xyzgrid.map1")))
    assert.equal("[] {} True", pick(doc(empty .. " show map1 --json"), "d['transitions'], d['options'], len(d['links']) > 0"))
    assert.equal("[]", pick(doc(grid .. " path 1 0 map12a 1 0 map12a --json"), "d['steps']"))
  end)

  it("is the core's text (strata.json.encode), a refusal one line naming the JSON path", function()
    local cli = require "strata.cli"
    local err = support.err_of(cli.json, { maps = { { id = "\255" } } })
    assert.matches("^%-%-json: %$%.maps%[0%]%.id: a string that is not UTF%-8[^\n]*$", err)
  end)
end)
