/*
** test_workloads.c - optimality on grid workloads like the peers' benchmark
** ones.
**
** Makes the 100x100 and 500x500 open, maze and rooms maps with the project's
** own generator (gridgen.h; the benchmark's 1000x1000 ones are checked by
** bench_grid, which prints the same verdict), computes each optimum with the
** plain reference Dijkstra there, then checks that A*, Dijkstra and BFS
** paths cost exactly that optimum at 4, 8 (diagonal 1) and 8 (diagonal
** sqrt 2) connectivity (BFS only where steps are what counts), and that
** greedy paths are valid. The reference itself is checked first on small
** maps whose optima are worked out by hand.
*/
#include <stdlib.h>

#include "check.h"
#include "gridengine.h"
#include "gridgen.h"
#include "strata/strata.h"

typedef struct workload {
  strata_tilemap *map;
  int sx, sy, gx, gy;
  double opt4, opt8, opt8s;
} workload;

/* The generated map as a tile map of "floor" and "wall", with its optima. */
static int load(const char *kind, int size, workload *w) {
  gridgen_map g;
  if (!gridgen_make(&g, kind, size, size, 1)) return 0;
  w->sx = g.sx, w->sy = g.sy, w->gx = g.gx, w->gy = g.gy;
  w->opt4 = gridgen_optimum(&g, 0, 1);
  w->opt8 = gridgen_optimum(&g, 1, 1);
  w->opt8s = gridgen_optimum(&g, 1, M_SQRT2);
  /* the kinds' shapes: a route exists, and it is not a trivial one */
  CHECK(w->opt4 >= size && w->opt8 >= size - 1 && w->opt8s >= w->opt8 && w->opt8s <= w->opt4);
  CHECK(2 * g.component >= g.passable);
  w->map = strata_tilemap_new(size, size, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(w->map);
  strata_token_traits wall = {0, 1, "#", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  strata_token wl = strata_tokens_find(t, "wall", 4), fl = strata_tokens_intern(t, "floor", 5, NULL);
  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++)
      strata_tilemap_set(w->map, x, y, g.cells[(size_t)y * (size_t)size + (size_t)x] == '#' ? wl : fl, NULL);
  gridgen_free(&g);
  return 1;
}

/* The reference Dijkstra on maps small enough to solve by hand. */
static void test_reference(void) {
  static const struct {
    const char *rows[5];
    double opt4, opt8, opt8s;
  } cases[] = {
      /* open: 4 + 2 straight; 4 steps of which 2 diagonal */
      {{"S....", "....G"}, 5, 4, 3 + M_SQRT2},
      {{"S....", ".....", "....G"}, 6, 4, 2 + 2 * M_SQRT2},
      /* a wall with a gap at the bottom: around it */
      {{"S.#..", "..#..", "....G"}, 6, 4, 2 + 2 * M_SQRT2},
      /* corners may be cut: a diagonal step between two walls */
      {{"S#...", "#....", "....G"}, -1, 4, 2 + 2 * M_SQRT2},
      /* a corridor that doubles back */
      {{"S...#", "###.#", "G...#"}, 8, 6, 4 + 2 * M_SQRT2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    gridgen_map g = {0};
    while (g.h < 5 && cases[i].rows[g.h]) g.h++;
    g.w = (int)strlen(cases[i].rows[0]);
    char cells[64];
    g.cells = cells;
    for (int y = 0; y < g.h; y++)
      for (int x = 0; x < g.w; x++) {
        char c = cases[i].rows[y][x];
        if (c == 'S') g.sx = x, g.sy = y;
        if (c == 'G') g.gx = x, g.gy = y;
        cells[y * g.w + x] = c == '#' ? '#' : '.';
      }
    CHECK_NEAR(gridgen_optimum(&g, 0, 1), cases[i].opt4, 1e-12);
    CHECK_NEAR(gridgen_optimum(&g, 1, 1), cases[i].opt8, 1e-12);
    CHECK_NEAR(gridgen_optimum(&g, 1, M_SQRT2), cases[i].opt8s, 1e-12);
  }
}

/* The generator: the same arguments give the same map, the start and goal
** lie near their corners, and a maze has exactly one route (a tree: as many
** openings between neighbouring floor cells as floor cells less one). */
static void test_generator(void) {
  gridgen_map a, b;
  CHECK(gridgen_make(&a, "rooms", 64, 48, 7) && gridgen_make(&b, "rooms", 64, 48, 7));
  CHECK(memcmp(a.cells, b.cells, 64 * 48) == 0 && a.gx == b.gx && a.gy == b.gy);
  gridgen_free(&b);
  CHECK(gridgen_make(&b, "rooms", 64, 48, 8));
  CHECK(memcmp(a.cells, b.cells, 64 * 48) != 0);
  gridgen_free(&a), gridgen_free(&b);
  CHECK(gridgen_make(&a, "maze", 41, 31, 1));
  long floor = 0, links = 0;
  for (int y = 0; y < a.h; y++)
    for (int x = 0; x < a.w; x++) {
      if (a.cells[y * a.w + x] != '.') continue;
      floor++;
      links += x + 1 < a.w && a.cells[y * a.w + x + 1] == '.';
      links += y + 1 < a.h && a.cells[(y + 1) * a.w + x] == '.';
    }
  CHECK_EQ_INT(links, floor - 1);
  CHECK_EQ_INT(a.component, floor);
  CHECK(a.sx == 1 && a.sy == 1 && a.gx == 39 && a.gy == 29);
  gridgen_free(&a);
  CHECK(gridgen_make(&a, "open", 50, 50, 1));
  CHECK(a.passable > 50 * 50 * 7 / 10 && a.passable < 50 * 50 * 9 / 10);
  CHECK(a.sx + a.sy < 5 && a.gx + a.gy > 2 * 49 - 5);
  gridgen_free(&a);
  CHECK(!gridgen_make(&a, "caves", 50, 50, 1));
}

/* Legal moves on passable cells from start to goal; returns the cost. */
static double walk(const workload *w, const strata_path *p, int eight, double diag) {
  int width = strata_tilemap_width(w->map);
  if (p->len == 0 || p->nodes[0] != (uint32_t)(w->sy * width + w->sx) ||
      p->nodes[p->len - 1] != (uint32_t)(w->gy * width + w->gx))
    return -1;
  double cost = 0;
  for (size_t i = 1; i < p->len; i++) {
    int x0 = (int)(p->nodes[i - 1] % (uint32_t)width), y0 = (int)(p->nodes[i - 1] / (uint32_t)width);
    int x1 = (int)(p->nodes[i] % (uint32_t)width), y1 = (int)(p->nodes[i] / (uint32_t)width);
    int dx = abs(x1 - x0), dy = abs(y1 - y0);
    if (dx > 1 || dy > 1 || dx + dy == 0 || (!eight && dx + dy == 2)) return -1;
    if (!strata_tilemap_passable(w->map, x1, y1)) return -1;
    cost += dx + dy == 2 ? diag : 1;
  }
  return cost;
}

int main(void) {
  test_reference();
  test_generator();
  static const char *const types[] = {"open", "maze", "rooms"};
  static const int sizes[] = {100, 500};
  static const strata_path_algorithm algs[] = {STRATA_PATH_ASTAR, STRATA_PATH_DIJKSTRA,
                                               STRATA_PATH_BFS, STRATA_PATH_GREEDY};
  strata_path p;
  strata_path_init(&p);
  int maps = 0;
  for (int s = 0; s < 2; s++) {
    for (int t = 0; t < 3; t++) {
      char name[64];
      snprintf(name, sizeof name, "%s_%dx%d_s1", types[t], sizes[s], sizes[s]);
      workload w = {0};
      if (!load(types[t], sizes[s], &w)) {
        CHECK(!"workload generated");
        continue;
      }
      maps++;
      for (int conn = 0; conn < 3; conn++) {
        strata_grid_options o;
        strata_grid_options_init(&o);
        o.connectivity = conn == 0 ? 4 : 8;
        o.diagonal_cost = conn == 1 ? 1 : M_SQRT2;
        double opt = conn == 0 ? w.opt4 : conn == 1 ? w.opt8 : w.opt8s;
        for (int a = 0; a < 4; a++) {
          o.algorithm = algs[a];
          CHECK(strata_tilemap_find_path(w.map, w.sx, w.sy, w.gx, w.gy, &o, &p, NULL) == STRATA_OK);
          double cost = walk(&w, &p, o.connectivity == 8, o.diagonal_cost);
          CHECK(cost >= 0);                       /* a valid path */
          CHECK_NEAR(p.cost, cost, 1e-6 * opt);   /* reported cost is the path's */
          int must_be_optimal = algs[a] != STRATA_PATH_GREEDY &&
                                !(algs[a] == STRATA_PATH_BFS && conn == 2);
          if (must_be_optimal && fabs(cost - opt) > 1e-6 * opt) {
            fprintf(stderr, "%s %s conn %d: cost %.6f, optimum %.6f\n", name,
                    strata_path_algorithm_name(algs[a]), conn, cost, opt);
            CHECK(!"optimal");
          } else {
            CHECK(1);
          }
          /* and back: the searches from both ends (gridbidir.c) must not
          ** depend on which end is the start */
          if (must_be_optimal && conn == 2) {
            CHECK(strata_tilemap_find_path(w.map, w.gx, w.gy, w.sx, w.sy, &o, &p, NULL) == STRATA_OK);
            CHECK(p.len > 0 && p.nodes[0] == (uint32_t)(w.gy * strata_tilemap_width(w.map) + w.gx));
            CHECK_NEAR(p.cost, opt, 1e-6 * opt);
          }
        }
      }
      /* Jump point search (gridjump.c) called directly, whichever engine
      ** the dispatch picks for this map: A* and Dijkstra, both ways. */
      {
        const int width = strata_tilemap_width(w.map), height = strata_tilemap_height(w.map);
        const uint32_t pw = (uint32_t)width + 2, ph = (uint32_t)height + 2;
        uint8_t *cls = calloc((size_t)pw * ph, 1);
        for (int y = 0; y < height; y++)
          for (int x = 0; x < width; x++)
            cls[(size_t)(y + 1) * pw + (size_t)(x + 1)] = strata_tilemap_passable(w.map, x, y) ? 1 : 0;
        struct grid_jump *jump = NULL;
        for (int a = 0; a < 4; a++) {
          uint64_t expanded;
          int back = a >= 2;
          CHECK_EQ_INT(gridjump_run(&jump, cls, pw, ph, 1, a & 1, back ? w.gx : w.sx,
                                    back ? w.gy : w.sy, back ? w.sx : w.gx, back ? w.sy : w.gy,
                                    1.0, &p, &expanded), 1);
          if (back) { /* walk() checks start to goal */
            for (size_t i = 0, k = p.len - 1; p.len && i < k; i++, k--) {
              uint32_t tmp = p.nodes[i];
              p.nodes[i] = p.nodes[k], p.nodes[k] = tmp;
            }
          }
          double cost = walk(&w, &p, 1, M_SQRT2);
          CHECK(cost >= 0);
          CHECK_NEAR(p.cost, cost, 1e-6 * w.opt8s);
          if (fabs(cost - w.opt8s) > 1e-6 * w.opt8s) {
            fprintf(stderr, "%s jump %s%s: cost %.6f, optimum %.6f\n", name,
                    a & 1 ? "astar" : "dijkstra", back ? " back" : "", cost, w.opt8s);
            CHECK(!"optimal");
          }
        }
        gridjump_free(jump);
        free(cls);
      }
      strata_tilemap_free(w.map);
    }
  }
  CHECK_EQ_INT(maps, 6);
  strata_path_free(&p);
  return check_summary("workloads");
}
