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

/* The edges out of node, each cell's cost from cell(ctx, index): written
** once, inlined with each search's own cost function. */
typedef double (*cell_cost_fn)(void *ctx, uint32_t cell);

static inline __attribute__((always_inline)) unsigned
edges_by(const grid_graph *gg, uint32_t node, strata_edge *out, cell_cost_fn cell, void *ctx) {
  uint32_t x = node % gg->w, y = node / gg->w;
  unsigned k = 0;
  int dirs = gg->eight ? 8 : 4;
  for (int d = 0; d < dirs; d++) {
    uint32_t nx = x + (uint32_t)DX[d], ny = y + (uint32_t)DY[d];
    if (nx >= gg->w || ny >= gg->h) continue; /* wraps below zero too */
    uint32_t v = ny * gg->w + nx;
    double c = cell(ctx, v);
    if (c <= 0) continue;
    out[k].to = v;
    out[k].cost = d < 4 ? c : c * gg->diagonal;
    k++;
  }
  return k;
}

static inline double token_cell(void *ud, uint32_t v) {
  const grid_graph *gg = ud;
  return tilemap_cell_cost(gg->m, gg->cost, v);
}

static inline unsigned grid_edges(void *ud, uint32_t node, strata_edge *out) {
  return edges_by(ud, node, out, token_cell, ud);
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

/* ---- custom searches: a cost callback, cells held by actors ---- */

typedef struct custom_graph {
  grid_graph g;         /* first: grid_estimate reads a custom graph as its plain one */
  const grid_query *q;
  grid_cells *cells;
  uint32_t start, goal;
  double floor;         /* A*: the least answer its estimate allows (0: any) */
  uint64_t map_revision, tokens_revision;
  int failed;           /* q->err is set: every cell blocks from then on */
} custom_graph;

enum { CHANGED, BAD_ANSWER, BELOW_FLOOR };

static double custom_fail(custom_graph *cg, int why, uint32_t v, double a) {
  cg->failed = 1;
  int x = (int)(v % cg->g.w), y = (int)(v / cg->g.w);
  if (why == CHANGED)
    strata_error_set(cg->q->err, STRATA_EARG, "the map or its tokens changed during the search, "
                     "at the cost callback of cell (%d, %d) (a callback must not edit its map)", x, y);
  else if (why == BAD_ANSWER)
    strata_error_set(cg->q->err, STRATA_EARG, "the cost callback answered %g for cell (%d, %d): a "
                     "cost must be positive and finite, or STRATA_GRID_BLOCKED (0)", a, x, y);
  else
    strata_error_set(cg->q->err, STRATA_EARG, "the cost callback answered %g for cell (%d, %d), "
                     "below %g, the least cost A*'s estimate assumes (set cost_min)", a, x, y, cg->floor);
  return 0;
}

/* The callback's answer for cell v, then the actors on it. */
static double custom_answer(custom_graph *cg, uint32_t v, double cost) {
  const grid_query *q = cg->q;
  if (q->cost) {
    double a = q->cost(q->cost_data, (int)(v % cg->g.w), (int)(v / cg->g.w), cost);
    if (q->map->revision != cg->map_revision ||
        strata_tokens_revision(q->map->tokens) != cg->tokens_revision)
      return custom_fail(cg, CHANGED, v, a);
    if (!(a >= 0) || a > 1e300) /* NaN too */
      return custom_fail(cg, BAD_ANSWER, v, a);
    if (a > 0 && a < cg->floor)
      return custom_fail(cg, BELOW_FLOOR, v, a);
    cost = a;
  }
  if (cost > 0 && q->occupied != STRATA_OCCUPIED_IGNORE && v != cg->goal &&
      tilemap_occupied_at(q->map, v) > 0)
    cost = q->occupied == STRATA_OCCUPIED_BLOCK ? 0 : cost + q->occupied_cost;
  return cost;
}

static inline double custom_cell(void *ud, uint32_t v) {
  custom_graph *cg = ud;
  grid_cells *c = cg->cells;
  if (c->stamp[v] == c->gen) return c->cost[v];
  /* the start is never entered (nor asked): any cost does */
  double cost = v == cg->start ? 1 : tilemap_cell_cost(cg->g.m, cg->g.cost, v);
  if (v != cg->start) cost = cg->failed ? 0 : custom_answer(cg, v, cost);
  c->stamp[v] = c->gen;
  c->cost[v] = cost;
  return cost;
}

static inline unsigned custom_edges(void *ud, uint32_t node, strata_edge *out) {
  return edges_by(ud, node, out, custom_cell, ud);
}

void gridpath_cells_free(grid_cells *c) {
  strata_free(c->stamp);
  strata_free(c->cost);
  memset(c, 0, sizeof *c);
}

/* Room for n cells and a new generation; 0 on ENOMEM. */
static int cells_prepare(grid_cells *c, uint32_t n) {
  if (n > c->cap) {
    gridpath_cells_free(c);
    c->stamp = strata_calloc(n, sizeof *c->stamp);
    c->cost = strata_malloc((size_t)n * sizeof *c->cost);
    if (c->stamp == NULL || c->cost == NULL) {
      gridpath_cells_free(c);
      return 0;
    }
    c->cap = n;
  }
  if (++c->gen == 0) { /* stamps wrap: cleared once then */
    memset(c->stamp, 0, (size_t)c->cap * sizeof *c->stamp);
    c->gen = 1;
  }
  return 1;
}

static int custom_run(strata_search *s, grid_cells *cells, const grid_query *q, grid_graph *gg,
                      uint32_t start, uint32_t goal, strata_path *out) {
  uint32_t n = gg->w * gg->h;
  if (!cells_prepare(cells, n)) return -1;
  custom_graph cg = {*gg, q, cells, start, goal, 0, q->map->revision,
                     strata_tokens_revision(q->map->tokens), 0};
  if (q->cost && q->algorithm == STRATA_PATH_ASTAR) cg.floor = gg->min_cost;
  /* the goal first: nobody can stand on a blocked one */
  strata_status st = STRATA_OK;
  out->len = 0;
  if (start == goal || custom_cell(&cg, goal) > 0)
    st = search_engine(s, n, &cg, custom_edges, grid_estimate, start, goal, q->algorithm, out, NULL);
  if (cg.failed) {
    out->len = 0, out->cost = 0;
    return -3;
  }
  return st != STRATA_OK ? -1 : out->len > 0;
}

int gridpath_run(strata_search **sp, grid_cells *cells, const grid_query *q, strata_path *out,
                 uint64_t *expanded) {
  if (*sp == NULL && (*sp = strata_search_new(NULL)) == NULL) return -1;
  const strata_tilemap *m = q->map;
  uint32_t w = (uint32_t)m->width, h = (uint32_t)m->height;
  /* the cheapest passable cost of any token: a bound for every cell (a
  ** callback's answers: cost_min when given) */
  double min_cost = q->cost ? q->cost_min : 0;
  uint32_t count = min_cost > 0 ? 0 : strata_tokens_count(m->tokens);
  for (uint32_t id = 1; id <= count; id++)
    if (q->token_cost[id] > 0 && (min_cost == 0 || q->token_cost[id] < min_cost))
      min_cost = q->token_cost[id];
  grid_graph gg = {m, q->token_cost, w, h, q->eight, q->diag, min_cost > 0 ? min_cost : 1,
                   (uint32_t)q->x2, (uint32_t)q->y2};
  uint32_t start = (uint32_t)q->y1 * w + (uint32_t)q->x1, goal = (uint32_t)q->y2 * w + (uint32_t)q->x2;
  if (q->custom) {
    (*sp)->expanded = 0;
    int r = custom_run(*sp, cells, q, &gg, start, goal, out);
    *expanded = strata_search_expanded(*sp);
    return r;
  }
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
  o->cost = NULL;
  o->cost_data = NULL;
  o->cost_min = 0;
  o->occupied = STRATA_OCCUPIED_IGNORE;
  o->occupied_cost = 0;
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
