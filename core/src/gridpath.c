/* gridpath.c - the generic engine on tile maps: cells as a search graph of
** 4 or 8 neighbours, searched by search_internal.h's engine specialised on
** the grid's own edge and estimate functions. Any map, any algorithm: the
** table's last engine (gridengine.c). */
#include <math.h>

#include "gridengine.h"
#include "search_internal.h"
#include "tilemap_internal.h"

typedef struct grid_graph {
  const strata_tilemap *m;
  const double *cost; /* per token id */
  uint32_t w, h;
  int eight;
  double diagonal;  /* multiplier of a diagonal step */
  double min_cost;  /* the cheapest passable cell: scales the estimate */
  uint32_t goal_x, goal_y;
} grid_graph;

static const int DX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
static const int DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

static inline unsigned grid_edges(void *ud, uint32_t node, strata_edge *out) {
  const grid_graph *gg = ud;
  uint32_t x = node % gg->w, y = node / gg->w;
  unsigned k = 0;
  int dirs = gg->eight ? 8 : 4;
  for (int d = 0; d < dirs; d++) {
    uint32_t nx = x + (uint32_t)DX[d], ny = y + (uint32_t)DY[d];
    if (nx >= gg->w || ny >= gg->h) continue; /* wraps below zero too */
    uint32_t v = ny * gg->w + nx;
    double c = tilemap_cell_cost(gg->m, gg->cost, v);
    if (c <= 0) continue;
    out[k].to = v;
    out[k].cost = d < 4 ? c : c * gg->diagonal;
    k++;
  }
  return k;
}

/* Manhattan distance (4 neighbours) or octile distance (8), times the cheapest
** cell cost: never more than the true remaining cost, and consistent. */
static inline double grid_estimate(void *ud, uint32_t node, uint32_t goal) {
  const grid_graph *gg = ud;
  (void)goal;
  uint32_t x = node % gg->w, y = node / gg->w;
  uint32_t dx = x > gg->goal_x ? x - gg->goal_x : gg->goal_x - x;
  uint32_t dy = y > gg->goal_y ? y - gg->goal_y : gg->goal_y - y;
  if (!gg->eight) return gg->min_cost * (double)(dx + dy);
  uint32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  /* a diagonal dearer than two straight steps is never worth taking */
  return gg->min_cost * ((double)(hi - lo) + (gg->diagonal < 2 ? gg->diagonal : 2) * (double)lo);
}

int gridpath_run(strata_search **sp, const grid_query *q, strata_path *out, uint64_t *expanded) {
  if (*sp == NULL && (*sp = strata_search_new(NULL)) == NULL) return -1;
  const strata_tilemap *m = q->map;
  uint32_t w = (uint32_t)m->width, h = (uint32_t)m->height;
  /* the cheapest passable cost of any token: a bound for every cell */
  double min_cost = 0;
  uint32_t count = strata_tokens_count(m->tokens);
  for (uint32_t id = 1; id <= count; id++)
    if (q->token_cost[id] > 0 && (min_cost == 0 || q->token_cost[id] < min_cost))
      min_cost = q->token_cost[id];
  grid_graph gg = {m, q->token_cost, w, h, q->eight, q->diag, min_cost > 0 ? min_cost : 1,
                   (uint32_t)q->x2, (uint32_t)q->y2};
  uint32_t start = (uint32_t)q->y1 * w + (uint32_t)q->x1, goal = (uint32_t)q->y2 * w + (uint32_t)q->x2;
  strata_status st = search_engine(*sp, w * h, &gg, grid_edges, grid_estimate, start, goal,
                                   q->algorithm, out, NULL);
  *expanded = strata_search_expanded(*sp);
  if (st != STRATA_OK) return -1; /* the arguments are checked: only memory can fail */
  return out->len > 0;
}

void strata_grid_options_init(strata_grid_options *o) {
  o->algorithm = STRATA_PATH_ASTAR;
  o->connectivity = 4;
  o->diagonal_cost = M_SQRT2;
  o->threads = 2;
}

strata_status strata_tilemap_find_path(strata_tilemap *m, int x1, int y1, int x2, int y2,
                                       const strata_grid_options *opt, strata_path *out,
                                       strata_error *err) {
  if (m->search == NULL && (m->search = strata_grid_search_new(err)) == NULL) return STRATA_ENOMEM;
  return strata_grid_search_run(m->search, m, x1, y1, x2, y2, opt, out, err);
}

uint64_t strata_tilemap_last_expanded(const strata_tilemap *m) {
  return m->search ? strata_grid_search_expanded(m->search) : 0;
}
