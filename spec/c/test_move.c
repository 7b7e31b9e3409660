/* test_move.c - actors moving in the core (move.h): steps on a tile map and
** their refusals, base.before_move (cancellable) and base.moved seen by C
** handlers, walks over time across a save, exits of rooms, walks through
** rooms, and branch exits with the core's idle and reset timers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "strata/branch.h"
#include "strata/clock.h"
#include "strata/event.h"
#include "strata/move.h"
#include "strata/registry.h"
#include "strata/room.h"
#include "strata/runtime.h"
#include "strata/tokens.h"
#include "strata/world.h"

/* What the C handlers saw. */
typedef struct seen {
  int before, moved, refuse;        /* refuse: how many of the next moves to refuse */
  int64_t to_x;                     /* base.moved's to.x on a tile map */
  uint64_t to_room, exit;           /* base.moved's to and exit between rooms */
} seen;

static strata_status gate(strata_call *c, void *data, strata_error *err) {
  (void)err;
  seen *s = data;
  s->before++;
  if (s->refuse > 0) {
    s->refuse--;
    c->ret = strata_value_bool(0);
  }
  return STRATA_OK;
}

static strata_status log_moved(strata_call *c, void *data, strata_error *err) {
  (void)err;
  seen *s = data;
  s->moved++;
  const strata_vtable *p = c->params->u.t;
  const strata_value *to = strata_vtable_get_str(p, "to"), *e = strata_vtable_get_str(p, "exit");
  if (to && to->type == STRATA_VTABLE) {
    const strata_value *x = strata_vtable_get_str(to->u.t, "x");
    s->to_x = x ? x->u.i : -1;
  } else if (to && to->type == STRATA_VREF) {
    s->to_room = to->u.ref;
    s->exit = e && e->type == STRATA_VREF ? e->u.ref : 0;
  }
  return STRATA_OK;
}

/* A room generator: every room "Cave", clear. */
static strata_status cave(strata_call *c, void *data, strata_error *err) {
  (void)data;
  strata_value k, v;
  if (strata_value_table(&c->ret, err)) return STRATA_ENOMEM;
  strata_value_string(&k, "name", 4, err);
  strata_value_string(&v, "Cave", 4, err);
  strata_status st = strata_vtable_set(c->ret.u.t, &k, &v, err);
  strata_value_clear(&k);
  return st;
}

typedef struct fixture {
  strata_registry *reg;
  strata_world *w;
  strata_runtime *rt;
  seen s;
} fixture;

static void start(fixture *f, strata_world *w) {
  strata_error err;
  f->w = w;
  CHECK((f->rt = strata_runtime_new(w, strata_registry_resolver(f->reg), &err)) != NULL);
  CHECK(strata_event_on(f->rt, "base.before_move", "gate", 0, "t.gate", &err) == STRATA_OK);
  CHECK(strata_event_on(f->rt, "base.moved", "log", 0, "t.moved", &err) == STRATA_OK);
}

static void setup(fixture *f) {
  strata_error err;
  memset(f, 0, sizeof *f);
  CHECK((f->reg = strata_registry_new(&err)) != NULL);
  CHECK(strata_registry_add_logic(f->reg, STRATA_LOGIC_EVENT, "t.gate", gate, &f->s, "t", &err) == STRATA_OK);
  CHECK(strata_registry_add_logic(f->reg, STRATA_LOGIC_EVENT, "t.moved", log_moved, &f->s, "t", &err) == STRATA_OK);
  CHECK(strata_registry_add_logic(f->reg, STRATA_LOGIC_GENERATE_ROOM, "t.cave", cave, NULL, "t", &err) == STRATA_OK);
  static const char *const dirs[] = { "north" };
  strata_branch_def b = { .id = "t.cave", .dirs = dirs, .ndirs = 1, .max_unexplored = 1, .max_new = 1,
                                .room_generator = "t.cave", .max_idle = 10, .reset_every = 5, .reset_chance = 1 };
  CHECK(strata_registry_add_branch_archetype(f->reg, &b, &err) == STRATA_OK);
  start(f, strata_world_new(3, &err));
}

static void teardown(fixture *f) {
  strata_runtime_free(f->rt);
  strata_world_free(f->w);
  strata_registry_free(f->reg);
}

/* An 8x3 floor with a wall at x = 4 on rows 0 and 1, and an actor at (0, 0). */
static uint64_t tile_world(fixture *f, uint64_t *map) {
  strata_error err;
  strata_tokens *t = strata_world_tokens(f->w);
  strata_token_traits wall;
  strata_tokens_default_traits("wall", 4, &wall);
  wall.passable = 0;
  CHECK(strata_tokens_define(t, "wall", 4, &wall, &err) == STRATA_OK);
  CHECK(strata_world_create_map(f->w, 8, 3, NULL, map, &err) == STRATA_OK);
  strata_tilemap *tm = strata_world_tilemap(f->w, *map);
  CHECK(strata_tilemap_clear(tm, strata_tokens_intern(t, "floor", 5, &err), &err) == STRATA_OK);
  CHECK(strata_tilemap_fill_rect(tm, 4, 0, 1, 2, strata_tokens_intern(t, "wall", 4, &err), 0, &err) == STRATA_OK);
  uint64_t a;
  CHECK(strata_world_create(f->w, "actor", NULL, &a, &err) == STRATA_OK);
  CHECK(strata_object_set_position(f->w, a, *map, 0, 0, &err) == STRATA_OK);
  return a;
}

static void test_move(void) {
  fixture f;
  setup(&f);
  strata_error err;
  strata_move_outcome out;
  uint64_t map, a = tile_world(&f, &map);
  CHECK(strata_move(f.rt, a, 1, 1, &out, &err) == STRATA_OK);
  CHECK_EQ_INT(out.refusal, STRATA_MOVE_OK);
  CHECK(strata_world_get(f.w, a)->x == 1 && strata_world_get(f.w, a)->y == 1);
  CHECK_EQ_INT(f.s.before, 1);
  CHECK_EQ_INT(f.s.moved, 1);
  CHECK_EQ_INT(f.s.to_x, 1);
  CHECK(strata_move(f.rt, a, 4, 1, &out, &err) == STRATA_OK);
  CHECK(out.refusal == STRATA_MOVE_BLOCKED && strcmp(out.reason, "the way is blocked") == 0);
  CHECK(strata_move(f.rt, a, 9, 1, &out, &err) == STRATA_OK);
  CHECK(out.refusal == STRATA_MOVE_OFF_MAP && strcmp(out.reason, "the way is off the map") == 0);
  CHECK_EQ_INT(f.s.before, 1); /* a way refused by the map asks no handler */
  f.s.refuse = 1;
  CHECK(strata_move(f.rt, a, 2, 1, &out, &err) == STRATA_OK);
  CHECK(out.refusal == STRATA_MOVE_REFUSED && strcmp(out.reason, "the move was refused") == 0);
  CHECK(strata_world_get(f.w, a)->x == 1);
  CHECK_EQ_INT(f.s.before, 2);
  CHECK_EQ_INT(f.s.moved, 1);
  uint64_t drifter;
  CHECK(strata_world_create(f.w, "actor", NULL, &drifter, &err) == STRATA_OK);
  CHECK(strata_move(f.rt, drifter, 1, 1, &out, &err) == STRATA_OK);
  CHECK(out.refusal == STRATA_MOVE_NOWHERE && strcmp(out.reason, "the actor is on no map") == 0);
  CHECK(strata_move(f.rt, map, 1, 1, &out, &err) == STRATA_EARG);
  CHECK(strstr(err.message, "expected a live actor") != NULL);
  CHECK(strata_move(f.rt, 999, 1, 1, &out, &err) == STRATA_ENOTFOUND);
  teardown(&f);
}

static void test_walk(void) {
  fixture f;
  setup(&f);
  strata_error err;
  uint64_t map, a = tile_world(&f, &map);
  CHECK_EQ_INT(strata_walk_state_of(f.rt, a), STRATA_WALK_NONE);
  CHECK(strata_walk(f.rt, a, 7, 0, 2, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_walk_state_of(f.rt, a), STRATA_WALK_WALKING);
  CHECK(strata_advance(f.rt, 1, NULL, &err) == STRATA_OK);
  CHECK(strata_world_get(f.w, a)->x == 0);      /* the first step comes `every` after */
  CHECK(strata_advance(f.rt, 1, NULL, &err) == STRATA_OK);
  CHECK(strata_world_get(f.w, a)->x == 1 && strata_world_get(f.w, a)->y == 1);
  f.s.refuse = 1;                               /* a refused step blocks the walk */
  CHECK(strata_advance(f.rt, 2, NULL, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_walk_state_of(f.rt, a), STRATA_WALK_BLOCKED);
  CHECK(strcmp(strata_walk_state_name(STRATA_WALK_BLOCKED), "blocked") == 0);
  /* a new walk, cancelled; another, saved half-way and continued after opening */
  int stopped = 0;
  CHECK(strata_walk(f.rt, a, 7, 0, 1, &err) == STRATA_OK);
  CHECK(strata_walk_cancel(f.rt, a, &stopped, &err) == STRATA_OK && stopped == 1);
  CHECK(strata_walk_cancel(f.rt, a, &stopped, &err) == STRATA_OK && stopped == 0);
  CHECK(strata_advance(f.rt, 5, NULL, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_walk_state_of(f.rt, a), STRATA_WALK_CANCELLED);
  CHECK(strata_world_get(f.w, a)->x == 1);
  CHECK(strata_walk(f.rt, a, 7, 2, 1, &err) == STRATA_OK);
  CHECK(strata_advance(f.rt, 2, NULL, &err) == STRATA_OK);
  char path[] = "/tmp/strata_test_move_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  CHECK(strata_world_save(f.w, path, NULL, 0, &err) == STRATA_OK);
  strata_runtime_free(f.rt);
  strata_world_free(f.w);
  strata_world *w2;
  strata_mod_version *mods;
  size_t nmods;
  CHECK(strata_world_open(path, &w2, &mods, &nmods, &err) == STRATA_OK);
  strata_mod_versions_free(mods, nmods);
  unlink(path);
  start(&f, w2);
  CHECK_EQ_INT(strata_walk_state_of(f.rt, a), STRATA_WALK_WALKING);
  CHECK(strata_advance(f.rt, 30, NULL, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_walk_state_of(f.rt, a), STRATA_WALK_ARRIVED);
  CHECK(strata_world_get(f.w, a)->x == 7 && strata_world_get(f.w, a)->y == 2);
  /* bad walks */
  CHECK(strata_walk(f.rt, a, 1, 1, 0.0001, &err) == STRATA_EARG);
  CHECK(strata_walk(f.rt, a, 99, 1, 1, &err) == STRATA_OK); /* off the map: blocked at its first step */
  CHECK(strata_advance(f.rt, 1, NULL, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_walk_state_of(f.rt, a), STRATA_WALK_BLOCKED);
  teardown(&f);
}

static void test_go(void) {
  fixture f;
  setup(&f);
  strata_error err;
  strata_move_outcome out;
  uint64_t hub, attic, cellar, up, down, hole, a, e;
  CHECK(strata_room_create(f.w, "Hub", NULL, &hub, &err) == STRATA_OK);
  CHECK(strata_room_create(f.w, "Attic", NULL, &attic, &err) == STRATA_OK);
  CHECK(strata_room_create(f.w, "Cellar", NULL, &cellar, &err) == STRATA_OK);
  CHECK(strata_exit_create(f.w, hub, attic, "up", NULL, &up, &err) == STRATA_OK);
  CHECK(strata_exit_create(f.w, attic, hub, "down", NULL, &down, &err) == STRATA_OK);
  CHECK(strata_exit_create(f.w, hub, 0, "hole", NULL, &hole, &err) == STRATA_OK);
  CHECK(strata_exit_create(f.w, hub, cellar, "trapdoor", NULL, &e, &err) == STRATA_OK);
  CHECK(strata_world_create(f.w, "actor", NULL, &a, &err) == STRATA_OK);
  CHECK(strata_room_put(f.w, a, hub, &err) == STRATA_OK);
  f.s.refuse = 1;
  CHECK(strata_go(f.rt, a, "up", &out, &err) == STRATA_OK);
  CHECK(out.refusal == STRATA_MOVE_REFUSED && strata_room_of(f.w, a) == hub);
  CHECK(strata_go(f.rt, a, "up", &out, &err) == STRATA_OK);
  CHECK(out.refusal == STRATA_MOVE_OK && strata_room_of(f.w, a) == attic);
  CHECK(f.s.to_room == attic && f.s.exit == up);
  CHECK(strata_go(f.rt, a, "sideways", &out, &err) == STRATA_OK);
  CHECK(out.refusal == STRATA_MOVE_NO_EXIT && strcmp(out.reason, "there is no way 'sideways' here") == 0);
  CHECK(strata_go(f.rt, a, "down", &out, &err) == STRATA_OK && out.refusal == STRATA_MOVE_OK);
  CHECK(strata_go(f.rt, a, "hole", &out, &err) == STRATA_OK);
  CHECK(out.refusal == STRATA_MOVE_BLOCKED && strcmp(out.reason, "the way is blocked") == 0);
  uint64_t drifter;
  CHECK(strata_world_create(f.w, "actor", NULL, &drifter, &err) == STRATA_OK);
  CHECK(strata_go(f.rt, drifter, "up", &out, &err) == STRATA_OK);
  CHECK(out.refusal == STRATA_MOVE_NOWHERE && strcmp(out.reason, "the actor is in no room") == 0);
  /* a walk through rooms: up, down, trapdoor */
  const char *route[] = { "up", "down", "trapdoor" };
  CHECK(strata_walk_rooms(f.rt, a, cellar, route, 3, 1, &err) == STRATA_OK);
  CHECK(strata_advance(f.rt, 1, NULL, &err) == STRATA_OK);
  CHECK(strata_room_of(f.w, a) == attic);
  CHECK(strata_advance(f.rt, 5, NULL, &err) == STRATA_OK);
  CHECK(strata_room_of(f.w, a) == cellar);
  CHECK_EQ_INT(strata_walk_state_of(f.rt, a), STRATA_WALK_ARRIVED);
  CHECK_EQ_INT(strata_world_timer_count(f.w), 0); /* the walk's timer went with it */
  teardown(&f);
}

static size_t count_kind(const strata_world *w, const char *kind) {
  size_t n = 0;
  for (const strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid))
    n += strcmp(o->kind, kind) == 0;
  return n;
}

static void test_branch(void) {
  fixture f;
  setup(&f);
  strata_error err;
  strata_move_outcome out;
  uint64_t hub, start, a;
  CHECK(strata_room_create(f.w, "Hub", NULL, &hub, &err) == STRATA_OK);
  CHECK(strata_branch_make_start(f.w, hub, "north", "t.cave", &start, &err) == STRATA_OK);
  CHECK(strata_world_create(f.w, "actor", NULL, &a, &err) == STRATA_OK);
  CHECK(strata_room_put(f.w, a, hub, &err) == STRATA_OK);
  /* refused at the first crossing: no branch, no room, no timer */
  f.s.refuse = 1;
  CHECK(strata_go(f.rt, a, "north", &out, &err) == STRATA_OK && out.refusal == STRATA_MOVE_REFUSED);
  CHECK_EQ_INT(count_kind(f.w, "branch"), 0);
  CHECK_EQ_INT(strata_world_timer_count(f.w), 0);
  CHECK(strata_go(f.rt, a, "north", &out, &err) == STRATA_OK && out.refusal == STRATA_MOVE_OK);
  uint64_t room = strata_room_of(f.w, a), b = strata_branch_of(f.w, room);
  CHECK(b != 0 && strcmp(strata_room_name(f.w, room), "Cave") == 0);
  CHECK_EQ_INT(strata_world_timer_count(f.w), 2); /* idle and reset */
  CHECK(strata_exit_to(f.w, start) == room);
  /* not clear: the way on is refused, the way back is not */
  CHECK(strata_branch_set_clear(f.w, room, 0, &err) == STRATA_OK);
  uint64_t on = strata_exit_find(f.w, room, "north");
  if (on) {
    CHECK(strata_go(f.rt, a, "north", &out, &err) == STRATA_OK);
    CHECK(out.refusal == STRATA_MOVE_NOT_CLEAR && strcmp(out.reason, "the way is blocked: this room is not clear yet") == 0);
  }
  /* the reset timer (chance 1) unbinds the start exit at time 5 */
  CHECK(strata_advance(f.rt, 6, NULL, &err) == STRATA_OK);
  CHECK(strata_exit_to(f.w, start) == 0);
  CHECK(strata_room_of(f.w, a) == room);
  /* idle since time 0: at time 10 the branch collapses, its member back in the hub */
  CHECK(strata_advance(f.rt, 5, NULL, &err) == STRATA_OK);
  CHECK(strata_room_of(f.w, a) == hub);
  CHECK(!strata_is_branch(f.w, b));
  CHECK_EQ_INT(strata_world_timer_count(f.w), 0);
  CHECK(f.s.to_room == hub && f.s.exit == 0);
  /* through the start exit again: a new branch */
  CHECK(strata_go(f.rt, a, "north", &out, &err) == STRATA_OK && out.refusal == STRATA_MOVE_OK);
  uint64_t b2 = strata_branch_of(f.w, strata_room_of(f.w, a));
  CHECK(b2 != 0 && b2 != b);
  CHECK(strata_branch_collapse(f.rt, b2, &err) == STRATA_OK);
  CHECK(strata_room_of(f.w, a) == hub && !strata_is_branch(f.w, b2));
  CHECK_EQ_INT(strata_world_timer_count(f.w), 0);
  teardown(&f);
}

int main(void) {
  test_move();
  test_walk();
  test_go();
  test_branch();
  return check_summary("move");
}
