/*
** map.c - maps as areas see them: made with their archetype's properties
** and renewal times, deleted with what stands on them, their area, floor
** and level.
*/
#include "runtime_internal.h"
#include "strata/alloc.h"

#include <stdlib.h>

static strata_status no_map(const strata_runtime *rt, const char *what, uint64_t uid,
                            strata_error *err) {
  char b[48];
  strata_object *o = strata_world_object(rt->w, uid);
  if (!o) return strata_error_refuse(err, STRATA_ENOTFOUND, what, STRATA_REFUSED_DELETED, uid, "%s was deleted",
                                     rt_label(rt, uid, b));
  return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_KIND, uid, "expected a map, got %s",
                             rt_label(rt, uid, b));
}

const strata_map_archetype *map_archetype_of(const strata_runtime *rt, uint64_t map) {
  strata_object *o = rt_object(rt, map, "map");
  return o ? rt_map_archetype_opt(rt, o->archetype) : NULL;
}

strata_status map_check_cell(const strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                             const char *what, strata_error *err) {
  char b[48];
  strata_tilemap *tm = strata_world_tilemap(rt->w, map);
  if (!tm) return strata_error_refuse(err, STRATA_ESTATE, what, STRATA_REFUSED_NO_TILES, map, "%s has no tiles",
                                      rt_label(rt, map, b));
  int w = strata_tilemap_width(tm), h = strata_tilemap_height(tm);
  if (x < 0 || y < 0 || x >= w || y >= h)
    return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_OUTSIDE, map, "(%lld, %lld) is outside %s (%dx%d)",
                               (long long)x, (long long)y, rt_label(rt, map, b), w, h);
  return STRATA_OK;
}

size_t strata_map_objects(const strata_runtime *rt, uint64_t map, const char *kind,
                          uint64_t *out, size_t cap) {
  return strata_world_objects_on(rt->w, map, kind, out, cap);
}

/* The objects on map, in a new array (*n of them; NULL and 0 when none). */
static strata_status objects_on(const strata_runtime *rt, uint64_t map, uint64_t **list,
                                size_t *n, strata_error *err) {
  *list = NULL;
  *n = strata_map_objects(rt, map, NULL, NULL, 0);
  if (*n == 0) return STRATA_OK;
  if (!(*list = strata_malloc(*n * sizeof **list)))
    return strata_error_nomem(err, NULL);
  strata_map_objects(rt, map, NULL, *list, *n);
  return STRATA_OK;
}

strata_status map_drop(strata_runtime *rt, uint64_t map, const char *what, strata_error *err) {
  char b[48];
  uint64_t *on, player = strata_player(rt);
  size_t n;
  strata_status st = objects_on(rt, map, &on, &n, err);
  if (st) return st;
  for (size_t i = 0; i < n; i++)
    if (player && on[i] == player) {
      strata_free(on);
      return strata_error_refuse(err, STRATA_ESTATE, what, STRATA_REFUSED_PLAYER, map, "%s: the player is on it",
                                 rt_label(rt, map, b));
    }
  strata_world *w = rt->w;
  st = renew_cancel_timer(rt, map, err);
  /* out of its area ... */
  int64_t floor;
  uint64_t area = strata_map_area(rt, map, &floor);
  if (!st && rt_object(rt, area, NULL) && map_floor(rt, map, &floor) && area_floor_uid(rt, area, floor) == map)
    st = area_set_floor(rt, area, floor, 0, err);
  /* ... and out of the placed-entrance records: an entrance placed on it is placed anew */
  if (!st) st = record_unplace(rt, map, err);
  for (size_t i = 0; i < n && !st; i++)
    if (strata_world_object(w, on[i])) st = strata_world_delete(w, on[i], err);
  strata_free(on);
  if (!st) st = strata_world_delete(w, map, err);
  return st;
}

strata_status strata_map_delete(strata_runtime *rt, uint64_t map, strata_error *err) {
  if (!rt_object(rt, map, "map")) return no_map(rt, "strata_map_delete", map, err);
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  return rt_end(rt, map_drop(rt, map, "strata_map_delete", err));
}

strata_status strata_map_create(strata_runtime *rt, int width, int height, const char *archetype,
                                uint64_t *map, strata_error *err) {
  const strata_map_archetype *a = NULL;
  strata_status st;
  if (archetype && (st = rt_map_archetype(rt, archetype, &a, err))) return st;
  if ((st = rt_begin(rt, err))) return st;
  uint64_t uid = 0;
  st = strata_world_create_map(rt->w, width, height, archetype, &uid, err);
  if (!st && a && a->properties) {
    strata_value props, k = K("props");
    if (!(st = strata_value_copy(&props, a->properties, err))) {
      st = strata_object_set(rt->w, uid, &k, 1, &props, err);
      strata_value_clear(&props);
    }
  }
  if (!st && archetype) st = renew_init(rt, uid, err);
  if (rt_end(rt, st)) return st;
  if (map) *map = uid;
  return STRATA_OK;
}

strata_status strata_map_set_token(strata_runtime *rt, uint64_t map, const char *name, strata_value *traits,
                                   strata_error *err) {
  const char *what = "strata_map_set_token";
  if (!rt_object(rt, map, "map")) {
    strata_value_clear(traits);
    return no_map(rt, what, map, err);
  }
  if (!name || !*name || traits->type != STRATA_VTABLE) {
    strata_value_clear(traits);
    return strata_error_in(err, STRATA_EARG, what, "a token needs a name and a table of traits");
  }
  strata_status st = rt_begin(rt, err);
  if (st) {
    strata_value_clear(traits);
    return st;
  }
  return rt_end(rt, map_set_token(rt, map, name, traits, err));
}

strata_status strata_map_set_archetype(strata_runtime *rt, uint64_t map, const char *archetype,
                                       strata_error *err) {
  const char *what = "strata_map_set_archetype";
  if (!rt_object(rt, map, "map")) return no_map(rt, what, map, err);
  const strata_map_archetype *a;
  strata_status st;
  if (archetype && (st = rt_map_archetype(rt, archetype, &a, err))) return st;
  if ((st = rt_begin(rt, err))) return st;
  st = strata_object_set_archetype(rt->w, map, archetype, err);
  if (!st) st = renew_init(rt, map, err);
  if (!st && strata_current_map(rt) == map) st = renew_schedule_timer(rt, map, err);
  return rt_end(rt, st);
}

strata_status strata_map_set_level(strata_runtime *rt, uint64_t map, int64_t level,
                                   strata_error *err) {
  if (!rt_object(rt, map, "map")) return no_map(rt, "strata_map_set_level", map, err);
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  return rt_end(rt, map_set_level(rt, map, level, err));
}
