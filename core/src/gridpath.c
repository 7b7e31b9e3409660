/* gridpath.c - tile maps as search graphs: 4- or 8-neighbour moves over cells. */
#include <math.h>

#include "tilemap_internal.h"

typedef struct grid_graph {
  const strata_tilemap *m;
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
    double c = tilemap_cell_cost(gg->m, v);
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

void strata_grid_options_init(strata_grid_options *o) {
  o->algorithm = STRATA_PATH_ASTAR;
  o->connectivity = 4;
  o->diagonal_cost = M_SQRT2;
}

strata_status strata_tilemap_find_path(strata_tilemap *m, int x1, int y1, int x2, int y2,
                                       const strata_grid_options *opt, strata_path *out,
                                       strata_error *err) {
  strata_grid_options defaults;
  if (opt == NULL) strata_grid_options_init(&defaults), opt = &defaults;
  if (opt->connectivity != 4 && opt->connectivity != 8)
    return strata_error_set(err, STRATA_EARG, "connectivity must be 4 or 8, got %d",
                            opt->connectivity);
  if (!(opt->diagonal_cost >= 1) || !isfinite(opt->diagonal_cost))
    return strata_error_set(err, STRATA_EARG, "diagonal cost must be at least 1, got %g",
                            opt->diagonal_cost);
  if (!strata_tilemap_contains(m, x1, y1))
    return strata_error_set(err, STRATA_EARG, "start (%d, %d) is outside the %dx%d map", x1, y1,
                            m->width, m->height);
  if (!strata_tilemap_contains(m, x2, y2))
    return strata_error_set(err, STRATA_EARG, "goal (%d, %d) is outside the %dx%d map", x2, y2,
                            m->width, m->height);
  if ((unsigned)opt->algorithm > STRATA_PATH_GREEDY)
    return strata_error_set(err, STRATA_EARG, "unknown path algorithm %d", (int)opt->algorithm);
  if (!tilemap_refresh_costs(m))
    return strata_error_set(err, STRATA_ENOMEM, "out of memory for the token cost table");
  out->len = 0;
  out->cost = 0;
  m->last_expanded = 0;
  uint32_t start = (uint32_t)y1 * (uint32_t)m->width + (uint32_t)x1;
  uint32_t goal = (uint32_t)y2 * (uint32_t)m->width + (uint32_t)x2;
  if (tilemap_cell_cost(m, goal) <= 0) return STRATA_OK; /* nobody can stand on the goal */

  /* A* and Dijkstra take the fast engine when the map suits it, and so does
  ** breadth-first search on maps of one cost. */
  if (opt->algorithm != STRATA_PATH_GREEDY) {
    int done = gridsearch_run(m, x1, y1, x2, y2, opt, out, err);
    if (done < 0) return err ? err->status : STRATA_ENOMEM;
    if (done > 0) {
      m->last_expanded = gridsearch_expanded(m->grid);
      return STRATA_OK;
    }
  }
  if (m->search == NULL && (m->search = strata_search_new(err)) == NULL) return STRATA_ENOMEM;
  grid_graph gg = {m, (uint32_t)m->width, (uint32_t)m->height, opt->connectivity == 8,
                   opt->diagonal_cost, m->costs.min_cost, (uint32_t)x2, (uint32_t)y2};
  strata_status st = search_engine(m->search, gg.w * gg.h, &gg, grid_edges, grid_estimate, start,
                                   goal, opt->algorithm, out, err);
  m->last_expanded = strata_search_expanded(m->search);
  return st;
}

uint64_t strata_tilemap_last_expanded(const strata_tilemap *m) { return m->last_expanded; }
