/* test_tilemap.c - token tables, cell stacks, rendering. */
#include <stdlib.h>

#include "check.h"
#include "strata/strata.h"

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
  strata_token_traits w = {0, 1, "#", "grey"};
  CHECK_EQ_INT(strata_tokens_define(t, "wall", 4, &w, &err), STRATA_OK);
  CHECK(!strata_tokens_traits(t, wall)->passable);
  CHECK_STR(strata_tokens_traits(t, wall)->glyph, "#");
  strata_token_traits bad = {1, -2, "x", ""};
  CHECK_EQ_INT(strata_tokens_define(t, "mud", 3, &bad, &err), STRATA_EARG);
  CHECK_HAS(err.message, "positive");
  strata_token_traits two = {1, 1, "ab", ""};
  CHECK_EQ_INT(strata_tokens_define(t, "mud", 3, &two, &err), STRATA_EARG);
  strata_token_traits utf = {1, 3, "\xe2\x89\x88", ""}; /* ≈ */
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
  strata_token_traits w = {0, 1, "#", ""};
  strata_tokens_define(t, "wall", 4, &w, &err);
  strata_tilemap_clear(m, tok(t, "floor"), &err);
  strata_tilemap_reset(m, 3, 0, tok(t, "wall"), &err);
  strata_tilemap_reset(m, 0, 1, 0, &err);
  strata_token_traits water = {1, 2, "\xe2\x89\x88", ""};
  strata_tokens_define(t, "water", 5, &water, &err);
  strata_tilemap_set(m, 1, 1, tok(t, "water"), &err);
  char *text = NULL;
  size_t len = 0;
  CHECK_EQ_INT(strata_tilemap_render(m, NULL, &text, &len, &err), STRATA_OK);
  CHECK_STR(text, "fff#\n \xe2\x89\x88" "ff\n");
  CHECK_EQ_INT(len, strlen(text));
  free(text);
  strata_path p;
  strata_path_init(&p);
  uint32_t cells[] = {0, 1, 5};
  p.nodes = cells;
  p.len = 3;
  const char *glyphs[] = {NULL, NULL, ","}; /* wall is id 1, floor id 2 */
  strata_render_options ro = {&p, "@", glyphs, 3};
  CHECK_EQ_INT(strata_tilemap_render(m, &ro, &text, &len, &err), STRATA_OK);
  CHECK_STR(text, "@@,#\n @,,\n");
  free(text);
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
  strata_token_traits solid = {0, 1, "#", ""};
  strata_tokens_define(own_a, "wall", 4, &solid, &err);
  CHECK(strata_tokens_traits(shared, wall)->passable);
  strata_tilemap_free(a);
  strata_tilemap_free(b);
  strata_tokens_release(shared);
}

int main(void) {
  test_tokens();
  test_private_tokens();
  test_stacks();
  test_render();
  return check_summary("tilemap");
}
