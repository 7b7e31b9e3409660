-- strata run --watch: a mod of the script's worlds is reloaded (strata.reload)
-- when a file in its folder changes; a reload that fails is reported on
-- stderr and the world goes on as it was. The spec writes the files and
-- waits for what the process prints, each wait with a generous bound that
-- is never the verdict (what was printed is).
local support = require "support"
local sh, q, write, read = support.sh, support.q, support.write, support.read

local bin = os.getenv("STRATA_BIN")

-- The text of path, "" while it is not there.
local function text_of(path)
  local f = io.open(path)
  if not f then return "" end
  local s = f:read("a")
  f:close()
  return s
end

-- Waits until path's text has pattern (plain), at most 20 s; returns the text.
local function wait_for(path, pattern)
  for _ = 1, 400 do
    if text_of(path):find(pattern, 1, true) then break end
    sh("sleep 0.05")
  end
  return text_of(path)
end

local TOKEN = 'data:add{ _type = "base.token", _id = "lava", glyph = "%s" }\n'

describe("strata run --watch", function()
  local dir
  after_each(function()
    if dir then
      write(dir .. "/stop", "")
      wait_for(dir .. "/status", "\n")
      os.execute("rm -rf " .. q(dir))
      dir = nil
    end
  end)

  it("reloads a mod whose file changed, reports a failed reload and goes on", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    dir = support.tempdir()
    write(dir .. "/mods/hot/mod.lua", 'return { id = "hot", version = "0.1.0", requires = { base = "*" } }\n')
    write(dir .. "/mods/hot/init.lua", TOKEN:format("1"))
    -- The script prints the token's glyph whenever it changes, until a file "stop" appears.
    write(dir .. "/script.lua", [[
      io.stdout:setvbuf("no")
      local w = strata.world.new{ seed = 1, mods = { "base", "hot" }, mod_path = { "mods" } }
      local last
      local t = uv.new_timer()
      t:start(0, 20, function()
        local glyph = w.data["base.token"]:get("hot.lava").glyph
        if glyph ~= last then print("glyph " .. glyph) last = glyph end
        local f = io.open("stop")
        if f then f:close() t:close() end
      end)
    ]])
    os.execute(("cd %s && (timeout 60 %s run --watch script.lua >out 2>err; echo $? >status) &"):format(q(dir), q(bin)))
    assert.matches("^glyph 1\n", wait_for(dir .. "/out", "glyph 1"))
    write(dir .. "/mods/hot/init.lua", TOKEN:format("2"))
    assert.equal("glyph 1\nglyph 2\n", wait_for(dir .. "/out", "glyph 2"))
    assert.equal("strata: run: --watch: reloaded mod hot\n", wait_for(dir .. "/err", "hot\n"))
    write(dir .. "/mods/hot/init.lua", "data:add{ oops\n")
    local err = wait_for(dir .. "/err", "failed")
    assert.matches("^strata: run: %-%-watch: reloaded mod hot\nstrata: run: %-%-watch: strata%.reload hot: failed, "
      .. "nothing changed: [^\n]*hot/init%.lua:%d+: [^\n]*\n$", err)
    write(dir .. "/mods/hot/init.lua", TOKEN:format("3"))
    assert.equal("glyph 1\nglyph 2\nglyph 3\n", wait_for(dir .. "/out", "glyph 3"))
    write(dir .. "/stop", "")
    assert.equal("0\n", wait_for(dir .. "/status", "\n"))
  end)

  it("is in strata help run", function()
    if not bin then pending("STRATA_BIN not set (run through ctest)") return end
    local out, code = sh(q(bin) .. " help run")
    assert.equal(0, code)
    assert.matches("usage: strata run %[%-%-watch%] FILE%.lua", out)
  end)
end)
