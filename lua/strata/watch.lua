-- strata.watch: reloads mods when their files change (`strata run --watch`).
--
--   local stop = watch.start(uv, report)
--
-- Watches the folder of every mod of the worlds live now, and the folders
-- under it, with luv file events; when a file changes, and no other change
-- has come for M.quiet_ms (an editor's save is several events), runs
-- strata.reload on that mod (in every live world that loaded it) and calls
-- report("reloaded mod ID"), or report(the error, on one line) when it failed: a
-- failed reload changes nothing, and the world goes on. The handles are
-- unreferenced: they never keep the loop alive, so a script still ends when
-- its own handles are done. stop() closes them.
local private = require "strata.private"

local M = {}

M.quiet_ms = 100
-- The folders watched per mod at most (its own and those under it): a mod
-- folder of a hostile shape costs no more than this many watches.
M.max_folders = 64

-- dir and the folders under it (links not followed), at most M.max_folders.
local function folders(uv, dir)
  local out, i = { dir }, 1
  while i <= #out and #out < M.max_folders do
    local scan = uv.fs_scandir(out[i])
    while scan and #out < M.max_folders do
      local name, kind = uv.fs_scandir_next(scan)
      if not name then break end
      if kind == "directory" then out[#out + 1] = out[i] .. "/" .. name end
    end
    i = i + 1
  end
  return out
end

-- Every mod of the live worlds: id -> its folders (a mod loaded from two
-- folders by two worlds: both).
local function live_mods()
  local dirs = {}
  for w in pairs(private.worlds) do
    for _, m in ipairs(w._mods) do
      dirs[m.id] = dirs[m.id] or {}
      dirs[m.id][m.dir] = true
    end
  end
  return dirs
end

function M.start(uv, report)
  local handles = {}
  local function own(h) h:unref() handles[#handles + 1] = h return h end
  for id, dirs in pairs(live_mods()) do
    local quiet = own(uv.new_timer())
    local function reload()
      local ok, err = pcall(require("strata").reload, { id })
      -- (one line: a reload's errors come as a list)
      report(ok and "reloaded mod " .. id or (tostring(err):gsub("\n%s*", " ")))
    end
    for dir in pairs(dirs) do
      for _, folder in ipairs(folders(uv, dir)) do
        local function cannot(err) report(("cannot watch %s: %s"):format(folder, tostring(err))) end
        local started, err = own(uv.new_fs_event()):start(folder, {}, function(err)
          if err then return cannot(err) end
          quiet:stop()
          quiet:start(M.quiet_ms, 0, reload)
        end)
        if not started then cannot(err) end
      end
    end
  end
  return function()
    for _, h in ipairs(handles) do
      if not h:is_closing() then h:close() end
    end
  end
end

return M
