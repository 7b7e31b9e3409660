/*
** branch.c - dungeon branches as the world state's methods (branch_*), over
** core/src/branch.c; strata.branches (scripts) puts handles, timers and
** events on them.
*/
#include <stdlib.h>

#include "lrng.h"
#include "lstrata.h"
#include "strata/branch.h"

static uint64_t check_uid(lua_State *L, int arg) {
  lua_Integer u = lstrata_checkinteger(L, arg);
  lstrata_argcheck(L, u > 0, arg, "uid must be positive");
  return (uint64_t)u;
}

static void push_uid(lua_State *L, uint64_t uid) {
  if (uid) lua_pushinteger(L, (lua_Integer)uid);
  else lua_pushnil(L);
}

static int done(lua_State *L, strata_status st, strata_error *err) {
  if (st) return lstrata_raise(L, NULL, err);
  return 0;
}

/* branch_make_start(hub, dir, archetype) -> exit uid */
static int b_make_start(lua_State *L) {
  strata_error err;
  uint64_t e;
  if (strata_branch_make_start(lstrata_check_world(L, 1), check_uid(L, 2), lstrata_checkstring(L, 3),
                               lstrata_checkstring(L, 4), &e, &err))
    return lstrata_raise(L, NULL, &err);
  lua_pushinteger(L, (lua_Integer)e);
  return 1;
}

/* branch_start(exit) -> archetype ID | nil */
static int b_start(lua_State *L) {
  const char *a = strata_branch_start_archetype(lstrata_check_world(L, 1), check_uid(L, 2));
  if (a) lua_pushstring(L, a);
  else lua_pushnil(L);
  return 1;
}

/* branch_create(hub, archetype, { dir, ... }, max_unexplored, max_new, generator | nil) -> uid */
static int b_create(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t hub = check_uid(L, 2);
  strata_branch_rules r = { .archetype = lstrata_checkstring(L, 3) };
  lstrata_checktype(L, 4, LUA_TTABLE);
  lua_Integer n = luaL_len(L, 4);
  lstrata_argcheck(L, n >= 0 && n <= 8, 4, "at most 8 directions");
  const char *dirs[8];
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, 4, i);
    if (lua_type(L, -1) != LUA_TSTRING) lstrata_argerror(L, 4, "directions must be strings");
    dirs[i - 1] = lua_tostring(L, -1);
    lua_pop(L, 1); /* still referenced by the table at 4 */
  }
  r.dirs = dirs;
  r.ndirs = (size_t)n;
  r.max_unexplored = lstrata_checkinteger(L, 5);
  r.max_new = lstrata_checkinteger(L, 6);
  r.generator = lstrata_optstring(L, 7, NULL);
  strata_error err;
  uint64_t b;
  if (strata_branch_create(w, &r, hub, &b, &err)) return lstrata_raise(L, NULL, &err);
  lua_pushinteger(L, (lua_Integer)b);
  return 1;
}

/* branch_target(exit) -> branch | nil (a start exit), x, y */
static int b_target(lua_State *L) {
  strata_error err;
  uint64_t b;
  int64_t x, y;
  if (strata_branch_target(lstrata_check_world(L, 1), check_uid(L, 2), &b, &x, &y, &err))
    return lstrata_raise(L, NULL, &err);
  push_uid(L, b);
  lua_pushinteger(L, (lua_Integer)x);
  lua_pushinteger(L, (lua_Integer)y);
  return 3;
}

/* branch_grow(branch, exit, name, desc, clear, rng) -> room uid */
static int b_grow(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t b = check_uid(L, 2), e = check_uid(L, 3);
  strata_room_spec spec = { lstrata_checkstring(L, 4), lstrata_optstring(L, 5, ""), lua_toboolean(L, 6) };
  strata_rng *rng = lstrata_check_rng(L, 7);
  strata_error err;
  uint64_t room;
  if (strata_branch_grow(w, b, e, &spec, rng, &room, &err)) return lstrata_raise(L, NULL, &err);
  lua_pushinteger(L, (lua_Integer)room);
  return 1;
}

/* branch_room_at(branch, x, y) -> room | nil */
static int b_room_at(lua_State *L) {
  push_uid(L, strata_branch_room_at(lstrata_check_world(L, 1), check_uid(L, 2), lstrata_checkinteger(L, 3),
                                    lstrata_checkinteger(L, 4)));
  return 1;
}

/* branch_room(room) -> branch, x, y, depth, clear, back exit | nil when no branch room */
static int b_room(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t r = check_uid(L, 2);
  int64_t x, y, d;
  uint64_t b = strata_branch_of(w, r);
  if (!b || !strata_branch_cell(w, r, &x, &y, &d)) return 0;
  lua_pushinteger(L, (lua_Integer)b);
  lua_pushinteger(L, (lua_Integer)x);
  lua_pushinteger(L, (lua_Integer)y);
  lua_pushinteger(L, (lua_Integer)d);
  lua_pushboolean(L, strata_branch_room_clear(w, r));
  push_uid(L, strata_branch_back_exit(w, r));
  return 6;
}

static int b_set_clear(lua_State *L) {
  strata_error err;
  return done(L, strata_branch_set_clear(lstrata_check_world(L, 1), check_uid(L, 2), lua_toboolean(L, 3), &err), &err);
}

static int b_may_cross(lua_State *L) {
  lua_pushboolean(L, strata_branch_may_cross(lstrata_check_world(L, 1), check_uid(L, 2)));
  return 1;
}

/* branch_info(branch) -> hub, archetype, open, rooms, last_act | nil */
static int b_info(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t b = check_uid(L, 2);
  if (!strata_is_branch(w, b)) return 0;
  push_uid(L, strata_branch_hub(w, b));
  lua_pushstring(L, strata_branch_archetype(w, b));
  lua_pushinteger(L, (lua_Integer)strata_branch_open(w, b));
  lua_pushinteger(L, (lua_Integer)strata_branch_room_count(w, b));
  lua_pushnumber(L, strata_branch_last_act(w, b));
  return 5;
}

static int list(lua_State *L, size_t (*fn)(const strata_world *, uint64_t, uint64_t *, size_t)) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t b = check_uid(L, 2);
  size_t n = fn(w, b, NULL, 0);
  uint64_t *out = lua_newuserdatauv(L, (n ? n : 1) * sizeof *out, 0);
  fn(w, b, out, n);
  lstrata_push_uids(L, out, n);
  return 1;
}

static int b_rooms(lua_State *L) { return list(L, strata_branch_rooms); }
static int b_members(lua_State *L) { return list(L, strata_branch_members); }

static int b_acted(lua_State *L) {
  strata_error err;
  return done(L, strata_branch_acted(lstrata_check_world(L, 1), check_uid(L, 2), &err), &err);
}

static int b_delete(lua_State *L) {
  strata_error err;
  return done(L, strata_branch_delete(lstrata_check_world(L, 1), check_uid(L, 2), &err), &err);
}

/* branch_check(branch) -> true | false, message */
static int b_check(lua_State *L) {
  strata_error err;
  if (strata_branch_check(lstrata_check_world(L, 1), check_uid(L, 2), &err)) {
    lua_pushboolean(L, 0);
    lua_pushstring(L, err.message);
    return 2;
  }
  lua_pushboolean(L, 1);
  return 1;
}

static const luaL_Reg branch_methods[] = {
  { "branch_make_start", b_make_start }, { "branch_start", b_start }, { "branch_create", b_create },
  { "branch_target", b_target }, { "branch_grow", b_grow }, { "branch_room_at", b_room_at },
  { "branch_room", b_room }, { "branch_set_clear", b_set_clear }, { "branch_may_cross", b_may_cross },
  { "branch_info", b_info }, { "branch_rooms", b_rooms }, { "branch_members", b_members },
  { "branch_acted", b_acted }, { "branch_delete", b_delete }, { "branch_check", b_check }, { NULL, NULL } };

void lstrata_open_branch(lua_State *L) { lstrata_add_methods(L, "strata.world_state", NULL, branch_methods); }
