/*
** tilemap.h - rectangular maps whose cells hold ordered stacks of tokens.
**
** Coordinates are 0-based: x grows to the right, y downwards. A cell's stack
** is ordered bottom to top; the top token is the one drawn.
**
** Memory: one 32-bit word per cell (W*H*4 bytes) holds an empty cell or a
** single token in place, with no allocation. Only cells holding two or more
** tokens use a side stack (16 bytes + 4 per token). Searches keep their
** workspace apart from the map, in a strata_grid_search (below), sized to
** the largest map searched: about 2 to 10 bytes per cell by engine (a byte
** per cell of cost classes, then one to nine bytes of search state), 16
** more the first time greedy search or a map of many costs is searched.
**
** Movement: a cell is passable when it holds at least one token and all of
** its tokens are passable; entering it costs the largest cost among them.
*/
#ifndef STRATA_TILEMAP_H
#define STRATA_TILEMAP_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/path.h"
#include "strata/tokens.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest width or height, and largest W*H. */
#define STRATA_TILEMAP_SIDE_MAX 65535
#define STRATA_TILEMAP_CELLS_MAX (1u << 28)

typedef struct strata_tilemap strata_tilemap;

/* A width x height map of empty cells. tokens is retained (the map holds a
** reference and shares the table); NULL gives the map a private new table. */
STRATA_API strata_tilemap *strata_tilemap_new(int width, int height, strata_tokens *tokens,
                                   strata_error *err);
STRATA_API void strata_tilemap_free(strata_tilemap *m); /* NULL is accepted */
/* A copy of m: the same size, cells and stacks. A shared token table is
** shared by the copy too; a private one is cloned, so the copy has its own. */
STRATA_API strata_tilemap *strata_tilemap_clone(const strata_tilemap *m, strata_error *err);

STRATA_API int strata_tilemap_width(const strata_tilemap *m);
STRATA_API int strata_tilemap_height(const strata_tilemap *m);
STRATA_API strata_tokens *strata_tilemap_tokens(const strata_tilemap *m);
/* Replaces a shared token table by a private clone, so that defining traits
** on it affects this map only. Ids stay valid. Does nothing when the table is
** private already (made with the map, or by an earlier call). */
STRATA_API strata_status strata_tilemap_own_tokens(strata_tilemap *m, strata_error *err);
/* Nonzero when the map's token table is its own rather than shared. */
STRATA_API int strata_tilemap_has_private_tokens(const strata_tilemap *m);
STRATA_API int strata_tilemap_contains(const strata_tilemap *m, int x, int y);
/* Bumped by every change of any cell. */
STRATA_API uint64_t strata_tilemap_revision(const strata_tilemap *m);

/* Cell edits. Each fails with STRATA_EARG (map unchanged) for a coordinate
** outside the map or token 0 where a token is required. */
STRATA_API strata_status strata_tilemap_set(strata_tilemap *m, int x, int y, strata_token t,
                                 strata_error *err);       /* push on top */
STRATA_API strata_status strata_tilemap_add_front(strata_tilemap *m, int x, int y, strata_token t,
                                       strata_error *err); /* insert at the bottom */
/* Removes every occurrence of t; *removed (may be NULL) gets how many. */
STRATA_API strata_status strata_tilemap_remove(strata_tilemap *m, int x, int y, strata_token t,
                                    int *removed, strata_error *err);
/* Empties the cell, then pushes t (t == 0 leaves it empty). */
STRATA_API strata_status strata_tilemap_reset(strata_tilemap *m, int x, int y, strata_token t,
                                   strata_error *err);
/* Resets every cell to t (0: empty). Cannot fail for a valid token. */
STRATA_API strata_status strata_tilemap_clear(strata_tilemap *m, strata_token t, strata_error *err);
/* Resets (or, with push != 0, pushes onto) every cell of a rectangle, clipped
** to the map. */
STRATA_API strata_status strata_tilemap_fill_rect(strata_tilemap *m, int x, int y, int w, int h,
                                       strata_token t, int push, strata_error *err);

/* Number of tokens in the cell (0 outside the map). Copies up to cap of them,
** bottom first, into out (which may be NULL when cap is 0). */
STRATA_API size_t strata_tilemap_stack(const strata_tilemap *m, int x, int y,
                            strata_token *out, size_t cap);
STRATA_API strata_token strata_tilemap_top(const strata_tilemap *m, int x, int y); /* 0 if empty */
STRATA_API int strata_tilemap_has(const strata_tilemap *m, int x, int y, strata_token t);

/* Passability and cost of entering a cell, from its tokens' traits. */
STRATA_API int strata_tilemap_passable(const strata_tilemap *m, int x, int y);
STRATA_API double strata_tilemap_cost(const strata_tilemap *m, int x, int y);

/* Actors standing on cell (x, y) of a world's map: the world keeps the
** count as actors are placed, move, are deleted, rolled back and opened
** (derived from their positions: not saved). 0 for a cell outside the map
** and on maps of no world; -1 when the count was lost (out of memory: the
** world counts again at the map's next change of actors). */
STRATA_API int strata_tilemap_occupied(const strata_tilemap *m, int x, int y);

/* Per-search costs (docs/tile-maps.md, "Costs from a callback"): asked for
** the cost of entering cell (x, y), given the cost its tokens make (0 when
** they make it impassable), it answers a cost > 0 and finite, or
** STRATA_GRID_BLOCKED (0); any other answer (negative, NaN, infinite)
** stops the search, which fails with STRATA_EARG (a callback that needs its
** own reason keeps it in data: the Lua binding does). Asked at most once per
** cell per search, in an order that depends on the search; never for the
** start cell. It must not edit, free or search its map with the same search
** object: an edit of the map or its token table fails the search, a search
** with the same object is refused (STRATA_ESTATE). */
#define STRATA_GRID_BLOCKED 0.0
typedef double (*strata_grid_cost_fn)(void *data, int x, int y, double cost);

/* What a search makes of cells held by actors (strata_tilemap_occupied);
** the start and goal cells never count as held. */
typedef enum strata_grid_occupied {
  STRATA_OCCUPIED_IGNORE = 0, /* the default: actors are no obstacle */
  STRATA_OCCUPIED_BLOCK,      /* impassable */
  STRATA_OCCUPIED_COST        /* entering one costs occupied_cost more */
} strata_grid_occupied;

typedef struct strata_grid_options {
  strata_path_algorithm algorithm;
  int connectivity;     /* 4 or 8 */
  double diagonal_cost; /* multiplier of a diagonal step: sqrt(2) (default) or any >= 1 */
  int threads;          /* deprecated, no effect: 0, 1 or 2 (anything else is refused) */
  /* A search with a cost callback or occupied other than IGNORE runs on the
  ** generic engine (any algorithm), not the table's specialised ones. */
  strata_grid_cost_fn cost; /* NULL: the tokens' costs */
  void *cost_data;          /* handed to cost */
  double cost_min;          /* A*: the least cost cost answers (its estimate's scale);
                            ** 0: the cheapest passable token's; a lower answer fails */
  strata_grid_occupied occupied;
  double occupied_cost;     /* >= 0, finite: added for STRATA_OCCUPIED_COST */
} strata_grid_options;

/* Fills defaults: A*, 4-connected, diagonal sqrt(2), threads 2, no
** callback, occupied cells ignored.
** threads: every search runs on the caller's thread; the field is kept so
** that programs setting it still build and run (the search that used a
** second thread was taken out: docs/c-api.md). */
STRATA_API void strata_grid_options_init(strata_grid_options *o);

/* ---- searches ----
** A strata_grid_search holds what searches on tile maps keep between calls:
** the workspace (grown to the largest map searched, then reused, so that a
** search in the steady state allocates nothing) and caches built from a map
** (its cells as cost classes, bitsets), each checked against the map's
** identity and revision and its token table's revision before use, and
** rebuilt when they changed. It holds no reference to a map and may serve
** any number of maps in turn.
**
** A search reads the map and writes only the search object. One search
** object serves one search at a time; two search objects may search one map
** from two threads at once, as long as nothing edits the map or its token
** table meanwhile.
**
** The route found among equal ones depends only on the map and the request.
*/
typedef struct strata_grid_search strata_grid_search;

STRATA_API strata_grid_search *strata_grid_search_new(strata_error *err);
STRATA_API void strata_grid_search_free(strata_grid_search *s); /* NULL is accepted */

/* Finds a path between two cells; out->nodes are cell indices (y*W + x).
** A diagonal step is allowed whenever its destination is passable. The start
** cell need not be passable; an impassable goal has no path. "No path" is
** not an error: STRATA_OK with out->len == 0. opt may be NULL (defaults).
** Fails with STRATA_EARG on a cell outside the map or bad options, and
** STRATA_ENOMEM. out is reused (grown, never shrunk). */
STRATA_API strata_status strata_grid_search_run(strata_grid_search *s, const strata_tilemap *m, int x1,
                                     int y1, int x2, int y2, const strata_grid_options *opt,
                                     strata_path *out, strata_error *err);
/* Cells expanded by the last search (for benchmarks and tests). */
STRATA_API uint64_t strata_grid_search_expanded(const strata_grid_search *s);
/* Bytes held by the search object: workspace and caches. */
STRATA_API size_t strata_grid_search_memory(const strata_grid_search *s);

/* The common call: strata_grid_search_run with a search object that the
** map keeps for this (made on the first call, freed with the map, counted
** by strata_tilemap_memory). m is not const because of it: the map's own
** search object serves one caller at a time; threads bring their own. */
STRATA_API strata_status strata_tilemap_find_path(strata_tilemap *m, int x1, int y1, int x2, int y2,
                                       const strata_grid_options *opt, strata_path *out,
                                       strata_error *err);
/* Cells expanded by the last strata_tilemap_find_path on this map. */
STRATA_API uint64_t strata_tilemap_last_expanded(const strata_tilemap *m);
/* Bytes held by the map: cells, side stacks and its own search object. */
STRATA_API size_t strata_tilemap_memory(const strata_tilemap *m);

typedef struct strata_render_options {
  const strata_path *overlay;  /* cells (indices) drawn with overlay_glyph; may be NULL */
  const char *overlay_glyph;   /* NULL: "*" */
  const char *const *glyphs;   /* per token id, overriding its traits' glyph; NULL entries
                               ** (or a NULL array) keep the trait glyph */
  size_t glyph_count;          /* entries in glyphs */
} strata_render_options;

/* Draws the map: one line per row (each ending in '\n'), each cell the glyph
** of its top token (' ' when empty). opt may be NULL. *out is the caller's:
** strata_free it. Fails (nothing allocated) on an overlay cell outside the map. */
STRATA_API strata_status strata_tilemap_render(const strata_tilemap *m, const strata_render_options *opt,
                                    char **out, size_t *len, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
