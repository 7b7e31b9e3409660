/*
** grid.h - XY maps spawned into a world as rooms and exits (Evennia's
** XYZGrid spawn), kept in step with the maps by reconciling.
**
** A grid room is a room (room.h) that also carries its place, sys.place =
** "X Y I TAG Z" (I: 1 for an interrupt node, TAG: its symbol, Z: the map's
** Z string, last as it may hold spaces); a grid exit carries the place of the
** node it leaves, with TAG the map direction of its first link ("n" ...
** "nw") and I 1 when it crosses an interrupt link. Exits without it are
** hand-made: spawning leaves them alone.
**
** Spawning a map: every node but transitions gets a room; every chain out
** of such a node an exit, named after its direction (north, with alias n;
** "up"/"down" for u/d links) unless the legend's spawn aliases say
** otherwise, leading to the room of the node it reaches, or for a
** transition the room at its target on another map (no room there yet: the
** exit leads nowhere). Prototypes give names and descriptions by
** coordinate, and properties (props): the keys of a prototype's props
** table are set under the object's "props" table, and sys.pkeys lists
** which keys came from prototypes, so that a respawn removes a key the
** prototype no longer gives but never one the game set itself.
** Reconciling: rooms and exits that exist already are matched by
** coordinates (and direction) and changed only where they differ; rooms
** whose node is gone are deleted with every exit out of them and the grid
** exits into them. A spawn runs in one savepoint: on error nothing changed.
** Each grid room keeps a stamp of its exits as the map wanted them (room.h:
** any change of its exits drops it), so a respawn with nothing to change
** reads the rooms and not each of their exits.
*/
#ifndef STRATA_GRID_H
#define STRATA_GRID_H

#include "strata/api.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/move.h"
#include "strata/value.h"
#include "strata/world.h"
#include "strata/xymap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A wildcard coordinate or direction ("*"). */
#define STRATA_GRID_ANY INT_MIN
/* proto.dir of a room prototype. */
#define STRATA_GRID_ROOM (-1)

/* What a prototype gives: the name (NULL: the default), description and props. */
typedef struct strata_grid_proto {
  int x, y;          /* or STRATA_GRID_ANY */
  int dir;           /* STRATA_GRID_ROOM, a direction 0..7, or STRATA_GRID_ANY (any exit) */
  char symbol;       /* only for nodes / first links of this symbol; 0: any */
  int tier;          /* 0 the map's own, 1 its legend's, 2 the base ones: a lower tier
                     ** that matches wins over any higher one */
  const char *name;  /* NULL: keep the default name */
  const char *desc;  /* NULL: keep the default ("") */
  const strata_value *props; /* NULL or a table: keys set under the object's "props"; the
                             ** caller keeps it alive during the spawn */
} strata_grid_proto;

/* Names for exits leaving through links of `symbol` in map direction dir:
** names[0] is the exit's name, the rest its aliases. */
typedef struct strata_grid_alias {
  char symbol;
  int dir;
  const char *const *names;
  size_t n;
} strata_grid_alias;

/* A map to spawn and its prototypes. The lowest tier with a matching
** prototype decides (Evennia: the map's prototypes by coordinate, then the
** legend's default for the symbol, then xyz_room / xyz_exit); within it the
** most specific (the most coordinates given), the earliest on a tie. */
typedef struct strata_grid_map {
  const strata_xymap *map;
  const strata_grid_proto *protos;
  size_t nprotos;
  const strata_grid_alias *aliases;
  size_t naliases;
} strata_grid_map;

/* The prototype a spawn of gm gives the node at (x, y) of that symbol (dir
** STRATA_GRID_ROOM) or its exit in map direction dir; NULL: none. */
STRATA_API const strata_grid_proto *strata_grid_find_proto(const strata_grid_map *gm, int x, int y, int dir,
                                                           char symbol);

/* Which nodes to spawn: x / y STRATA_GRID_ANY for any, z NULL for any map. */
typedef struct strata_grid_filter {
  int x, y;
  const char *z;
} strata_grid_filter;

typedef struct strata_grid_count {
  size_t rooms, exits;
} strata_grid_count;

typedef struct strata_grid_counts {
  strata_grid_count created, updated, deleted;
} strata_grid_counts;

/* Spawns the maps (all of the grid: those the filter leaves out are still
** the targets of transitions) into w, reconciling with what is there, and
** counts what changed into *counts. A spawn with nothing to change writes
** nothing. Errors: EARG (two maps with one Z), ESTATE (a room to delete
** holds an object: message names both), ENOMEM; then w is unchanged. */
STRATA_API strata_status strata_grid_spawn(strata_world *w, const strata_grid_map *maps, size_t n,
                                           const strata_grid_filter *filter,
                                           strata_grid_counts *counts, strata_error *err);

/* Deletes every grid room of map z with its exits (and the grid exits into
** them), counting into counts->deleted. Whatever stands in those rooms is
** moved (strata_room_put: no events, as the reference's "moved back to your
** home location") to the grid's home room when one is set; without one, or
** with the home itself on map z, the delete is refused (ESTATE, the message
** names the room and what stands in it). Other errors as spawn's. */
STRATA_API strata_status strata_grid_delete(strata_world *w, const char *z, strata_grid_counts *counts,
                                            strata_error *err);

/* The world's grid maps (base.grid_map IDs, in the order added), kept on
** its one object of kind "grid_maps" (bookkeeping: strata_world_delete
** refuses it): writes up to cap borrowed IDs (valid until the list changes)
** and returns how many there are. */
STRATA_API size_t strata_grid_map_ids(const strata_world *w, const char **out, size_t cap);
/* Replaces that list (made on the first map; one savepoint: on an error,
** ENOMEM, nothing changed). */
STRATA_API strata_status strata_grid_set_map_ids(strata_world *w, const char *const *ids, size_t n,
                                                 strata_error *err);

/* The grid's home room (where strata_grid_delete moves what stands on a
** deleted map): 0 when none is set or it is gone. Kept on the "grid_maps"
** object, saved with the world; room 0 unsets it (ENOTFOUND: no live room). */
STRATA_API uint64_t strata_grid_home(const strata_world *w);
STRATA_API strata_status strata_grid_set_home(strata_world *w, uint64_t room, strata_error *err);

/* Prototypes stored in the world (the reference's database prototypes),
** saved with it: tables with a string "_id", kept in the order first added
** on the "grid_maps" object. strata_grid_prototype gives the i-th (from 0),
** NULL past the last; strata_grid_set_prototype stores a copy of entry,
** replacing the one of the same _id (EARG: no table or no _id; ENOMEM).
** Their fields are checked by whoever adds them (the Lua layer: as a
** base.prototype entry). */
STRATA_API const strata_value *strata_grid_prototype(const strata_world *w, size_t i);
STRATA_API strata_status strata_grid_set_prototype(strata_world *w, const strata_value *entry, strata_error *err);

/* The grid place of a room or exit: 1 and its fields when uid is a grid
** room or exit, else 0 (any pointer may be NULL). *z points into the world's
** values (valid until the object changes); tag gets the room's symbol or the
** exit's map direction; *interrupt: an interrupt node / an exit crossing an
** interrupt link. */
STRATA_API int strata_grid_pos(const strata_world *w, uint64_t uid, int *x, int *y, const char **z, char tag[4],
                               int *interrupt);

/* The grid room at (x, y) of map z; 0 when none (the first by uid when
** several stand there). An index of the world's, made again on the first
** lookup after any room is made, deleted, moved or edited (a rollback and an
** edit from C included), so the answer is never older than the world. */
STRATA_API uint64_t strata_grid_room(const strata_world *w, const char *z, int x, int y);

/* Teleports the actor to the grid room at (x, y) of map z (NULL: the map of
** the actor's room) with the checks and events of any arrival
** (strata_move_to_room: base.before_move may refuse, base.moved follows).
** No room there: out->refusal STRATA_MOVE_OFF_MAP, nothing moved. Errors:
** EARG (no live actor; z NULL and the actor in no grid room), those of
** strata_move_to_room (EARG: the actor stands on a tile map). */
STRATA_API strata_status strata_grid_teleport(strata_runtime *rt, uint64_t actor, int x, int y, const char *z,
                                              strata_move_outcome *out, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
