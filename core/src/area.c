/*
** area.c - areas: made from their archetype, related as a tree, listed,
** deleted with their floors.
*/
#include "runtime_internal.h"

#include <inttypes.h>
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

static strata_status set_key(strata_value *t, const char *key, strata_value *v, strata_error *err) {
  strata_value k = K(key);
  strata_status st = strata_vtable_set(t->u.t, &k, v, err);
  if (st) strata_value_clear(v);
  return st;
}

/* The area's sys table, as areas.lua's create_area writes it. */
static strata_status area_sys(strata_value *sys, uint64_t parent, strata_value *params,
                              const char *gen, int64_t starting, const int64_t *deepest,
                              strata_error *err) {
  strata_value v = strata_value_nil();
  strata_status st = strata_value_table(sys, err);
  if (st) { strata_value_clear(params); return st; }
  if (parent) { v = strata_value_int((int64_t)parent); st = set_key(sys, "parent", &v, err); }
  if (!st && !(st = strata_value_table(&v, err))) st = set_key(sys, "floors", &v, err);
  if (!st && !(st = strata_value_table(&v, err))) st = set_key(sys, "children", &v, err);
  if (!st) st = set_key(sys, "params", params, err);
  else strata_value_clear(params);
  if (!st && gen && !(st = strata_value_string(&v, gen, strlen(gen), err))) st = set_key(sys, "generator", &v, err);
  if (!st) { v = strata_value_int(starting); st = set_key(sys, "starting_floor", &v, err); }
  if (!st && deepest) { v = strata_value_int(*deepest); st = set_key(sys, "deepest_floor", &v, err); }
  if (st) strata_value_clear(sys);
  return st;
}

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
  if (!st && !(st = area_sys(&sys, opts->parent, &params, gen, starting, deepest, err)))
    st = sys_set(rt->w, uid, NULL, 0, &sys, err);
  else strata_value_clear(&params);
  if (!st && arch->meta) {
    strata_value meta, k = K("meta");
    if (!(st = strata_value_copy(&meta, arch->meta, err))) {
      st = strata_object_set(rt->w, uid, &k, 1, &meta, err);
      strata_value_clear(&meta);
    }
  }
  strata_value yes = strata_value_bool(1);
  if (!st && opts->parent) st = sys_set(rt->w, opts->parent, SYS(K("children"), I((int64_t)uid)), &yes, err);
  yes = strata_value_bool(1);
  if (!st) st = sys_set(rt->w, rec, SYS(K("areas"), I((int64_t)uid)), &yes, err);
  if (rt_end(rt, st)) return st;
  if (area) *area = uid;
  return STRATA_OK;
}

/* ---- deleting ---- */

typedef struct ulist {
  uint64_t *v;
  size_t n, cap;
} ulist;

static strata_status ulist_push(ulist *l, uint64_t u, strata_error *err) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 8;
    uint64_t *p = realloc(l->v, cap * sizeof *p);
    if (!p) return strata_error_set(err, STRATA_ENOMEM, "out of memory");
    l->v = p;
    l->cap = cap;
  }
  l->v[l->n++] = u;
  return STRATA_OK;
}

/* The live areas among the keys of sys.children, in uid order. */
static strata_status children_of(const strata_runtime *rt, uint64_t area, ulist *out,
                                 strata_error *err) {
  size_t n = strata_area_children(rt, area, NULL, 0);
  out->n = 0;
  if (n == 0) return STRATA_OK;
  if (!(out->v = malloc(n * sizeof *out->v))) return strata_error_set(err, STRATA_ENOMEM, "out of memory");
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
  free(kids.v);
  return st;
}

static strata_status floors_list(const strata_runtime *rt, uint64_t area, ulist *maps,
                                 strata_error *err) {
  size_t n = strata_area_floors(rt, area, NULL, NULL, 0);
  maps->n = 0;
  if (!n) return STRATA_OK;
  int64_t *fl = malloc(n * sizeof *fl);
  if (!fl || !(maps->v = malloc(n * sizeof *maps->v))) {
    free(fl);
    return strata_error_set(err, STRATA_ENOMEM, "out of memory");
  }
  maps->cap = n;
  maps->n = strata_area_floors(rt, area, fl, maps->v, n);
  free(fl);
  return STRATA_OK;
}

static strata_status drop_area(strata_runtime *rt, uint64_t x, uint64_t rec, strata_error *err) {
  strata_world *w = rt->w;
  ulist maps = { NULL, 0, 0 };
  strata_status st = floors_list(rt, x, &maps, err);
  for (size_t i = 0; i < maps.n && !st; i++)
    if (strata_world_object(w, maps.v[i])) st = map_drop(rt, maps.v[i], "strata_area_delete", err);
  free(maps.v);
  uint64_t up = sys_uid(w, x, SYS(K("parent")));
  if (!st && rt_object(rt, up, NULL)) st = sys_del(w, up, SYS(K("children"), I((int64_t)x)), err);
  const char *id = sys_str(w, x, SYS(K("unique")));
  if (!st && id) {
    strata_value key = strata_value_nil();
    if (!(st = strata_value_string(&key, id, strlen(id), err))) {
      st = sys_del(w, rec, SYS(K("uniques"), key), err);
      if (!st) st = sys_del(w, rec, SYS(K("placed"), key), err);
      strata_value_clear(&key);
    }
  }
  if (!st) st = sys_del(w, rec, SYS(K("areas"), I((int64_t)x)), err);
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
    int64_t *fl = n ? malloc(n * sizeof *fl) : NULL;
    uint64_t *ms = n ? malloc(n * sizeof *ms) : NULL;
    if (n && (!fl || !ms)) {
      st = strata_error_set(err, STRATA_ENOMEM, "out of memory");
    } else {
      n = strata_area_floors(rt, doomed.v[i], fl, ms, n);
      for (size_t j = 0; j < n && !st; j++)
        if (ms[j] == here)
          st = strata_error_refuse(err, STRATA_ESTATE, what, STRATA_REFUSED_PLAYER, doomed.v[i],
                                   "the player is on floor %" PRId64 " of %s", fl[j], rt_label(rt, doomed.v[i], a));
    }
    free(fl);
    free(ms);
  }
  if (st || (st = rt_begin(rt, err))) goto done;
  uint64_t rec;
  uint64_t parent = sys_uid(rt->w, area, SYS(K("parent")));
  st = rt_record_make(rt, &rec, err);
  if (!st && !delete_children) {
    ulist kids = { NULL, 0, 0 };
    st = children_of(rt, area, &kids, err);
    for (size_t i = 0; i < kids.n && !st; i++) {
      st = sys_set_uid(rt->w, kids.v[i], SYS(K("parent")), parent, err);
      strata_value yes = strata_value_bool(1);
      if (!st && rt_object(rt, parent, NULL))
        st = sys_set(rt->w, parent, SYS(K("children"), I((int64_t)kids.v[i])), &yes, err);
    }
    free(kids.v);
  }
  for (size_t i = doomed.n; i > 0 && !st; i--) st = drop_area(rt, doomed.v[i - 1], rec, err);
  rt_end(rt, st);
done:
  free(doomed.v);
  return st;
}

/* ---- fields ---- */

uint64_t strata_area_parent(const strata_runtime *rt, uint64_t area) {
  uint64_t p = sys_uid(rt->w, area, SYS(K("parent")));
  return p && strata_world_object(rt->w, p) ? p : 0;
}

size_t strata_area_children(const strata_runtime *rt, uint64_t area, uint64_t *out, size_t cap) {
  const strata_value *t = sys_get(rt->w, area, SYS(K("children")));
  size_t n = 0, kept = 0;
  if (!t || t->type != STRATA_VTABLE) return 0;
  for (size_t i = 0; i < t->u.t->n; i++) {
    const strata_value *k = &t->u.t->keys[i];
    if (k->type != STRATA_VINT || k->u.i <= 0 || !rt_object(rt, (uint64_t)k->u.i, NULL)) continue;
    n++;
    keep_smallest(out, cap, &kept, (uint64_t)k->u.i);
  }
  return n;
}

int strata_area_child_position(const strata_runtime *rt, uint64_t area, uint64_t child,
                               int64_t *x, int64_t *y, int64_t *floor) {
  uint64_t m = sys_uid(rt->w, child, SYS(K("entrance"), K("map")));
  int64_t ex, ey, f = 0;
  if (!m || !strata_world_object(rt->w, m) || sys_uid(rt->w, m, SYS(K("area"))) != area) return 0;
  if (!sys_int(rt->w, child, SYS(K("entrance"), K("x")), &ex) ||
      !sys_int(rt->w, child, SYS(K("entrance"), K("y")), &ey))
    return 0;
  sys_int(rt->w, m, SYS(K("floor")), &f);
  if (x) *x = ex;
  if (y) *y = ey;
  if (floor) *floor = f;
  return 1;
}

int64_t strata_area_starting_floor(const strata_runtime *rt, uint64_t area) {
  int64_t n;
  return sys_int(rt->w, area, SYS(K("starting_floor")), &n) ? n : 1;
}

int strata_area_deepest_floor(const strata_runtime *rt, uint64_t area, int64_t *out) {
  return sys_int(rt->w, area, SYS(K("deepest_floor")), out);
}

int strata_area_deepest_visited(const strata_runtime *rt, uint64_t area, int64_t *out) {
  return sys_int(rt->w, area, SYS(K("deepest_visited")), out);
}

const strata_value *strata_area_params(const strata_runtime *rt, uint64_t area) {
  return sys_get(rt->w, area, SYS(K("params")));
}

const char *strata_area_generator(const strata_runtime *rt, uint64_t area) {
  return sys_str(rt->w, area, SYS(K("generator")));
}

const char *strata_area_unique_id(const strata_runtime *rt, uint64_t area) {
  return sys_str(rt->w, area, SYS(K("unique")));
}

int strata_area_is_conquered(const strata_runtime *rt, uint64_t area) {
  const strata_value *v = sys_get(rt->w, area, SYS(K("conquered")));
  return v && v->type == STRATA_VBOOL && v->u.b;
}

/* One bookkeeping field of a live area, set in a savepoint of its own. */
static strata_status set_field(strata_runtime *rt, uint64_t area, const char *what,
                               const char *key, strata_value *v, strata_error *err) {
  strata_status st = check_area(rt, area, what, err);
  if (st || (st = rt_begin(rt, err))) { strata_value_clear(v); return st; }
  return rt_end(rt, sys_set(rt->w, area, SYS(K(key)), v, err));
}

strata_status strata_area_set_conquered(strata_runtime *rt, uint64_t area, int conquered,
                                        strata_error *err) {
  strata_value v = strata_value_bool(conquered);
  return set_field(rt, area, "strata_area_set_conquered", "conquered", &v, err);
}

strata_status strata_area_set_starting_floor(strata_runtime *rt, uint64_t area, int64_t n,
                                             strata_error *err) {
  strata_value v = strata_value_int(n);
  return set_field(rt, area, "strata_area_set_starting_floor", "starting_floor", &v, err);
}

strata_status strata_area_set_deepest_floor(strata_runtime *rt, uint64_t area,
                                            const int64_t *deepest, strata_error *err) {
  strata_value v = deepest ? strata_value_int(*deepest) : strata_value_nil();
  return set_field(rt, area, "strata_area_set_deepest_floor", "deepest_floor", &v, err);
}

size_t strata_areas(const strata_runtime *rt, const strata_area_filter *filter, uint64_t *out,
                    size_t cap) {
  uint64_t rec = rt_record(rt);
  const strata_value *t = rec ? sys_get(rt->w, rec, SYS(K("areas"))) : NULL;
  size_t n = 0, kept = 0;
  if (!t || t->type != STRATA_VTABLE) return 0;
  for (size_t i = 0; i < t->u.t->n; i++) {
    const strata_value *k = &t->u.t->keys[i];
    if (k->type != STRATA_VINT || k->u.i <= 0) continue;
    uint64_t uid = (uint64_t)k->u.i;
    strata_object *o = rt_object(rt, uid, NULL);
    if (!o) continue;
    if (filter && filter->archetype && !(o->archetype && strcmp(o->archetype, filter->archetype) == 0))
      continue;
    if (filter && filter->parent && sys_uid(rt->w, uid, SYS(K("parent"))) != filter->parent) continue;
    if (filter && filter->type && !has_type(rt_area_archetype_opt(rt, o->archetype), filter->type))
      continue;
    n++;
    keep_smallest(out, cap, &kept, uid);
  }
  return n;
}
