/*
** travel.c - the player, and an actor's journey through an entrance, stairs
** or straight to a map, in the order docs/areas.md gives.
**
** The whole journey is one savepoint, so that a hook failing half-way (an
** on_enter that raises) leaves the actor where it was, with nothing
** generated, left or entered. Event handlers inside it are undone one by
** one when they fail, as anywhere else.
*/
#include "runtime_internal.h"

#include <inttypes.h>
#include <stdlib.h>

/* ---- the player ---- */

uint64_t strata_current_map(const strata_runtime *rt) {
  strata_object *p = strata_world_object(rt->w, strata_player(rt));
  return p && p->has_pos && rt_object(rt, p->map, NULL) ? p->map : 0;
}

uint64_t strata_current_area(const strata_runtime *rt, int64_t *floor) {
  uint64_t m = strata_current_map(rt);
  if (floor) *floor = 0;
  return m ? strata_map_area(rt, m, floor) : 0;
}

/* actor is no live actor: refused in the name of `what`. */
static strata_status refuse_actor(const strata_runtime *rt, uint64_t actor, const char *what, strata_error *err) {
  char b[48];
  int exists = strata_world_object(rt->w, actor) != NULL;
  return strata_error_refuse(err, exists ? STRATA_EARG : STRATA_ENOTFOUND, what,
                             exists ? STRATA_REFUSED_KIND : STRATA_REFUSED_DELETED, actor,
                             "expected a live actor, got %s", rt_label(rt, actor, b));
}

strata_status strata_set_player(strata_runtime *rt, uint64_t actor, strata_error *err) {
  if (!rt_object(rt, actor, "actor")) return refuse_actor(rt, actor, "strata_set_player", err);
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  /* as world:create_actor{ player = true } does: state.player, then the record */
  strata_value path[2] = { K("state"), K("player") }, v;
  const strata_value *state = prop_get(rt->w, actor, "state");
  if (!state || state->type != STRATA_VTABLE) {
    if (!(st = strata_value_table(&v, err))) {
      st = strata_object_set(rt->w, actor, path, 1, &v, err);
      strata_value_clear(&v);
    }
  }
  v = strata_value_bool(1);
  if (!st) st = strata_object_set(rt->w, actor, path, 2, &v, err);
  uint64_t rec;
  if (!st) st = rt_record_make(rt, &rec, err);
  if (!st) st = record_set_player(rt, actor, err);
  return rt_end(rt, st);
}

/* ---- where a journey leads ---- */

typedef enum via { VIA_MAP, VIA_ENTRANCE, VIA_STAIRS, VIA_EXIT } via;

typedef struct dest {
  via via;
  uint64_t map;                 /* a map to go to, or 0: floor `floor` of `area` */
  uint64_t area;
  int64_t floor, delta;
  int has_xy;
  int64_t x, y;                 /* VIA_EXIT: the entrance in the parent */
} dest;

static strata_status destination(strata_runtime *rt, uint64_t target, dest *d, const char *what,
                                 strata_error *err) {
  char a[48], b[48];
  strata_world *w = rt->w;
  strata_object *t = strata_world_object(w, target);
  memset(d, 0, sizeof *d);
  if (!t) return strata_error_refuse(err, STRATA_ENOTFOUND, what, STRATA_REFUSED_DELETED, target, "%s was deleted",
                                     rt_label(rt, target, a));
  if (strcmp(t->kind, "map") == 0) {
    d->via = VIA_MAP;
    d->map = target;
    return STRATA_OK;
  }
  struct stair at;
  switch (strcmp(t->kind, "feature") == 0 ? feature_type_at(rt, t, &at) : STRATA_FEATURE_NONE) {
  case STRATA_FEATURE_ENTRANCE: {
    uint64_t area = at.area;
    if (!rt_object(rt, area, NULL))
      return strata_error_refuse(err, STRATA_ENOTFOUND, what, STRATA_REFUSED_DELETED, area,
                                 "%s leads to area#%" PRIu64 ", which was deleted", rt_label(rt, target, a), area);
    d->via = VIA_ENTRANCE;
    d->area = area;
    d->floor = at.has_floor ? at.floor : strata_area_starting_floor(rt, area);
    return STRATA_OK;
  }
  case STRATA_FEATURE_STAIRS: {
    int64_t n = 0, deepest;
    int has = 0;
    uint64_t m = t->map;
    uint64_t area = t->has_pos ? map_area_floor(rt, m, &n, &has) : 0;
    if (!rt_object(rt, area, NULL) || !has) {
      strata_error_refuse(err, STRATA_ESTATE, what, STRATA_REFUSED_NO_AREA, target,
                          "%s stand on %s, which is not a floor of any area (add it to an area as a floor, "
                          "or return it from a floor generator)", rt_label(rt, target, a), rt_label(rt, m, b));
      if (err) err->subject[1] = m;
      return STRATA_ESTATE;
    }
    d->delta = at.delta;
    int64_t to = n + d->delta;
    if (d->delta < 0 && to < strata_area_starting_floor(rt, area)) {
      uint64_t em = area_entrance(rt, area, &d->x, &d->y, &d->has_xy);
      if (!rt_object(rt, em, NULL)) {
        strata_error_refuse(err, STRATA_ESTATE, what, STRATA_REFUSED_NO_WAY_UP, target,
                            "%s leads up out of %s, which has no entrance to return to", rt_label(rt, target, a),
                            rt_label(rt, area, b));
        if (err) err->subject[1] = area;
        return STRATA_ESTATE;
      }
      d->via = VIA_EXIT;
      d->map = em;
      return STRATA_OK;
    }
    if (strata_area_deepest_floor(rt, area, &deepest) && to > deepest)
      return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_DEEPEST, area,
                                 "floor %" PRId64 " of %s is below its deepest floor (%" PRId64 ")", to,
                                 rt_label(rt, area, a), deepest);
    d->via = VIA_STAIRS;
    d->area = area;
    d->floor = to;
    return STRATA_OK;
  }
  default:
    return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_KIND, target,
                               "%s is neither an entrance nor stairs, nor a map", rt_label(rt, target, a));
  }
}

/* The first stairs on map with floor_delta == delta: 1 and where they are. */
static int stairs_with(const strata_runtime *rt, uint64_t map, int64_t delta, int64_t *x,
                       int64_t *y) {
  uint64_t u = feature_stairs_on(rt, map, delta);
  const strata_object *o = u ? strata_world_get(rt->w, u) : NULL;
  if (!o) return 0;
  *x = o->x;
  *y = o->y;
  return 1;
}

/* The archetype's starting_pos: a function first, else a fixed point. */
static strata_status starting_pos(strata_runtime *rt, uint64_t map, uint64_t actor, int *found,
                                  int64_t *x, int64_t *y, strata_error *err) {
  const strata_map_archetype *ma = map_archetype_of(rt, map);
  *found = 0;
  if (!ma) return STRATA_OK;
  strata_call call;
  rt_call_init(&call, rt, STRATA_LOGIC_STARTING_POS, NULL);
  call.actor = actor;
  strata_status st = rt_map_hook(rt, map, STRATA_LOGIC_STARTING_POS, &call, NULL, err);
  if (st) return st;
  if (call.has_pos) { *found = 1; *x = call.x; *y = call.y; }
  else if (ma->has_starting_pos) { *found = 1; *x = ma->start_x; *y = ma->start_y; }
  return STRATA_OK;
}

static strata_status map_hook(strata_runtime *rt, uint64_t map, strata_logic kind, uint64_t actor,
                              uint64_t from, uint64_t to, strata_error *err) {
  strata_call call;
  rt_call_init(&call, rt, kind, NULL);
  call.actor = actor;
  call.from = from;
  call.to = to;
  return rt_map_hook(rt, map, kind, &call, NULL, err);
}

static strata_status emit_on(strata_runtime *rt, uint64_t source, const char *event,
                             uint64_t actor, uint64_t from, uint64_t to, strata_error *err) {
  event_params p;
  params_start(&p);
  params_put(&p, "actor", strata_value_ref(actor));
  params_put(&p, "from", strata_value_ref(from));
  params_put(&p, "to", strata_value_ref(to));
  return event_emit(rt, source, event, &p.v, NULL, NULL, err);
}

/* Whether an actor other than `actor` stands on map. */
static int other_actors(const strata_runtime *rt, uint64_t map, uint64_t actor) {
  for (uint64_t u = strata_world_next_on(rt->w, map, 0); u; u = strata_world_next_on(rt->w, map, u))
    if (u != actor && strcmp(strata_world_get(rt->w, u)->kind, "actor") == 0) return 1;
  return 0;
}

static strata_status journey(strata_runtime *rt, uint64_t actor, uint64_t target,
                             const strata_travel_opts *opts, uint64_t *out, uint64_t *loaded,
                             strata_error *err) {
  const char *what = "strata_travel";
  strata_world *w = rt->w;
  dest d;
  strata_status st = destination(rt, target, &d, what, err);
  if (st) return st;
  strata_object *a = strata_world_object(w, actor);
  uint64_t from = a->has_pos && rt_object(rt, a->map, NULL) ? a->map : 0;
  /* base.before_travel: false stops the journey */
  strata_value yes = strata_value_bool(1), go;
  event_params p;
  params_start(&p);
  params_put(&p, "actor", strata_value_ref(actor));
  params_put(&p, "from", strata_value_ref(from));
  params_put(&p, "to", strata_value_ref(d.map));
  params_put(&p, "area", strata_value_ref(d.area));
  if (d.area) params_put(&p, "floor", strata_value_int(d.floor));
  if (d.via != VIA_MAP) params_put(&p, "feature", strata_value_ref(target));
  if ((st = event_emit(rt, actor, "base.before_travel", &p.v, &yes, &go, err))) return st;
  int stopped = go.type == STRATA_VBOOL && !go.u.b;
  strata_value_clear(&go);
  if (stopped) { *out = 0; return STRATA_OK; }
  /* the map reached, generated if needed */
  uint64_t m = d.map;
  if (!m && (st = strata_area_floor(rt, d.area, d.floor, &m, err))) return st;
  /* the arrival cell */
  int64_t x = 0, y = 0;
  int found = 0;
  if (opts && opts->has_xy) {
    if ((st = map_check_cell(rt, m, opts->x, opts->y, what, err))) return st;
    x = opts->x;
    y = opts->y;
  } else {
    if (d.via == VIA_STAIRS) found = stairs_with(rt, m, -d.delta, &x, &y);
    else if (d.via == VIA_ENTRANCE) found = stairs_with(rt, m, -1, &x, &y);
    if (!found && d.has_xy) { found = 1; x = d.x; y = d.y; }
    if (!found && (st = starting_pos(rt, m, actor, &found, &x, &y, err))) return st;
    strata_tilemap *tm = strata_world_tilemap(w, m);
    if (!found && tm) { x = strata_tilemap_width(tm) / 2; y = strata_tilemap_height(tm) / 2; }
    if ((st = map_check_cell(rt, m, x, y, "strata_travel (arrival cell)", err))) return st;
  }
  int is_player = strata_player(rt) == actor;
  /* leaving */
  if (from && from != m) {
    if ((st = map_hook(rt, from, STRATA_LOGIC_ON_LEAVE, actor, 0, m, err))) return st;
    if ((st = emit_on(rt, from, "base.map_left", actor, 0, m, err))) return st;
    if (is_player && (st = renew_cancel_timer(rt, from, err))) return st;
  }
  if ((st = strata_object_set_position(w, actor, m, x, y, err))) return st;
  if (from && from != m && rt_object(rt, from, "map")) {
    const strata_value *props = prop_get(w, from, "props");
    const strata_value *temp = props && props->type == STRATA_VTABLE ? strata_vtable_get_str(props->u.t, "temporary") : NULL;
    if (value_truthy(temp) && !other_actors(rt, from, actor) &&
        (st = map_drop(rt, from, what, err)))
      return st;
  }
  /* entering */
  if (from != m) {
    if (!rt_loaded(rt, m)) {
      if ((st = rt_set_loaded(rt, m, 1, err))) return st;
      *loaded = m;
      if ((st = map_hook(rt, m, STRATA_LOGIC_ON_LOAD, actor, 0, 0, err))) return st;
    }
    if ((st = renew_apply(rt, m, err))) return st;
    if ((st = map_hook(rt, m, STRATA_LOGIC_ON_ENTER, actor, from, 0, err))) return st;
    if ((st = emit_on(rt, m, "base.map_entered", actor, from, 0, err))) return st;
    if (is_player && (st = renew_schedule_timer(rt, m, err))) return st;
  }
  int64_t n, dv;
  int has;
  uint64_t area = map_area_floor(rt, m, &n, &has);
  if (area && has && rt_object(rt, area, NULL) &&
      !(strata_area_deepest_visited(rt, area, &dv) && n <= dv) &&
      (st = area_set_deepest_visited(rt, area, n, err)))
    return st;
  *out = m;
  return STRATA_OK;
}

strata_status strata_travel(strata_runtime *rt, uint64_t actor, uint64_t target,
                            const strata_travel_opts *opts, uint64_t *map, strata_error *err) {
  if (!rt_object(rt, actor, "actor")) return refuse_actor(rt, actor, "strata_travel", err);
  uint64_t m = 0, loaded = 0;
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  st = journey(rt, actor, target, opts, &m, &loaded, err);
  rt_end(rt, st);
  if (st) {
    /* the map was not entered after all: its on_load is still to come */
    if (loaded) rt_set_loaded(rt, loaded, 0, NULL);
    return st;
  }
  if (map) *map = m;
  return STRATA_OK;
}
