/*
** lease.c - strata.lease: the core's leases (strata/lease.h) from Lua.
** strata.lease.open(uri, { holder =, ttl = }) -> a lease client with
** :acquire(scope), :renew(), :release([scope]), :check(scope, fence),
** :list(), :handovers(), :holder(), :close(). The userdata holds the core's client and
** nothing else; every lease it returns is a fresh plain table.
*/
#include "lstrata.h"
#include "strata/lease.h"

#define LEASE_MT "strata.lease"

typedef struct lease_ud {
  strata_lease_client *c; /* NULL once closed */
} lease_ud;

static strata_lease_client *check_client(lua_State *L) {
  lease_ud *u = lstrata_checkudata(L, 1, LEASE_MT);
  if (u->c == NULL) lstrata_error(L, "the lease client is closed");
  return u->c;
}

/* A lease as a plain table: scope, holder (nil when released), fence,
** expires (UTC text), remaining (seconds), expired, mine. */
static void push_info(lua_State *L, const strata_lease_info *l) {
  lua_createtable(L, 0, 7);
  lua_pushstring(L, l->scope);
  lua_setfield(L, -2, "scope");
  if (l->holder[0] != '\0') {
    lua_pushstring(L, l->holder);
    lua_setfield(L, -2, "holder");
  }
  lua_pushinteger(L, (lua_Integer)l->fence);
  lua_setfield(L, -2, "fence");
  lua_pushstring(L, l->until);
  lua_setfield(L, -2, "expires");
  lua_pushnumber(L, l->remaining);
  lua_setfield(L, -2, "remaining");
  lua_pushboolean(L, l->expired);
  lua_setfield(L, -2, "expired");
  lua_pushboolean(L, l->mine);
  lua_setfield(L, -2, "mine");
}

/* strata.lease.open(uri, { holder = "strata", ttl = 30 }) */
static int lease_open(lua_State *L) {
  static const char *const known[] = { "holder", "ttl", NULL };
  const char *uri = lstrata_checkstring(L, 1);
  lstrata_check_options(L, 2, known, 1);
  const char *label = "strata";
  double ttl = 30;
  if (lua_istable(L, 2)) {
    label = lstrata_opt_string(L, 2, "holder", label);
    ttl = lstrata_opt_number(L, 2, "ttl", ttl);
  }
  lease_ud *u = lua_newuserdatauv(L, sizeof *u, 0);
  u->c = NULL;
  luaL_setmetatable(L, LEASE_MT);
  strata_error err;
  u->c = strata_lease_open(uri, label, ttl, &err);
  if (u->c == NULL) return lstrata_raise(L, NULL, &err);
  return 1;
}

/* lease:acquire(scope) -> the lease, its granted true when this client has it */
static int lease_acquire(lua_State *L) {
  strata_lease_client *c = check_client(L);
  const char *scope = lstrata_checkstring(L, 2);
  strata_lease_info info;
  strata_error err;
  if (strata_lease_acquire(c, scope, &info, &err) != STRATA_OK) return lstrata_raise(L, NULL, &err);
  push_info(L, &info);
  lua_pushboolean(L, info.mine);
  lua_setfield(L, -2, "granted");
  return 1;
}

/* lease:renew() -> the leases lost since (a list, empty when none) */
static int lease_renew(lua_State *L) {
  strata_lease_client *c = check_client(L);
  strata_lease_info lost[16];
  size_t n = 0;
  strata_error err;
  strata_status st = strata_lease_renew(c, lost, sizeof lost / sizeof lost[0], &n, &err);
  if (st != STRATA_OK && (st != STRATA_ESTATE || n == 0)) return lstrata_raise(L, NULL, &err);
  if (n > sizeof lost / sizeof lost[0]) n = sizeof lost / sizeof lost[0];
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    push_info(L, &lost[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* lease:release([scope]): the one scope, or every lease held */
static int lease_release(lua_State *L) {
  strata_lease_client *c = check_client(L);
  strata_error err;
  strata_status st = lua_isnoneornil(L, 2) ? strata_lease_release_all(c, &err)
                                           : strata_lease_release(c, lstrata_checkstring(L, 2), &err);
  if (st != STRATA_OK) return lstrata_raise(L, NULL, &err);
  return 0;
}

/* lease:check(scope, fence) -> true, or nil and why */
static int lease_check(lua_State *L) {
  strata_lease_client *c = check_client(L);
  const char *scope = lstrata_checkstring(L, 2);
  lua_Integer fence = lstrata_checkinteger(L, 3);
  strata_error err;
  strata_status st = strata_lease_check(c, scope, (int64_t)fence, &err);
  if (st == STRATA_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  if (st != STRATA_ESTATE) return lstrata_raise(L, NULL, &err);
  lua_pushnil(L);
  lua_pushstring(L, err.message);
  return 2;
}

static int push_each(void *ud, const strata_lease_info *l) {
  lua_State *L = ud;
  lstrata_checkstack(L, 4, "lease:list");
  push_info(L, l);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  return 0;
}

/* lease:list() -> every lease of the world, by scope */
static int lease_list(lua_State *L) {
  strata_lease_client *c = check_client(L);
  lua_newtable(L);
  strata_error err;
  if (strata_lease_list(c, push_each, L, &err) != STRATA_OK) return lstrata_raise(L, NULL, &err);
  return 1;
}

static int push_handover(void *ud, const strata_lease_handover_info *h) {
  lua_State *L = ud;
  lstrata_checkstack(L, 4, "lease:handovers");
  lua_createtable(L, 0, 3);
  lua_pushstring(L, h->scope);
  lua_setfield(L, -2, "scope");
  lua_pushinteger(L, (lua_Integer)h->queued);
  lua_setfield(L, -2, "queued");
  lua_pushnumber(L, h->oldest);
  lua_setfield(L, -2, "oldest");
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  return 0;
}

/* lease:handovers() -> per scope hand-overs wait for, { scope =, queued =,
** oldest = seconds }, by scope (empty when none) */
static int lease_handovers(lua_State *L) {
  strata_lease_client *c = check_client(L);
  lua_newtable(L);
  strata_error err;
  if (strata_lease_handovers(c, push_handover, L, &err) != STRATA_OK) return lstrata_raise(L, NULL, &err);
  return 1;
}

/* lease:holder() -> the holder id, "LABEL@HOST:PID:TOKEN" */
static int lease_holder(lua_State *L) {
  lua_pushstring(L, strata_lease_holder(check_client(L)));
  return 1;
}

/* lease:close(): the connection closed; the leases stay until their expiry */
static int lease_close(lua_State *L) {
  lease_ud *u = lstrata_checkudata(L, 1, LEASE_MT);
  strata_lease_close(u->c);
  u->c = NULL;
  return 0;
}

void lstrata_open_lease(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"acquire", lease_acquire}, {"renew", lease_renew}, {"release", lease_release}, {"check", lease_check},
    {"list", lease_list}, {"handovers", lease_handovers}, {"holder", lease_holder}, {"close", lease_close},
    {NULL, NULL}};
  static const luaL_Reg meta[] = {{"__gc", lease_close}, {"__close", lease_close}, {NULL, NULL}};
  static const luaL_Reg funcs[] = {{"open", lease_open}, {NULL, NULL}};
  lstrata_register_type(L, LEASE_MT, "lease", meta, methods);
  lstrata_add_functions(L, "lease", 1, funcs);
}
