-- Output is never lost in silence: a write to a full device or past the file
-- size limit is an error (exit 1, one line, no partial file left), and a path
-- is looked at before it is opened: a FIFO, a directory or a device is refused
-- with one line (reading one would hang or never end; renaming a new file over
-- one, or over a symbolic link, would replace it).
--
-- A full disk is made without privileges: stdout goes to /dev/full, and files
-- are written under `prlimit --fsize` (a write past RLIMIT_FSIZE fails with
-- EFBIG; strata ignores SIGXFSZ, so it reports the error instead of dying).
-- A FIFO read by old code would block: those runs are under `timeout`, a guard
-- whose length plays no part in the verdict (a fixed run takes milliseconds).
local support = require "support"
local strata = require "strata"

local bin = os.getenv("STRATA_BIN") or "build/strata"
local src = os.getenv("STRATA_SOURCE_DIR") or "."
local q = support.q
local MODS = "--mod-path " .. q(src .. "/mods") .. " --mod-path " .. q(src .. "/spec/fixtures/mods")

local function strata_cmd(args, prefix)
  return "NO_COLOR=1 " .. (prefix or "") .. "timeout 60 " .. q(bin) .. " " .. args
end

-- Runs `strata ARGS` with stdout sent to /dev/full; returns stderr and the status.
local function to_full(args)
  return support.sh("{ " .. strata_cmd(args) .. " >/dev/full </dev/null; }")
end

local function test(flag, path) return os.execute("test " .. flag .. " " .. q(path)) == true end

local one_line = support.refused_line

local dir, db
setup(function()
  dir, db = support.map_file(40, 20)
  local g = "grid " .. MODS .. " --world " .. q(dir .. "/g.db")
  assert(select(2, support.sh(strata_cmd(g .. " --mods base,xyzgrid init"))) == 0)
  assert(select(2, support.sh(strata_cmd(g .. " add xyzgrid.map12a"))) == 0)
  assert(os.execute("mkfifo " .. q(dir .. "/fifo")))
  support.write(dir .. "/target", "the file a link points to\n")
  assert(os.execute("ln -s target " .. q(dir .. "/link")))
end)
teardown(function() os.execute("rm -rf " .. q(dir)) end)

describe("output to a full standard output", function()
  local FULL = "cannot write to standard output: No space left on device"

  it("is an error for every command that prints, however short the output", function()
    local cases = {
      { "worldgen", "worldgen --dims 5x5x1" },             -- held in the buffer until the end
      { "worldgen", "worldgen --dims 400x200x1 --no-check" }, -- fails while writing
      { "layout", "layout crypt.level --tokens --mods crypt " .. MODS },
      { "grid", "grid " .. MODS .. " --world " .. q(dir .. "/g.db") .. " show map12a" },
      { "grid", "grid " .. MODS .. " --world " .. q(dir .. "/g.db") .. " list" },
    }
    for _, c in ipairs(cases) do
      local out, code = to_full(c[2])
      one_line(c[1], out, code, FULL)
    end
  end)

  it("is an error for a script's print, which Lua does not check", function()
    local script = dir .. "/print.lua"
    support.write(script, 'print("a line") io.write(("x"):rep(100000))')
    local out, code = to_full("run " .. q(script))
    assert.equal(1, code, out)
    assert.matches("^strata: run: cannot write to standard output", out)
  end)

  it("is an error for help and --version too", function()
    local out, code = to_full("--version")
    assert.equal(1, code, out)
    assert.matches("^strata: " .. FULL .. "\n$", out)
    out, code = to_full("help")
    assert.equal(1, code, out)
    assert.matches("^strata: " .. FULL .. "\n$", out)
  end)
end)

describe("a file written past the file size limit", function()
  -- RLIMIT_FSIZE of 200 bytes: every picture and template below is larger.
  local function limited(args) return support.sh(strata_cmd(args, "prlimit --fsize=200 ") .. " </dev/null") end

  it("is an error, leaving no partial file and the old file as it was", function()
    local svg = dir .. "/full.svg"
    local out, code = limited("render " .. q(db) .. " --svg " .. q(svg))
    one_line("render", out, code, "cannot write '" .. svg:gsub("%p", "%%%0") .. "'.*File too large")
    assert.is_nil(support.read(svg))
    assert.same({}, support.write_leftovers(svg))
    support.write(svg, "old\n")
    out, code = limited("render " .. q(db) .. " --png " .. q(svg) .. " --cell 8")
    one_line("render", out, code, "File too large")
    assert.equal("old\n", support.read(svg))
    assert.same({}, support.write_leftovers(svg))

    local t = dir .. "/full.txt"
    out, code = limited("worldgen --dims 30x30x2 -o " .. q(t))
    one_line("worldgen", out, code, "File too large")
    assert.is_nil(support.read(t))
    assert.same({}, support.write_leftovers(t))
  end)
end)

describe("an output path that is not a regular file", function()
  -- Each writer, given the path; returns its output and status.
  local writers = {
    render = function(path) return support.sh(strata_cmd("render " .. q(db) .. " --svg " .. q(path))) end,
    worldgen = function(path) return support.sh(strata_cmd("worldgen --dims 5x5x1 -o " .. q(path))) end,
  }

  local function refuses(path, kind, still)
    for cmd, write in pairs(writers) do
      local out, code = write(path)
      one_line(cmd, out, code, "'" .. path:gsub("%p", "%%%0") .. "': it is " .. kind)
      assert.is_true(still(), cmd .. " replaced " .. path)
    end
    -- world:save, from Lua
    local world = strata.world.new{ seed = 1 }
    local ok, err = pcall(world.save, world, path)
    assert.is_false(ok)
    assert.matches("cannot save to '" .. path:gsub("%p", "%%%0") .. "': it is " .. kind, err)
    assert.is_true(still(), "world:save replaced " .. path)
    assert.same({}, support.write_leftovers(path))
  end

  it("is refused when a FIFO, a symbolic link or a directory", function()
    refuses(dir .. "/fifo", "a FIFO", function() return test("-p", dir .. "/fifo") end)
    refuses(dir .. "/link", "a symbolic link", function()
      return test("-L", dir .. "/link") and support.read(dir .. "/target") == "the file a link points to\n"
    end)
    refuses(dir, "a directory", function() return test("-d", dir) end)
  end)

  it("is refused when a device node", function()
    local dev = dir .. "/null"
    if not os.execute("mknod " .. q(dev) .. " c 1 3 2>/dev/null") then
      pending("mknod needs root: the device case is covered where the specs run as root")
      return
    end
    refuses(dev, "a character device", function() return test("-c", dev) end)
  end)

  it("is written when it is a regular file or nothing", function()
    local out, code = writers.render(dir .. "/new.svg")
    assert.equal(0, code, out)
    assert.matches("<svg", support.read(dir .. "/new.svg"))
    out, code = writers.worldgen(dir .. "/new.svg")
    assert.equal(0, code, out)
    assert.matches("^strata worldgen", support.read(dir .. "/new.svg"))
  end)
end)

describe("an input path that is not a regular file", function()
  it("is refused at once when a FIFO or a directory", function()
    local fifo, qf = dir .. "/fifo", q(dir .. "/fifo")
    local cases = {
      { "render", "render " .. qf .. " --svg " .. q(dir .. "/x.svg"), "it is a FIFO" },
      { "render", "render " .. q(dir) .. " --svg " .. q(dir .. "/x.svg"), "it is a directory" },
      { "layout", "layout " .. qf .. " x", "it is a FIFO" },
      { "layout", "layout crypt.level --mods crypt " .. MODS .. " --glyphs " .. qf, "it is a FIFO" },
      { "layout", "layout crypt.level --mods crypt " .. MODS .. " --mapping " .. qf .. ":m", "it is a FIFO" },
      { "worldgen", "worldgen --read " .. qf, "it is a FIFO" },
      { "grid", "grid " .. MODS .. " --world " .. qf .. " list", "it is a FIFO" },
      { "grid", "grid " .. MODS .. " --world " .. qf .. " init", "it is a FIFO" },
    }
    for _, c in ipairs(cases) do
      local out, code = support.sh(strata_cmd(c[2]) .. " </dev/null")
      one_line(c[1], out, code, "'" .. (c[3]:find("directory") and dir or fifo):gsub("%p", "%%%0") .. "': " .. c[3])
    end
    assert.is_true(test("-p", fifo))
  end)

  it("is refused by strata.world.open", function()
    local out, code = support.sh("timeout 60 lua5.4 -e " .. q(
      "local ok, e = pcall(require('strata').world.open, " .. ("%q"):format(dir .. "/fifo") .. ") print(ok, e)"))
    assert.equal(0, code, out)
    assert.matches("^false\t[^\n]*cannot open '[^']*/fifo': it is a FIFO", out)
  end)
end)
