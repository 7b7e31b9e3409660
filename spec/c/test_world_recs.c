/* test_world_recs.c - the world's object records (and its pages of slots)
** come from chunks (world_recs.c): objects made one after another have their records side by
** side; making them asks the host's allocator for no block per record; a
** deleted object's record is reused by the next one made; savepoints rolled
** back (a creation undone, a deletion undone) keep the records right; and
** freeing the world gives every block back. */
#include <stdlib.h>

#include "check.h"
#include "counting_alloc.h"
#include "strata/alloc.h"
#include "strata/world.h"
#include "world_internal.h" /* object_rec */


enum { N = 5000 };

/* Makes N objects from uid first on; the allocator's calls it took. */
static long make(strata_world *w, counter *c, uint64_t *first) {
  long calls = c->calls;
  uint64_t uid;
  for (int i = 0; i < N; i++) {
    CHECK_EQ_INT(strata_world_create(w, "npc", NULL, &uid, NULL), STRATA_OK);
    if (i == 0) *first = uid;
  }
  return c->calls - calls;
}

int main(void) {
  counter c = {0, 0, 0, 0};
  strata_allocator a = { count_malloc, count_realloc, count_free, &c };
  CHECK_EQ_INT(strata_set_allocator(&a, NULL), STRATA_OK);
  strata_world *w = strata_world_new(7, NULL);
  uint64_t first, uid;

  /* one block per object (its props table), not two: the records are carved */
  long calls = make(w, &c, &first);
  CHECK(calls < N + N / 4);
  /* side by side in creation order */
  strata_object *o1 = strata_world_object(w, first), *o2 = strata_world_object(w, first + 1);
  CHECK((char *)o2 - (char *)o1 == (long)sizeof(object_rec));
  CHECK(w->page_pool.n > 0); /* the pages of slots: from a pool of their own */

  /* deleted, then made again: the records are reused, no chunk is added */
  for (int i = 0; i < N; i++) CHECK_EQ_INT(strata_world_delete(w, first + (uint64_t)i, NULL), STRATA_OK);
  size_t chunks = w->recs.n;
  make(w, &c, &first);
  CHECK_EQ_INT((long)w->recs.n, (long)chunks);

  /* a creation rolled back gives its record back; a deletion rolled back
  ** puts the object back as it was */
  CHECK_EQ_INT(strata_world_begin(w, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_world_create(w, "ghost", NULL, &uid, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_world_delete(w, first, NULL), STRATA_OK);
  strata_world_rollback(w);
  CHECK(strata_world_object(w, uid) == NULL);
  CHECK(strata_world_object(w, first) != NULL);
  CHECK_STR(strata_world_object(w, first)->kind, "npc");
  /* and a deletion kept (committed) gives it back */
  CHECK_EQ_INT(strata_world_begin(w, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_world_delete(w, first, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_world_commit(w), STRATA_OK);
  CHECK(strata_world_object(w, first) == NULL);
  CHECK_EQ_INT(strata_world_create(w, "npc", NULL, &uid, NULL), STRATA_OK);
  CHECK_EQ_INT((long)w->recs.n, (long)chunks);

  strata_world_free(w);
  CHECK_EQ_INT(c.live, 0);
  return check_summary("world_recs");
}
