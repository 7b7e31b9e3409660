-- strata.paths: strata's own mods are always on the mod path, after the
-- user's directories, from any working directory.
local strata = require "strata"
local paths = require "strata.paths"
local realpath = require("strata.core").paths.realpath

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "spec"
local root = os.getenv("STRATA_SOURCE_DIR") or assert(realpath(here .. "/.."))
local bin = os.getenv("STRATA_BIN")
local build = bin and bin:match("^(.*)/[^/]*$")


local support = require "support"
local sh = support.sh

local q = support.q

local tempdir = support.tempdir

local write = support.write

describe("strata.paths", function()
  it("finds the source tree's mods from its own place", function()
    assert.equal(realpath(root .. "/mods"), paths.builtin_mods())
    assert.equal(paths.builtin_mods(), strata.paths.builtin_mods())
  end)

  it("puts the user's directories first and the built-in one last, once", function()
    local b = paths.builtin_mods()
    assert.same({ b }, paths.mod_path())
    assert.same({ "mine", b }, paths.mod_path("mine"))
    assert.same({ "a", "b", b }, paths.mod_path({ "a", "b" }))
    assert.same({ "a", b, "c" }, paths.mod_path({ "a", b, "c" }))
    -- the same directory by another name counts as there
    assert.same({ root .. "/spec/../mods", "x" }, paths.mod_path({ root .. "/spec/../mods", "x" }))
    local list = { "a" }
    assert.are_not.equal(list, paths.mod_path(list))
    assert.same({ "a" }, list)
  end)

  it("refuses what is not a directory or a list of them", function()
    local ok, err = pcall(paths.mod_path, 7)
    assert.is_false(ok)
    assert.matches("mod_path: expected a directory or a list of directories, got number", err)
    ok, err = pcall(paths.mod_path, { "a", false })
    assert.is_false(ok)
    assert.matches("mod_path: entry 2 must be a directory %(a string%), got boolean", err)
  end)

  describe("from a working directory without a mods folder", function()
    local dir
    before_each(function() dir = tempdir() end)
    after_each(function() os.execute("rm -rf " .. q(dir)) end)

    local explicit = [[
      local paths = require "strata.paths"
      local w = strata.world.new{ seed = 1, mod_path = paths.mod_path() }
      print(w:create_object{ kind = "thing" }.kind, w.time == 0)
    ]]
    local default = [[
      local w = strata.world.new{ seed = 1 }
      print(w:create_object{ kind = "thing" }.kind, w.time == 0)
    ]]

    it("strata run finds base", function()
      if not bin then pending("STRATA_BIN not set (run through ctest)") return end
      write(dir .. "/explicit.lua", explicit)
      local out, code = sh(("cd %s && %s run explicit.lua"):format(q(dir), q(bin)))
      assert.are.equal("thing\ttrue\n", out)
      assert.are.equal(0, code)
      write(dir .. "/default.lua", default)
      out, code = sh(("cd %s && %s run default.lua"):format(q(dir), q(bin)))
      assert.are.equal("thing\ttrue\n", out)
      assert.are.equal(0, code)
    end)

    it("plain lua5.4 with the build tree's LUA_PATH finds base", function()
      if not build then pending("STRATA_BIN not set (run through ctest)") return end
      local env = ("LUA_PATH=%s LUA_CPATH=%s"):format(
        q(root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;;"), q(build .. "/lua/?.so;;"))
      write(dir .. "/explicit.lua", "strata = require 'strata'\n" .. explicit)
      local out, code = sh(("cd %s && %s lua5.4 explicit.lua"):format(q(dir), env))
      assert.are.equal("thing\ttrue\n", out)
      assert.are.equal(0, code)
      write(dir .. "/default.lua", "strata = require 'strata'\n" .. default)
      out, code = sh(("cd %s && %s lua5.4 default.lua"):format(q(dir), env))
      assert.are.equal("thing\ttrue\n", out)
      assert.are.equal(0, code)
    end)
  end)

  -- A file read whole is read at most to its cap and a byte, whatever its
  -- size claims: a sparse file of gigabytes is refused at once, named.
  it("read refuses a file past its cap, reading no more than the cap", function()
    local dir = tempdir()
    local f = dir .. "/big.txt"
    write(f, "abcdef")
    assert.are.equal("abcdef", paths.read(f, "cannot read", 6))
    local text, why = paths.read(f, "cannot read", 5)
    assert.is_nil(text)
    assert.are.equal("cannot read '" .. f .. "': it is larger than 5 bytes (the most strata reads of a text file)", why)
    sh("truncate -s 8G " .. q(f))
    text, why = paths.read(f)
    assert.is_nil(text)
    assert.matches("cannot read '" .. f:gsub("%p", "%%%0") .. "': it is larger than 67108864 bytes", why)
    local ok, err = pcall(strata.layout.read_file, f)
    assert.is_false(ok)
    assert.matches("strata.layout.read_file: cannot read '.-big.txt': it is larger than 67108864 bytes", err)
  end)
end)
