/*
** runtime.c - a world at work: the runtime object, the world record, the
** savepoints the runtime opens, and every call into the host's logic.
*/
#include "runtime_internal.h"
#include "strata/alloc.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

strata_runtime *strata_runtime_new(strata_world *w, const strata_resolver *r, strata_error *err) {
  if (!w || !r || !r->resolve || !r->map_archetype || !r->area_archetype || !r->unique_area ||
      !r->unique_at) {
    strata_error_in(err, STRATA_EARG, "strata_runtime_new",
                    "needs a world and a resolver with resolve, map_archetype, "
                    "area_archetype, unique_area and unique_at");
    return NULL;
  }
  strata_runtime *rt = strata_calloc(1, sizeof *rt);
  if (!rt) { strata_error_nomem(err, NULL); return NULL; }
  rt->w = w;
  rt->res = *r;
  return rt;
}

void strata_runtime_free(strata_runtime *rt) {
  if (!rt) return;
  for (size_t i = 0; i < rt->nhandlers; i++) {
    strata_free(rt->handlers[i].event);
    strata_free(rt->handlers[i].name);
    strata_free(rt->handlers[i].handler);
  }
  strata_free(rt->handlers);
  strata_free(rt->loaded);
  strata_free(rt->failure_message);
  strata_free(rt->map_areas);
  strata_free(rt->floor_maps);
  feature_index_free(rt);
  strata_free(rt);
}

const char *strata_runtime_failure_text(const strata_runtime *rt, const strata_error *err) {
  if (rt && err && err->refusal == STRATA_REFUSED_HOST && rt->failure_message) return rt->failure_message;
  return err ? err->message : "";
}

strata_world *strata_runtime_world(const strata_runtime *rt) { return rt->w; }
const strata_resolver *strata_runtime_resolver(const strata_runtime *rt) { return &rt->res; }

void strata_failures_clear(strata_failures *f) {
  if (!f) return;
  for (size_t i = 0; i < f->n; i++) {
    strata_free(f->items[i].event);
    strata_free(f->items[i].handler);
    strata_free(f->items[i].mod);
    strata_free(f->items[i].message);
  }
  strata_free(f->items);
  f->items = NULL;
  f->n = f->cap = 0;
}

strata_object *rt_object(const strata_runtime *rt, uint64_t uid, const char *kind) {
  strata_object *o = uid ? strata_world_object(rt->w, uid) : NULL;
  if (o && kind && strcmp(o->kind, kind) != 0) return NULL;
  return o;
}

const char *rt_label(const strata_runtime *rt, uint64_t uid, char buf[48]) {
  strata_object *o = strata_world_object(rt->w, uid);
  snprintf(buf, 48, "%.24s#%" PRIu64, o ? o->kind : "object", uid);
  return buf;
}

/* ---- the world record ---- */

/* Where a world keeps what is not any one object's: the one object of its
** kind, which the world's index by kind finds without a scan. */
uint64_t rt_record(const strata_runtime *rt) { return strata_world_first_of_kind(rt->w, SYS_KIND_RECORD); }

strata_status rt_record_make(strata_runtime *rt, uint64_t *uid, strata_error *err) {
  uint64_t rec = rt_record(rt);
  if (rec) { *uid = rec; return STRATA_OK; }
  strata_value sys = strata_value_nil();
  strata_status st = strata_world_create(rt->w, SYS_KIND_RECORD, NULL, &rec, err);
  if (st) return st;
  if ((st = record_sys_new(&sys, err)) || (st = sys_init(rt, rec, &sys, err))) goto fail;
  *uid = rec;
  return STRATA_OK;
fail:
  world_delete(rt->w, rec, NULL);
  return st;
}

/* ---- on_load, once per map per process ---- */

int rt_loaded(const strata_runtime *rt, uint64_t uid) {
  return uid / 8 < rt->loaded_cap && (rt->loaded[uid / 8] >> (uid % 8) & 1);
}

strata_status rt_set_loaded(strata_runtime *rt, uint64_t uid, int on, strata_error *err) {
  size_t byte = (size_t)(uid / 8);
  if (byte >= rt->loaded_cap) {
    if (!on) return STRATA_OK;
    size_t old = rt->loaded_cap;
    if (!STRATA_GROW(rt->loaded, rt->loaded_cap, byte + 1)) return strata_error_nomem(err, NULL);
    memset(rt->loaded + old, 0, rt->loaded_cap - old);
  }
  if (on) rt->loaded[byte] |= (unsigned char)(1u << (uid % 8));
  else rt->loaded[byte] &= (unsigned char)~(1u << (uid % 8));
  return STRATA_OK;
}

/* ---- savepoints ---- */

strata_status rt_begin(strata_runtime *rt, strata_error *err) {
  strata_status st = strata_world_begin(rt->w, err);
  if (!st && rt->res.savepoint) rt->res.savepoint(rt->res.host, STRATA_SAVEPOINT_BEGIN);
  return st;
}

strata_status rt_end(strata_runtime *rt, strata_status st) {
  if (st) strata_world_rollback(rt->w);
  else strata_world_commit(rt->w);
  if (rt->res.savepoint)
    rt->res.savepoint(rt->res.host, st ? STRATA_SAVEPOINT_ROLLBACK : STRATA_SAVEPOINT_COMMIT);
  return st;
}

/* ---- the host's logic and definitions ---- */

static const char *const logic_names[STRATA_LOGIC_COUNT] = {
  "generate_floor", "generate", "on_spawn", "on_load", "on_enter", "on_leave",
  "on_restock", "on_renew", "starting_pos", "event handler", "handler", "generate"
};

const char *strata_logic_name(strata_logic kind) {
  return (unsigned)kind < STRATA_LOGIC_COUNT ? logic_names[kind] : "logic";
}

strata_status rt_resolve(strata_runtime *rt, strata_logic kind, const char *id,
                         strata_callable *out, strata_error *err) {
  memset(out, 0, sizeof *out);
  return rt->res.resolve(rt->res.host, kind, id, out, err);
}

strata_status rt_map_archetype(strata_runtime *rt, const char *id,
                               const strata_map_archetype **out, strata_error *err) {
  *out = NULL;
  return rt->res.map_archetype(rt->res.host, id, out, err);
}

/* base.one_map when the resolver has none of its own (area.h). */
static const strata_area_archetype one_map = { .id = STRATA_AREA_ONE_MAP, .has_starting_floor = 1,
                                               .starting_floor = 1, .has_deepest_floor = 1, .deepest_floor = 1 };

strata_status rt_area_archetype(strata_runtime *rt, const char *id,
                                const strata_area_archetype **out, strata_error *err) {
  *out = NULL;
  strata_status st = rt->res.area_archetype(rt->res.host, id, out, err);
  if (st == STRATA_ENOTFOUND && id && strcmp(id, STRATA_AREA_ONE_MAP) == 0) {
    *out = &one_map;
    return STRATA_OK;
  }
  return st;
}

const strata_map_archetype *rt_map_archetype_opt(const strata_runtime *rt, const char *id) {
  const strata_map_archetype *def = NULL;
  if (id && rt->res.map_archetype(rt->res.host, id, &def, NULL) != STRATA_OK) def = NULL;
  return def;
}

const strata_area_archetype *rt_area_archetype_opt(const strata_runtime *rt, const char *id) {
  const strata_area_archetype *def = NULL;
  /* (the resolver's cache is not state: hence the cast, as for the memos) */
  if (id && rt_area_archetype((strata_runtime *)rt, id, &def, NULL) != STRATA_OK) def = NULL;
  return def;
}

void rt_call_init(strata_call *c, strata_runtime *rt, strata_logic kind, const char *id) {
  memset(c, 0, sizeof *c);
  c->rt = rt;
  c->world = rt->w;
  c->kind = kind;
  c->id = id;
}

strata_status rt_call(strata_runtime *rt, const strata_callable *c, strata_call *call,
                      strata_error *err) {
  strata_error local;
  strata_error *e = err ? err : &local;
  strata_error_clear(e);
  world_callbacks(rt->w, 1);
  strata_status st = c->fn(call, c->data, e);
  world_callbacks(rt->w, -1);
  if (st && !e->message[0])
    strata_error_set(e, st, "%s %s failed (%s)", call->id ? call->id : "?",
                     strata_logic_name(call->kind), strata_status_name(st));
  if (st) {
    e->status = st;
    if (e->refusal == STRATA_REFUSED_NONE) e->refusal = STRATA_REFUSED_HOST;
    /* the last failure's whole message, if the host gave one (strata_runtime_failure_text) */
    strata_free(rt->failure_message);
    rt->failure_message = call->message;
  } else {
    strata_free(call->message);
  }
  call->message = NULL;
  return st;
}

strata_status rt_call_atomic(strata_runtime *rt, const strata_callable *c, strata_call *call,
                             const char *what, strata_error *err) {
  int depth = strata_world_depth(rt->w);
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  st = rt_call(rt, c, call, err);
  /* A handler that left savepoints open, or closed ours, failed: undo what it left. */
  if (strata_world_depth(rt->w) > depth + 1) {
    while (strata_world_depth(rt->w) > depth + 1) strata_world_rollback(rt->w);
    if (!st) st = strata_error_set(err, STRATA_ESTATE, "%s left a savepoint open", what);
  }
  if (strata_world_depth(rt->w) == depth + 1) rt_end(rt, st);
  else if (!st) st = strata_error_set(err, STRATA_ESTATE, "%s closed a savepoint it did not open", what);
  return st;
}

strata_status rt_call_lent(strata_runtime *rt, const strata_callable *c, strata_call *call, const char *key,
                           strata_rng *rng, strata_error *err) {
  strata_status st = strata_world_lend_stream(rt->w, key, rng, err);
  if (st) return st;
  st = rt_call(rt, c, call, err);
  strata_world_lend_end(rt->w);
  return st;
}

strata_status rt_call_with_stream(strata_runtime *rt, const strata_callable *c, strata_call *call,
                                  const char *key, strata_error *err) {
  strata_rng rng, before;
  strata_status st = strata_world_stream(rt->w, key, &rng, err);
  if (st) return st;
  before = rng;
  call->rng = &rng;
  call->rng_key = key;
  st = rt_call_lent(rt, c, call, key, &rng, err);
  call->rng = NULL;
  if (!st && memcmp(&rng, &before, sizeof rng) != 0)
    st = strata_world_set_stream(rt->w, key, &rng, err);
  return st;
}

strata_status rt_map_hook(strata_runtime *rt, uint64_t map, strata_logic kind, strata_call *call,
                          const char *stream, strata_error *err) {
  strata_object *o = rt_object(rt, map, "map");
  if (!o || !o->archetype || !rt_map_archetype_opt(rt, o->archetype)) return STRATA_OK;
  /* The archetype ID is copied: the hook may give the map another archetype. */
  char *id = strata_strdup(o->archetype);
  if (!id) return strata_error_nomem(err, NULL);
  strata_callable c;
  strata_status st = rt_resolve(rt, kind, id, &c, err);
  if (!st && c.fn) {
    call->rt = rt;
    call->world = rt->w;
    call->kind = kind;
    call->id = id;
    call->map = map;
    st = stream ? rt_call_with_stream(rt, &c, call, stream, err) : rt_call(rt, &c, call, err);
    call->id = NULL;
  }
  strata_free(id);
  return st;
}

/* ---- params tables ---- */

uint64_t args_uid(const strata_value *args, const char *key) {
  const strata_value *v = args && args->type == STRATA_VTABLE ? strata_vtable_get_str(args->u.t, key) : NULL;
  if (!v) return 0;
  if (v->type == STRATA_VINT) return v->u.i > 0 ? (uint64_t)v->u.i : 0;
  return v->type == STRATA_VREF ? v->u.ref : 0;
}

strata_status params_ref(strata_value *t, const char *key, uint64_t uid, strata_error *err) {
  if (!uid) return STRATA_OK;
  strata_value k = K(key), v = strata_value_ref(uid);
  return strata_vtable_set(t->u.t, &k, &v, err);
}

strata_status params_str(strata_value *t, const char *key, const char *s, strata_error *err) {
  if (!s) return STRATA_OK;
  strata_value k = K(key), v;
  strata_status st = strata_value_string(&v, s, strlen(s), err);
  if (!st && (st = strata_vtable_set(t->u.t, &k, &v, err))) strata_value_clear(&v);
  return st;
}

void params_start(event_params *p) {
  memset(&p->t, 0, sizeof p->t);
  p->t.keys = p->keys;
  p->t.vals = p->vals;
  p->t.cap = PARAMS_MAX;
  p->v = strata_value_nil();
  p->v.type = STRATA_VTABLE;
  p->v.u.t = &p->t;
}

void params_put(event_params *p, const char *key, strata_value v) {
  if ((v.type == STRATA_VREF && !v.u.ref) || p->t.n == PARAMS_MAX) return;
  p->keys[p->t.n] = K(key);
  p->vals[p->t.n++] = v;
}

strata_status params_int(strata_value *t, const char *key, int64_t i, strata_error *err) {
  strata_value k = K(key), v = strata_value_int(i);
  return strata_vtable_set(t->u.t, &k, &v, err);
}
