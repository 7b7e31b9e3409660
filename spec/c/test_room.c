/* test_room.c - rooms, exits and who stands where (room.h), with savepoints and saves. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "strata/room.h"
#include "strata/world.h"

static void test_rooms_and_exits(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t hub, north, n, s, hero;
  CHECK(strata_room_create(w, "Hub", "A round hall.", &hub, &err) == STRATA_OK);
  CHECK(strata_room_create(w, "North", NULL, &north, &err) == STRATA_OK);
  CHECK(strata_is_room(w, hub) && !strata_is_exit(w, hub));
  CHECK(strcmp(strata_room_name(w, hub), "Hub") == 0);
  CHECK(strcmp(strata_room_desc(w, north), "") == 0);
  CHECK(strata_exit_create(w, hub, north, "north", NULL, &n, &err) == STRATA_OK);
  const char *al[] = { "n" };
  CHECK(strata_exit_set_aliases(w, n, al, 1, &err) == STRATA_OK);
  CHECK(strata_exit_create(w, north, hub, "south", "A door.", &s, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_room_exit_count(w, hub), 1);
  CHECK_EQ_INT(strata_room_exit_at(w, hub, 0), n);
  CHECK_EQ_INT(strata_exit_from(w, n), hub);
  CHECK_EQ_INT(strata_exit_to(w, n), north);
  CHECK_EQ_INT(strata_exit_find(w, hub, "north"), n);
  CHECK_EQ_INT(strata_exit_find(w, hub, "n"), n);
  CHECK_EQ_INT(strata_exit_find(w, hub, "south"), 0);
  CHECK(strcmp(strata_exit_desc(w, s), "A door.") == 0);

  /* Bad input: errors, nothing made. */
  size_t count = strata_world_count(w);
  CHECK(strata_room_create(w, "", NULL, NULL, &err) == STRATA_EARG);
  CHECK(strata_exit_create(w, hub, 999, "x", NULL, NULL, &err) == STRATA_ENOTFOUND);
  CHECK(strata_exit_create(w, n, hub, "x", NULL, NULL, &err) == STRATA_ENOTFOUND);
  CHECK(strata_exit_create(w, hub, hub, "", NULL, NULL, &err) == STRATA_EARG);
  const char *bad[] = { "ok", "" };
  CHECK(strata_exit_set_aliases(w, n, bad, 2, &err) == STRATA_EARG);
  CHECK_EQ_INT(strata_exit_alias_count(w, n), 1);
  CHECK_EQ_INT(strata_world_count(w), count);

  /* Who stands where. */
  CHECK(strata_world_create(w, "actor", NULL, &hero, &err) == STRATA_OK);
  CHECK(strata_room_put(w, hero, hub, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_room_of(w, hero), hub);
  CHECK(strata_room_put(w, n, hub, &err) == STRATA_EARG);
  uint64_t in[2];
  CHECK_EQ_INT(strata_room_contents(w, hub, in, 2), 1);
  CHECK(strata_room_delete(w, hub, &err) == STRATA_ESTATE);
  CHECK(strstr(err.message, "actor#") != NULL);
  CHECK(strata_is_room(w, hub));

  /* A savepoint undoes a deletion with its exits. */
  CHECK(strata_world_begin(w, &err) == STRATA_OK);
  CHECK(strata_room_delete(w, north, &err) == STRATA_OK);
  CHECK(!strata_is_exit(w, n) && !strata_is_exit(w, s));
  CHECK_EQ_INT(strata_room_exit_count(w, hub), 0);
  CHECK(strata_world_rollback(w) == STRATA_OK);
  CHECK(strata_is_room(w, north) && strata_is_exit(w, n) && strata_is_exit(w, s));
  CHECK_EQ_INT(strata_room_exit_count(w, hub), 1);

  /* A stamp on a room (a generator's fingerprint) goes with any change of its exits. */
  strata_value stamp[2] = { strata_value_nil(), strata_value_nil() }, v;
  strata_value_string(&stamp[0], "sys", 3, NULL);
  strata_value_string(&stamp[1], "stamp", 5, NULL);
  v = strata_value_int(42);
  CHECK(strata_object_set(w, hub, stamp, 2, &v, &err) == STRATA_OK);
  CHECK(strata_exit_set_desc(w, n, "A ladder.", &err) == STRATA_OK);
  CHECK(strata_object_get(w, hub, stamp, 2) == NULL);
  v = strata_value_int(42);
  CHECK(strata_object_set(w, north, stamp, 2, &v, &err) == STRATA_OK);
  CHECK(strata_object_get(w, hub, stamp, 2) == NULL);
  CHECK(strata_exit_set_aliases(w, s, NULL, 0, &err) == STRATA_OK);
  CHECK(strata_object_get(w, north, stamp, 2) == NULL);
  strata_value_clear(&stamp[0]);
  strata_value_clear(&stamp[1]);

  /* Re-pointed, renamed, saved and read back. */
  CHECK(strata_exit_set_to(w, n, 0, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_exit_to(w, n), 0);
  CHECK(strata_exit_set_to(w, n, north, &err) == STRATA_OK);
  CHECK(strata_room_set_name(w, north, "", &err) == STRATA_EARG);
  CHECK(strata_room_set_name(w, north, "Attic", &err) == STRATA_OK);
  char path[64];
  snprintf(path, sizeof path, "/tmp/strata_test_room_%d.db", (int)getpid());
  CHECK(strata_world_save(w, path, NULL, 0, &err) == STRATA_OK);
  strata_world *w2 = NULL;
  strata_mod_version *mods = NULL;
  size_t nmods = 0;
  CHECK(strata_world_open(path, &w2, &mods, &nmods, &err) == STRATA_OK);
  if (w2) {
    CHECK(strcmp(strata_room_name(w2, north), "Attic") == 0);
    CHECK_EQ_INT(strata_exit_find(w2, hub, "n"), n);
    CHECK_EQ_INT(strata_room_of(w2, hero), hub);
    strata_world_free(w2);
  }
  strata_mod_versions_free(mods, nmods);
  unlink(path);

  /* Deleting a room takes the exits out and in, nothing else. */
  CHECK(strata_room_put(w, hero, 0, &err) == STRATA_OK);
  count = strata_world_count(w);
  CHECK(strata_room_delete(w, north, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_world_count(w), count - 3);
  CHECK_EQ_INT(strata_room_exit_count(w, hub), 0);
  CHECK(strata_exit_delete(w, n, &err) == STRATA_ENOTFOUND);
  strata_world_free(w);
}

int main(void) {
  test_rooms_and_exits();
  return check_summary("room");
}
