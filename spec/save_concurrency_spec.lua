-- Saves by two processes at once (docs/saves.md, "Two processes"): full saves
-- to one path take turns under the path's lock, each with a temporary of its
-- own; a world that saves to its file after another process saved there is
-- refused unless it asks to overwrite.
local strata = require "strata"
local support = require "support"

local LUA = "lua5.4"
local MODS = { mods = { "base" }, mod_path = { "mods" } }

-- Starts `save_child.lua ARGS` in the background; returns the file its output
-- and exit status go to.
local function start(args, out)
  os.execute(("(%s spec/fixtures/save_child.lua %s > %s 2>&1; echo \"exit:$?\" >> %s) &"):format(
    LUA, args, support.q(out), support.q(out)))
  return out
end

-- Waits for a child's output file to end with its status; returns output, status.
local function finish(out)
  for _ = 1, 6000 do
    local s = support.read(out)
    local body, code = (s or ""):match("^(.-)exit:(%d+)%s*$")
    if code then return body, tonumber(code) end
    os.execute("sleep 0.01")
  end
  error("child did not finish: " .. out)
end

-- The tags of a saved file's objects, and their count.
local function tags_of(path)
  local w = strata.world.open(path, MODS)
  local seen, n = {}, 0
  for _, o in ipairs(w:objects()) do
    n = n + 1
    seen[o.props.tag] = (seen[o.props.tag] or 0) + 1
  end
  return seen, n
end

describe("two processes saving a new world to one path at once", function()
  it("take turns: each save is whole or one clear line, never a crash (12 rounds)", function()
    local dir = support.tempdir()
    local path = dir .. "/w.db"
    local saved_both = 0
    for round = 1, 12 do
      local go = dir .. "/go"
      os.remove(go)
      local outs = {
        start(("new %s a%d %s"):format(support.q(path), round, support.q(go)), dir .. "/a.out"),
        start(("new %s b%d %s"):format(support.q(path), round, support.q(go)), dir .. "/b.out"),
      }
      os.execute("sleep 0.3") -- the worlds are built meanwhile; the saves wait for go either way
      support.write(go, "")
      local saved = {}
      for i, out in ipairs(outs) do
        local body, code = finish(out)
        local tag = (i == 1 and "a" or "b") .. round
        if code == 0 then
          assert.equal("saved " .. tag .. "\n", body)
          saved[tag] = true
        else
          -- the one refusal allowed: the other save held the path past the wait
          assert.equal(1, code, body)
          assert.matches("^[^\n]*another process is saving it %(still busy after %d+ ms%)\n$", body)
        end
        os.remove(out)
      end
      assert.is_true(next(saved) ~= nil, "round " .. round .. ": neither save succeeded")
      if saved["a" .. round] and saved["b" .. round] then saved_both = saved_both + 1 end
      -- the file is one save whole, of a process that said it saved
      local seen, n = tags_of(path)
      assert.equal(2000, n)
      local tag = next(seen)
      assert.equal(2000, seen[tag])
      assert.is_true(saved[tag], "round " .. round .. ": the file holds " .. tag .. ", which did not save")
      assert.same({}, support.write_leftovers(path))
    end
    os.execute("rm -rf " .. support.q(dir))
    _ = saved_both
  end)
end)
