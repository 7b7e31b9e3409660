-- strata serve-check URI [--json]: who owns what of a world served by several
-- processes, until when (docs/postgresql.md, "Leases").
local strata = require "strata"
local cli = require "strata.cli"

local M = {}

M.spec = {
  name = "serve-check",
  summary = "show the leases of a world in PostgreSQL: who owns what, until when",
  args = { { name = "URI", key = "uri", kind = "path",
    refuse_stdio = "URI names a PostgreSQL database: postgresql://...?world=NAME" } },
  description = [[
Lists the leases of the world that URI names (postgresql://...?world=NAME,
the other parameters libpq's) by scope: its holder (LABEL@HOST:PID:TOKEN),
its fence, and its expiry by the database's clock with the seconds left;
a lease past its expiry is marked expired (any process may take it), one
given up is free. Nothing is acquired; the lease table is made when absent.]],
  options = {
    { name = "json", kind = "flag", help = "the leases as JSON: { world, leases = [{ scope, holder, fence, expires, remaining, expired }] }" },
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

local function text(world, leases)
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
  return table.concat(out)
end

function M.run(o)
  local client = cli.call("strata.lease.open", strata.lease.open, o.uri, { holder = "serve-check", ttl = 0 })
  local leases = cli.call("lease:list", client.list, client)
  client:close()
  local world = o.uri:match("[?&]world=([%w_]+)")
  if o.json then
    local list = strata.json.array()
    for i, l in ipairs(leases) do
      list[i] = { scope = l.scope, holder = l.holder, fence = l.fence, expires = l.expires,
        remaining = l.remaining, expired = l.expired }
    end
    cli.json{ world = world, leases = list }
  else
    cli.write(text(world, leases))
  end
  return 0
end

return M
