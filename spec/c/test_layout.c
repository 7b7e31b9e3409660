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
    strata_layout_file_free(f);
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

/* Every layout of the corpus, once, at a size the game uses (80x80 for the
** big ones would be slow under the sanitizers: 40x40 shows the same code). */
static void test_corpus(void) {
  const char *shared = getenv("STRATA_SHARED_DIR");
  if (shared == NULL) shared = STRATA_SHARED_DEFAULT;
  char path[1024];
  snprintf(path, sizeof path, "%s/corpora/keeperrl/random_layouts.txt", shared);
  size_t len;
  char *text = slurp(path, &len);
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

int main(void) {
  test_basics();
  test_errors();
  test_corpus();
  return check_summary("layout");
}
