/*
** sys.c - the bookkeeping areas, maps, features and the world record keep
** under the reserved key `sys` of their properties (the layout: area.h).
**
** Reads walk the value tree directly. Writes go through strata_object_set,
** so that a savepoint sees them (it copies an object's properties on its
** first change, and only its properties: a map's tiles are not cloned for a
** change of its bookkeeping).
*/
#include "runtime_internal.h"

#include <stdlib.h>

/* sys and up to this many keys below it */
#define SYS_DEPTH 7

const strata_value *prop_get(const strata_world *w, uint64_t uid, const char *key) {
  strata_object *o = strata_world_object(w, uid);
  if (!o || o->props.type != STRATA_VTABLE) return NULL;
  return strata_vtable_get_str(o->props.u.t, key);
}

const strata_value *sys_get(const strata_world *w, uint64_t uid, const strata_value *path,
                            size_t n) {
  const strata_value *v = prop_get(w, uid, "sys");
  for (size_t i = 0; v && i < n; i++)
    v = v->type == STRATA_VTABLE ? strata_vtable_get(v->u.t, &path[i]) : NULL;
  return v;
}

uint64_t sys_uid(const strata_world *w, uint64_t uid, const strata_value *path, size_t n) {
  const strata_value *v = sys_get(w, uid, path, n);
  if (!v) return 0;
  if (v->type == STRATA_VINT) return v->u.i > 0 ? (uint64_t)v->u.i : 0;
  if (v->type == STRATA_VREF) return v->u.ref;
  return 0;
}

int sys_int(const strata_world *w, uint64_t uid, const strata_value *path, size_t n,
            int64_t *out) {
  const strata_value *v = sys_get(w, uid, path, n);
  if (!v) return 0;
  if (v->type == STRATA_VINT) { *out = v->u.i; return 1; }
  /* an integral float: what Lua arithmetic may have stored */
  if (v->type == STRATA_VFLOAT && v->u.f == (double)(int64_t)v->u.f) {
    *out = (int64_t)v->u.f;
    return 1;
  }
  return 0;
}

int sys_num(const strata_world *w, uint64_t uid, const strata_value *path, size_t n,
            double *out) {
  const strata_value *v = sys_get(w, uid, path, n);
  if (!v) return 0;
  if (v->type == STRATA_VFLOAT) { *out = v->u.f; return 1; }
  if (v->type == STRATA_VINT) { *out = (double)v->u.i; return 1; }
  return 0;
}

const char *sys_str(const strata_world *w, uint64_t uid, const strata_value *path, size_t n) {
  const strata_value *v = sys_get(w, uid, path, n);
  return v && v->type == STRATA_VSTRING ? v->u.str.s : NULL;
}

int value_truthy(const strata_value *v) {
  return v && v->type != STRATA_VNIL && !(v->type == STRATA_VBOOL && !v->u.b);
}

strata_status sys_set(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                      strata_value *val, strata_error *err) {
  strata_value full[SYS_DEPTH + 1];
  strata_status st = STRATA_OK;
  if (n > SYS_DEPTH) {
    strata_value_clear(val);
    return strata_error_set(err, STRATA_ELIMIT, "sys path too deep");
  }
  if (!strata_world_object(w, uid)) {
    strata_value_clear(val);
    return strata_error_set(err, STRATA_ENOTFOUND, "no object #%llu (deleted or never created)",
                            (unsigned long long)uid);
  }
  full[0] = K("sys");
  if (n) memcpy(full + 1, path, n * sizeof *path);
  /* The tables on the way: made when missing, unless there is nothing to
  ** set; sys itself always, as areas.lua's set_sys does. */
  for (size_t d = 1; d <= n && !st; d++) {
    const strata_value *t = strata_object_get(w, uid, full, d);
    if (t && t->type == STRATA_VTABLE) continue;
    if (val->type == STRATA_VNIL && d > 1) return STRATA_OK; /* removing what is not there */
    strata_value fresh = strata_value_nil();
    if (!(st = strata_value_table(&fresh, err))) {
      st = strata_object_set(w, uid, full, d, &fresh, err);
      strata_value_clear(&fresh);
    }
  }
  if (!st) st = strata_object_set(w, uid, full, n + 1, val, err);
  strata_value_clear(val); /* nil after a success; ours to free after a failure */
  return st;
}

strata_status sys_set_int(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                          int64_t i, strata_error *err) {
  strata_value v = strata_value_int(i);
  return sys_set(w, uid, path, n, &v, err);
}

strata_status sys_set_uid(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                          uint64_t u, strata_error *err) {
  strata_value v = u ? strata_value_int((int64_t)u) : strata_value_nil();
  return sys_set(w, uid, path, n, &v, err);
}

strata_status sys_del(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                      strata_error *err) {
  strata_value v = strata_value_nil();
  return sys_set(w, uid, path, n, &v, err);
}
