/* test_grid.c - XY maps spawned as rooms and exits (grid.h): counts, an
** unchanged respawn that writes nothing, a removed node, transitions, filters,
** prototype props and their reconciling. */
#include <string.h>

#include "check.h"
#include "strata/grid.h"
#include "strata/registry.h"
#include "strata/room.h"
#include "strata/runtime.h"
#include "strata/world.h"
#include "strata/xymap.h"

static strata_xymap *parse(const char *text, const char *z, const strata_xy_legend *lg, size_t n) {
  strata_error err;
  strata_xymap *m = strata_xymap_parse(text, strlen(text), z, lg, n, &err);
  if (!m) fprintf(stderr, "parse %s: %s\n", z, err.message);
  return m;
}

static size_t total(const strata_grid_count *c) { return c->rooms + c->exits; }

static void test_spawn_and_respawn(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  strata_xymap *m1 = parse("+ 0 1 2\n\n1 #-#\n  | |\n0 #-#\n\n+ 0 1 2\n", "map1", NULL, 0);
  strata_grid_proto protos[] = { { 0, 0, STRATA_GRID_ROOM, 0, 0, "Corner", "A corner.", NULL },
                                 { STRATA_GRID_ANY, STRATA_GRID_ANY, STRATA_GRID_ANY, 0, 0, NULL, "A path.", NULL },
                                 { 0, 0, 2, 0, 0, "door", NULL, NULL },
                                 /* a lower tier never wins over a matching higher one */
                                 { 0, 0, STRATA_GRID_ROOM, '#', 1, "Legend room", NULL, NULL } };
  strata_grid_map gm = { m1, protos, 4, NULL, 0 };
  strata_grid_counts c;
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.created.rooms, 4);
  CHECK_EQ_INT(c.created.exits, 8);
  uint64_t corner = strata_grid_room(w, "map1", 0, 0);
  CHECK(corner != 0);
  CHECK_STR(strata_room_name(w, corner), "Corner");
  CHECK_STR(strata_room_name(w, strata_grid_room(w, "map1", 1, 1)), "An empty room");
  uint64_t door = strata_exit_find(w, corner, "e");
  CHECK_STR(strata_exit_name(w, door), "door");
  CHECK_STR(strata_exit_desc(w, door), "");
  CHECK_STR(strata_exit_desc(w, strata_exit_find(w, corner, "north")), "A path.");
  int x, y, intr;
  const char *z;
  char dir[4];
  CHECK(strata_grid_pos(w, door, &x, &y, &z, dir, &intr) == 1);
  CHECK(x == 0 && y == 0 && !strcmp(z, "map1") && !strcmp(dir, "e") && !intr);
  CHECK(strata_grid_pos(w, corner, &x, &y, &z, dir, &intr) == 1);
  CHECK(!strcmp(dir, "#"));

  /* Unchanged: nothing counted, nothing written (no uid drawn either). */
  uint64_t next = strata_world_next_uid(w);
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(total(&c.created) + total(&c.updated) + total(&c.deleted), 0);
  CHECK_EQ_INT(strata_world_next_uid(w), next);

  /* An exit changed by hand drops its room's stamp: the respawn puts it back. */
  CHECK(strata_exit_set_desc(w, door, "Scratched.", &err) == STRATA_OK);
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.updated.exits, 1);
  CHECK_EQ_INT(total(&c.created) + c.updated.rooms + total(&c.deleted), 0);
  CHECK_STR(strata_exit_desc(w, door), "");
  /* A hand-made exit on a grid room is left alone (and the room keeps its stamp after). */
  uint64_t hand;
  CHECK(strata_exit_create(w, corner, corner, "loop", NULL, &hand, &err) == STRATA_OK);
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(total(&c.created) + total(&c.updated) + total(&c.deleted), 0);
  CHECK(strata_is_exit(w, hand));
  CHECK(strata_exit_delete(w, hand, &err) == STRATA_OK);

  /* (1, 1) removed: 1 room, its 2 exits and the 2 into it. */
  strata_xymap *m2 = parse("+ 0 1 2\n\n1 #\n  |\n0 #-#\n\n+ 0 1 2\n", "map1", NULL, 0);
  gm.map = m2;
  size_t count = strata_world_count(w);
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.deleted.rooms, 1);
  CHECK_EQ_INT(c.deleted.exits, 4);
  CHECK_EQ_INT(total(&c.created) + total(&c.updated), 0);
  CHECK_EQ_INT(strata_world_count(w), count - 5);
  CHECK_EQ_INT(strata_grid_room(w, "map1", 1, 1), 0);
  CHECK_EQ_INT(strata_grid_room(w, "map1", 0, 0), corner);
  /* The index by place follows a rollback: (1, 1) made again and undone. */
  CHECK(strata_world_begin(w, &err) == STRATA_OK);
  gm.map = m1;
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  uint64_t again = strata_grid_room(w, "map1", 1, 1);
  CHECK(again != 0 && strata_grid_room(w, "map2", 1, 1) == 0);
  CHECK(strata_world_rollback(w) == STRATA_OK);
  CHECK_EQ_INT(strata_grid_room(w, "map1", 1, 1), 0);
  CHECK_EQ_INT(strata_grid_room(w, "map1", 0, 0), corner);
  gm.map = m2;

  /* Someone in a room to delete: refused, nothing changed. */
  uint64_t hero;
  CHECK(strata_world_create(w, "actor", NULL, &hero, &err) == STRATA_OK);
  CHECK(strata_room_put(w, hero, strata_grid_room(w, "map1", 0, 1), &err) == STRATA_OK);
  count = strata_world_count(w);
  CHECK(strata_grid_delete(w, "map1", &c, &err) == STRATA_ESTATE);
  CHECK(strstr(err.message, "stands in it") != NULL);
  CHECK_EQ_INT(strata_world_count(w), count);
  CHECK(strata_room_put(w, hero, 0, &err) == STRATA_OK);
  CHECK(strata_grid_delete(w, "map1", &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.deleted.rooms, 3);
  CHECK_EQ_INT(c.deleted.exits, 4);
  strata_xymap_free(m1);
  strata_xymap_free(m2);
  strata_world_free(w);
}

static void test_transitions_and_filters(void) {
  strata_error err;
  strata_world *w = strata_world_new(2, &err);
  strata_xy_legend ta, tb;
  strata_xy_legend_default(STRATA_XY_TRANSITION, 'T', &ta);
  ta.has_target = 1, ta.target_x = 1, ta.target_y = 0;
  strcpy(ta.target_z, "map12b");
  tb = ta;
  tb.target_x = 0, tb.target_y = 1;
  strcpy(tb.target_z, "map12a");
  strata_xymap *a = parse("+ 0 1\n\n1 #-T\n  |\n0 #-#\n\n+ 0 1\n", "map12a", &ta, 1);
  strata_xymap *b = parse("+ 0 1\n\n1 #-#\n    |\n0 T-#\n\n+ 0 1\n", "map12b", &tb, 1);
  strata_grid_map maps[2] = { { a, NULL, 0, NULL, 0 }, { b, NULL, 0, NULL, 0 } };
  strata_grid_filter only_a = { STRATA_GRID_ANY, STRATA_GRID_ANY, "map12a" };
  strata_grid_counts c;
  CHECK(strata_grid_spawn(w, maps, 2, &only_a, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.created.rooms, 3);
  CHECK_EQ_INT(c.created.exits, 5);
  uint64_t r1 = strata_grid_room(w, "map12a", 0, 1);
  CHECK_EQ_INT(strata_exit_to(w, strata_exit_find(w, r1, "east")), 0); /* map12b not spawned yet */
  CHECK(strata_grid_spawn(w, maps, 2, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.created.rooms, 3);
  CHECK_EQ_INT(c.created.exits, 5);
  CHECK_EQ_INT(c.updated.exits, 1); /* the east exit of (0, 1) now arrives */
  uint64_t r2 = strata_grid_room(w, "map12b", 1, 0);
  CHECK_EQ_INT(strata_exit_to(w, strata_exit_find(w, r1, "east")), r2);
  CHECK_EQ_INT(strata_exit_to(w, strata_exit_find(w, r2, "w")), r1);
  /* Two maps with one Z. */
  strata_grid_map twice[2] = { maps[0], maps[0] };
  CHECK(strata_grid_spawn(w, twice, 2, NULL, &c, &err) == STRATA_EARG);
  strata_xymap_free(a);
  strata_xymap_free(b);
  strata_world_free(w);
}


/* props[k] of uid, or NULL. */
static const strata_value *prop(strata_world *w, uint64_t uid, const char *k) {
  strata_value path[2] = { { .type = STRATA_VSTRING, .u.str = { (char *)"props", 5 } },
                           { .type = STRATA_VSTRING, .u.str = { (char *)k, strlen(k) } } };
  return strata_object_get(w, uid, path, 2);
}

static void set_str(strata_value *t, const char *k, const char *v) {
  strata_value key, val;
  strata_error err;
  CHECK(strata_value_string(&key, k, strlen(k), &err) == STRATA_OK);
  if (v) CHECK(strata_value_string(&val, v, strlen(v), &err) == STRATA_OK);
  else val = strata_value_nil();
  CHECK(strata_vtable_set(t->u.t, &key, &val, &err) == STRATA_OK);
  strata_value_clear(&key);
}

static int prop_is(strata_world *w, uint64_t uid, const char *k, const char *want) {
  const strata_value *v = prop(w, uid, k);
  if (!want) return v == NULL;
  return v && v->type == STRATA_VSTRING && !strcmp(v->u.str.s, want);
}

static void test_props(void) {
  strata_error err;
  strata_world *w = strata_world_new(3, &err);
  strata_xymap *m = parse("+ 0 1\n\n0 #-#\n\n+ 0 1\n", "props", NULL, 0);
  strata_value room_props, exit_props;
  CHECK(strata_value_table(&room_props, &err) == STRATA_OK);
  CHECK(strata_value_table(&exit_props, &err) == STRATA_OK);
  set_str(&room_props, "light", "dim");
  set_str(&room_props, "smell", "damp");
  set_str(&exit_props, "door", "oak");
  strata_grid_proto protos[] = { { 0, 0, STRATA_GRID_ROOM, 0, 0, NULL, NULL, &room_props },
                                 { 0, 0, STRATA_GRID_ANY, 0, 0, NULL, NULL, &exit_props } };
  strata_grid_map gm = { m, protos, 2, NULL, 0 };
  strata_grid_counts c;
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  uint64_t a = strata_grid_room(w, "props", 0, 0), b = strata_grid_room(w, "props", 1, 0);
  uint64_t door = strata_exit_find(w, a, "east"), back = strata_exit_find(w, b, "west");
  CHECK(prop_is(w, a, "light", "dim") && prop_is(w, a, "smell", "damp"));
  CHECK(prop_is(w, b, "light", NULL));
  CHECK(prop_is(w, door, "door", "oak") && prop_is(w, back, "door", NULL));

  /* Unchanged: nothing counted or written, though exits with props are compared. */
  uint64_t next = strata_world_next_uid(w);
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(total(&c.created) + total(&c.updated) + total(&c.deleted), 0);
  CHECK_EQ_INT(strata_world_next_uid(w), next);

  /* The game's own key, and a prototype key it changed by hand. */
  strata_value path[2] = { { .type = STRATA_VSTRING, .u.str = { (char *)"props", 5 } },
                           { .type = STRATA_VSTRING, .u.str = { (char *)"owner", 5 } } }, v;
  CHECK(strata_value_string(&v, "Ann", 3, &err) == STRATA_OK);
  CHECK(strata_object_set(w, a, path, 2, &v, &err) == STRATA_OK);
  path[1].u.str.s = (char *)"door", path[1].u.str.len = 4;
  CHECK(strata_value_string(&v, "broken", 6, &err) == STRATA_OK);
  CHECK(strata_object_set(w, door, path, 2, &v, &err) == STRATA_OK);

  /* light changed, smell dropped, wet added; the exit's door put back. */
  set_str(&room_props, "light", "dark");
  set_str(&room_props, "smell", NULL);
  set_str(&room_props, "wet", "yes");
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.updated.rooms, 1);
  CHECK_EQ_INT(c.updated.exits, 1);
  CHECK_EQ_INT(total(&c.created) + total(&c.deleted), 0);
  CHECK(prop_is(w, a, "light", "dark") && prop_is(w, a, "smell", NULL) && prop_is(w, a, "wet", "yes"));
  CHECK(prop_is(w, a, "owner", "Ann"));
  CHECK(prop_is(w, door, "door", "oak"));

  /* The prototype gives the game's key: it wins; then gives no props at all:
  ** its keys go, the game's stay. */
  set_str(&room_props, "owner", "the map");
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK(prop_is(w, a, "owner", "the map"));
  set_str(&room_props, "owner", NULL);
  CHECK(strata_value_string(&v, "Bob", 3, &err) == STRATA_OK);
  path[1].u.str.s = (char *)"owner", path[1].u.str.len = 5;
  CHECK(strata_object_set(w, a, path, 2, &v, &err) == STRATA_OK);
  path[1].u.str.s = (char *)"mark", path[1].u.str.len = 4;
  CHECK(strata_value_string(&v, "x", 1, &err) == STRATA_OK);
  CHECK(strata_object_set(w, door, path, 2, &v, &err) == STRATA_OK);
  protos[0].props = NULL, protos[1].props = NULL;
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.updated.rooms, 1);
  CHECK_EQ_INT(c.updated.exits, 1);
  CHECK(prop_is(w, a, "light", NULL) && prop_is(w, a, "wet", NULL) && prop_is(w, door, "door", NULL));
  /* "owner" came from the prototype last, then the game set it: the prototype
  ** had it, so it goes (the rule is per key, not per value). */
  CHECK(prop_is(w, a, "owner", NULL));
  CHECK(prop_is(w, door, "mark", "x"));
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_OK);
  CHECK_EQ_INT(total(&c.created) + total(&c.updated) + total(&c.deleted), 0);

  /* props that are not a table: refused, nothing changed. */
  strata_value bad = strata_value_int(1);
  protos[0].props = &bad;
  size_t count = strata_world_count(w);
  CHECK(strata_grid_spawn(w, &gm, 1, NULL, &c, &err) == STRATA_EARG);
  CHECK(strstr(err.message, "props must be a table") != NULL);
  CHECK_EQ_INT(strata_world_count(w), count);
  strata_value_clear(&room_props);
  strata_value_clear(&exit_props);
  strata_xymap_free(m);
  strata_world_free(w);
}

/* What a C game calls (issue 35): a teleport to a coordinate (the move
** events' checks, a refusal when no room is there), a delete that moves its
** occupants to the grid's home, prototypes kept in the world. */
static void test_teleport_home_prototypes(void) {
  strata_error err;
  strata_registry *reg = strata_registry_new(&err);
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = strata_runtime_new(w, strata_registry_resolver(reg), &err);
  strata_xymap *a = parse("+ 0 1\n\n0 #-#\n\n+ 0 1\n", "a", NULL, 0);
  strata_xymap *b = parse("+ 0 1\n\n0 #-#\n\n+ 0 1\n", "b", NULL, 0);
  strata_grid_map gm[2] = { { a, NULL, 0, NULL, 0 }, { b, NULL, 0, NULL, 0 } };
  strata_grid_counts c;
  CHECK(strata_grid_spawn(w, gm, 2, NULL, &c, &err) == STRATA_OK);
  uint64_t hero;
  CHECK(strata_world_create(w, "actor", NULL, &hero, &err) == STRATA_OK);
  strata_move_outcome out;
  /* In no grid room: z is needed. */
  CHECK(strata_grid_teleport(rt, hero, 1, 0, NULL, &out, &err) == STRATA_EARG);
  CHECK(strstr(err.message, "is in no grid room") != NULL);
  CHECK(strata_grid_teleport(rt, hero, 1, 0, "a", &out, &err) == STRATA_OK && out.refusal == STRATA_MOVE_OK);
  CHECK_EQ_INT(strata_room_of(w, hero), strata_grid_room(w, "a", 1, 0));
  CHECK(strata_grid_teleport(rt, hero, 0, 0, NULL, &out, &err) == STRATA_OK); /* the actor's own map */
  CHECK_EQ_INT(strata_room_of(w, hero), strata_grid_room(w, "a", 0, 0));
  CHECK(strata_grid_teleport(rt, hero, 5, 5, NULL, &out, &err) == STRATA_OK);
  CHECK(out.refusal == STRATA_MOVE_OFF_MAP && !strcmp(out.reason, "no grid room at (5, 5, a)"));
  CHECK_EQ_INT(strata_room_of(w, hero), strata_grid_room(w, "a", 0, 0));

  /* Delete: refused without a home, or with the home on the map; else the hero goes home. */
  CHECK(strata_grid_delete(w, "a", &c, &err) == STRATA_ESTATE);
  CHECK(strata_grid_set_home(w, 999, &err) == STRATA_ENOTFOUND);
  CHECK(strata_grid_set_home(w, strata_grid_room(w, "a", 1, 0), &err) == STRATA_OK);
  CHECK(strata_grid_delete(w, "a", &c, &err) == STRATA_ESTATE);
  CHECK(strstr(err.message, "home room") != NULL);
  uint64_t home = strata_grid_room(w, "b", 1, 0);
  CHECK(strata_grid_set_home(w, home, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_grid_home(w), home);
  CHECK(strata_grid_delete(w, "a", &c, &err) == STRATA_OK);
  CHECK_EQ_INT(c.deleted.rooms, 2);
  CHECK_EQ_INT(strata_room_of(w, hero), home);

  /* Prototypes kept in the world: added, replaced by _id, refused without one. */
  strata_value e = strata_value_nil();
  CHECK(strata_value_table(&e, &err) == STRATA_OK);
  set_str(&e, "_id", "world.tower");
  set_str(&e, "key", "Tower");
  CHECK(strata_grid_set_prototype(w, &e, &err) == STRATA_OK);
  set_str(&e, "key", "Old tower");
  CHECK(strata_grid_set_prototype(w, &e, &err) == STRATA_OK);
  const strata_value *got = strata_grid_prototype(w, 0);
  CHECK(got && !strcmp(strata_vtable_get_str(got->u.t, "key")->u.str.s, "Old tower"));
  CHECK(strata_grid_prototype(w, 1) == NULL);
  strata_value_clear(&e);
  CHECK(strata_value_table(&e, &err) == STRATA_OK);
  CHECK(strata_grid_set_prototype(w, &e, &err) == STRATA_EARG);
  strata_value_clear(&e);

  strata_runtime_free(rt);
  strata_xymap_free(a);
  strata_xymap_free(b);
  strata_world_free(w);
  strata_registry_free(reg);
}

int main(void) {
  test_teleport_home_prototypes();
  test_spawn_and_respawn();
  test_transitions_and_filters();
  test_props();
  return check_summary("grid");
}
