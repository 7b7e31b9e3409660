/*
** walk.c - walks: an actor's stored plan, stepped by the core's own
** base.walk_step timer (move.h).
**
** The plan is the actor's bookkeeping, sys.walk = { x, y, every, timer,
** state } on a tile map, { room, i, every, timer, state } through rooms
** with sys.walk_route = { exit name, ... } (the layout saves have had since
** walks were Lua's). A tile walk schedules each step as a one-shot timer and
** finds its route again at each step (the map may have changed); a room walk
** keeps one repeating timer until it ends, so a step costs no new timer.
*/
#include "runtime_internal.h"

#include <math.h>

#include "strata/grid.h"
#include "strata/room.h"
#include "strata/tilemap.h"

static const char *const state_names[] = { NULL, "walking", "arrived", "blocked", "cancelled", "interrupted" };
#define NSTATES (sizeof state_names / sizeof *state_names)

const char *strata_walk_state_name(strata_walk_state s) {
  return (size_t)s < NSTATES ? state_names[s] : NULL;
}

/* The plan's field k (sys.h: a record walk.c spells). */
static const strata_value *plan_get(const strata_world *w, uint64_t actor, const char *k) {
  strata_value key = K(k);
  return record_get(w, actor, SYS_RECORD_WALK, &key);
}

static strata_walk_state state_of(const strata_world *w, uint64_t actor) {
  const strata_value *plan = record_get(w, actor, SYS_RECORD_WALK, NULL);
  if (!plan || plan->type != STRATA_VTABLE) return STRATA_WALK_NONE;
  const char *s = value_str(plan_get(w, actor, "state"));
  for (size_t i = 1; s && i < NSTATES; i++)
    if (strcmp(s, state_names[i]) == 0) return (strata_walk_state)i;
  return STRATA_WALK_CANCELLED; /* a plan without a state walks no more */
}

strata_walk_state strata_walk_state_of(const strata_runtime *rt, uint64_t actor) {
  return state_of(rt->w, actor);
}

static strata_status set_field(strata_world *w, uint64_t actor, const char *k, strata_value v, strata_error *err) {
  strata_value key = K(k);
  return record_put(w, actor, SYS_RECORD_WALK, &key, &v, err);
}

static strata_status set_state(strata_world *w, uint64_t actor, strata_walk_state s, strata_error *err) {
  const char *name = state_names[s];
  strata_value v;
  strata_status st = strata_value_string(&v, name, strlen(name), err);
  return st ? st : set_field(w, actor, "state", v, err);
}

/* The plan's timer cancelled and forgotten (it may have fired already). */
static strata_status drop_timer(strata_world *w, uint64_t actor, strata_error *err) {
  uint64_t t = value_uid(plan_get(w, actor, "timer"));
  if (t) strata_world_cancel(w, t, NULL);
  return set_field(w, actor, "timer", strata_value_nil(), err);
}

/* Ends the walk with state s. */
static strata_status stop(strata_world *w, uint64_t actor, strata_walk_state s, strata_error *err) {
  strata_status st = drop_timer(w, actor, err);
  return st ? st : set_state(w, actor, s, err);
}

static strata_status step_timer(strata_world *w, uint64_t actor, double every, int repeat, uint64_t *timer,
                                strata_error *err) {
  strata_value args;
  strata_status st = strata_value_table(&args, err);
  if (st) return st;
  if (!(st = params_int(&args, "actor", (int64_t)actor, err)))
    st = strata_world_schedule(w, strata_world_time(w) + every, repeat ? every : 0, "base.walk_step", &args, timer,
                               err);
  strata_value_clear(&args);
  return st;
}

static strata_status check_walk(strata_runtime *rt, uint64_t actor, double every, const char *what,
                                strata_error *err) {
  strata_status st = move_check_actor(rt, actor, what, err);
  if (st) return st;
  if (!(every >= STRATA_TIMER_MIN_EVERY) || isinf(every))
    return strata_error_in(err, STRATA_EARG, what, "step_every must be a number of at least %g seconds",
                           STRATA_TIMER_MIN_EVERY);
  return STRATA_OK;
}

/* A new plan in place of the last: its fields, its first step's timer. */
static strata_status begin(strata_runtime *rt, uint64_t actor, const char *const *keys, const int64_t *vals,
                           size_t n, double every, int repeat, strata_error *err) {
  strata_world *w = rt->w;
  strata_status st = STRATA_OK;
  if (state_of(w, actor) == STRATA_WALK_WALKING) st = drop_timer(w, actor, err);
  uint64_t timer;
  strata_value plan, k, v;
  if (!st) st = step_timer(w, actor, every, repeat, &timer, err);
  if (!st) st = strata_value_table(&plan, err);
  if (st) return st;
  for (size_t i = 0; i < n && !st; i++) {
    k = K(keys[i]);
    v = strata_value_int(vals[i]);
    st = strata_vtable_set(plan.u.t, &k, &v, err);
  }
  k = K("every"), v = strata_value_float(every);
  if (!st) st = strata_vtable_set(plan.u.t, &k, &v, err);
  k = K("timer"), v = strata_value_int((int64_t)timer);
  if (!st) st = strata_vtable_set(plan.u.t, &k, &v, err);
  k = K("state");
  if (!st && !(st = strata_value_string(&v, "walking", 7, err)) && (st = strata_vtable_set(plan.u.t, &k, &v, err)))
    strata_value_clear(&v);
  if (st) { strata_value_clear(&plan); return st; }
  return record_put(w, actor, SYS_RECORD_WALK, NULL, &plan, err);
}

strata_status strata_walk(strata_runtime *rt, uint64_t actor, int64_t x, int64_t y, double every,
                          strata_error *err) {
  strata_status st = check_walk(rt, actor, every, "strata_walk", err);
  if (st || (st = rt_begin(rt, err))) return st;
  static const char *const keys[] = { "x", "y" };
  int64_t vals[] = { x, y };
  st = begin(rt, actor, keys, vals, 2, every, 0, err);
  strata_value none = strata_value_nil();
  if (!st) st = record_put(rt->w, actor, SYS_RECORD_WALK_ROUTE, NULL, &none, err);
  return rt_end(rt, st);
}

strata_status strata_walk_rooms(strata_runtime *rt, uint64_t actor, uint64_t room, const char *const *route,
                                size_t n, double every, strata_error *err) {
  char b[48];
  strata_status st = check_walk(rt, actor, every, "strata_walk_rooms", err);
  if (st) return st;
  if (!strata_is_room(rt->w, room))
    return strata_error_in(err, STRATA_ENOTFOUND, "strata_walk_rooms", "%s is no live room", rt_label(rt, room, b));
  if (!strata_room_of(rt->w, actor))
    return strata_error_in(err, STRATA_ESTATE, "strata_walk_rooms", "%s is in no room", rt_label(rt, actor, b));
  for (size_t i = 0; i < n; i++)
    if (!route[i] || !*route[i])
      return strata_error_in(err, STRATA_EARG, "strata_walk_rooms", "step %zu of the route is no exit name", i + 1);
  strata_value list, k, v;
  if ((st = strata_value_table(&list, err))) return st;
  for (size_t i = 0; i < n && !st; i++) {
    k = strata_value_int((int64_t)i + 1);
    if (!(st = strata_value_string(&v, route[i], strlen(route[i]), err)) &&
        (st = strata_vtable_set(list.u.t, &k, &v, err)))
      strata_value_clear(&v);
  }
  if (st || (st = rt_begin(rt, err))) { strata_value_clear(&list); return st; }
  static const char *const keys[] = { "room", "i" };
  int64_t vals[] = { (int64_t)room, 1 };
  st = begin(rt, actor, keys, vals, 2, every, 1, err);
  if (!st) st = record_put(rt->w, actor, SYS_RECORD_WALK_ROUTE, NULL, &list, err);
  else strata_value_clear(&list);
  return rt_end(rt, st);
}

strata_status strata_walk_cancel(strata_runtime *rt, uint64_t actor, int *stopped, strata_error *err) {
  if (stopped) *stopped = 0;
  if (state_of(rt->w, actor) != STRATA_WALK_WALKING) return STRATA_OK;
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  if ((st = rt_end(rt, stop(rt->w, actor, STRATA_WALK_CANCELLED, err)))) return st;
  if (stopped) *stopped = 1;
  return STRATA_OK;
}

/* ---- the steps ---- */

/* One step through rooms: the exit named by route[i]. */
static strata_status room_step(strata_runtime *rt, uint64_t actor, strata_error *err) {
  strata_world *w = rt->w;
  int64_t i = 1;
  value_int(plan_get(w, actor, "i"), &i);
  uint64_t target = value_uid(plan_get(w, actor, "room"));
  strata_value step = strata_value_int(i);
  const char *dir = value_str(record_get(w, actor, SYS_RECORD_WALK_ROUTE, &step));
  uint64_t here = strata_room_of(w, actor);
  if (!dir) return stop(w, actor, here == target ? STRATA_WALK_ARRIVED : STRATA_WALK_BLOCKED, err);
  uint64_t e = here ? strata_exit_find(w, here, dir) : 0, to = e ? strata_exit_to(w, e) : 0;
  if (!to) return stop(w, actor, STRATA_WALK_BLOCKED, err);
  int link = 0, node = 0;
  strata_grid_pos(w, e, NULL, NULL, NULL, NULL, &link);
  strata_grid_pos(w, to, NULL, NULL, NULL, NULL, &node);
  if (link) return stop(w, actor, STRATA_WALK_INTERRUPTED, err);
  strata_move_outcome out;
  move_refuse(&out, STRATA_MOVE_OK, "");
  strata_status st = move_enter(rt, actor, here, to, e, &out, err);
  if (st) return st;
  if (out.refusal) return stop(w, actor, STRATA_WALK_BLOCKED, err);
  if ((st = set_field(w, actor, "i", strata_value_int(i + 1), err))) return st;
  if (to == target) return stop(w, actor, STRATA_WALK_ARRIVED, err);
  return node ? stop(w, actor, STRATA_WALK_INTERRUPTED, err) : STRATA_OK;
}

/* One step on a tile map: along the cheapest 8-neighbour route as it is now. */
static strata_status tile_step(strata_runtime *rt, uint64_t actor, strata_error *err) {
  strata_world *w = rt->w;
  int64_t tx, ty;
  double every = 1;
  value_num(plan_get(w, actor, "every"), &every);
  strata_status st = set_field(w, actor, "timer", strata_value_nil(), err); /* fired: a one-shot timer */
  if (st) return st;
  const strata_object *a = strata_world_get(w, actor);
  strata_tilemap *tm = a->has_pos && rt_object(rt, a->map, NULL) ? strata_world_tilemap(w, a->map) : NULL;
  if (!tm || !value_int(plan_get(w, actor, "x"), &tx) || !value_int(plan_get(w, actor, "y"), &ty) ||
      tx < 0 || ty < 0 || tx >= strata_tilemap_width(tm) || ty >= strata_tilemap_height(tm))
    return stop(w, actor, STRATA_WALK_BLOCKED, err);
  strata_grid_options o;
  strata_grid_options_init(&o);
  o.connectivity = 8;
  strata_path path;
  strata_path_init(&path);
  int width = strata_tilemap_width(tm);
  st = strata_tilemap_find_path(tm, (int)a->x, (int)a->y, (int)tx, (int)ty, &o, &path, err);
  int64_t nx = path.len > 1 ? path.nodes[1] % (uint32_t)width : 0, ny = path.len > 1 ? path.nodes[1] / (uint32_t)width : 0;
  size_t len = path.len;
  strata_path_free(&path);
  if (st) return st;
  if (len == 0) return stop(w, actor, STRATA_WALK_BLOCKED, err);
  if (len > 1) {
    strata_move_outcome out;
    move_refuse(&out, STRATA_MOVE_OK, "");
    if ((st = move_on_map(rt, actor, nx, ny, &out, err))) return st;
    if (out.refusal) return stop(w, actor, STRATA_WALK_BLOCKED, err);
  }
  a = strata_world_get(w, actor);
  if (a && a->x == tx && a->y == ty) return stop(w, actor, STRATA_WALK_ARRIVED, err);
  uint64_t timer;
  if ((st = step_timer(w, actor, every, 0, &timer, err))) return st;
  return set_field(w, actor, "timer", strata_value_int((int64_t)timer), err);
}

/* base.walk_step: the actor's next step (a plan that stopped meanwhile: its
** repeating timer goes). */
strata_status walk_step_fired(strata_call *call, void *data, strata_error *err) {
  (void)data;
  strata_runtime *rt = call->rt;
  uint64_t actor = args_uid(call->args, "actor");
  if (!strata_world_object(rt->w, actor)) return STRATA_OK;
  if (state_of(rt->w, actor) != STRATA_WALK_WALKING) {
    if (call->timer) strata_world_cancel(rt->w, call->timer, NULL);
    return STRATA_OK;
  }
  if (plan_get(rt->w, actor, "room")) return room_step(rt, actor, err);
  return tile_step(rt, actor, err);
}
