/*
** unique.c - unique areas: one area per base.unique_area ID, parents first,
** their entrances placed once on their parent's floor and recorded in the
** world record (sys.uniques, sys.placed).
*/
#include "runtime_internal.h"
#include "strata/alloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* The floor of the parent an entrance of u stands on. */
static int64_t on_floor(const strata_runtime *rt, const strata_unique_def *u, uint64_t parent) {
  return u->has_on_floor ? u->on_floor : strata_area_starting_floor(rt, parent);
}

/* u's `at` on m, floor n of its parent: where any area's entrance may stand
** (area_entrance_cell). Otherwise the parent's floor fails to generate,
** naming u and `at` rather than the map. */
static strata_status check_at(strata_runtime *rt, const strata_unique_def *u, uint64_t m, int64_t n,
                              strata_error *err) {
  char who[STRATA_ERROR_MESSAGE_MAX / 4], floor[STRATA_ERROR_MESSAGE_MAX / 4];
  snprintf(who, sizeof who, "unique area '%s': ", u->id);
  snprintf(floor, sizeof floor, "floor %" PRId64 " of unique area '%s'", n, u->parent);
  return area_entrance_cell(rt, m, u->has_at ? u->at_x : 0, u->has_at ? u->at_y : 0, NULL, who,
                            u->has_at ? "" : " (at not given)", floor, err);
}

/* Places u's entrance once: when the unique area, its parent and that floor all exist. */
static strata_status ensure_entrance(strata_runtime *rt, const strata_unique_def *u,
                                     strata_error *err) {
  uint64_t rec;
  strata_status st = rt_record_make(rt, &rec, err);
  if (st || record_placed(rt, u->id)) return st;
  uint64_t child = strata_find_unique(rt, u->id);
  uint64_t parent = strata_find_unique(rt, u->parent ? u->parent : "");
  if (!child || !parent) return STRATA_OK;
  int64_t n = on_floor(rt, u, parent);
  uint64_t m = strata_area_floor_map(rt, parent, n);
  if (!m) return STRATA_OK;
  if ((st = check_at(rt, u, m, n, err))) return st;
  int64_t start, *floor = area_own_starting_floor(rt, child, &start) ? &start : NULL;
  st = strata_entrance_create(rt, m, u->has_at ? u->at_x : 0, u->has_at ? u->at_y : 0, child, floor,
                              NULL, err);
  if (!st) st = record_set_placed(rt, u->id, m, err);
  return st;
}

static strata_status unique_area(strata_runtime *rt, const char *id, int depth, uint64_t *out,
                                 strata_error *err) {
  if (depth > 64)
    return strata_error_in(err, STRATA_ELIMIT, "strata_unique_def", "parents of '%s' form a cycle", id);
  const strata_unique_def *u = NULL;
  strata_status st = rt->res.unique_area(rt->res.host, id, &u, err);
  if (st) return st;
  if ((*out = strata_find_unique(rt, id))) return STRATA_OK;
  strata_area_opts opts;
  memset(&opts, 0, sizeof opts);
  if (u->parent && strcmp(u->parent, "root") != 0 &&
      (st = unique_area(rt, u->parent, depth + 1, &opts.parent, err)))
    return st;
  opts.has_starting_floor = u->has_starting_floor;
  opts.starting_floor = u->starting_floor;
  uint64_t a, rec, m;
  if ((st = strata_area_create(rt, u->area, &opts, &a, err))) return st;
  if ((st = area_set_unique(rt, a, id, err))) return st;
  if ((st = rt_record_make(rt, &rec, err))) return st;
  if ((st = record_set_unique(rt, id, a, err))) return st;
  if ((st = ensure_entrance(rt, u, err))) return st;
  if (u->eager && (st = strata_area_floor(rt, a, strata_area_starting_floor(rt, a), &m, err))) return st;
  *out = a;
  return STRATA_OK;
}

strata_status strata_unique_area(strata_runtime *rt, const char *id, uint64_t *area,
                                 strata_error *err) {
  uint64_t a = 0;
  if (!id) return strata_error_in(err, STRATA_EARG, "strata_unique_def", "no ID");
  strata_status st = rt_begin(rt, err);
  if (st || rt_end(rt, st = unique_area(rt, id, 0, &a, err))) return st;
  if (area) *area = a;
  return STRATA_OK;
}

strata_status unique_place(strata_runtime *rt, uint64_t area, int64_t n, strata_error *err) {
  const char *own = strata_area_unique_id(rt, area);
  if (!own) return STRATA_OK;
  char *id = strata_strdup(own); /* the area's records change below */
  if (!id) return strata_error_nomem(err, NULL);
  strata_status st = STRATA_OK;
  const strata_unique_def *u;
  for (size_t i = 0; !st && (u = rt->res.unique_at(rt->res.host, i)) != NULL; i++) {
    if (!u->parent || strcmp(u->parent, id) != 0 || on_floor(rt, u, area) != n) continue;
    uint64_t child;
    st = strata_unique_area(rt, u->id, &child, err);
    if (!st) st = ensure_entrance(rt, u, err);
  }
  strata_free(id);
  return st;
}

strata_status strata_get_or_create_map(strata_runtime *rt, const char *id, const int64_t *floor,
                                       uint64_t *map, strata_error *err) {
  uint64_t a, m = 0;
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  st = strata_unique_area(rt, id, &a, err);
  if (!st) st = strata_area_floor(rt, a, floor ? *floor : strata_area_starting_floor(rt, a), &m, err);
  if (rt_end(rt, st)) return st;
  if (map) *map = m;
  return STRATA_OK;
}

strata_status strata_regenerate_child_maps(strata_runtime *rt, uint64_t map, uint64_t *out,
                                           size_t cap, size_t *n, strata_error *err) {
  char b[48];
  if (n) *n = 0;
  if (!rt_object(rt, map, "map"))
    return strata_error_refuse(err, strata_world_object(rt->w, map) ? STRATA_EARG : STRATA_ENOTFOUND,
                               "strata_regenerate_child_maps",
                               strata_world_object(rt->w, map) ? STRATA_REFUSED_KIND : STRATA_REFUSED_DELETED, map,
                               "expected a live map, got %s", rt_label(rt, map, b));
  int64_t floor;
  uint64_t area = strata_map_area(rt, map, &floor);
  const char *own = area ? strata_area_unique_id(rt, area) : NULL;
  if (!own) return STRATA_OK;
  char *id = strata_strdup(own);
  if (!id) return strata_error_nomem(err, NULL);
  strata_status st = rt_begin(rt, err);
  size_t count = 0;
  const strata_unique_def *u;
  for (size_t i = 0; !st && (u = rt->res.unique_at(rt->res.host, i)) != NULL; i++) {
    if (!u->parent || strcmp(u->parent, id) != 0 || on_floor(rt, u, area) != floor) continue;
    uint64_t child;
    if (!(st = strata_unique_area(rt, u->id, &child, err))) st = ensure_entrance(rt, u, err);
    if (!st && out && count < cap) out[count] = child;
    count++;
  }
  strata_free(id);
  if (rt_end(rt, st)) return st;
  if (n) *n = count;
  return STRATA_OK;
}

strata_status strata_unique_areas_init(strata_runtime *rt, strata_error *err) {
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  const strata_unique_def *u;
  for (size_t i = 0; !st && (u = rt->res.unique_at(rt->res.host, i)) != NULL; i++)
    if (u->eager && (!u->parent || strcmp(u->parent, "root") == 0)) {
      uint64_t a;
      st = strata_unique_area(rt, u->id, &a, err);
    }
  return rt_end(rt, st);
}
