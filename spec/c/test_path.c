/* test_path.c - the search engine on tile maps and on a generic graph. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "gridengine.h"
#include "strata/strata.h"

/* Builds a map from rows of '.', '#' and '~' (water: cost 3). */
static strata_tilemap *map_from(const char *const *rows, int h) {
  int w = (int)strlen(rows[0]);
  strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0}, water = {1, 3, "~", "", 0}, floor = {1, 1, ".", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  strata_tokens_define(t, "water", 5, &water, NULL);
  strata_tokens_define(t, "floor", 5, &floor, NULL);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const char *name = rows[y][x] == '#' ? "wall" : rows[y][x] == '~' ? "water" : "floor";
      strata_tilemap_set(m, x, y, strata_tokens_find(t, name, strlen(name)), NULL);
    }
  return m;
}

/* Checks that a path is made of legal moves and that its cost adds up. */
static int path_valid(strata_tilemap *m, const strata_path *p, int eight, double diag) {
  int w = strata_tilemap_width(m);
  double cost = 0;
  for (size_t i = 1; i < p->len; i++) {
    int x0 = (int)(p->nodes[i - 1] % (uint32_t)w), y0 = (int)(p->nodes[i - 1] / (uint32_t)w);
    int x1 = (int)(p->nodes[i] % (uint32_t)w), y1 = (int)(p->nodes[i] / (uint32_t)w);
    int dx = abs(x1 - x0), dy = abs(y1 - y0);
    if (dx > 1 || dy > 1 || dx + dy == 0 || (!eight && dx + dy == 2)) return 0;
    if (!strata_tilemap_passable(m, x1, y1)) return 0;
    cost += strata_tilemap_cost(m, x1, y1) * (dx + dy == 2 ? diag : 1);
  }
  return fabs(cost - p->cost) < 1e-9;
}

static void test_small_maps(void) {
  static const char *const rows[] = {
    "..........",
    ".########.",
    ".#......#.",
    ".#.####.#.",
    ".#.#~~#.#.",
    "...#~~#...",
  };
  strata_tilemap *m = map_from(rows, 6);
  strata_path p;
  strata_path_init(&p);
  strata_grid_options o;
  strata_grid_options_init(&o);
  strata_error err;
  const strata_path_algorithm algs[] = {STRATA_PATH_ASTAR, STRATA_PATH_DIJKSTRA, STRATA_PATH_BFS};
  for (int a = 0; a < 3; a++) {
    o.algorithm = algs[a];
    CHECK_EQ_INT(strata_tilemap_find_path(m, 0, 5, 9, 5, &o, &p, &err), STRATA_OK);
    CHECK_EQ_INT(p.len, 16); /* in through the gap, across row 2, out: 15 moves */
    CHECK_NEAR(p.cost, 15, 1e-12);
    CHECK(path_valid(m, &p, 0, 1));
    CHECK_EQ_INT(p.nodes[0], 50);
    CHECK_EQ_INT(p.nodes[p.len - 1], 59);
  }
  /* Water costs 3 to enter: Dijkstra and A* go around it, BFS goes through. */
  static const char *const pond[] = {
    ".....",
    ".~~~.",
    ".....",
  };
  strata_tilemap *w = map_from(pond, 3);
  o.algorithm = STRATA_PATH_DIJKSTRA;
  strata_tilemap_find_path(w, 0, 1, 4, 1, &o, &p, &err);
  CHECK_NEAR(p.cost, 6, 1e-12);
  o.algorithm = STRATA_PATH_ASTAR;
  strata_tilemap_find_path(w, 0, 1, 4, 1, &o, &p, &err);
  CHECK_NEAR(p.cost, 6, 1e-12);
  o.algorithm = STRATA_PATH_BFS;
  strata_tilemap_find_path(w, 0, 1, 4, 1, &o, &p, &err);
  CHECK_EQ_INT(p.len, 5);
  CHECK_NEAR(p.cost, 10, 1e-12);
  o.algorithm = STRATA_PATH_GREEDY;
  strata_tilemap_find_path(w, 0, 1, 4, 1, &o, &p, &err);
  CHECK(p.len >= 5 && path_valid(w, &p, 0, 1));
  /* Eight neighbours, diagonal sqrt(2) and 1. */
  o.algorithm = STRATA_PATH_ASTAR;
  o.connectivity = 8;
  strata_tilemap_find_path(w, 0, 0, 4, 2, &o, &p, &err);
  CHECK_NEAR(p.cost, 4 + M_SQRT2, 1e-9); /* row 1 is water but at its ends */
  CHECK(path_valid(w, &p, 1, M_SQRT2));
  o.diagonal_cost = 1;
  strata_tilemap_find_path(w, 0, 0, 4, 2, &o, &p, &err);
  CHECK_NEAR(p.cost, 5, 1e-9);
  strata_tilemap_free(w);

  /* No path is a normal result; so is start == goal. */
  strata_grid_options_init(&o);
  CHECK_EQ_INT(strata_tilemap_find_path(m, 4, 4, 0, 0, &o, &p, &err), STRATA_OK);
  CHECK_EQ_INT(p.len, 0);
  CHECK_EQ_INT(strata_tilemap_find_path(m, 0, 0, 1, 1, &o, &p, &err), STRATA_OK);
  CHECK_EQ_INT(p.len, 0); /* the goal is a wall */
  CHECK_EQ_INT(strata_tilemap_find_path(m, 2, 2, 2, 2, &o, &p, &err), STRATA_OK);
  CHECK_EQ_INT(p.len, 1);
  CHECK_NEAR(p.cost, 0, 0);
  /* Bad arguments. */
  CHECK_EQ_INT(strata_tilemap_find_path(m, -1, 0, 2, 2, &o, &p, &err), STRATA_EARG);
  CHECK_HAS(err.message, "start (-1, 0) is outside");
  CHECK_EQ_INT(strata_tilemap_find_path(m, 0, 0, 10, 2, &o, &p, &err), STRATA_EARG);
  CHECK_HAS(err.message, "goal (10, 2)");
  o.connectivity = 6;
  CHECK_EQ_INT(strata_tilemap_find_path(m, 0, 0, 2, 2, &o, &p, &err), STRATA_EARG);
  CHECK_HAS(err.message, "connectivity");
  o.connectivity = 8;
  o.diagonal_cost = 0.5;
  CHECK_EQ_INT(strata_tilemap_find_path(m, 0, 0, 2, 2, &o, &p, &err), STRATA_EARG);
  o.diagonal_cost = NAN;
  CHECK_EQ_INT(strata_tilemap_find_path(m, 0, 0, 2, 2, &o, &p, &err), STRATA_EARG);
  /* Editing the map and the traits is seen by the next search. */
  strata_grid_options_init(&o);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_tilemap_reset(m, 2, 1, strata_tokens_find(t, "floor", 5), &err);
  strata_tilemap_find_path(m, 2, 0, 2, 2, &o, &p, &err);
  CHECK_EQ_INT(p.len, 3);
  strata_token_traits lava = {0, 1, "x", "", 0};
  strata_tokens_define(t, "floor", 5, &lava, &err);
  strata_tilemap_find_path(m, 2, 0, 2, 2, &o, &p, &err);
  CHECK_EQ_INT(p.len, 0);
  strata_tilemap_free(m);
  strata_path_free(&p);
}

/* A random open map: every optimal algorithm agrees, many searches allocate
** nothing new after the first (the workspace memory stays the same). */
static void test_agreement(void) {
  strata_rng r;
  strata_rng_seed(&r, 5);
  strata_tilemap *m = strata_tilemap_new(60, 40, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0}, mud = {1, 2.5, "m", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  strata_tokens_define(t, "mud", 3, &mud, NULL);
  strata_token fl = strata_tokens_intern(t, "floor", 5, NULL);
  strata_token wl = strata_tokens_find(t, "wall", 4), md = strata_tokens_find(t, "mud", 3);
  for (int y = 0; y < 40; y++)
    for (int x = 0; x < 60; x++) {
      double u = strata_rng_float(&r);
      strata_tilemap_set(m, x, y, u < 0.25 ? wl : u < 0.4 ? md : fl, NULL);
    }
  strata_path p;
  strata_path_init(&p);
  strata_grid_options o;
  size_t memory_after_first = 0;
  for (int trial = 0; trial < 200; trial++) {
    int x1 = (int)strata_rng_below(&r, 60), y1 = (int)strata_rng_below(&r, 40);
    int x2 = (int)strata_rng_below(&r, 60), y2 = (int)strata_rng_below(&r, 40);
    for (int conn = 4; conn <= 8; conn += 4) {
      strata_grid_options_init(&o);
      o.connectivity = conn;
      o.algorithm = STRATA_PATH_DIJKSTRA;
      strata_tilemap_find_path(m, x1, y1, x2, y2, &o, &p, NULL);
      double best = p.cost;
      size_t len = p.len;
      CHECK(path_valid(m, &p, conn == 8, M_SQRT2));
      o.algorithm = STRATA_PATH_ASTAR;
      strata_tilemap_find_path(m, x1, y1, x2, y2, &o, &p, NULL);
      CHECK_EQ_INT(p.len == 0, len == 0);
      CHECK_NEAR(p.cost, best, 1e-9);
      CHECK(path_valid(m, &p, conn == 8, M_SQRT2));
      o.algorithm = STRATA_PATH_GREEDY;
      strata_tilemap_find_path(m, x1, y1, x2, y2, &o, &p, NULL);
      CHECK_EQ_INT(p.len == 0, len == 0);
      CHECK(p.cost >= best - 1e-9 && path_valid(m, &p, conn == 8, M_SQRT2));
      o.algorithm = STRATA_PATH_BFS;
      strata_tilemap_find_path(m, x1, y1, x2, y2, &o, &p, NULL);
      CHECK_EQ_INT(p.len == 0, len == 0);
      CHECK(path_valid(m, &p, conn == 8, M_SQRT2));
    }
    if (trial == 0) memory_after_first = strata_tilemap_memory(m);
  }
  /* The heap buckets may grow while frontiers grow; the per-node arrays never. */
  CHECK(strata_tilemap_memory(m) <= memory_after_first + 64 * 1024);
  strata_tilemap_free(m);
  strata_path_free(&p);
}

/* Maps of one cost take the engines of gridflood.c; the same map with one
** walled-in cell of another cost takes the general engine. Both must find
** routes of the same cost (BFS: of the same length), for every algorithm,
** connectivity and diagonal cost, including diagonals dearer than two steps. */
static void test_one_cost(void) {
  strata_rng r;
  strata_rng_seed(&r, 11);
  const int W = 50, H = 36;
  strata_tilemap *one = strata_tilemap_new(W, H, NULL, NULL), *two = strata_tilemap_new(W, H, NULL, NULL);
  strata_tilemap *maps[2] = {one, two};
  strata_token wl[2], fl[2], md[2];
  for (int k = 0; k < 2; k++) {
    strata_tokens *t = strata_tilemap_tokens(maps[k]);
    strata_token_traits wall = {0, 1, "#", "", 0}, floor = {1, 1.5, ".", "", 0}, mud = {1, 4, "m", "", 0};
    strata_tokens_define(t, "wall", 4, &wall, NULL);
    strata_tokens_define(t, "floor", 5, &floor, NULL);
    strata_tokens_define(t, "mud", 3, &mud, NULL);
    wl[k] = strata_tokens_find(t, "wall", 4), fl[k] = strata_tokens_find(t, "floor", 5);
    md[k] = strata_tokens_find(t, "mud", 3);
  }
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int wall = strata_rng_float(&r) < 0.3;
      for (int k = 0; k < 2; k++) strata_tilemap_set(maps[k], x, y, wall ? wl[k] : fl[k], NULL);
    }
  /* the corner cell of mud behind walls: reachable by nothing */
  strata_tilemap_set(two, 0, 0, md[1], NULL);
  strata_tilemap_set(two, 1, 0, wl[1], NULL), strata_tilemap_set(two, 0, 1, wl[1], NULL);
  strata_tilemap_set(two, 1, 1, wl[1], NULL);
  strata_tilemap_set(one, 0, 0, wl[0], NULL);
  strata_tilemap_set(one, 1, 0, wl[0], NULL), strata_tilemap_set(one, 0, 1, wl[0], NULL);
  strata_tilemap_set(one, 1, 1, wl[0], NULL);
  static const strata_path_algorithm algos[] = {STRATA_PATH_DIJKSTRA, STRATA_PATH_ASTAR, STRATA_PATH_BFS};
  static const double diags[] = {1, M_SQRT2, 1.7, 2.5};
  strata_path a, b;
  strata_path_init(&a), strata_path_init(&b);
  int compared = 0;
  for (int trial = 0; trial < 150; trial++) {
    int x1 = 2 + (int)strata_rng_below(&r, W - 2), y1 = 2 + (int)strata_rng_below(&r, H - 2);
    int x2 = 2 + (int)strata_rng_below(&r, W - 2), y2 = 2 + (int)strata_rng_below(&r, H - 2);
    for (int conn = 4; conn <= 8; conn += 4)
      for (size_t di = 0; di < (conn == 8 ? 4u : 1u); di++)
        for (size_t ai = 0; ai < 3; ai++) {
          strata_grid_options o;
          strata_grid_options_init(&o);
          o.connectivity = conn, o.diagonal_cost = diags[di], o.algorithm = algos[ai];
          CHECK(strata_tilemap_find_path(one, x1, y1, x2, y2, &o, &a, NULL) == STRATA_OK);
          CHECK(strata_tilemap_find_path(two, x1, y1, x2, y2, &o, &b, NULL) == STRATA_OK);
          CHECK_EQ_INT(a.len == 0, b.len == 0);
          if (a.len == 0) continue;
          CHECK(path_valid(one, &a, conn == 8, diags[di]));
          if (algos[ai] == STRATA_PATH_BFS) CHECK_EQ_INT((int)a.len, (int)b.len);
          else CHECK_NEAR(a.cost, b.cost, 1e-9);
          compared++;
        }
  }
  CHECK(compared > 1000);
  strata_path_free(&a), strata_path_free(&b);
  strata_tilemap_free(one), strata_tilemap_free(two);
}

/* The exact optimum from scratch (8 neighbours, diagonal sqrt 2, every
** passable cell cost 1): a plain O(n^2) Dijkstra over the test's own copy of
** the map, so the engines are compared with something that shares nothing
** with them. Returns -1 when the goal cannot be reached. */
static double reference_cost(const unsigned char *open, int w, int h, int s, int g) {
  int n = w * h;
  double *dist = malloc((size_t)n * sizeof *dist);
  unsigned char *done = calloc((size_t)n, 1);
  for (int i = 0; i < n; i++) dist[i] = INFINITY;
  dist[s] = 0;
  for (;;) {
    int u = -1;
    for (int i = 0; i < n; i++)
      if (!done[i] && dist[i] < INFINITY && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0 || u == g) break;
    done[u] = 1;
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        int x = u % w + dx, y = u / w + dy;
        if ((dx == 0 && dy == 0) || x < 0 || y < 0 || x >= w || y >= h || !open[y * w + x]) continue;
        double c = dist[u] + (dx != 0 && dy != 0 ? M_SQRT2 : 1);
        if (c < dist[y * w + x]) dist[y * w + x] = c;
      }
  }
  double r = dist[g] < INFINITY ? dist[g] : -1;
  free(dist), free(done);
  return r;
}

/* A w x h map of floor and walls, each cell a wall with probability
** density; open[i] says which cells are floor (the caller frees it). */
static strata_tilemap *random_walls(strata_rng *r, int w, int h, double density,
                                    unsigned char **open_out) {
  strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  strata_token wl = strata_tokens_find(t, "wall", 4), fl = strata_tokens_intern(t, "floor", 5, NULL);
  unsigned char *open = malloc((size_t)w * h);
  for (int i = 0; i < w * h; i++) {
    open[i] = strata_rng_float(r) >= density;
    strata_tilemap_set(m, i % w, i / w, open[i] ? fl : wl, NULL);
  }
  *open_out = open;
  return m;
}

/* 8 neighbours with diagonal sqrt 2 on maps of one cost take the searches
** from both ends (gridbidir.c): A* and Dijkstra must find optimal routes on
** maps of every shape, 1x1, 1xN, Nx1, tiny and larger, sparse and dense
** walls, unreachable goals, walled-in starts, start == goal, and next to
** each other; a route longer than 16-bit step counts falls back and is
** still optimal. Maps too large for the from-scratch optimum (hundreds of
** cells a side: routes of hundreds of steps, so the dropped straight
** arrivals, the lane tests and the meeting all run far from the borders)
** are checked against the one-sided engines instead, which a diagonal a
** hair dearer than sqrt 2 takes (no route's order changes by it). */
/* A route found from s to g at 8 neighbours with diagonal sqrt 2: legal
** moves, from s to g, of cost want; or none when want < 0. Returns whether
** a route was expected. */
static int check_route(strata_tilemap *m, const strata_path *p, int s, int g, double want) {
  if (want < 0) {
    CHECK_EQ_INT(p->len, 0);
    return 0;
  }
  CHECK(p->len > 0 && path_valid(m, p, 1, M_SQRT2));
  CHECK(p->len > 0 && p->nodes[0] == (uint32_t)s && p->nodes[p->len - 1] == (uint32_t)g);
  CHECK_NEAR(p->cost, want, 1e-9);
  return 1;
}

static double one_sided_cost(strata_tilemap *m, int w, int s, int g, strata_path_algorithm algo) {
  strata_grid_options o;
  strata_grid_options_init(&o);
  o.connectivity = 8, o.diagonal_cost = nextafter(M_SQRT2, 2), o.algorithm = algo;
  strata_path q;
  strata_path_init(&q);
  CHECK(strata_tilemap_find_path(m, s % w, s / w, g % w, g / w, &o, &q, NULL) == STRATA_OK);
  double cost = q.len ? q.cost : -1;
  strata_path_free(&q);
  return cost;
}

static void test_bidirectional(void) {
  strata_rng r;
  strata_rng_seed(&r, 23);
  static const int sizes[][2] = {{1, 1}, {1, 9}, {9, 1}, {2, 2}, {3, 2}, {1, 40}, {40, 1},
                                 {5, 5}, {13, 7}, {30, 20}, {47, 33}, {200, 150}, {97, 211},
                                 {320, 320}};
  static const double densities[] = {0, 0.15, 0.3, 0.45};
  strata_path p;
  strata_path_init(&p);
  int compared = 0, unreachable = 0;
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
    for (size_t di = 0; di < sizeof densities / sizeof densities[0]; di++) {
      const int w = sizes[si][0], h = sizes[si][1];
      unsigned char *open;
      strata_tilemap *m = random_walls(&r, w, h, densities[di], &open);
      for (int trial = 0; trial < 12; trial++) {
        int s = (int)strata_rng_below(&r, (uint32_t)(w * h)), g = (int)strata_rng_below(&r, (uint32_t)(w * h));
        if (trial == 0) g = s;                                        /* start == goal */
        if (trial == 1 && w > 1) g = s % w + 1 < w ? s + 1 : s - 1;   /* neighbours */
        const int small = w * h <= 2500;
        double want = open[g] && small ? reference_cost(open, w, h, s, g) : -1;
        for (int algo = 0; algo < 2; algo++) {
          strata_grid_options o;
          strata_grid_options_init(&o);
          o.connectivity = 8, o.diagonal_cost = M_SQRT2;
          o.algorithm = algo ? STRATA_PATH_DIJKSTRA : STRATA_PATH_ASTAR;
          if (!small) want = one_sided_cost(m, w, s, g, o.algorithm);
          CHECK(strata_tilemap_find_path(m, s % w, s / w, g % w, g / w, &o, &p, NULL) == STRATA_OK);
          if (check_route(m, &p, s, g, want)) compared++;
          else unreachable++;
        }
      }
      free(open);
      strata_tilemap_free(m);
    }
  CHECK(compared > 500 && unreachable > 40);

  /* A winding corridor 600 wide over 600 rows: the route has about 180,000
  ** steps, so each side would need more than the 65,534 straight steps the
  ** bidirectional search counts; it falls back to the one-sided engines, and
  ** the cost is the one of a diagonal a hair dearer (which takes them). */
  const int side = 600;
  strata_tilemap *snake = strata_tilemap_new(side, side, NULL, NULL);
  strata_tokens *st = strata_tilemap_tokens(snake);
  strata_token_traits wall = {0, 1, "#", "", 0};
  strata_tokens_define(st, "wall", 4, &wall, NULL);
  strata_token swl = strata_tokens_find(st, "wall", 4), sfl = strata_tokens_intern(st, "floor", 5, NULL);
  for (int y = 0; y < side; y++)
    for (int x = 0; x < side; x++) {
      int gap = y % 4 == 1 ? x == side - 1 : x == 0;
      strata_tilemap_set(snake, x, y, y % 2 == 0 || gap ? sfl : swl, NULL);
    }
  for (int algo = 0; algo < 2; algo++) {
    strata_grid_options o;
    strata_grid_options_init(&o);
    o.connectivity = 8, o.diagonal_cost = nextafter(M_SQRT2, 2);
    o.algorithm = algo ? STRATA_PATH_DIJKSTRA : STRATA_PATH_ASTAR;
    CHECK(strata_tilemap_find_path(snake, 0, 0, side - 1, side - 2, &o, &p, NULL) == STRATA_OK);
    double want = p.cost;
    CHECK(p.len > 150000);
    o.diagonal_cost = M_SQRT2;
    CHECK(strata_tilemap_find_path(snake, 0, 0, side - 1, side - 2, &o, &p, NULL) == STRATA_OK);
    CHECK(p.len > 150000 && path_valid(snake, &p, 1, M_SQRT2));
    CHECK_NEAR(p.cost, want, 1e-6);
  }
  strata_tilemap_free(snake);
  strata_path_free(&p);
}

/* Jump point search (gridjump.c) called directly, whatever the dispatch
** would choose, as A* and as Dijkstra: on random maps of every shape
** (widths and heights on both sides of the bitsets' 64-bit words, 1xN,
** Nx1), sparse and dense walls, start == goal, neighbours, unreachable and
** walled goals, its cost must be the from-scratch optimum and its path
** legal, complete and of that cost. One engine serves every map, so its
** bitsets are rebuilt on each new map (serial) and size. */
static void test_jump(void) {
  strata_rng r;
  strata_rng_seed(&r, 29);
  static const int sizes[][2] = {{1, 1}, {1, 9}, {9, 1}, {2, 2}, {3, 2}, {1, 40}, {40, 1},
                                 {5, 5}, {13, 7}, {30, 20}, {47, 33}, {62, 5}, {63, 4},
                                 {64, 3}, {4, 62}, {3, 63}, {70, 9}, {9, 70}, {130, 17},
                                 {17, 130}, {1, 130}, {130, 1}};
  static const double densities[] = {0, 0.05, 0.15, 0.3, 0.45};
  struct grid_jump *jump = NULL;
  strata_path p;
  strata_path_init(&p);
  uint64_t serial = 0;
  int compared = 0, unreachable = 0;
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
    for (size_t di = 0; di < sizeof densities / sizeof densities[0]; di++) {
      const int w = sizes[si][0], h = sizes[si][1];
      const uint32_t pw = (uint32_t)w + 2, ph = (uint32_t)h + 2;
      unsigned char *open;
      strata_tilemap *m = random_walls(&r, w, h, densities[di], &open);
      uint8_t *cls = calloc((size_t)pw * ph, 1); /* padded, a border of walls */
      for (int i = 0; i < w * h; i++) cls[(size_t)(i / w + 1) * pw + (size_t)(i % w + 1)] = open[i];
      serial++;
      for (int trial = 0; trial < 10; trial++) {
        int s = (int)strata_rng_below(&r, (uint32_t)(w * h)), g = (int)strata_rng_below(&r, (uint32_t)(w * h));
        if (trial == 0) g = s;                                        /* start == goal */
        if (trial == 1 && w > 1) g = s % w + 1 < w ? s + 1 : s - 1;   /* neighbours */
        if (trial == 2 && h > 1) g = s / w + 1 < h ? s + w : s - w;
        if (trial == 3 && w > 1 && h > 1) g = s % w + 1 < w ? s + 1 : s - 1, g = g / w + 1 < h ? g + w : g - w;
        double want = open[s] && open[g] ? reference_cost(open, w, h, s, g) : -1;
        for (int astar = 0; astar < 2; astar++) {
          uint64_t expanded = 0;
          int found = gridjump_run(&jump, cls, pw, ph, serial, astar, s % w, s / w, g % w, g / w,
                                   1.0, &p, &expanded);
          CHECK_EQ_INT(found, want >= 0);
          if (check_route(m, &p, s, g, want)) compared++;
          else unreachable++;
        }
      }
      free(open);
      free(cls);
      strata_tilemap_free(m);
    }
  CHECK(compared > 1000 && unreachable > 50);
  gridjump_free(jump);
  strata_path_free(&p);
}

/* A generic graph: a ring of 10 nodes with one expensive shortcut. */
static unsigned ring_edges(void *ud, uint32_t node, strata_edge *out) {
  (void)ud;
  unsigned k = 0;
  out[k++] = (strata_edge){(node + 1) % 10, 1};
  out[k++] = (strata_edge){(node + 9) % 10, 1};
  if (node == 0) out[k++] = (strata_edge){5, 4.5};
  return k;
}

static unsigned bad_edges(void *ud, uint32_t node, strata_edge *out) {
  (void)ud;
  (void)node;
  out[0] = (strata_edge){42, 1};
  return 1;
}

static void test_generic(void) {
  strata_error err;
  strata_search *s = strata_search_new(&err);
  strata_graph g = {10, NULL, ring_edges, NULL};
  strata_path p;
  strata_path_init(&p);
  CHECK_EQ_INT(strata_search_run(s, &g, 0, 5, STRATA_PATH_DIJKSTRA, &p, &err), STRATA_OK);
  CHECK_NEAR(p.cost, 4.5, 0);
  CHECK_EQ_INT(p.len, 2);
  CHECK_EQ_INT(strata_search_run(s, &g, 0, 5, STRATA_PATH_BFS, &p, &err), STRATA_OK);
  CHECK_EQ_INT(p.len, 2);
  CHECK_EQ_INT(strata_search_run(s, &g, 0, 4, STRATA_PATH_DIJKSTRA, &p, &err), STRATA_OK);
  CHECK_NEAR(p.cost, 4, 0);
  CHECK_EQ_INT(strata_search_run(s, &g, 0, 10, STRATA_PATH_DIJKSTRA, &p, &err), STRATA_EARG);
  strata_graph bad = {10, NULL, bad_edges, NULL};
  CHECK_EQ_INT(strata_search_run(s, &bad, 0, 5, STRATA_PATH_ASTAR, &p, &err), STRATA_EARG);
  CHECK_HAS(err.message, "missing node");
  CHECK_EQ_INT(strata_search_run(NULL, &g, 0, 5, STRATA_PATH_ASTAR, &p, &err), STRATA_EARG);
  strata_path_algorithm a;
  CHECK(strata_path_algorithm_parse("greedy", &a) && a == STRATA_PATH_GREEDY);
  CHECK(!strata_path_algorithm_parse("magic", &a));
  CHECK_STR(strata_path_algorithm_name(STRATA_PATH_BFS), "bfs");
  strata_search_free(s);
  strata_path_free(&p);
}

int main(void) {
  test_small_maps();
  test_agreement();
  test_one_cost();
  test_bidirectional();
  test_jump();
  test_generic();
  return check_summary("path");
}
