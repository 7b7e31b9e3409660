/*
** grid.c - the grid world's spawn and lookups as world state methods
** (grid_*), over core/src/grid.c; strata.grid (scripts) resolves maps,
** prototypes and legends from the world's data and calls these.
*/
#include <string.h>

#include "lstrata.h"
#include "lworld.h"

#define WORLD_MT "strata.world_state"

/* A coordinate field: an integer, or "*" / nil for any. */
static int any_int(lua_State *L, int t, const char *k, int arg) {
  int ty = lua_getfield(L, t, k);
  int v = STRATA_GRID_ANY;
  if (ty == LUA_TNUMBER && lua_isinteger(L, -1)) {
    lua_Integer i = lua_tointeger(L, -1);
    if (i <= INT_MIN || i > INT_MAX) lstrata_argerror(L, arg, lua_pushfstring(L, "'%s' is out of range", k));
    v = (int)i;
  } else if (!(ty == LUA_TNIL || (ty == LUA_TSTRING && !strcmp(lua_tostring(L, -1), "*")))) {
    lstrata_argerror(L, arg, lua_pushfstring(L, "'%s' must be an integer or \"*\"", k));
  }
  lua_pop(L, 1);
  return v;
}

static const char *opt_str(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  const char *s = lua_tostring(L, -1); /* kept alive by the table */
  lua_pop(L, 1);
  return s;
}

static int dir_of(lua_State *L, int t, int arg) {
  int ty = lua_getfield(L, t, "dir");
  int d = STRATA_GRID_ROOM;
  if (ty == LUA_TSTRING) {
    const char *s = lua_tostring(L, -1);
    d = !strcmp(s, "*") ? STRATA_GRID_ANY : strata_xy_direction(s);
    if (d < 0 && d != STRATA_GRID_ANY) lstrata_argerror(L, arg, lua_pushfstring(L, "unknown direction '%s'", s));
  }
  lua_pop(L, 1);
  return d;
}

/* A prototype's props (the table at the top) as a value kept in a holder
** userdata in the prototype's table e, so that it lives through the spawn
** and is freed by the collector after, or on an error half-way. */
static const strata_value *read_props(lua_State *L, strata_world *w, int e) {
  int props = lua_gettop(L);
  strata_value *v = lua_newuserdatauv(L, sizeof *v, 0);
  *v = strata_value_nil();
  luaL_setmetatable(L, "strata.value_holder");
  lua_setfield(L, e, "_props_mem");
  const char *where = opt_str(L, e, "where");
  lstrata_check_value(L, w, props, lua_pushfstring(L, "%s props", where ? where : "grid prototype"), v);
  lua_pop(L, 1);
  return v;
}

/* One { map =, protos = { {x, y, dir, symbol, tier, name, desc, props, where}, ... },
** aliases = { {symbol, dir, names}, ... } }. */
static void read_map(lua_State *L, strata_world *w, int t, strata_grid_map *out) {
  memset(out, 0, sizeof *out);
  lua_getfield(L, t, "map");
  out->map = lstrata_check_xymap(L, -1);
  lua_pop(L, 1);
  if (lua_getfield(L, t, "protos") == LUA_TTABLE) {
    int pt = lua_gettop(L);
    size_t n = (size_t)luaL_len(L, pt);
    strata_grid_proto *p = lua_newuserdatauv(L, (n ? n : 1) * sizeof *p, 0);
    lua_setfield(L, t, "_protos_mem"); /* kept alive by the map table */
    for (size_t i = 0; i < n; i++) {
      lua_rawgeti(L, pt, (lua_Integer)i + 1);
      int e = lua_gettop(L);
      p[i].x = any_int(L, e, "x", 1);
      p[i].y = any_int(L, e, "y", 1);
      p[i].dir = dir_of(L, e, 1);
      const char *sym = opt_str(L, e, "symbol");
      p[i].symbol = sym ? sym[0] : 0;
      p[i].tier = (int)lstrata_opt_int(L, e, "tier", 0);
      p[i].name = opt_str(L, e, "name");
      p[i].desc = opt_str(L, e, "desc");
      p[i].props = NULL;
      int ty = lua_getfield(L, e, "props");
      if (ty == LUA_TTABLE) p[i].props = read_props(L, w, e);
      else if (ty != LUA_TNIL) lstrata_argerror(L, 1, lua_pushfstring(L, "%s: props must be a table", opt_str(L, e, "where")));
      lua_pop(L, 2);
    }
    out->protos = p, out->nprotos = n;
  }
  lua_pop(L, 1);
  if (lua_getfield(L, t, "aliases") == LUA_TTABLE) {
    int at = lua_gettop(L);
    size_t n = (size_t)luaL_len(L, at);
    strata_grid_alias *a = lua_newuserdatauv(L, (n ? n : 1) * sizeof *a, 0);
    lua_setfield(L, t, "_aliases_mem");
    for (size_t i = 0; i < n; i++) {
      lua_rawgeti(L, at, (lua_Integer)i + 1);
      int e = lua_gettop(L);
      const char *sym = opt_str(L, e, "symbol");
      a[i].symbol = sym ? sym[0] : 0;
      a[i].dir = dir_of(L, e, 1);
      lua_getfield(L, e, "names");
      size_t k = lua_istable(L, -1) ? (size_t)luaL_len(L, -1) : 0;
      const char **names = lua_newuserdatauv(L, (k ? k : 1) * sizeof *names, 0);
      lua_setfield(L, e, "_names_mem");
      for (size_t j = 0; j < k; j++) {
        lua_rawgeti(L, -1, (lua_Integer)j + 1);
        names[j] = lua_tostring(L, -1);
        lua_pop(L, 1);
        if (!names[j] || !*names[j]) lstrata_argerror(L, 1, "spawn alias names must be non-empty strings");
      }
      lua_pop(L, 1);
      a[i].names = names, a[i].n = k;
      lua_pop(L, 1);
    }
    out->aliases = a, out->naliases = n;
  }
  lua_pop(L, 1);
}

static void push_counts(lua_State *L, const strata_grid_counts *c) {
  const strata_grid_count *parts[3] = { &c->created, &c->updated, &c->deleted };
  const char *names[3] = { "created", "updated", "deleted" };
  lua_createtable(L, 0, 3);
  for (int i = 0; i < 3; i++) {
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, (lua_Integer)parts[i]->rooms);
    lua_setfield(L, -2, "rooms");
    lua_pushinteger(L, (lua_Integer)parts[i]->exits);
    lua_setfield(L, -2, "exits");
    lua_setfield(L, -2, names[i]);
  }
}

/* grid_spawn({ map, ... }, { x =, y =, z = }) -> counts */
static int g_spawn(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  lstrata_checktype(L, 2, LUA_TTABLE);
  size_t n = (size_t)luaL_len(L, 2);
  strata_grid_map *maps = lua_newuserdatauv(L, (n ? n : 1) * sizeof *maps, 0);
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, 2, (lua_Integer)i + 1);
    lstrata_argcheck(L, lua_istable(L, -1), 2, "maps must be tables");
    read_map(L, w, lua_gettop(L), &maps[i]);
    lua_pop(L, 1);
  }
  strata_grid_filter f = { STRATA_GRID_ANY, STRATA_GRID_ANY, NULL };
  if (lua_istable(L, 3)) {
    f.x = any_int(L, 3, "x", 3);
    f.y = any_int(L, 3, "y", 3);
    const char *z = opt_str(L, 3, "z");
    f.z = z && strcmp(z, "*") ? z : NULL;
  }
  strata_grid_counts c;
  strata_error err;
  if (strata_grid_spawn(w, maps, n, &f, &c, &err)) return lstrata_raise(L, NULL, &err);
  push_counts(L, &c);
  return 1;
}

/* grid_delete(z) -> counts */
static int g_delete(lua_State *L) {
  strata_grid_counts c;
  strata_error err;
  if (strata_grid_delete(lstrata_check_world(L, 1), lstrata_checkstring(L, 2), &c, &err))
    return lstrata_raise(L, NULL, &err);
  push_counts(L, &c);
  return 1;
}

/* grid_protos_of(map, { { x, y, symbol, dir | nil }, ... }) -> { index | false, ... }:
** the prototype (1-based, in map.protos) a spawn gives each node (dir nil) or exit. */
static int g_protos_of(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  lstrata_checktype(L, 2, LUA_TTABLE);
  lstrata_checktype(L, 3, LUA_TTABLE);
  strata_grid_map m;
  read_map(L, w, 2, &m);
  size_t n = (size_t)luaL_len(L, 3);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, 3, (lua_Integer)i + 1);
    int e = lua_gettop(L);
    const char *sym = opt_str(L, e, "symbol");
    int dir = dir_of(L, e, 3);
    const strata_grid_proto *p = strata_grid_find_proto(&m, any_int(L, e, "x", 3), any_int(L, e, "y", 3), dir,
                                                        sym ? sym[0] : 0);
    lua_pop(L, 1);
    if (p) lua_pushinteger(L, (lua_Integer)(p - m.protos) + 1);
    else lua_pushboolean(L, 0);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* grid_home() -> room uid | nil; grid_set_home(uid | nil) */
static int g_home(lua_State *L) {
  uint64_t r = strata_grid_home(lstrata_check_world(L, 1));
  if (!r) return 0;
  lua_pushinteger(L, (lua_Integer)r);
  return 1;
}

static int g_set_home(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  strata_error err;
  if (strata_grid_set_home(w, lua_isnoneornil(L, 2) ? 0 : (uint64_t)lstrata_checkinteger(L, 2), &err))
    return lstrata_raise(L, NULL, &err);
  return 0;
}

/* grid_prototypes() -> { entry, ... }: copies of the prototypes stored in the world */
static int g_prototypes(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  lua_newtable(L);
  const strata_value *v;
  for (size_t i = 0; (v = strata_grid_prototype(w, i)); i++) {
    lstrata_push_value(L, 1, v);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* grid_set_prototype(entry): stores a copy (checked by the caller) */
static int g_set_prototype(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  strata_value v;
  lstrata_check_value(L, w, 2, "world.grid:add_prototype", &v);
  strata_error err;
  strata_status st = strata_grid_set_prototype(w, &v, &err);
  strata_value_clear(&v);
  if (st) return lstrata_raise(L, NULL, &err);
  return 0;
}

/* grid_map_ids() -> { id, ... }: the world's grid maps in the order added */
static int g_map_ids(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  size_t n = strata_grid_map_ids(w, NULL, 0);
  const char **ids = lua_newuserdatauv(L, (n ? n : 1) * sizeof *ids, 0);
  n = strata_grid_map_ids(w, ids, n);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushstring(L, ids[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* grid_set_map_ids({ id, ... }) */
static int g_set_map_ids(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  lstrata_checktype(L, 2, LUA_TTABLE);
  size_t n = (size_t)luaL_len(L, 2);
  const char **ids = lua_newuserdatauv(L, (n ? n : 1) * sizeof *ids, 0);
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, 2, (lua_Integer)i + 1);
    lstrata_argcheck(L, lua_type(L, -1) == LUA_TSTRING, 2, "grid map IDs must be strings");
    ids[i] = lua_tostring(L, -1); /* held by the table at 2 */
    lua_pop(L, 1);
  }
  strata_error err;
  if (strata_grid_set_map_ids(w, ids, n, &err)) return lstrata_raise(L, NULL, &err);
  return 0;
}

/* grid_pos(uid) -> x, y, z, dir ("" for a room), interrupt | nothing */
static int g_pos(lua_State *L) {
  int x, y, interrupt;
  const char *z;
  char tag[4];
  strata_world *w = lstrata_check_world(L, 1);
  lua_Integer uid = lstrata_checkinteger(L, 2);
  if (uid <= 0 || !strata_grid_pos(w, (uint64_t)uid, &x, &y, &z, tag, &interrupt)) return 0;
  lua_pushinteger(L, x);
  lua_pushinteger(L, y);
  lua_pushstring(L, z);
  lua_pushstring(L, strata_is_exit(w, (uint64_t)uid) ? tag : "");
  lua_pushboolean(L, interrupt);
  return 5;
}

/* grid_rooms(z | nil, x | nil, y | nil[, kind[, name | nil]]) -> { uid, ... } in uid
** order: a scan; name: only rooms (or exits) of that name. */
static int g_rooms(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  const char *z = lstrata_optstring(L, 2, NULL);
  int any_x = lua_isnoneornil(L, 3), any_y = lua_isnoneornil(L, 4);
  lua_Integer wx = any_x ? 0 : lstrata_checkinteger(L, 3), wy = any_y ? 0 : lstrata_checkinteger(L, 4);
  const char *kind = lstrata_optstring(L, 5, "room");
  const char *name = lstrata_optstring(L, 6, NULL);
  lua_newtable(L);
  lua_Integer k = 0;
  for (const strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid)) {
    int x, y;
    const char *oz;
    if (strcmp(o->kind, kind) || !strata_grid_pos(w, o->uid, &x, &y, &oz, NULL, NULL)) continue;
    if ((z && strcmp(z, oz)) || (!any_x && x != wx) || (!any_y && y != wy)) continue;
    const char *on = name ? strata_room_name(w, o->uid) : NULL;
    if (name && (!on || strcmp(name, on))) continue;
    lua_pushinteger(L, (lua_Integer)o->uid);
    lua_rawseti(L, -2, ++k);
  }
  return 1;
}

/* grid_room(z, x, y) -> room uid | nil (strata_grid_room: the core's answer, never a copy) */
static int g_room(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  uint64_t r = strata_grid_room(w, lstrata_checkstring(L, 2), (int)lstrata_checkinteger(L, 3),
                                (int)lstrata_checkinteger(L, 4));
  if (!r) return 0;
  lua_pushinteger(L, (lua_Integer)r);
  return 1;
}

/* grid_step(room, dir) -> exit, to | nil, link_interrupt, node_interrupt: one
** step of a walk in one call (exit_find, its target, the interrupts on the way). */
static int g_step(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  lua_Integer room = lstrata_checkinteger(L, 2);
  uint64_t e = room > 0 ? strata_exit_find(w, (uint64_t)room, lstrata_checkstring(L, 3)) : 0;
  if (!e) return 0;
  uint64_t to = strata_exit_to(w, e);
  int link = 0, node = 0;
  strata_grid_pos(w, e, NULL, NULL, NULL, NULL, &link);
  if (to) strata_grid_pos(w, to, NULL, NULL, NULL, NULL, &node);
  lua_pushinteger(L, (lua_Integer)e);
  if (to) lua_pushinteger(L, (lua_Integer)to);
  else lua_pushnil(L);
  lua_pushboolean(L, link);
  lua_pushboolean(L, node);
  return 4;
}

static const luaL_Reg grid_methods[] = {
  { "grid_step", g_step }, { "grid_room", g_room }, { "grid_protos_of", g_protos_of }, { "grid_home", g_home },
  { "grid_set_home", g_set_home }, { "grid_prototypes", g_prototypes }, { "grid_set_prototype", g_set_prototype },
  { "grid_spawn", g_spawn }, { "grid_delete", g_delete }, { "grid_map_ids", g_map_ids },
  { "grid_set_map_ids", g_set_map_ids }, { "grid_pos", g_pos }, { "grid_rooms", g_rooms },
  { NULL, NULL } };

void lstrata_open_grid(lua_State *L) { lstrata_add_methods(L, WORLD_MT, NULL, grid_methods); }
