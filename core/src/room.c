/*
** room.c - rooms: named places of text worlds, the exits that leave them,
** and which room an object stands in (room.h).
*/
#include <stdlib.h>
#include <string.h>

#include "room_internal.h"

strata_status room_not(strata_error *err, const char *kind, uint64_t uid) {
  return strata_error_set(err, STRATA_ENOTFOUND, "#%llu is no live %s", (unsigned long long)uid, kind);
}

const strata_vtable *room_rec(const strata_world *w, uint64_t uid, const char *kind,
                              const char *rec) {
  const strata_object *o = strata_world_get(w, uid);
  if (!o || strcmp(o->kind, kind) != 0) return NULL;
  strata_value path[2] = { room_key("sys"), room_key(rec) };
  const strata_value *v = strata_object_get(w, uid, path, 2);
  return v && v->type == STRATA_VTABLE ? v->u.t : NULL;
}

const char *room_str(const strata_vtable *t, const char *field) {
  if (!t) return NULL;
  const strata_value *v = strata_vtable_get_str(t, field);
  return v && v->type == STRATA_VSTRING ? v->u.str.s : NULL;
}

strata_status room_set(strata_world *w, uint64_t uid, const char *k1, const char *k2,
                       strata_value *val, strata_error *err) {
  strata_value path[3] = { room_key("sys"), room_key(k1), k2 ? room_key(k2) : strata_value_nil() };
  const strata_value *sys = strata_object_get(w, uid, path, 1);
  if (!sys || sys->type != STRATA_VTABLE) {
    strata_value t;
    strata_status st = strata_value_table(&t, err);
    if (st) return st;
    if ((st = strata_object_set(w, uid, path, 1, &t, err))) { strata_value_clear(&t); return st; }
  }
  return strata_object_set(w, uid, path, k2 ? 3 : 2, val, err);
}

strata_status room_set_str(strata_world *w, uint64_t uid, const char *rec, const char *field,
                           const char *s, int may_be_empty, strata_error *err) {
  if (!s) s = "";
  if (!*s && !may_be_empty)
    return strata_error_set(err, STRATA_EARG, "%s #%llu: a %s cannot be empty", rec,
                            (unsigned long long)uid, field);
  strata_value v;
  strata_status st = strata_value_string(&v, s, strlen(s), err);
  if (st) return st;
  strata_value path[3] = { room_key("sys"), room_key(rec), room_key(field) };
  if ((st = strata_object_set(w, uid, path, 3, &v, err))) strata_value_clear(&v);
  return st;
}

/* ---- rooms ---- */

static strata_status add_str(strata_vtable *t, const char *k, const char *s, strata_error *err) {
  strata_value v;
  strata_status st = strata_value_string(&v, s, strlen(s), err);
  if (st) return st;
  strata_value key = room_key(k);
  if ((st = strata_vtable_set(t, &key, &v, err))) strata_value_clear(&v);
  return st;
}

strata_status strata_room_create(strata_world *w, const char *name, const char *desc,
                                 uint64_t *uid, strata_error *err) {
  if (!name || !*name) return strata_error_set(err, STRATA_EARG, "a room needs a name");
  strata_value rec, exits;
  strata_status st = strata_value_table(&rec, err);
  if (st) return st;
  if (!(st = add_str(rec.u.t, "name", name, err)) && !(st = add_str(rec.u.t, "desc", desc ? desc : "", err))
      && !(st = strata_value_table(&exits, err))) {
    strata_value key = room_key("exits");
    if ((st = strata_vtable_set(rec.u.t, &key, &exits, err))) strata_value_clear(&exits);
  }
  uint64_t id = 0;
  if (!st) st = strata_world_create(w, "room", NULL, &id, err);
  if (!st && (st = room_set(w, id, "room", NULL, &rec, err))) strata_world_delete(w, id, NULL);
  strata_value_clear(&rec);
  if (!st && uid) *uid = id;
  return st;
}

int strata_is_room(const strata_world *w, uint64_t uid) { return room_rec(w, uid, "room", "room") != NULL; }

const char *strata_room_name(const strata_world *w, uint64_t room) {
  return room_str(room_rec(w, room, "room", "room"), "name");
}

const char *strata_room_desc(const strata_world *w, uint64_t room) {
  return room_str(room_rec(w, room, "room", "room"), "desc");
}

strata_status strata_room_set_name(strata_world *w, uint64_t room, const char *name, strata_error *err) {
  if (!strata_is_room(w, room)) return room_not(err, "room", room);
  return room_set_str(w, room, "room", "name", name, 0, err);
}

strata_status strata_room_set_desc(strata_world *w, uint64_t room, const char *desc, strata_error *err) {
  if (!strata_is_room(w, room)) return room_not(err, "room", room);
  return room_set_str(w, room, "room", "desc", desc, 1, err);
}

static const strata_vtable *exit_list(const strata_world *w, uint64_t room) {
  const strata_vtable *r = room_rec(w, room, "room", "room");
  const strata_value *v = r ? strata_vtable_get_str(r, "exits") : NULL;
  return v && v->type == STRATA_VTABLE ? v->u.t : NULL;
}

size_t strata_room_exit_count(const strata_world *w, uint64_t room) {
  const strata_vtable *t = exit_list(w, room);
  return t ? t->n : 0;
}

uint64_t strata_room_exit_at(const strata_world *w, uint64_t room, size_t i) {
  const strata_vtable *t = exit_list(w, room);
  if (!t || i >= t->n) return 0;
  /* The list is written 1..n in order (exit.c), so entry i holds key i + 1. */
  const strata_value *v = &t->vals[i];
  return v->type == STRATA_VREF ? v->u.ref : 0;
}

size_t strata_room_contents(const strata_world *w, uint64_t room, uint64_t *out, size_t cap) {
  size_t n = 0;
  for (const strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid))
    if (strata_room_of(w, o->uid) == room) {
      if (n < cap) out[n] = o->uid;
      n++;
    }
  return n;
}

static strata_status delete_room(strata_world *w, uint64_t room, strata_error *err) {
  strata_status st;
  /* Exits into the room from elsewhere: gone with it, as a node's links are. */
  for (const strata_object *o = strata_world_next_object(w, 0); o;) {
    uint64_t uid = o->uid;
    o = strata_world_next_object(w, uid);
    if (strata_exit_to(w, uid) == room && strata_exit_from(w, uid) != room
        && (st = strata_exit_delete(w, uid, err)))
      return st;
  }
  while (strata_room_exit_count(w, room) > 0)
    if ((st = strata_exit_delete(w, strata_room_exit_at(w, room, 0), err))) return st;
  return strata_world_delete(w, room, err);
}

strata_status strata_room_delete(strata_world *w, uint64_t room, strata_error *err) {
  if (!strata_is_room(w, room)) return room_not(err, "room", room);
  uint64_t in;
  if (strata_room_contents(w, room, &in, 1) > 0)
    return strata_error_set(err, STRATA_ESTATE, "room#%llu cannot be deleted: %s#%llu stands in it",
                            (unsigned long long)room, strata_world_get(w, in)->kind, (unsigned long long)in);
  /* Several edits: all of them or none. */
  strata_status st = strata_world_begin(w, err);
  if (st) return st;
  if ((st = delete_room(w, room, err))) { strata_world_rollback(w); return st; }
  strata_world_commit(w);
  return STRATA_OK;
}

/* ---- who is where ---- */

uint64_t strata_room_of(const strata_world *w, uint64_t obj) {
  strata_value path[2] = { room_key("sys"), room_key("in_room") };
  const strata_value *v = strata_object_get(w, obj, path, 2);
  if (!v || v->type != STRATA_VREF || !strata_is_room(w, v->u.ref)) return 0;
  return v->u.ref;
}

strata_status strata_room_put(strata_world *w, uint64_t obj, uint64_t room, strata_error *err) {
  const strata_object *o = strata_world_get(w, obj);
  if (!o) return strata_error_set(err, STRATA_ENOTFOUND, "#%llu is no live object", (unsigned long long)obj);
  if (!strcmp(o->kind, "room") || !strcmp(o->kind, "exit"))
    return strata_error_set(err, STRATA_EARG, "%s #%llu cannot stand in a room", o->kind,
                            (unsigned long long)obj);
  if (room && !strata_is_room(w, room)) return room_not(err, "room", room);
  strata_value v = room ? strata_value_ref(room) : strata_value_nil();
  return room_set(w, obj, "in_room", NULL, &v, err);
}
