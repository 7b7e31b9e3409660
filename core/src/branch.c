/*
** branch.c - procedural dungeon branches (branch.h): the cell index, the
** rules for the exits of a new room, and the end of a branch.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata/branch.h"
#include "strata/alloc.h"
#include "room_internal.h"
#include "sys.h" /* the bookkeeping kinds, world_delete */

/* Coordinates stay within +-2^30 so that a cell packs into one integer key. */
#define COORD_MAX ((int64_t)1 << 30)
/* Cells are indexed in CHUNK x CHUNK squares (see branch.h). */
#define CHUNK 8

static const struct { const char *name, *opposite, *shortname; int dx, dy; } compass[] = {
  { "north", "south", "n", 0, 1 },  { "east", "west", "e", 1, 0 },  { "south", "north", "s", 0, -1 },
  { "west", "east", "w", -1, 0 },   { "northeast", "southwest", "ne", 1, 1 }, { "southeast", "northwest", "se", 1, -1 },
  { "southwest", "northeast", "sw", -1, -1 }, { "northwest", "southeast", "nw", -1, 1 } };
#define NDIRS (sizeof compass / sizeof compass[0])

static int dir_index(const char *name) {
  for (size_t i = 0; name && i < NDIRS; i++)
    if (!strcmp(compass[i].name, name)) return (int)i;
  return -1;
}

int strata_branch_dir(const char *name, int64_t *dx, int64_t *dy) {
  int i = dir_index(name);
  if (i < 0) return 0;
  if (dx) *dx = compass[i].dx;
  if (dy) *dy = compass[i].dy;
  return 1;
}

const char *strata_branch_opposite(const char *name) {
  int i = dir_index(name);
  return i < 0 ? NULL : compass[i].opposite;
}

const char *strata_branch_long_dir(const char *shortname) {
  for (size_t i = 0; shortname && i < NDIRS; i++)
    if (!strcmp(compass[i].shortname, shortname)) return compass[i].name;
  return NULL;
}

static int64_t cell_key(int64_t x, int64_t y) { return x * ((int64_t)1 << 32) + (y + ((int64_t)1 << 31)); }

static int64_t floor_div(int64_t a, int64_t b) { return (a - ((a % b) + b) % b) / b; }

/* floor(sqrt(s)) exactly, for s >= 0 (a double may round the root up). */
static int64_t isqrt(int64_t s) {
  int64_t r = (int64_t)sqrt((double)s);
  while (r > 0 && r * r > s) r--;
  while ((r + 1) * (r + 1) <= s) r++;
  return r;
}

int64_t strata_branch_depth(int64_t x, int64_t y) { return isqrt(x * x + y * y); }

static int64_t int_field(const strata_vtable *t, const char *k, int64_t dflt) {
  const strata_value *v = t ? strata_vtable_get_str(t, k) : NULL;
  return v && v->type == STRATA_VINT ? v->u.i : dflt;
}

static uint64_t ref_field(const strata_vtable *t, const char *k) {
  const strata_value *v = t ? strata_vtable_get_str(t, k) : NULL;
  return v && v->type == STRATA_VREF ? v->u.ref : 0;
}

static const strata_vtable *table_field(const strata_vtable *t, const char *k) {
  const strata_value *v = t ? strata_vtable_get_str(t, k) : NULL;
  return v && v->type == STRATA_VTABLE ? v->u.t : NULL;
}

static const strata_vtable *branch_rec(const strata_world *w, uint64_t b) { return room_rec(w, b, "branch", "branch"); }
static const strata_vtable *broom(const strata_world *w, uint64_t room) { return room_rec(w, room, "room", "broom"); }
static strata_status not_branch(strata_error *err, uint64_t uid) { return room_not(err, "branch", uid); }

static strata_status set_int(strata_world *w, uint64_t uid, const char *rec, const char *k, int64_t i,
                             strata_error *err) {
  strata_value v = strata_value_int(i);
  return room_set(w, uid, rec, k, &v, err);
}

static strata_status add_field(strata_vtable *t, const char *k, strata_value *v, strata_error *err) {
  strata_value key = room_key(k);
  strata_status st = strata_vtable_set(t, &key, v, err);
  if (st) strata_value_clear(v);
  return st;
}

/* ---- directions and start exits ---- */

strata_status strata_branch_make_start(strata_world *w, uint64_t hub, const char *dir, const char *archetype,
                                       uint64_t *exit, strata_error *err) {
  if (!strata_is_room(w, hub)) return room_not(err, "room", hub);
  if (dir_index(dir) < 0) return strata_error_set(err, STRATA_EARG, "'%s' is no direction (north, east, south, west, northeast, ...)", dir ? dir : "(null)");
  if (!archetype || !*archetype) return strata_error_set(err, STRATA_EARG, "a start exit needs a branch archetype ID");
  if (strata_exit_find(w, hub, dir))
    return strata_error_set(err, STRATA_ESTATE, "room#%llu already has an exit '%s'", (unsigned long long)hub, dir);
  strata_status st = strata_world_begin(w, err);
  if (st) return st;
  uint64_t e = 0;
  strata_value t = { 0 }, s;
  if (!(st = strata_exit_create(w, hub, 0, dir, NULL, &e, err)) && !(st = strata_value_table(&t, err))) {
    if (!(st = strata_value_string(&s, archetype, strlen(archetype), err))) st = add_field(t.u.t, "archetype", &s, err);
    if (!st) st = room_set(w, e, "bstart", NULL, &t, err);
    if (st) strata_value_clear(&t);
  }
  if (st) { strata_world_rollback(w); return st; }
  strata_world_commit(w);
  if (exit) *exit = e;
  return STRATA_OK;
}

const char *strata_branch_start_archetype(const strata_world *w, uint64_t exit) {
  return room_str(room_rec(w, exit, "exit", "bstart"), "archetype");
}

/* ---- branches ---- */

int strata_is_branch(const strata_world *w, uint64_t uid) { return branch_rec(w, uid) != NULL; }
uint64_t strata_branch_hub(const strata_world *w, uint64_t b) { return ref_field(branch_rec(w, b), "hub"); }
const char *strata_branch_archetype(const strata_world *w, uint64_t b) { return room_str(branch_rec(w, b), "archetype"); }
const char *strata_branch_generator(const strata_world *w, uint64_t b) { return room_str(branch_rec(w, b), "generator"); }
int64_t strata_branch_open(const strata_world *w, uint64_t b) { return int_field(branch_rec(w, b), "open", 0); }
int64_t strata_branch_room_count(const strata_world *w, uint64_t b) { return int_field(branch_rec(w, b), "rooms", 0); }

double strata_branch_last_act(const strata_world *w, uint64_t b) {
  const strata_vtable *t = branch_rec(w, b);
  const strata_value *v = t ? strata_vtable_get_str(t, "last_act") : NULL;
  if (!v) return 0;
  return v->type == STRATA_VFLOAT ? v->u.f : v->type == STRATA_VINT ? (double)v->u.i : 0;
}

strata_status strata_branch_acted(strata_world *w, uint64_t b, strata_error *err) {
  if (!strata_is_branch(w, b)) return not_branch(err, b);
  strata_value v = strata_value_float(strata_world_time(w));
  return room_set(w, b, "branch", "last_act", &v, err);
}

static strata_status check_rules(const strata_branch_rules *r, strata_error *err) {
  if (!r || !r->archetype || !*r->archetype) return strata_error_set(err, STRATA_EARG, "a branch needs its archetype's ID");
  if (r->generator && !*r->generator) return strata_error_set(err, STRATA_EARG, "%s: room_generator is empty", r->archetype);
  if (r->ndirs < 1 || r->ndirs > NDIRS)
    return strata_error_set(err, STRATA_EARG, "%s: directions: expected 1 to %d directions, got %zu", r->archetype, (int)NDIRS, r->ndirs);
  for (size_t i = 0; i < r->ndirs; i++) {
    if (dir_index(r->dirs[i]) < 0)
      return strata_error_set(err, STRATA_EARG, "%s: directions[%zu]: '%s' is no direction (north, east, south, west, northeast, ...)",
                              r->archetype, i + 1, r->dirs[i] ? r->dirs[i] : "(null)");
    for (size_t k = 0; k < i; k++)
      if (!strcmp(r->dirs[k], r->dirs[i]))
        return strata_error_set(err, STRATA_EARG, "%s: directions: '%s' is listed twice", r->archetype, r->dirs[i]);
  }
  if (r->max_unexplored < 1)
    return strata_error_set(err, STRATA_EARG, "%s: max_unexplored_exits must be at least 1, got %lld", r->archetype, (long long)r->max_unexplored);
  if (r->max_new < 1)
    return strata_error_set(err, STRATA_EARG, "%s: max_new_exits_per_room must be at least 1, got %lld", r->archetype, (long long)r->max_new);
  return STRATA_OK;
}

static strata_status make_branch_rec(const strata_branch_rules *r, uint64_t hub, double now, strata_value *out,
                                     strata_error *err) {
  strata_status st = strata_value_table(out, err);
  if (st) return st;
  strata_value v, list;
  if ((st = strata_value_table(&list, err))) goto fail;
  for (size_t i = 0; i < r->ndirs; i++) {
    strata_value key = strata_value_int((int64_t)i + 1);
    v = strata_value_nil(); /* cleared below whether or not the string was made */
    if ((st = strata_value_string(&v, r->dirs[i], strlen(r->dirs[i]), err))
        || (st = strata_vtable_set(list.u.t, &key, &v, err))) {
      strata_value_clear(&v);
      strata_value_clear(&list);
      goto fail;
    }
  }
  if ((st = add_field(out->u.t, "dirs", &list, err))) goto fail;
  if ((st = strata_value_string(&v, r->archetype, strlen(r->archetype), err))
      || (st = add_field(out->u.t, "archetype", &v, err)))
    goto fail;
  v = strata_value_ref(hub);
  if ((st = add_field(out->u.t, "hub", &v, err))) goto fail;
  struct { const char *k; int64_t i; } ints[] = { { "max_open", r->max_unexplored }, { "max_new", r->max_new },
                                                 { "open", 0 }, { "rooms", 0 } };
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    v = strata_value_int(ints[i].i);
    if ((st = add_field(out->u.t, ints[i].k, &v, err))) goto fail;
  }
  v = strata_value_float(now);
  if ((st = add_field(out->u.t, "last_act", &v, err))) goto fail;
  if (r->generator && ((st = strata_value_string(&v, r->generator, strlen(r->generator), err))
                       || (st = add_field(out->u.t, "generator", &v, err))))
    goto fail;
  return STRATA_OK;
fail:
  strata_value_clear(out);
  return st;
}

strata_status strata_branch_create(strata_world *w, const strata_branch_rules *rules, uint64_t hub, uint64_t *branch,
                                   strata_error *err) {
  strata_status st = check_rules(rules, err);
  if (st) return st;
  if (!strata_is_room(w, hub)) return room_not(err, "room", hub);
  strata_value rec;
  if ((st = make_branch_rec(rules, hub, strata_world_time(w), &rec, err))) return st;
  /* The branch, and its cell index apart: a room made changes the index only
  ** when it opens a new chunk, so the branch's own record stays small. */
  uint64_t id = 0, index = 0;
  strata_value chunks = { 0 }, ref;
  if ((st = strata_world_begin(w, err))) { strata_value_clear(&rec); return st; }
  if (!(st = strata_world_create(w, "branch", rules->archetype, &id, err))
      && !(st = strata_world_create(w, SYS_KIND_BRANCH_INDEX, NULL, &index, err))) {
    ref = strata_value_ref(index);
    if (!(st = add_field(rec.u.t, "index", &ref, err)) && !(st = room_set(w, id, "branch", NULL, &rec, err))) {
      ref = strata_value_ref(id);
      if (!(st = room_set(w, index, "branch", NULL, &ref, err)) && !(st = strata_value_table(&chunks, err)))
        st = room_set(w, index, "chunks", NULL, &chunks, err);
    }
  }
  if (st) {
    strata_value_clear(&rec);
    strata_value_clear(&chunks);
    strata_world_rollback(w);
    return st;
  }
  strata_world_commit(w);
  if (branch) *branch = id;
  return STRATA_OK;
}

/* ---- the cell index ---- */

static uint64_t index_of(const strata_world *w, uint64_t b) { return ref_field(branch_rec(w, b), "index"); }

static const strata_vtable *chunks_of(const strata_world *w, uint64_t b) {
  return room_rec(w, index_of(w, b), SYS_KIND_BRANCH_INDEX, "chunks");
}

static uint64_t chunk_of(const strata_world *w, uint64_t b, int64_t x, int64_t y) {
  const strata_vtable *chunks = chunks_of(w, b);
  if (!chunks) return 0;
  strata_value key = strata_value_int(cell_key(floor_div(x, CHUNK), floor_div(y, CHUNK)));
  const strata_value *v = strata_vtable_get(chunks, &key);
  return v && v->type == STRATA_VREF ? v->u.ref : 0;
}

uint64_t strata_branch_room_at(const strata_world *w, uint64_t b, int64_t x, int64_t y) {
  if (x <= -COORD_MAX || x >= COORD_MAX || y <= -COORD_MAX || y >= COORD_MAX) return 0;
  uint64_t c = chunk_of(w, b, x, y);
  const strata_vtable *cells = c ? room_rec(w, c, SYS_KIND_BRANCH_CELLS, "cells") : NULL;
  if (!cells) return 0;
  strata_value key = strata_value_int(cell_key(x, y));
  const strata_value *v = strata_vtable_get(cells, &key);
  return v && v->type == STRATA_VREF && strata_is_room(w, v->u.ref) ? v->u.ref : 0;
}

static strata_status put_cell(strata_world *w, uint64_t b, int64_t x, int64_t y, uint64_t room, strata_error *err) {
  uint64_t c = chunk_of(w, b, x, y);
  strata_status st;
  if (!c) {
    strata_value t = { 0 }, owner = strata_value_ref(b);
    if ((st = strata_world_create(w, SYS_KIND_BRANCH_CELLS, NULL, &c, err))) return st;
    if ((st = room_set(w, c, "branch", NULL, &owner, err)) || (st = strata_value_table(&t, err))
        || (st = room_set(w, c, "cells", NULL, &t, err))) {
      strata_value_clear(&t);
      return st;
    }
    strata_value path[3] = { room_key("sys"), room_key("chunks"),
                             strata_value_int(cell_key(floor_div(x, CHUNK), floor_div(y, CHUNK))) };
    strata_value ref = strata_value_ref(c);
    if ((st = strata_object_set(w, index_of(w, b), path, 3, &ref, err))) return st;
  }
  strata_value path[3] = { room_key("sys"), room_key("cells"), strata_value_int(cell_key(x, y)) };
  strata_value ref = strata_value_ref(room);
  return strata_object_set(w, c, path, 3, &ref, err);
}

/* ---- rooms ---- */

uint64_t strata_branch_of(const strata_world *w, uint64_t room) {
  uint64_t b = ref_field(broom(w, room), "branch");
  return b && strata_is_branch(w, b) ? b : 0;
}

int strata_branch_cell(const strata_world *w, uint64_t room, int64_t *x, int64_t *y, int64_t *depth) {
  const strata_vtable *t = broom(w, room);
  if (!t) return 0;
  if (x) *x = int_field(t, "x", 0);
  if (y) *y = int_field(t, "y", 0);
  if (depth) *depth = int_field(t, "depth", 0);
  return 1;
}

uint64_t strata_branch_back_exit(const strata_world *w, uint64_t room) { return ref_field(broom(w, room), "back"); }

int strata_branch_room_clear(const strata_world *w, uint64_t room) {
  const strata_vtable *t = broom(w, room);
  const strata_value *v = t ? strata_vtable_get_str(t, "clear") : NULL;
  return !v || v->type != STRATA_VBOOL || v->u.b;
}

strata_status strata_branch_set_clear(strata_world *w, uint64_t room, int clear, strata_error *err) {
  if (!broom(w, room)) return room_not(err, "branch room", room);
  strata_value v = strata_value_bool(clear != 0);
  return room_set(w, room, "broom", "clear", &v, err);
}

int strata_branch_may_cross(const strata_world *w, uint64_t exit) {
  uint64_t from = strata_exit_from(w, exit);
  if (!broom(w, from) || strata_branch_room_clear(w, from)) return 1;
  return strata_branch_back_exit(w, from) == exit;
}

strata_status strata_branch_target(const strata_world *w, uint64_t exit, uint64_t *branch, int64_t *x, int64_t *y,
                                   strata_error *err) {
  if (!strata_is_exit(w, exit)) return room_not(err, "exit", exit);
  int64_t dx, dy, fx = 0, fy = 0;
  uint64_t b = 0;
  const char *name = strata_exit_name(w, exit);
  if (!strata_branch_start_archetype(w, exit)) {
    uint64_t from = strata_exit_from(w, exit);
    if (!(b = strata_branch_of(w, from)))
      return strata_error_set(err, STRATA_EARG, "exit#%llu is neither a start exit nor an exit of a branch room",
                              (unsigned long long)exit);
    strata_branch_cell(w, from, &fx, &fy, NULL);
  }
  if (!strata_branch_dir(name, &dx, &dy))
    return strata_error_set(err, STRATA_EARG, "exit#%llu: '%s' is no direction", (unsigned long long)exit, name);
  if (branch) *branch = b;
  if (x) *x = fx + dx;
  if (y) *y = fy + dy;
  return STRATA_OK;
}

/* The new room's record: sys.broom. */
static strata_status set_broom(strata_world *w, uint64_t room, uint64_t b, int64_t x, int64_t y, int clear,
                               strata_error *err) {
  strata_value rec, v;
  strata_status st = strata_value_table(&rec, err);
  if (st) return st;
  struct { const char *k; strata_value v; } f[] = {
    { "branch", strata_value_ref(b) }, { "x", strata_value_int(x) }, { "y", strata_value_int(y) },
    { "depth", strata_value_int(isqrt(x * x + y * y)) }, { "clear", strata_value_bool(clear != 0) } };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    v = f[i].v;
    if ((st = add_field(rec.u.t, f[i].k, &v, err))) { strata_value_clear(&rec); return st; }
  }
  if ((st = room_set(w, room, "broom", NULL, &rec, err))) strata_value_clear(&rec);
  return st;
}

typedef struct grow_state {
  uint64_t b, exit, from, room;
  int64_t x, y, open, max_open, max_new;
  const strata_vtable *dirs;
} grow_state;

static const char *dir_at(const strata_vtable *dirs, size_t i) {
  return dirs && i < dirs->n && dirs->vals[i].type == STRATA_VSTRING ? dirs->vals[i].u.str.s : NULL;
}

/* Every other unexplored exit into the new room's cell leads to it now. */
static strata_status bind_others(strata_world *w, grow_state *g, strata_error *err) {
  for (size_t i = 0; i < g->dirs->n; i++) {
    const char *d = dir_at(g->dirs, i);
    int64_t dx, dy;
    if (!strata_branch_dir(d, &dx, &dy)) continue;
    uint64_t n = strata_branch_room_at(w, g->b, g->x - dx, g->y - dy);
    uint64_t e = n ? strata_exit_find(w, n, d) : 0;
    if (e && e != g->exit && !strata_exit_to(w, e)) {
      strata_status st = strata_exit_set_to(w, e, g->room, err);
      if (st) return st;
      g->open--;
    }
  }
  return STRATA_OK;
}

/* The new exits of the room: count and directions drawn from rng. */
static strata_status new_exits(strata_world *w, grow_state *g, strata_rng *rng, strata_error *err) {
  size_t free_dirs[NDIRS], nfree = 0;
  for (size_t i = 0; i < g->dirs->n && nfree < NDIRS; i++) {
    int64_t dx, dy;
    if (!strata_branch_dir(dir_at(g->dirs, i), &dx, &dy)) continue;
    int64_t cx = g->x + dx, cy = g->y + dy;
    if ((cx == 0 && cy == 0) || strata_branch_room_at(w, g->b, cx, cy)) continue;
    if (cx <= -COORD_MAX || cx >= COORD_MAX || cy <= -COORD_MAX || cy >= COORD_MAX) continue;
    free_dirs[nfree++] = i;
  }
  int64_t n_max = g->max_new;
  if (g->max_open - g->open < n_max) n_max = g->max_open - g->open;
  if ((int64_t)nfree < n_max) n_max = (int64_t)nfree;
  int64_t n = n_max > 0 ? strata_rng_int(rng, g->open > 0 ? 0 : 1, n_max) : 0;
  /* n of the free directions: a partial shuffle, then in the archetype's order. */
  for (int64_t i = 0; i < n; i++) {
    size_t j = (size_t)i + (size_t)strata_rng_below(rng, nfree - (size_t)i), t = free_dirs[i];
    free_dirs[i] = free_dirs[j];
    free_dirs[j] = t;
  }
  for (int64_t i = 1; i < n; i++)
    for (int64_t k = i; k > 0 && free_dirs[k - 1] > free_dirs[k]; k--) {
      size_t t = free_dirs[k];
      free_dirs[k] = free_dirs[k - 1];
      free_dirs[k - 1] = t;
    }
  for (int64_t i = 0; i < n; i++) {
    strata_status st = strata_exit_create(w, g->room, 0, dir_at(g->dirs, free_dirs[i]), NULL, NULL, err);
    if (st) return st;
  }
  g->open += n;
  return STRATA_OK;
}

static strata_status grow(strata_world *w, grow_state *g, const strata_room_spec *spec, strata_rng *rng,
                          strata_error *err) {
  strata_status st;
  const char *name = strata_exit_name(w, g->exit);
  uint64_t back = 0;
  if ((st = strata_room_create(w, spec->name, spec->desc, &g->room, err))
      || (st = set_broom(w, g->room, g->b, g->x, g->y, spec->clear, err))
      || (st = put_cell(w, g->b, g->x, g->y, g->room, err))
      || (st = strata_exit_set_to(w, g->exit, g->room, err))
      || (st = strata_exit_create(w, g->room, g->from, strata_branch_opposite(name), NULL, &back, err)))
    return st;
  strata_value ref = strata_value_ref(back);
  if ((st = room_set(w, g->room, "broom", "back", &ref, err)) || (st = bind_others(w, g, err))
      || (st = new_exits(w, g, rng, err)) || (st = set_int(w, g->b, "branch", "open", g->open, err)))
    return st;
  return set_int(w, g->b, "branch", "rooms", strata_branch_room_count(w, g->b) + 1, err);
}

strata_status strata_branch_grow(strata_world *w, uint64_t b, uint64_t exit, const strata_room_spec *spec,
                                 strata_rng *rng, uint64_t *room, strata_error *err) {
  const strata_vtable *rec = branch_rec(w, b);
  if (!rec) return not_branch(err, b);
  if (!spec || !spec->name || !*spec->name) return strata_error_set(err, STRATA_EARG, "a room needs a name");
  if (!rng) return strata_error_set(err, STRATA_EARG, "growing a branch needs a random stream");
  grow_state g = { .b = b, .exit = exit, .open = int_field(rec, "open", 0), .max_open = int_field(rec, "max_open", 1),
                   .max_new = int_field(rec, "max_new", 1), .dirs = table_field(rec, "dirs") };
  uint64_t of;
  strata_status st = strata_branch_target(w, exit, &of, &g.x, &g.y, err);
  if (st) return st;
  g.from = strata_exit_from(w, exit);
  if (strata_exit_to(w, exit))
    return strata_error_set(err, STRATA_ESTATE, "exit#%llu already leads to room#%llu", (unsigned long long)exit,
                            (unsigned long long)strata_exit_to(w, exit));
  if (of == 0) {
    if (g.from != strata_branch_hub(w, b) || strata_branch_room_count(w, b) != 0)
      return strata_error_set(err, STRATA_ESTATE, "branch#%llu: a start exit makes the first room of a new branch off its hub",
                              (unsigned long long)b);
  } else if (of != b) {
    return strata_error_set(err, STRATA_EARG, "exit#%llu belongs to branch#%llu, not branch#%llu", (unsigned long long)exit,
                            (unsigned long long)of, (unsigned long long)b);
  } else {
    g.open--; /* the exit being crossed is no longer unexplored */
  }
  if (!g.dirs) return strata_error_set(err, STRATA_ESTATE, "branch#%llu has no directions", (unsigned long long)b);
  if (g.x == 0 && g.y == 0) return strata_error_set(err, STRATA_ESTATE, "exit#%llu leads into the hub cell", (unsigned long long)exit);
  if (g.x <= -COORD_MAX || g.x >= COORD_MAX || g.y <= -COORD_MAX || g.y >= COORD_MAX)
    return strata_error_set(err, STRATA_ESTATE, "branch#%llu reached the edge of its grid", (unsigned long long)b);
  uint64_t there = strata_branch_room_at(w, b, g.x, g.y);
  if (there)
    return strata_error_set(err, STRATA_ESTATE, "cell (%lld, %lld) of branch#%llu already holds room#%llu", (long long)g.x,
                            (long long)g.y, (unsigned long long)b, (unsigned long long)there);
  if ((st = strata_world_begin(w, err))) return st;
  if ((st = grow(w, &g, spec, rng, err))) { strata_world_rollback(w); return st; }
  strata_world_commit(w);
  if (room) *room = g.room;
  return STRATA_OK;
}

/* ---- listing ---- */

static int cmp_uid(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

size_t strata_branch_rooms(const strata_world *w, uint64_t b, uint64_t *out, size_t cap) {
  const strata_vtable *chunks = chunks_of(w, b);
  size_t n = 0;
  for (size_t i = 0; chunks && i < chunks->n; i++) {
    if (chunks->vals[i].type != STRATA_VREF) continue;
    const strata_vtable *cells = room_rec(w, chunks->vals[i].u.ref, SYS_KIND_BRANCH_CELLS, "cells");
    for (size_t k = 0; cells && k < cells->n; k++)
      if (cells->vals[k].type == STRATA_VREF && strata_is_room(w, cells->vals[k].u.ref)) {
        if (n < cap) out[n] = cells->vals[k].u.ref;
        n++;
      }
  }
  if (out) qsort(out, n < cap ? n : cap, sizeof *out, cmp_uid);
  return n;
}

size_t strata_branch_members(const strata_world *w, uint64_t b, uint64_t *out, size_t cap) {
  size_t n = 0;
  if (!strata_is_branch(w, b)) return 0;
  for (const strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid)) {
    uint64_t r = strata_room_of(w, o->uid);
    if (r && strata_branch_of(w, r) == b) {
      if (n < cap) out[n] = o->uid;
      n++;
    }
  }
  return n;
}

/* ---- the end ---- */

static strata_status delete_all(strata_world *w, uint64_t b, const uint64_t *rooms, size_t n, strata_error *err) {
  strata_status st;
  /* Exits from elsewhere into its rooms (the hub's start exits) lead nowhere again. */
  for (const strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid)) {
    uint64_t to = strata_exit_to(w, o->uid);
    if (to && strata_branch_of(w, to) == b && strata_branch_of(w, strata_exit_from(w, o->uid)) != b
        && (st = strata_exit_set_to(w, o->uid, 0, err)))
      return st;
  }
  /* Then every exit is one of its rooms' own: gone with them, no list to edit. */
  for (size_t i = 0; i < n; i++) {
    for (size_t k = strata_room_exit_count(w, rooms[i]); k > 0; k--)
      if ((st = strata_world_delete(w, strata_room_exit_at(w, rooms[i], k - 1), err))) return st;
    if ((st = strata_world_delete(w, rooms[i], err))) return st;
  }
  const strata_vtable *chunks = chunks_of(w, b);
  for (size_t i = 0; chunks && i < chunks->n; i++)
    if (chunks->vals[i].type == STRATA_VREF && (st = world_delete(w, chunks->vals[i].u.ref, err))) return st;
  uint64_t index = index_of(w, b);
  if (index && (st = world_delete(w, index, err))) return st;
  return strata_world_delete(w, b, err);
}

strata_status strata_branch_delete(strata_world *w, uint64_t b, strata_error *err) {
  if (!strata_is_branch(w, b)) return not_branch(err, b);
  uint64_t m;
  if (strata_branch_members(w, b, &m, 1))
    return strata_error_set(err, STRATA_ESTATE, "branch#%llu cannot be deleted: %s#%llu stands in one of its rooms",
                            (unsigned long long)b, strata_world_get(w, m)->kind, (unsigned long long)m);
  size_t n = strata_branch_rooms(w, b, NULL, 0);
  uint64_t *rooms = strata_malloc((n ? n : 1) * sizeof *rooms);
  if (!rooms) return strata_error_nomem(err, "deleting branch#%llu", (unsigned long long)b);
  strata_branch_rooms(w, b, rooms, n);
  strata_status st = strata_world_begin(w, err);
  if (!st) {
    if ((st = delete_all(w, b, rooms, n, err))) strata_world_rollback(w);
    else strata_world_commit(w);
  }
  strata_free(rooms);
  return st;
}

/* ---- the rules, checked ---- */

#define BROKEN(...) strata_error_set(err, STRATA_ESTATE, __VA_ARGS__)

static strata_status check_exit(const strata_world *w, uint64_t b, uint64_t room, int64_t x, int64_t y, uint64_t e,
                                int64_t *open, strata_error *err) {
  const char *name = strata_exit_name(w, e);
  int64_t dx, dy;
  if (!strata_branch_dir(name, &dx, &dy)) return BROKEN("exit#%llu of room#%llu: '%s' is no direction", (unsigned long long)e, (unsigned long long)room, name);
  int64_t tx = x + dx, ty = y + dy;
  uint64_t to = strata_exit_to(w, e);
  if (!to) {
    (*open)++;
    if (tx == 0 && ty == 0) return BROKEN("unexplored exit#%llu leads into the hub cell", (unsigned long long)e);
    if (strata_branch_room_at(w, b, tx, ty))
      return BROKEN("unexplored exit#%llu leads into cell (%lld, %lld), which holds a room", (unsigned long long)e, (long long)tx, (long long)ty);
    return STRATA_OK;
  }
  if (to == strata_branch_hub(w, b)) {
    if (tx != 0 || ty != 0 || strata_branch_back_exit(w, room) != e)
      return BROKEN("exit#%llu leads to the hub but is not the back exit of a room next to it", (unsigned long long)e);
    return STRATA_OK;
  }
  int64_t rx, ry;
  if (strata_branch_of(w, to) != b || !strata_branch_cell(w, to, &rx, &ry, NULL) || rx != tx || ry != ty)
    return BROKEN("exit#%llu '%s' of room#%llu does not lead to the next cell (%lld, %lld)", (unsigned long long)e, name,
                  (unsigned long long)room, (long long)tx, (long long)ty);
  uint64_t back = strata_exit_find(w, to, strata_branch_opposite(name));
  if ((!back || strata_exit_to(w, back) != room) && e > to)
    return BROKEN("exit#%llu is one-way but was made after room#%llu it leads to", (unsigned long long)e, (unsigned long long)to);
  return STRATA_OK;
}

strata_status strata_branch_check(const strata_world *w, uint64_t b, strata_error *err) {
  const strata_vtable *rec = branch_rec(w, b);
  if (!rec) return not_branch(err, b);
  size_t n = strata_branch_rooms(w, b, NULL, 0);
  uint64_t *rooms = strata_malloc((n ? n : 1) * sizeof *rooms);
  if (!rooms) return strata_error_nomem(err, "checking branch#%llu", (unsigned long long)b);
  strata_branch_rooms(w, b, rooms, n);
  strata_status st = STRATA_OK;
  int64_t open = 0;
  if ((int64_t)n != int_field(rec, "rooms", -1))
    st = BROKEN("branch#%llu holds %zu rooms but counts %lld", (unsigned long long)b, n, (long long)int_field(rec, "rooms", -1));
  for (size_t i = 0; !st && i < n; i++) {
    int64_t x, y, depth;
    uint64_t r = rooms[i];
    if (!strata_branch_cell(w, r, &x, &y, &depth) || strata_branch_of(w, r) != b) { st = BROKEN("room#%llu has no cell of branch#%llu", (unsigned long long)r, (unsigned long long)b); break; }
    if (x == 0 && y == 0) { st = BROKEN("room#%llu stands in the hub cell", (unsigned long long)r); break; }
    if (strata_branch_room_at(w, b, x, y) != r) { st = BROKEN("cell (%lld, %lld) holds two rooms", (long long)x, (long long)y); break; }
    if (depth != isqrt(x * x + y * y)) { st = BROKEN("room#%llu at (%lld, %lld) has depth %lld", (unsigned long long)r, (long long)x, (long long)y, (long long)depth); break; }
    uint64_t back = strata_branch_back_exit(w, r);
    if (!back || strata_exit_from(w, back) != r || !strata_exit_to(w, back)) { st = BROKEN("room#%llu has no back exit", (unsigned long long)r); break; }
    for (size_t k = 0; !st && k < strata_room_exit_count(w, r); k++)
      st = check_exit(w, b, r, x, y, strata_room_exit_at(w, r, k), &open, err);
  }
  strata_free(rooms);
  if (st) return st;
  if (open != int_field(rec, "open", -1))
    return BROKEN("branch#%llu has %lld unexplored exits but counts %lld", (unsigned long long)b, (long long)open, (long long)int_field(rec, "open", -1));
  if (open > int_field(rec, "max_open", 0))
    return BROKEN("branch#%llu has %lld unexplored exits, over its budget of %lld", (unsigned long long)b, (long long)open, (long long)int_field(rec, "max_open", 0));
  return STRATA_OK;
}
