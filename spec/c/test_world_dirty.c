/* test_world_dirty.c - incremental saves: after any edit (every kind the
** world has, tile edits with or without strata_world_touch), after
** savepoints rolled back (with a save in between), after edits or saves that
** ran out of memory at each allocation in turn, a save to the world's file
** writes only what changed (the file keeps its inode: no full copy) and the
** file reopens as exactly the world. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "strata/world.h"
#include "world_internal.h" /* dirty_all: the fallback a lost mark takes */

#include "failing_alloc.h" /* __wrap_malloc & co.: CMake wraps this test's allocator */
#include "world_dump.h"       /* after failing_alloc.h: file_dump holds it off */

static char path[512];

static strata_value str(const char *s) {
  int was = armed;
  armed = 0;
  strata_value v;
  strata_value_string(&v, s, strlen(s), NULL);
  armed = was;
  return v;
}

static strata_token tok(strata_world *w, const char *name) {
  return strata_tokens_intern(strata_world_tokens(w), name, strlen(name), NULL);
}

static unsigned long long inode(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

/* The world and its file hold the same. */
static int same(strata_world *w, const char *p, const char *what, int c) {
  char *a = dump(w), *b = file_dump(p);
  int ok = b && !strcmp(a, b);
  if (!ok) fprintf(stderr, "%s, case %d: the file differs from the world\n--- world\n%s--- file\n%s", what, c, a, b ? b : "(none)\n");
  free(a);
  free(b);
  return ok;
}

typedef struct scene {
  strata_world *w;
  uint64_t map, map2, actor, chest, repeat, once, other, sub;
} scene;

static void setup(scene *s) {
  strata_world *w = s->w = strata_world_new(11, NULL);
  strata_world_create_map(w, 6, 5, "base.cave", &s->map, NULL);
  strata_tilemap *m = strata_world_tilemap(w, s->map);
  strata_tilemap_clear(m, tok(w, "floor"), NULL);
  for (int i = 0; i < 4; i++) strata_tilemap_set(m, 2, 2, tok(w, "coin"), NULL);
  strata_world_create_map(w, 3, 3, NULL, &s->map2, NULL);
  strata_world_create(w, "actor", "base.goblin", &s->actor, NULL);
  strata_world_create(w, "thing", "base.chest", &s->chest, NULL);
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
  strata_world_subscribe(w, s->chest, "base.open", "base.h", &arg, 3, NULL, NULL);
  strata_value_clear(&arg);
  strata_rng r;
  strata_world_stream(w, "a.loot", &r, NULL);
}

enum { CASES = 24 };

/* Case c: one edit, as a caller would make it. */
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
  case 3: st = strata_object_set_position(w, s->actor, s->map2, 2, 2, err); break;
  case 4: st = strata_world_create(w, "thing", "base.rock", NULL, err); break;
  case 5: st = strata_world_create_map(w, 4, 4, NULL, NULL, err); break;
  case 6: st = strata_world_delete(w, s->map, err); break; /* its tiles and subscription go */
  case 7: st = strata_world_delete(w, s->chest, err); break;
  case 8:
    if ((st = strata_world_touch(w, s->map, err))) break;
    st = strata_tilemap_set(strata_world_tilemap(w, s->map), 1, 1, tok(w, "door"), err);
    break;
  case 9: /* no touch: the map's revision still tells */
    st = strata_tilemap_fill_rect(strata_world_tilemap(w, s->map2), 0, 0, 2, 2, tok(w, "rock"), 0, err);
    break;
  case 10: st = strata_world_schedule(w, 1, 0, "base.new", NULL, NULL, err); break;
  case 11: st = strata_world_cancel(w, s->other, err); break;
  case 12:
    if (!(st = strata_world_fire(w, s->repeat, &out, err))) strata_timer_clear(&out);
    break;
  case 13:
    if (!(st = strata_world_fire(w, s->once, &out, err))) strata_timer_clear(&out);
    break;
  case 14: st = strata_world_timer_skip(w, s->repeat, 30, NULL, err); break;
  case 15:
    k = str("args");
    st = strata_world_subscribe(w, s->actor, "base.e", "base.h", &k, 0, NULL, err);
    break;
  case 16: st = strata_world_unsubscribe(w, s->sub, err); break;
  case 17: st = strata_world_stream(w, "b.weather", &r, err); break;
  case 18:
    strata_rng_seed(&r, 5);
    st = strata_world_set_stream(w, "a.loot", &r, err);
    break;
  case 19: { /* a map for an object that had none */
    strata_tilemap *m = strata_tilemap_new(2, 2, strata_world_tokens(w), err);
    if (!m) { st = STRATA_ENOMEM; break; }
    strata_tilemap_set(m, 1, 1, tok(w, "gem"), NULL);
    if ((st = strata_world_attach_tilemap(w, s->actor, m, err))) strata_tilemap_free(m);
    break;
  }
  case 20: { /* another map in place of one */
    strata_tilemap *m = strata_tilemap_new(2, 3, strata_world_tokens(w), err);
    if (!m) { st = STRATA_ENOMEM; break; }
    if ((st = strata_world_attach_tilemap(w, s->map, m, err))) strata_tilemap_free(m);
    break;
  }
  case 21: st = strata_world_set_time(w, 12.5, err); break;
  case 22: st = strata_object_set_position(w, s->chest, s->map, 4, 4, err); break;
  case 23: { /* many objects: the dirty set grows */
    for (int i = 0; i < 200 && !st; i++) st = strata_world_create(w, "thing", NULL, NULL, err);
    break;
  }
  }
  strata_value_clear(&k);
  strata_value_clear(&v);
  return st;
}

static int incremental_saves, full_fallbacks;

/* Saves to the world's file and checks it equals the world. */
static void save_check(scene *s, const char *what, int c) {
  strata_error err;
  unsigned long long before = inode(path);
  int all = s->w->dirty_all;
  CHECK_EQ_INT(strata_world_save(s->w, path, NULL, 0, &err), STRATA_OK);
  /* An incremental save writes into the file; only a lost mark rewrites it
  ** (or a failed save before, which may have touched the file). */
  if (!all && inode(path) != before) {
    if (strcmp(what, "after a save out of memory")) {
      fprintf(stderr, "%s, case %d: a full save where an incremental one was due\n", what, c);
      CHECK(0);
    }
    all = 1;
  }
  if (all) full_fallbacks++; else incremental_saves++;
  CHECK(same(s->w, path, what, c));
}

static void test_each_edit(void) {
  for (int c = 0; c < CASES; c++) {
    scene s;
    strata_error err;
    setup(&s);
    CHECK_EQ_INT(strata_world_save(s.w, path, NULL, 0, &err), STRATA_OK);
    CHECK_EQ_INT(edit(&s, c, &err), STRATA_OK);
    save_check(&s, "an edit", c);
    /* And again, on top: the record was emptied by the save. */
    CHECK_EQ_INT(s.w->dirty.n, 0);
    edit(&s, (c + 7) % CASES, &err);
    edit(&s, 0, &err);
    save_check(&s, "two more edits", c);
    /* Nothing changed: a save still works, and writes no object. */
    save_check(&s, "no edit", c);
    strata_world_free(s.w);
  }
}

/* Rollbacks put things back: the file must follow, whatever was saved in between. */
static void test_rollbacks(void) {
  for (int c = 0; c < CASES; c++) {
    scene s;
    strata_error err;
    setup(&s);
    CHECK_EQ_INT(strata_world_save(s.w, path, NULL, 0, &err), STRATA_OK);
    strata_world_begin(s.w, &err);
    edit(&s, c, &err);
    strata_world_rollback(s.w);
    save_check(&s, "edit rolled back", c);
    /* Saved inside the savepoint, then rolled back: what the rollback puts back is written. */
    strata_world_begin(s.w, &err);
    edit(&s, c, &err);
    edit(&s, (c + 5) % CASES, &err);
    save_check(&s, "saved inside a savepoint", c);
    strata_world_rollback(s.w);
    save_check(&s, "rolled back after that save", c);
    /* Nested: the inner one kept, the outer one committed. */
    strata_world_begin(s.w, &err);
    strata_world_begin(s.w, &err);
    edit(&s, c, &err);
    strata_world_commit(s.w);
    edit(&s, (c + 3) % CASES, &err);
    strata_world_commit(s.w);
    save_check(&s, "nested savepoints committed", c);
    strata_world_free(s.w);
  }
}

/* A save to another path is a full copy and becomes the world's file; a
** file changed behind the world's back is rewritten whole. */
static void test_files(void) {
  scene s;
  strata_error err;
  char other[600];
  snprintf(other, sizeof other, "%s.other", path);
  setup(&s);
  CHECK_EQ_INT(strata_world_save(s.w, path, NULL, 0, &err), STRATA_OK);
  edit(&s, 0, &err);
  CHECK_EQ_INT(strata_world_save(s.w, other, NULL, 0, &err), STRATA_OK);
  CHECK(same(s.w, other, "a copy", 0));
  edit(&s, 1, &err);
  unsigned long long was = inode(other);
  CHECK_EQ_INT(strata_world_save(s.w, other, NULL, 0, &err), STRATA_OK);
  CHECK_EQ_INT(inode(other), was); /* the copy is the world's file now */
  CHECK(same(s.w, other, "the copy, incremental", 0));
  /* path holds an older state and is not the world's file: written whole. */
  was = inode(path);
  CHECK_EQ_INT(strata_world_save(s.w, path, NULL, 0, &err), STRATA_OK);
  CHECK(inode(path) != was);
  CHECK(same(s.w, path, "back to the first file", 0));
  /* Someone puts another save in its place: the save is refused (it would
  ** erase that one), unless asked to overwrite, which writes everything. */
  edit(&s, 2, &err);
  CHECK_EQ_INT(rename(other, path), 0);
  edit(&s, 3, &err);
  CHECK_EQ_INT(strata_world_save(s.w, path, NULL, 0, &err), STRATA_EIO);
  CHECK(strstr(err.message, "was saved by another process since this world opened it") != NULL);
  strata_save_options over = { 1 };
  CHECK_EQ_INT(strata_world_save_with(s.w, path, NULL, 0, &over, &err), STRATA_OK);
  CHECK(same(s.w, path, "a file replaced behind the world's back", 0));
  /* An opened world's file is the one it came from. */
  strata_world *w2;
  strata_mod_version *mods;
  size_t n;
  CHECK_EQ_INT(strata_world_open(path, &w2, &mods, &n, &err), STRATA_OK);
  strata_object_set_archetype(w2, s.actor, "base.troll", &err);
  was = inode(path);
  CHECK_EQ_INT(strata_world_save(w2, path, NULL, 0, &err), STRATA_OK);
  CHECK_EQ_INT(inode(path), was);
  CHECK(same(w2, path, "an opened world", 0));
  strata_world_free(w2);
  /* A file that only has the number of the world's file, once that file is
  ** gone from its path (as when a deleted file's inode is given to a new
  ** one), is not the world's: saved to whole, not refused as changed. */
  char moved[640];
  snprintf(moved, sizeof moved, "%s.moved", path);
  CHECK_EQ_INT(strata_world_save(s.w, other, NULL, 0, &err), STRATA_OK);
  CHECK_EQ_INT(rename(other, moved), 0);
  CHECK_EQ_INT(truncate(moved, 0), 0);
  CHECK_EQ_INT(strata_world_save(s.w, moved, NULL, 0, &err), STRATA_OK);
  CHECK(same(s.w, moved, "a new file with the number of the world's", 0));
  unlink(moved);
  strata_world_free(s.w);
  unlink(other);
}

/* Many timers and subscriptions changed at once: the save finds them
** through the world's index by uid (timers) and bisection (subscriptions). */
static void test_many_timers(void) {
  scene s;
  strata_error err;
  setup(&s);
  uint64_t t[400], u[300];
  for (int i = 0; i < 400; i++) {
    strata_value a = strata_value_int(i);
    strata_world_schedule(s.w, 50 + i % 7, i % 2 ? 1 : 0, "base.tick", &a, &t[i], &err);
  }
  for (int i = 0; i < 300; i++)
    strata_world_subscribe(s.w, s.chest, "base.e", "base.h", NULL, i, &u[i], &err);
  CHECK_EQ_INT(strata_world_save(s.w, path, NULL, 0, &err), STRATA_OK);
  for (int i = 0; i < 400; i += 2) strata_world_timer_skip(s.w, t[i + 1], 80, NULL, &err);
  for (int i = 0; i < 400; i += 3) strata_world_cancel(s.w, t[i], &err);
  for (int i = 0; i < 300; i += 2) strata_world_unsubscribe(s.w, u[i], &err);
  for (int i = 0; i < 100; i++) strata_world_schedule(s.w, 90, 0, "base.late", NULL, NULL, &err);
  CHECK(s.w->dirty.n * s.w->ntimers > 65536); /* many among many */
  save_check(&s, "many timers", 0);
  strata_world_free(s.w);
}

/* Every allocation of an edit fails in turn (with and without a savepoint),
** then every allocation of the save itself: the next save still writes
** exactly the world. */
static void test_out_of_memory(void) {
  int edit_failures = 0, save_failures = 0, lost_marks = 0;
  for (int c = 0; c < CASES; c++) {
    for (int in_txn = 0; in_txn < 2; in_txn++) {
      for (fail_at = 1;; fail_at++) {
        scene s;
        strata_error err;
        setup(&s);
        CHECK_EQ_INT(strata_world_save(s.w, path, NULL, 0, &err), STRATA_OK);
        if (in_txn) strata_world_begin(s.w, &err);
        allocations = 0;
        armed = 1;
        strata_status st = edit(&s, c, &err);
        armed = 0;
        int injected = allocations >= fail_at;
        if (st) edit_failures++;
        if (in_txn) strata_world_commit(s.w);
        lost_marks += s.w->dirty_all;
        save_check(&s, "an edit out of memory", c);
        strata_world_free(s.w);
        if (!injected) break;
      }
    }
    for (fail_at = 1;; fail_at++) {
      scene s;
      strata_error err;
      setup(&s);
      CHECK_EQ_INT(strata_world_save(s.w, path, NULL, 0, &err), STRATA_OK);
      edit(&s, c, &err);
      allocations = 0;
      armed = 1;
      strata_status st = strata_world_save(s.w, path, NULL, 0, &err);
      armed = 0;
      int injected = allocations >= fail_at;
      if (st) {
        save_failures++;
        CHECK(st == STRATA_EIO || st == STRATA_ENOMEM);
        /* The file is the previous save, whole; the world is still dirty. */
        char *f = file_dump(path);
        CHECK(f != NULL);
        free(f);
      }
      save_check(&s, "after a save out of memory", c);
      strata_world_free(s.w);
      if (!injected) break;
    }
  }
  printf("out of memory: %d failed edits, %d failed saves, %d lost marks (a full save followed)\n",
         edit_failures, save_failures, lost_marks);
  CHECK(edit_failures > CASES);
  CHECK(save_failures > CASES);
  CHECK(lost_marks > 0);
}

int main(void) {
  /* Thousands of saves: on a RAM disk where there is one, since the test is
  ** about what is written, not how fast the disk syncs it. */
  const char *dir = getenv("STRATA_TEST_TMP");
  if (!dir) dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(path, sizeof path, "%s/strata_test_dirty_%d.db", dir, (int)getpid());
  test_each_edit();
  test_rollbacks();
  test_files();
  test_many_timers();
  test_out_of_memory();
  printf("%d incremental saves, %d full ones after a lost mark\n", incremental_saves, full_fallbacks);
  unlink(path);
  return check_summary("world_dirty");
}
