-- The documentation runs: every Lua code block of README.md and docs/lua-api.md
-- is executed (issue "A repository that stands alone"). A block whose first
-- line is `-- mods/<mod>/<file>.lua` is written to that file in a temporary
-- folder instead; a block starting `-- in a mod's init.lua` is run as the
-- init.lua of a mod of its own. Each other block runs as a script in that
-- folder, with the blocks before it in the same file already run. The other
-- files of docs/ show fragments (`...` where a mod's own code goes) and are
-- not run.
local root = os.getenv("STRATA_SOURCE_DIR") or "."

local function blocks(path)
  local f = assert(io.open(root .. "/" .. path))
  local text = f:read("a")
  f:close()
  local out = {}
  for body in text:gmatch("\n```lua\n(.-)\n```") do out[#out + 1] = body end
  return out
end

local support = require "support"
local sh = support.sh

-- support.write with a newline after text.
local function write_line(path, text) support.write(path, text .. "\n") end

local function run_file(doc)
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. dir))
  local ran, written = 0, {}
  for i, body in ipairs(blocks(doc)) do
    local file = body:match("^%-%- (mods/[%w_]+/[%w_]+%.lua)")
    if file then
      write_line(dir .. "/" .. file, body)
      written[file:match("^mods/([%w_]+)/")] = true
    elseif body:match("^%-%- in a mod's init%.lua") then
      local mod = "doc" .. i
      write_line(("%s/mods/%s/mod.lua"):format(dir, mod),
        ('return { id = "%s", version = "0.1.0", requires = { base = "*" } }'):format(mod))
      write_line(("%s/mods/%s/init.lua"):format(dir, mod), body)
      write_line(("%s/block%d.lua"):format(dir, i), ('local strata = require "strata"\n' ..
        'strata.world.new{ mods = { "%s" }, mod_path = { "mods" } }'):format(mod))
      local out, code = sh(("cd %s && lua5.4 block%d.lua"):format(dir, i))
      assert.equal(0, code, ("%s block %d (a mod's init.lua):\n%s\n%s"):format(doc, i, body, out))
      ran = ran + 1
    else
      write_line(("%s/block%d.lua"):format(dir, i), 'local strata = require "strata"\n' .. body)
      local out, code = sh(("cd %s && lua5.4 block%d.lua"):format(dir, i))
      assert.equal(0, code, ("%s block %d:\n%s\n%s"):format(doc, i, body, out))
      ran = ran + 1
    end
  end
  -- the mods a document shows load into a world
  for mod in pairs(written) do
    write_line(dir .. "/load_" .. mod .. ".lua", ('require("strata").world.new{ mods = { "%s" }, mod_path = { "mods" } }'):format(mod))
    local out, code = sh(("cd %s && lua5.4 load_%s.lua"):format(dir, mod))
    assert.equal(0, code, ("%s: mod %s does not load:\n%s"):format(doc, mod, out))
    ran = ran + 1
  end
  os.execute("rm -rf " .. dir)
  return ran
end

describe("the documentation", function()
  for _, doc in ipairs{ "README.md", "docs/lua-api.md" } do
    it(doc .. ": every Lua block runs", function()
      assert.is_true(run_file(doc) > 0)
    end)
  end
end)

-- Code and comments cite only documents of the repository (issue 33): a
-- reader of a comment can open what it names. Every `*.md` named in the
-- sources is a file here; no outside document by name or section number
-- (the old API.md, umg-spec.md, "API section 7"), no path to the shared folder beside the
-- repository. spec/fixtures holds other projects' files and is left out, as
-- is this file, which names what it looks for.
describe("the sources", function()
  local function tracked()
    local out = support.sh("cd " .. root .. " && git ls-files core bindings lua spec scripts examples mods cmake CMakeLists.txt")
    local files = {}
    for path in out:gmatch("[^\n]+") do
      if not path:match("^spec/fixtures/") and path ~= "spec/docs_spec.lua" and not path:match("%.png$") then
        files[#files + 1] = path
      end
    end
    return files
  end

  local function exists(path)
    local f = io.open(root .. "/" .. path)
    if f then f:close() end
    return f ~= nil
  end

  it("cite only documents in the repository", function()
    local bad = {}
    local files = tracked()
    assert.is_true(#files > 100)
    for _, path in ipairs(files) do
      local text = assert(support.read(root .. "/" .. path), path)
      local n = 0
      for line in (text .. "\n"):gmatch("([^\n]*)\n") do
        n = n + 1
        local function flag(why) bad[#bad + 1] = ("%s:%d: %s"):format(path, n, why) end
        for doc in line:gmatch("([%w_./-]*%.md)%f[^%w]") do
          local rel = doc:gsub("^%./", ""):gsub("^/", "")
          if not exists(rel) then flag(doc .. " is not a file of the repository") end
        end
        if line:find("umg-spec", 1, true) then flag("umg-spec") end
        if line:find(".." .. "/shared", 1, true) then flag("a path out of the repository") end
        if line:match("API,? sections? %d") or line:match("API %(sections? %d") then flag("a section of the API document") end
        if line:match("[Ss]ections? %d") and not line:match("docs/") then flag("a section number of an outside document") end
      end
    end
    assert.same({}, bad)
  end)
end)

-- docs/ is reference, not diary (issue 33): docs/benchmarks.md holds each
-- benchmark's command, method and current table, the history is in
-- CHANGELOG.md, and the README's headline figures are rows of its tables.
describe("docs/ as reference", function()
  local function doc(path) return assert(support.read(root .. "/" .. path), path) end

  -- The README is a tour: short, and its modder's mod is the one
  -- spec/first_hour_spec.lua plays, word for word (comments aside).
  it("README.md fits in 250 lines", function()
    local _, lines = doc("README.md"):gsub("\n", "")
    assert.is_true(lines <= 250, "README.md has " .. lines .. " lines")
  end)

  it("the README's crypt mod is spec/fixtures/mods/crypt", function()
    local function code(text) -- (the fixture's own opening comment lines left out)
      while text:match("^%-%-") do text = text:gsub("^[^\n]*\n", "", 1) end
      return (text:gsub("\n$", ""))
    end
    local readme = doc("README.md")
    for _, file in ipairs{ "mod.lua", "init.lua" } do
      local shown = readme:match("\n```lua\n%-%- mods/crypt/" .. file:gsub("%.", "%%.") .. "\n(.-)\n```")
      assert.is_not_nil(shown, "README.md shows no mods/crypt/" .. file)
      assert.equal(code(doc("spec/fixtures/mods/crypt/" .. file)), shown)
    end
  end)

  it("docs/benchmarks.md fits in 280 lines", function()
    local _, lines = doc("docs/benchmarks.md"):gsub("\n", "")
    assert.is_true(lines <= 280, "docs/benchmarks.md has " .. lines .. " lines")
  end)

  it("the README's headline figures are rows of docs/benchmarks.md", function()
    local readme, bench = doc("README.md"), doc("docs/benchmarks.md")
    local section = assert(readme:match("\n## Headline figures\n(.-)\n## "))
    local rows, missing = 0, {}
    for row in section:gmatch("\n(|[^\n]*)") do
      local figures = {}
      -- the figures of every cell but the first (the workload's name)
      for n in row:gsub("^|[^|]*", ""):gmatch("%d[%d.,]*") do figures[#figures + 1] = n end
      if #figures >= 3 and not row:match("^|%-") then
        rows = rows + 1
        local found = false
        for line in bench:gmatch("[^\n]+") do
          local all = line:sub(1, 1) == "|"
          for _, n in ipairs(figures) do
            if all and not line:find("| " .. n, 1, true) and not line:find(" " .. n .. " ", 1, true) then all = false end
          end
          if all then found = true break end
        end
        if not found then missing[#missing + 1] = row end
      end
    end
    assert.is_true(rows > 0)
    assert.same({}, missing)
  end)

  it("no page of docs/ keeps a diary", function()
    local out = support.sh("cd " .. root .. " && git ls-files 'docs/*.md'")
    local bad = {}
    for path in out:gmatch("[^\n]+") do
      local n = 0
      for line in (doc(path) .. "\n"):gmatch("([^\n]*)\n") do
        n = n + 1
        for _, p in ipairs{ "%d%d%d%d%-%d%d%-%d%d", "[Tt]his session", "[Aa] later session",
                            "[Aa] session earlier", "the first version", "[Ww]e tried" } do
          if line:match(p) then bad[#bad + 1] = ("%s:%d: %s"):format(path, n, line:match(p)) end
        end
      end
    end
    assert.same({}, bad)
  end)
end)
