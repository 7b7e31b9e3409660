/* test_bookkeeping.c - a world's bookkeeping objects (the world record, the
** grid's map list, a branch's cell index) belong to the core: the public
** delete refuses each of them with a structured refusal, inside a savepoint
** too, and the world keeps working; the core's own removals (a branch's
** collapse) still delete them. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "strata/branch.h"
#include "strata/grid.h"
#include "strata/registry.h"
#include "strata/room.h"
#include "strata/runtime.h"
#include "strata/travel.h"
#include "strata/world.h"

static const char *const four[] = { "north", "east", "south", "west" };
static const char *const bookkeeping[] = { "world_record", "grid_maps", "branch_index", "branch_cells" };
#define NKINDS (sizeof bookkeeping / sizeof *bookkeeping)

static void test_kinds(void) {
  for (size_t i = 0; i < NKINDS; i++) CHECK(strata_kind_is_bookkeeping(bookkeeping[i]));
  const char *const public[] = { "actor", "room", "exit", "branch", "map", "area", "feature", "world", "" };
  for (size_t i = 0; i < sizeof public / sizeof *public; i++) CHECK(!strata_kind_is_bookkeeping(public[i]));
  CHECK(!strata_kind_is_bookkeeping(NULL));
}

/* Refused with the function, the code and the subject; the object stays. */
static void check_refused(strata_world *w, uint64_t uid, const char *kind) {
  strata_error err;
  size_t count = strata_world_count(w);
  CHECK(uid != 0);
  CHECK_EQ_INT(strata_world_delete(w, uid, &err), STRATA_ESTATE);
  CHECK_STR(err.function, "strata_world_delete");
  CHECK_EQ_INT(err.refusal, STRATA_REFUSED_BOOKKEEPING);
  CHECK_EQ_INT(err.subject[0], uid);
  char want[96];
  snprintf(want, sizeof want, "%s#%llu is the world's own bookkeeping", kind, (unsigned long long)uid);
  CHECK(strstr(err.message, want) == err.message);
  CHECK(strstr(err.message, "cannot be deleted") != NULL);
  CHECK_STR(strata_refusal_name(err.refusal), "bookkeeping");
  CHECK(strata_world_get(w, uid) != NULL);
  CHECK_EQ_INT(strata_world_count(w), count);
  /* inside a savepoint: refused before anything is journaled */
  CHECK_EQ_INT(strata_world_begin(w, &err), STRATA_OK);
  CHECK_EQ_INT(strata_world_delete(w, uid, &err), STRATA_ESTATE);
  CHECK_EQ_INT(strata_world_commit(w), STRATA_OK);
  CHECK(strata_world_get(w, uid) != NULL);
}

static void test_refused(void) {
  strata_error err;
  strata_registry *reg = strata_registry_new(&err);
  strata_world *w = strata_world_new(5, &err);
  strata_runtime *rt = strata_runtime_new(w, strata_registry_resolver(reg), &err);
  uint64_t hub, start, branch, room, hero;
  CHECK_EQ_INT(strata_room_create(w, "Hub", NULL, &hub, &err), STRATA_OK);
  CHECK_EQ_INT(strata_branch_make_start(w, hub, "north", "test.cave", &start, &err), STRATA_OK);
  strata_branch_rules r = { "test.cave", four, 4, 5, 3, NULL };
  CHECK_EQ_INT(strata_branch_create(w, &r, hub, &branch, &err), STRATA_OK);
  strata_room_spec spec = { "Cave", "Damp.", 1 };
  strata_rng rng;
  strata_rng_seed(&rng, 9);
  CHECK_EQ_INT(strata_branch_grow(w, branch, start, &spec, &rng, &room, &err), STRATA_OK);
  CHECK_EQ_INT(strata_world_create(w, "actor", NULL, &hero, &err), STRATA_OK);
  CHECK_EQ_INT(strata_set_player(rt, hero, &err), STRATA_OK);
  const char *ids[] = { "test.map" };
  CHECK_EQ_INT(strata_grid_set_map_ids(w, ids, 1, &err), STRATA_OK);

  for (size_t i = 0; i < NKINDS; i++)
    check_refused(w, strata_world_first_of_kind(w, bookkeeping[i]), bookkeeping[i]);

  /* the world still works: its player, its grid maps, its branch */
  CHECK_EQ_INT(strata_player(rt), hero);
  const char *got[2];
  CHECK_EQ_INT(strata_grid_map_ids(w, got, 2), 1);
  CHECK_STR(got[0], "test.map");
  CHECK_EQ_INT(strata_branch_room_count(w, branch), 1);
  CHECK_EQ_INT(strata_branch_check(w, branch, &err), STRATA_OK);
  /* the core's own removals still delete them: a collapse takes its cell index */
  CHECK_EQ_INT(strata_branch_collapse(rt, branch, &err), STRATA_OK);
  CHECK_EQ_INT(strata_world_first_of_kind(w, "branch_index"), 0);
  CHECK_EQ_INT(strata_world_first_of_kind(w, "branch_cells"), 0);
  /* an ordinary object is deleted as before */
  CHECK_EQ_INT(strata_world_delete(w, hub, &err), STRATA_OK);
  strata_runtime_free(rt);
  strata_world_free(w);
  strata_registry_free(reg);
}

int main(void) {
  test_kinds();
  test_refused();
  return check_summary("bookkeeping");
}
