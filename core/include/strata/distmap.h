/*
** distmap.h - distance maps (Dijkstra maps) over tile maps.
**
** A distance map holds, for every cell of a tile map, the cost of the
** cheapest route from that cell to the nearest of a set of goal cells, under
** the movement rules of the grid searches (tilemap.h): a route may enter a
** cell when it is passable, a step costs the cost of the cell it enters, a
** diagonal step that cost times the diagonal multiplier. So at(x, y) is what
** strata_grid_search_run would report from (x, y) to its nearest goal.
** Goals on impassable cells are not reached (nobody can stand there); cells
** no route joins to a goal, and cells dearer than max_cost, are unreached.
**
** Distances are kept in fixed point (a power of two per unit of cost, chosen
** per map from its largest possible distance): whole-number costs are exact,
** others within 2^-20 of themselves. Costs too far apart for that (the
** dearest step over the cheapest, times the cells, past about 2^31: costs
** 1 and 1e12, a diagonal multiplier of 1e15) are refused with STRATA_EARG
** by compute, update and flee (a flee factor too large likewise).
**
** One object is reused between computes: its workspace grows to the largest
** map seen and is kept. It holds no reference to the map: update and every
** read take the map or nothing. A field may be read from several threads at
** once; computing and updating need the object alone.
*/
#ifndef STRATA_DISTMAP_H
#define STRATA_DISTMAP_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/tilemap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_distmap strata_distmap;

typedef struct strata_distmap_options {
  int connectivity;     /* 4 or 8 */
  double diagonal_cost; /* multiplier of a diagonal step: sqrt(2) (default) or any >= 1 */
  double max_cost;      /* cells farther than this are unreached; HUGE_VAL (default): no limit */
  /* Cells actors hold (strata_tilemap_occupied), as the grid searches take
  ** them: IGNORE (default); BLOCK: unreached, never a step_down target;
  ** COST: entering one costs occupied_cost (>= 0, finite) more. A goal is
  ** never held. A lost count (-1) fails the compute with STRATA_ENOMEM.
  ** A field that honours them is computed afresh by every update (actors
  ** move without editing the map); a flee map keeps its source's. */
  strata_grid_occupied occupied;
  double occupied_cost;
} strata_distmap_options;

/* Fills defaults: 4-connected, diagonal sqrt(2), no limit, occupied cells
** ignored (as strata_grid_options_init). */
STRATA_API void strata_distmap_options_init(strata_distmap_options *o);

STRATA_API strata_distmap *strata_distmap_new(strata_error *err);
STRATA_API void strata_distmap_free(strata_distmap *d); /* NULL is accepted */

/* Computes the field of m towards goals: count cell indices (y * width + x).
** No goals is allowed (every cell unreached); a goal repeated counts once.
** Fails with STRATA_EARG (the field then empty) on a goal outside the map
** or bad options, STRATA_ENOMEM. opt may be NULL (defaults). */
STRATA_API strata_status strata_distmap_compute(strata_distmap *d, const strata_tilemap *m,
                                                const uint32_t *goals, size_t count,
                                                const strata_distmap_options *opt,
                                                strata_error *err);

/* The goals as a predicate: fn(ud, x, y) != 0 for each goal cell, called once
** per cell, row by row, before anything is computed (the goals it picks are
** kept as a list). */
typedef int (*strata_distmap_goal_fn)(void *ud, int x, int y);
STRATA_API strata_status strata_distmap_compute_where(strata_distmap *d, const strata_tilemap *m,
                                                      strata_distmap_goal_fn fn, void *ud,
                                                      const strata_distmap_options *opt,
                                                      strata_error *err);

/* Brings the field up to date with m after edits, as a new compute with the
** same goal cells and options would leave it: only cells whose distance the
** edits can change are visited (the edited cells are found from the map's
** revision stamps, per 64x64 block). When the token table's traits changed,
** the map is another (a rollback gave it other contents), or many cells
** changed, it computes afresh. STRATA_EARG for a flee map (made by
** strata_distmap_flee: make it again) or a field of another size. */
STRATA_API strata_status strata_distmap_update(strata_distmap *d, const strata_tilemap *m,
                                               strata_error *err);

/* The safety map of src, into dst (reused; dst != src): with d the distances
** of src and S its reached cells,
**     flee(c) = min over s in S of ( -factor * d(s) + cost of the route c -> s ).
** Every reached cell is a goal worth -factor times its distance, and the
** field is relaxed again from them: rolling downhill (step_down) moves away
** from src's goals, and past a dead end towards the far side of the goals
** rather than into the corner. Cells joined to no reached cell are
** unreached. factor > 0 and finite (1.2 is the classic value); max_cost
** does not apply. STRATA_EARG on a bad factor, a flee map as src, or a src
** never computed. */
STRATA_API strata_status strata_distmap_flee(strata_distmap *dst, const strata_distmap *src,
                                             double factor, strata_error *err);

/* 1 and *dist when (x, y) is reached; 0 when it is unreached or outside the map. */
STRATA_API int strata_distmap_at(const strata_distmap *d, int x, int y, double *dist);

/* The next cell from (x, y) towards the nearest goal (downhill): among the
** neighbours the field's connectivity allows, the reached one n for which
** at(n) + the cost of stepping into n is least, when that is below at(x, y)
** (unreached counts as infinite; a goal has no step). Ties go to the first
** of north, east, south, west, north-east, south-east, south-west,
** north-west. 1 and *nx, *ny, or 0 when there is no such step (a goal, a
** cell no reached neighbour touches, or outside the map). From a reached
** cell, at(n) + the step's cost equals at(x, y). */
STRATA_API int strata_distmap_step_down(const strata_distmap *d, int x, int y, int *nx, int *ny);

STRATA_API int strata_distmap_width(const strata_distmap *d);  /* 0 before a compute */
STRATA_API int strata_distmap_height(const strata_distmap *d);
/* Cells settled by the last compute, update or flee (for tests and benchmarks:
** an update of a few edits settles few); a compute over a maze's junctions
** counts the junctions taken. */
STRATA_API uint64_t strata_distmap_settled(const strata_distmap *d);
/* Bytes held: the field and its workspace. */
STRATA_API size_t strata_distmap_memory(const strata_distmap *d);

#ifdef __cplusplus
}
#endif
#endif
