/*
** area.c - areas: made from their archetype, related as a tree, listed,
** deleted with their floors.
*/
#include "runtime_internal.h"
#include "strata/alloc.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

strata_status check_area(const strata_runtime *rt, uint64_t area, const char *what, strata_error *err) {
  char b[48];
  strata_object *o = strata_world_object(rt->w, area);
  if (!o) return strata_error_refuse(err, STRATA_ENOTFOUND, what, STRATA_REFUSED_DELETED, area, "%s was deleted",
                                     rt_label(rt, area, b));
  if (strcmp(o->kind, "area") != 0)
    return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_KIND, area, "expected an area, got %s",
                               rt_label(rt, area, b));
  return STRATA_OK;
}

/* Keeps the `cap` smallest values seen in out[0..*kept), in order. */
static void keep_smallest(uint64_t *out, size_t cap, size_t *kept, uint64_t v) {
  if (!out || !cap) return;
  size_t j = *kept < cap ? (*kept)++ : cap;
  while (j > 0 && out[j - 1] > v) {
    if (j < cap) out[j] = out[j - 1];
    j--;
  }
  if (j < cap) out[j] = v;
}

static int has_type(const strata_area_archetype *a, const char *type) {
  for (size_t i = 0; a && i < a->ntypes; i++)
    if (a->types[i] && strcmp(a->types[i], type) == 0) return 1;
  return 0;
}

/* ---- making ---- */

/* The archetype's params with the caller's keys over them. */
static strata_status merged_params(strata_value *out, const strata_value *base,
                                   const strata_value *own, strata_error *err) {
  *out = strata_value_nil();
  strata_status st = base && base->type == STRATA_VTABLE ? strata_value_copy(out, base, err)
                                                         : strata_value_table(out, err);
  for (size_t i = 0; !st && own && i < own->u.t->n; i++) {
    strata_value v = strata_value_nil();
    if ((st = strata_value_copy(&v, &own->u.t->vals[i], err))) break;
    if ((st = strata_vtable_set(out->u.t, &own->u.t->keys[i], &v, err))) strata_value_clear(&v);
  }
  if (st) strata_value_clear(out);
  return st;
}

strata_status strata_area_create(strata_runtime *rt, const char *archetype,
                                 const strata_area_opts *opts, uint64_t *area, strata_error *err) {
  const char *what = "strata_area_create";
  static const strata_area_opts none;
  const strata_area_archetype *arch;
  strata_status st;
  char b[48];
  if (!opts) opts = &none;
  if (!archetype) return strata_error_in(err, STRATA_EARG, what, "no archetype");
  if ((st = rt_area_archetype(rt, archetype, &arch, err))) return st;
  if (opts->parent && !rt_object(rt, opts->parent, "area"))
    return strata_error_refuse(err, strata_world_object(rt->w, opts->parent) ? STRATA_EARG : STRATA_ENOTFOUND, what,
                               strata_world_object(rt->w, opts->parent) ? STRATA_REFUSED_KIND : STRATA_REFUSED_DELETED,
                               opts->parent, "parent: expected a live area, got %s", rt_label(rt, opts->parent, b));
  if (opts->params && opts->params->type != STRATA_VTABLE)
    return strata_error_in(err, STRATA_EARG, what, "params must be a table");
  const char *gen = opts->generator ? opts->generator : arch->generator;
  if (gen) {
    strata_callable c;
    if ((st = rt_resolve(rt, STRATA_LOGIC_GENERATE_FLOOR, gen, &c, err))) return st;
  }
  int64_t starting = opts->has_starting_floor ? opts->starting_floor
                   : arch->has_starting_floor ? arch->starting_floor : 1;
  const int64_t *deepest = opts->has_deepest_floor ? &opts->deepest_floor
                         : arch->has_deepest_floor ? &arch->deepest_floor : NULL;
  strata_value params = strata_value_nil(), sys = strata_value_nil();
  if ((st = merged_params(&params, arch->params, opts->params, err))) return st;
  if ((st = rt_begin(rt, err))) { strata_value_clear(&params); return st; }
  uint64_t rec, uid = 0;
  st = rt_record_make(rt, &rec, err);
  if (!st) st = strata_world_create(rt->w, "area", archetype, &uid, err);
  if (!st && !(st = area_sys_new(&sys, opts->parent, &params, gen, starting, deepest, err)))
    st = sys_init(rt, uid, &sys, err);
  else strata_value_clear(&params);
  if (!st && arch->meta) {
    strata_value meta, k = K("meta");
    if (!(st = strata_value_copy(&meta, arch->meta, err))) {
      st = strata_object_set(rt->w, uid, &k, 1, &meta, err);
      strata_value_clear(&meta);
    }
  }
  if (!st && opts->parent) st = area_set_child(rt, opts->parent, uid, 1, err);
  if (!st) st = record_set_area(rt, uid, 1, err);
  if (rt_end(rt, st)) return st;
  if (area) *area = uid;
  return STRATA_OK;
}

/* ---- where an area's entrance stands ---- */

strata_status area_entrance_cell(const strata_runtime *rt, uint64_t m, int64_t x, int64_t y, const char *what,
                                 const char *who, const char *given, const char *floor, strata_error *err) {
  char b[48], c[48];
  long long lx = (long long)x, ly = (long long)y;
  strata_tilemap *tm = strata_world_tilemap(rt->w, m);
  if (!tm)
    return strata_error_refuse(err, STRATA_ESTATE, what, STRATA_REFUSED_NO_TILES, m, "%s%s (%s) has no tiles",
                               who, floor, rt_label(rt, m, b));
  int w = strata_tilemap_width(tm), h = strata_tilemap_height(tm);
  if (x < 0 || y < 0 || x >= w || y >= h)
    return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_OUTSIDE, m,
                               "%sat (%lld, %lld)%s is outside %s (%s, %dx%d)", who, lx, ly, given, floor,
                               rt_label(rt, m, b), w, h);
  if (!strata_tilemap_passable(tm, (int)x, (int)y))
    return strata_error_in(err, STRATA_EARG, what,
                           "%sat (%lld, %lld)%s is impassable on %s (%s): its entrance could not be reached",
                           who, lx, ly, given, floor, rt_label(rt, m, b));
  /* one way from a cell: a second entrance (or stairs) there could never be taken */
  for (uint64_t u = strata_world_next_on(rt->w, m, 0); u; u = strata_world_next_on(rt->w, m, u)) {
    const strata_object *o = strata_world_get(rt->w, u);
    if (o->x == x && o->y == y && strcmp(o->kind, "feature") == 0 &&
        strata_feature_type_of(rt, u) != STRATA_FEATURE_NONE)
      return strata_error_in(err, STRATA_EARG, what, "%sat (%lld, %lld)%s on %s (%s) already holds %s", who, lx,
                             ly, given, floor, rt_label(rt, m, b), rt_label(rt, u, c));
  }
  return STRATA_OK;
}

strata_status strata_area_create_at(strata_runtime *rt, const char *archetype, const strata_area_opts *opts,
                                    int64_t on_floor, int64_t x, int64_t y, uint64_t *area, uint64_t *entrance,
                                    strata_error *err) {
  if (!opts || !opts->parent)
    return strata_error_in(err, STRATA_EARG, "strata_area_create_at", "an entrance needs a parent area to stand in");
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  uint64_t a = 0, map = 0, e = 0;
  int64_t n = on_floor ? on_floor : strata_area_starting_floor(rt, opts->parent);
  if (!(st = strata_area_create(rt, archetype, opts, &a, err)))
    st = strata_area_floor(rt, opts->parent, n, &map, err);
  if (!st) {
    char floor[80], b[48];
    snprintf(floor, sizeof floor, "floor %" PRId64 " of %s", n, rt_label(rt, opts->parent, b));
    st = area_entrance_cell(rt, map, x, y, "strata_area_create_at", "", "", floor, err);
  }
  if (!st) st = strata_entrance_create(rt, map, x, y, a, NULL, &e, err);
  if (rt_end(rt, st)) return st;
  if (area) *area = a;
  if (entrance) *entrance = e;
  return STRATA_OK;
}

/* ---- deleting ---- */

typedef struct ulist {
  uint64_t *v;
  size_t n, cap;
} ulist;

static strata_status ulist_push(ulist *l, uint64_t u, strata_error *err) {
  if (!STRATA_GROW(l->v, l->cap, l->n + 1)) return strata_error_nomem(err, NULL);
  l->v[l->n++] = u;
  return STRATA_OK;
}

/* The live areas among the keys of sys.children, in uid order. */
static strata_status children_of(const strata_runtime *rt, uint64_t area, ulist *out,
                                 strata_error *err) {
  size_t n = strata_area_children(rt, area, NULL, 0);
  out->n = 0;
  if (n == 0) return STRATA_OK;
  if (!(out->v = strata_malloc(n * sizeof *out->v))) return strata_error_nomem(err, NULL);
  out->cap = n;
  out->n = strata_area_children(rt, area, out->v, n);
  return STRATA_OK;
}

static strata_status collect(const strata_runtime *rt, uint64_t area, int deep, ulist *doomed,
                             int depth, strata_error *err) {
  if (depth > 256) return strata_error_in(err, STRATA_ELIMIT, "strata_area_delete", "areas nested too deeply");
  for (size_t i = 0; i < doomed->n; i++)
    if (doomed->v[i] == area) return STRATA_OK; /* a cycle in hand-edited records */
  strata_status st = ulist_push(doomed, area, err);
  if (st || !deep) return st;
  ulist kids = { NULL, 0, 0 };
  st = children_of(rt, area, &kids, err);
  for (size_t i = 0; i < kids.n && !st; i++) st = collect(rt, kids.v[i], deep, doomed, depth + 1, err);
  strata_free(kids.v);
  return st;
}

static strata_status floors_list(const strata_runtime *rt, uint64_t area, ulist *maps,
                                 strata_error *err) {
  size_t n = strata_area_floors(rt, area, NULL, NULL, 0);
  maps->n = 0;
  if (!n) return STRATA_OK;
  int64_t *fl = strata_malloc(n * sizeof *fl);
  if (!fl || !(maps->v = strata_malloc(n * sizeof *maps->v))) {
    strata_free(fl);
    return strata_error_nomem(err, NULL);
  }
  maps->cap = n;
  maps->n = strata_area_floors(rt, area, fl, maps->v, n);
  strata_free(fl);
  return STRATA_OK;
}

static strata_status drop_area(strata_runtime *rt, uint64_t x, strata_error *err) {
  strata_world *w = rt->w;
  ulist maps = { NULL, 0, 0 };
  strata_status st = floors_list(rt, x, &maps, err);
  for (size_t i = 0; i < maps.n && !st; i++)
    if (strata_world_object(w, maps.v[i])) st = map_drop(rt, maps.v[i], "strata_area_delete", err);
  strata_free(maps.v);
  uint64_t up = area_parent_uid(rt, x);
  if (!st && rt_object(rt, up, NULL)) st = area_set_child(rt, up, x, 0, err);
  const char *id = strata_area_unique_id(rt, x); /* lent by x, which changes only below */
  if (!st && id) {
    st = record_set_unique(rt, id, 0, err);
    if (!st) st = record_set_placed(rt, id, 0, err);
  }
  if (!st) st = record_set_area(rt, x, 0, err);
  if (!st) st = strata_world_delete(w, x, err);
  return st;
}

strata_status strata_area_delete(strata_runtime *rt, uint64_t area, int delete_children,
                                 strata_error *err) {
  const char *what = "strata_area_delete";
  char a[48];
  strata_status st = check_area(rt, area, what, err);
  if (st) return st;
  ulist doomed = { NULL, 0, 0 };
  if ((st = collect(rt, area, delete_children, &doomed, 0, err))) goto done;
  /* Refuse before changing anything: the player must not stand in what goes. */
  uint64_t here = strata_current_map(rt);
  for (size_t i = 0; here && i < doomed.n && !st; i++) {
    size_t n = strata_area_floors(rt, doomed.v[i], NULL, NULL, 0);
    int64_t *fl = n ? strata_malloc(n * sizeof *fl) : NULL;
    uint64_t *ms = n ? strata_malloc(n * sizeof *ms) : NULL;
    if (n && (!fl || !ms)) {
      st = strata_error_nomem(err, NULL);
    } else {
      n = strata_area_floors(rt, doomed.v[i], fl, ms, n);
      for (size_t j = 0; j < n && !st; j++)
        if (ms[j] == here)
          st = strata_error_refuse(err, STRATA_ESTATE, what, STRATA_REFUSED_PLAYER, doomed.v[i],
                                   "the player is on floor %" PRId64 " of %s", fl[j], rt_label(rt, doomed.v[i], a));
    }
    strata_free(fl);
    strata_free(ms);
  }
  if (st || (st = rt_begin(rt, err))) goto done;
  uint64_t rec;
  uint64_t parent = area_parent_uid(rt, area);
  st = rt_record_make(rt, &rec, err);
  if (!st && !delete_children) {
    ulist kids = { NULL, 0, 0 };
    st = children_of(rt, area, &kids, err);
    for (size_t i = 0; i < kids.n && !st; i++) {
      st = area_set_parent(rt, kids.v[i], parent, err);
      if (!st && rt_object(rt, parent, NULL)) st = area_set_child(rt, parent, kids.v[i], 1, err);
    }
    strata_free(kids.v);
  }
  for (size_t i = doomed.n; i > 0 && !st; i--) st = drop_area(rt, doomed.v[i - 1], err);
  rt_end(rt, st);
done:
  strata_free(doomed.v);
  return st;
}

/* ---- fields ---- */

size_t strata_area_children(const strata_runtime *rt, uint64_t area, uint64_t *out, size_t cap) {
  const strata_vtable *t = area_children_table(rt, area);
  size_t n = 0, kept = 0;
  if (!t) return 0;
  for (size_t i = 0; i < t->n; i++) {
    const strata_value *k = &t->keys[i];
    if (k->type != STRATA_VINT || k->u.i <= 0 || !rt_object(rt, (uint64_t)k->u.i, NULL)) continue;
    n++;
    keep_smallest(out, cap, &kept, (uint64_t)k->u.i);
  }
  return n;
}

int strata_area_child_position(const strata_runtime *rt, uint64_t area, uint64_t child,
                               int64_t *x, int64_t *y, int64_t *floor) {
  int64_t ex, ey, f = 0;
  int has_xy;
  uint64_t m = area_entrance(rt, child, &ex, &ey, &has_xy);
  if (!m || !strata_world_object(rt->w, m) || strata_map_area(rt, m, &f) != area || !has_xy) return 0;
  if (x) *x = ex;
  if (y) *y = ey;
  if (floor) *floor = f;
  return 1;
}

/* A live area, and a savepoint open for one change of its bookkeeping (rt_end closes it). */
static strata_status begin_field(strata_runtime *rt, uint64_t area, const char *what, strata_error *err) {
  strata_status st = check_area(rt, area, what, err);
  return st ? st : rt_begin(rt, err);
}

strata_status strata_area_set_conquered(strata_runtime *rt, uint64_t area, int conquered,
                                        strata_error *err) {
  strata_status st = begin_field(rt, area, "strata_area_set_conquered", err);
  return st ? st : rt_end(rt, area_set_conquered(rt, area, conquered != 0, err));
}

strata_status strata_area_set_starting_floor(strata_runtime *rt, uint64_t area, int64_t n,
                                             strata_error *err) {
  strata_status st = begin_field(rt, area, "strata_area_set_starting_floor", err);
  return st ? st : rt_end(rt, area_set_starting(rt, area, n, err));
}

strata_status strata_area_set_deepest_floor(strata_runtime *rt, uint64_t area,
                                            const int64_t *deepest, strata_error *err) {
  strata_status st = begin_field(rt, area, "strata_area_set_deepest_floor", err);
  return st ? st : rt_end(rt, area_set_deepest(rt, area, deepest, err));
}

size_t strata_areas(const strata_runtime *rt, const strata_area_filter *filter, uint64_t *out,
                    size_t cap) {
  const strata_vtable *t = record_area_table(rt);
  size_t n = 0, kept = 0;
  if (!t) return 0;
  for (size_t i = 0; i < t->n; i++) {
    const strata_value *k = &t->keys[i];
    if (k->type != STRATA_VINT || k->u.i <= 0) continue;
    uint64_t uid = (uint64_t)k->u.i;
    strata_object *o = rt_object(rt, uid, NULL);
    if (!o) continue;
    if (filter && filter->archetype && !(o->archetype && strcmp(o->archetype, filter->archetype) == 0))
      continue;
    if (filter && filter->parent && area_parent_uid(rt, uid) != filter->parent) continue;
    if (filter && filter->type && !has_type(rt_area_archetype_opt(rt, o->archetype), filter->type))
      continue;
    n++;
    keep_smallest(out, cap, &kept, uid);
  }
  return n;
}
