/* bench_world.c - saves of a large world: N objects (default 1,000,000),
** each with a 3-entry property table and a position, 1,000 maps of 80x80
** cells, 1,000 timers and 1,000 subscriptions.
**
** Measures: memory per object (resident set growth over the objects), a
** full save (to a new path) and an open, best of 3; then incremental saves
** to the same file after changing 100 objects and 10 cells (in 10 maps),
** with the rollback journal the library uses and, for docs/saves.md, the
** other journal modes SQLite offers.
**
** build/bench_world [N [MAPS]]   (the file goes to $TMPDIR or /tmp) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_world.h"
#include "strata/value.h"
#include "strata/world.h"
/* save_journal: the journal mode of incremental saves, to compare; this
** bench links the core built with STRATA_TEST_HOOKS (CMakeLists.txt). */
#include "world_internal.h"

/* Resident memory in bytes (/proc/self/statm). */
static double rss(void) {
  long pages = 0, res = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &res) != 2) res = 0;
    fclose(f);
  }
  return (double)res * (double)sysconf(_SC_PAGESIZE);
}

#define ROUNDS 15

/* ROUNDS incremental saves, each after changing 100 objects (a property
** through strata_object_set) and 10 cells (one in each of 10 maps). */
static void incremental(strata_world *w, const char *path, const uint64_t *actors, int n,
                        const uint64_t *maps, int nmaps, const strata_mod_version *mods,
                        const char *label, const char *journal, int *round) {
  strata_error err;
  double t[ROUNDS], c[ROUNDS];
  w->save_journal = journal;
  for (int r = 0; r < ROUNDS; r++, (*round)++) {
    bench_world_change(w, actors, n, maps, nmaps, *round);
    double t0 = now(), c0 = cpu();
    if (strata_world_save(w, path, mods, 1, &err)) die("incremental save", &err);
    t[r] = now() - t0;
    c[r] = cpu() - c0;
  }
  w->save_journal = NULL;
  qsort(t, ROUNDS, sizeof *t, cmp_double);
  qsort(c, ROUNDS, sizeof *c, cmp_double);
  printf("%-44s %8.2f %8.2f %8.2f %8.2f %8s\n", label, t[0] * 1e3, t[ROUNDS / 2] * 1e3, t[ROUNDS - 1] * 1e3,
         c[ROUNDS / 2] * 1e3, journal ? "" : "<= 10");
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000000;
  if (n < 1) n = 1;
  int nmaps = argc > 2 ? atoi(argv[2]) : 1000;
  if (nmaps < 10) nmaps = 10;
  const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char path[512], other[512];
  snprintf(path, sizeof path, "%s/strata_bench_world.db", dir);
  snprintf(other, sizeof other, "%s/strata_bench_world_wal.db", dir);
  strata_error err;
  strata_world *w = strata_world_new(42, &err);
  uint64_t *actors = malloc((size_t)n * sizeof *actors), *maps = malloc((size_t)nmaps * sizeof *maps);
  double m0 = rss(), t0 = now();
  bench_world_maps(w, nmaps, maps);
  double m1 = rss(), t1 = now();
  bench_world_objects(w, n, actors, nmaps, maps);
  double m2 = rss(), t2 = now();
  printf("world: %d objects with 3 properties and a position, %d maps of 80x80, 1,000 timers, "
         "1,000 subscriptions\n", n, nmaps);
  printf("memory: %.0f bytes per object (resident growth over the objects), %.0f KB per map; "
         "built in %.2f s + %.2f s\n", (m2 - m1) / n, (m1 - m0) / nmaps / 1024, t1 - t0, t2 - t1);

  strata_mod_version mods[1] = { { "base", "0.1.0" } };
  double best_save = 1e9, best_open = 1e9, open_rss = 0, read_rss = 0, cpu_save = 1e9, cpu_open = 1e9;
  for (int rep = 0; rep < 3; rep++) {
    unlink(path); /* a new path: a full save */
    double a = now(), ca = cpu();
    if (strata_world_save(w, path, mods, 1, &err)) die("save", &err);
    double b = now(), cb = cpu();
    strata_world *w2;
    strata_mod_version *mv;
    size_t nm;
    double r0 = rss();
    if (strata_world_open(path, &w2, &mv, &nm, &err)) die("open", &err);
    double c = now(), cc = cpu();
    if (cb - ca < cpu_save) cpu_save = cb - ca;
    if (cc - cb < cpu_open) cpu_open = cc - cb;
    if (rep == 0) {
      /* Opened, properties still the file's bytes; then every object's
      ** properties read (decoded), as a game touching every object ends. */
      open_rss = rss() - r0;
      for (int i = 0; i < n; i++)
        if (!strata_world_object(w2, actors[i])) { fprintf(stderr, "object missing\n"); return 1; }
      read_rss = rss() - r0;
    }
    if (strata_world_count(w2) != strata_world_count(w)) { fprintf(stderr, "count mismatch\n"); return 1; }
    strata_world_free(w2);
    strata_mod_versions_free(mv, nm);
    if (b - a < best_save) best_save = b - a;
    if (c - b < best_open) best_open = c - b;
  }
  struct stat st;
  stat(path, &st);
  printf("file: %.1f MB\n\n", (double)st.st_size / 1e6);
  printf("%-44s %8s %8s %10s\n", "full save / open (best of 3)", "ms", "cpu ms", "target");
  printf("%-44s %8.1f %8.1f %10s\n", "full save (new file, fsync, rename)", best_save * 1e3, cpu_save * 1e3, "<= 1500");
  printf("%-44s %8.1f %8.1f %10s\n", "open (read, validate, rebuild)", best_open * 1e3, cpu_open * 1e3, "<= 1500");
  printf("%-44s %8.0f\n", "  resident growth of the opened world, MB", open_rss / 1e6);
  printf("\nmemory per object (bytes): built %.0f, opened %.0f, opened with every object's properties "
         "read %.0f (target <= 400)\n", (m2 - m1) / n, open_rss / n, read_rss / n);

  printf("\n%-44s %8s %8s %8s %8s %8s\n", "100 objects + 10 cells changed, then save (ms)", "min",
         "median", "max", "cpu med", "target");
  int round = 1;
  /* The world's file is path (the last save): these saves are incremental. */
  incremental(w, path, actors, n, maps, nmaps, mods, "incremental, rollback journal (DELETE, FULL)",
              NULL, &round);
  incremental(w, path, actors, n, maps, nmaps, mods, "incremental, journal TRUNCATE, FULL",
              "PRAGMA journal_mode=TRUNCATE; PRAGMA synchronous=FULL;", &round);
  incremental(w, path, actors, n, maps, nmaps, mods, "incremental, journal PERSIST, FULL",
              "PRAGMA journal_mode=PERSIST; PRAGMA synchronous=FULL;", &round);
  /* WAL leaves the file in WAL mode: on a copy of its own. */
  unlink(other);
  if (strata_world_save(w, other, mods, 1, &err)) die("save", &err);
  incremental(w, other, actors, n, maps, nmaps, mods, "incremental, WAL, synchronous FULL",
              "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA wal_autocheckpoint=0;", &round);
  incremental(w, other, actors, n, maps, nmaps, mods, "incremental, WAL, NORMAL (no fsync)",
              "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0;", &round);
  incremental(w, other, actors, n, maps, nmaps, mods, "incremental, WAL, FULL, checkpoint each",
              "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA wal_autocheckpoint=1;", &round);
  /* Tiles are saved by chunks of 32x32 cells: one cell of a large map costs
  ** its chunk's row, not the map (format 2 wrote the whole map). */
  {
    strata_error e2;
    uint64_t big;
    int side = 1000;
    if (strata_world_create_map(w, side, side, NULL, &big, &e2)) die("big map", &e2);
    strata_tilemap *bm = strata_world_tilemap(w, big);
    strata_token fl = strata_tokens_intern(strata_world_tokens(w), "floor", 5, NULL);
    strata_tilemap_clear(bm, fl, &e2);
    if (strata_world_save(w, path, mods, 1, &e2)) die("save", &e2);
    double t[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      strata_tilemap_set(bm, r, r, strata_tokens_intern(strata_world_tokens(w), "door", 4, NULL), &e2);
      double a = now();
      if (strata_world_save(w, path, mods, 1, &e2)) die("save", &e2);
      t[r] = now() - a;
    }
    qsort(t, ROUNDS, sizeof *t, cmp_double);
    printf("%-44s %8.2f %8.2f %8.2f\n", "1 cell of one 1000x1000 map (its chunk)", t[0] * 1e3,
           t[ROUNDS / 2] * 1e3, t[ROUNDS - 1] * 1e3);
    strata_world_delete(w, big, &e2);
    for (int r = 0; r < ROUNDS; r++) {
      uint64_t uid = actors[(uint64_t)r * 7919 % (uint64_t)n];
      strata_value key, v = strata_value_int(r);
      strata_value_string(&key, "hp", 2, NULL);
      strata_object_set(w, uid, &key, 1, &v, &e2);
      strata_value_clear(&key);
      double a = now();
      if (strata_world_save(w, path, mods, 1, &e2)) die("save", &e2);
      t[r] = now() - a;
    }
    qsort(t, ROUNDS, sizeof *t, cmp_double);
    printf("%-44s %8.2f %8.2f %8.2f\n", "1 object (the floor: open, journal, fsyncs)", t[0] * 1e3,
           t[ROUNDS / 2] * 1e3, t[ROUNDS - 1] * 1e3);
    strata_token door = strata_tokens_intern(strata_world_tokens(w), "door", 4, NULL);
    for (int r = 0; r < ROUNDS; r++) {
      for (int i = 0; i < 10; i++)
        strata_tilemap_set(strata_world_tilemap(w, maps[(r * 10 + i) % nmaps]), r % 80, i, door, &e2);
      double a = now();
      if (strata_world_save(w, path, mods, 1, &e2)) die("save", &e2);
      t[r] = now() - a;
    }
    qsort(t, ROUNDS, sizeof *t, cmp_double);
    printf("%-44s %8.2f %8.2f %8.2f\n", "10 cells in 10 maps of 80x80 (10 chunks)", t[0] * 1e3,
           t[ROUNDS / 2] * 1e3, t[ROUNDS - 1] * 1e3);
  }
  /* The last incremental save is whole: what was written reopens as the world. */
  {
    strata_world *w2;
    strata_mod_version *mv;
    size_t nm;
    double a = now();
    if (strata_world_open(path, &w2, &mv, &nm, &err)) die("reopen", &err);
    double b = now();
    printf("\nreopen after %d incremental saves: %.1f ms, %zu objects (world: %zu)\n", 5 * ROUNDS,
           (b - a) * 1e3, strata_world_count(w2), strata_world_count(w));
    strata_world_free(w2);
    strata_mod_versions_free(mv, nm);
  }
  unlink(path);
  unlink(other);
  char aux[600];
  snprintf(aux, sizeof aux, "%s-wal", other); unlink(aux);
  snprintf(aux, sizeof aux, "%s-shm", other); unlink(aux);
  free(actors);
  free(maps);
  strata_world_free(w);
  return 0;
}
