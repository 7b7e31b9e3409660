/*
** tilemap.h - rectangular maps whose cells hold ordered stacks of tokens.
**
** Coordinates are 0-based: x grows to the right, y downwards. A cell's stack
** is ordered bottom to top; the top token is the one drawn.
**
** Memory: one 32-bit word per cell (W*H*4 bytes) holds an empty cell or a
** single token in place, with no allocation. Only cells holding two or more
** tokens use a side stack (16 bytes + 4 per token). The pathfinding workspace,
** made on the first search and reused after, adds 9 bytes per cell for A*
** and Dijkstra with 4 neighbours (a one-byte cost class, a 4-byte state word
** and a 4-byte cost), 4 more once diagonal steps are searched, and 16 more
** the first time BFS or greedy search is used.
**
** Movement: a cell is passable when it holds at least one token and all of
** its tokens are passable; entering it costs the largest cost among them.
*/
#ifndef STRATA_TILEMAP_H
#define STRATA_TILEMAP_H

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
strata_tilemap *strata_tilemap_new(int width, int height, strata_tokens *tokens,
                                   strata_error *err);
void strata_tilemap_free(strata_tilemap *m); /* NULL is accepted */
/* A copy of m: the same size, cells and stacks. A shared token table is
** shared by the copy too; a private one is cloned, so the copy has its own. */
strata_tilemap *strata_tilemap_clone(const strata_tilemap *m, strata_error *err);

int strata_tilemap_width(const strata_tilemap *m);
int strata_tilemap_height(const strata_tilemap *m);
strata_tokens *strata_tilemap_tokens(const strata_tilemap *m);
/* Replaces a shared token table by a private clone, so that defining traits
** on it affects this map only. Ids stay valid. Does nothing when the table is
** private already (made with the map, or by an earlier call). */
strata_status strata_tilemap_own_tokens(strata_tilemap *m, strata_error *err);
/* Nonzero when the map's token table is its own rather than shared. */
int strata_tilemap_has_private_tokens(const strata_tilemap *m);
int strata_tilemap_contains(const strata_tilemap *m, int x, int y);
/* Bumped by every change of any cell. */
uint64_t strata_tilemap_revision(const strata_tilemap *m);

/* Cell edits. Each fails with STRATA_EARG (map unchanged) for a coordinate
** outside the map or token 0 where a token is required. */
strata_status strata_tilemap_set(strata_tilemap *m, int x, int y, strata_token t,
                                 strata_error *err);       /* push on top */
strata_status strata_tilemap_add_front(strata_tilemap *m, int x, int y, strata_token t,
                                       strata_error *err); /* insert at the bottom */
/* Removes every occurrence of t; *removed (may be NULL) gets how many. */
strata_status strata_tilemap_remove(strata_tilemap *m, int x, int y, strata_token t,
                                    int *removed, strata_error *err);
/* Empties the cell, then pushes t (t == 0 leaves it empty). */
strata_status strata_tilemap_reset(strata_tilemap *m, int x, int y, strata_token t,
                                   strata_error *err);
/* Resets every cell to t (0: empty). Cannot fail for a valid token. */
strata_status strata_tilemap_clear(strata_tilemap *m, strata_token t, strata_error *err);
/* Resets (or, with push != 0, pushes onto) every cell of a rectangle, clipped
** to the map. */
strata_status strata_tilemap_fill_rect(strata_tilemap *m, int x, int y, int w, int h,
                                       strata_token t, int push, strata_error *err);

/* Number of tokens in the cell (0 outside the map). Copies up to cap of them,
** bottom first, into out (which may be NULL when cap is 0). */
size_t strata_tilemap_stack(const strata_tilemap *m, int x, int y,
                            strata_token *out, size_t cap);
strata_token strata_tilemap_top(const strata_tilemap *m, int x, int y); /* 0 if empty */
int strata_tilemap_has(const strata_tilemap *m, int x, int y, strata_token t);

/* Passability and cost of entering a cell, from its tokens' traits. */
int strata_tilemap_passable(const strata_tilemap *m, int x, int y);
double strata_tilemap_cost(const strata_tilemap *m, int x, int y);

typedef struct strata_grid_options {
  strata_path_algorithm algorithm;
  int connectivity;     /* 4 or 8 */
  double diagonal_cost; /* multiplier of a diagonal step: sqrt(2) (default) or 1 */
} strata_grid_options;

/* Fills defaults: A*, 4-connected, diagonal sqrt(2). */
void strata_grid_options_init(strata_grid_options *o);

/* Finds a path between two cells; out->nodes are cell indices (y*W + x).
** A diagonal step is allowed whenever its destination is passable. The start
** cell need not be passable; an impassable goal has no path (len 0). */
strata_status strata_tilemap_find_path(strata_tilemap *m, int x1, int y1, int x2, int y2,
                                       const strata_grid_options *opt, strata_path *out,
                                       strata_error *err);
/* Nodes expanded by this map's last search. */
uint64_t strata_tilemap_last_expanded(const strata_tilemap *m);
/* Bytes held by the map: cells, side stacks and search workspace. */
size_t strata_tilemap_memory(const strata_tilemap *m);

typedef struct strata_render_options {
  const strata_path *overlay;  /* cells (indices) drawn with overlay_glyph; may be NULL */
  const char *overlay_glyph;   /* NULL: "*" */
  const char *const *glyphs;   /* per token id, overriding its traits' glyph; NULL entries
                               ** (or a NULL array) keep the trait glyph */
  size_t glyph_count;          /* entries in glyphs */
} strata_render_options;

/* Draws the map: one line per row (each ending in '\n'), each cell the glyph
** of its top token (' ' when empty). opt may be NULL. *out is malloc'd: free()
** it. Fails (nothing allocated) on an overlay cell outside the map. */
strata_status strata_tilemap_render(const strata_tilemap *m, const strata_render_options *opt,
                                    char **out, size_t *len, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
