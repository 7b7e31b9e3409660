/* test_world_txn_oom.c - inside a savepoint, every allocation of every edit
** fails in turn: the edit then returns an error and changes nothing, and a
** rollback still brings back the world as it was (no leak under ASan). */
#include <stdlib.h>

#include "check.h"
#include "strata/world.h"
#include "world_dump.h"

#include "failing_alloc.h" /* __wrap_malloc & co.: CMake wraps this test's allocator */

/* The test's own values are made with the failures off. */
static strata_value str(const char *s) {
  int was = armed;
  armed = 0;
  strata_value v;
  strata_value_string(&v, s, strlen(s), NULL);
  armed = was;
  return v;
}

static strata_token tok(strata_tokens *t, const char *name) {
  return strata_tokens_intern(t, name, strlen(name), NULL);
}

/* The world every case starts from. */
typedef struct scene {
  strata_world *w;
  uint64_t map, own, actor, repeat, once, other, sub;
} scene;

static void setup(scene *s) {
  strata_world *w = s->w = strata_world_new(11, NULL);
  strata_tokens *t = strata_world_tokens(w);
  strata_token floor = tok(t, "floor"), coin = tok(t, "coin");
  strata_world_create_map(w, 6, 5, "base.cave", &s->map, NULL);
  strata_tilemap *m = strata_world_tilemap(w, s->map);
  strata_tilemap_clear(m, floor, NULL);
  strata_tilemap_set(m, 1, 1, coin, NULL);
  for (int i = 0; i < 6; i++) strata_tilemap_set(m, 2, 2, coin, NULL); /* a large stack */
  strata_world_create_map(w, 3, 3, NULL, &s->own, NULL);
  strata_tilemap *o = strata_world_tilemap(w, s->own);
  strata_tilemap_own_tokens(o, NULL);
  strata_token_traits mud = {1, 2, "~", "", 0};
  strata_tokens_define(strata_tilemap_tokens(o), "mud", 3, &mud, NULL);
  strata_tilemap_clear(o, tok(strata_tilemap_tokens(o), "mud"), NULL);
  strata_world_create(w, "actor", "base.goblin", &s->actor, NULL);
  strata_value k = str("bag"), v;
  strata_value_table(&v, NULL);
  strata_value in = str("sword"), one = strata_value_int(1);
  strata_vtable_set(v.u.t, &one, &in, NULL);
  strata_object_set(w, s->actor, &k, 1, &v, NULL);
  strata_value_clear(&k);
  strata_object_set_tag(w, s->actor, "hostile", 7, 1, NULL);
  strata_object_set_position(w, s->actor, s->map, 1, 1, NULL);
  strata_value arg = str("arg");
  strata_world_schedule(w, 5, 3, "base.tick", &arg, &s->repeat, NULL);
  strata_world_schedule(w, 6, 0, "base.once", &arg, &s->once, NULL);
  strata_world_schedule(w, 9, 0, "base.other", &arg, &s->other, NULL);
  strata_world_subscribe(w, s->map, "base.enter", "base.h", &arg, 1, &s->sub, NULL);
  strata_world_subscribe(w, s->actor, "base.hit", "base.h", &arg, 2, NULL, NULL);
  strata_value_clear(&arg);
  strata_rng r;
  strata_world_stream(w, "loot", &r, NULL);
}

enum { CASES = 20 };

/* Case c: one edit (or touch then edit), as a caller would make it. */
static strata_status edit(scene *s, int c, strata_error *err) {
  strata_world *w = s->w;
  strata_status st = STRATA_OK;
  strata_value k = strata_value_nil(), v = strata_value_nil();
  strata_timer out;
  strata_rng r;
  switch (c) {
  case 0:
    k = str("hp");
    v = strata_value_int(3);
    st = strata_object_set(w, s->actor, &k, 1, &v, err);
    break;
  case 1: st = strata_object_set_tag(w, s->actor, "asleep", 6, 1, err); break;
  case 2: st = strata_object_set_archetype(w, s->actor, "base.orc", err); break;
  case 3: st = strata_object_set_position(w, s->actor, s->own, 2, 2, err); break;
  case 4: st = strata_world_create(w, "thing", "base.rock", NULL, err); break;
  case 5: st = strata_world_create_map(w, 4, 4, NULL, NULL, err); break;
  case 6: st = strata_world_delete(w, s->map, err); break;
  case 7: st = strata_world_delete(w, s->actor, err); break;
  case 8:
    if ((st = strata_world_touch(w, s->map, err))) break;
    st = strata_tilemap_set(strata_world_tilemap(w, s->map), 1, 1,
                            tok(strata_world_tokens(w), "floor"), err);
    break;
  case 9: {
    if ((st = strata_world_touch(w, s->own, err))) break;
    strata_token_traits deep = {0, 1, "~", "blue", 0};
    st = strata_tokens_define(strata_tilemap_tokens(strata_world_tilemap(w, s->own)), "mud", 3,
                              &deep, err);
    break;
  }
  case 10: st = strata_world_schedule(w, 1, 0, "base.new", NULL, NULL, err); break;
  case 11: st = strata_world_cancel(w, s->other, err); break;
  case 12:
    if (!(st = strata_world_fire(w, s->repeat, &out, err))) strata_timer_clear(&out);
    break;
  case 13:
    if (!(st = strata_world_fire(w, s->once, &out, err))) strata_timer_clear(&out);
    break;
  case 14:
    k = str("args");
    st = strata_world_subscribe(w, s->actor, "base.e", "base.h", &k, 0, NULL, err);
    break;
  case 15: st = strata_world_unsubscribe(w, s->sub, err); break;
  case 16: st = strata_world_stream(w, "weather", &r, err); break;
  case 17:
    strata_rng_seed(&r, 5);
    st = strata_world_set_stream(w, "loot", &r, err);
    break;
  case 18: {
    strata_tilemap *m = strata_tilemap_new(2, 2, strata_world_tokens(w), err);
    if (!m) { st = STRATA_ENOMEM; break; }
    if ((st = strata_world_attach_tilemap(w, s->actor, m, err))) strata_tilemap_free(m);
    break;
  }
  case 19: st = strata_world_begin(w, err); break;
  }
  strata_value_clear(&k);
  strata_value_clear(&v);
  return st;
}

int main(void) {
  int failures_seen = 0;
  for (int c = 0; c < CASES; c++) {
    for (fail_at = 1;; fail_at++) {
      scene s;
      setup(&s);
      char *start = dump(s.w);
      strata_world_begin(s.w, NULL);
      /* Half the runs edit an object already saved by the savepoint. */
      if (fail_at % 2 == 0) strata_object_set_tag(s.w, s.actor, "warm", 4, 1, NULL);
      char *before = dump(s.w);
      strata_error err;
      allocations = 0;
      armed = 1;
      strata_status st = edit(&s, c, &err);
      armed = 0;
      int injected = allocations >= fail_at;
      if (st != STRATA_OK) {
        CHECK(injected);
        if (st != STRATA_ENOMEM) fprintf(stderr, "case %d, allocation %ld: %s\n", c, fail_at, err.message);
        CHECK_EQ_INT(st, STRATA_ENOMEM);
        char *now = dump(s.w);
        if (strcmp(now, before) != 0)
          fprintf(stderr, "case %d, allocation %ld: the failed edit changed the world\n", c, fail_at);
        CHECK_STR(now, before);
        free(now);
        failures_seen++;
      }
      while (strata_world_depth(s.w) > 0) strata_world_rollback(s.w);
      char *after = dump(s.w);
      if (strcmp(after, start) != 0)
        fprintf(stderr, "case %d, allocation %ld: the rollback left changes\n", c, fail_at);
      CHECK_STR(after, start);
      free(start);
      free(before);
      free(after);
      strata_world_free(s.w);
      if (!injected) break; /* the edit ran through without a failure */
    }
  }
  CHECK(failures_seen > CASES);
  return check_summary("world_txn_oom");
}
