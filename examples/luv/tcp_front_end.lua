-- A TCP front end sharing luv's loop with a realtime run: a client types
-- `ring SECONDS`; the world schedules the bell; the run, woken only when the
-- ring is due, advances the world and tells that client `ding at world time T`.
--
--   strata run examples/luv/tcp_front_end.lua [PORT]     # then: nc 127.0.0.1 PORT
--
-- A host passes an options table instead ({ clock =, port =, print = }):
-- spec/luv_examples_spec.lua gives a fake clock and port 0 (any free port)
-- and is a client on the same loop.
local strata, uv = require "strata", require "luv"
local given = ... -- the host's options, or under `strata run` the command line's
local opts = type(given) == "table" and given or { port = tonumber(given) }
local say, here = opts.print or print, debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."

local world = strata.world.new{ seed = 1, mods = { "bell" }, mod_path = { here .. "/mods" } }
local bell = world:create_object{ kind = "bell" }
local clients = {} -- "client3" -> its socket
local told = 0     -- the rings told so far (bell.state holds them all)

local run = world:run_realtime{ loop = uv, clock = opts.clock,
  on_advance = function() -- after each advance: the new rings, to whoever asked
    while told < #bell.state do
      told = told + 1
      local ring = bell.state[told]
      local client = clients[ring.who]
      if client then client:write(("%s at world time %g\n"):format(ring.sound, ring.time)) end
    end
  end }

-- One command line of a client: its answer.
local function command(id, line)
  local verb, arg = line:match("^%s*(%a+)%s*(%S*)%s*$")
  local seconds = tonumber(arg)
  if verb == "ring" and seconds and seconds >= 0 and seconds < 1e6 then
    run:sync() -- world time to now: `after` counts from it
    world:schedule{ after = seconds, handler = "bell.ring", args = { bell = bell, who = id } }
    return ("ok: the bell rings at world time %g\n"):format(world.time + seconds)
  elseif verb == "time" then
    run:sync()
    return ("time %g\n"):format(world.time)
  end
  return "commands: ring SECONDS, time, quit\n"
end

local server = uv.new_tcp()
assert(server:bind("127.0.0.1", opts.port or 7878))
local count = 0
assert(server:listen(16, function(err)
  if err then return say("accept: " .. err) end
  local client = uv.new_tcp()
  server:accept(client)
  count = count + 1
  local id, pending = "client" .. count, ""
  clients[id] = client
  local function bye() clients[id] = nil if not client:is_closing() then client:close() end end
  client:read_start(function(rerr, chunk)
    if rerr or not chunk then return bye() end
    pending = pending .. chunk
    if #pending > 4096 then return bye() end -- a line that never ends
    for line in pending:gmatch("([^\n]*)\n") do
      if line:match("^%s*quit%s*$") then return bye() end
      client:write(command(id, line))
    end
    pending = pending:match("[^\n]*$")
  end)
end))
local port = server:getsockname().port
say(("listening on 127.0.0.1:%d"):format(port))

return { world = world, run = run, bell = bell, server = server, port = port }
