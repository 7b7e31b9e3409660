/*
** room.h - rooms and exits: the objects of text worlds (grid maps spawn
** them, procedural branches grow them, a game may make them by hand).
**
** A room is a world object of kind "room" with a name and a description;
** an exit is an object of kind "exit" leaving one room (its `from`) for
** another (its `to`, or none while it leads nowhere yet) under a name and
** any number of aliases ("north", "n"). An actor (any object) stands in at
** most one room. All of it is plain world data (under the object's "sys"
** properties), so savepoints undo it and saves keep it:
**   room:  sys.room  = { name =, desc =, exits = { ref, ... } }
**   exit:  sys.exit  = { name =, desc =, from = ref, to = ref?, aliases = { s, ... } }
**   actor: sys.in_room = ref
** The exits of a room are listed on the room, in creation order, so that a
** move looks at that room's exits only. A generator may leave a stamp on a
** room (sys.stamp, an integer: grid.c's fingerprint of the exits it made);
** every exit made, changed or deleted here drops its room's stamp, so a
** stamp still there says the room's exits are as the generator left them.
**
** Strings returned point into the world's values: valid until that object
** changes. Errors: ENOTFOUND for a uid that is not a live object of the
** kind wanted, EARG for a bad name, ENOMEM (the world is unchanged).
*/
#ifndef STRATA_ROOM_H
#define STRATA_ROOM_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- rooms ---- */
/* Creates a room (name: not empty; desc: NULL for ""). */
STRATA_API strata_status strata_room_create(strata_world *w, const char *name, const char *desc,
                                            uint64_t *uid, strata_error *err);
/* Nonzero when uid is a live room. */
STRATA_API int strata_is_room(const strata_world *w, uint64_t uid);
/* The room's name / description; NULL when uid is no room. */
STRATA_API const char *strata_room_name(const strata_world *w, uint64_t room);
STRATA_API const char *strata_room_desc(const strata_world *w, uint64_t room);
STRATA_API strata_status strata_room_set_name(strata_world *w, uint64_t room, const char *name,
                                              strata_error *err);
STRATA_API strata_status strata_room_set_desc(strata_world *w, uint64_t room, const char *desc,
                                              strata_error *err);
/* The exits leaving the room: how many, and the i-th (0-based, creation order). */
STRATA_API size_t strata_room_exit_count(const strata_world *w, uint64_t room);
STRATA_API uint64_t strata_room_exit_at(const strata_world *w, uint64_t room, size_t i);
/* Deletes the room with the exits leaving it and the exits leading into it.
** Refused (ESTATE, nothing changed) while an object stands in it. Exits into
** the room are found by a scan of the world's objects. */
STRATA_API strata_status strata_room_delete(strata_world *w, uint64_t room, strata_error *err);

/* ---- who is where ---- */
/* The room obj stands in; 0 when none (or the room is gone). */
STRATA_API uint64_t strata_room_of(const strata_world *w, uint64_t obj);
/* Puts obj (not a room, not an exit) in room; room 0 takes it out of any. */
STRATA_API strata_status strata_room_put(strata_world *w, uint64_t obj, uint64_t room,
                                         strata_error *err);
/* The uids of the objects standing in room, in uid order, into out (room for
** cap); returns how many there are (may exceed cap). A scan of the world. */
STRATA_API size_t strata_room_contents(const strata_world *w, uint64_t room, uint64_t *out,
                                       size_t cap);

/* ---- exits ---- */
/* Creates an exit from room `from` to room `to` (0: leads nowhere yet),
** named `name` (not empty), desc NULL for "". */
STRATA_API strata_status strata_exit_create(strata_world *w, uint64_t from, uint64_t to,
                                            const char *name, const char *desc, uint64_t *uid,
                                            strata_error *err);
STRATA_API int strata_is_exit(const strata_world *w, uint64_t uid);
/* 0 when uid is no exit (or, for to, while it leads nowhere). */
STRATA_API uint64_t strata_exit_from(const strata_world *w, uint64_t exit);
STRATA_API uint64_t strata_exit_to(const strata_world *w, uint64_t exit);
STRATA_API const char *strata_exit_name(const strata_world *w, uint64_t exit);
STRATA_API const char *strata_exit_desc(const strata_world *w, uint64_t exit);
STRATA_API size_t strata_exit_alias_count(const strata_world *w, uint64_t exit);
STRATA_API const char *strata_exit_alias_at(const strata_world *w, uint64_t exit, size_t i);
/* Re-points the exit (to: a room, or 0 for nowhere). */
STRATA_API strata_status strata_exit_set_to(strata_world *w, uint64_t exit, uint64_t to,
                                            strata_error *err);
STRATA_API strata_status strata_exit_set_name(strata_world *w, uint64_t exit, const char *name,
                                              strata_error *err);
STRATA_API strata_status strata_exit_set_desc(strata_world *w, uint64_t exit, const char *desc,
                                              strata_error *err);
/* Replaces the aliases with the n strings of aliases (each not empty). */
STRATA_API strata_status strata_exit_set_aliases(strata_world *w, uint64_t exit,
                                                 const char *const *aliases, size_t n,
                                                 strata_error *err);
/* The first exit of room named dir or with dir among its aliases; else a
** branch exit named after the direction whose short name dir is ("e" for
** "east": branch.h); 0: none. */
STRATA_API uint64_t strata_exit_find(const strata_world *w, uint64_t room, const char *dir);
/* Deletes the exit and takes it off its room's list. */
STRATA_API strata_status strata_exit_delete(strata_world *w, uint64_t exit, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
