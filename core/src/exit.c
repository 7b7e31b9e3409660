/*
** exit.c - exits: the ways out of a room, by name and aliases (room.h).
*/
#include <stdlib.h>
#include <string.h>

#include "room_internal.h"
#include "strata/branch.h"

/* Drops the stamp of room (room.h): its exits are about to change. */
static strata_status unstamp(strata_world *w, uint64_t room, strata_error *err) {
  strata_value path[2] = { room_key("sys"), room_key("stamp") };
  if (!room || !strata_object_get(w, room, path, 2)) return STRATA_OK;
  strata_value nil = strata_value_nil();
  return strata_object_set(w, room, path, 2, &nil, err);
}

static const strata_vtable *exit_rec(const strata_world *w, uint64_t exit) {
  return room_rec(w, exit, "exit", "exit");
}

int strata_is_exit(const strata_world *w, uint64_t uid) { return exit_rec(w, uid) != NULL; }

static uint64_t ref_field(const strata_vtable *t, const char *field) {
  const strata_value *v = t ? strata_vtable_get_str(t, field) : NULL;
  return v && v->type == STRATA_VREF ? v->u.ref : 0;
}

uint64_t strata_exit_from(const strata_world *w, uint64_t exit) { return ref_field(exit_rec(w, exit), "from"); }

uint64_t strata_exit_to(const strata_world *w, uint64_t exit) {
  uint64_t to = ref_field(exit_rec(w, exit), "to");
  return to && strata_is_room(w, to) ? to : 0;
}

const char *strata_exit_name(const strata_world *w, uint64_t exit) { return room_str(exit_rec(w, exit), "name"); }
const char *strata_exit_desc(const strata_world *w, uint64_t exit) { return room_str(exit_rec(w, exit), "desc"); }

static const strata_vtable *aliases(const strata_world *w, uint64_t exit) {
  const strata_vtable *r = exit_rec(w, exit);
  const strata_value *v = r ? strata_vtable_get_str(r, "aliases") : NULL;
  return v && v->type == STRATA_VTABLE ? v->u.t : NULL;
}

size_t strata_exit_alias_count(const strata_world *w, uint64_t exit) {
  const strata_vtable *t = aliases(w, exit);
  return t ? t->n : 0;
}

const char *strata_exit_alias_at(const strata_world *w, uint64_t exit, size_t i) {
  const strata_vtable *t = aliases(w, exit);
  if (!t || i >= t->n || t->vals[i].type != STRATA_VSTRING) return NULL;
  return t->vals[i].u.str.s;
}

/* A list { [1] = v1, ..., [n] = vn } of n values made by make(i, &v). */
static strata_status make_list(strata_value *out, size_t n,
                               strata_status (*make)(const void *ctx, size_t i, strata_value *v, strata_error *err),
                               const void *ctx, strata_error *err) {
  strata_status st = strata_value_table(out, err);
  for (size_t i = 0; !st && i < n; i++) {
    strata_value v, key = strata_value_int((int64_t)i + 1);
    if ((st = make(ctx, i, &v, err))) break;
    if ((st = strata_vtable_set(out->u.t, &key, &v, err))) strata_value_clear(&v);
  }
  if (st) strata_value_clear(out);
  return st;
}

typedef struct str_list { const char *const *s; } str_list;

static strata_status make_str(const void *ctx, size_t i, strata_value *v, strata_error *err) {
  const char *s = ((const str_list *)ctx)->s[i];
  return strata_value_string(v, s, strlen(s), err);
}

strata_status strata_exit_set_aliases(strata_world *w, uint64_t exit, const char *const *names, size_t n,
                                      strata_error *err) {
  if (!strata_is_exit(w, exit)) return room_not(err, "exit", exit);
  for (size_t i = 0; i < n; i++)
    if (!names[i] || !*names[i])
      return strata_error_set(err, STRATA_EARG, "exit #%llu: alias %zu is empty", (unsigned long long)exit, i + 1);
  strata_value list;
  str_list ctx = { names };
  strata_status st = unstamp(w, strata_exit_from(w, exit), err);
  if (st || (st = make_list(&list, n, make_str, &ctx, err))) return st;
  if ((st = room_set(w, exit, "exit", "aliases", &list, err))) strata_value_clear(&list);
  return st;
}

/* The exits list of room with `add` appended (add != 0) or `drop` left out. */
typedef struct edit_list { const strata_world *w; uint64_t room, drop; size_t skip; } edit_list;

static strata_status make_ref(const void *ctx, size_t i, strata_value *v, strata_error *err) {
  (void)err;
  const edit_list *e = ctx;
  *v = strata_value_ref(strata_room_exit_at(e->w, e->room, i < e->skip ? i : i + 1));
  return STRATA_OK;
}

static strata_status set_exits(strata_world *w, uint64_t room, strata_value *list, strata_error *err) {
  strata_status st = room_set(w, room, "room", "exits", list, err);
  if (st) strata_value_clear(list);
  return st;
}

static strata_status unlist(strata_world *w, uint64_t room, uint64_t exit, strata_error *err) {
  size_t n = strata_room_exit_count(w, room), at = n;
  for (size_t i = 0; i < n; i++)
    if (strata_room_exit_at(w, room, i) == exit) { at = i; break; }
  if (at == n) return STRATA_OK;
  edit_list e = { w, room, exit, at };
  strata_value list;
  strata_status st = make_list(&list, n - 1, make_ref, &e, err);
  return st ? st : set_exits(w, room, &list, err);
}

strata_status strata_exit_create(strata_world *w, uint64_t from, uint64_t to, const char *name,
                                 const char *desc, uint64_t *uid, strata_error *err) {
  if (!strata_is_room(w, from)) return room_not(err, "room", from);
  if (to && !strata_is_room(w, to)) return room_not(err, "room", to);
  if (!name || !*name) return strata_error_set(err, STRATA_EARG, "an exit needs a name");
  strata_value rec, v;
  strata_status st = strata_value_table(&rec, err);
  if (st) return st;
  struct { const char *k; strata_value v; } fields[5] = {
    { "from", strata_value_ref(from) }, { "to", to ? strata_value_ref(to) : strata_value_nil() },
    { "name", strata_value_nil() }, { "desc", strata_value_nil() }, { "aliases", strata_value_nil() } };
  if (!(st = strata_value_string(&fields[2].v, name, strlen(name), err))
      && !(st = strata_value_string(&fields[3].v, desc ? desc : "", desc ? strlen(desc) : 0, err)))
    st = strata_value_table(&fields[4].v, err);
  for (int i = 0; i < 5; i++) {
    strata_value key = room_key(fields[i].k);
    if (!st && fields[i].v.type != STRATA_VNIL) st = strata_vtable_set(rec.u.t, &key, &fields[i].v, err);
    strata_value_clear(&fields[i].v);
  }
  uint64_t id = 0;
  if (!st) st = unstamp(w, from, err);
  if (!st) st = strata_world_create(w, "exit", NULL, &id, err);
  if (!st) {
    /* Appended to the room's list under key n + 1 (strata_room_exit_at). */
    strata_value path[5] = { room_key("sys"), room_key("room"), room_key("exits"),
                             strata_value_int((int64_t)strata_room_exit_count(w, from) + 1) };
    if (!(st = room_set(w, id, "exit", NULL, &rec, err))) {
      v = strata_value_ref(id);
      st = strata_object_set(w, from, path, 4, &v, err);
    }
    if (st) strata_world_delete(w, id, NULL);
  }
  strata_value_clear(&rec);
  if (!st && uid) *uid = id;
  return st;
}

strata_status strata_exit_set_to(strata_world *w, uint64_t exit, uint64_t to, strata_error *err) {
  if (!strata_is_exit(w, exit)) return room_not(err, "exit", exit);
  if (to && !strata_is_room(w, to)) return room_not(err, "room", to);
  strata_status st = unstamp(w, strata_exit_from(w, exit), err);
  if (st) return st;
  strata_value v = to ? strata_value_ref(to) : strata_value_nil();
  return room_set(w, exit, "exit", "to", &v, err);
}

strata_status strata_exit_set_name(strata_world *w, uint64_t exit, const char *name, strata_error *err) {
  if (!strata_is_exit(w, exit)) return room_not(err, "exit", exit);
  strata_status st = unstamp(w, strata_exit_from(w, exit), err);
  return st ? st : room_set_str(w, exit, "exit", "name", name, 0, err);
}

strata_status strata_exit_set_desc(strata_world *w, uint64_t exit, const char *desc, strata_error *err) {
  if (!strata_is_exit(w, exit)) return room_not(err, "exit", exit);
  strata_status st = unstamp(w, strata_exit_from(w, exit), err);
  return st ? st : room_set_str(w, exit, "exit", "desc", desc, 1, err);
}

uint64_t strata_exit_find(const strata_world *w, uint64_t room, const char *dir) {
  if (!dir) return 0;
  size_t n = strata_room_exit_count(w, room);
  for (size_t i = 0; i < n; i++) {
    uint64_t e = strata_room_exit_at(w, room, i);
    const char *name = strata_exit_name(w, e);
    if (name && !strcmp(name, dir)) return e;
    size_t na = strata_exit_alias_count(w, e);
    for (size_t k = 0; k < na; k++) {
      const char *a = strata_exit_alias_at(w, e, k);
      if (a && !strcmp(a, dir)) return e;
    }
  }
  /* Branch exits (start exits, exits of branch rooms) answer to their
  ** direction's short name, "n" or "ne", as grid exits do by their aliases;
  ** a rule of the branch, so it holds for exits saved before it too. */
  const char *full = strata_branch_long_dir(dir);
  int branch_room = full && strata_branch_of(w, room) != 0;
  for (size_t i = 0; full && i < n; i++) {
    uint64_t e = strata_room_exit_at(w, room, i);
    const char *name = strata_exit_name(w, e);
    if (name && !strcmp(name, full) && (branch_room || strata_branch_start_archetype(w, e))) return e;
  }
  return 0;
}

strata_status strata_exit_delete(strata_world *w, uint64_t exit, strata_error *err) {
  if (!strata_is_exit(w, exit)) return room_not(err, "exit", exit);
  uint64_t from = strata_exit_from(w, exit);
  strata_status st = strata_world_begin(w, err);
  if (st) return st;
  if ((from && strata_is_room(w, from) && ((st = unstamp(w, from, err)) || (st = unlist(w, from, exit, err))))
      || (st = strata_world_delete(w, exit, err))) {
    strata_world_rollback(w);
    return st;
  }
  strata_world_commit(w);
  return STRATA_OK;
}
