/*
** test_layout.c - the layout language from C: reading, running, errors, and
** the whole KeeperRL corpus once (so that ASan and UBSan see every generator
** the real layouts use).
*/
#include <stdlib.h>

#include "check.h"
#include "strata/strata.h"

static strata_layout_file *parse(const char *text, strata_error *err) {
  return strata_layout_file_parse(text, strlen(text), "t", err);
}

static int has(strata_tilemap *m, int x, int y, const char *tok) {
  strata_token t = strata_tokens_find(strata_tilemap_tokens(m), tok, strlen(tok));
  return t && strata_tilemap_has(m, x, y, t);
}

static void test_basics(void) {
  strata_error err;
  strata_layout_file *f = parse(
      "Def Room() Margins(1, Set(\"wall\"), Reset(\"floor\")) End\n"
      "\"rooms\" { Reset(\"rock\") Place((minSize = {3 3} maxSize = {6 6} generator = Room count = {2 4} minSpacing = 1))\n"
      "  Connect(On(\"floor\"), (5, On(\"rock\"), Reset(\"floor\")), (2, On(\"wall\"), Reset(\"door\"))) }\n"
      "\"fail\" { Set(\"a\") Fail }\n"
      "\"off\" Margins(-1, Set(\"x\"), None)\n", &err);
  CHECK(f != NULL);
  if (f == NULL) return;
  CHECK_EQ_INT(strata_layout_count(f), 3);
  CHECK(strcmp(strata_layout_name(f, 1), "fail") == 0);
  strata_tilemap *m = strata_tilemap_new(30, 20, NULL, &err);
  strata_rng rng;
  strata_rng_seed(&rng, 5);
  strata_layout_result res;
  char why[128];
  CHECK(strata_layout_run(strata_layout_find(f, "rooms"), m, &rng, &res, why, sizeof why, &err) == STRATA_OK);
  CHECK(res == STRATA_LAYOUT_OK);
  int floors = 0, walls = 0;
  for (int y = 0; y < 20; y++)
    for (int x = 0; x < 30; x++) floors += has(m, x, y, "floor"), walls += has(m, x, y, "wall");
  CHECK(floors >= 2 && walls >= 16);
  CHECK(strata_layout_run(strata_layout_find(f, "fail"), m, &rng, &res, why, sizeof why, &err) == STRATA_OK);
  CHECK(res == STRATA_LAYOUT_FAILED && strstr(why, "Fail at line 4") != NULL);
  CHECK(strata_layout_run(strata_layout_find(f, "off"), m, &rng, &res, why, sizeof why, &err) != STRATA_OK);
  CHECK(strstr(err.message, "outside the 30x20 map") != NULL);
  CHECK(strata_layout_find(f, "nope") == NULL);
  strata_tilemap_free(m);
  strata_layout_file_free(f);
}

static void test_errors(void) {
  static const char *const bad[] = {
      "\"a\" Sett(\"x\")", "\"a\" Set(\"x", "\"a\" Def M() None", "\"a\" Margins(1, None)",
      "\"a\" None \"a\" None", "Def L() { L() } End \"a\" L()", "\"a\" Filter(Not(On(\"x\")), None)",
      "\"a\" Repeat({2 2}, None)", "\"a\" Place(generator = None)", "\"a\" {", "\"a\" Choose()",
      "\"a\" Connect(True, (0, True, None))", "\"a\" Position(NOWHERE, {1 1}, None)", "}",
      "\"a\" XMod(1, 0)", "\"a\" Margins((1 / 0), None, None)"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    strata_error err;
    strata_error_clear(&err);
    strata_layout_file *f = parse(bad[i], &err);
    CHECK(f == NULL);
    CHECK(err.status == STRATA_EPARSE && strstr(err.message, "t:1:") == err.message);
    /* the position is in err's fields too, the same as in the message */
    int col = 0;
    CHECK(sscanf(err.message, "t:1:%d:", &col) == 1);
    CHECK_EQ_INT(err.line, 1);
    CHECK_EQ_INT(err.column, col);
    strata_layout_file_free(f);
  }
  /* on a later line, from the lexer, the macro expander and the parser */
  static const struct { const char *text; int line, column; } at[] = {
      {"\"a\"\n  Sett(\"x\")", 2, 3},
      {"\"a\" None\n\n   \"b\" Set(\"x", 3, 12},
      {"\"a\" None\nEnd", 2, 1},
      {"Def M()\n  None\nEnd\n\"a\" M() \"a\" M()", 4, 9},
  };
  for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
    strata_error err;
    strata_error_clear(&err);
    CHECK(parse(at[i].text, &err) == NULL);
    CHECK_EQ_INT(err.line, at[i].line);
    CHECK_EQ_INT(err.column, at[i].column);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "t:%d:%d: ", at[i].line, at[i].column);
    CHECK(strstr(err.message, prefix) == err.message);
  }
}

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

/* KeeperRL's random_layouts.txt from spec/fixtures/keeperrl (the source tree
** from STRATA_SOURCE_DIR, which CMake sets, else this file's), or NULL. */
static char *read_corpus(size_t *len) {
  const char *src = getenv("STRATA_SOURCE_DIR");
  if (src == NULL) src = STRATA_SOURCE_DEFAULT;
  char path[1024];
  snprintf(path, sizeof path, "%s/spec/fixtures/keeperrl/random_layouts.txt", src);
  return slurp(path, len);
}

/* A file of the layout fuzz seeds (spec/fuzz/corpus/layout), or NULL. */
static char *read_fuzz_seed(const char *file, size_t *len) {
  const char *src = getenv("STRATA_SOURCE_DIR");
  if (src == NULL) src = STRATA_SOURCE_DEFAULT;
  char path[1024];
  snprintf(path, sizeof path, "%s/spec/fuzz/corpus/layout/%s", src, file);
  return slurp(path, len);
}

/* Runs a file's first layouts on a small map, as the fuzz target does. */
static void run_like_fuzz(strata_layout_file *f) {
  strata_error err;
  strata_tilemap *m = strata_tilemap_new(12, 9, NULL, &err);
  CHECK(m != NULL);
  for (size_t i = 0; m && i < strata_layout_count(f) && i < 4; i++) {
    strata_rng rng;
    strata_rng_seed(&rng, i);
    strata_layout_result res;
    char why[64];
    strata_layout_run(strata_layout_at(f, i), m, &rng, &res, why, sizeof why, &err);
  }
  strata_tilemap_free(m);
}

/* What the layout fuzz campaign found, now errors or defined behaviour (the
** inputs stay in the seed corpus, so every fuzz run replays them too). */
static void test_fuzz_findings(void) {
  strata_error err;
  /* A macro expansion of a 29 KB file that ran for minutes: a few
  ** expansions with enormous arguments. Now a bounded amount of copying. */
  size_t len;
  char *text = read_fuzz_seed("known-expansion-hang.txt", &len);
  CHECK(text != NULL);
  if (text) {
    strata_error_clear(&err);
    CHECK(strata_layout_file_parse(text, len, "hang", &err) == NULL);
    CHECK(err.status == STRATA_EPARSE);
    CHECK(strstr(err.message, "hang:42:3: macro expansion too large at Margin (called on line 307)") ==
          err.message);
    free(text);
  }
  /* The same from scratch: each level doubles its argument, so 40 levels
  ** would copy 2^40 tokens in 40 expansions. */
  char buf[4096];
  size_t n = 0;
  for (int k = 0; k < 40; k++)
    n += (size_t)snprintf(buf + n, sizeof buf - n, "Def D%d(X) D%d({X X}) End\n", k, k + 1);
  n += (size_t)snprintf(buf + n, sizeof buf - n, "Def D40(X) X End\n\"a\" D0(None)\n");
  strata_error_clear(&err);
  CHECK(strata_layout_file_parse(buf, n, "t", &err) == NULL);
  /* where in the chain it stops (a D's line) and where the chain began */
  CHECK(err.status == STRATA_EPARSE && err.line >= 1 && err.line <= 40);
  CHECK(strstr(err.message, "macro expansion too large at D") != NULL);
  CHECK(strstr(err.message, "(called on line 42)") != NULL);

  /* NoiseMap bounds far beyond 1 (1e20 x the cell count once overflowed a
  ** cast to size_t): a band up to 1e20 takes every cell from its lower bound. */
  text = read_fuzz_seed("known-float-cast-overflow.txt", &len);
  CHECK(text != NULL);
  if (text) {
    strata_layout_file *f = strata_layout_file_parse(text, len, "cast", &err);
    CHECK(f != NULL);
    if (f) run_like_fuzz(f);
    strata_layout_file_free(f);
    free(text);
  }
  strata_layout_file *f = parse("\"n\" NoiseMap(0.65, { (0.0, 1e20, Reset(\"a\")) (-1e300, -5, Reset(\"b\")) })\n"
                                "\"z\" NoiseMap(0.65, { (1e20, 1e300, Reset(\"c\")) })",
                                &err);
  CHECK(f != NULL);
  if (f) {
    strata_tilemap *m = strata_tilemap_new(7, 5, NULL, &err);
    for (size_t i = 0; i < 2; i++) {
      strata_rng rng;
      strata_rng_seed(&rng, 3);
      strata_layout_result res;
      char why[64];
      CHECK(strata_layout_run(strata_layout_at(f, i), m, &rng, &res, why, sizeof why, &err) == STRATA_OK);
    }
    int a = 0, b = 0, c = 0;
    for (int y = 0; y < 5; y++)
      for (int x = 0; x < 7; x++) a += has(m, x, y, "a"), b += has(m, x, y, "b"), c += has(m, x, y, "c");
    CHECK_EQ_INT(a, 35);
    CHECK_EQ_INT(b, 0);
    CHECK_EQ_INT(c, 0);
    strata_tilemap_free(m);
    strata_layout_file_free(f);
  }
}

/* Files far larger than any real one: read in linear time and memory (names
** and macros are looked up by hash, a string's buffer is its own length), or
** stopped by the expansion limit. Before, 4,000 layouts took 1.8 GB, 200,000
** never finished, and so did 200,000 macros or 50,000 nested calls. */
static void test_large_files(void) {
  enum { N = 50000 };
  size_t cap = (size_t)N * 64 + 256, n = 0;
  char *text = malloc(cap);
  CHECK(text != NULL);
  if (text == NULL) return;
  strata_error err;
  /* N macros, N layouts that use them (one inherits, one modifies) */
  for (int i = 0; i < N; i++) n += (size_t)snprintf(text + n, cap - n, "Def M%d() Set(\"a%d\") End\n", i, i);
  for (int i = 0; i < N; i++) n += (size_t)snprintf(text + n, cap - n, "\"l%d\" M%d()\n", i, N - 1 - i);
  n += (size_t)snprintf(text + n, cap - n, "\"x\" inherit \"l7\" Set(\"x\") \"l9\" modify M3()\n");
  strata_layout_file *f = strata_layout_file_parse(text, n, "big", &err);
  CHECK(f != NULL);
  if (f) {
    CHECK_EQ_INT(strata_layout_count(f), N + 1);
    CHECK(strata_layout_find(f, "l49999") != NULL && strata_layout_find(f, "x") != NULL);
    strata_tilemap *m = strata_tilemap_new(2, 2, NULL, &err);
    strata_rng rng;
    strata_rng_seed(&rng, 1);
    strata_layout_result res;
    char why[64];
    CHECK(strata_layout_run(strata_layout_find(f, "l9"), m, &rng, &res, why, sizeof why, &err) == STRATA_OK);
    CHECK(has(m, 1, 1, "a3"));
    strata_tilemap_free(m);
    strata_layout_file_free(f);
  }
  /* a duplicate at the end, of a layout and of a macro */
  size_t base = n;
  n += (size_t)snprintf(text + n, cap - n, "\"l12345\" None\n");
  strata_error_clear(&err);
  CHECK(strata_layout_file_parse(text, n, "big", &err) == NULL);
  CHECK(strstr(err.message, "duplicate layout name 'l12345'") != NULL);
  n = base;
  n += (size_t)snprintf(text + n, cap - n, "Def M4321() None End\n");
  CHECK(strata_layout_file_parse(text, n, "big", &err) == NULL);
  CHECK(strstr(err.message, "macro M4321 with 0 parameters is defined twice (first at line 4322)") != NULL);
  /* N nested calls of a macro with the wrong arity: each reads its
  ** arguments to the end, N^2 / 2 tokens in all */
  n = (size_t)snprintf(text, cap, "Def M(a, b) a End\n\"x\" ");
  for (int i = 0; i < N; i++) n += (size_t)snprintf(text + n, cap - n, "M(");
  for (int i = 0; i < N; i++) n += (size_t)snprintf(text + n, cap - n, ")");
  strata_error_clear(&err);
  CHECK(strata_layout_file_parse(text, n, "nest", &err) == NULL);
  CHECK(strstr(err.message, "nest:2:") == err.message);
  CHECK(strstr(err.message, "macro expansion too large at M (called on line 2)") != NULL);
  free(text);
}

/* Every layout of the corpus, once, at a size the game uses (80x80 for the
** big ones would be slow under the sanitizers: 40x40 shows the same code). */
static void test_corpus(void) {
  size_t len;
  char *text = read_corpus(&len);
  CHECK(text != NULL);
  if (text == NULL) return;
  strata_error err;
  strata_layout_file *f = strata_layout_file_parse(text, len, "random_layouts.txt", &err);
  CHECK(f != NULL);
  if (f) {
    CHECK_EQ_INT(strata_layout_count(f), 48);
    int ok = 0;
    for (size_t i = 0; i < strata_layout_count(f); i++) {
      const char *name = strata_layout_name(f, i);
      int big = strncmp(name, "world_map", 9) == 0;
      strata_tilemap *m = strata_tilemap_new(big ? 100 : 40, big ? 65 : 40, NULL, &err);
      strata_rng rng;
      strata_rng_seed(&rng, i + 1);
      strata_layout_result res;
      char why[128];
      strata_status st = strata_layout_run(strata_layout_at(f, i), m, &rng, &res, why, sizeof why, &err);
      if (st) fprintf(stderr, "%s: %s\n", name, err.message);
      CHECK(st == STRATA_OK || strstr(err.message, "does not fit") || strstr(err.message, "outside"));
      ok += st == STRATA_OK && res == STRATA_LAYOUT_OK;
      strata_tilemap_free(m);
    }
    CHECK(ok >= 24);
  }
  strata_layout_file_free(f);
  free(text);
}

/* Whether maps a and b hold the same token names, cell by cell, in order. */
static int same_maps(strata_tilemap *a, strata_tilemap *b) {
  int w = strata_tilemap_width(a), h = strata_tilemap_height(a);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      strata_token sa[64], sb[64];
      size_t na = strata_tilemap_stack(a, x, y, sa, 64), nb = strata_tilemap_stack(b, x, y, sb, 64);
      if (na != nb) return 0;
      for (size_t k = 0; k < na && k < 64; k++) {
        size_t la, lb;
        const char *ta = strata_tokens_name(strata_tilemap_tokens(a), sa[k], &la);
        const char *tb = strata_tokens_name(strata_tilemap_tokens(b), sb[k], &lb);
        if (la != lb || memcmp(ta, tb, la) != 0) return 0;
      }
    }
  return 1;
}

/* Runs g with the same seed on a fresh map (its tokens get ids below 64: the
** token-bit paths) and on a map whose table already holds 64 other tokens
** (ids of 64 and up: the general paths); both must give the same map. */
static void check_paths_agree(const char *name, const strata_layout_gen *g, int w, int h, uint64_t seed) {
  strata_error err;
  strata_tokens *crowded = strata_tokens_new(&err);
  char filler[sizeof "filler-2147483648"]; /* room for any int: gcc checks the whole range */
  for (int i = 0; i < 64; i++) {
    snprintf(filler, sizeof filler, "filler%d", i);
    strata_tokens_intern(crowded, filler, strlen(filler), &err);
  }
  strata_tilemap *fast = strata_tilemap_new(w, h, NULL, &err);
  strata_tilemap *slow = strata_tilemap_new(w, h, crowded, &err);
  strata_layout_result r1 = STRATA_LAYOUT_OK, r2 = STRATA_LAYOUT_FAILED;
  strata_status s1, s2;
  strata_rng rng;
  strata_rng_seed(&rng, seed);
  s1 = strata_layout_run(g, fast, &rng, &r1, NULL, 0, &err);
  uint64_t after1 = strata_rng_u64(&rng);
  strata_rng_seed(&rng, seed);
  s2 = strata_layout_run(g, slow, &rng, &r2, NULL, 0, &err);
  uint64_t after2 = strata_rng_u64(&rng);
  /* a configuration error (some layouts do not fit 40x40) must come alike */
  int same = s1 == s2 && (s1 != STRATA_OK || (r1 == r2 && after1 == after2 && same_maps(fast, slow)));
  if (!same) fprintf(stderr, "layout %s: the token-bit and general paths differ (seed %llu)\n", name,
                     (unsigned long long)seed);
  CHECK(same);
  strata_tilemap_free(fast);
  strata_tilemap_free(slow);
  strata_tokens_release(crowded);
}

static void test_paths_agree(void) {
  strata_error err;
  /* the forms the fast paths treat apart: flat And/Or, clause lists (Not Or,
  ** Not And, nested And), And() and Or(), Area on On, Remove of a duplicate,
  ** FloodFill with an edit, SetFront, and a predicate that draws; And of
  ** one-test terms (Translates on and off the map, branches that change a
  ** bit the terms read or not) and Area with branches that change the
  ** counted token or not */
  strata_layout_file *f = parse(
      "\"p\" { Filter(Chance(0.5), Set(\"a\"), Set(\"b\")) Filter(Chance(0.3), Set(\"c\"))\n"
      "  Filter(And(Not Or(On(\"c\"), On(\"d\")), Or(On(\"a\"), On(\"e\")), Not And(On(\"a\"), On(\"b\"))), Set(\"f\"))\n"
      "  Filter(And(And(On(\"a\"), Not On(\"c\")), Not Not On(\"f\")), Reset(\"g\", \"g\", \"a\"))\n"
      "  Filter(Or(And(On(\"a\"), On(\"c\")), Not Or()), Set(\"h\"))\n"
      "  Filter(And(), Set(\"i\")) Filter(Or(), Set(\"never\"))\n"
      "  Filter(Area(1, On(\"c\"), 3), Set(\"j\")) Filter(Area(1, And(On(\"a\"), Chance(0.5)), 2), Set(\"k\"))\n"
      "  Remove(\"g\") Filter(On(\"g\"), SetFront(\"l\"))\n"
      "  Position(MIDDLE, {1 1}, FloodFill(And(Not On(\"c\"), Or(On(\"a\"), On(\"b\"))), Set(\"m\")))\n"
      "  FloodFill(And(On(\"c\"), Chance(0.7)), Remove(\"c\", \"a\"))\n"
      "  Margins(1, None, Filter(And(On(\"a\"), Not On(\"b\"), Translate({1 0}, On(\"c\")), Translate({0 -1}, Not On(\"j\"))), Set(\"n\"), Remove(\"k\")))\n"
      "  Margins(1, None, Filter(And(Translate({-1 0}, On(\"a\")), Not On(\"n\")), Set(\"a\"), Remove(\"a\")))\n"
      "  Filter(And(On(\"b\"), Translate({0 1}, On(\"a\"))), Set(\"o\"))\n"
      "  Filter(Area(2, On(\"a\"), 7), Set(\"p\"), Remove(\"b\")) Filter(Area(1, On(\"p\"), 4), Remove(\"p\"), Set(\"p\")) }\n", &err);
  CHECK(f != NULL);
  if (f)
    for (uint64_t seed = 1; seed <= 20; seed++) check_paths_agree("p", strata_layout_find(f, "p"), 17, 13, seed);
  strata_layout_file_free(f);

  size_t len;
  char *text = read_corpus(&len);
  if (text == NULL) return; /* test_corpus reports it */
  f = strata_layout_file_parse(text, len, "random_layouts.txt", &err);
  for (size_t i = 0; f && i < strata_layout_count(f); i++) {
    const char *name = strata_layout_name(f, i);
    if (strncmp(name, "world_map", 9) == 0) continue; /* slow under the sanitizers; same generators */
    check_paths_agree(name, strata_layout_at(f, i), 40, 40, i + 7);
  }
  strata_layout_file_free(f);
  free(text);
}

/* A token table of kind k: 0 empty (small ids in the order the run interns
** them), 1 holding 64 other tokens (no small id), 2 holding 60 (the run's
** first four ids are small, the rest not), 3 holding `names` in reverse order
** (small ids, in another order). */
static strata_tokens *table_of_kind(int k, const char *const *names, size_t nnames) {
  strata_error err;
  strata_tokens *t = strata_tokens_new(&err);
  char filler[24];
  for (int i = 0; i < (k == 1 ? 64 : k == 2 ? 60 : 0); i++) {
    snprintf(filler, sizeof filler, "filler%d", i);
    strata_tokens_intern(t, filler, strlen(filler), &err);
  }
  for (size_t i = nnames; k == 3 && i > 0; i--) strata_tokens_intern(t, names[i - 1], strlen(names[i - 1]), &err);
  return t;
}

/* A file keeps the forms its runs make from interned ids (token bits, the
** one test, an And's terms) while the ids stay the same: one file run on
** tables that give its tokens other ids, some or all, in turns and skipping
** branches (Choose), must make the maps a file parsed anew for each run
** makes. */
static void test_kept_forms(void) {
  static const char *const names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"};
  const char *text =
      "\"k\" { Choose(Set(\"a\"), Set(\"b\"), Set(\"c\"), None)\n"
      "  Choose(Filter(On(\"a\"), Set(\"d\")), Filter(Or(On(\"b\"), On(\"c\")), Set(\"e\")), Filter(Chance(0.4), Set(\"k\")))\n"
      "  Filter(Chance(0.5), Set(\"a\"))\n"
      "  Filter(And(Not On(\"d\"), Translate({1 0}, On(\"a\"))), Set(\"f\"))\n"
      "  Filter(And(Or(On(\"e\"), On(\"k\")), Translate({0 1}, Not On(\"f\")), Chance(0.6)), Set(\"g\"))\n"
      "  Filter(And(Not Or(On(\"f\"), On(\"g\")), Not And(On(\"a\"), On(\"k\"))), Set(\"h\"), Set(\"i\"))\n"
      "  FloodFill(And(On(\"h\"), Not On(\"a\")), Set(\"j\")) }\n";
  strata_error err;
  strata_layout_file *kept = parse(text, &err);
  CHECK(kept != NULL);
  if (kept == NULL) return;
  int differ = 0;
  for (uint64_t seed = 1; seed <= 60; seed++) {
    int kind = (int)((seed * 7 + seed / 5) % 4);
    strata_layout_file *fresh = parse(text, &err);
    strata_tokens *t1 = table_of_kind(kind, names, sizeof names / sizeof *names);
    strata_tokens *t2 = table_of_kind(kind, names, sizeof names / sizeof *names);
    strata_tilemap *m1 = strata_tilemap_new(13, 11, t1, &err), *m2 = strata_tilemap_new(13, 11, t2, &err);
    strata_rng rng;
    strata_layout_result r1 = STRATA_LAYOUT_OK, r2 = STRATA_LAYOUT_FAILED;
    strata_rng_seed(&rng, seed);
    strata_status s1 = strata_layout_run(strata_layout_find(kept, "k"), m1, &rng, &r1, NULL, 0, &err);
    uint64_t after1 = strata_rng_u64(&rng);
    strata_rng_seed(&rng, seed);
    strata_status s2 = strata_layout_run(strata_layout_find(fresh, "k"), m2, &rng, &r2, NULL, 0, &err);
    uint64_t after2 = strata_rng_u64(&rng);
    if (!(s1 == STRATA_OK && s2 == STRATA_OK && r1 == r2 && after1 == after2 && same_maps(m1, m2))) {
      fprintf(stderr, "kept forms: seed %llu, table kind %d: not the maps of a fresh file\n",
              (unsigned long long)seed, kind);
      differ++;
    }
    strata_tilemap_free(m1), strata_tilemap_free(m2);
    strata_tokens_release(t1), strata_tokens_release(t2);
    strata_layout_file_free(fresh);
  }
  CHECK_EQ_INT(differ, 0);
  strata_layout_file_free(kept);
}

/* FNV-1a over bytes (as bench_layout --hash). */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* The maps of the whole corpus for a few seeds, hashed (cells' token names in
** stack order, the results, the generator's state after each run), against
** the hash of the maps the layouts made before the fast paths of
** layout_noise.c, layout_connect.c and the predicates' terms: those paths
** must make the same maps for the same seeds. A change that means to draw
** otherwise updates GOLDEN, and says so (docs/benchmarks.md, layouts). For
** 20 seeds at the game's sizes: bench_layout --hash, run before and after. */
static void test_golden(void) {
  const uint64_t GOLDEN = 0x33e062fa857ae93cull;
  size_t len;
  char *text = read_corpus(&len);
  if (text == NULL) return; /* test_corpus reports it */
  strata_error err;
  strata_layout_file *f = strata_layout_file_parse(text, len, "random_layouts.txt", &err);
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; f && i < strata_layout_count(f); i++) {
    const char *name = strata_layout_name(f, i);
    int big = strncmp(name, "world_map", 9) == 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
      strata_tilemap *m = strata_tilemap_new(big ? 60 : 40, 40, NULL, &err);
      strata_rng rng;
      strata_rng_seed(&rng, seed);
      strata_layout_result res = STRATA_LAYOUT_OK;
      strata_status st = strata_layout_run(strata_layout_at(f, i), m, &rng, &res, NULL, 0, &err);
      int code = st ? -1 : (int)res;
      uint64_t after = strata_rng_u64(&rng);
      h = fnv(fnv(h, &code, sizeof code), &after, sizeof after);
      const strata_tokens *t = strata_tilemap_tokens(m);
      for (int x = 0; x < strata_tilemap_width(m); x++)
        for (int y = 0; y < strata_tilemap_height(m); y++) {
          strata_token stack[64];
          size_t n = strata_tilemap_stack(m, x, y, stack, 64);
          h = fnv(h, &n, sizeof n);
          for (size_t k = 0; k < n && k < 64; k++) {
            size_t l;
            const char *tok = strata_tokens_name(t, stack[k], &l);
            h = fnv(fnv(h, tok, l), "", 1);
          }
        }
      strata_tilemap_free(m);
    }
  }
  if (h != GOLDEN) fprintf(stderr, "corpus maps hash %016llx, expected %016llx\n", (unsigned long long)h,
                           (unsigned long long)GOLDEN);
  CHECK(h == GOLDEN);
  strata_layout_file_free(f);
  free(text);
}

int main(void) {
  test_basics();
  test_errors();
  test_corpus();
  test_fuzz_findings();
  test_large_files();
  test_paths_agree();
  test_kept_forms();
  test_golden();
  return check_summary("layout");
}
