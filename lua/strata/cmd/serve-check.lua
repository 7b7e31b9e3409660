-- strata serve-check URI [--json]: who owns what of a world served by several
-- processes, until when, and the lag of its hand-overs (docs/postgresql.md,
-- "Leases").
local strata = require "strata"
local cli = require "strata.cli"

local M = {}

M.spec = {
  name = "serve-check",
  summary = "show the leases of a world in PostgreSQL: who owns what, until when; the hand-overs' lag",
  args = { { name = "URI", key = "uri", kind = "path",
    refuse_stdio = "URI names a PostgreSQL database: postgresql://...?world=NAME" } },
  description = [[
Lists the leases of the world that URI names (postgresql://...?world=NAME,
the other parameters libpq's) by scope: its holder (LABEL@HOST:PID:TOKEN),
its fence, and its expiry by the database's clock with the seconds left;
a lease past its expiry is marked expired (any process may take it), one
given up is free. Then, per scope that actors are handed over to, how many
wait and the oldest's age by the database's clock ("hand-overs: area:2
3 queued, oldest 0.4 s"), or "hand-overs: none queued". Nothing is
acquired; the lease and hand-over tables are made when absent.]],
  options = {
    { name = "json", kind = "flag", help = "as JSON: { world, leases = [{ scope, holder, fence, expires, remaining, expired }],"
      .. " handovers = [{ scope, queued, oldest }] }" },
  },
  epilog = [[
Exit status 2 for a mistake in the arguments; 1 with one line on stderr for a
URI that cannot be used (not a postgresql:// URI, a bad world=NAME, no server).]],
}

-- Errors read "serve-check: message" (strata.cli adds the name).
M.names_errors = true

local function state(l)
  if not l.holder then return "free" end
  return l.expired and "expired" or "held"
end

-- One line a destination: "hand-overs: SCOPE  N queued, oldest S s".
local function handover_lines(queues)
  if #queues == 0 then return { "hand-overs: none queued\n" } end
  local width, out = 0, {}
  for _, h in ipairs(queues) do width = math.max(width, #h.scope) end
  for i, h in ipairs(queues) do
    out[i] = ("hand-overs: %-" .. width .. "s  %d queued, oldest %.1f s\n"):format(h.scope, h.queued, h.oldest)
  end
  return out
end

local function text(world, leases, queues)
  local rows, widths = {}, { 0, 0, 0 }
  for _, l in ipairs(leases) do
    local when = l.expired and "since " .. l.expires
      or ("until %s (%.1f s left)"):format(l.expires, l.remaining)
    local row = { l.scope, state(l), l.holder or "-", ("fence %d  %s"):format(l.fence, when) }
    for i = 1, 3 do widths[i] = math.max(widths[i], #row[i]) end
    rows[#rows + 1] = row
  end
  local out = { ("world %s: %d lease%s (expiry by the database's clock)\n"):format(world, #leases,
    #leases == 1 and "" or "s") }
  for _, r in ipairs(rows) do
    out[#out + 1] = ("%-" .. widths[1] .. "s  %-" .. widths[2] .. "s  %-" .. widths[3] .. "s  %s\n")
      :format(r[1], r[2], r[3], r[4])
  end
  for _, line in ipairs(handover_lines(queues)) do out[#out + 1] = line end
  return table.concat(out)
end

function M.run(o)
  local client = cli.call("strata.lease.open", strata.lease.open, o.uri, { holder = "serve-check", ttl = 0 })
  local leases = cli.call("lease:list", client.list, client)
  local queues = cli.call("lease:handovers", client.handovers, client)
  client:close()
  local world = o.uri:match("[?&]world=([%w_]+)")
  if o.json then
    local list = strata.json.array()
    for i, l in ipairs(leases) do
      list[i] = { scope = l.scope, holder = l.holder, fence = l.fence, expires = l.expires,
        remaining = l.remaining, expired = l.expired }
    end
    local handovers = strata.json.array()
    for i, h in ipairs(queues) do handovers[i] = { scope = h.scope, queued = h.queued, oldest = h.oldest } end
    cli.json{ world = world, leases = list, handovers = handovers }
  else
    cli.write(text(world, leases, queues))
  end
  return 0
end

return M
