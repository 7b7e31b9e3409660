/*
** bench_layout.c - every layout of KeeperRL's corpus at the sizes the game
** runs it, against KeeperRL's own figures.
**
**   bench_layout CORPUS_DIR [ATTEMPTS [LAYOUT]]
**   bench_layout --hash CORPUS_DIR [SEEDS [LAYOUT]]
**
** LAYOUT is a layout's name (every row of that name) or a row's number in
** the table (1 for its first row after the header): castle and crops have
** two rows each. Under callgrind, --toggle-collect=strata_layout_run counts
** the runs alone (docs/benchmarks.md, layouts).
**
** CORPUS_DIR holds random_layouts.txt and layout_sizes.tsv (spec/fixtures/
** keeperrl). Each row of the table is run ATTEMPTS times (default
** 50), one attempt per seed 1..ATTEMPTS, each on a fresh map; prints one JSON
** line per row: successes, ms per attempt, and KeeperRL's figures.
**
** With --hash, nothing is timed: each row is run for seeds 1..SEEDS (default
** 20) and one line per row gives a hash of every map made (its cells' token
** names in order), the results and the generator's state after each run, so
** that two builds can be shown to make the same maps (diff the outputs).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strata/strata.h"

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) free(s), s = NULL;
  fclose(f);
  if (s) s[n] = 0, *len = (size_t)n;
  return s;
}

/* FNV-1a over bytes. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* The map's cells, token names in stack order, column by column. */
static uint64_t map_hash(uint64_t h, const strata_tilemap *m) {
  const strata_tokens *t = strata_tilemap_tokens((strata_tilemap *)m);
  for (int x = 0; x < strata_tilemap_width(m); x++)
    for (int y = 0; y < strata_tilemap_height(m); y++) {
      strata_token st[64];
      size_t n = strata_tilemap_stack(m, x, y, st, 64);
      h = fnv(h, &n, sizeof n);
      for (size_t k = 0; k < n && k < 64; k++) {
        size_t len;
        const char *name = strata_tokens_name(t, st[k], &len);
        h = fnv(fnv(h, name, len), "", 1);
      }
    }
  return h;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  int hash = argc > 1 && strcmp(argv[1], "--hash") == 0;
  if (hash) argv++, argc--;
  if (argc < 2) {
    fprintf(stderr, "usage: bench_layout [--hash] CORPUS_DIR [ATTEMPTS [LAYOUT]]\n");
    return 2;
  }
  int attempts = argc > 2 ? atoi(argv[2]) : hash ? 20 : 50;
  char path[1024];
  size_t len;
  snprintf(path, sizeof path, "%s/random_layouts.txt", argv[1]);
  char *text = slurp(path, &len);
  if (text == NULL) return fprintf(stderr, "bench_layout: cannot read %s\n", path), 2;
  strata_error err;
  double t0 = now_ms();
  strata_layout_file *file = strata_layout_file_parse(text, len, "random_layouts.txt", &err);
  double parse_ms = now_ms() - t0;
  if (file == NULL) return fprintf(stderr, "bench_layout: %s\n", err.message), 1;
  fprintf(stderr, "parsed %zu layouts in %.2f ms\n", strata_layout_count(file), parse_ms);
  snprintf(path, sizeof path, "%s/layout_sizes.tsv", argv[1]);
  char *tsv = slurp(path, &len);
  if (tsv == NULL) return fprintf(stderr, "bench_layout: cannot read %s\n", path), 2;
  int status = 0;
  char *save = NULL;
  strtok_r(tsv, "\n", &save); /* the header */
  const char *only = argc > 3 ? argv[3] : NULL;
  int only_row = only && only[0] >= '1' && only[0] <= '9' ? atoi(only) : 0, row = 0;
  for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    row++;
    char *cols[12] = {0};
    int n = 0;
    for (char *c = line; n < 12;) {
      cols[n++] = c;
      char *tab = strchr(c, '\t');
      if (tab == NULL) break;
      *tab = 0, c = tab + 1;
    }
    if (n < 9) continue;
    const char *name = cols[0];
    if (only_row ? row != only_row : only && strcmp(only, name) != 0) continue;
    int w = atoi(cols[3]), h = atoi(cols[4]);
    const strata_layout_gen *g = strata_layout_find(file, name);
    if (g == NULL) {
      printf("{\"bench\":\"layout\",\"layout\":\"%s\",\"error\":\"not in the file\"}\n", name);
      status = 1;
      continue;
    }
    int ok = 0;
    double total = 0;
    uint64_t hv = 0xcbf29ce484222325ull;
    char why[200] = "";
    for (int s = 1; s <= attempts; s++) {
      strata_tilemap *m = strata_tilemap_new(w, h, NULL, &err);
      strata_rng rng;
      strata_rng_seed(&rng, (uint64_t)s);
      strata_layout_result res;
      double a = now_ms();
      strata_status st = strata_layout_run(g, m, &rng, &res, why, sizeof why, &err);
      total += now_ms() - a;
      if (hash) {
        uint64_t after = strata_rng_u64(&rng);
        int code = st ? -1 : (int)res;
        hv = fnv(fnv(map_hash(hv, m), &code, sizeof code), &after, sizeof after);
      }
      strata_tilemap_free(m);
      if (st) {
        printf("{\"bench\":\"layout\",\"layout\":\"%s\",\"error\":\"%s\"}\n", name, err.message);
        status = 1;
        break;
      }
      ok += res == STRATA_LAYOUT_OK;
      if (res != STRATA_LAYOUT_OK && getenv("BENCH_LAYOUT_WHY")) fprintf(stderr, "%s seed %d: %s\n", name, s, why);
    }
    if (hash) {
      printf("%s %dx%d ok %d/%d hash %016llx\n", name, w, h, ok, attempts, (unsigned long long)hv);
      continue;
    }
    printf("{\"bench\":\"layout\",\"layout\":\"%s\",\"w\":%d,\"h\":%d,\"ok\":%d,\"attempts\":%d,"
           "\"ms_per_attempt\":%.4f,\"keeperrl_ok\":%s,\"keeperrl_attempts\":%s,\"keeperrl_ms\":%s}\n",
           name, w, h, ok, attempts, total / attempts, cols[6], cols[7], cols[8]);
    fflush(stdout);
  }
  strata_layout_file_free(file);
  free(text), free(tsv);
  return status;
}
