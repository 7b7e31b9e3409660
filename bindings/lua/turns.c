/*
** turns.c - the turn scheduler (strata/turns.h) as methods of the
** "strata.runtime" userdata, which lua/strata/turns.lua calls with uids
** once it has checked its arguments' shapes. The schedule is the core's:
** nothing is kept here.
*/
#include "lruntime.h"
#include "strata/turns.h"

static int raise_turns(lua_State *L, const strata_error *err) { return lstrata_raise(L, NULL, err); }

/* rt:add_turns(uid, speed, delay (< 0: none)) */
static int rt_add_turns(lua_State *L) {
  lruntime *lr = lstrata_check_runtime(L, 1);
  strata_error err;
  if (strata_turns_add(lr->w, (uint64_t)lstrata_checkinteger(L, 2), lstrata_checknumber(L, 3),
                       lstrata_checknumber(L, 4), &err))
    return raise_turns(L, &err);
  return 0;
}

/* rt:remove_turns(uid) -> whether it was in the schedule */
static int rt_remove_turns(lua_State *L) {
  lruntime *lr = lstrata_check_runtime(L, 1);
  strata_error err;
  int removed = 0;
  if (strata_turns_remove(lr->w, (uint64_t)lstrata_checkinteger(L, 2), &removed, &err)) return raise_turns(L, &err);
  lua_pushboolean(L, removed);
  return 1;
}

/* rt:turn_took(uid, duration) */
static int rt_turn_took(lua_State *L) {
  lruntime *lr = lstrata_check_runtime(L, 1);
  strata_error err;
  if (strata_turn_took(lr->w, (uint64_t)lstrata_checkinteger(L, 2), lstrata_checknumber(L, 3), &err))
    return raise_turns(L, &err);
  return 0;
}

/* rt:turn_info(uid) -> { speed =, due =, started = } | nil */
static int rt_turn_info(lua_State *L) {
  lruntime *lr = lstrata_check_runtime(L, 1);
  strata_turn t;
  if (!strata_turn_of(lr->w, (uint64_t)lstrata_checkinteger(L, 2), &t)) return 0;
  lua_createtable(L, 0, 3);
  lua_pushnumber(L, t.speed);
  lua_setfield(L, -2, "speed");
  lua_pushnumber(L, t.due);
  lua_setfield(L, -2, "due");
  lua_pushnumber(L, t.started);
  lua_setfield(L, -2, "started");
  return 1;
}

/* rt:next_turn() -> uid | nil, failures */
static int rt_next_turn(lua_State *L) {
  lruntime *lr = lstrata_check_runtime(L, 1);
  strata_failures f = { NULL, 0, 0 };
  strata_error err;
  uint64_t actor = 0;
  if (strata_world_next_turn(lr->rt, &actor, &f, &err)) {
    strata_failures_clear(&f);
    return lstrata_raise_text(L, NULL, &err, strata_runtime_failure_text(lr->rt, &err));
  }
  if (actor) lua_pushinteger(L, (lua_Integer)actor);
  else lua_pushnil(L);
  lstrata_push_failures(L, &f);
  return 2;
}

void lstrata_open_turns(lua_State *L) {
  static const luaL_Reg methods[] = { { "add_turns", rt_add_turns }, { "remove_turns", rt_remove_turns },
                                      { "turn_took", rt_turn_took }, { "turn_info", rt_turn_info },
                                      { "next_turn", rt_next_turn }, { NULL, NULL } };
  lstrata_add_methods(L, "strata.runtime", "world", methods);
}
