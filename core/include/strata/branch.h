/*
** branch.h - procedural dungeon branches: rooms on an (x, y) grid made one
** at a time as their exits are first crossed (docs/branches.md).
**
** A hub room has start exits (strata_branch_make_start) that lead nowhere
** until first crossed; crossing one makes a branch and its first room. A
** branch's rooms are ordinary rooms (room.h) and its exits ordinary exits,
** named after directions ("north", ...) and found by their short names too
** ("n", "ne": strata_exit_find); an exit that leads nowhere yet is
** an unexplored exit, and strata_branch_grow makes the room behind it:
**   - the room's cell is the crossed exit's room cell plus the direction;
**     the hub is (0, 0); depth = floor(sqrt(x*x + y*y));
**   - the crossed exit is bound to the room, a back exit (the opposite
**     direction) leads to the room it came from, and every other unexplored
**     exit into that cell is bound to it at once (the only one-way exits);
**   - open = the branch's unexplored exits after that; n_max =
**     min(max_new, max_unexplored - open, free directions), where a free
**     direction leads to neither the hub cell nor a cell holding a room;
**     n = rng int in [open > 0 ? 0 : 1, n_max] (0 when n_max == 0); n free
**     directions are drawn and get new unexplored exits.
** Exits out of a room that is not clear refuse traversal, except its back
** exit (strata_branch_may_cross).
**
** Everything is world data (savepoints undo it, saves keep it):
**   branch: kind "branch", sys.branch = { hub, archetype, dirs, max_open,
**           max_new, open, rooms, last_act, index = ref }
**   index:  kind "branch_index", sys.chunks = { [chunk key] = ref }
**   cells:  kind "branch_cells", sys.cells = { [cell key] = room ref }: the
**           cell index in 8 x 8 chunks, so that making a room copies a small
**           chunk and the branch's small record, not the whole index, into
**           the savepoint
**   (index and cells are bookkeeping: strata_world_delete refuses them,
**   the branch's collapse or delete removes them)
**   room:   sys.broom = { branch, x, y, depth, clear, back = exit ref }
**   start:  sys.bstart = { archetype = ID } on a start exit of the hub
**   branch: sys.btimers = { idle = timer, resets = { timer, ... } }: the
**           timers of its idle collapse and start exit resets
** Moves through branch exits, their events and the branch timers are the
** runtime's (move.h); this file keeps the counts and times they read.
**
** Errors: ENOTFOUND for a uid that is no live object of the kind wanted,
** EARG for bad rules or a bad direction, ESTATE for a move the rules refuse
** (the cell holds a room, the exit is bound); the world is then unchanged.
*/
#ifndef STRATA_BRANCH_H
#define STRATA_BRANCH_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/resolver.h"
#include "strata/rng.h"
#include "strata/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A direction's step: north (0, +1), east (+1, 0), south (0, -1), west
** (-1, 0), and the four between them (northeast, ...). 0 when unknown. */
STRATA_API int strata_branch_dir(const char *name, int64_t *dx, int64_t *dy);
/* floor(sqrt(x*x + y*y)), exactly: the depth of cell (x, y). */
STRATA_API int64_t strata_branch_depth(int64_t x, int64_t y);
/* "south" for "north", ...; NULL when unknown. */
STRATA_API const char *strata_branch_opposite(const char *name);
/* "north" for "n", "northeast" for "ne", ...: the short name of each
** direction, which branch exits answer to (strata_exit_find); NULL when
** shortname is none. */
STRATA_API const char *strata_branch_long_dir(const char *shortname);

/* The rules a branch is made with (a branch archetype's fields). */
typedef struct strata_branch_rules {
  const char *archetype;       /* its ID, stored (not empty) */
  const char *const *dirs;     /* the directions new exits take: known, distinct */
  size_t ndirs;                /* 1..8 */
  int64_t max_unexplored;      /* >= 1: the budget of unexplored exits */
  int64_t max_new;             /* >= 1: new exits per room at most */
  const char *generator;       /* the base.room_generator ID, stored; NULL: none (a host that
                                ** generates rooms itself and calls strata_branch_grow) */
} strata_branch_rules;

/* What a room generator made (its strings are copied). */
typedef struct strata_room_spec {
  const char *name;            /* not empty */
  const char *desc;            /* NULL: "" */
  int clear;                   /* 0: exits out of it refuse traversal until set clear */
} strata_room_spec;

/* A start exit of the hub named dir (a known direction, not yet one of
** hub's exits) for branches of archetype. */
STRATA_API strata_status strata_branch_make_start(strata_world *w, uint64_t hub, const char *dir,
                                                  const char *archetype, uint64_t *exit, strata_error *err);
/* The archetype of a start exit; NULL when exit is none. */
STRATA_API const char *strata_branch_start_archetype(const strata_world *w, uint64_t exit);

/* A new branch off hub, without rooms (strata_branch_grow through a start exit makes the first). */
STRATA_API strata_status strata_branch_create(strata_world *w, const strata_branch_rules *rules, uint64_t hub,
                                              uint64_t *branch, strata_error *err);
STRATA_API int strata_is_branch(const strata_world *w, uint64_t uid);
/* The room generator's ID; NULL when the branch was made without one. */
STRATA_API const char *strata_branch_generator(const strata_world *w, uint64_t branch);
STRATA_API uint64_t strata_branch_hub(const strata_world *w, uint64_t branch);
STRATA_API const char *strata_branch_archetype(const strata_world *w, uint64_t branch);

/* The cell an unexplored exit leads into: for an exit of a branch room
** (branch set to its branch) or a start exit (branch set to 0). */
STRATA_API strata_status strata_branch_target(const strata_world *w, uint64_t exit, uint64_t *branch,
                                              int64_t *x, int64_t *y, strata_error *err);
/* Makes the room behind the unexplored exit `exit` (of branch, or a start
** exit whose branch is `branch`) from spec, by the rules above, drawing
** from rng. One savepoint: on failure nothing changed (rng included, as the
** caller's savepoint restores it). */
STRATA_API strata_status strata_branch_grow(strata_world *w, uint64_t branch, uint64_t exit,
                                            const strata_room_spec *spec, strata_rng *rng, uint64_t *room,
                                            strata_error *err);

/* With a runtime (runtime.h): makes the room behind the unexplored exit `exit`
** as strata_branch_grow does, its spec from the branch's room generator,
** called by ID through the resolver (STRATA_LOGIC_GENERATE_ROOM): call->x,
** call->y the cell, call->depth its depth, call->source the branch,
** call->rng the stream "branch#<uid> cell <x>,<y>" of the world seed (not
** kept in the world: it is used once); the generator answers call->ret =
** { name =, desc =, clear =, props = } (any other key is EARG naming the
** nearest). New exits draw from the world stream "branch#<uid> exits". One
** savepoint: a generator that fails, or a bad spec, changes nothing. */
STRATA_API strata_status strata_branch_generate(strata_runtime *rt, uint64_t branch, uint64_t exit,
                                                uint64_t *room, strata_error *err);

/* The room in cell (x, y) of branch; 0: none. */
STRATA_API uint64_t strata_branch_room_at(const strata_world *w, uint64_t branch, int64_t x, int64_t y);
/* The branch of a room; 0 when it is no branch room. */
STRATA_API uint64_t strata_branch_of(const strata_world *w, uint64_t room);
/* A branch room's cell and depth; nonzero when room is one. */
STRATA_API int strata_branch_cell(const strata_world *w, uint64_t room, int64_t *x, int64_t *y, int64_t *depth);
/* The back exit of a branch room; 0: none. */
STRATA_API uint64_t strata_branch_back_exit(const strata_world *w, uint64_t room);
STRATA_API int strata_branch_room_clear(const strata_world *w, uint64_t room);
STRATA_API strata_status strata_branch_set_clear(strata_world *w, uint64_t room, int clear, strata_error *err);
/* Nonzero when the rules let an actor cross exit (out of a room that is
** clear, or its back exit, or an exit of no branch room). */
STRATA_API int strata_branch_may_cross(const strata_world *w, uint64_t exit);

/* Unexplored exits, rooms. */
STRATA_API int64_t strata_branch_open(const strata_world *w, uint64_t branch);
STRATA_API int64_t strata_branch_room_count(const strata_world *w, uint64_t branch);
/* The rooms of branch in uid (creation) order into out (room for cap);
** returns how many there are. */
STRATA_API size_t strata_branch_rooms(const strata_world *w, uint64_t branch, uint64_t *out, size_t cap);
/* The objects standing in its rooms, in uid order (a scan of the world). */
STRATA_API size_t strata_branch_members(const strata_world *w, uint64_t branch, uint64_t *out, size_t cap);
/* When a member last acted (world time); strata_branch_acted sets it to now. */
STRATA_API double strata_branch_last_act(const strata_world *w, uint64_t branch);
STRATA_API strata_status strata_branch_acted(strata_world *w, uint64_t branch, strata_error *err);

/* Deletes the branch: refused (ESTATE) while it has members (the host moves
** them out first, with its move events). Exits from elsewhere into its rooms
** (the hub's start exits) are unbound, its rooms and their exits deleted.
** One savepoint. */
STRATA_API strata_status strata_branch_delete(strata_world *w, uint64_t branch, strata_error *err);

/* With a runtime: moves every member of the branch to its hub (with the
** move events: a member a base.before_move handler keeps back makes the
** collapse fail, ESTATE naming it), cancels the branch's timers and deletes
** it, in one savepoint. */
STRATA_API strata_status strata_branch_collapse(strata_runtime *rt, uint64_t branch, strata_error *err);

/* Checks every rule of the branch as it stands (for tests and debugging):
** one room per cell, none in the hub cell, depths, back exits, adjacency,
** one-way exits only into rooms made after them, the count of unexplored
** exits within the budget and equal to the stored count. ESTATE with the
** first broken rule. */
STRATA_API strata_status strata_branch_check(const strata_world *w, uint64_t branch, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
