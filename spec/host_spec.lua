-- The strata host executable: run, help, --version, exit statuses, the luv loop.
local bin = assert(os.getenv("STRATA_BIN"), "STRATA_BIN is set by ctest to the host's path")

local support = require "support"
local sh = support.sh

local function script(text)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

describe("strata (host)", function()
  it("prints its version", function()
    local out, code = sh(bin .. " --version")
    assert.are.equal(0, code)
    assert.matches("^strata %d+%.%d+%.%d+ %(Lua 5%.4%)", out)
  end)

  it("lists its commands with help and takes --help on each", function()
    local out, code = sh(bin .. " help")
    assert.are.equal(0, code)
    assert.matches("run%s+run a Lua script", out)
    out, code = sh(bin .. " run --help")
    assert.are.equal(0, code)
    assert.matches("usage: strata run %[%-%-watch%] FILE%.lua", out)
    out, code = sh(bin .. " help run")
    assert.are.equal(0, code)
    assert.matches("usage: strata run", out)
  end)

  it("fails with one line and a non-zero status on a bad command", function()
    local out, code = sh(bin .. " frobnicate")
    assert.are.equal(2, code)
    assert.matches("^strata: unknown command 'frobnicate' %(nearest known: [^\n]*%); try 'strata help'\n$", out)
    out, code = sh(bin)
    assert.are.equal(2, code)
    assert.matches("usage: strata COMMAND", out)
  end)

  it("runs a script with strata, uv and arg, then the luv loop", function()
    local path = script([[
      local t = uv.new_timer()
      local fired = false
      t:start(5, 0, function() fired = true; t:close(); print("timer fired") end)
      local m = strata.tilemap.new{ width = 3, height = 1, fill = "floor" }
      print(arg[0] ~= nil, arg[1], arg[2], #m:find_path({ 0, 0 }, { 2, 0 }))
    ]])
    local out, code = sh(bin .. " run " .. path .. " one two")
    os.remove(path)
    assert.are.equal(0, code)
    assert.are.equal("true\tone\ttwo\t3\ntimer fired\n", out)
  end)

  it("exits with the integer a script returns", function()
    local path = script("return 7")
    local _, code = sh(bin .. " run " .. path)
    os.remove(path)
    assert.are.equal(7, code)
  end)

  it("reports a script's error and a missing file on one line", function()
    local path = script("error('the floor is lava')")
    local out, code = sh(bin .. " run " .. path)
    os.remove(path)
    assert.are.equal(1, code)
    assert.matches("^strata: .*the floor is lava\n$", out)
    out, code = sh(bin .. " run /nonexistent/x.lua")
    assert.are.equal(1, code)
    assert.matches("^strata: cannot open /nonexistent/x.lua", out)
    out, code = sh(bin .. " run")
    assert.are.equal(2, code) -- a mistake in the arguments
    assert.matches("missing FILE.lua", out)
  end)
end)

describe("strata layout --mod-path", function()
  local q = support.q

  it("is repeatable: each adds a directory, searched in order, then strata's own mods", function()
    local root = assert(os.getenv("STRATA_SOURCE_DIR"))
    local dir = support.tempdir()
    support.write(dir .. "/mine/extra/mod.lua",
      'return { id = "extra", version = "0.1.0", requires = { layouts = "^0.1" } }\n')
    support.write(dir .. "/mine/extra/init.lua", 'data:add{ _type = "base.layout", _id = "box", size = { 4, 3 }, ' ..
      'source = [[ Margins(1, Reset("wall"), Reset("floor")) ]] }\n')
    local cmd = ("cd %s && NO_COLOR=1 %s layout extra.box --mods layouts,extra --mod-path %s --mod-path mine")
      :format(q(dir), bin, q(root .. "/spec/fixtures/mods"))
    local out, code = sh(cmd)
    assert.are.equal("####\n#..#\n####\n", out)     -- drawn with the world's tokens (base's)
    assert.are.equal(0, code)
    out, code = sh(("cd %s && %s layout extra.box --mods layouts,extra --mod-path mine"):format(q(dir), bin))
    assert.are.equal(1, code)
    assert.matches("mod extra requires missing mod layouts", out)
    os.execute("rm -rf " .. q(dir))
    out = sh(bin .. " layout --help")
    assert.matches("%-%-mod%-path DIR%s+a directory to search for mods, searched in the order", out)
  end)
end)

describe("scripts/demo", function()
  it("prints a map with a path drawn across it", function()
    local root = assert(os.getenv("STRATA_SOURCE_DIR"))
    local out, code = sh(bin .. " run " .. root .. "/scripts/demo.lua 7")
    assert.are.equal(0, code)
    assert.matches("demo: 64x22 map, seed 7", out)
    assert.matches("%*%*", out)
    assert.matches("path from %(%d+, %d+%) to %(%d+, %d+%): %d+ steps", out)
  end)
end)
