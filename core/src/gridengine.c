/*
** gridengine.c - the search object of tile maps, and the table of engines
** that answer its searches.
**
** A search runs the first engine of ENGINES whose rule admits the map and
** the request; an engine that gives up (-2: a count outgrew its bits) hands
** the request to the next one that admits it. The generic engine, last,
** admits everything. The rules read only the map and the request, never
** timings or the search object's history, so the route chosen among equal
** ones depends on the map and the request alone.
**
** Each engine is kept because, on a realistic workload, it is at least
** 1.5 times as fast as the engine that would run without it; the figures
** are in docs/benchmarks.md ("The engine table"), and spec/c/test_engines.c
** runs every admitted engine on random maps and compares their costs.
*/
#include <math.h>
#include <string.h>

#include "gridengine.h"
#include "gridjunction.h"
#include "strata/alloc.h"
#include "search_internal.h"
#include "tilemap_internal.h"

/* Below this measure of the map (gridjump_forced_per_run: walls in long
** lines) jump point search beats the searches from both ends; above it
** (scattered walls) it loses. From timing both on 1000x1000 maps from 0.12
** to 1.8 (docs/benchmarks.md, "The engine table"). */
#define JUMP_MAX_FORCED_PER_RUN 0.4


/* From this share of corridor cells (gridflood_corridor_share) A* with
** every step alike is answered breadth-first: on a maze the estimate
** steers nothing (A* settles as many cells as the flood) and its order,
** each cell taken as soon as its neighbour queued it, makes every step
** wait on the last (2.0 ms against 1.0 on the maze of docs/benchmarks.md).
** Routes are as cheap: every step costs the same. Maze 0.90; rooms and
** scattered walls under 0.3. */
#define CORRIDOR_MIN_SHARE 0.5

struct strata_grid_search {
  /* What the caches were built from: a map (its id, never reused, and
  ** revision) and its token table (address, revision, size). */
  int built;
  uint64_t map_id, map_revision;
  const strata_tokens *table;
  uint64_t tokens_revision;
  uint32_t tokens_count;
  int classes_built;  /* the class grid is of these too */
  uint64_t corridor_serial; /* the class grid corridor_share was measured on, + 1 (0: none) */
  double corridor_share;
  /* The caches: each token id's cost (0 impassable), the class grid. */
  double *token_cost;
  uint32_t token_cost_cap;
  grid_classes classes;
  /* The engines' workspaces, each made on its engine's first search. */
  struct grid_flood *flood;
  struct grid_bidir *bidir;
  struct grid_jump *jump;
  struct grid_junction *junction, *junction4; /* 8 neighbours (diagonal sqrt 2); 4 */
  struct grid_bucket *bucket;
  strata_search *generic;
  grid_cells cells;   /* a custom search's answers per cell */
  uint64_t expanded;
  int last; /* the engine of the last search; -1 none */
  int running; /* a search is under way: a cost callback may not start another */
};

strata_grid_search *strata_grid_search_new(strata_error *err) {
  strata_grid_search *s = strata_calloc(1, sizeof *s);
  if (s == NULL) strata_error_nomem(err, "creating a grid search");
  else s->last = -1;
  return s;
}

void strata_grid_search_free(strata_grid_search *s) {
  if (s == NULL) return;
  strata_free(s->token_cost);
  strata_free(s->classes.cls);
  gridflood_free(s->flood);
  gridbidir_free(s->bidir);
  gridjump_free(s->jump);
  gridjunction_free(s->junction);
  gridjunction_free(s->junction4);
  gridbucket_free(s->bucket);
  strata_search_free(s->generic);
  gridpath_cells_free(&s->cells);
  strata_free(s);
}

uint64_t strata_grid_search_expanded(const strata_grid_search *s) { return s->expanded; }

size_t strata_grid_search_memory(const strata_grid_search *s) {
  size_t bytes = sizeof *s + (size_t)s->token_cost_cap * sizeof *s->token_cost;
  bytes += (size_t)s->classes.pw * s->classes.ph;
  bytes += gridflood_memory(s->flood) + gridbidir_memory(s->bidir) + gridjump_memory(s->jump);
  bytes += gridbucket_memory(s->bucket) + gridjunction_memory(s->junction);
  bytes += gridjunction_memory(s->junction4);
  if (s->generic) bytes += strata_search_memory(s->generic);
  bytes += (size_t)s->cells.cap * (sizeof *s->cells.stamp + sizeof *s->cells.cost);
  return bytes;
}

/* ---- the caches ---- */

int grid_token_costs(double **cost, uint32_t *cap, const strata_tokens *t) {
  uint32_t count = strata_tokens_count(t);
  if (count + 1 > *cap) {
    double *c = strata_realloc(*cost, ((size_t)count + 1) * sizeof *c);
    if (c == NULL) return 0;
    *cost = c, *cap = count + 1;
  }
  (*cost)[0] = 0;
  for (uint32_t id = 1; id <= count; id++) {
    const strata_token_traits *tr = strata_tokens_traits(t, id);
    (*cost)[id] = tr->passable ? tr->cost : 0;
  }
  return 1;
}

static int refresh_costs(strata_grid_search *s, const strata_tokens *t) {
  return grid_token_costs(&s->token_cost, &s->token_cost_cap, t);
}

int grid_class_of(grid_classes *gc, double c) {
  if (c <= 0) return 0;
  unsigned k = 1;
  while (k <= gc->count && gc->cost[k] != c) k++;
  if (k <= gc->count) return (int)k;
  if (gc->count == GRID_MAX_CLASSES) return -1;
  gc->cost[++gc->count] = c;
  if (c != floor(c) || c > 65535) gc->integral = 0;
  if (gc->min_cost == 0 || c < gc->min_cost) gc->min_cost = c;
  if (c > gc->max_cost) gc->max_cost = c;
  return (int)k;
}

/* The class grid: distinct costs, found through a small table keyed by
** token id for single-token cells (the common case) and by linear search
** otherwise. */
int grid_classes_build(grid_classes *gc, const strata_tilemap *m, const double *token_cost) {
  uint32_t pw = (uint32_t)m->width + 2, ph = (uint32_t)m->height + 2;
  if (gc->cls == NULL || gc->pw != pw || gc->ph != ph) {
    strata_free(gc->cls);
    gc->pw = gc->ph = 0;
    if ((gc->cls = strata_calloc((size_t)pw * ph, 1)) == NULL) return 0;
    gc->pw = pw, gc->ph = ph;
  }
  gc->count = 0;
  gc->too_many = 0;
  gc->integral = 1;
  gc->min_cost = 0, gc->max_cost = 0;
  gc->serial++;
  uint8_t single[256];
  memset(single, 0xff, sizeof single);
  for (uint32_t y = 0; y < (uint32_t)m->height; y++) {
    uint8_t *row = gc->cls + (size_t)(y + 1) * pw + 1;
    for (uint32_t x = 0; x < (uint32_t)m->width; x++) {
      uint32_t i = y * (uint32_t)m->width + x;
      uint32_t v = m->cells[i];
      if (v < 256 && single[v] != 0xff) {
        row[x] = single[v];
        continue;
      }
      int k = grid_class_of(gc, tilemap_cell_cost(m, token_cost, i));
      if (k < 0) {
        gc->too_many = 1;
        return 1;
      }
      row[x] = (uint8_t)k;
      if (v < 256) single[v] = (uint8_t)k; /* v < 256: a token, not a stack */
    }
  }
  return 1;
}

static int build_classes(strata_grid_search *s, const strata_tilemap *m) {
  return grid_classes_build(&s->classes, m, s->token_cost);
}

/* Brings the caches up to date with m; 0 on ENOMEM. The class grid is
** built only for the requests of engines that read it (greedy search has
** only the generic engine). */
static int refresh(strata_grid_search *s, const strata_tilemap *m, int need_classes) {
  const strata_tokens *t = m->tokens;
  if (s->built && s->map_id == m->id && s->map_revision == m->revision && s->table == t &&
      s->tokens_revision == strata_tokens_revision(t) && s->tokens_count == strata_tokens_count(t))
    return !need_classes || s->classes_built || (s->classes_built = build_classes(s, m));
  s->built = 0, s->classes_built = 0;
  if (!refresh_costs(s, t)) return 0;
  s->map_id = m->id, s->map_revision = m->revision;
  s->table = t, s->tokens_revision = strata_tokens_revision(t);
  s->tokens_count = strata_tokens_count(t);
  s->built = 1;
  return !need_classes || (s->classes_built = build_classes(s, m));
}

/* ---- the rules ---- */

static int one_cost(const grid_query *q) { return q->g != NULL && q->g->count == 1; }
static int optimal(const grid_query *q) {
  return q->algorithm == STRATA_PATH_ASTAR || q->algorithm == STRATA_PATH_DIJKSTRA;
}
/* A* or Dijkstra on a grid the 21-bit cell indices of the searches from
** both ends and of jump point search can hold, from a passable start. */
static int small_optimal(const grid_query *q) {
  const grid_classes *g = q->g;
  return one_cost(q) && optimal(q) && g->pw * g->ph <= GRIDBIDIR_MAX_CELLS &&
         g->cls[(size_t)(q->y1 + 1) * g->pw + (size_t)(q->x1 + 1)] != 0;
}
/* That, at 8 neighbours, diagonal sqrt 2. */
static int sqrt2_small(const grid_query *q) {
  return small_optimal(q) && q->eight && q->diag == M_SQRT2;
}

/* The junction engine's workspace for q's connectivity (a graph each). */
static struct grid_junction **junction_of(strata_grid_search *s, const grid_query *q) {
  return q->eight ? &s->junction : &s->junction4;
}

/* The share of corridor cells of q's class grid, measured once per grid. */
static double corridor_share(strata_grid_search *s, const grid_query *q) {
  if (s->corridor_serial != q->g->serial + 1) {
    s->corridor_share = gridflood_corridor_share(q->g->cls, q->g->pw, q->g->ph);
    s->corridor_serial = q->g->serial + 1;
  }
  return s->corridor_share;
}

/* -1 out of memory, else whether the rule admits q. When every step costs
** the same (4 neighbours, or diagonal 1) only a map of corridors (the
** corridor engine's measure, one pass over the grid) is measured for
** junctions (two bytes a cell and some 100 M instructions on the 1000x1000
** maze): open ground and rooms, where the share of junctions is 0.8, never
** pay it when their first search after a change runs. Diagonal 1 and sqrt 2
** share the 8-neighbour graph (its chains count both kinds of step). */
static int admit_junction(strata_grid_search *s, const grid_query *q) {
  if (!small_optimal(q) || (q->diag != M_SQRT2 && q->diag != 1)) return 0;
  if (q->diag == 1 && corridor_share(s, q) < CORRIDOR_MIN_SHARE) return 0;
  double share = gridjunction_share(junction_of(s, q), q->eight, q->g->cls, q->g->pw, q->g->ph,
                                    q->g->serial);
  return share < 0 ? -1 : share <= JUNCTION_MAX_SHARE;
}
static int admit_jump(strata_grid_search *s, const grid_query *q) {
  if (!sqrt2_small(q)) return 0;
  double per_run = gridjump_forced_per_run(&s->jump, q->g->cls, q->g->pw, q->g->ph, q->g->serial);
  return per_run < 0 ? -1 : per_run < JUMP_MAX_FORCED_PER_RUN;
}
static int admit_guided(strata_grid_search *s, const grid_query *q) {
  (void)s;
  return sqrt2_small(q) && q->algorithm == STRATA_PATH_DIJKSTRA;
}
static int admit_bidir(strata_grid_search *s, const grid_query *q) {
  (void)s;
  return sqrt2_small(q) && q->algorithm == STRATA_PATH_ASTAR;
}
static int admit_corridor(strata_grid_search *s, const grid_query *q) {
  if (!one_cost(q) || q->algorithm != STRATA_PATH_ASTAR || q->diag != 1) return 0;
  return corridor_share(s, q) >= CORRIDOR_MIN_SHARE;
}
static int admit_flood_astar(strata_grid_search *s, const grid_query *q) {
  (void)s;
  return one_cost(q) && q->algorithm == STRATA_PATH_ASTAR && q->diag == 1;
}
static int admit_flood_bfs(strata_grid_search *s, const grid_query *q) {
  (void)s;
  return one_cost(q) && (q->algorithm == STRATA_PATH_BFS ||
                         (q->algorithm == STRATA_PATH_DIJKSTRA && q->diag == 1));
}
static int admit_flood_dijkstra(strata_grid_search *s, const grid_query *q) {
  (void)s;
  return one_cost(q) && q->algorithm == STRATA_PATH_DIJKSTRA && q->diag > 1;
}
static int admit_bucket(strata_grid_search *s, const grid_query *q) {
  (void)s;
  return gridbucket_fits(q);
}
static int admit_generic(strata_grid_search *s, const grid_query *q) {
  (void)s, (void)q;
  return 1;
}

/* ---- the engines, as the table calls them ---- */

/* On maps of one cost, what entering a passable cell costs. */
#define CELL_COST(q) ((q)->g->cost[1])

static int run_junction(strata_grid_search *s, const grid_query *q, strata_path *out) {
  return gridjunction_run(junction_of(s, q), q->eight, q->diag, q->g->cls, q->g->pw, q->g->ph,
                          q->g->serial, q->algorithm == STRATA_PATH_ASTAR, q->x1, q->y1, q->x2,
                          q->y2, CELL_COST(q), out, &s->expanded);
}
static int run_jump(strata_grid_search *s, const grid_query *q, strata_path *out) {
  return gridjump_run(&s->jump, q->g->cls, q->g->pw, q->g->ph, q->g->serial,
                      q->algorithm == STRATA_PATH_ASTAR, q->x1, q->y1, q->x2, q->y2, CELL_COST(q),
                      out, &s->expanded);
}
/* A* from both ends; for a Dijkstra request (the guided engine) the same
** cost (the estimates are consistent), a route that depends on the map and
** the request alone, and on scattered walls a tenth of the cells settled. */
static int run_bidir(strata_grid_search *s, const grid_query *q, strata_path *out) {
  return gridbidir_run(&s->bidir, q->g->cls, q->g->pw, q->g->ph, q->x1, q->y1, q->x2, q->y2,
                       CELL_COST(q), out, &s->expanded);
}
static int run_flood(strata_grid_search *s, const grid_query *q, gridflood_kind kind,
                     strata_path *out) {
  return gridflood_run(&s->flood, q->g->cls, q->g->pw, q->g->ph, q->g->serial, kind, q->eight,
                       q->diag, q->x1, q->y1, q->x2, q->y2, CELL_COST(q), out, &s->expanded);
}
static int run_flood_astar(strata_grid_search *s, const grid_query *q, strata_path *out) {
  return run_flood(s, q, GRIDFLOOD_ASTAR, out);
}
static int run_flood_bfs(strata_grid_search *s, const grid_query *q, strata_path *out) {
  return run_flood(s, q, GRIDFLOOD_BFS, out);
}
static int run_flood_dijkstra(strata_grid_search *s, const grid_query *q, strata_path *out) {
  return run_flood(s, q, GRIDFLOOD_DIJKSTRA, out);
}
static int run_bucket(strata_grid_search *s, const grid_query *q, strata_path *out) {
  return gridbucket_run(&s->bucket, q, out, &s->expanded);
}
static int run_generic(strata_grid_search *s, const grid_query *q, strata_path *out) {
  return gridpath_run(&s->generic, &s->cells, q, out, &s->expanded);
}

/* The table. Order matters only where two rules admit the same request:
** the more specialised engine first. */
typedef struct grid_engine {
  const char *name;
  int (*admit)(strata_grid_search *s, const grid_query *q); /* 1 yes, 0 no, -1 ENOMEM */
  int (*run)(strata_grid_search *s, const grid_query *q, strata_path *out);
} grid_engine;

static const grid_engine ENGINES[] = {
  /* one cost, A* or Dijkstra, 4 neighbours or 8 with diagonal sqrt 2 or 1, corridors */
  {"junction", admit_junction, run_junction},
  /* one cost, A* or Dijkstra, 8 neighbours, diagonal sqrt 2, walls in lines */
  {"jump", admit_jump, run_jump},
  /* one cost, Dijkstra, 8 neighbours, diagonal sqrt 2: A* from both ends */
  {"guided", admit_guided, run_bidir},
  /* one cost, A*, 8 neighbours, diagonal sqrt 2 */
  {"bidir", admit_bidir, run_bidir},
  /* one cost, A*, every step alike, corridors (the junction engine answers
  ** first where its graph fits): breadth-first */
  {"corridor", admit_corridor, run_flood_bfs},
  /* one cost, A*, every step alike (4 neighbours, or diagonal 1) */
  {"flood_astar", admit_flood_astar, run_flood_astar},
  /* one cost, BFS, or Dijkstra with every step alike */
  {"flood_bfs", admit_flood_bfs, run_flood_bfs},
  /* one cost, Dijkstra, 8 neighbours, diagonal > 1 */
  {"flood_dijkstra", admit_flood_dijkstra, run_flood_dijkstra},
  /* whole-number costs: A* with every step alike, Dijkstra */
  {"bucket", admit_bucket, run_bucket},
  /* anything */
  {"generic", admit_generic, run_generic},
};
#define ENGINE_COUNT ((int)(sizeof ENGINES / sizeof ENGINES[0]))

int gridengine_count(void) { return ENGINE_COUNT; }
const char *gridengine_name(int engine) {
  return engine >= 0 && engine < ENGINE_COUNT ? ENGINES[engine].name : NULL;
}
const char *gridengine_last(const strata_grid_search *s) { return gridengine_name(s->last); }

/* ---- searching ---- */

/* Checks the options of per-search costs and actors, and that the search
** object is not busy (a cost callback searching again with it would reuse the
** workspace its search is using). */
static strata_status prepare_custom(const strata_grid_search *s, const strata_tilemap *m,
                                    const strata_grid_options *opt, strata_error *err) {
  if (s->running)
    return strata_error_set(err, STRATA_ESTATE, "the search object is searching already (a cost "
                            "callback cannot search with the search object that asks it)");
  if (!(opt->cost_min >= 0) || !isfinite(opt->cost_min))
    return strata_error_set(err, STRATA_EARG, "cost_min must be 0 or more and finite, got %g",
                            opt->cost_min);
  if ((unsigned)opt->occupied > STRATA_OCCUPIED_COST)
    return strata_error_set(err, STRATA_EARG, "unknown occupied mode %d", (int)opt->occupied);
  if (opt->occupied == STRATA_OCCUPIED_COST &&
      (!(opt->occupied_cost >= 0) || !isfinite(opt->occupied_cost)))
    return strata_error_set(err, STRATA_EARG, "occupied_cost must be 0 or more and finite, got %g",
                            opt->occupied_cost);
  if (opt->occupied != STRATA_OCCUPIED_IGNORE && m->occ_lost)
    return strata_error_nomem(err, "the cells actors hold on this %dx%d map were lost; the world "
                              "counts them again at the next move on it", m->width, m->height);
  return STRATA_OK;
}

/* Checks the request and fills q; refreshes the caches. */
static strata_status prepare(strata_grid_search *s, const strata_tilemap *m, int x1, int y1,
                             int x2, int y2, const strata_grid_options *opt, grid_query *q,
                             strata_error *err) {
  strata_grid_options defaults;
  if (opt == NULL) strata_grid_options_init(&defaults), opt = &defaults;
  if (s == NULL || m == NULL)
    return strata_error_set(err, STRATA_EARG, "a grid search needs a search object and a map");
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
  if (opt->threads < 0 || opt->threads > 2)
    return strata_error_set(err, STRATA_EARG, "threads must be 1 or 2, got %d", opt->threads);
  if ((unsigned)opt->algorithm > STRATA_PATH_GREEDY)
    return strata_error_set(err, STRATA_EARG, "unknown path algorithm %d", (int)opt->algorithm);
  strata_status st = prepare_custom(s, m, opt, err);
  if (st != STRATA_OK) return st;
  const int custom = opt->cost != NULL || opt->occupied != STRATA_OCCUPIED_IGNORE;
  const int greedy = opt->algorithm == STRATA_PATH_GREEDY;
  if (!refresh(s, m, !greedy && !custom))
    return strata_error_nomem(err, "for a search on a %dx%d map",
                            m->width, m->height);
  const int eight = opt->connectivity == 8;
  *q = (grid_query){m, s->token_cost, greedy || custom || s->classes.too_many ? NULL : &s->classes,
                    x1, y1, x2, y2, opt->algorithm, eight, eight ? opt->diagonal_cost : 1,
                    custom, opt->cost, opt->cost_data,
                    opt->cost_min, opt->occupied, opt->occupied_cost, err};
  return STRATA_OK;
}

static strata_status nomem(const strata_tilemap *m, strata_error *err) {
  return strata_error_nomem(err, "for a search on a %dx%d map",
                          m->width, m->height);
}

#define GENERIC_ENGINE (ENGINE_COUNT - 1)

/* A custom search, on the generic engine: the map is marked searched (the
** world refuses to delete it) and the search object busy while it runs. */
static strata_status run_custom(strata_grid_search *s, const grid_query *q, strata_path *out,
                                strata_error *err) {
  strata_tilemap *m = (strata_tilemap *)q->map; /* its bookkeeping, not its contents */
  s->running = 1;
  m->searching++;
  int r = run_generic(s, q, out);
  s->running = 0;
  m->searching--;
  if (r == -1) return nomem(m, err);
  if (r == -3) return STRATA_EARG; /* q->err says why */
  s->last = GENERIC_ENGINE;
  return STRATA_OK;
}

strata_status strata_grid_search_run(strata_grid_search *s, const strata_tilemap *m, int x1,
                                     int y1, int x2, int y2, const strata_grid_options *opt,
                                     strata_path *out, strata_error *err) {
  grid_query q;
  strata_status st = prepare(s, m, x1, y1, x2, y2, opt, &q, err);
  if (st != STRATA_OK) return st;
  out->len = 0;
  out->cost = 0;
  s->expanded = 0;
  s->last = -1;
  if (q.custom) return run_custom(s, &q, out, err);
  /* nobody can stand on the goal */
  if (tilemap_cell_cost(m, s->token_cost, (uint32_t)y2 * (uint32_t)m->width + (uint32_t)x2) <= 0)
    return STRATA_OK;
  for (int e = 0; e < ENGINE_COUNT; e++) {
    int admitted = ENGINES[e].admit(s, &q);
    if (admitted < 0) return nomem(m, err);
    if (!admitted) continue;
    int r = ENGINES[e].run(s, &q, out);
    if (r == -1) return nomem(m, err);
    if (r >= 0) {
      s->last = e;
      if (r == 0) out->len = 0, out->cost = 0;
      return STRATA_OK;
    }
    /* -2: gave up; the next engine that admits the request */
  }
  return nomem(m, err); /* not reached: the generic engine admits everything */
}

strata_status gridengine_run_one(strata_grid_search *s, const strata_tilemap *m, int engine,
                                 int x1, int y1, int x2, int y2,
                                 const strata_grid_options *opt, strata_path *out, int *ran,
                                 strata_error *err) {
  grid_query q;
  *ran = 0;
  if (engine < 0 || engine >= ENGINE_COUNT)
    return strata_error_set(err, STRATA_EARG, "no engine %d", engine);
  strata_status st = prepare(s, m, x1, y1, x2, y2, opt, &q, err);
  if (st != STRATA_OK) return st;
  out->len = 0;
  out->cost = 0;
  s->expanded = 0;
  if (q.custom) {
    if (engine != GENERIC_ENGINE) return STRATA_OK;
    st = run_custom(s, &q, out, err);
    *ran = st == STRATA_OK;
    return st;
  }
  if (tilemap_cell_cost(m, s->token_cost, (uint32_t)y2 * (uint32_t)m->width + (uint32_t)x2) <= 0) {
    *ran = 1;
    return STRATA_OK;
  }
  int admitted = ENGINES[engine].admit(s, &q);
  if (admitted < 0) return nomem(m, err);
  if (!admitted) return STRATA_OK;
  int r = ENGINES[engine].run(s, &q, out);
  if (r == -1) return nomem(m, err);
  if (r == -2) return STRATA_OK;
  if (r == 0) out->len = 0, out->cost = 0;
  s->last = engine;
  *ran = 1;
  return STRATA_OK;
}
