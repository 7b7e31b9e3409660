/*
** test_distmap.c - distance maps (strata/distmap.h) against a plain
** Dijkstra written here, on many random maps: random costs (whole and not),
** walls, goals, 4 and 8 neighbours, diagonals 1, sqrt 2, 1.7 and 3, with and
** without max_cost. Then step_down (every step downhill, each walk ends on a
** goal), flee (against a reference relaxed to a fixed point; every walk ends
** at least as far from the goals as it began), update after random edits
** (equal to a compute afresh, and settling few cells for a small edit), and
** the refusals; maps of one cost (not 1) with diagonals about the Dial
** loop's cases; mazes (the field over their junctions) with goals on
** junctions, corridors and dead ends.
*/
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "gridgen.h"
#include "strata/distmap.h"
#include "tilemap_internal.h"
#include "strata/strata.h"

#define NCOST 5
typedef struct tokset {
  strata_token wall, cost[NCOST];
} tokset;

static void define_tokens(strata_tilemap *m, int kind, tokset *ts) {
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  ts->wall = strata_tokens_find(t, "wall", 4);
  static const double whole[] = {1, 2, 3, 5, 9}, frac[] = {1, 1.25, 0.5, 2.75, 7.3};
  for (int k = 0; k < NCOST; k++) {
    char name[16];
    snprintf(name, sizeof name, "c%d", k);
    strata_token_traits tr = {1, kind == 0 ? 1 : kind == 1 ? whole[k] : frac[k], ".", "", 0};
    strata_tokens_define(t, name, 2, &tr, NULL);
    ts->cost[k] = strata_tokens_find(t, name, 2);
  }
}

static strata_token random_token(strata_rng *r, const tokset *ts, double walls, int kind) {
  if (strata_rng_float(r) < walls) return ts->wall;
  return kind == 0 || strata_rng_float(r) < 0.5 ? ts->cost[0] : ts->cost[strata_rng_below(r, NCOST)];
}

/* kind: 0 one cost, 1 whole-number costs, 2 costs that are not whole */
static strata_tilemap *random_map(strata_rng *r, int w, int h, double walls, int kind, tokset *ts) {
  strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
  define_tokens(m, kind, ts);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) strata_tilemap_set(m, x, y, random_token(r, ts, walls, kind), NULL);
  return m;
}

/* ---- the reference: a textbook Dijkstra from the goals, binary heap ---- */

typedef struct item {
  double d;
  int cell;
} item;

typedef struct heap {
  item *a;
  size_t len;
} heap;

static void heap_push(heap *h, double d, int cell) {
  size_t i = h->len++;
  while (i > 0 && h->a[(i - 1) / 2].d > d) h->a[i] = h->a[(i - 1) / 2], i = (i - 1) / 2;
  h->a[i] = (item){d, cell};
}

static item heap_pop(heap *h) {
  item top = h->a[0], last = h->a[--h->len];
  size_t i = 0;
  for (;;) {
    size_t l = 2 * i + 1, s = l;
    if (l >= h->len) break;
    if (l + 1 < h->len && h->a[l + 1].d < h->a[l].d) s = l + 1;
    if (h->a[s].d >= last.d) break;
    h->a[i] = h->a[s], i = s;
  }
  h->a[i] = last;
  return top;
}

static const int DX[8] = {0, 1, 0, -1, 1, 1, -1, -1}, DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

/* dist[c] from seeds seed[c] (INFINITY: none): the least seed[s] + the cost
** of a route c -> s, each step costing the entered cell's cost (times diag
** diagonally). Relaxed backwards from each settled cell u to its
** neighbours v, which pay u's cost to step into u. extra[c] (NULL: none) is added to the cost of entering c; INFINITY
** makes c impassable. */
static void reference_with(const strata_tilemap *m, const double *seed, int eight, double diag,
                           const double *extra, double *dist) {
  const int w = strata_tilemap_width(m), h = strata_tilemap_height(m), n = w * h;
  heap hp = {malloc((size_t)n * 8 * 2 * sizeof(item) + sizeof(item)), 0};
  for (int i = 0; i < n; i++) {
    const int open = strata_tilemap_passable(m, i % w, i / w) && !(extra && isinf(extra[i]));
    dist[i] = open ? seed[i] : INFINITY;
    if (dist[i] < INFINITY) heap_push(&hp, dist[i], i);
  }
  while (hp.len > 0) {
    item it = heap_pop(&hp);
    if (it.d > dist[it.cell]) continue;
    const int x = it.cell % w, y = it.cell / w;
    const double c = strata_tilemap_cost(m, x, y) + (extra ? extra[it.cell] : 0);
    for (int d = 0; d < (eight ? 8 : 4); d++) {
      const int vx = x + DX[d], vy = y + DY[d];
      if (!strata_tilemap_passable(m, vx, vy) || (extra && isinf(extra[vy * w + vx]))) continue;
      const double nd = it.d + c * (d < 4 ? 1 : diag);
      if (nd < dist[vy * w + vx]) dist[vy * w + vx] = nd, heap_push(&hp, nd, vy * w + vx);
    }
  }
  free(hp.a);
}

static void reference(const strata_tilemap *m, const double *seed, int eight, double diag, double *dist) {
  reference_with(m, seed, eight, diag, NULL, dist);
}

static double tolerance(double d) { return 1e-9 * (fabs(d) > 1 ? fabs(d) : 1); }

/* Every cell of d against ref (limit: cells past it unreached). */
static int same_field(const strata_distmap *d, const double *ref, int w, int h, double limit) {
  int bad = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double got, want = ref[y * w + x], raw = want;
      int reached = strata_distmap_at(d, x, y, &got);
      if (isfinite(limit) && fabs(want - limit) <= tolerance(limit)) continue; /* at the limit: either */
      if (want > limit) want = INFINITY;
      if (reached != (want < INFINITY) || (reached && fabs(got - want) > tolerance(want))) {
        if (bad++ < 3)
          fprintf(stderr, "  cell (%d, %d): %s %.12g, expected %.12g\n", x, y,
                  reached ? "got" : "unreached", reached ? got : 0, raw);
      }
    }
  return bad == 0;
}

static void goal_seeds(const uint32_t *goals, size_t count, int n, double *seed) {
  for (int i = 0; i < n; i++) seed[i] = INFINITY;
  for (size_t k = 0; k < count; k++) seed[goals[k]] = 0;
}

static const double DIAGS[] = {1, M_SQRT2, 1.7, 3};

/* Optimality on many random maps. */
static void test_optimal(void) {
  strata_rng r;
  strata_rng_seed(&r, 36);
  strata_distmap *d = strata_distmap_new(NULL);
  int all_same = 1;
  for (int trial = 0; trial < 400; trial++) {
    const int w = 1 + (int)strata_rng_below(&r, 40), h = 1 + (int)strata_rng_below(&r, 30);
    const int kind = trial % 3, n = w * h;
    tokset ts;
    strata_tilemap *m = random_map(&r, w, h, 0.05 + 0.4 * strata_rng_float(&r), kind, &ts);
    uint32_t goals[100];
    size_t count = 1 + strata_rng_below(&r, trial % 5 == 0 ? 100 : 4);
    for (size_t k = 0; k < count; k++) goals[k] = (uint32_t)strata_rng_below(&r, (uint64_t)n);
    strata_distmap_options o;
    strata_distmap_options_init(&o);
    o.connectivity = trial % 2 ? 8 : 4;
    o.diagonal_cost = DIAGS[(trial / 2) % 4];
    if (trial % 7 == 3) o.max_cost = 0.5 + (double)strata_rng_below(&r, 12);
    double *seed = malloc((size_t)n * sizeof *seed), *ref = malloc((size_t)n * sizeof *ref);
    goal_seeds(goals, count, n, seed);
    reference(m, seed, o.connectivity == 8, o.diagonal_cost, ref);
    strata_error err;
    CHECK_EQ_INT(strata_distmap_compute(d, m, goals, count, &o, &err), STRATA_OK);
    if (!same_field(d, ref, w, h, o.max_cost)) {
      all_same = 0;
      fprintf(stderr, "  trial %d: %dx%d kind %d, %zu goals, connectivity %d, diagonal %g, max %g\n",
              trial, w, h, kind, count, o.connectivity, o.diagonal_cost, o.max_cost);
    }
    free(seed), free(ref);
    strata_tilemap_free(m);
  }
  CHECK(all_same);
  strata_distmap_free(d);
}

/* One trial of a map of one cost: d's field against the reference, then
** edits cells (to a wall, to the floor, in turn), d updated and fresh
** computed afresh, both against the reference again. Nonzero when all agree. */
static int trial_agrees(strata_distmap *d, strata_distmap *fresh, strata_tilemap *m, const uint32_t *goals,
                        size_t count, const strata_distmap_options *o, int edits, strata_rng *r,
                        strata_token tw, strata_token tf) {
  const int w = strata_tilemap_width(m), h = strata_tilemap_height(m), n = w * h;
  double *seed = malloc((size_t)n * sizeof *seed), *ref = malloc((size_t)n * sizeof *ref);
  goal_seeds(goals, count, n, seed);
  reference(m, seed, 1, o->diagonal_cost, ref);
  CHECK_EQ_INT(strata_distmap_compute(d, m, goals, count, o, NULL), STRATA_OK);
  int same = same_field(d, ref, w, h, INFINITY);
  for (int e = 0; e < edits; e++) {
    const uint32_t c = (uint32_t)strata_rng_below(r, (uint64_t)n);
    strata_tilemap_reset(m, (int)(c % (uint32_t)w), (int)(c / (uint32_t)w), e % 2 ? tf : tw, NULL);
  }
  CHECK_EQ_INT(strata_distmap_update(d, m, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_distmap_compute(fresh, m, goals, count, o, NULL), STRATA_OK);
  goal_seeds(goals, count, n, seed);
  reference(m, seed, 1, o->diagonal_cost, ref);
  same = same && same_field(fresh, ref, w, h, INFINITY) && same_field(d, ref, w, h, INFINITY);
  free(seed), free(ref);
  return same;
}

/* Maps of one cost other than 1, 8 neighbours, diagonals about the Dial
** loop's cases (diagonal in the straight step's bucket, pruned, not
** pruned, the ring's widest), many goals: against the reference, and an
** update after edits (to a wall, to the floor) against a compute afresh. */
static void test_one_cost(void) {
  static const double costs[] = {2.5, 0.3, 7}, diags[] = {1, 1.05, 1.124, 1.125, 1.9, 2, 5.5, 59.9};
  strata_rng r;
  strata_rng_seed(&r, 3636);
  strata_distmap *d = strata_distmap_new(NULL), *fresh = strata_distmap_new(NULL);
  int ok = 1;
  for (int trial = 0; trial < 96; trial++) {
    const int w = 2 + (int)strata_rng_below(&r, 60), h = 2 + (int)strata_rng_below(&r, 50), n = w * h;
    strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
    strata_tokens *t = strata_tilemap_tokens(m);
    strata_token_traits wall = {0, 1, "#", "", 0}, floor = {1, costs[trial % 3], ".", "", 0};
    strata_tokens_define(t, "wall", 4, &wall, NULL);
    strata_tokens_define(t, "floor", 5, &floor, NULL);
    const strata_token tw = strata_tokens_find(t, "wall", 4), tf = strata_tokens_find(t, "floor", 5);
    const double walls = 0.05 + 0.5 * strata_rng_float(&r);
    for (int i = 0; i < n; i++)
      strata_tilemap_set(m, i % w, i / w, strata_rng_float(&r) < walls ? tw : tf, NULL);
    uint32_t goals[60];
    const size_t count = 1 + strata_rng_below(&r, trial % 4 ? 4 : 60);
    for (size_t k = 0; k < count; k++) goals[k] = (uint32_t)strata_rng_below(&r, (uint64_t)n);
    strata_distmap_options o;
    strata_distmap_options_init(&o);
    o.connectivity = 8, o.diagonal_cost = diags[(trial / 3) % 8];
    const int same = trial_agrees(d, fresh, m, goals, count, &o, 6, &r, tw, tf);
    if (!same) {
      ok = 0;
      fprintf(stderr, "  one cost trial %d: %dx%d cost %g diagonal %g, %zu goals\n", trial, w, h,
              costs[trial % 3], o.diagonal_cost, count);
    }
    strata_tilemap_free(m);
  }
  CHECK(ok);
  strata_distmap_free(d), strata_distmap_free(fresh);
}

/* Maps of one cost, 8 neighbours, open ground with short wall segments
** (straight and diagonal, lone cells, lines with gaps): the cells beside
** walls, where the Dial loop's pruned offers (griddial.h) need the
** diagonals that jump point search calls forced. Against the reference for
** diagonals from 1 to under 2 and one goal or a few, then an update after
** edits against a compute afresh. */
static void test_walls_beside(void) {
  static const double diags[] = {1, 1.2, 1.41, M_SQRT2, 1.5, 1.99};
  strata_rng r;
  strata_rng_seed(&r, 3699);
  strata_distmap *d = strata_distmap_new(NULL), *fresh = strata_distmap_new(NULL);
  int ok = 1;
  for (int trial = 0; trial < 240; trial++) {
    const int w = 3 + (int)strata_rng_below(&r, 45), h = 3 + (int)strata_rng_below(&r, 35), n = w * h;
    strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
    strata_tokens *t = strata_tilemap_tokens(m);
    strata_token_traits wall = {0, 1, "#", "", 0}, floor = {1, trial % 5 == 4 ? 2.5 : 1, ".", "", 0};
    strata_tokens_define(t, "wall", 4, &wall, NULL);
    strata_tokens_define(t, "floor", 5, &floor, NULL);
    const strata_token tw = strata_tokens_find(t, "wall", 4), tf = strata_tokens_find(t, "floor", 5);
    strata_tilemap_clear(m, tf, NULL);
    const int segments = 1 + (int)strata_rng_below(&r, (uint64_t)(n / 12 + 1));
    for (int s = 0; s < segments; s++) {
      int x = (int)strata_rng_below(&r, (uint64_t)w), y = (int)strata_rng_below(&r, (uint64_t)h);
      const int dir = (int)strata_rng_below(&r, 8), len = 1 + (int)strata_rng_below(&r, 8);
      for (int k = 0; k < len && x >= 0 && y >= 0 && x < w && y < h; k++, x += DX[dir], y += DY[dir])
        if (strata_rng_below(&r, 6)) strata_tilemap_set(m, x, y, tw, NULL); /* a gap now and then */
    }
    uint32_t goals[4];
    const size_t count = 1 + strata_rng_below(&r, trial % 3 ? 1 : 4);
    for (size_t k = 0; k < count; k++) goals[k] = (uint32_t)strata_rng_below(&r, (uint64_t)n);
    strata_distmap_options o;
    strata_distmap_options_init(&o);
    o.connectivity = 8, o.diagonal_cost = diags[trial % 6];
    const int same = trial_agrees(d, fresh, m, goals, count, &o, 4, &r, tw, tf);
    if (!same) {
      ok = 0;
      fprintf(stderr, "  walls beside trial %d: %dx%d diagonal %g, %zu goals\n", trial, w, h, o.diagonal_cost, count);
    }
    strata_tilemap_free(m);
  }
  CHECK(ok);
  strata_distmap_free(d), strata_distmap_free(fresh);
}

/* A passable cell of gm of kind k (0 dead end: one passable neighbour of 8;
** 1 junction: three or more of 4; 2 any), or any cell after many tries. */
static uint32_t maze_cell(strata_rng *r, const gridgen_map *gm, int k) {
  const int w = gm->w, h = gm->h;
  uint32_t c = 0;
  for (int tries = 0; tries < 400; tries++) {
    c = (uint32_t)strata_rng_below(r, (uint64_t)w * (uint64_t)h);
    const int x = (int)c % w, y = (int)c / w;
    if (gm->cells[c] != '.') continue;
    int n8 = 0, n4 = 0;
    for (int d = 0; d < 8; d++) {
      const int vx = x + DX[d], vy = y + DY[d];
      const int open = vx >= 0 && vy >= 0 && vx < w && vy < h && gm->cells[vy * w + vx] == '.';
      n8 += open, n4 += open && d < 4;
    }
    if (k == 2 || (k == 0 && n8 == 1) || (k == 1 && n4 >= 3)) return c;
  }
  return c;
}

/* Every step down from a reached cell lowers the distance by its cost. */
static int steps_down(const strata_distmap *d, int w, int h, double cost, double diag) {
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double at, next;
      int nx, ny;
      if (!strata_distmap_at(d, x, y, &at) || at == 0) continue;
      if (!strata_distmap_step_down(d, x, y, &nx, &ny) || !strata_distmap_at(d, nx, ny, &next)) return 0;
      const double step = cost * (nx != x && ny != y ? diag : 1);
      if (fabs(next + step - at) > tolerance(at)) return 0;
    }
  return 1;
}

/* Mazes (gridgen.h), some with walls opened into loops, of cost 1 and
** 2.5, 8 neighbours, diagonals sqrt 2, 1.41 (the benchmark's), 1 and 1.9:
** every cell against the reference with one goal and many (on dead ends,
** junctions, corridors, walls); step down; an edit, update, and computes
** again on the same field (its junctions rebuilt for the edited map). A
** map's second field on a maze is made over the junctions: far fewer
** settled than reached. */
static void test_maze(void) {
  strata_rng r;
  strata_rng_seed(&r, 3607);
  strata_distmap *d = strata_distmap_new(NULL);
  int ok = 1, few = 1;
  for (int trial = 0; trial < 90; trial++) {
    const int big = trial == 89;
    const int w = big ? 201 : 5 + 2 * (int)strata_rng_below(&r, 30);
    const int h = big ? 201 : 5 + 2 * (int)strata_rng_below(&r, 25), n = w * h;
    gridgen_map gm;
    CHECK(gridgen_make(&gm, "maze", w, h, (uint64_t)trial));
    const int loops = trial % 3 == 1;
    for (int i = 0; loops && i < n / 40; i++) gm.cells[strata_rng_below(&r, (uint64_t)n)] = '.';
    const double cost = trial % 4 == 3 ? 2.5 : 1;
    strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
    strata_tokens *t = strata_tilemap_tokens(m);
    strata_token_traits wall = {0, 1, "#", "", 0}, floor = {1, cost, ".", "", 0};
    strata_tokens_define(t, "wall", 4, &wall, NULL);
    strata_tokens_define(t, "floor", 5, &floor, NULL);
    const strata_token tw = strata_tokens_find(t, "wall", 4), tf = strata_tokens_find(t, "floor", 5);
    for (int i = 0; i < n; i++) strata_tilemap_set(m, i % w, i / w, gm.cells[i] == '.' ? tf : tw, NULL);
    if (cost == 1) { /* gridgen's own reference, from its goal to its start */
      const uint32_t g = (uint32_t)(gm.gy * w + gm.gx);
      double at = -1;
      strata_distmap_options o8;
      strata_distmap_options_init(&o8);
      o8.connectivity = 8;
      CHECK_EQ_INT(strata_distmap_compute(d, m, &g, 1, &o8, NULL), STRATA_OK);
      CHECK(strata_distmap_at(d, gm.sx, gm.sy, &at));
      CHECK_NEAR(at, gridgen_optimum(&gm, 1, M_SQRT2), 1e-9 * at);
    }
    uint32_t goals[100];
    const size_t count = trial % 2 ? 1 : 1 + strata_rng_below(&r, big ? 100 : 40);
    for (size_t k = 0; k < count; k++)
      goals[k] = k % 7 == 6 ? (uint32_t)strata_rng_below(&r, (uint64_t)n)
                            : maze_cell(&r, &gm, (int)(k + (size_t)trial) % 3);
    strata_distmap_options o;
    strata_distmap_options_init(&o);
    static const double diags[] = {M_SQRT2, 1.41, 1, 1.9};
    const double diag = diags[(trial / 4) % 4];
    o.connectivity = 8, o.diagonal_cost = diag;
    double *seed = malloc((size_t)n * sizeof *seed), *ref = malloc((size_t)n * sizeof *ref);
    goal_seeds(goals, count, n, seed);
    reference(m, seed, 1, diag, ref);
    /* the first field of a map is the Dial loop's, the next over the junctions */
    CHECK_EQ_INT(strata_distmap_compute(d, m, goals, count, &o, NULL), STRATA_OK);
    int same = same_field(d, ref, w, h, INFINITY);
    CHECK_EQ_INT(strata_distmap_compute(d, m, goals, count, &o, NULL), STRATA_OK);
    same = same && same_field(d, ref, w, h, INFINITY) && steps_down(d, w, h, cost, diag);
    uint64_t reached = 0;
    for (int i = 0; i < n; i++) reached += ref[i] < INFINITY;
    if (!loops && count == 1 && n >= 400 && strata_distmap_settled(d) * 2 > reached) {
      few = 0;
      fprintf(stderr, "  maze trial %d: %llu settled of %llu reached\n", trial,
              (unsigned long long)strata_distmap_settled(d), (unsigned long long)reached);
    }
    for (int e = 0; e < 3; e++) {
      const uint32_t c = maze_cell(&r, &gm, e % 3);
      strata_tilemap_reset(m, (int)(c % (uint32_t)w), (int)(c / (uint32_t)w), e == 1 ? tf : tw, NULL);
    }
    CHECK_EQ_INT(strata_distmap_update(d, m, NULL), STRATA_OK);
    goal_seeds(goals, count, n, seed);
    reference(m, seed, 1, diag, ref);
    same = same && same_field(d, ref, w, h, INFINITY) && steps_down(d, w, h, cost, diag);
    for (int again = 0; again < 2; again++) {
      CHECK_EQ_INT(strata_distmap_compute(d, m, goals, count, &o, NULL), STRATA_OK);
      same = same && same_field(d, ref, w, h, INFINITY) && steps_down(d, w, h, cost, diag);
    }
    if (!same) {
      ok = 0;
      fprintf(stderr, "  maze trial %d: %dx%d cost %g diagonal %g%s, %zu goals\n", trial, w, h, cost,
              diag, loops ? " loops" : "", count);
    }
    free(seed), free(ref);
    gridgen_free(&gm);
    strata_tilemap_free(m);
  }
  CHECK(ok);
  CHECK(few);
  strata_distmap_free(d);
}

/* One field object over a maze cut in two by a wall column, its goals
** moving from one half to the other, field after field (the second and
** later over the junctions, which write every passable cell and leave the
** walls as the field before left them): each against the reference, the
** half without goals unreached; a field of another map and a flee map
** between on the same objects. */
static void test_maze_goals_move(void) {
  strata_rng r;
  strata_rng_seed(&r, 3608);
  strata_distmap *d = strata_distmap_new(NULL), *flee = strata_distmap_new(NULL);
  int ok = 1;
  for (int trial = 0; trial < 12; trial++) {
    const int w = 21 + 2 * (int)strata_rng_below(&r, 20), h = 15 + 2 * (int)strata_rng_below(&r, 15), n = w * h;
    gridgen_map gm;
    CHECK(gridgen_make(&gm, "maze", w, h, (uint64_t)trial + 500));
    for (int y = 0; y < h; y++) gm.cells[y * w + w / 2] = '#';
    strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
    strata_tokens *t = strata_tilemap_tokens(m);
    strata_token_traits wall = {0, 1, "#", "", 0};
    strata_tokens_define(t, "wall", 4, &wall, NULL);
    const strata_token tw = strata_tokens_find(t, "wall", 4), tf = strata_tokens_intern(t, "floor", 5, NULL);
    for (int i = 0; i < n; i++) strata_tilemap_set(m, i % w, i / w, gm.cells[i] == '.' ? tf : tw, NULL);
    strata_distmap_options o;
    strata_distmap_options_init(&o);
    o.connectivity = 8, o.diagonal_cost = trial % 2 ? 1.41 : M_SQRT2;
    double *seed = malloc((size_t)n * sizeof *seed), *ref = malloc((size_t)n * sizeof *ref);
    for (int run = 0; run < 6; run++) {
      uint32_t goals[8];
      const size_t count = 1 + strata_rng_below(&r, 8);
      for (size_t k = 0; k < count; k++) { /* all in the left half, or all in the right */
        uint32_t c;
        do c = maze_cell(&r, &gm, (int)k % 3);
        while (((int)c % w < w / 2) != (run % 2 == 0) || gm.cells[c] != '.');
        goals[k] = c;
      }
      goal_seeds(goals, count, n, seed);
      reference(m, seed, 1, o.diagonal_cost, ref);
      CHECK_EQ_INT(strata_distmap_compute(d, m, goals, count, &o, NULL), STRATA_OK);
      ok = ok && same_field(d, ref, w, h, INFINITY);
      if (run == 3) CHECK_EQ_INT(strata_distmap_flee(flee, d, 1.2, NULL), STRATA_OK);
    }
    if (!ok) fprintf(stderr, "  maze goals moved, trial %d: %dx%d\n", trial, w, h);
    free(seed), free(ref);
    gridgen_free(&gm);
    strata_tilemap_free(m);
  }
  CHECK(ok);
  strata_distmap_free(d), strata_distmap_free(flee);
}

/* A corridor of some 71,000 steps between two junctions (a serpent over
** 361x400): a link's steps are 16-bit, so its second field is the Dial
** loop's (every reached cell settled, not the few junctions), still exact,
** field after field. */
static void test_maze_long_link(void) {
  const int w = 361, h = 400, n = w * h;
  strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  const strata_token tw = strata_tokens_find(t, "wall", 4), tf = strata_tokens_intern(t, "floor", 5, NULL);
  for (int i = 0; i < n; i++) {
    const int x = i % w, y = i / w, turn = y % 4 == 2 ? w - 2 : 1; /* the rows joined at alternate ends */
    const int open = y >= 1 && y < h - 2 && (y % 2 ? x >= 1 && x <= w - 2 : x == turn);
    strata_tilemap_set(m, x, y, open ? tf : tw, NULL);
  }
  /* a junction at each end: three ways out */
  strata_tilemap_set(m, 1, 0, tf, NULL), strata_tilemap_set(m, 0, 1, tf, NULL), strata_tilemap_set(m, 0, 0, tf, NULL);
  const int ey = (h - 3) | 1, ex = ey % 4 == 1 ? w - 2 : 1;
  strata_tilemap_set(m, ex, ey + 1, tf, NULL);
  strata_tilemap_set(m, ex == 1 ? 0 : w - 1, ey, tf, NULL), strata_tilemap_set(m, ex == 1 ? 0 : w - 1, ey + 1, tf, NULL);
  strata_distmap_options o;
  strata_distmap_options_init(&o);
  o.connectivity = 8, o.diagonal_cost = 1.41;
  double *seed = malloc((size_t)n * sizeof *seed), *ref = malloc((size_t)n * sizeof *ref);
  const uint32_t goal = (uint32_t)(ey * w + w / 2);
  goal_seeds(&goal, 1, n, seed);
  reference(m, seed, 1, o.diagonal_cost, ref);
  uint64_t reached = 0;
  for (int i = 0; i < n; i++) reached += ref[i] < INFINITY;
  CHECK(reached > 70000);
  strata_distmap *d = strata_distmap_new(NULL);
  for (int run = 0; run < 3; run++) {
    CHECK_EQ_INT(strata_distmap_compute(d, m, &goal, 1, &o, NULL), STRATA_OK);
    CHECK(same_field(d, ref, w, h, INFINITY));
    CHECK(strata_distmap_settled(d) + 16 >= reached);
  }
  strata_distmap_free(d);
  free(seed), free(ref);
  strata_tilemap_free(m);
}

/* Walks downhill from every reached cell: each step lowers the distance by
** exactly the step's cost and the walk ends on a goal. */
static void test_step_down(void) {
  strata_rng r;
  strata_rng_seed(&r, 7);
  strata_distmap *d = strata_distmap_new(NULL);
  int ok = 1;
  for (int trial = 0; trial < 60 && ok; trial++) {
    const int w = 5 + (int)strata_rng_below(&r, 30), h = 5 + (int)strata_rng_below(&r, 20);
    tokset ts;
    strata_tilemap *m = random_map(&r, w, h, 0.25, trial % 3, &ts);
    uint32_t goals[3];
    for (int k = 0; k < 3; k++) goals[k] = (uint32_t)strata_rng_below(&r, (uint64_t)(w * h));
    strata_distmap_options o;
    strata_distmap_options_init(&o);
    o.connectivity = trial % 2 ? 8 : 4;
    CHECK_EQ_INT(strata_distmap_compute(d, m, goals, 3, &o, NULL), STRATA_OK);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        double at, next;
        if (!strata_distmap_at(d, x, y, &at)) continue;
        int cx = x, cy = y, steps = 0, nx, ny;
        while (strata_distmap_step_down(d, cx, cy, &nx, &ny)) {
          double step = strata_tilemap_cost(m, nx, ny) * (nx != cx && ny != cy ? o.diagonal_cost : 1);
          ok &= abs(nx - cx) <= 1 && abs(ny - cy) <= 1 && (o.connectivity == 8 || nx == cx || ny == cy);
          ok &= strata_distmap_at(d, nx, ny, &next) && next < at && fabs(next + step - at) < tolerance(at);
          cx = nx, cy = ny, at = next;
          if (!ok || ++steps > w * h) break;
        }
        ok &= at == 0; /* a goal */
      }
    strata_tilemap_free(m);
  }
  CHECK(ok);
  strata_distmap_free(d);
}

/* The benchmark's open and rooms maps (gridgen.h), smaller, of cost 1, 8
** neighbours, one goal and many: the Dial loop's lists for the cells
** reached straight and diagonally, in buckets of an eighth of a step (open)
** and of a whole one after its probe (rooms), against the reference, twice
** on one field. */
static void test_dial_maps(void) {
  static const char *const kinds[] = {"open", "rooms"};
  static const double diags[] = {1.41, M_SQRT2, 1, 1.9};
  strata_rng r;
  strata_rng_seed(&r, 3641);
  strata_distmap *d = strata_distmap_new(NULL);
  int ok = 1;
  for (int trial = 0; trial < 16; trial++) {
    const int w = 240, h = 200, n = w * h;
    gridgen_map gm;
    CHECK(gridgen_make(&gm, kinds[trial % 2], w, h, (uint64_t)trial));
    strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
    strata_tokens *t = strata_tilemap_tokens(m);
    strata_token_traits wall = {0, 1, "#", "", 0};
    strata_tokens_define(t, "wall", 4, &wall, NULL);
    const strata_token tw = strata_tokens_find(t, "wall", 4), tf = strata_tokens_intern(t, "floor", 5, NULL);
    for (int i = 0; i < n; i++) strata_tilemap_set(m, i % w, i / w, gm.cells[i] == '.' ? tf : tw, NULL);
    uint32_t goals[30];
    const size_t count = trial % 4 < 2 ? 1 : 30;
    goals[0] = (uint32_t)(gm.sy * w + gm.sx);
    for (size_t k = 1; k < count; k++) goals[k] = (uint32_t)strata_rng_below(&r, (uint64_t)n);
    strata_distmap_options o;
    strata_distmap_options_init(&o);
    const double diag = diags[(trial / 4) % 4];
    o.connectivity = 8, o.diagonal_cost = diag;
    double *seed = malloc((size_t)n * sizeof *seed), *ref = malloc((size_t)n * sizeof *ref);
    goal_seeds(goals, count, n, seed);
    reference(m, seed, 1, diag, ref);
    int same = 1;
    for (int again = 0; again < 2; again++) {
      CHECK_EQ_INT(strata_distmap_compute(d, m, goals, count, &o, NULL), STRATA_OK);
      same = same && same_field(d, ref, w, h, INFINITY) && steps_down(d, w, h, 1, diag);
    }
    if (!same) {
      ok = 0;
      fprintf(stderr, "  dial maps trial %d: %s diagonal %g, %zu goals\n", trial, kinds[trial % 2], diag, count);
    }
    free(seed), free(ref);
    gridgen_free(&gm);
    strata_tilemap_free(m);
  }
  CHECK(ok);
  strata_distmap_free(d);
}

/* The flee map: against the reference seeded with -factor * d, and every
** walk downhill on it ends at least as far from the goals as it began. */
static void test_flee(void) {
  strata_rng r;
  strata_rng_seed(&r, 11);
  strata_distmap *d = strata_distmap_new(NULL), *f = strata_distmap_new(NULL);
  int ok = 1;
  for (int trial = 0; trial < 80; trial++) {
    const int w = 4 + (int)strata_rng_below(&r, 30), h = 4 + (int)strata_rng_below(&r, 20), n = w * h;
    tokset ts;
    strata_tilemap *m = random_map(&r, w, h, 0.2, trial % 3, &ts);
    uint32_t goal = (uint32_t)strata_rng_below(&r, (uint64_t)n);
    strata_distmap_options o;
    strata_distmap_options_init(&o);
    o.connectivity = trial % 2 ? 8 : 4;
    if (trial % 5 == 1) o.max_cost = 6;
    const double factor = trial % 4 == 0 ? 1.2 : 0.5 + 3 * strata_rng_float(&r);
    CHECK_EQ_INT(strata_distmap_compute(d, m, &goal, 1, &o, NULL), STRATA_OK);
    CHECK_EQ_INT(strata_distmap_flee(f, d, factor, NULL), STRATA_OK);
    double *seed = malloc((size_t)n * sizeof *seed), *ref = malloc((size_t)n * sizeof *ref);
    for (int i = 0; i < n; i++) {
      double at;
      seed[i] = strata_distmap_at(d, i % w, i / w, &at) ? -factor * at : INFINITY;
    }
    reference(m, seed, o.connectivity == 8, o.diagonal_cost, ref);
    if (!same_field(f, ref, w, h, INFINITY)) {
      ok = 0;
      fprintf(stderr, "  flee trial %d: %dx%d, factor %g\n", trial, w, h, factor);
    }
    for (int i = 0; i < n; i++) {
      double start, at, fv, fn;
      if (!strata_distmap_at(d, i % w, i / w, &start)) continue;
      int cx = i % w, cy = i / w, nx, ny, steps = 0;
      strata_distmap_at(f, cx, cy, &fv);
      while (strata_distmap_step_down(f, cx, cy, &nx, &ny) && steps++ <= n) {
        ok &= strata_distmap_at(f, nx, ny, &fn) && fn < fv;
        cx = nx, cy = ny, fv = fn;
      }
      ok &= strata_distmap_at(d, cx, cy, &at) && at >= start - tolerance(start);
    }
    free(seed), free(ref);
    strata_tilemap_free(m);
  }
  CHECK(ok);
  /* a flee map is not updated, nor fled again */
  strata_error err;
  CHECK_EQ_INT(strata_distmap_flee(d, f, 1.2, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_distmap_flee(f, d, 0, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_distmap_flee(f, d, NAN, &err), STRATA_EARG);
  strata_distmap_free(d), strata_distmap_free(f);
}

/* Random edits, then update: the same field as a compute afresh. */
static void test_update(void) {
  strata_rng r;
  strata_rng_seed(&r, 99);
  strata_distmap *d = strata_distmap_new(NULL), *fresh = strata_distmap_new(NULL);
  int ok = 1;
  for (int trial = 0; trial < 200; trial++) {
    const int w = 3 + (int)strata_rng_below(&r, 90), h = 3 + (int)strata_rng_below(&r, 80), n = w * h;
    const int kind = trial % 3;
    tokset ts;
    strata_tilemap *m = random_map(&r, w, h, 0.3, kind, &ts);
    uint32_t goals[4];
    size_t count = 1 + strata_rng_below(&r, 4);
    for (size_t k = 0; k < count; k++) goals[k] = (uint32_t)strata_rng_below(&r, (uint64_t)n);
    strata_distmap_options o;
    strata_distmap_options_init(&o);
    o.connectivity = trial % 2 ? 8 : 4;
    o.diagonal_cost = DIAGS[(trial / 2) % 4];
    if (trial % 6 == 5) o.max_cost = 3 + (double)strata_rng_below(&r, 20);
    CHECK_EQ_INT(strata_distmap_compute(d, m, goals, count, &o, NULL), STRATA_OK);
    for (int round = 0; round < 4; round++) {
      /* a few cells, each to a wall, a floor or another cost; goals too */
      int edits = 1 + (int)strata_rng_below(&r, 6);
      for (int e = 0; e < edits; e++) {
        uint32_t c = e == 0 && round == 1 ? goals[0] : (uint32_t)strata_rng_below(&r, (uint64_t)n);
        strata_tilemap_reset(m, (int)(c % (uint32_t)w), (int)(c / (uint32_t)w),
                             random_token(&r, &ts, 0.4, kind), NULL);
      }
      CHECK_EQ_INT(strata_distmap_update(d, m, NULL), STRATA_OK);
      CHECK_EQ_INT(strata_distmap_compute(fresh, m, goals, count, &o, NULL), STRATA_OK);
      double *ref = malloc((size_t)n * sizeof *ref);
      for (int i = 0; i < n; i++)
        if (!strata_distmap_at(fresh, i % w, i / w, &ref[i])) ref[i] = INFINITY;
      if (!same_field(d, ref, w, h, INFINITY)) {
        ok = 0;
        fprintf(stderr, "  update trial %d round %d: %dx%d kind %d connectivity %d diag %g max %g\n",
                trial, round, w, h, kind, o.connectivity, o.diagonal_cost, o.max_cost);
      }
      free(ref);
    }
    strata_tilemap_free(m);
  }
  CHECK(ok);
  strata_distmap_free(d), strata_distmap_free(fresh);
}

/* A small edit far from the goal settles a small part of a large map. */
static void test_update_local(void) {
  strata_tilemap *m = strata_tilemap_new(200, 200, NULL, NULL);
  tokset ts;
  define_tokens(m, 1, &ts);
  strata_tilemap_clear(m, ts.cost[0], NULL);
  strata_distmap *d = strata_distmap_new(NULL);
  uint32_t goal = 100 * 200 + 100;
  strata_distmap_options o;
  strata_distmap_options_init(&o);
  o.connectivity = 8;
  CHECK_EQ_INT(strata_distmap_compute(d, m, &goal, 1, &o, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_distmap_settled(d), 200 * 200);
  strata_tilemap_reset(m, 190, 190, ts.wall, NULL);   /* an increase */
  strata_tilemap_reset(m, 10, 180, ts.cost[2], NULL); /* dearer */
  CHECK_EQ_INT(strata_distmap_update(d, m, NULL), STRATA_OK);
  CHECK(strata_distmap_settled(d) < 200);
  strata_tilemap_reset(m, 190, 190, ts.cost[0], NULL); /* a decrease */
  CHECK_EQ_INT(strata_distmap_update(d, m, NULL), STRATA_OK);
  CHECK(strata_distmap_settled(d) < 200);
  double at;
  CHECK(strata_distmap_at(d, 190, 190, &at) && fabs(at - 90 * M_SQRT2) < 1e-6);
  /* a wall across the map: what lies behind it is computed again, and only that */
  strata_tilemap_fill_rect(m, 0, 150, 200, 1, ts.wall, 0, NULL);
  CHECK_EQ_INT(strata_distmap_update(d, m, NULL), STRATA_OK);
  CHECK(!strata_distmap_at(d, 0, 199, &at));
  CHECK(strata_distmap_settled(d) < 200 * 60);
  strata_distmap_free(d);
  strata_tilemap_free(m);
}

/* One field object serves maps in turn, and a flee map between: each
** compute is its map's (the class grid kept between computes of an
** unchanged map is never another's). */
static void test_reuse(void) {
  tokset ts;
  strata_tilemap *a = strata_tilemap_new(6, 1, NULL, NULL), *b = strata_tilemap_new(6, 1, NULL, NULL);
  define_tokens(a, 1, &ts);
  strata_tilemap_clear(a, ts.cost[0], NULL);
  strata_tilemap_clear(b, strata_tokens_intern(strata_tilemap_tokens(b), "f", 1, NULL), NULL);
  strata_tilemap_reset(a, 3, 0, ts.cost[3], NULL); /* costs 5 */
  strata_distmap *d = strata_distmap_new(NULL), *e = strata_distmap_new(NULL);
  uint32_t goal = 0;
  double at;
  CHECK_EQ_INT(strata_distmap_compute(d, a, &goal, 1, NULL, NULL), STRATA_OK);
  CHECK(strata_distmap_at(d, 5, 0, &at) && at == 9);
  CHECK_EQ_INT(strata_distmap_flee(d, e, 1, NULL), STRATA_EARG); /* e never computed */
  CHECK_EQ_INT(strata_distmap_compute(e, b, &goal, 1, NULL, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_distmap_flee(d, e, 1, NULL), STRATA_OK); /* d now b's flee map */
  CHECK_EQ_INT(strata_distmap_compute(d, a, &goal, 1, NULL, NULL), STRATA_OK);
  CHECK(strata_distmap_at(d, 5, 0, &at) && at == 9);
  CHECK_EQ_INT(strata_distmap_compute(d, a, &goal, 1, NULL, NULL), STRATA_OK);
  CHECK(strata_distmap_at(d, 5, 0, &at) && at == 9);
  strata_tilemap_reset(a, 3, 0, ts.cost[0], NULL);
  CHECK_EQ_INT(strata_distmap_compute(d, a, &goal, 1, NULL, NULL), STRATA_OK);
  CHECK(strata_distmap_at(d, 5, 0, &at) && at == 5);
  strata_distmap_free(d), strata_distmap_free(e);
  strata_tilemap_free(a), strata_tilemap_free(b);
}

/* A rollback (tilemap_restore: the map takes back an earlier copy's cells)
** restamps what it changed: update finds it. */
static void test_update_rollback(void) {
  strata_rng r;
  strata_rng_seed(&r, 5);
  tokset ts;
  strata_tilemap *m = random_map(&r, 150, 90, 0.2, 1, &ts);
  strata_distmap *d = strata_distmap_new(NULL), *fresh = strata_distmap_new(NULL);
  uint32_t goal = 45 * 150 + 75;
  strata_tilemap_reset(m, 75, 45, ts.cost[0], NULL);
  strata_distmap_options o;
  strata_distmap_options_init(&o);
  o.connectivity = 8;
  CHECK_EQ_INT(strata_distmap_compute(d, m, &goal, 1, &o, NULL), STRATA_OK);
  strata_tilemap *copy = strata_tilemap_clone(m, NULL); /* a savepoint */
  strata_tilemap_fill_rect(m, 70, 0, 1, 90, ts.wall, 0, NULL);
  strata_tilemap_fill_rect(m, 0, 40, 150, 1, ts.cost[4], 0, NULL);
  CHECK_EQ_INT(strata_distmap_update(d, m, NULL), STRATA_OK);
  tilemap_restore(m, copy); /* rolled back */
  CHECK_EQ_INT(strata_distmap_update(d, m, NULL), STRATA_OK);
  CHECK_EQ_INT(strata_distmap_compute(fresh, m, &goal, 1, &o, NULL), STRATA_OK);
  double *ref = malloc(150 * 90 * sizeof *ref);
  for (int i = 0; i < 150 * 90; i++)
    if (!strata_distmap_at(fresh, i % 150, i / 150, &ref[i])) ref[i] = INFINITY;
  CHECK(same_field(d, ref, 150, 90, INFINITY));
  free(ref);
  strata_distmap_free(d), strata_distmap_free(fresh);
  strata_tilemap_free(m);
}

static int stairs(void *ud, int x, int y) {
  (void)ud;
  return x == 2 && y == 1;
}

static void test_refusals(void) {
  tokset ts;
  strata_tilemap *m = strata_tilemap_new(5, 4, NULL, NULL);
  define_tokens(m, 0, &ts);
  strata_tilemap_clear(m, ts.cost[0], NULL);
  strata_distmap *d = strata_distmap_new(NULL);
  strata_error err;
  uint32_t out[] = {20};
  CHECK_EQ_INT(strata_distmap_compute(d, m, out, 1, NULL, &err), STRATA_EARG);
  CHECK(strstr(err.message, "goal 1") != NULL && strstr(err.message, "outside the 5x4 map") != NULL);
  double at;
  CHECK(!strata_distmap_at(d, 0, 0, &at));
  strata_distmap_options o;
  strata_distmap_options_init(&o);
  o.connectivity = 6;
  CHECK_EQ_INT(strata_distmap_compute(d, m, NULL, 0, &o, &err), STRATA_EARG);
  strata_distmap_options_init(&o);
  o.diagonal_cost = 0.5;
  CHECK_EQ_INT(strata_distmap_compute(d, m, NULL, 0, &o, &err), STRATA_EARG);
  strata_distmap_options_init(&o);
  o.max_cost = -1;
  CHECK_EQ_INT(strata_distmap_compute(d, m, NULL, 0, &o, &err), STRATA_EARG);
  o.max_cost = NAN;
  CHECK_EQ_INT(strata_distmap_compute(d, m, NULL, 0, &o, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_distmap_update(d, m, &err), STRATA_EARG); /* never computed */
  /* no goals: nothing reached */
  CHECK_EQ_INT(strata_distmap_compute(d, m, NULL, 0, NULL, &err), STRATA_OK);
  int reached = 0, nx, ny;
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 5; x++) reached += strata_distmap_at(d, x, y, &at);
  CHECK_EQ_INT(reached, 0);
  CHECK(!strata_distmap_step_down(d, 1, 1, &nx, &ny));
  /* a goal walled in, cells beyond walls unreached; a goal on a wall is none */
  strata_tilemap_fill_rect(m, 3, 0, 1, 4, ts.wall, 0, NULL);
  uint32_t goals[] = {0, 3};
  CHECK_EQ_INT(strata_distmap_compute(d, m, goals, 2, NULL, &err), STRATA_OK);
  CHECK(strata_distmap_at(d, 2, 3, &at) && at == 5);
  CHECK(!strata_distmap_at(d, 3, 0, &at) && !strata_distmap_at(d, 4, 0, &at));
  CHECK(!strata_distmap_at(d, -1, 0, &at) && !strata_distmap_at(d, 5, 0, &at));
  CHECK(strata_distmap_step_down(d, 1, 0, &nx, &ny) && nx == 0 && ny == 0);
  CHECK(!strata_distmap_step_down(d, 0, 0, &nx, &ny)); /* a goal */
  /* from a wall cell, a step out onto the field */
  CHECK(strata_distmap_step_down(d, 3, 1, &nx, &ny) && nx == 2 && ny == 1);
  /* a predicate */
  CHECK_EQ_INT(strata_distmap_compute_where(d, m, stairs, NULL, NULL, &err), STRATA_OK);
  CHECK(strata_distmap_at(d, 0, 0, &at) && at == 3);
  CHECK_EQ_INT(strata_distmap_width(d), 5);
  CHECK_EQ_INT(strata_distmap_height(d), 4);
  CHECK(strata_distmap_memory(d) > 20 * 8);
  /* another map's size */
  strata_tilemap *other = strata_tilemap_new(6, 4, NULL, NULL);
  CHECK_EQ_INT(strata_distmap_update(d, other, &err), STRATA_EARG);
  strata_tilemap_free(other);
  strata_distmap_free(d);
  strata_tilemap_free(m);
}

/* A map of a world with actors on it, random costs and walls. */
static strata_tilemap *world_map(strata_world *w, strata_rng *r, int width, int height, int kind,
                                 uint64_t *map) {
  CHECK(strata_world_create_map(w, width, height, NULL, map, NULL) == STRATA_OK);
  strata_tilemap *m = strata_world_tilemap(w, *map);
  tokset ts;
  define_tokens(m, kind, &ts);
  for (int i = 0; i < width * height; i++)
    strata_tilemap_set(m, i % width, i / width, random_token(r, &ts, 0.2, kind), NULL);
  return m;
}

/* extra[c] for the cells actors hold but goals: INFINITY (block) or cost. */
static void held_extra(const strata_tilemap *m, const uint32_t *goals, size_t count, int block,
                       double cost, double *extra) {
  const int w = strata_tilemap_width(m), n = w * strata_tilemap_height(m);
  for (int i = 0; i < n; i++) extra[i] = strata_tilemap_occupied(m, i % w, i / w) > 0 ? (block ? INFINITY : cost) : 0;
  for (size_t k = 0; k < count; k++) extra[goals[k]] = 0;
}

/* occupied: block and cost against the plain Dijkstra with those cells
** walled or charged, goals on held cells free, 4 and 8 neighbours, one cost
** and many (the fast paths must not run); step_down never lands on a held
** cell when blocked; update after the actors move; a lost count fails. */
static void test_occupied(void) {
  strata_rng r;
  strata_rng_seed(&r, 3637);
  strata_distmap *d = strata_distmap_new(NULL);
  int ok = 1;
  for (int trial = 0; trial < 48; trial++) {
    strata_world *w = strata_world_new(1, NULL);
    uint64_t map, actors[24];
    const int width = 3 + (int)strata_rng_below(&r, 30), height = 3 + (int)strata_rng_below(&r, 20);
    const int n = width * height;
    /* one cost (the Dial loop and the junctions would take it) and many */
    strata_tilemap *m = world_map(w, &r, width, height, trial % 3 ? 2 : 0, &map);
    uint32_t goals[3];
    for (int a = 0; a < 24; a++) {
      CHECK(strata_world_create(w, "actor", NULL, &actors[a], NULL) == STRATA_OK);
      const uint32_t c = (uint32_t)strata_rng_below(&r, (uint64_t)n);
      CHECK(strata_object_set_position(w, actors[a], map, c % (uint32_t)width, c / (uint32_t)width, NULL) == STRATA_OK);
      if (a == 0) goals[0] = c; /* a goal on a held cell (actor 0 stays) */
    }
    goals[1] = (uint32_t)strata_rng_below(&r, (uint64_t)n), goals[2] = (uint32_t)strata_rng_below(&r, (uint64_t)n);
    strata_distmap_options o;
    strata_distmap_options_init(&o);
    o.connectivity = trial % 2 ? 8 : 4;
    const int block = trial % 4 < 2;
    o.occupied = block ? STRATA_OCCUPIED_BLOCK : STRATA_OCCUPIED_COST;
    o.occupied_cost = trial % 4 == 2 ? 2.5 : 7;
    double *seed = malloc((size_t)n * sizeof *seed), *ref = malloc((size_t)n * sizeof *ref);
    double *extra = malloc((size_t)n * sizeof *extra);
    int same = 1;
    for (int round = 0; round < 3; round++) {
      if (round == 0) CHECK_EQ_INT(strata_distmap_compute(d, m, goals, 3, &o, NULL), STRATA_OK);
      else { /* some actors move: update brings the field to the new cells */
        for (int a = 1; a < 24; a += 2) {
          const uint32_t c = (uint32_t)strata_rng_below(&r, (uint64_t)n);
          CHECK(strata_object_set_position(w, actors[a], map, c % (uint32_t)width, c / (uint32_t)width, NULL) == STRATA_OK);
        }
        CHECK_EQ_INT(strata_distmap_update(d, m, NULL), STRATA_OK);
      }
      goal_seeds(goals, 3, n, seed);
      held_extra(m, goals, 3, block, o.occupied_cost, extra);
      reference_with(m, seed, o.connectivity == 8, o.diagonal_cost, extra, ref);
      same = same && same_field(d, ref, width, height, INFINITY);
      for (int i = 0; i < n && block; i++) {
        int nx, ny;
        if (strata_distmap_step_down(d, i % width, i / width, &nx, &ny))
          same = same && extra[ny * width + nx] == 0; /* from a held cell too (the chaser's own) */
      }
    }
    if (!same) ok = 0, fprintf(stderr, "  occupied trial %d: %dx%d\n", trial, width, height);
    /* a lost count: the field honours no count it does not have */
    m->occ_lost = 1;
    CHECK_EQ_INT(strata_distmap_compute(d, m, goals, 3, &o, NULL), STRATA_ENOMEM);
    o.occupied = STRATA_OCCUPIED_IGNORE;
    CHECK_EQ_INT(strata_distmap_compute(d, m, goals, 3, &o, NULL), STRATA_OK);
    m->occ_lost = 0;
    free(seed), free(ref), free(extra);
    strata_world_free(w);
  }
  CHECK(ok);
  strata_tilemap *m = strata_tilemap_new(4, 4, NULL, NULL);
  strata_distmap_options o;
  strata_distmap_options_init(&o);
  uint32_t g = 0;
  o.occupied = (strata_grid_occupied)7;
  CHECK_EQ_INT(strata_distmap_compute(d, m, &g, 1, &o, NULL), STRATA_EARG);
  o.occupied = STRATA_OCCUPIED_COST, o.occupied_cost = -1;
  CHECK_EQ_INT(strata_distmap_compute(d, m, &g, 1, &o, NULL), STRATA_EARG);
  o.occupied_cost = INFINITY;
  CHECK_EQ_INT(strata_distmap_compute(d, m, &g, 1, &o, NULL), STRATA_EARG);
  strata_tilemap_free(m);
  strata_distmap_free(d);
}

int main(void) {
  test_occupied();
  test_refusals();
  test_reuse();
  test_optimal();
  test_one_cost();
  test_walls_beside();
  test_maze();
  test_maze_goals_move();
  test_maze_long_link();
  test_dial_maps();
  test_step_down();
  test_flee();
  test_update();
  test_update_local();
  test_update_rollback();
  return check_summary("distmap");
}
