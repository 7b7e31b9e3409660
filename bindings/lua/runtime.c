/*
** runtime.c - a strata_runtime for a Lua world, as "strata.runtime"
** userdata (core.runtime.new(state, dispatch)): the core's area, floor,
** feature, unique, travel, event, clock and branch room functions as methods
** taking and giving uids. lua/strata/areas.lua, runtime.lua and
** branches.lua make handles of them; errors are raised named by the Lua
** API function each method does the work of (rt_public), from the core's
** message, which names no function.
** The resolver is resolver.c's.
*/
#include <stdlib.h>
#include <string.h>

#include "lruntime.h"
#include "lschema.h"
#include "lworld.h"
#include "strata/area.h"
#include "strata/branch.h"
#include "strata/clock.h"
#include "strata/event.h"
#include "strata/feature.h"
#include "strata/grid.h"
#include "strata/move.h"
#include "strata/travel.h"
#include "strata/unique.h"

#define RUNTIME_MT "strata.runtime"

/* ---- the userdata ---- */

typedef struct lrt {
  lruntime *lr;
} lrt;

static lruntime *check_rt(lua_State *L, int arg) {
  lrt *u = lstrata_checkudata(L, arg, RUNTIME_MT);
  if (!u->lr) lstrata_argerror(L, arg, "runtime is closed");
  if (!*u->lr->alive) lstrata_argerror(L, arg, LSTRATA_WORLD_CLOSED);
  return u->lr;
}

lruntime *lstrata_check_runtime(lua_State *L, int arg) { return check_rt(L, arg); }

static void free_runtime(lua_State *L, lruntime *lr) {
  if (!lr) return;
  strata_runtime_free(lr->rt);
  lr->T = NULL;
  lstrata_runtime_drop_cache(lr);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lstrata_runtimes);
  lua_pushnil(L);
  lua_rawsetp(L, -2, lr);
  lua_pop(L, 1);
  strata_free(lr);
}

/* core.runtime.new(state, dispatch) */
static int rt_new(lua_State *L) {
  strata_world *w = lstrata_check_world(L, 1);
  lstrata_checktype(L, 2, LUA_TFUNCTION);
  lrt *u = lua_newuserdatauv(L, sizeof *u, 2);
  u->lr = NULL;
  luaL_setmetatable(L, RUNTIME_MT);
  lruntime *lr = strata_calloc(1, sizeof *lr);
  if (!lr) return lstrata_error(L, "out of memory");
  u->lr = lr;
  lr->T = lua_newthread(L);
  lua_setiuservalue(L, -2, 1); /* the thread lives as long as the runtime */
  lr->w = w;
  lr->alive = lstrata_world_slot(L, 1); /* the state lives as long as the runtime: its table holds it */
  lua_createtable(L, 4, 0);
  lua_pushvalue(L, 1);
  lua_rawseti(L, -2, T_STATE);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, T_DISPATCH);
  lua_newtable(L);
  lua_rawseti(L, -2, T_SLOTS);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lstrata_runtimes);
  lua_pushvalue(L, -2);
  lua_rawsetp(L, -2, lr);
  lua_pop(L, 1);
  lua_setiuservalue(L, -2, 2);
  strata_resolver r = lstrata_lua_resolver(lr);
  strata_error err;
  if (!(lr->rt = strata_runtime_new(w, &r, &err))) return lstrata_raise(L, NULL, &err);
  return 1;
}

static int rt_gc(lua_State *L) {
  lrt *u = lstrata_checkudata(L, 1, RUNTIME_MT);
  free_runtime(L, u->lr);
  u->lr = NULL;
  return 0;
}

/* Raises a core error named by the method's Lua API name (rt_public), with
** a mod's whole message where the error had to cut it. */
static int raise_plain(lua_State *L, lruntime *lr, const strata_error *err) {
  return lstrata_raise_text(L, NULL, err, strata_runtime_failure_text(lr->rt, err));
}

/* rt:floor(area, n) -> map uid: the map of floor n, generated if needed */
static int rt_floor(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  lua_Integer area = lstrata_checkinteger(L, 2), n = lstrata_checkinteger(L, 3);
  uint64_t map = 0;
  strata_error err;
  if (strata_area_floor(lr->rt, (uint64_t)area, n, &map, &err)) return raise_plain(L, lr, &err);
  lua_pushinteger(L, (lua_Integer)map);
  return 1;
}

static uint64_t opt_uid(lua_State *L, int arg) {
  return lua_isnoneornil(L, arg) ? 0 : (uint64_t)lstrata_checkinteger(L, arg);
}

#define CALL(L, lr, expr)                                                     \
  do {                                                                        \
    strata_error err_;                                                        \
    strata_error *err = &err_;                                                \
    if ((expr)) return raise_plain((L), (lr), err);                           \
  } while (0)

/* rt:add_floor(area, map, n) */
static int rt_add_floor(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_area_add_floor(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), (uint64_t)lstrata_checkinteger(L, 3),
                                    lstrata_checkinteger(L, 4), err));
  return 0;
}

/* rt:forget_floor(area, n) */
static int rt_forget_floor(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_area_forget_floor(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), lstrata_checkinteger(L, 3), err));
  return 0;
}

/* rt:create_area(archetype, parent|nil, params|nil, generator|nil, starting|nil, deepest|nil
**                [, x, y, on_floor|nil]) -> uid [, entrance uid]: with x, y its entrance on the parent too */
static int rt_create_area(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  const char *arch = lstrata_checkstring(L, 2);
  strata_area_opts o;
  memset(&o, 0, sizeof o);
  o.parent = opt_uid(L, 3);
  strata_value params = strata_value_nil();
  o.generator = lstrata_optstring(L, 5, NULL);
  if (!lua_isnoneornil(L, 6)) { o.has_starting_floor = 1; o.starting_floor = lstrata_checkinteger(L, 6); }
  if (!lua_isnoneornil(L, 7)) { o.has_deepest_floor = 1; o.deepest_floor = lstrata_checkinteger(L, 7); }
  if (!lua_isnoneornil(L, 4)) {
    lstrata_check_value(L, lr->w, 4, "area params", &params);
    o.params = &params;
  }
  int at = !lua_isnoneornil(L, 8);
  int64_t x = at ? lstrata_checkinteger(L, 8) : 0, y = at ? lstrata_checkinteger(L, 9) : 0;
  int64_t on_floor = lua_isnoneornil(L, 10) ? 0 : lstrata_checkinteger(L, 10);
  uint64_t a = 0, e = 0;
  strata_error err;
  strata_status st = at ? strata_area_create_at(lr->rt, arch, &o, on_floor, x, y, &a, &e, &err)
                        : strata_area_create(lr->rt, arch, &o, &a, &err);
  strata_value_clear(&params);
  if (st) return raise_plain(L, lr, &err);
  lua_pushinteger(L, (lua_Integer)a);
  if (!at) return 1;
  lua_pushinteger(L, (lua_Integer)e);
  return 2;
}

/* rt:delete_area(area, delete_children) */
static int rt_delete_area(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_area_delete(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), lua_toboolean(L, 3), err));
  return 0;
}

/* rt:create_map(width, height, archetype|nil) -> uid */
static int rt_create_map(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  uint64_t m = 0;
  CALL(L, lr, strata_map_create(lr->rt, lstrata_check_int(L, 2), lstrata_check_int(L, 3), lstrata_optstring(L, 4, NULL),
                                &m, err));
  lua_pushinteger(L, (lua_Integer)m);
  return 1;
}

/* rt:delete_map(map) */
static int rt_delete_map(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_map_delete(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), err));
  return 0;
}

/* rt:set_archetype(map, archetype|nil) */
static int rt_set_archetype(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_map_set_archetype(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), lstrata_optstring(L, 3, NULL), err));
  return 0;
}

/* rt:create_stairs(map, x, y, delta) -> uid */
static int rt_create_stairs(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  uint64_t f = 0;
  CALL(L, lr, strata_stairs_create(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), lstrata_checkinteger(L, 3),
                                   lstrata_checkinteger(L, 4), lstrata_checkinteger(L, 5), &f, err));
  lua_pushinteger(L, (lua_Integer)f);
  return 1;
}

/* rt:create_entrance(map, x, y, area or map, floor|nil) -> uid */
static int rt_create_entrance(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  uint64_t f = 0;
  int64_t floor = 0;
  int has = !lua_isnoneornil(L, 6);
  if (has) floor = lstrata_checkinteger(L, 6);
  CALL(L, lr, strata_entrance_create(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), lstrata_checkinteger(L, 3),
                                     lstrata_checkinteger(L, 4), (uint64_t)lstrata_checkinteger(L, 5),
                                     has ? &floor : NULL, &f, err));
  lua_pushinteger(L, (lua_Integer)f);
  return 1;
}

/* rt:unique_area(id) -> uid */
static int rt_unique_area(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  uint64_t a = 0;
  CALL(L, lr, strata_unique_area(lr->rt, lstrata_checkstring(L, 2), &a, err));
  lua_pushinteger(L, (lua_Integer)a);
  return 1;
}

/* rt:regenerate_child_maps(map) -> { uid, ... } */
static int rt_regenerate_child_maps(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  uint64_t map = (uint64_t)lstrata_checkinteger(L, 2), list[256];
  size_t n = 0;
  CALL(L, lr, strata_regenerate_child_maps(lr->rt, map, list, 256, &n, err));
  lua_createtable(L, (int)(n < 256 ? n : 256), 0);
  for (size_t i = 0; i < n && i < 256; i++) {
    lua_pushinteger(L, (lua_Integer)list[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* rt:unique_areas_init() */
static int rt_unique_areas_init(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_unique_areas_init(lr->rt, err));
  return 0;
}

/* rt:renew(map): the base.map_renew timer's work */
static int rt_renew(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_map_renew(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), err));
  return 0;
}

/* rt:set_level(map, n) / rt:set_conquered(area, bool) / rt:set_starting_floor(area, n) /
** rt:set_deepest_floor(area, n|nil) */
static int rt_set_level(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_map_set_level(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), lstrata_checkinteger(L, 3), err));
  return 0;
}

/* rt:set_map_token(map, name, traits): kept with the map (strata_map_set_token) */
static int rt_set_map_token(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  uint64_t map = (uint64_t)lstrata_checkinteger(L, 2);
  const char *name = lstrata_checkstring(L, 3);
  strata_value traits;
  lstrata_check_value(L, lr->w, 4, "token traits", &traits);
  CALL(L, lr, strata_map_set_token(lr->rt, map, name, &traits, err));
  return 0;
}

static int rt_set_conquered(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_area_set_conquered(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), lua_toboolean(L, 3), err));
  return 0;
}

static int rt_set_starting_floor(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_area_set_starting_floor(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), lstrata_checkinteger(L, 3), err));
  return 0;
}

static int rt_set_deepest_floor(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  int64_t d = 0;
  int has = !lua_isnoneornil(L, 3);
  if (has) d = lstrata_checkinteger(L, 3);
  CALL(L, lr, strata_area_set_deepest_floor(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), has ? &d : NULL, err));
  return 0;
}

/* rt:player() -> uid | nil; rt:find_unique(id) -> uid | nil */
static int rt_player(lua_State *L) {
  uint64_t p = strata_player(check_rt(L, 1)->rt);
  if (p) lua_pushinteger(L, (lua_Integer)p);
  else lua_pushnil(L);
  return 1;
}

static int rt_find_unique(lua_State *L) {
  uint64_t a = strata_find_unique(check_rt(L, 1)->rt, lstrata_checkstring(L, 2));
  if (a) lua_pushinteger(L, (lua_Integer)a);
  else lua_pushnil(L);
  return 1;
}

/* rt:areas(archetype|nil, type|nil, parent|nil) -> { uid, ... } in uid order */
static int rt_areas(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  strata_area_filter f = { lstrata_optstring(L, 2, NULL), lstrata_optstring(L, 3, NULL), opt_uid(L, 4) };
  size_t n = strata_areas(lr->rt, &f, NULL, 0);
  uint64_t *list = lua_newuserdatauv(L, (n ? n : 1) * sizeof *list, 0); /* freed by the collector */
  lstrata_push_uids(L, list, strata_areas(lr->rt, &f, list, n));
  return 1;
}

/* rt:set_player(actor) */
static int rt_set_player(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_set_player(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), err));
  return 0;
}

/* rt:travel(actor, target, x|nil, y|nil) -> map uid, or nil when stopped */
static int rt_travel(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  strata_travel_opts o;
  memset(&o, 0, sizeof o);
  if (!lua_isnoneornil(L, 4)) {
    o.has_xy = 1;
    o.x = lstrata_checkinteger(L, 4);
    o.y = lstrata_checkinteger(L, 5);
  }
  uint64_t m = 0;
  CALL(L, lr, strata_travel(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), (uint64_t)lstrata_checkinteger(L, 3), &o, &m, err));
  if (m) lua_pushinteger(L, (lua_Integer)m);
  else lua_pushnil(L);
  return 1;
}

/* A value converted from arg, held by a userdata that frees it (its
** metatable from world.c), so that a later error leaks nothing. */
static strata_value *held_value(lua_State *L, lruntime *lr, int arg, const char *label) {
  strata_value *v = lua_newuserdatauv(L, sizeof *v, 0);
  *v = strata_value_nil();
  luaL_setmetatable(L, "strata.value_holder");
  if (arg && !lua_isnoneornil(L, arg)) lstrata_check_value(L, lr->w, arg, label, v);
  return v;
}

/* rt:emit(source|nil, event, params|nil, default|nil) -> the chain's result */
static int rt_emit(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  uint64_t source = opt_uid(L, 2);
  const char *event = lstrata_checkstring(L, 3);
  lua_settop(L, 5);
  strata_value *params = held_value(L, lr, 4, "event params");
  strata_value *dflt = held_value(L, lr, 5, "event default");
  strata_value *result = held_value(L, lr, 0, NULL);
  CALL(L, lr, strata_emit(lr->rt, source, event, params->type == STRATA_VNIL ? NULL : params,
                          dflt->type == STRATA_VNIL ? NULL : dflt, result, err));
  lstrata_runtime_table(L, lr);
  lua_rawgeti(L, -1, T_STATE);
  lstrata_push_value(L, lua_gettop(L), result);
  return 1;
}

/* rt:advance(dt, max_runs, max_total) -> { { timer =, handler =, mod =, message =, dropped = }, ... } */
static int rt_advance(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  double dt = lstrata_checknumber(L, 2);
  lua_Integer max_runs = lstrata_checkinteger(L, 3), max_total = lstrata_checkinteger(L, 4);
  strata_failures f = { NULL, 0, 0 };
  strata_error err;
  strata_status st = strata_advance_limited(lr->rt, dt, max_runs > 0 ? (uint64_t)max_runs : 0,
                                            max_total > 0 ? (uint64_t)max_total : 0, &f, &err);
  if (st) {
    strata_failures_clear(&f);
    return raise_plain(L, lr, &err);
  }
  lstrata_push_failures(L, &f);
  return 1;
}

void lstrata_push_failures(lua_State *L, strata_failures *f) {
  lua_createtable(L, (int)f->n, 0);
  for (size_t i = 0; i < f->n; i++) {
    const strata_failure *x = &f->items[i];
    lua_createtable(L, 0, 5);
    if (x->timer) { lua_pushinteger(L, (lua_Integer)x->timer); lua_setfield(L, -2, "timer"); }
    if (x->handler) { lua_pushstring(L, x->handler); lua_setfield(L, -2, "handler"); }
    if (x->mod) { lua_pushstring(L, x->mod); lua_setfield(L, -2, "mod"); }
    if (x->event) { lua_pushstring(L, x->event); lua_setfield(L, -2, "event"); } /* a turn's handler */
    if (x->has_dropped) {
      if (x->timer) lua_pushnumber(L, x->dropped);
      else lua_pushinteger(L, (lua_Integer)x->dropped); /* a number of timers */
      lua_setfield(L, -2, "dropped");
    }
    lua_pushstring(L, x->message);
    lua_setfield(L, -2, "message");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  strata_failures_clear(f);
}

/* rt:event_on(event, name, priority, handler ID) */
static int rt_event_on(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  strata_error err;
  if (strata_event_on(lr->rt, lstrata_checkstring(L, 2), lstrata_checkstring(L, 3), lstrata_checkinteger(L, 4),
                      lstrata_checkstring(L, 5), &err))
    return raise_plain(L, lr, &err);
  return 0;
}

/* rt:event_off(name) -> how many were removed */
static int rt_event_off(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  lua_pushinteger(L, (lua_Integer)strata_event_off(lr->rt, lstrata_checkstring(L, 2)));
  return 1;
}

/* rt:branch_generate(branch, exit) -> room uid: the room behind the
** unexplored exit, its spec from the branch's room generator (by ID) */
static int rt_branch_generate(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  lua_Integer b = lstrata_checkinteger(L, 2), e = lstrata_checkinteger(L, 3);
  uint64_t room = 0;
  strata_error err;
  if (strata_branch_generate(lr->rt, (uint64_t)b, (uint64_t)e, &room, &err)) return raise_plain(L, lr, &err);
  lua_pushinteger(L, (lua_Integer)room);
  return 1;
}

/* ---- moving (move.h): true, or nil and the core's reason ---- */

static int moved(lua_State *L, const strata_move_outcome *out) {
  if (out->refusal == STRATA_MOVE_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushnil(L);
  lua_pushstring(L, out->reason);
  return 2;
}

/* rt:move(actor, x, y) */
static int rt_move(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  strata_move_outcome out;
  CALL(L, lr, strata_move(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), lstrata_checkinteger(L, 3), lstrata_checkinteger(L, 4),
                          &out, err));
  return moved(L, &out);
}

/* rt:go(actor, dir) */
static int rt_go(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  strata_move_outcome out;
  CALL(L, lr, strata_go(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), lstrata_checkstring(L, 3), &out, err));
  return moved(L, &out);
}

/* rt:move_to_room(object, room, exit|nil) */
static int rt_move_to_room(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  strata_move_outcome out;
  CALL(L, lr, strata_move_to_room(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), (uint64_t)lstrata_checkinteger(L, 3),
                                  opt_uid(L, 4), &out, err));
  return moved(L, &out);
}

/* rt:grid_teleport(actor, x, y, z|nil) */
static int rt_grid_teleport(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  strata_move_outcome out;
  CALL(L, lr, strata_grid_teleport(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), (int)lstrata_checkinteger(L, 3),
                                   (int)lstrata_checkinteger(L, 4), lstrata_optstring(L, 5, NULL), &out, err));
  return moved(L, &out);
}

/* rt:walk(actor, x, y, every) */
static int rt_walk(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_walk(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), lstrata_checkinteger(L, 3), lstrata_checkinteger(L, 4),
                          lstrata_checknumber(L, 5), err));
  return 0;
}

/* rt:walk_rooms(actor, room, { exit name, ... }, every) */
static int rt_walk_rooms(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  lstrata_checktype(L, 4, LUA_TTABLE);
  size_t n = lua_rawlen(L, 4);
  const char **route = lua_newuserdatauv(L, (n ? n : 1) * sizeof *route, 0); /* freed by the collector */
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, 4, (lua_Integer)i + 1);
    route[i] = lua_tostring(L, -1); /* (the table keeps the strings alive) */
    lua_pop(L, 1);
  }
  CALL(L, lr, strata_walk_rooms(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), (uint64_t)lstrata_checkinteger(L, 3),
                                route, n, lstrata_checknumber(L, 5), err));
  return 0;
}

/* rt:walk_cancel(actor) -> whether it was walking */
static int rt_walk_cancel(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  int stopped = 0;
  CALL(L, lr, strata_walk_cancel(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), &stopped, err));
  lua_pushboolean(L, stopped);
  return 1;
}

/* rt:walk_state(actor) -> "walking" | ... | nil (never walked) */
static int rt_walk_state(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  const char *s = strata_walk_state_name(strata_walk_state_of(lr->rt, (uint64_t)lstrata_checkinteger(L, 2)));
  if (s) lua_pushstring(L, s);
  else lua_pushnil(L);
  return 1;
}

/* rt:branch_collapse(branch) */
static int rt_branch_collapse(lua_State *L) {
  lruntime *lr = check_rt(L, 1);
  CALL(L, lr, strata_branch_collapse(lr->rt, (uint64_t)lstrata_checkinteger(L, 2), err));
  return 0;
}

/* rt:drop_cache(): definitions and callables are asked for again (a reload) */
static int rt_drop_cache(lua_State *L) {
  lstrata_runtime_drop_cache(check_rt(L, 1));
  return 0;
}

static const luaL_Reg rt_methods[] = {
  { "floor", rt_floor }, { "add_floor", rt_add_floor }, { "forget_floor", rt_forget_floor },
  { "create_area", rt_create_area }, { "delete_area", rt_delete_area },
  { "create_map", rt_create_map }, { "delete_map", rt_delete_map }, { "set_archetype", rt_set_archetype },
  { "create_stairs", rt_create_stairs }, { "create_entrance", rt_create_entrance },
  { "unique_area", rt_unique_area }, { "regenerate_child_maps", rt_regenerate_child_maps },
  { "unique_areas_init", rt_unique_areas_init }, { "set_player", rt_set_player }, { "travel", rt_travel },
  { "renew", rt_renew }, { "player", rt_player }, { "find_unique", rt_find_unique }, { "areas", rt_areas }, { "set_level", rt_set_level }, { "set_conquered", rt_set_conquered },
  { "set_starting_floor", rt_set_starting_floor }, { "set_deepest_floor", rt_set_deepest_floor },
  { "set_map_token", rt_set_map_token }, { "emit", rt_emit }, { "advance", rt_advance }, { "event_on", rt_event_on }, { "event_off", rt_event_off },
  { "branch_generate", rt_branch_generate }, { "drop_cache", rt_drop_cache },
  { "move", rt_move }, { "go", rt_go }, { "move_to_room", rt_move_to_room }, { "grid_teleport", rt_grid_teleport }, { "walk", rt_walk },
  { "walk_rooms", rt_walk_rooms }, { "walk_cancel", rt_walk_cancel }, { "walk_state", rt_walk_state },
  { "branch_collapse", rt_branch_collapse }, { NULL, NULL } };

/* The Lua API function each method does the work of, naming its errors.
** Methods serving several (emit, advance) raise the message alone, for the
** public function's boundary to name (lua/strata/boundary.lua). */
static const luaL_Reg rt_public[] = {
  { "area:floor", rt_floor }, { "area:add_floor", rt_add_floor }, { "area:forget_floor", rt_forget_floor },
  { "world:create_area", rt_create_area }, { "area:delete", rt_delete_area },
  { "world:create_map", rt_create_map }, { "map:delete", rt_delete_map }, { "map.archetype", rt_set_archetype },
  { "world:create_stairs", rt_create_stairs }, { "world:create_entrance", rt_create_entrance },
  { "world:unique_area", rt_unique_area }, { "world:regenerate_child_maps", rt_regenerate_child_maps },
  { "world:create_actor", rt_set_player }, { "world:travel", rt_travel }, { "map.level", rt_set_level },
  { "map:define_token", rt_set_map_token },
  { "area:set_conquered", rt_set_conquered }, { "area.starting_floor", rt_set_starting_floor },
  { "area.deepest_floor", rt_set_deepest_floor }, { "world:move", rt_move }, { "world:go", rt_go },
  { "world:walk", rt_walk }, { "world:walk", rt_walk_rooms }, { "plan:cancel", rt_walk_cancel },
  { "branch:collapse", rt_branch_collapse }, { NULL, NULL } };

void lstrata_open_runtime(lua_State *L) {
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "v");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lstrata_runtimes);
  luaL_newmetatable(L, RUNTIME_MT);
  luaL_newlib(L, rt_methods);
  luaL_setfuncs(L, lstrata_schema_methods, 0); /* the bookkeeping's getters */
  lua_setfield(L, -2, "__index");
  lstrata_name_functions(L, "", rt_public);
  lua_pushcfunction(L, rt_gc);
  lua_setfield(L, -2, "__gc");
  lstrata_protect_metatable(L, RUNTIME_MT);
  lua_pop(L, 1);
  lua_newtable(L);
  lua_pushcfunction(L, rt_new);
  lua_setfield(L, -2, "new");
  /* runtime.logic: the strata_logic kinds by name, as the dispatcher gets them */
  static const struct { const char *name; strata_logic kind; } logic[] = {
    { "generate_floor", STRATA_LOGIC_GENERATE_FLOOR }, { "generate", STRATA_LOGIC_GENERATE },
    { "on_spawn", STRATA_LOGIC_ON_SPAWN }, { "on_load", STRATA_LOGIC_ON_LOAD },
    { "on_enter", STRATA_LOGIC_ON_ENTER }, { "on_leave", STRATA_LOGIC_ON_LEAVE },
    { "on_restock", STRATA_LOGIC_ON_RESTOCK }, { "on_renew", STRATA_LOGIC_ON_RENEW },
    { "starting_pos", STRATA_LOGIC_STARTING_POS }, { "event", STRATA_LOGIC_EVENT },
    { "handler", STRATA_LOGIC_HANDLER }, { "generate_room", STRATA_LOGIC_GENERATE_ROOM } };
  lua_createtable(L, 0, (int)(sizeof logic / sizeof *logic));
  for (size_t i = 0; i < sizeof logic / sizeof *logic; i++) {
    lua_pushinteger(L, logic[i].kind);
    lua_setfield(L, -2, logic[i].name);
  }
  lua_setfield(L, -2, "logic");
  lua_setfield(L, -2, "runtime");
}
