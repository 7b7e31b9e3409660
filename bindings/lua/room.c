/*
** room.c - rooms and exits as the world state's methods (room_*, exit_*),
** over core/src/room.c and exit.c; strata.rooms (scripts) puts handles on them.
*/
#include <string.h>

#include "lstrata.h"

#define WORLD_MT "strata.world_state"

static uint64_t check_uid(lua_State *L, int arg) {
  lua_Integer u = lstrata_checkinteger(L, arg);
  lstrata_argcheck(L, u > 0, arg, "uid must be positive");
  return (uint64_t)u;
}

/* A uid or nil (0). */
static uint64_t opt_uid(lua_State *L, int arg) { return lua_isnoneornil(L, arg) ? 0 : check_uid(L, arg); }

static int done(lua_State *L, strata_status st, strata_error *err) {
  if (st) return lstrata_raise(L, NULL, err);
  return 0;
}

static void push_uid(lua_State *L, uint64_t uid) {
  if (uid) lua_pushinteger(L, (lua_Integer)uid);
  else lua_pushnil(L);
}

/* room_create(name, desc) -> uid */
static int r_create(lua_State *L) {
  strata_error err;
  uint64_t uid;
  if (strata_room_create(lstrata_check_world(L, 1), lstrata_checkstring(L, 2), lstrata_optstring(L, 3, ""), &uid, &err))
    return lstrata_raise(L, NULL, &err);
  lua_pushinteger(L, (lua_Integer)uid);
  return 1;
}

/* room_info(uid) -> name, desc | nil when uid is no room */
static int r_info(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  if (!strata_is_room(w, uid)) return 0;
  lua_pushstring(L, strata_room_name(w, uid));
  lua_pushstring(L, strata_room_desc(w, uid));
  return 2;
}

/* room_set(uid, "name" | "desc", s) */
static int r_set(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  const char *field = lstrata_checkstring(L, 3), *s = lstrata_checkstring(L, 4);
  strata_error err;
  if (!strcmp(field, "name")) return done(L, strata_room_set_name(w, uid, s, &err), &err);
  if (!strcmp(field, "desc")) return done(L, strata_room_set_desc(w, uid, s, &err), &err);
  return lstrata_argerror(L, 3, "expected \"name\" or \"desc\"");
}

/* room_exits(uid) -> { exit uid, ... } */
static int r_exits(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  size_t n = strata_room_exit_count(w, uid);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)strata_room_exit_at(w, uid, i));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

static int r_delete(lua_State *L) {
  strata_error err;
  return done(L, strata_room_delete(lstrata_check_world(L, 1), check_uid(L, 2), &err), &err);
}

/* room_of(obj) -> room uid | nil */
static int r_of(lua_State *L) {
  push_uid(L, strata_room_of(lstrata_check_world(L, 1), check_uid(L, 2)));
  return 1;
}

/* room_put(obj, room | nil) */
static int r_put(lua_State *L) {
  strata_error err;
  return done(L, strata_room_put(lstrata_check_world(L, 1), check_uid(L, 2), opt_uid(L, 3), &err), &err);
}

/* room_contents(room) -> { uid, ... } */
static int r_contents(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t room = check_uid(L, 2);
  size_t n = strata_room_contents(w, room, NULL, 0);
  uint64_t *out = lua_newuserdatauv(L, (n ? n : 1) * sizeof *out, 0);
  strata_room_contents(w, room, out, n);
  lstrata_push_uids(L, out, n);
  return 1;
}

/* exit_create(from, to | nil, name, desc) -> uid */
static int e_create(lua_State *L) {
  strata_error err;
  uint64_t uid;
  if (strata_exit_create(lstrata_check_world(L, 1), check_uid(L, 2), opt_uid(L, 3), lstrata_checkstring(L, 4),
                         lstrata_optstring(L, 5, ""), &uid, &err))
    return lstrata_raise(L, NULL, &err);
  lua_pushinteger(L, (lua_Integer)uid);
  return 1;
}

/* exit_info(uid) -> from, to | nil, name, desc, { alias, ... } | nil when uid is no exit */
static int e_info(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  if (!strata_is_exit(w, uid)) return 0;
  push_uid(L, strata_exit_from(w, uid));
  push_uid(L, strata_exit_to(w, uid));
  lua_pushstring(L, strata_exit_name(w, uid));
  lua_pushstring(L, strata_exit_desc(w, uid));
  size_t n = strata_exit_alias_count(w, uid);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushstring(L, strata_exit_alias_at(w, uid, i));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 5;
}

/* exit_set(uid, "to" | "name" | "desc", value) */
static int e_set(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  const char *field = lstrata_checkstring(L, 3);
  strata_error err;
  if (!strcmp(field, "to")) return done(L, strata_exit_set_to(w, uid, opt_uid(L, 4), &err), &err);
  if (!strcmp(field, "name")) return done(L, strata_exit_set_name(w, uid, lstrata_checkstring(L, 4), &err), &err);
  if (!strcmp(field, "desc")) return done(L, strata_exit_set_desc(w, uid, lstrata_checkstring(L, 4), &err), &err);
  return lstrata_argerror(L, 3, "expected \"to\", \"name\" or \"desc\"");
}

/* exit_set_aliases(uid, { s, ... }) */
static int e_set_aliases(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  lstrata_checktype(L, 3, LUA_TTABLE);
  lua_Integer n = luaL_len(L, 3);
  lstrata_argcheck(L, n >= 0 && n <= 64, 3, "at most 64 aliases");
  const char *names[64];
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, 3, i);
    if (lua_type(L, -1) != LUA_TSTRING) lstrata_argerror(L, 3, "aliases must be strings");
    names[i - 1] = lua_tostring(L, -1);
    lua_pop(L, 1); /* still referenced by the table at 3 */
  }
  strata_error err;
  return done(L, strata_exit_set_aliases(w, uid, names, (size_t)n, &err), &err);
}

/* exit_find(room, dir) -> exit uid | nil */
static int e_find(lua_State *L) {
  push_uid(L, strata_exit_find(lstrata_check_world(L, 1), check_uid(L, 2), lstrata_checkstring(L, 3)));
  return 1;
}

static int e_delete(lua_State *L) {
  strata_error err;
  return done(L, strata_exit_delete(lstrata_check_world(L, 1), check_uid(L, 2), &err), &err);
}

static const luaL_Reg room_methods[] = {
  { "room_create", r_create }, { "room_info", r_info }, { "room_set", r_set }, { "room_exits", r_exits },
  { "room_delete", r_delete }, { "room_of", r_of }, { "room_put", r_put }, { "room_contents", r_contents },
  { "exit_create", e_create }, { "exit_info", e_info }, { "exit_set", e_set },
  { "exit_set_aliases", e_set_aliases }, { "exit_find", e_find }, { "exit_delete", e_delete },
  { NULL, NULL } };

void lstrata_open_room(lua_State *L) { lstrata_add_methods(L, WORLD_MT, NULL, room_methods); }
