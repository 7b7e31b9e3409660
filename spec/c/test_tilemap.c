/* test_tilemap.c - token tables, cell stacks, rendering. */
#include <stdlib.h>

#include "check.h"
#include "strata/strata.h"
#include "tilemap_internal.h" /* tilemap_restore */

static strata_token tok(strata_tokens *t, const char *name) {
  return strata_tokens_intern(t, name, strlen(name), NULL);
}

static void test_tokens(void) {
  strata_error err;
  strata_tokens *t = strata_tokens_new(&err);
  strata_token floor = tok(t, "floor"), wall = tok(t, "wall");
  CHECK(floor != 0 && wall != 0 && floor != wall);
  CHECK_EQ_INT(tok(t, "floor"), floor);
  CHECK_EQ_INT(strata_tokens_find(t, "wall", 4), wall);
  CHECK_EQ_INT(strata_tokens_find(t, "lava", 4), 0);
  CHECK_STR(strata_tokens_name(t, wall, NULL), "wall");
  CHECK(strata_tokens_name(t, 99, NULL) == NULL);
  CHECK_EQ_INT(strata_tokens_intern(t, "", 0, &err), 0);
  CHECK_EQ_INT(err.status, STRATA_EARG);
  char longname[300];
  memset(longname, 'a', sizeof longname);
  CHECK_EQ_INT(strata_tokens_intern(t, longname, sizeof longname, &err), 0);
  CHECK_HAS(err.message, "at most");
  /* Many names force the index to grow; every id stays findable. */
  char name[32];
  for (int i = 0; i < 5000; i++) {
    snprintf(name, sizeof name, "t%d", i);
    CHECK(tok(t, name) == (strata_token)(i + 3));
  }
  for (int i = 0; i < 5000; i += 97) {
    snprintf(name, sizeof name, "t%d", i);
    CHECK_EQ_INT(strata_tokens_find(t, name, strlen(name)), i + 3);
  }
  const strata_token_traits *tr = strata_tokens_traits(t, floor);
  CHECK(tr->passable && tr->cost == 1.0);
  CHECK_STR(tr->glyph, "f");
  strata_token_traits w = {0, 1, "#", "grey", 0};
  CHECK_EQ_INT(strata_tokens_define(t, "wall", 4, &w, &err), STRATA_OK);
  CHECK(!strata_tokens_traits(t, wall)->passable);
  CHECK_STR(strata_tokens_traits(t, wall)->glyph, "#");
  strata_token_traits bad = {1, -2, "x", "", 0};
  CHECK_EQ_INT(strata_tokens_define(t, "mud", 3, &bad, &err), STRATA_EARG);
  CHECK_HAS(err.message, "positive");
  strata_token_traits two = {1, 1, "ab", "", 0};
  CHECK_EQ_INT(strata_tokens_define(t, "mud", 3, &two, &err), STRATA_EARG);
  strata_token_traits utf = {1, 3, "\xe2\x89\x88", "", 0}; /* ≈ */
  CHECK_EQ_INT(strata_tokens_define(t, "water", 5, &utf, &err), STRATA_OK);
  strata_tokens *copy = strata_tokens_clone(t, &err);
  CHECK_EQ_INT(strata_tokens_find(copy, "wall", 4), wall);
  CHECK(!strata_tokens_traits(copy, wall)->passable);
  strata_tokens_release(copy);
  strata_tokens_release(t);
}

static void test_stacks(void) {
  strata_error err;
  strata_tilemap *m = strata_tilemap_new(0, 5, NULL, &err);
  CHECK(m == NULL);
  CHECK_HAS(err.message, "out of range");
  m = strata_tilemap_new(5, 4, NULL, &err);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token a = tok(t, "a"), b = tok(t, "b"), c = tok(t, "c");
  strata_token buf[8];
  CHECK_EQ_INT(strata_tilemap_stack(m, 1, 1, buf, 8), 0);
  CHECK_EQ_INT(strata_tilemap_set(m, 1, 1, a, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_set(m, 1, 1, b, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_add_front(m, 1, 1, c, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_stack(m, 1, 1, buf, 8), 3);
  CHECK(buf[0] == c && buf[1] == a && buf[2] == b);
  CHECK_EQ_INT(strata_tilemap_top(m, 1, 1), b);
  CHECK(strata_tilemap_has(m, 1, 1, a));
  CHECK(!strata_tilemap_has(m, 2, 1, a));
  for (int i = 0; i < 20; i++) CHECK_EQ_INT(strata_tilemap_set(m, 1, 1, a, &err), STRATA_OK);
  int removed = 0;
  CHECK_EQ_INT(strata_tilemap_remove(m, 1, 1, a, &removed, &err), STRATA_OK);
  CHECK_EQ_INT(removed, 21);
  CHECK_EQ_INT(strata_tilemap_stack(m, 1, 1, buf, 8), 2);
  CHECK(buf[0] == c && buf[1] == b);
  CHECK_EQ_INT(strata_tilemap_remove(m, 1, 1, c, &removed, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_stack(m, 1, 1, buf, 8), 1);
  CHECK_EQ_INT(strata_tilemap_reset(m, 1, 1, a, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_top(m, 1, 1), a);
  CHECK_EQ_INT(strata_tilemap_set(m, 5, 0, a, &err), STRATA_EARG);
  CHECK_HAS(err.message, "(5, 0) is outside the 5x4 map");
  CHECK_EQ_INT(strata_tilemap_set(m, 0, -1, a, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_tilemap_set(m, 0, 0, 77, &err), STRATA_EARG);
  CHECK_HAS(err.message, "token id 77");
  CHECK_EQ_INT(strata_tilemap_set(m, 0, 0, 0, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_tilemap_fill_rect(m, -2, -2, 4, 4, b, 1, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_top(m, 1, 1), b);
  CHECK_EQ_INT(strata_tilemap_stack(m, 1, 1, NULL, 0), 2);
  CHECK_EQ_INT(strata_tilemap_stack(m, 2, 2, NULL, 0), 0);
  CHECK_EQ_INT(strata_tilemap_clear(m, c, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_stack(m, 1, 1, buf, 8), 1);
  CHECK_EQ_INT(buf[0], c);
  /* One token per cell costs one word per cell: no side stacks. */
  CHECK(strata_tilemap_memory(m) < 5 * 4 * 4 + 512);
  strata_tilemap_free(m);
}

static void test_render(void) {
  strata_error err;
  strata_tilemap *m = strata_tilemap_new(4, 2, NULL, &err);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits w = {0, 1, "#", "", 0};
  strata_tokens_define(t, "wall", 4, &w, &err);
  strata_tilemap_clear(m, tok(t, "floor"), &err);
  strata_tilemap_reset(m, 3, 0, tok(t, "wall"), &err);
  strata_tilemap_reset(m, 0, 1, 0, &err);
  strata_token_traits water = {1, 2, "\xe2\x89\x88", "", 0};
  strata_tokens_define(t, "water", 5, &water, &err);
  strata_tilemap_set(m, 1, 1, tok(t, "water"), &err);
  char *text = NULL;
  size_t len = 0;
  CHECK_EQ_INT(strata_tilemap_render(m, NULL, &text, &len, &err), STRATA_OK);
  CHECK_STR(text, "fff#\n \xe2\x89\x88" "ff\n");
  CHECK_EQ_INT(len, strlen(text));
  strata_free(text);
  strata_path p;
  strata_path_init(&p);
  uint32_t cells[] = {0, 1, 5};
  p.nodes = cells;
  p.len = 3;
  const char *glyphs[] = {NULL, NULL, ","}; /* wall is id 1, floor id 2 */
  strata_render_options ro = {&p, "@", glyphs, 3};
  CHECK_EQ_INT(strata_tilemap_render(m, &ro, &text, &len, &err), STRATA_OK);
  CHECK_STR(text, "@@,#\n @,,\n");
  strata_free(text);
  uint32_t outside[] = {8};
  p.nodes = outside;
  p.len = 1;
  CHECK_EQ_INT(strata_tilemap_render(m, &ro, &text, &len, &err), STRATA_EARG);
  CHECK(!strata_tilemap_passable(m, 3, 0));
  CHECK(!strata_tilemap_passable(m, 0, 1));
  CHECK_NEAR(strata_tilemap_cost(m, 1, 1), 2.0, 0);
  strata_tilemap_free(m);
}

/* The map, not its holder, knows whether its token table is its own. */
static void test_private_tokens(void) {
  strata_error err;
  strata_tokens *shared = strata_tokens_new(&err);
  strata_token wall = tok(shared, "wall");
  strata_tilemap *a = strata_tilemap_new(3, 3, shared, &err), *b = strata_tilemap_new(3, 3, NULL, &err);
  CHECK(!strata_tilemap_has_private_tokens(a));
  CHECK(strata_tilemap_has_private_tokens(b));
  strata_tokens *own_b = strata_tilemap_tokens(b);
  CHECK_EQ_INT(strata_tilemap_own_tokens(b, &err), STRATA_OK); /* private already: no copy */
  CHECK(strata_tilemap_tokens(b) == own_b);
  CHECK_EQ_INT(strata_tilemap_own_tokens(a, &err), STRATA_OK);
  CHECK(strata_tilemap_has_private_tokens(a));
  strata_tokens *own_a = strata_tilemap_tokens(a);
  CHECK(own_a != shared);
  CHECK_EQ_INT(strata_tokens_find(own_a, "wall", 4), wall);
  CHECK_EQ_INT(strata_tilemap_own_tokens(a, &err), STRATA_OK); /* once only */
  CHECK(strata_tilemap_tokens(a) == own_a);
  strata_token_traits solid = {0, 1, "#", "", 0};
  strata_tokens_define(own_a, "wall", 4, &solid, &err);
  CHECK(strata_tokens_traits(shared, wall)->passable);
  strata_tilemap_free(a);
  strata_tilemap_free(b);
  strata_tokens_release(shared);
}

/* Nonzero when every cell of a and b holds the same stack. */
static int same_cells(const strata_tilemap *a, const strata_tilemap *b) {
  if (strata_tilemap_width(a) != strata_tilemap_width(b) ||
      strata_tilemap_height(a) != strata_tilemap_height(b)) return 0;
  strata_token sa[64], sb[64];
  for (int y = 0; y < strata_tilemap_height(a); y++)
    for (int x = 0; x < strata_tilemap_width(a); x++) {
      size_t na = strata_tilemap_stack(a, x, y, sa, 64), nb = strata_tilemap_stack(b, x, y, sb, 64);
      if (na != nb || memcmp(sa, sb, na * sizeof *sa) != 0) return 0;
    }
  return 1;
}

/* A clone is independent of its source; tilemap_restore puts a clone's
** contents back into the source, which keeps its address. */
static void test_clone_restore(void) {
  strata_error err;
  strata_tilemap *m = strata_tilemap_new(6, 4, NULL, &err);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token floor = tok(t, "floor"), wall = tok(t, "wall"), coin = tok(t, "coin");
  strata_tilemap_clear(m, floor, &err);
  for (int x = 0; x < 6; x++) strata_tilemap_set(m, x, 0, wall, &err); /* small stacks */
  for (int i = 0; i < 9; i++) strata_tilemap_set(m, 2, 2, coin, &err); /* a large one */
  strata_tilemap_set(m, 3, 3, coin, &err);
  strata_tilemap_remove(m, 3, 3, coin, NULL, &err); /* a free stack slot */
  strata_tilemap *c = strata_tilemap_clone(m, &err);
  CHECK(c != NULL && same_cells(m, c));
  CHECK(strata_tilemap_has_private_tokens(c));
  CHECK(strata_tilemap_tokens(c) != t);
  CHECK_EQ_INT(strata_tokens_find(strata_tilemap_tokens(c), "coin", 4), coin);
  /* Edits of either side stay there, small and large stacks alike. */
  strata_tilemap_set(c, 0, 0, coin, &err);
  strata_tilemap_set(c, 2, 2, wall, &err);
  strata_tilemap_set(c, 5, 3, coin, &err);
  strata_tilemap_set(m, 4, 1, coin, &err);
  CHECK_EQ_INT(strata_tilemap_stack(m, 0, 0, NULL, 0), 2);
  CHECK_EQ_INT(strata_tilemap_stack(c, 0, 0, NULL, 0), 3);
  CHECK_EQ_INT(strata_tilemap_top(m, 2, 2), coin);
  CHECK_EQ_INT(strata_tilemap_top(c, 2, 2), wall);
  strata_token_traits solid = {0, 1, "#", "", 0};
  strata_tokens_define(strata_tilemap_tokens(c), "floor", 5, &solid, &err);
  CHECK(strata_tokens_traits(t, floor)->passable);
  /* A search builds caches on m, which the restore must not trust. */
  strata_path p;
  strata_path_init(&p);
  CHECK_EQ_INT(strata_tilemap_find_path(m, 0, 1, 5, 3, NULL, &p, &err), STRATA_OK);
  CHECK(p.len > 0);
  strata_tilemap *expect = strata_tilemap_clone(c, &err);
  uint64_t rev = strata_tilemap_revision(m);
  tilemap_restore(m, c); /* frees c */
  CHECK(same_cells(m, expect));
  CHECK(strata_tilemap_revision(m) > rev);
  CHECK(strata_tilemap_has_private_tokens(m));
  CHECK(!strata_tokens_traits(strata_tilemap_tokens(m), floor)->passable);
  CHECK_EQ_INT(strata_tilemap_find_path(m, 0, 1, 5, 3, NULL, &p, &err), STRATA_OK);
  CHECK_EQ_INT(p.len, 0); /* floors are walls now */
  /* The restored map takes edits like any other. */
  for (int i = 0; i < 6; i++) CHECK_EQ_INT(strata_tilemap_set(m, i, 3, wall, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_stack(m, 5, 3, NULL, 0), 3);
  strata_path_free(&p);
  /* A shared table stays shared by the clone. */
  strata_tokens *shared = strata_tokens_new(&err);
  strata_tilemap *s = strata_tilemap_new(2, 2, shared, &err), *sc = strata_tilemap_clone(s, &err);
  CHECK(strata_tilemap_tokens(sc) == shared && !strata_tilemap_has_private_tokens(sc));
  strata_tilemap_free(sc);
  strata_tilemap_free(s);
  strata_tokens_release(shared);
  strata_tilemap_free(expect);
  strata_tilemap_free(m);
}

int main(void) {
  test_tokens();
  test_private_tokens();
  test_clone_restore();
  test_stacks();
  test_render();
  return check_summary("tilemap");
}
