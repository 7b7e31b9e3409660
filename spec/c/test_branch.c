/* test_branch.c - dungeon branches (branch.h): the rules after every room of
** long random growths, start exits, clear rooms, savepoints, saves, deleting,
** bad input, and every allocation of a growth failing in turn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "failing_alloc.h" /* defines __wrap_malloc & co. (linked wrapped) */
#include "strata/branch.h"
#include "strata/registry.h"
#include "strata/room.h"
#include "strata/runtime.h"
#include "strata/world.h"
#include "world_dump.h"

static const char *const four[] = { "north", "east", "south", "west" };
static const char *const eight[] = { "north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest" };

typedef struct fixture {
  strata_world *w;
  uint64_t hub, start, branch;
} fixture;

static fixture setup(uint64_t seed, const char *const *dirs, size_t ndirs, int64_t max_open, int64_t max_new) {
  strata_error err;
  fixture f = { 0 };
  f.w = strata_world_new(seed, &err);
  CHECK(strata_room_create(f.w, "Hub", NULL, &f.hub, &err) == STRATA_OK);
  CHECK(strata_branch_make_start(f.w, f.hub, "north", "test.cave", &f.start, &err) == STRATA_OK);
  strata_branch_rules r = { "test.cave", dirs, ndirs, max_open, max_new, NULL };
  CHECK(strata_branch_create(f.w, &r, f.hub, &f.branch, &err) == STRATA_OK);
  return f;
}

/* The unexplored exits of the branch, into out (cap 4096); how many. */
static size_t unexplored(const strata_world *w, uint64_t b, uint64_t *out) {
  static uint64_t rooms[20000];
  size_t n = strata_branch_rooms(w, b, rooms, 20000), k = 0;
  for (size_t i = 0; i < n && i < 20000; i++)
    for (size_t e = 0; e < strata_room_exit_count(w, rooms[i]); e++) {
      uint64_t x = strata_room_exit_at(w, rooms[i], e);
      if (!strata_exit_to(w, x) && k < 4096) out[k++] = x;
    }
  return k;
}

/* Grows until `rooms` rooms or the branch closes; the rules hold after each room. */
static size_t grow_many(fixture *f, strata_rng *walk, strata_rng *rng, size_t rooms, int *one_way) {
  strata_error err;
  strata_room_spec spec = { "Cave", "Damp.", 1 };
  uint64_t room, open[4096];
  CHECK(strata_branch_grow(f->w, f->branch, f->start, &spec, rng, &room, &err) == STRATA_OK);
  size_t made = 1;
  while (made < rooms) {
    size_t n = unexplored(f->w, f->branch, open);
    if (n == 0) break;
    uint64_t e = open[strata_rng_below(walk, n)];
    if (strata_branch_grow(f->w, f->branch, e, &spec, rng, &room, &err) != STRATA_OK) {
      fprintf(stderr, "grow: %s\n", err.message);
      check_failed++;
      break;
    }
    made++;
    if (strata_branch_check(f->w, f->branch, &err) != STRATA_OK) {
      fprintf(stderr, "after room %zu: %s\n", made, err.message);
      check_failed++;
      break;
    }
    /* one-way exits: exits into the new room from rooms it has no exit to */
    for (int d = 0; d < 8; d++) {
      int64_t dx, dy, x, y;
      strata_branch_dir(eight[d], &dx, &dy);
      strata_branch_cell(f->w, room, &x, &y, NULL);
      uint64_t nb = strata_branch_room_at(f->w, f->branch, x - dx, y - dy);
      uint64_t in = nb ? strata_exit_find(f->w, nb, eight[d]) : 0;
      if (in && strata_exit_to(f->w, in) == room && e != in) (*one_way)++;
    }
  }
  CHECK_EQ_INT(strata_branch_room_count(f->w, f->branch), made);
  return made;
}

static void test_growth(void) {
  strata_error err;
  for (uint64_t seed = 1; seed <= 6; seed++) {
    int wide = seed % 2 == 0, one_way = 0;
    fixture f = wide ? setup(seed, eight, 8, 12, 4) : setup(seed, four, 4, 3, 2);
    strata_rng walk, rng;
    strata_rng_stream(&walk, seed, "walk", 4);
    strata_rng_stream(&rng, seed, "exits", 5);
    size_t made = grow_many(&f, &walk, &rng, 400, &one_way);
    CHECK(made >= 50);
    CHECK(strata_branch_check(f.w, f.branch, &err) == STRATA_OK);
    CHECK(strata_branch_open(f.w, f.branch) <= (wide ? 12 : 3));
    /* the first room: (0, 1), its back exit south to the hub */
    uint64_t first = strata_exit_to(f.w, f.start);
    int64_t x, y, depth;
    CHECK(strata_branch_cell(f.w, first, &x, &y, &depth) && x == 0 && y == 1 && depth == 1);
    uint64_t back = strata_branch_back_exit(f.w, first);
    CHECK_STR(strata_exit_name(f.w, back), "south");
    CHECK_EQ_INT(strata_exit_to(f.w, back), f.hub);
    CHECK_EQ_INT(strata_branch_room_at(f.w, f.branch, 0, 0), 0);
    if (seed <= 2) printf("seed %llu: %zu rooms, %d one-way exits\n", (unsigned long long)seed, made, one_way);
    if (wide) CHECK(one_way > 0);
    strata_world_free(f.w);
  }
}

static void test_rules_and_errors(void) {
  strata_error err;
  fixture f = setup(3, four, 4, 4, 3);
  strata_rng rng;
  strata_rng_stream(&rng, 3, "exits", 5);
  strata_room_spec spec = { "Guard room", NULL, 0 }, unnamed = { "", NULL, 1 };
  uint64_t first, second, x = 0;

  CHECK_STR(strata_branch_opposite("northeast"), "southwest");
  CHECK(strata_branch_opposite("up") == NULL && !strata_branch_dir("up", NULL, NULL));
  CHECK(strata_branch_make_start(f.w, f.hub, "up", "test.cave", &x, &err) == STRATA_EARG);
  CHECK(strata_branch_make_start(f.w, f.hub, "north", "test.cave", &x, &err) == STRATA_ESTATE);
  CHECK_STR(strata_branch_start_archetype(f.w, f.start), "test.cave");
  const char *bad_dirs[] = { "north", "north" };
  strata_branch_rules bad[] = { { "a", bad_dirs, 2, 2, 2, NULL }, { "a", four, 4, 0, 2, NULL }, { "a", four, 4, 2, 0, NULL },
                                { "", four, 4, 2, 2, NULL }, { "a", four, 0, 2, 2, NULL }, { "a", four, 4, 2, 2, "" } };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK(strata_branch_create(f.w, &bad[i], f.hub, &x, &err) == STRATA_EARG);

  size_t count = strata_world_count(f.w);
  CHECK(strata_branch_grow(f.w, f.branch, f.start, &unnamed, &rng, &first, &err) == STRATA_EARG);
  CHECK(strata_branch_grow(f.w, f.branch, f.start, &spec, NULL, &first, &err) == STRATA_EARG);
  CHECK_EQ_INT(strata_world_count(f.w), count);
  CHECK(strata_branch_grow(f.w, f.branch, f.start, &spec, &rng, &first, &err) == STRATA_OK);
  CHECK(strata_branch_grow(f.w, f.branch, f.start, &spec, &rng, &x, &err) == STRATA_ESTATE); /* bound */
  CHECK_EQ_INT(strata_branch_of(f.w, first), f.branch);
  CHECK_EQ_INT(strata_branch_open(f.w, f.branch), (int64_t)strata_room_exit_count(f.w, first) - 1);
  CHECK(strata_branch_open(f.w, f.branch) >= 1); /* never a dead end while nothing else is open */

  /* not clear: only the back exit may be crossed */
  uint64_t out = strata_room_exit_at(f.w, first, 1), back = strata_branch_back_exit(f.w, first);
  CHECK(!strata_branch_room_clear(f.w, first));
  CHECK(!strata_branch_may_cross(f.w, out));
  CHECK(strata_branch_may_cross(f.w, back));
  CHECK(strata_branch_may_cross(f.w, f.start));
  CHECK(strata_branch_set_clear(f.w, first, 1, &err) == STRATA_OK);
  CHECK(strata_branch_may_cross(f.w, out));
  CHECK(strata_branch_set_clear(f.w, f.hub, 1, &err) == STRATA_ENOTFOUND);

  /* a start exit makes only the first room; another branch's exit is refused */
  uint64_t other;
  strata_branch_rules r = { "test.other", four, 4, 4, 3, NULL };
  CHECK(strata_branch_create(f.w, &r, f.hub, &other, &err) == STRATA_OK);
  CHECK(strata_branch_grow(f.w, other, out, &spec, &rng, &x, &err) == STRATA_EARG);
  CHECK(strata_branch_grow(f.w, f.branch, back, &spec, &rng, &x, &err) == STRATA_ESTATE);
  uint64_t plain;
  CHECK(strata_exit_create(f.w, f.hub, 0, "west", NULL, &plain, &err) == STRATA_OK);
  CHECK(strata_branch_grow(f.w, f.branch, plain, &spec, &rng, &x, &err) == STRATA_EARG);

  /* a savepoint undoes a growth */
  char *before = dump(f.w);
  strata_rng saved = rng;
  CHECK(strata_world_begin(f.w, &err) == STRATA_OK);
  CHECK(strata_branch_grow(f.w, f.branch, out, &spec, &rng, &second, &err) == STRATA_OK);
  CHECK(strata_world_rollback(f.w) == STRATA_OK);
  char *after = dump(f.w);
  CHECK_STR(after, before);
  free(before);
  free(after);
  rng = saved;
  CHECK(strata_branch_grow(f.w, f.branch, out, &spec, &rng, &second, &err) == STRATA_OK);
  CHECK(strata_branch_check(f.w, f.branch, &err) == STRATA_OK);

  /* saved and read back */
  char path[64];
  snprintf(path, sizeof path, "/tmp/strata_test_branch_%d.db", (int)getpid());
  CHECK(strata_world_save(f.w, path, NULL, 0, &err) == STRATA_OK);
  strata_world *w2 = NULL;
  strata_mod_version *mods = NULL;
  size_t nmods = 0;
  CHECK(strata_world_open(path, &w2, &mods, &nmods, &err) == STRATA_OK);
  if (w2) {
    int64_t cx, cy;
    CHECK(strata_branch_check(w2, f.branch, &err) == STRATA_OK);
    CHECK(strata_branch_cell(w2, second, &cx, &cy, NULL));
    CHECK_EQ_INT(strata_branch_room_at(w2, f.branch, cx, cy), second);
    CHECK_EQ_INT(strata_branch_open(w2, f.branch), strata_branch_open(f.w, f.branch));
    strata_world_free(w2);
  }
  strata_mod_versions_free(mods, nmods);
  unlink(path);

  /* deleting: refused with a member; then rooms, exits and cells go, the start exit is unbound */
  uint64_t hero, list[8];
  CHECK(strata_world_create(f.w, "actor", NULL, &hero, &err) == STRATA_OK);
  CHECK(strata_room_put(f.w, hero, second, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_branch_members(f.w, f.branch, list, 8), 1);
  CHECK_EQ_INT(list[0], hero);
  CHECK(strata_branch_delete(f.w, f.branch, &err) == STRATA_ESTATE);
  CHECK_HAS(err.message, "actor#");
  CHECK(strata_room_put(f.w, hero, f.hub, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_branch_rooms(f.w, f.branch, list, 8), 2);
  CHECK(list[0] == first && list[1] == second);
  CHECK(strata_branch_delete(f.w, f.branch, &err) == STRATA_OK);
  CHECK(!strata_is_branch(f.w, f.branch) && !strata_is_room(f.w, first) && !strata_is_room(f.w, second));
  CHECK(strata_is_exit(f.w, f.start) && strata_exit_to(f.w, f.start) == 0);
  CHECK(!strata_is_exit(f.w, out) && !strata_is_exit(f.w, back));
  int indexes = 0; /* the other branch's, which has no rooms and so no cells */
  for (const strata_object *o = strata_world_next_object(f.w, 0); o; o = strata_world_next_object(f.w, o->uid)) {
    CHECK(strcmp(o->kind, "branch_cells") != 0);
    indexes += strcmp(o->kind, "branch_index") == 0;
  }
  CHECK_EQ_INT(indexes, 1);
  strata_world_free(f.w);
}

/* Every allocation of a growth fails in turn: ENOMEM, the world as it was. */
static void test_growth_oom(void) {
  strata_error err;
  fixture f = setup(5, four, 4, 6, 3);
  strata_rng rng;
  strata_rng_stream(&rng, 5, "exits", 5);
  strata_room_spec spec = { "Cave", "Damp.", 1 };
  uint64_t room, open[4096];
  CHECK(strata_branch_grow(f.w, f.branch, f.start, &spec, &rng, &room, &err) == STRATA_OK);
  int failures = 0;
  for (int step = 0; step < 12; step++) {
    size_t n = unexplored(f.w, f.branch, open);
    if (n == 0) break;
    uint64_t e = open[(size_t)step % n];
    for (fail_at = 1;; fail_at++) {
      char *before = dump(f.w);
      strata_rng saved = rng;
      allocations = 0;
      armed = 1;
      strata_status st = strata_branch_grow(f.w, f.branch, e, &spec, &rng, &room, &err);
      armed = 0;
      if (st == STRATA_OK) { free(before); break; }
      failures++;
      CHECK_EQ_INT(st, STRATA_ENOMEM);
      char *after = dump(f.w);
      if (strcmp(before, after) != 0) {
        fprintf(stderr, "step %d, allocation %ld: the failed growth changed the world\n", step, fail_at);
        check_failed++;
      }
      free(before);
      free(after);
      rng = saved;
    }
    CHECK(strata_branch_check(f.w, f.branch, &err) == STRATA_OK);
  }
  CHECK(failures > 100);

  /* making a start exit, a branch and deleting one: the same */
  strata_branch_rules r = { "test.more", eight, 8, 5, 2, "test.rooms" };
  for (int op = 0; op < 3; op++) {
    for (fail_at = 1;; fail_at++) {
      char *before = dump(f.w);
      uint64_t made = 0;
      allocations = 0;
      armed = 1;
      strata_status st = op == 0   ? strata_branch_make_start(f.w, f.hub, "east", "test.more", &made, &err)
                         : op == 1 ? strata_branch_create(f.w, &r, f.hub, &made, &err)
                                   : strata_branch_delete(f.w, f.branch, &err);
      armed = 0;
      if (st == STRATA_OK) { free(before); break; }
      CHECK_EQ_INT(st, STRATA_ENOMEM);
      char *after = dump(f.w);
      if (strcmp(before, after) != 0) {
        fprintf(stderr, "op %d, allocation %ld: the failed call changed the world\n", op, fail_at);
        check_failed++;
      }
      free(before);
      free(after);
    }
  }
  CHECK(!strata_is_branch(f.w, f.branch) && strata_exit_to(f.w, f.start) == 0);
  strata_world_free(f.w);
}

/* ---- with a runtime: the room generator called by ID ---- */

static void field(strata_value *t, const char *k, strata_value v) {
  strata_value key;
  strata_value_string(&key, k, strlen(k), NULL);
  if (strata_vtable_set(t->u.t, &key, &v, NULL)) strata_value_clear(&v);
  strata_value_clear(&key);
}

static strata_value str(const char *s) {
  strata_value v = strata_value_nil();
  strata_value_string(&v, s, strlen(s), NULL);
  return v;
}

/* test.rooms: a name from the cell and a draw; one room in three not clear. */
static strata_status gen_rooms(strata_call *call, void *data, strata_error *err) {
  (void)data;
  (void)err;
  char name[64];
  int64_t roll = strata_rng_int(call->rng, 1, 1000);
  snprintf(name, sizeof name, "Room %lld,%lld #%lld", (long long)call->x, (long long)call->y, (long long)roll);
  strata_value_table(&call->ret, NULL);
  field(&call->ret, "name", str(name));
  field(&call->ret, "desc", str(call->rng_key));
  field(&call->ret, "clear", strata_value_bool(roll % 3 != 0));
  strata_value props;
  strata_value_table(&props, NULL);
  field(&props, "depth", strata_value_int(call->depth));
  field(&props, "branch", strata_value_ref(call->source));
  field(&call->ret, "props", props);
  return STRATA_OK;
}

static strata_status gen_typo(strata_call *call, void *data, strata_error *err) {
  (void)data;
  (void)err;
  strata_value_table(&call->ret, NULL);
  field(&call->ret, "nmae", str("x"));
  return STRATA_OK;
}

static strata_status gen_fails(strata_call *call, void *data, strata_error *err) {
  (void)data;
  strata_rng_int(call->rng, 1, 6);
  strata_world_create(call->world, "debris", NULL, NULL, NULL); /* undone with the rest */
  return strata_error_set(err, STRATA_ESTATE, "no rooms today");
}

/* A world of seed with a branch generated by `gen`; n rooms grown through a seeded walk. */
static char *generated(uint64_t seed, size_t n) {
  strata_error err;
  strata_registry *reg = strata_registry_new(&err);
  CHECK(strata_registry_add_logic(reg, STRATA_LOGIC_GENERATE_ROOM, "test.rooms", gen_rooms, NULL, "test", &err) == STRATA_OK);
  fixture f = { 0 };
  f.w = strata_world_new(seed, &err);
  strata_runtime *rt = strata_runtime_new(f.w, strata_registry_resolver(reg), &err);
  CHECK(strata_room_create(f.w, "Hub", NULL, &f.hub, &err) == STRATA_OK);
  CHECK(strata_branch_make_start(f.w, f.hub, "east", "test.cave", &f.start, &err) == STRATA_OK);
  strata_branch_rules r = { "test.cave", four, 4, 5, 3, "test.rooms" };
  CHECK(strata_branch_create(f.w, &r, f.hub, &f.branch, &err) == STRATA_OK);
  CHECK_STR(strata_branch_generator(f.w, f.branch), "test.rooms");
  strata_rng walk;
  strata_rng_stream(&walk, seed, "walk", 4);
  uint64_t room, open[4096];
  CHECK(strata_branch_generate(rt, f.branch, f.start, &room, &err) == STRATA_OK);
  for (size_t i = 1; i < n; i++) {
    size_t k = unexplored(f.w, f.branch, open);
    if (!k) break;
    if (strata_branch_generate(rt, f.branch, open[strata_rng_below(&walk, k)], &room, &err) != STRATA_OK) {
      fprintf(stderr, "generate: %s\n", err.message);
      check_failed++;
      break;
    }
    int64_t x, y, depth;
    strata_branch_cell(f.w, room, &x, &y, &depth);
    strata_value path[2] = { str("props"), str("depth") };
    const strata_value *d = strata_object_get(f.w, room, path, 2);
    CHECK(d && d->type == STRATA_VINT && d->u.i == depth);
    char prefix[48];
    snprintf(prefix, sizeof prefix, "Room %lld,%lld #", (long long)x, (long long)y);
    CHECK(strncmp(strata_room_name(f.w, room), prefix, strlen(prefix)) == 0);
    strata_value_clear(&path[0]);
    strata_value_clear(&path[1]);
  }
  CHECK(strata_branch_check(f.w, f.branch, &err) == STRATA_OK);
  CHECK(strata_branch_room_count(f.w, f.branch) >= 20);

  /* errors: unknown generator, a bad spec, a failing generator: nothing changed */
  uint64_t e = unexplored(f.w, f.branch, open) ? open[0] : 0;
  CHECK(e != 0);
  strata_branch_rules bad = { "test.cave", four, 4, 5, 3, "test.nothing" };
  uint64_t b2, b3, b4, s2, s3, s4;
  CHECK(strata_registry_add_logic(reg, STRATA_LOGIC_GENERATE_ROOM, "test.typo", gen_typo, NULL, "test", &err) == STRATA_OK);
  CHECK(strata_registry_add_logic(reg, STRATA_LOGIC_GENERATE_ROOM, "test.fails", gen_fails, NULL, "test", &err) == STRATA_OK);
  CHECK(strata_branch_make_start(f.w, f.hub, "north", "test.cave", &s2, &err) == STRATA_OK);
  CHECK(strata_branch_make_start(f.w, f.hub, "west", "test.cave", &s3, &err) == STRATA_OK);
  CHECK(strata_branch_make_start(f.w, f.hub, "south", "test.cave", &s4, &err) == STRATA_OK);
  CHECK(strata_branch_create(f.w, &bad, f.hub, &b2, &err) == STRATA_OK);
  bad.generator = "test.typo";
  CHECK(strata_branch_create(f.w, &bad, f.hub, &b3, &err) == STRATA_OK);
  bad.generator = "test.fails";
  CHECK(strata_branch_create(f.w, &bad, f.hub, &b4, &err) == STRATA_OK);
  char *before = dump(f.w);
  CHECK(strata_branch_generate(rt, b2, s2, &room, &err) == STRATA_ENOTFOUND);
  CHECK_HAS(err.message, "test.nothing");
  CHECK(strata_branch_generate(rt, b3, s3, &room, &err) == STRATA_EARG);
  CHECK_HAS(err.message, "unknown room spec key 'nmae' (nearest known: name)");
  CHECK(strata_branch_generate(rt, b4, s4, &room, &err) == STRATA_ESTATE);
  CHECK_HAS(err.message, "no rooms today");
  char *after = dump(f.w);
  CHECK_STR(after, before);
  free(before);
  free(after);

  char *state = dump(f.w);
  strata_runtime_free(rt);
  strata_world_free(f.w);
  strata_registry_free(reg);
  return state;
}

static void test_generate(void) {
  char *a = generated(11, 150), *b = generated(11, 150), *c = generated(12, 150);
  CHECK(strcmp(a, b) == 0); /* the same seed and walk: the same rooms, names, draws */
  CHECK(strcmp(a, c) != 0);
  free(a);
  free(b);
  free(c);
}

int main(void) {
  test_growth();
  test_rules_and_errors();
  test_growth_oom();
  test_generate();
  return check_summary("branch");
}
