/*
** worldgen.h - random multi-floor worlds: on each floor, waypoints joined by
** hallways and rooms around the waypoints; stairs between floors, a start
** on the first floor and an exit on the last; and a check, with the
** pathfinder, that each floor can be crossed (docs/worldgen.md).
**
** A world template is plain data. Coordinates are 1-based, as in the
** template file: x in 1..dim_x to the right, y in 1..dim_y down, floors
** 1..dim_z. Tile (x, y) of a floor is tiles[(y - 1) * dim_x + (x - 1)].
**
** Determinism: floor z is a function of the options and z alone. Its
** waypoints, rooms and hallways come from the stream "worldgen floor <z>" of
** the seed (regenerating it goes on drawing from that stream); its arrival
** and leaving points from streams of their own ("worldgen start", "worldgen
** stairs <z>", "worldgen exit"). So one floor can be made by itself
** (strata_worldgen_make_floor) and equals that floor of the whole world.
**
** Ownership: a strata_worldgen from _generate, _parse, _read or _new
** belongs to the caller (strata_worldgen_free); its floors, tiles and rooms
** belong to it. Text handed out (_format, _render) is the caller's: strata_free it.
** No global state: two threads may generate at once.
*/
#ifndef STRATA_WORLDGEN_H
#define STRATA_WORLDGEN_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/path.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a tile is. Only STRATA_WG_WALL blocks movement. */
typedef enum strata_worldgen_tile {
  STRATA_WG_WALL = 0,
  STRATA_WG_HALLWAY,
  STRATA_WG_ROOM,
  STRATA_WG_START,   /* floor 1 only */
  STRATA_WG_EXIT,    /* the last floor only */
  STRATA_WG_ASCENT,  /* every floor but the first: stairs up */
  STRATA_WG_DESCENT  /* every floor but the last: stairs down */
} strata_worldgen_tile;
#define STRATA_WG_TILE_KINDS 7

/* "wall", "hallway", "room", "start", "exit", "ascent", "descent"; NULL if unknown. */
STRATA_API const char *strata_worldgen_tile_name(int tile);
/* The template file's glyph: '#' ',' '.' 'S' 'E' '<' '>'; 0 if unknown. */
STRATA_API char strata_worldgen_tile_glyph(int tile);
/* The tile named name (len bytes), or -1. */
STRATA_API int strata_worldgen_tile_parse(const char *name, size_t len);

/* Limits: each side, and the cells of all floors together. */
#define STRATA_WORLDGEN_SIDE_MAX 65535
#define STRATA_WORLDGEN_CELLS_MAX (1u << 28)
/* Generations of one floor before the check gives up on it. */
#define STRATA_WORLDGEN_ATTEMPTS 100
/* Defaults of the options. */
#define STRATA_WORLDGEN_ROOM_VARIANCE 5
/* The dims rand draws: sides of 10 .. 50 tiles, 1 .. 10 floors. */
#define STRATA_WORLDGEN_RAND_SIDE_MIN 10
#define STRATA_WORLDGEN_RAND_SIDE_MAX 50
#define STRATA_WORLDGEN_RAND_FLOORS_MAX 10

typedef struct strata_worldgen_point { int x, y; } strata_worldgen_point; /* {0, 0}: none */
typedef struct strata_worldgen_room { int x, y, w, h; } strata_worldgen_room; /* top-left, size */

typedef struct strata_worldgen_floor {
  unsigned char *tiles;               /* dim_x * dim_y strata_worldgen_tile values */
  strata_worldgen_point start, exit;  /* set on floor 1 / the last floor only */
  strata_worldgen_point ascent;       /* none on floor 1 */
  strata_worldgen_point descent;      /* none on the last floor */
  strata_worldgen_room *rooms;
  size_t room_count, room_cap;
  int attempts;                       /* generations this floor took (1 without the check) */
} strata_worldgen_floor;

typedef struct strata_worldgen {
  int dim_x, dim_y, dim_z;
  int64_t seed;
  int room_variance;
  strata_path_algorithm path_alg;
  int post_check;
  strata_worldgen_floor *floors; /* dim_z of them: floors[z - 1] is floor z */
} strata_worldgen;

/* Messages while generating: level 1 says how each floor went, level 2 (debug)
** each attempt, its waypoints and its hallways. Returning nonzero stops the
** generation, which then fails with STRATA_ESTATE. */
typedef int (*strata_worldgen_log)(void *ud, int level, int floor, const char *message);

typedef struct strata_worldgen_options {
  int dim_x, dim_y, dim_z;        /* each >= 1 */
  int rand;                       /* nonzero: dims drawn from the seed (stream "worldgen dims")
                                  ** within the STRATA_WORLDGEN_RAND_ bounds, dim_* unused */
  int64_t seed;
  int room_variance;              /* the largest side of a room, >= 3 */
  strata_path_algorithm path_alg; /* the check's search; default A* */
  int post_check;                 /* nonzero: each floor regenerated until it is passable */
  int max_attempts;               /* generations per floor before failing (ELIMIT) */
  int leg_steps;                  /* most steps of one hallway leg; 0: 3 * distance + 16.
                                  ** Small values cut hallways short (for tests). */
  strata_worldgen_log log;        /* may be NULL */
  void *log_ud;
} strata_worldgen_options;

/* Defaults: 25 x 25 x 3, rand off, seed 0, room_variance 5, A*, the check on,
** STRATA_WORLDGEN_ATTEMPTS attempts, no log. */
STRATA_API void strata_worldgen_options_init(strata_worldgen_options *o);

/* With rand: draws the dims from the seed into dim_x, dim_y, dim_z and turns
** rand off (what _generate and _make_floor do first); else nothing. */
STRATA_API void strata_worldgen_resolve(strata_worldgen_options *o);

/* The configuration file (docs/worldgen.md): lines `key = value` (or
** `key: value`) of the keys dim_x, dim_y, dim_z, rand, seed, room_variance,
** post_check, path_alg; comments (# or ; first), blank lines, at most one
** [worldgen] section line. Sets in *o the options the text names and leaves
** the others as they were. A bad line is EPARSE with err->line and
** "name:line: what" (an unknown key names the nearest known ones); *o is
** then unchanged. name (may be NULL) names the text in messages. */
STRATA_API strata_status strata_worldgen_conf_parse(const char *text, size_t len, const char *name,
                                                    strata_worldgen_options *o, strata_error *err);
/* The most bytes a conf file may hold: a conf is a few lines. */
#define STRATA_WORLDGEN_CONF_MAX (1u << 20)
/* The same from a file: a regular file only (strata/file.h), of at most
** STRATA_WORLDGEN_CONF_MAX bytes (a longer one is ELIMIT "cannot read
** '<path>': it is larger than N bytes (...)", found by reading at most one
** byte past the cap, whatever its size claims). */
STRATA_API strata_status strata_worldgen_conf_read(const char *path, strata_worldgen_options *o,
                                                   strata_error *err);

/* A whole world (with rand, of the dims drawn; the template records them, so
** generating with those dims and the seed makes it again). Fails with EARG naming dims or room_variance or path_alg,
** ELIMIT naming the floor that stayed impassable max_attempts times, ENOMEM,
** or ESTATE when the log callback stopped it. *out is untouched on failure. */
STRATA_API strata_status strata_worldgen_generate(const strata_worldgen_options *o, strata_worldgen **out,
                                       strata_error *err);
/* Floor z alone, equal to floor z of strata_worldgen_generate(o). *out is
** overwritten (clear it first if it held a floor); on failure it is empty. */
STRATA_API strata_status strata_worldgen_make_floor(const strata_worldgen_options *o, int z,
                                         strata_worldgen_floor *out, strata_error *err);
STRATA_API void strata_worldgen_floor_clear(strata_worldgen_floor *f); /* frees tiles and rooms */
STRATA_API void strata_worldgen_free(strata_worldgen *t);              /* NULL is accepted */

/* An empty template to fill in (every tile a wall, no points, no rooms), for
** callers that build one from their own data; check it with _validate. */
STRATA_API strata_worldgen *strata_worldgen_new(int dim_x, int dim_y, int dim_z, strata_error *err);
STRATA_API strata_status strata_worldgen_add_room(strata_worldgen_floor *f, strata_worldgen_room r,
                                       strata_error *err);

/* Checks everything docs/worldgen.md promises of a template: sizes, the
** options recorded, the points of each floor (where they must be, inside the
** floor, stairs lined up, each drawn on its tile and no other tile drawn as
** one), rooms inside the floor with sides in 3 .. room_variance, attempts >= 1.
** Passability is not checked (a template made without the check need not be
** passable): see strata_worldgen_passable. */
STRATA_API strata_status strata_worldgen_validate(const strata_worldgen *t, strata_error *err);

/* Whether floor z can be crossed, 4-connected, from its arrival point (start
** or ascent) to its leaving point (descent or exit), searched with alg. */
STRATA_API strata_status strata_worldgen_passable(const strata_worldgen *t, int z, strata_path_algorithm alg,
                                       int *passable, strata_error *err);

/* The template file (docs/worldgen.md): the same template gives the same
** bytes. _parse refuses damaged text with the line (err->line) and why;
** name (may be NULL) names the text in messages. */
STRATA_API strata_status strata_worldgen_format(const strata_worldgen *t, char **text, size_t *len,
                                     strata_error *err);
STRATA_API strata_status strata_worldgen_parse(const char *text, size_t len, const char *name,
                                    strata_worldgen **out, strata_error *err);
/* The most bytes _read takes (strata_file_read): room for the largest
** template's cells, each row's end and the lines around its floors. */
#define STRATA_WORLDGEN_TEXT_MAX ((size_t)STRATA_WORLDGEN_CELLS_MAX * 4)
/* The same through a file: _write writes a temporary of its own and renames it over path (strata/file.h). */
STRATA_API strata_status strata_worldgen_write(const strata_worldgen *t, const char *path, strata_error *err);
STRATA_API strata_status strata_worldgen_read(const char *path, strata_worldgen **out, strata_error *err);

/* The floors drawn for a person: a heading per floor, then its rows of
** glyphs; with color, ANSI colours (walls dim, hallways blue, points bold). */
STRATA_API strata_status strata_worldgen_render(const strata_worldgen *t, int color, char **text,
                                     size_t *len, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
