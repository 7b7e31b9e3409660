/*
** branch_run.c - a branch's rooms made with a runtime: the room generator
** called by ID through the resolver, its spec checked, then the growth of
** branch.c, all in one savepoint (branch.h, strata_branch_generate).
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "runtime_internal.h"
#include "strata/branch.h"

static const char *const spec_keys[] = { "name", "desc", "clear", "props" };
#define NKEYS (sizeof spec_keys / sizeof spec_keys[0])

/* The generator's answer as a spec; *props points into it (or NULL). */
static strata_status read_spec(const char *gen, const strata_value *ret, strata_room_spec *spec,
                               const strata_value **props, strata_error *err) {
  if (ret->type != STRATA_VTABLE)
    return strata_error_set(err, STRATA_EARG, "room generator '%s': generate must answer a room spec { name =, desc =, clear =, props = }", gen);
  const strata_vtable *t = ret->u.t;
  for (size_t i = 0; i < t->n; i++) {
    const char *k = t->keys[i].type == STRATA_VSTRING ? t->keys[i].u.str.s : NULL;
    size_t known = 0;
    for (size_t j = 0; k && j < NKEYS; j++) known |= !strcmp(k, spec_keys[j]);
    const char *best = "name";
    if (!known && k) strata_nearest(k, spec_keys, NKEYS, &best, NULL, 1);
    if (!known)
      return strata_error_set(err, STRATA_EARG, "room generator '%s': unknown room spec key '%s' (nearest known: %s)", gen,
                              k ? k : "(an integer)", best);
  }
  const strata_value *name = strata_vtable_get_str(t, "name"), *desc = strata_vtable_get_str(t, "desc"),
                     *clear = strata_vtable_get_str(t, "clear");
  *props = strata_vtable_get_str(t, "props");
  if (!name || name->type != STRATA_VSTRING || !name->u.str.len)
    return strata_error_set(err, STRATA_EARG, "room generator '%s': name must be a non-empty string", gen);
  if (desc && desc->type != STRATA_VSTRING) return strata_error_set(err, STRATA_EARG, "room generator '%s': desc must be a string", gen);
  if (clear && clear->type != STRATA_VBOOL) return strata_error_set(err, STRATA_EARG, "room generator '%s': clear must be a boolean", gen);
  if (*props && (*props)->type != STRATA_VTABLE) return strata_error_set(err, STRATA_EARG, "room generator '%s': props must be a table", gen);
  spec->name = name->u.str.s;
  spec->desc = desc ? desc->u.str.s : NULL;
  spec->clear = clear ? clear->u.b : 1;
  return STRATA_OK;
}

/* Inside the savepoint: the call, the spec, the growth, the props. */
static strata_status generate(strata_runtime *rt, uint64_t b, uint64_t exit, const char *gen, uint64_t *room,
                              strata_error *err) {
  strata_world *w = rt->w;
  int64_t x, y;
  uint64_t of;
  strata_status st = strata_branch_target(w, exit, &of, &x, &y, err);
  if (st) return st;
  strata_callable c;
  if ((st = rt_resolve(rt, STRATA_LOGIC_GENERATE_ROOM, gen, &c, err))) return st;
  if (!c.fn) return strata_error_set(err, STRATA_ENOTFOUND, "room generator '%s' has no generate function", gen);
  char key[96], exits_key[64];
  snprintf(key, sizeof key, "branch#%" PRIu64 " cell %" PRId64 ",%" PRId64, b, x, y);
  snprintf(exits_key, sizeof exits_key, "branch#%" PRIu64 " exits", b);
  /* The cell's stream is used once: made from the seed, not kept among the world's streams,
  ** only lent to the world for the call (so that a host may draw from it by its key, and a
  ** savepoint rolled back during the call puts it back). */
  strata_rng rng, exits;
  strata_rng_stream(&rng, strata_world_seed(w), key, strlen(key));
  strata_call call;
  rt_call_init(&call, rt, STRATA_LOGIC_GENERATE_ROOM, gen);
  call.source = b;
  call.x = x;
  call.y = y;
  call.depth = strata_branch_depth(x, y);
  call.rng = &rng;
  call.rng_key = key;
  st = rt_call_lent(rt, &c, &call, key, &rng, err);
  strata_room_spec spec;
  const strata_value *props = NULL;
  if (!st) st = read_spec(gen, &call.ret, &spec, &props, err);
  if (!st) st = strata_world_stream(w, exits_key, &exits, err);
  if (!st) st = strata_branch_grow(w, b, exit, &spec, &exits, room, err);
  if (!st) st = strata_world_set_stream(w, exits_key, &exits, err);
  if (!st && props) {
    strata_value copy, path = K("props");
    if (!(st = strata_value_copy(&copy, props, err)) && (st = strata_object_set(w, *room, &path, 1, &copy, err)))
      strata_value_clear(&copy);
  }
  strata_value_clear(&call.ret);
  return st;
}

strata_status strata_branch_generate(strata_runtime *rt, uint64_t b, uint64_t exit, uint64_t *room, strata_error *err) {
  strata_world *w = rt->w;
  if (!strata_is_branch(w, b)) return strata_error_set(err, STRATA_ENOTFOUND, "#%" PRIu64 " is no live branch", b);
  const char *g = strata_branch_generator(w, b);
  if (!g) return strata_error_set(err, STRATA_ESTATE, "branch#%" PRIu64 " was made without a room generator", b);
  /* copied: the generator may change the branch's records */
  char gen[256];
  if (strlen(g) >= sizeof gen) return strata_error_set(err, STRATA_EARG, "branch#%" PRIu64 ": room generator ID too long", b);
  memcpy(gen, g, strlen(g) + 1);
  uint64_t made = 0;
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  st = generate(rt, b, exit, gen, &made, err);
  rt_end(rt, st);
  if (!st && room) *room = made;
  return st;
}
