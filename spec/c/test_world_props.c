/* test_world_props.c - an opened world keeps its objects' properties as the
** file's bytes until they are first read (world_props.c): the open makes no
** block per object for them; saves (incremental and full) write them back
** unread; edits of other fields and savepoints rolled back leave them as
** they were; the first read sees the tables that were saved; a read that
** runs out of memory finds no object and leaves it to a later read. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "counting_alloc.h"
#include "strata/alloc.h"
#include "strata/world.h"
#include "world_dump.h"
#include "world_internal.h" /* object_rec */


static strata_value key(const char *k) {
  strata_value v;
  strata_value_string(&v, k, strlen(k), NULL);
  return v;
}
static void set(strata_world *w, uint64_t uid, const char *k, strata_value v) {
  strata_value p = key(k);
  CHECK_EQ_INT(strata_object_set(w, uid, &p, 1, &v, NULL), STRATA_OK);
  strata_value_clear(&p);
}

static strata_world *open_at(const char *p) {
  strata_world *w = NULL;
  strata_mod_version *mods;
  size_t n;
  strata_error err;
  if (strata_world_open(p, &w, &mods, &n, &err)) fprintf(stderr, "open %s: %s\n", p, err.message);
  else strata_mod_versions_free(mods, n);
  return w;
}

enum { N = 300 };

int main(void) {
  counter c = {0, 0, 0, 0};
  strata_allocator a = { count_malloc, count_realloc, count_free, &c };
  CHECK_EQ_INT(strata_set_allocator(&a, NULL), STRATA_OK);
  /* an object's record (every object has one) in 144 bytes, carved from the
  ** world's chunks (a map's save state is its tile map's, tilemap_internal.h) */
  CHECK(sizeof(object_rec) <= 144);
  char path[256], other[300];
  snprintf(path, sizeof path, "%s/strata_props_%d.db", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
  snprintf(other, sizeof other, "%s.full", path);

  /* N objects of a few properties (one nested), one of twenty (decoded at
  ** once), one with none */
  strata_world *w = strata_world_new(7, NULL);
  uint64_t uid, map;
  CHECK_EQ_INT(strata_world_create_map(w, 8, 8, NULL, &map, NULL), STRATA_OK);
  for (int i = 0; i < N; i++) {
    CHECK_EQ_INT(strata_world_create(w, "npc", "goblin", &uid, NULL), STRATA_OK);
    strata_object_set_position(w, uid, map, i % 8, i / 8 % 8, NULL);
    set(w, uid, "hp", strata_value_int(10 + i));
    strata_value name;
    strata_value_string(&name, "goblin", 6, NULL);
    set(w, uid, "name", name);
    strata_value bag;
    strata_value_table(&bag, NULL);
    set(w, uid, "bag", bag);
    strata_value path2[2] = { key("bag"), key("coins") }, coins = strata_value_int(i * 3);
    CHECK_EQ_INT(strata_object_set(w, uid, path2, 2, &coins, NULL), STRATA_OK);
    strata_value_clear(&path2[0]);
    strata_value_clear(&path2[1]);
  }
  CHECK_EQ_INT(strata_world_create(w, "chest", NULL, &uid, NULL), STRATA_OK);
  char k[16];
  for (int i = 0; i < 20; i++) {
    snprintf(k, sizeof k, "k%d", i);
    set(w, uid, k, strata_value_int(i));
  }
  CHECK_EQ_INT(strata_world_create(w, "rock", NULL, &uid, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, NULL), STRATA_OK);

  /* opened: a block per object (its record), none more for its properties */
  long before = c.live;
  strata_world *w2 = open_at(path);
  CHECK(w2 != NULL);
  if (!w2) return check_summary("world_props");
  CHECK(c.live - before < 2 * N);

  /* edits of other fields, a savepoint rolled back, then saves */
  uint64_t first = 2; /* the map is uid 1 */
  CHECK_EQ_INT(strata_object_set_position(w2, first, map, 7, 7, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_object_set_position(w, first, map, 7, 7, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_world_begin(w2, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_object_set_position(w2, first + 1, map, 6, 6, NULL), STRATA_OK);
  set(w2, first + 2, "hp", strata_value_int(99));
  CHECK_EQ_INT(strata_world_delete(w2, first + 3, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_world_rollback(w2), STRATA_OK);
  CHECK(c.live - before < 2 * N);
  CHECK_EQ_INT(strata_world_save(w2, path, NULL, 0, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_world_save(w2, other, NULL, 0, NULL), STRATA_OK);
  CHECK(c.live - before < 2 * N);
  char *want = dump(w), *inc = file_dump(path), *full = file_dump(other);
  CHECK(inc && !strcmp(inc, want));
  CHECK(full && !strcmp(full, want));

  /* a read that runs out of memory finds nothing; the next one finds it */
  strata_value hp = key("hp"), v = strata_value_int(1);
  c.fail = 1;
  CHECK(strata_world_get(w2, first + 4) == NULL);
  c.fail = 0;
  const strata_object *o = strata_world_get(w2, first + 4);
  CHECK(o && o->props.type == STRATA_VTABLE);
  const strata_value *got = strata_object_get(w2, first + 4, &hp, 1);
  CHECK(got && got->type == STRATA_VINT && got->u.i == 14);
  CHECK_EQ_INT(strata_object_set(w2, first + 5, &hp, 1, &v, NULL), STRATA_OK);
  v = strata_value_int(1); /* taken over by the set above */
  CHECK_EQ_INT(strata_object_set(w, first + 5, &hp, 1, &v, NULL), STRATA_OK);
  strata_value_clear(&hp);

  /* every object read: the world as saved, with the two edits */
  char *now = dump(w2), *was = dump(w);
  CHECK(!strcmp(now, was));

  /* read tables of the same keys share one array of them (the world's);
  ** adding or removing a key gives a table its own, leaving the others */
  strata_vtable *t1 = strata_world_get(w2, first + 6)->props.u.t, *t2 = strata_world_get(w2, first + 7)->props.u.t,
                *t3 = strata_world_get(w2, first + 8)->props.u.t;
  CHECK(t1->keys == t2->keys && t2->keys == t3->keys);
  strata_value gold = key("gold"), name = key("name"), nil = strata_value_nil();
  v = strata_value_int(5);
  CHECK_EQ_INT(strata_object_set(w2, first + 6, &gold, 1, &v, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_object_set(w2, first + 7, &name, 1, &nil, NULL), STRATA_OK);
  CHECK(t1->n == 4 && t2->n == 2 && t3->n == 3 && t1->keys != t3->keys && t2->keys != t3->keys);
  CHECK(strata_vtable_get(t1, &gold) && !strata_vtable_get(t2, &name) && strata_vtable_get(t3, &name));
  CHECK(!strata_vtable_get(t3, &gold));
  /* in a savepoint: a key added to a table of shared keys (read there
  ** first), one removed from another, both rolled back */
  CHECK_EQ_INT(strata_world_begin(w2, NULL), STRATA_OK);
  v = strata_value_int(6);
  CHECK_EQ_INT(strata_object_set(w2, first + 10, &gold, 1, &v, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_object_set(w2, first + 8, &name, 1, &nil, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_world_rollback(w2), STRATA_OK);
  strata_vtable *t4 = strata_world_get(w2, first + 10)->props.u.t;
  t3 = strata_world_get(w2, first + 8)->props.u.t;
  CHECK(t4->n == 3 && !strata_vtable_get(t4, &gold) && t3->n == 3 && strata_vtable_get(t3, &name));
  /* a copy handed out outlives the world */
  strata_value copy;
  CHECK_EQ_INT(strata_value_copy(&copy, &strata_world_get(w2, first + 9)->props, NULL), STRATA_OK);
  strata_value_clear(&gold);
  strata_value_clear(&name);

  free(want); free(inc); free(full); free(now); free(was);
  strata_world_free(w2);
  got = strata_vtable_get_str(copy.u.t, "name");
  CHECK(got && got->type == STRATA_VSTRING && !strcmp(got->u.str.s, "goblin") && copy.u.t->n == 3);
  strata_value_clear(&copy);
  strata_world_free(w);
  unlink(path);
  unlink(other);
  CHECK_EQ_INT(c.live, 0);
  return check_summary("world_props");
}
