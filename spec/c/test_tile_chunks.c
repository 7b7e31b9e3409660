/* test_tile_chunks.c - maps saved by chunks (save.c, format 3): every path
** that edits cells stamps the chunks it changed, and an incremental save
** writes exactly those chunks' rows (the other rows of the file are marked
** beforehand and must still hold the mark), also after savepoints rolled back
** (with a save in between), after another map took the object's place, and
** when an edit or a save runs out of memory at each allocation in turn: the
** file then reopens as exactly the world. */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "strata/layout.h"
#include "strata/world.h"
#include "tilemap_internal.h" /* chunk stamps */
#include "world_internal.h" /* dirty_all */

#include "failing_alloc.h" /* __wrap_malloc & co.: CMake wraps this test's allocator */
#include "world_dump.h"       /* after failing_alloc.h: file_dump holds it off */

/* The big map: 4 columns and 3 rows of chunks, the last ones partial. */
#define C ((int)TILEMAP_CHUNK)
#define W (3 * C + 4)
#define H (2 * C + 6)
#define COLS 4
#define NCHUNKS 12
#define ALL ((1u << NCHUNKS) - 1)

static char path[512];

static uint32_t bit(int x, int y) { return 1u << ((y / C) * COLS + x / C); }

static strata_token tok(strata_world *w, const char *name) {
  int was = armed;
  armed = 0;
  strata_token t = strata_tokens_intern(strata_world_tokens(w), name, strlen(name), NULL);
  armed = was;
  return t;
}

static unsigned long long inode(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

/* The chunks the next save writes for uid's map: those stamped past the
** revision the file holds, or all of them when the file holds another map. */
static uint32_t due(strata_world *w, uint64_t uid) {
  strata_object *o = strata_world_object(w, uid);
  strata_tilemap *m = o->tilemap;
  uint32_t bits = 0;
  for (uint32_t c = 0; c < m->chunk_cols * m->chunk_rows; c++)
    if (m->saved_id != m->id || m->chunk_rev[c] > m->saved_rev) bits |= 1u << c;
  return bits;
}

static int same(strata_world *w, const char *what) {
  char *a = dump(w), *b = file_dump(path);
  int ok = b && !strcmp(a, b);
  if (!ok) fprintf(stderr, "%s: the file differs from the world\n", what);
  free(a);
  free(b);
  return ok;
}

/* ---- which rows a save wrote ----
** Every tiles row of the file gets random cells, keeping the file's size and
** times (so that the world still takes it for its file); after a save, the
** rows whose cells changed are the ones it wrote. The file no longer opens:
** rewrite() saves it whole again. */
typedef struct marks {
  int n;
  long long map[64], chunk[64];
  unsigned char cells[64][64];
  int len[64];
} marks;

static void mark_rows(marks *mk) {
  struct stat st;
  sqlite3 *db;
  sqlite3_stmt *s;
  int was = armed;
  armed = 0;
  CHECK_EQ_INT(stat(path, &st), 0);
  CHECK_EQ_INT(sqlite3_open(path, &db), SQLITE_OK);
  CHECK_EQ_INT(sqlite3_exec(db, "UPDATE tiles SET cells = randomblob(min(length(cells), 64))", NULL, NULL, NULL),
               SQLITE_OK);
  sqlite3_prepare_v2(db, "SELECT map, chunk, cells FROM tiles", -1, &s, NULL);
  mk->n = 0;
  while (sqlite3_step(s) == SQLITE_ROW && mk->n < 64) {
    int i = mk->n++;
    mk->map[i] = sqlite3_column_int64(s, 0);
    mk->chunk[i] = sqlite3_column_int64(s, 1);
    mk->len[i] = sqlite3_column_bytes(s, 2);
    memcpy(mk->cells[i], sqlite3_column_blob(s, 2), (size_t)mk->len[i]);
  }
  sqlite3_finalize(s);
  sqlite3_close(db);
  /* Rows may shrink, but pages are not given back: the size stays. */
  struct stat now;
  CHECK_EQ_INT(stat(path, &now), 0);
  CHECK_EQ_INT((long long)now.st_size, (long long)st.st_size);
  struct timespec times[2] = { st.st_atim, st.st_mtim };
  CHECK_EQ_INT(utimensat(AT_FDCWD, path, times, 0), 0);
  armed = was;
}

/* The chunks of map uid whose rows the save wrote (a row gone counts too). */
static uint32_t written(const marks *mk, uint64_t uid) {
  sqlite3 *db;
  sqlite3_stmt *s;
  uint32_t bits = 0;
  int was = armed;
  armed = 0;
  CHECK_EQ_INT(sqlite3_open(path, &db), SQLITE_OK);
  sqlite3_prepare_v2(db, "SELECT cells FROM tiles WHERE map = ? AND chunk = ?", -1, &s, NULL);
  for (int i = 0; i < mk->n; i++) {
    if (mk->map[i] != (long long)uid) continue;
    sqlite3_bind_int64(s, 1, mk->map[i]);
    sqlite3_bind_int64(s, 2, mk->chunk[i]);
    if (sqlite3_step(s) != SQLITE_ROW || sqlite3_column_bytes(s, 0) != mk->len[i] ||
        memcmp(sqlite3_column_blob(s, 0), mk->cells[i], (size_t)mk->len[i]))
      bits |= 1u << mk->chunk[i];
    sqlite3_reset(s);
  }
  sqlite3_finalize(s);
  sqlite3_close(db);
  armed = was;
  return bits;
}

/* A full save (the marked file no longer opens). */
static void rewrite(strata_world *w) {
  strata_error err;
  w->dirty_all = 1;
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_OK);
}

typedef struct scene {
  strata_world *w;
  uint64_t big, small;
  strata_tilemap *m;
} scene;

static void setup(scene *s) {
  strata_error err;
  s->w = strata_world_new(3, &err);
  strata_world_create_map(s->w, W, H, NULL, &s->big, &err);
  strata_world_create_map(s->w, 40, 30, NULL, &s->small, &err);
  s->m = strata_world_tilemap(s->w, s->big);
  strata_tilemap_clear(s->m, tok(s->w, "floor"), &err);
  strata_tilemap_set(s->m, C + 8, C + 8, tok(s->w, "coin"), &err);
  strata_tilemap_set(s->m, 2 * C + 6, 10, tok(s->w, "coin"), &err);
  strata_tilemap_fill_rect(strata_world_tilemap(s->w, s->small), 0, 0, 40, 30, tok(s->w, "rock"), 0, &err);
  CHECK_EQ_INT(strata_world_save(s->w, path, NULL, 0, &err), STRATA_OK);
  CHECK_EQ_INT(due(s->w, s->big), 0);
}

/* Saves incrementally and checks that exactly the chunks `want` of the big
** map (and none of the small one) were written, and that the file is the world. */
static void save_expect(scene *s, uint32_t want, const char *what) {
  strata_error err;
  marks mk;
  CHECK_EQ_INT(due(s->w, s->big), want);
  mark_rows(&mk);
  unsigned long long was = inode(path);
  if (strata_world_save(s->w, path, NULL, 0, &err)) fprintf(stderr, "%s: %s\n", what, err.message);
  CHECK_EQ_INT(inode(path), was); /* incremental */
  uint32_t got = written(&mk, s->big);
  if (got != want) fprintf(stderr, "%s: wrote chunks %#x, expected %#x\n", what, got, want);
  CHECK_EQ_INT(got, want);
  CHECK_EQ_INT(written(&mk, s->small), 0);
  CHECK_EQ_INT(due(s->w, s->big), 0);
  rewrite(s->w);
  CHECK(same(s->w, what));
}

static void test_edit_paths(void) {
  strata_error err;
  scene s;
  int removed = 0;
  setup(&s);
  strata_token wall = tok(s.w, "wall"), coin = tok(s.w, "coin"), mud = tok(s.w, "mud");
  CHECK_EQ_INT(strata_tilemap_set(s.m, 5, 5, wall, &err), STRATA_OK);
  save_expect(&s, bit(5, 5), "set");
  CHECK_EQ_INT(strata_tilemap_add_front(s.m, W - 1, H - 1, mud, &err), STRATA_OK);
  CHECK_EQ_INT(bit(W - 1, H - 1), 0x800);
  save_expect(&s, bit(W - 1, H - 1), "add_front, the last chunk (4 x 6 cells)");
  CHECK_EQ_INT(strata_tilemap_remove(s.m, C + 8, C + 8, coin, &removed, &err), STRATA_OK);
  CHECK_EQ_INT(removed, 1);
  save_expect(&s, bit(C + 8, C + 8), "remove");
  CHECK_EQ_INT(strata_tilemap_remove(s.m, C + 9, C + 8, coin, &removed, &err), STRATA_OK);
  CHECK_EQ_INT(removed, 0);
  save_expect(&s, 0, "remove of a token not there (no change)");
  CHECK_EQ_INT(strata_tilemap_reset(s.m, 2 * C, C, wall, &err), STRATA_OK);
  save_expect(&s, bit(2 * C, C), "reset");
  CHECK_EQ_INT(strata_tilemap_fill_rect(s.m, C - 2, C - 2, 4, 4, mud, 1, &err), STRATA_OK);
  CHECK_EQ_INT(bit(C - 2, C - 2) | bit(C + 1, C - 2) | bit(C - 2, C + 1) | bit(C + 1, C + 1), 0x33);
  save_expect(&s, 0x33, "fill_rect (push) across 4 chunks");
  CHECK_EQ_INT(strata_tilemap_fill_rect(s.m, -5, 2 * C, W + 10, 50, wall, 0, &err), STRATA_OK);
  save_expect(&s, 0xf00, "fill_rect clipped, the bottom row of chunks");
  CHECK_EQ_INT(strata_tilemap_clear(s.m, 0, &err), STRATA_OK);
  save_expect(&s, ALL, "clear");
  /* Layout output: the interpreter's own cell edits. */
  const char *src = "\"l\" { Reset(\"rock\") Margins(1, Set(\"wall\"), None) }\n";
  strata_layout_file *f = strata_layout_file_parse(src, strlen(src), "t.layout", &err);
  CHECK(f != NULL);
  if (f) {
    strata_rng rng;
    strata_rng_seed(&rng, 1);
    strata_layout_result res;
    CHECK_EQ_INT(strata_layout_run(strata_layout_find(f, "l"), s.m, &rng, &res, NULL, 0, &err), STRATA_OK);
    strata_layout_file_free(f);
    save_expect(&s, ALL, "a layout over the whole map");
  }
  /* Another map in its place: written whole, the old rows gone. */
  strata_tilemap *other = strata_tilemap_new(W, H, strata_world_tokens(s.w), &err);
  strata_tilemap_set(other, 1, 1, wall, &err);
  CHECK_EQ_INT(strata_world_attach_tilemap(s.w, s.big, other, &err), STRATA_OK);
  s.m = other;
  save_expect(&s, ALL, "another map in place of one");
  /* Nothing changed: nothing written. */
  save_expect(&s, 0, "no edit");
  strata_world_free(s.w);
}

/* Rollbacks: the chunks a rollback put back are written by the next save
** (also when a save in the savepoint wrote the edits), and no others. */
static void test_rollbacks(void) {
  strata_error err;
  scene s;
  setup(&s);
  strata_token wall = tok(s.w, "wall");
  strata_world_begin(s.w, &err);
  CHECK_EQ_INT(strata_world_touch(s.w, s.big, &err), STRATA_OK);
  strata_tilemap_set(s.m, 5, 5, wall, &err);
  strata_world_rollback(s.w);
  save_expect(&s, bit(5, 5), "an edit rolled back");

  strata_world_begin(s.w, &err);
  CHECK_EQ_INT(strata_world_touch(s.w, s.big, &err), STRATA_OK);
  strata_tilemap_set(s.m, 5, 5, wall, &err);
  strata_tilemap_set(s.m, 2 * C + 6, 2 * C, wall, &err);
  save_expect(&s, bit(5, 5) | bit(2 * C + 6, 2 * C), "saved inside a savepoint");
  strata_world_rollback(s.w);
  save_expect(&s, bit(5, 5) | bit(2 * C + 6, 2 * C), "rolled back after that save");

  /* Nested: the inner savepoint rolled back, the outer one kept. */
  strata_world_begin(s.w, &err);
  CHECK_EQ_INT(strata_world_touch(s.w, s.big, &err), STRATA_OK);
  strata_tilemap_set(s.m, C + 8, 0, wall, &err);
  strata_world_begin(s.w, &err);
  CHECK_EQ_INT(strata_world_touch(s.w, s.big, &err), STRATA_OK);
  strata_tilemap_set(s.m, W - 1, 0, wall, &err);
  strata_world_rollback(s.w);
  strata_world_commit(s.w);
  save_expect(&s, bit(C + 8, 0) | bit(W - 1, 0), "nested: inner rolled back, outer committed");

  /* Another map attached inside the savepoint, saved, rolled back: the old
  ** map is back, and to the file it is another map. */
  strata_world_begin(s.w, &err);
  strata_tilemap *other = strata_tilemap_new(W, H, strata_world_tokens(s.w), &err);
  strata_tilemap_set(other, 1, 1, wall, &err);
  CHECK_EQ_INT(strata_world_attach_tilemap(s.w, s.big, other, &err), STRATA_OK);
  save_expect(&s, ALL, "another map, saved in the savepoint");
  strata_world_rollback(s.w);
  s.m = strata_world_tilemap(s.w, s.big);
  save_expect(&s, ALL, "its attachment rolled back");
  /* And one of another size in its place, rolled back without a save. */
  strata_world_begin(s.w, &err);
  other = strata_tilemap_new(7, 3, strata_world_tokens(s.w), &err);
  CHECK_EQ_INT(strata_world_attach_tilemap(s.w, s.big, other, &err), STRATA_OK);
  strata_world_rollback(s.w);
  s.m = strata_world_tilemap(s.w, s.big);
  CHECK_EQ_INT(strata_tilemap_width(s.m), W);
  /* The old contents are back in the struct of the map that replaced
  ** them: to saves another map (written whole: more than needed, never less). */
  save_expect(&s, ALL, "a smaller map attached and rolled back");
  strata_world_free(s.w);
}

/* Every allocation of an edit across chunks fails in turn (in a savepoint,
** committed or rolled back, and outside one), then every allocation of the
** save: the next save writes exactly the world. */
static void test_out_of_memory(void) {
  int edit_failures = 0, save_failures = 0;
  for (int mode = 0; mode < 3; mode++) {
    for (fail_at = 1;; fail_at++) {
      scene s;
      strata_error err;
      setup(&s);
      strata_token mud = tok(s.w, "mud");
      if (mode) strata_world_begin(s.w, &err);
      allocations = 0;
      armed = 1;
      strata_status st = mode ? strata_world_touch(s.w, s.big, &err) : STRATA_OK;
      /* pushes: the cells become stacks, which allocate */
      if (!st) st = strata_tilemap_fill_rect(s.m, C - 20, C - 20, 40, 40, mud, 1, &err);
      if (!st) st = strata_world_create_map(s.w, W, H, NULL, NULL, &err);
      armed = 0;
      int injected = allocations >= fail_at;
      if (st) edit_failures++;
      if (mode == 1) strata_world_commit(s.w);
      if (mode == 2) strata_world_rollback(s.w);
      CHECK_EQ_INT(strata_world_save(s.w, path, NULL, 0, &err), STRATA_OK);
      CHECK(same(s.w, "an edit out of memory"));
      strata_world_free(s.w);
      if (!injected) break;
    }
  }
  for (fail_at = 1;; fail_at++) {
    scene s;
    strata_error err;
    setup(&s);
    strata_token mud = tok(s.w, "mud");
    strata_tilemap_fill_rect(s.m, C - 20, C - 20, 40, 40, mud, 1, &err);
    uint32_t want = due(s.w, s.big);
    allocations = 0;
    armed = 1;
    strata_status st = strata_world_save(s.w, path, NULL, 0, &err);
    armed = 0;
    int injected = allocations >= fail_at;
    if (st) {
      save_failures++;
      CHECK(st == STRATA_EIO || st == STRATA_ENOMEM);
      CHECK_EQ_INT(due(s.w, s.big), want); /* still to be written */
      char *f = file_dump(path); /* the previous save, whole */
      CHECK(f != NULL);
      free(f);
      CHECK_EQ_INT(strata_world_save(s.w, path, NULL, 0, &err), STRATA_OK);
    }
    CHECK(same(s.w, "after a save out of memory"));
    strata_world_free(s.w);
    if (!injected) break;
  }
  printf("out of memory: %d failed edits, %d failed saves\n", edit_failures, save_failures);
  CHECK(edit_failures > 10);
  CHECK(save_failures > 10);
}

int main(void) {
  const char *dir = getenv("STRATA_TEST_TMP");
  if (!dir) dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(path, sizeof path, "%s/strata_test_chunks_%d.db", dir, (int)getpid());
  test_edit_paths();
  test_rollbacks();
  test_out_of_memory();
  unlink(path);
  return check_summary("tile_chunks");
}
