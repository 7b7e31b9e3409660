/*
** move.c - an actor's step on a tile map and its way through an exit: the
** way checked, base.before_move (a handler answering false refuses),
** the move, base.moved (move.h).
**
** A refusal is an answer, not an error: out says why, the world is as it
** was. Each public call is one savepoint, so that an error half-way (out of
** memory, a failing room generator) leaves nothing changed; handlers run in
** savepoints of their own inside it, as in every emit.
*/
#include "runtime_internal.h"

#include <stdarg.h>
#include <stdio.h>

#include "strata/branch.h"
#include "strata/room.h"
#include "strata/tilemap.h"

void move_refuse(strata_move_outcome *out, strata_move_refusal r, const char *fmt, ...) {
  out->refusal = r;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out->reason, sizeof out->reason, fmt, ap);
  va_end(ap);
}

strata_status move_check_actor(strata_runtime *rt, uint64_t actor, const char *what, strata_error *err) {
  char b[48];
  if (rt_object(rt, actor, "actor")) return STRATA_OK;
  return strata_error_in(err, strata_world_object(rt->w, actor) ? STRATA_EARG : STRATA_ENOTFOUND, what,
                         "expected a live actor, got %s", rt_label(rt, actor, b));
}

/* { x, y, x = x, y = y } under key: a point as strata gives every point. */
static strata_status params_point(strata_value *t, const char *key, int64_t x, int64_t y, strata_error *err) {
  strata_value p, k = K(key);
  strata_status st = strata_value_table(&p, err);
  if (st) return st;
  int64_t xy[2] = { x, y };
  for (int i = 0; i < 2 && !st; i++) {
    strata_value ki = strata_value_int(i + 1), kn = K(i ? "y" : "x"), v = strata_value_int(xy[i]);
    st = strata_vtable_set(p.u.t, &ki, &v, err);
    v = strata_value_int(xy[i]);
    if (!st) st = strata_vtable_set(p.u.t, &kn, &v, err);
  }
  if (!st) st = strata_vtable_set(t->u.t, &k, &p, err);
  if (st) strata_value_clear(&p);
  return st;
}

/* base.before_move, then (unless refused) the move itself, then base.moved. */
typedef strata_status (*move_fn)(strata_runtime *rt, uint64_t obj, const void *where, strata_error *err);

static strata_status around(strata_runtime *rt, uint64_t obj, const strata_value *params, move_fn fn,
                            const void *where, strata_move_outcome *out, strata_error *err) {
  strata_value yes = strata_value_bool(1), go;
  strata_status st = event_emit(rt, obj, "base.before_move", params, &yes, &go, err);
  if (st) return st;
  int refused = go.type == STRATA_VBOOL && !go.u.b;
  strata_value_clear(&go);
  if (refused) {
    move_refuse(out, STRATA_MOVE_REFUSED, "the move was refused");
    return STRATA_OK;
  }
  if ((st = fn(rt, obj, where, err))) return st;
  return event_emit(rt, obj, "base.moved", params, NULL, NULL, err);
}

/* ---- on a tile map ---- */

typedef struct cell { uint64_t map; int64_t x, y; } cell;

static strata_status put_on_cell(strata_runtime *rt, uint64_t obj, const void *where, strata_error *err) {
  const cell *c = where;
  return strata_object_set_position(rt->w, obj, c->map, c->x, c->y, err);
}

strata_status move_on_map(strata_runtime *rt, uint64_t actor, int64_t x, int64_t y,
                          strata_move_outcome *out, strata_error *err) {
  const strata_object *a = strata_world_get(rt->w, actor);
  const strata_tilemap *tm = a->has_pos && rt_object(rt, a->map, NULL) ? strata_world_tilemap(rt->w, a->map) : NULL;
  if (!tm) { move_refuse(out, STRATA_MOVE_NOWHERE, "the actor is on no map"); return STRATA_OK; }
  if (x < 0 || y < 0 || x >= strata_tilemap_width(tm) || y >= strata_tilemap_height(tm)) {
    move_refuse(out, STRATA_MOVE_OFF_MAP, "the way is off the map");
    return STRATA_OK;
  }
  if (!strata_tilemap_passable(tm, (int)x, (int)y)) {
    move_refuse(out, STRATA_MOVE_BLOCKED, "the way is blocked");
    return STRATA_OK;
  }
  cell to = { a->map, x, y };
  strata_value p;
  strata_status st = strata_value_table(&p, err);
  if (st) return st;
  st = params_ref(&p, "actor", actor, err);
  if (!st) st = params_ref(&p, "map", a->map, err);
  if (!st) st = params_point(&p, "from", a->x, a->y, err);
  if (!st) st = params_point(&p, "to", x, y, err);
  if (!st) st = around(rt, actor, &p, put_on_cell, &to, out, err);
  strata_value_clear(&p);
  return st;
}

strata_status strata_move(strata_runtime *rt, uint64_t actor, int64_t x, int64_t y,
                          strata_move_outcome *out, strata_error *err) {
  move_refuse(out, STRATA_MOVE_OK, "");
  strata_status st = move_check_actor(rt, actor, "strata_move", err);
  if (st || (st = rt_begin(rt, err))) return st;
  return rt_end(rt, move_on_map(rt, actor, x, y, out, err));
}

/* ---- between rooms ---- */

static strata_status put_in_room(strata_runtime *rt, uint64_t obj, const void *where, strata_error *err) {
  return strata_room_put(rt->w, obj, *(const uint64_t *)where, err);
}

strata_status move_enter(strata_runtime *rt, uint64_t obj, uint64_t here, uint64_t to, uint64_t exit,
                         strata_move_outcome *out, strata_error *err) {
  strata_value p;
  strata_status st = strata_value_table(&p, err);
  if (st) return st;
  st = params_ref(&p, "actor", obj, err);
  if (!st) st = params_ref(&p, "from", here, err);
  if (!st) st = params_ref(&p, "to", to, err);
  if (!st) st = params_ref(&p, "exit", exit, err);
  if (!st) st = around(rt, obj, &p, put_in_room, &to, out, err);
  strata_value_clear(&p);
  return st;
}

strata_status strata_move_to_room(strata_runtime *rt, uint64_t actor, uint64_t room, uint64_t exit,
                                  strata_move_outcome *out, strata_error *err) {
  char b[48];
  move_refuse(out, STRATA_MOVE_OK, "");
  strata_object *o = strata_world_object(rt->w, actor);
  if (!o || strata_is_room(rt->w, actor) || strata_is_exit(rt->w, actor))
    return strata_error_in(err, o ? STRATA_EARG : STRATA_ENOTFOUND, "strata_move_to_room",
                           "expected a live object that stands in rooms, got %s", rt_label(rt, actor, b));
  if (!strata_is_room(rt->w, room))
    return strata_error_in(err, STRATA_ENOTFOUND, "strata_move_to_room", "%s is no live room", rt_label(rt, room, b));
  if (exit && !strata_is_exit(rt->w, exit))
    return strata_error_in(err, STRATA_ENOTFOUND, "strata_move_to_room", "%s is no live exit", rt_label(rt, exit, b));
  /* An object is on a tile map or in a room, never both: one on a map is
  ** refused, not left standing in two places (every move into a room comes
  ** here: a fly, a dive, a teleport). */
  if (o->has_pos) {
    char mb[48];
    return strata_error_in(err, STRATA_EARG, "strata_move_to_room",
                           "%s stands on %s at (%lld, %lld): take it off its tile map before moving it into a room",
                           rt_label(rt, actor, b), rt_label(rt, o->map, mb), (long long)o->x, (long long)o->y);
  }
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  return rt_end(rt, move_enter(rt, actor, strata_room_of(rt->w, actor), room, exit, out, err));
}

static strata_status go(strata_runtime *rt, uint64_t actor, uint64_t here, uint64_t e,
                        strata_move_outcome *out, strata_error *err) {
  int handled = 0;
  strata_status st = branch_go(rt, actor, here, e, &handled, out, err);
  if (!handled && !st) {
    uint64_t to = strata_exit_to(rt->w, e);
    if (!to) {
      move_refuse(out, STRATA_MOVE_BLOCKED, "the way is blocked");
      return STRATA_OK;
    }
    st = move_enter(rt, actor, here, to, e, out, err);
  }
  return st || out->refusal ? st : branch_arrived(rt, actor, err);
}

strata_status strata_go(strata_runtime *rt, uint64_t actor, const char *dir, strata_move_outcome *out,
                        strata_error *err) {
  move_refuse(out, STRATA_MOVE_OK, "");
  strata_status st = move_check_actor(rt, actor, "strata_go", err);
  if (st) return st;
  if (!dir || !*dir) return strata_error_in(err, STRATA_EARG, "strata_go", "the direction must be a non-empty string");
  uint64_t here = strata_room_of(rt->w, actor);
  if (!here) { move_refuse(out, STRATA_MOVE_NOWHERE, "the actor is in no room"); return STRATA_OK; }
  uint64_t e = strata_exit_find(rt->w, here, dir);
  if (!e) { move_refuse(out, STRATA_MOVE_NO_EXIT, "there is no way '%s' here", dir); return STRATA_OK; }
  if ((st = rt_begin(rt, err))) return st;
  return rt_end(rt, go(rt, actor, here, e, out, err));
}
