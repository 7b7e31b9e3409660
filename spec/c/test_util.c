/*
** test_util.c - the core's small shared helpers (util.h, error.h): the growth
** of arrays, the "nearest known" suggestions, the out-of-memory error.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "strata/alloc.h"
#include "strata/error.h"
#include "util.h"

/* An allocator that fails when told to, counting what it was asked. */
typedef struct { int fail; size_t asked; } fail_state;
static void *f_malloc(void *ud, size_t n) {
  fail_state *s = ud;
  s->asked = n;
  return s->fail ? NULL : malloc(n ? n : 1);
}
static void *f_realloc(void *ud, void *p, size_t n) {
  fail_state *s = ud;
  s->asked = n;
  return s->fail ? NULL : realloc(p, n ? n : 1);
}
static void f_free(void *ud, void *p) { (void)ud; free(p); }

static void test_grow(fail_state *s) {
  uint32_t *v = NULL;
  size_t cap = 0;
  CHECK(strata_grow(&v, &cap, 1, sizeof *v));
  CHECK(v != NULL && cap >= 1);
  size_t before = cap;
  CHECK(strata_grow(&v, &cap, cap, sizeof *v)); /* room enough: nothing asked */
  CHECK_EQ_INT(cap, before);
  v[0] = 7;
  CHECK(strata_grow(&v, &cap, before + 1, sizeof *v));
  CHECK(cap >= 2 * before); /* doubles, so n pushes cost O(n) */
  CHECK_EQ_INT(v[0], 7);
  CHECK(strata_grow(&v, &cap, 1000, sizeof *v));
  CHECK(cap >= 1000);

  /* Memory runs out: the block and its capacity stay as they were. */
  uint32_t *keep = v;
  size_t keep_cap = cap;
  s->fail = 1;
  CHECK(!strata_grow(&v, &cap, cap + 1, sizeof *v));
  s->fail = 0;
  CHECK(v == keep);
  CHECK_EQ_INT(cap, keep_cap);
  CHECK_EQ_INT(v[0], 7);

  /* A size that overflows is refused before the allocator is asked. */
  s->asked = 0;
  CHECK(!strata_grow(&v, &cap, SIZE_MAX / 2, sizeof *v));
  CHECK(!strata_grow(&v, &cap, SIZE_MAX / 2 + 1, 2));
  CHECK_EQ_INT(s->asked, 0);
  CHECK(v == keep);
  CHECK_EQ_INT(cap, keep_cap);
  /* Doubling that would overflow stops at what is needed. */
  size_t huge = SIZE_MAX / 2 + 2, huge_cap = huge - 1;
  char *c = NULL;
  s->fail = 1;
  CHECK(!strata_grow(&c, &huge_cap, huge, 1));
  CHECK_EQ_INT(s->asked, huge);
  s->fail = 0;
  strata_free(v);
  v = NULL;

  /* A 32-bit capacity: never past UINT32_MAX, what doubling would pass. */
  uint32_t cap32 = UINT32_MAX / 2 + 1;
  s->fail = 1, s->asked = 0;
  CHECK(!strata_grow32(&c, &cap32, (size_t)UINT32_MAX / 2 + 2, 1));
  CHECK_EQ_INT(s->asked, (size_t)UINT32_MAX / 2 + 2);
  s->asked = 0;
  CHECK(!strata_grow32(&c, &cap32, (size_t)UINT32_MAX + 1, 1));
  CHECK_EQ_INT(s->asked, 0);
  CHECK_EQ_INT(cap32, UINT32_MAX / 2 + 1);
  s->fail = 0;
  cap32 = 0;
  CHECK(strata_grow32(&v, &cap32, 3, sizeof *v));
  CHECK(v != NULL && cap32 >= 3);
  strata_free(v);
}

/* The answers of lua/strata/options.lua's nearest before it called this. */
static void test_nearest(void) {
  static const struct {
    const char *name, *known[8], *near, *dist;
  } cases[] = {
    { "nmae", { "name", "desc", "clear", "props" }, "name,clear,desc", "2,4,4" },
    { "crypt.gobiln", { "crypt.rat", "crypt.goblin", "base.floor", "crypt.gob" },
      "crypt.goblin,crypt.gob,base.floor", "2,3,6" },
    { "widht", { "width", "height", "fill", "tokens" }, "width,height,fill", "2,3,4" },
    { "x", { "name", "desc", "clear", "props" }, "desc,name,clear", "4,4,5" },
    { "Sett", { "None", "Fail", "Set", "SetFront", "Reset", "Remove" }, "Set,Reset,Fail", "1,3,4" },
    { "psh", { "push" }, "push", "1" },
    { "", { "b", "a", "c", "d" }, "a,b,c", "1,1,1" },
    { "a.b.c", { "x.b.c", "a.b", "b.c" }, "x.b.c,a.b,b.c", "0,2,2" },
    { "nothing", { NULL }, "", "" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t n = 0;
    while (cases[i].known[n]) n++;
    const char *near[3];
    size_t dist[3];
    size_t got = strata_nearest(cases[i].name, cases[i].known, n, near, dist, 3);
    char names[128] = "", dists[64] = "";
    for (size_t j = 0; j < got; j++) {
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", j ? "," : "", near[j]);
      snprintf(dists + strlen(dists), sizeof dists - strlen(dists), "%s%zu", j ? "," : "", dist[j]);
    }
    CHECK_STR(names, cases[i].near);
    CHECK_STR(dists, cases[i].dist);
  }
  CHECK_EQ_INT(strata_edit_distance("kitten", "sitting"), 3);
  CHECK_EQ_INT(strata_edit_distance("", "abc"), 3);
  /* Long names: exact all the same (the Lua version had no bound). */
  char a[600], b[600];
  memset(a, 'a', 599), a[599] = 0;
  memset(b, 'a', 599), b[599] = 0;
  b[0] = 'b', b[598] = 0;
  CHECK_EQ_INT(strata_edit_distance(a, b), 2);
  /* The work bound: exact up to 2,048 x 2,048 cells, past it the longer
  ** length; a nearest call past its 16M cells answers the rest by that bound. */
  static char l1[2050], l2[2050];
  memset(l1, 'a', 2049), l1[2049] = 0;
  memset(l2, 'a', 2048), l2[2048] = 0;
  l1[0] = 'b', l1[2048] = 0;
  CHECK_EQ_INT(strata_edit_distance(l1, l2), 1);
  l1[2048] = 'a';
  CHECK_EQ_INT(strata_edit_distance(l1, l2), 2049);
  const char *known[5] = { l2, l2, l2, l2, l2 };
  const char *near[8];
  size_t dist[8];
  l1[2048] = 0;
  CHECK_EQ_INT(strata_nearest(l1, known, 5, near, dist, 8), 5);
  CHECK_EQ_INT(dist[3], 1);    /* four pairs of 4M cells: exact */
  CHECK_EQ_INT(dist[4], 2048); /* the fifth past the call's 16M: the bound */
}

static void test_nomem(void) {
  strata_error err;
  CHECK_EQ_INT(strata_error_nomem(&err, NULL), STRATA_ENOMEM);
  CHECK_STR(err.message, "out of memory");
  CHECK_EQ_INT(err.status, STRATA_ENOMEM);
  CHECK_EQ_INT(strata_error_nomem(&err, "for a %dx%d map", 3, 4), STRATA_ENOMEM);
  CHECK_STR(err.message, "out of memory for a 3x4 map");
  CHECK_EQ_INT(strata_error_nomem(NULL, NULL), STRATA_ENOMEM);
}

int main(void) {
  static fail_state s;
  strata_allocator a = { f_malloc, f_realloc, f_free, &s };
  CHECK_EQ_INT(strata_set_allocator(&a, NULL), STRATA_OK);
  test_grow(&s);
  test_nearest();
  test_nomem();
  return check_summary("util");
}
