/* test_grid_packed.c - a spawn's new rooms and exits keep their properties
** in one block each (grid.c, world.c's packed objects): an allocator set
** first counts at most two blocks an object (its record, its properties),
** the world is the same as before, byte for byte (a hash of its dump, taken
** from the spawn that built every table key by key; with prototype props
** too), and a packed object
** behaves as any other: edited, rolled back, deleted, saved and opened, and
** everything freed at the end. The rooms' index by map node keeps its rules:
** a second room on a spot is deleted, rooms whose node is gone are deleted
** where the filter says and kept elsewhere. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "strata/alloc.h"
#include "strata/grid.h"
#include "strata/room.h"
#include "strata/world.h"
#include "strata/xymap.h"
#include "world_dump.h"

typedef struct tally { long calls, live; } tally;

/* Counts calls and live blocks; the C library keeps the sizes. */
static void *tally_malloc(void *ud, size_t n) {
  tally *t = ud;
  void *p = malloc(n);
  if (p) t->calls++, t->live++;
  return p;
}
static void *tally_realloc(void *ud, void *p, size_t n) {
  tally *t = ud;
  void *q = realloc(p, n);
  if (q) t->calls++, t->live += p == NULL;
  return q;
}
static void tally_free(void *ud, void *p) {
  tally *t = ud;
  if (p) t->live--;
  free(p);
}

static uint64_t fnv(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}

/* A 3 x 3 grid, each node joined east and north, one diagonal, one
** interrupt; room names and exit descriptions from prototypes. */
static const char MAP[] = "+ 0 1 2\n\n2 #-#-#\n  | |/|\n1 #-#-#\n  | | |\n0 #-#-#\n\n+ 0 1 2\n";

static void put_prop(strata_value *t, const char *k, strata_value v) {
  strata_value key;
  CHECK(strata_value_string(&key, k, strlen(k), NULL) == STRATA_OK);
  CHECK(strata_vtable_set(t->u.t, &key, &v, NULL) == STRATA_OK);
  strata_value_clear(&key);
}

/* Prototypes that give props: packed as well, the same world as before. */
static void test_props(tally *t) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  strata_xymap *m = strata_xymap_parse(MAP, strlen(MAP), "packed", NULL, 0, &err);
  strata_value room_props, exit_props, dim;
  CHECK(strata_value_table(&room_props, NULL) == STRATA_OK && strata_value_table(&exit_props, NULL) == STRATA_OK);
  CHECK(strata_value_string(&dim, "dim", 3, NULL) == STRATA_OK);
  put_prop(&room_props, "light", dim);
  put_prop(&room_props, "size", strata_value_int(3));
  CHECK(strata_value_string(&dim, "oak", 3, NULL) == STRATA_OK);
  put_prop(&exit_props, "door", dim);
  strata_grid_proto protos[] = { { STRATA_GRID_ANY, STRATA_GRID_ANY, STRATA_GRID_ROOM, 0, 0, "A hall", "One of many.", &room_props },
                                 { STRATA_GRID_ANY, STRATA_GRID_ANY, STRATA_GRID_ANY, 0, 0, NULL, "A doorway.", &exit_props } };
  strata_grid_map gm = { m, protos, 2, NULL, 0 };
  strata_grid_counts c;
  long before = t->calls;
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  size_t made = c.created.rooms + c.created.exits;
  CHECK(t->calls - before <= (long)(2 * made + 16));
  if (t->calls - before > (long)(2 * made + 16))
    fprintf(stderr, "with props: %ld allocations for %zu objects\n", t->calls - before, made);
  char *d = dump(w);
  CHECK(fnv(d) == 3864726270720839015ull);
  free(d);
  /* Nothing to change: nothing written. */
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.updated.rooms + c.updated.exits + c.created.rooms + c.created.exits, 0);
  strata_world_free(w);

  /* Rooms whose props hold a table of 17 keys are made the ordinary way,
  ** their exits too: the same world as before. */
  w = strata_world_new(1, &err);
  for (int i = 0; i < 17; i++) {
    char k[16];
    snprintf(k, sizeof k, "k%d", i);
    put_prop(&room_props, k, strata_value_int(i));
  }
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  d = dump(w);
  CHECK(fnv(d) == 63741531778728204ull);
  free(d);
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.updated.rooms + c.updated.exits + c.created.rooms + c.created.exits, 0);
  strata_value_clear(&room_props);
  strata_value_clear(&exit_props);
  strata_xymap_free(m);
  strata_world_free(w);
}

int main(void) {
  tally t = { 0, 0 };
  strata_allocator a = { tally_malloc, tally_realloc, tally_free, &t };
  CHECK_EQ_INT(strata_set_allocator(&a, NULL), STRATA_OK);
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  strata_xymap *m = strata_xymap_parse(MAP, strlen(MAP), "packed", NULL, 0, &err);
  CHECK(w && m);
  strata_grid_proto protos[] = { { STRATA_GRID_ANY, STRATA_GRID_ANY, STRATA_GRID_ROOM, 0, 0, "A hall", "One of many.", NULL },
                                 { STRATA_GRID_ANY, STRATA_GRID_ANY, STRATA_GRID_ANY, 0, 0, NULL, "A doorway.", NULL },
                                 { 1, 1, 2, 0, 0, "gate", NULL, NULL } };
  strata_grid_map gm = { m, protos, 3, NULL, 0 };
  strata_grid_counts c;

  long before = t.calls;
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  size_t made = c.created.rooms + c.created.exits;
  CHECK_EQ_INT(c.created.rooms, 9);
  CHECK_EQ_INT(c.created.exits, 26);
  /* Two blocks an object, and a few for the spawn's own index and journal. */
  CHECK(t.calls - before <= (long)(2 * made + 16));
  if (t.calls - before > (long)(2 * made + 16))
    fprintf(stderr, "%ld allocations for %zu objects\n", t.calls - before, made);

  /* The same objects, keys and values, in the same order, as when every
  ** table was built key by key. */
  char *spawned = dump(w);
  CHECK(fnv(spawned) == 7118051720516286054ull);

  /* Edited inside a savepoint, rolled back: as spawned. */
  uint64_t hall = strata_grid_room(w, "packed", 1, 1), hand;
  uint64_t door = strata_exit_find(w, hall, "e");
  CHECK(hall && door);
  CHECK_STR(strata_exit_name(w, door), "gate");
  CHECK(strata_world_begin(w, &err) == STRATA_OK);
  CHECK(strata_room_set_name(w, hall, "Renamed", &err) == STRATA_OK);
  CHECK(strata_exit_set_desc(w, door, "Scratched.", &err) == STRATA_OK);
  CHECK(strata_exit_create(w, hall, hall, "loop", NULL, &hand, &err) == STRATA_OK);
  strata_value k, yes = strata_value_bool(1);
  CHECK(strata_value_string(&k, "lit", 3, NULL) == STRATA_OK);
  CHECK(strata_object_set(w, door, &k, 1, &yes, &err) == STRATA_OK);
  CHECK_STR(strata_room_name(w, hall), "Renamed");
  CHECK_EQ_INT(strata_room_exit_count(w, hall), 6);
  CHECK(strata_world_rollback(w) == STRATA_OK);
  char *back = dump(w);
  CHECK_STR(back, spawned);
  free(back);

  /* Edited for good: the respawn puts the grid's part back, the rest stays. */
  yes = strata_value_bool(1);
  CHECK(strata_object_set(w, door, &k, 1, &yes, &err) == STRATA_OK);
  CHECK(strata_exit_set_desc(w, door, "Scratched.", &err) == STRATA_OK);
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.updated.exits, 1);
  CHECK_STR(strata_exit_desc(w, door), "");
  CHECK(strata_object_get(w, door, &k, 1) != NULL);
  strata_value_clear(&k);

  /* Saved and opened: the same world. */
  char path[] = "/tmp/test_grid_packed_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  char *now = dump(w);
  CHECK(strata_world_save(w, path, NULL, 0, &err) == STRATA_OK);
  char *opened = file_dump(path);
  CHECK(opened && !strcmp(opened, now));
  free(opened);
  free(now);
  unlink(path);

  /* A second room on a grid room's spot is deleted, the first kept. */
  uint64_t twin;
  strata_value place, sys_place[2] = { strata_value_nil(), strata_value_nil() };
  CHECK(strata_room_create(w, "Twin", NULL, &twin, &err) == STRATA_OK);
  CHECK(strata_value_string(&sys_place[0], "sys", 3, NULL) == STRATA_OK);
  CHECK(strata_value_string(&sys_place[1], "place", 5, NULL) == STRATA_OK);
  CHECK(strata_value_copy(&place, strata_object_get(w, hall, sys_place, 2), NULL) == STRATA_OK);
  CHECK(strata_object_set(w, twin, sys_place, 2, &place, &err) == STRATA_OK);
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.deleted.rooms, 1);
  CHECK(!strata_is_room(w, twin) && strata_is_room(w, hall));
  strata_value_clear(&sys_place[0]);
  strata_value_clear(&sys_place[1]);

  /* A smaller map deletes packed rooms and exits: first where the filter
  ** says (X 0: the two rooms above (0, 0)), then the rest. */
  static const char SMALL[] = "+ 0 1\n\n0 #-#\n\n+ 0 1\n";
  strata_xymap *small = strata_xymap_parse(SMALL, strlen(SMALL), "packed", NULL, 0, &err);
  gm.map = small;
  strata_grid_filter x0 = { 0, STRATA_GRID_ANY, NULL };
  CHECK(strata_grid_spawn(w, &gm, 1, &x0, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.deleted.rooms, 2);
  CHECK(strata_grid_room(w, "packed", 2, 2) != 0);
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.deleted.rooms, 5);
  CHECK_EQ_INT(strata_world_count(w), 4);

  free(spawned);
  strata_xymap_free(small);
  strata_xymap_free(m);
  strata_world_free(w);
  test_props(&t);
  CHECK_EQ_INT(t.live, 0);
  return check_summary("test_grid_packed");
}
