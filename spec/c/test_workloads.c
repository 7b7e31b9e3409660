/*
** test_workloads.c - optimality on the peers' benchmark workloads.
**
** Generates the 100x100 and 500x500 open, maze and rooms maps with
** ../shared/bench/gen_grid.py (the 1000x1000 ones are checked by the
** benchmark, which prints the same verdict), then checks that A*, Dijkstra
** and BFS paths cost exactly the recorded optimum at 4, 8 (diagonal 1) and
** 8 (diagonal sqrt 2) connectivity (BFS only where steps are what counts),
** and that greedy paths are valid.
*/
#include <stdlib.h>

#include "check.h"
#include "gridflood.h"
#include "strata/strata.h"

typedef struct workload {
  strata_tilemap *map;
  int sx, sy, gx, gy;
  double opt4, opt8, opt8s;
} workload;

static int load(const char *dir, const char *name, workload *w) {
  char path[1024], line[256];
  snprintf(path, sizeof path, "%s/%s.meta", dir, name);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  while (fgets(line, sizeof line, f)) {
    sscanf(line, "start %d %d", &w->sx, &w->sy);
    sscanf(line, "goal %d %d", &w->gx, &w->gy);
    sscanf(line, "opt4 %lf", &w->opt4);
    sscanf(line, "opt8 %lf", &w->opt8);
    sscanf(line, "opt8s %lf", &w->opt8s);
  }
  fclose(f);
  snprintf(path, sizeof path, "%s/%s.map", dir, name);
  f = fopen(path, "r");
  if (!f) return 0;
  int width, height;
  if (fscanf(f, "%d %d\n", &width, &height) != 2) return fclose(f), 0;
  w->map = strata_tilemap_new(width, height, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(w->map);
  strata_token_traits wall = {0, 1, "#", ""};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  strata_token wl = strata_tokens_find(t, "wall", 4), fl = strata_tokens_intern(t, "floor", 5, NULL);
  char *row = malloc((size_t)width + 4);
  for (int y = 0; y < height && fgets(row, width + 4, f); y++)
    for (int x = 0; x < width; x++) strata_tilemap_set(w->map, x, y, row[x] == '#' ? wl : fl, NULL);
  free(row);
  fclose(f);
  return 1;
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
  const char *shared = getenv("STRATA_SHARED_DIR");
  if (shared == NULL) shared = STRATA_SHARED_DEFAULT;
  char dir[] = "/tmp/strata-workloads-XXXXXX";
  if (mkdtemp(dir) == NULL) {
    fprintf(stderr, "cannot make a scratch directory\n");
    return 1;
  }
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "python3 '%s/bench/gen_grid.py' '%s' --seed 1 --types open,maze,rooms "
           "--sizes 100,500 >/dev/null 2>&1", shared, dir);
  CHECK(system(cmd) == 0);
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
      if (!load(dir, name, &w)) {
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
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  return check_summary("workloads");
}
