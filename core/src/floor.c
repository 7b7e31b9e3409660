/*
** floor.c - an area's floors: looked up, attached by hand, generated on
** first need through the resolver, forgotten.
**
** Generation runs as one savepoint (strata_area_floor opens it): whatever
** the generator and the hooks after it did, to new objects and old ones,
** is undone when any of it fails.
*/
#include "runtime_internal.h"
#include "strata/alloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

size_t strata_area_floors(const strata_runtime *rt, uint64_t area, int64_t *floors,
                          uint64_t *maps, size_t cap) {
  const strata_vtable *t = area_floor_table(rt, area);
  if (!t) return 0;
  if (!floors && maps && cap) { /* the maps alone: ordered by floor all the same */
    int64_t *tmp = strata_malloc(cap * sizeof *tmp);
    size_t n = tmp ? strata_area_floors(rt, area, tmp, maps, cap) : 0;
    strata_free(tmp);
    return n;
  }
  size_t count = 0, kept = 0;
  for (size_t i = 0; i < t->n; i++) {
    const strata_value *k = &t->keys[i];
    if (k->type != STRATA_VINT) continue;
    uint64_t m = strata_area_floor_map(rt, area, k->u.i);
    if (!m) continue;
    count++;
    /* the smallest `cap` floors, kept in order in the caller's arrays */
    if (!floors) continue;
    size_t j = kept < cap ? kept++ : cap;
    while (j > 0 && floors[j - 1] > k->u.i) {
      if (j < cap) { floors[j] = floors[j - 1]; if (maps) maps[j] = maps[j - 1]; }
      j--;
    }
    if (j < cap) { floors[j] = k->u.i; if (maps) maps[j] = m; }
  }
  return count;
}

/* Refusals before anything changes: below the deepest floor, a taken floor,
** a map that is some area's floor already. */
static strata_status check_floor_free(const strata_runtime *rt, uint64_t area, uint64_t map,
                                      int64_t n, const char *what, strata_error *err) {
  char a[48], b[48];
  int64_t deepest;
  if (strata_area_deepest_floor(rt, area, &deepest) && n > deepest)
    return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_DEEPEST, area,
                               "floor %" PRId64 " is below the deepest floor (%" PRId64 ") of %s", n, deepest,
                               rt_label(rt, area, a));
  uint64_t taken = strata_area_floor_map(rt, area, n);
  if (taken) {
    strata_error_refuse(err, STRATA_ESTATE, what, STRATA_REFUSED_TAKEN, area, "floor %" PRId64 " of %s is taken (%s)",
                        n, rt_label(rt, area, a), rt_label(rt, taken, b));
    if (err) err->subject[1] = taken;
    return STRATA_ESTATE;
  }
  if (map) {
    int64_t f;
    uint64_t other = strata_map_area(rt, map, &f);
    if (other && strata_world_object(rt->w, other)) {
      strata_error_refuse(err, STRATA_ESTATE, what, STRATA_REFUSED_ATTACHED, map,
                          "%s is already floor %" PRId64 " of area#%" PRIu64, rt_label(rt, map, b), f, other);
      if (err) err->subject[1] = other;
      return STRATA_ESTATE;
    }
  }
  return STRATA_OK;
}

static strata_status attach(strata_runtime *rt, uint64_t area, uint64_t map, int64_t n,
                            strata_error *err) {
  strata_status st = map_set_floor_of(rt, map, area, n, err);
  return st ? st : area_set_floor(rt, area, n, map, err);
}

strata_status strata_area_add_floor(strata_runtime *rt, uint64_t area, uint64_t map, int64_t n,
                                    strata_error *err) {
  const char *what = "strata_area_add_floor";
  char b[48];
  strata_status st = check_area(rt, area, what, err);
  if (st) return st;
  if (!rt_object(rt, map, "map"))
    return strata_error_refuse(err, strata_world_object(rt->w, map) ? STRATA_EARG : STRATA_ENOTFOUND, what,
                               strata_world_object(rt->w, map) ? STRATA_REFUSED_KIND : STRATA_REFUSED_DELETED, map,
                               "expected a live map, got %s", rt_label(rt, map, b));
  if ((st = check_floor_free(rt, area, map, n, what, err))) return st;
  if ((st = rt_begin(rt, err))) return st;
  st = attach(rt, area, map, n, err);
  /* While this very floor is being generated, its unique entrances come after the generator. */
  if (!st && !(rt->generating && rt->gen_area == area && rt->gen_floor == n))
    st = unique_place(rt, area, n, err);
  return rt_end(rt, st);
}

/* Deep copies of the archetype's properties, under what the generator set itself. */
static strata_status merge_props(strata_runtime *rt, uint64_t map,
                                 const strata_map_archetype *ma, strata_error *err) {
  strata_value merged, k = K("props");
  strata_status st = strata_value_copy(&merged, ma->properties, err);
  if (st) return st;
  if (merged.type != STRATA_VTABLE) { strata_value_clear(&merged); return STRATA_OK; }
  const strata_value *own = prop_get(rt->w, map, "props");
  if (own && own->type == STRATA_VTABLE)
    for (size_t i = 0; i < own->u.t->n && !st; i++) {
      strata_value v = strata_value_nil();
      if ((st = strata_value_copy(&v, &own->u.t->vals[i], err))) break;
      if ((st = strata_vtable_set(merged.u.t, &own->u.t->keys[i], &v, err))) strata_value_clear(&v);
    }
  if (!st) st = strata_object_set(rt->w, map, &k, 1, &merged, err);
  strata_value_clear(&merged);
  return st;
}

static const char *floor_archetype(const strata_area_archetype *a, int64_t n) {
  for (size_t i = 0; a && i < a->nfloors; i++)
    if (a->floors[i].floor == n) return a->floors[i].map_archetype;
  return NULL;
}

/* Runs floors[n]'s map archetype or the area generator: *made and who made it. */
static strata_status produce(strata_runtime *rt, uint64_t area, int64_t n, strata_call *call,
                             const char *key, const char **map_arch, char *who, size_t whocap,
                             strata_error *err) {
  char a[48];
  strata_object *o = strata_world_object(rt->w, area);
  const char *ma = floor_archetype(rt_area_archetype_opt(rt, o->archetype), n);
  strata_callable c;
  strata_status st;
  *map_arch = ma;
  if (ma) {
    const strata_map_archetype *def;
    if ((st = rt_map_archetype(rt, ma, &def, err))) return st;
    if ((st = rt_resolve(rt, STRATA_LOGIC_GENERATE, ma, &c, err))) return st;
    if (!c.fn)
      return strata_error_set(err, STRATA_ENOTFOUND, "%s floor %" PRId64 ": map archetype '%s' has no generate function",
                              rt_label(rt, area, a), n, ma);
    snprintf(who, whocap, "map archetype '%s'", ma);
    call->kind = STRATA_LOGIC_GENERATE;
    call->id = ma;
    return rt_call_with_stream(rt, &c, call, key, err);
  }
  const char *gen = strata_area_generator(rt, area);
  if (!gen)
    return strata_error_set(err, STRATA_ENOTFOUND,
                            "%s floor %" PRId64 ": no map archetype for this floor and no area generator",
                            rt_label(rt, area, a), n);
  /* copied: the generator may change the area's records */
  char *id = strata_strdup(gen);
  if (!id) return strata_error_nomem(err, NULL);
  snprintf(who, whocap, "area generator '%s'", id);
  if (!(st = rt_resolve(rt, STRATA_LOGIC_GENERATE_FLOOR, id, &c, err)) && !c.fn)
    st = strata_error_set(err, STRATA_ENOTFOUND, "%s floor %" PRId64 ": area generator '%s' has no generate_floor function",
                          rt_label(rt, area, a), n, id);
  if (!st) {
    call->kind = STRATA_LOGIC_GENERATE_FLOOR;
    call->id = id;
    st = rt_call_with_stream(rt, &c, call, key, err);
    call->id = NULL;
  }
  strata_free(id);
  return st;
}

/* The floor's stream: the same whether it is generated before or after a save. */
static void floor_key(char key[64], uint64_t area, int64_t n) {
  snprintf(key, 64, "area#%" PRIu64 " floor %" PRId64, area, n);
}

/* The first half of a floor's generation: floors[n]'s map archetype or the
** area generator runs with call (ctx.params a copy of the area's, in
** *params, which the caller clears; ctx.rng the floor's stream), and the map
** it returns is attached at n (*out). Also what a renewal makes its new
** geometry with. Inside the caller's savepoint. who: what made it, for messages. */
static strata_status make(strata_runtime *rt, uint64_t area, int64_t n, strata_call *call,
                          strata_value *params, uint64_t *out, char who[FLOOR_WHO], strata_error *err) {
  char key[64], a[48], b[48];
  floor_key(key, area, n);
  *params = strata_value_nil();
  const strata_value *own = strata_area_params(rt, area);
  strata_status st = own ? strata_value_copy(params, own, err) : strata_value_table(params, err);
  if (st) return st;
  rt_call_init(call, rt, STRATA_LOGIC_GENERATE_FLOOR, NULL);
  call->area = area;
  call->has_floor = 1;
  call->floor = call->depth = n;
  call->params = params;
  int outer = rt->generating;
  uint64_t outer_area = rt->gen_area;
  int64_t outer_floor = rt->gen_floor;
  rt->generating = 1;
  rt->gen_area = area;
  rt->gen_floor = n;
  const char *map_arch = NULL;
  who[0] = '\0';
  st = produce(rt, area, n, call, key, &map_arch, who, FLOOR_WHO, err);
  rt->generating = outer;
  rt->gen_area = outer_area;
  rt->gen_floor = outer_floor;
  uint64_t m = call->made;
  if (!st && !rt_object(rt, m, "map"))
    st = strata_error_set(err, STRATA_EARG,
                          "%s returned %s for floor %" PRId64 " of %s: expected a map (world:create_map, strata_map_create)",
                          who, m == 0 ? "nil" : rt_label(rt, m, b), n, rt_label(rt, area, a));
  if (!st && map_arch && !strata_world_object(rt->w, m)->archetype)
    st = strata_object_set_archetype(rt->w, m, map_arch, err);
  /* The generator may have attached the map itself, to place stairs on it. */
  int64_t f;
  if (!st && !(strata_map_area(rt, m, &f) == area && map_floor(rt, m, &f) && f == n)) {
    if (!(st = check_floor_free(rt, area, m, n, who, err))) st = attach(rt, area, m, n, err);
  }
  if (!st) *out = m;
  return st;
}

strata_status floor_make(strata_runtime *rt, uint64_t area, int64_t n, uint64_t *out, char who[FLOOR_WHO],
                         strata_error *err) {
  strata_call call;
  strata_value params;
  strata_status st = make(rt, area, n, &call, &params, out, who, err);
  strata_value_clear(&params);
  return st;
}

/* Generates floor n of area in the order docs/areas.md gives; inside the caller's savepoint. */
static strata_status generate(strata_runtime *rt, uint64_t area, int64_t n, uint64_t *out,
                              strata_error *err) {
  char key[64], who[FLOOR_WHO];
  floor_key(key, area, n);
  strata_call call;
  strata_value params;
  uint64_t m = 0;
  strata_status st = make(rt, area, n, &call, &params, &m, who, err);
  const strata_map_archetype *ma = st ? NULL : map_archetype_of(rt, m);
  if (ma && ma->properties) st = merge_props(rt, m, ma, err);
  if (!st) st = renew_init(rt, m, err);
  if (!st) {
    /* on_spawn gets the generation's ctx: its params and its stream */
    call.made = 0;
    st = rt_map_hook(rt, m, STRATA_LOGIC_ON_SPAWN, &call, key, err);
  }
  strata_value_clear(&params);
  if (!st) {
    strata_value p = strata_value_nil();
    if (!(st = strata_value_table(&p, err))) {
      st = params_ref(&p, "area", area, err);
      if (!st) st = params_int(&p, "floor", n, err);
      if (!st) st = params_ref(&p, "map", m, err);
      if (!st) st = event_emit(rt, m, "base.floor_generated", &p, NULL, NULL, err);
      strata_value_clear(&p);
    }
  }
  if (!st) st = unique_place(rt, area, n, err);
  if (!st) *out = m;
  return st;
}

strata_status strata_area_floor(strata_runtime *rt, uint64_t area, int64_t n, uint64_t *map,
                                strata_error *err) {
  const char *what = "strata_area_floor";
  char a[48];
  strata_status st = check_area(rt, area, what, err);
  if (st) return st;
  uint64_t m = strata_area_floor_map(rt, area, n);
  if (!m) {
    int64_t deepest;
    if (strata_area_deepest_floor(rt, area, &deepest) && n > deepest)
      return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_DEEPEST, area,
                                 "floor %" PRId64 " of %s is below the deepest floor (%" PRId64 ")", n,
                                 rt_label(rt, area, a), deepest);
    if ((st = rt_begin(rt, err))) return st;
    if ((st = rt_end(rt, generate(rt, area, n, &m, err)))) return st;
  }
  if (map) *map = m;
  return STRATA_OK;
}

strata_status strata_area_forget_floor(strata_runtime *rt, uint64_t area, int64_t n,
                                       strata_error *err) {
  const char *what = "strata_area_forget_floor";
  strata_status st = check_area(rt, area, what, err);
  if (st) return st;
  uint64_t m = strata_area_floor_map(rt, area, n);
  if (!m) return STRATA_OK;
  if ((st = rt_begin(rt, err))) return st;
  return rt_end(rt, map_drop(rt, m, what, err));
}
