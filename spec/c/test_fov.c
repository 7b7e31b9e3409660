/* test_fov.c - field of view: symmetry, a brute-force ray check, options,
** sets and the Bresenham helpers. */
#include <stdlib.h>

#include "check.h"
#include "strata/strata.h"
#include "strata/bresenham.h"
#include "strata/fov.h"

/* A small generator of our own, so that the maps are the same everywhere. */
static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33) % n;
}

typedef struct world {
  strata_tilemap *m;
  strata_token floor, wall;
  int w, h;
} world;

static world make_world(int w, int h) {
  world o = {0};
  o.m = strata_tilemap_new(w, h, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(o.m);
  strata_token_traits tr;
  strata_tokens_default_traits("wall", 4, &tr);
  tr.passable = 0, tr.opaque = 1;
  strata_tokens_define(t, "wall", 4, &tr, NULL);
  o.wall = strata_tokens_find(t, "wall", 4);
  o.floor = strata_tokens_intern(t, "floor", 5, NULL);
  strata_tilemap_clear(o.m, o.floor, NULL);
  o.w = w, o.h = h;
  return o;
}

static void scatter(world *o, uint32_t per_100) {
  for (int y = 0; y < o->h; y++)
    for (int x = 0; x < o->w; x++)
      strata_tilemap_reset(o->m, x, y, rnd(100) < per_100 ? o->wall : o->floor, NULL);
}

static int opaque(const world *o, int x, int y) {
  if (x < 0 || y < 0 || x >= o->w || y >= o->h) return 0; /* outside: lets light through, never seen */
  return strata_tilemap_has(o->m, x, y, o->wall);
}

/* ---- the brute-force definition of symmetric shadowcasting ----
** In the quadrant of B (rows along the major axis of B - A, depth d, B at
** column c), follow the segment from A's centre to B's centre: at row k
** (0 < k < d) it crosses the row at x = c*k/d, cells being the intervals
** [j - 1/2, j + 1/2]. B is seen when no row stops the segment:
**  - x inside an opaque cell, or on the boundary between two opaque cells;
**  - x on the left edge of an opaque cell (a transparent cell on its left):
**    stopped unless light reaches the row just left of the segment, that is,
**    unless the segment moved a hair left passes every row before k (it
**    never meets a boundary: at a boundary it is in the cell on the left);
**  - the same mirrored for the right edge of an opaque cell.
** (Ford's sweep keeps a slope on an opaque cell's edge when its sector goes
** on over the transparent side, and drops it when the sector ends there.) */
static int cell_at(const world *o, int ax, int ay, int major_y, int sy, int k, long long j) {
  return major_y ? opaque(o, ax + (int)j, ay + sy * k) : opaque(o, ax + sy * k, ay + (int)j);
}

static long long floordiv(long long a, long long b) { /* b > 0 */
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Where the segment to column c at depth d crosses row k: 1 and t = 2x when
** on a boundary (t odd), else 0 and the cell j holding x. */
static int crossing(int c, int d, int k, long long *t, long long *j) {
  long long twice = 2ll * c * k;
  if (twice % d == 0 && (twice / d) % 2 != 0) { *t = twice / d; return 1; }
  *j = floordiv(twice + d, 2ll * d);
  return 0;
}

/* Whether the segment shifted a hair (side -1 left, +1 right) passes rows 1..upto-1. */
static int hair_passes(const world *o, int ax, int ay, int major_y, int sy, int c, int d,
                       int side, int upto) {
  for (int k = 1; k < upto; k++) {
    long long t, j;
    if (crossing(c, d, k, &t, &j)) j = (t + side) / 2; /* t odd: exact */
    if (cell_at(o, ax, ay, major_y, sy, k, j)) return 0;
  }
  return 1;
}

static int brute_seen(const world *o, int ax, int ay, int bx, int by) {
  int dx = bx - ax, dy = by - ay;
  if (dx == 0 && dy == 0) return 1;
  int major_y = abs(dy) >= abs(dx);
  int d = major_y ? abs(dy) : abs(dx);
  int sy = major_y ? (dy < 0 ? -1 : 1) : (dx < 0 ? -1 : 1);
  int c = major_y ? dx : dy; /* the column, signed */
  for (int k = 1; k < d; k++) {
    long long t, j;
    if (!crossing(c, d, k, &t, &j)) {
      if (cell_at(o, ax, ay, major_y, sy, k, j)) return 0;
      continue;
    }
    int left = cell_at(o, ax, ay, major_y, sy, k, (t - 1) / 2);
    int right = cell_at(o, ax, ay, major_y, sy, k, (t + 1) / 2);
    if (left && right) return 0;
    if (right && !hair_passes(o, ax, ay, major_y, sy, c, d, -1, k)) return 0;
    if (left && !hair_passes(o, ax, ay, major_y, sy, c, d, +1, k)) return 0;
  }
  return 1;
}

/* ---- Ford's sweep, cell by cell, as his article writes it ----
** A second, plain implementation (exact fractions, one cell at a time,
** recursion), compared with fov.c on every cell, walls included. */
typedef struct ford {
  const world *o;
  int ax, ay, quadrant, light_walls;
  unsigned char *seen;
} ford;

static void ford_cell(const ford *f, int d, int col, int *x, int *y) {
  switch (f->quadrant) {
    case 0: *x = f->ax + col, *y = f->ay - d; break;  /* north */
    case 1: *x = f->ax + d, *y = f->ay + col; break;  /* east */
    case 2: *x = f->ax + col, *y = f->ay + d; break;  /* south */
    default: *x = f->ax - d, *y = f->ay + col; break; /* west */
  }
}

/* slopes as num / den, den > 0 */
static void ford_scan(const ford *f, int d, long long ln, long long ld, long long hn, long long hd) {
  int x, y;
  ford_cell(f, d, 0, &x, &y);
  if (x < 0 || y < 0 || x >= f->o->w || y >= f->o->h) return;
  long long cmin = floordiv(2ll * d * ln + ld, 2 * ld);      /* round half up */
  long long cmax = -floordiv(hd - 2ll * d * hn, 2 * hd);     /* round half down */
  int prev = -1; /* -1 none, 0 floor, 1 wall */
  for (long long col = cmin; col <= cmax; col++) {
    ford_cell(f, d, (int)col, &x, &y);
    if (x < 0 || y < 0 || x >= f->o->w || y >= f->o->h) continue;
    int wall = opaque(f->o, x, y);
    int sym = col * ld >= (long long)d * ln && col * hd <= (long long)d * hn;
    if ((wall && f->light_walls) || (!wall && sym)) f->seen[y * f->o->w + x] = 1;
    if (prev == 1 && !wall) ln = 2 * col - 1, ld = 2ll * d;
    if (prev == 0 && wall) ford_scan(f, d + 1, ln, ld, 2 * col - 1, 2ll * d);
    prev = wall;
  }
  if (prev != 1) ford_scan(f, d + 1, ln, ld, hn, hd);
}

static void ford_fov(const world *o, int ax, int ay, int light_walls, unsigned char *seen) {
  memset(seen, 0, (size_t)o->w * (size_t)o->h);
  seen[ay * o->w + ax] = 1;
  for (int q = 0; q < 4; q++) {
    ford f = {o, ax, ay, q, light_walls, seen};
    ford_scan(&f, 1, -1, 1, 1, 1);
  }
}

static strata_fov_options opts(strata_fov_algorithm a, int radius, int light_walls) {
  strata_fov_options o;
  strata_fov_options_init(&o);
  o.algorithm = a, o.radius = radius, o.light_walls = light_walls;
  return o;
}

/* ---- tests ---- */

static void test_brute_force(void) {
  strata_fov *f = strata_fov_new(NULL);
  strata_fov_set *s = strata_fov_set_new(NULL);
  strata_fov_options o = opts(STRATA_FOV_SYMMETRIC, 0, 1);
  int mismatches = 0, compared = 0;
  for (int round = 0; round < 60; round++) {
    world wd = make_world(8 + (int)rnd(30), 6 + (int)rnd(24));
    scatter(&wd, 10 + rnd(35));
    for (int k = 0; k < 6; k++) {
      int ax = (int)rnd((uint32_t)wd.w), ay = (int)rnd((uint32_t)wd.h);
      if (strata_fov_compute(f, wd.m, ax, ay, &o, s, NULL) != STRATA_OK) { CHECK(0); continue; }
      for (int y = 0; y < wd.h; y++)
        for (int x = 0; x < wd.w; x++) {
          if (opaque(&wd, x, y)) continue;
          compared++;
          int want = brute_seen(&wd, ax, ay, x, y), got = strata_fov_set_visible(s, x, y);
          if (want != got && mismatches++ < 5)
            fprintf(stderr, "brute force: from (%d, %d) to (%d, %d) on %dx%d: %d, fov %d\n", ax,
                    ay, x, y, wd.w, wd.h, want, got);
        }
    }
    strata_tilemap_free(wd.m);
  }
  CHECK_EQ_INT(mismatches, 0);
  CHECK(compared > 10000);
  strata_fov_set_free(s);
  strata_fov_free(f);
}

static void test_ford(void) {
  strata_fov *f = strata_fov_new(NULL);
  strata_fov_set *s = strata_fov_set_new(NULL);
  int mismatches = 0;
  for (int round = 0; round < 80; round++) {
    world wd = make_world(5 + (int)rnd(45), 4 + (int)rnd(30));
    scatter(&wd, rnd(50));
    unsigned char *seen = malloc((size_t)wd.w * (size_t)wd.h);
    for (int k = 0; k < 8; k++) {
      int ax = (int)rnd((uint32_t)wd.w), ay = (int)rnd((uint32_t)wd.h), lw = (int)rnd(2);
      strata_fov_options o = opts(STRATA_FOV_SYMMETRIC, 0, lw);
      strata_fov_compute(f, wd.m, ax, ay, &o, s, NULL);
      ford_fov(&wd, ax, ay, lw, seen);
      uint64_t n = 0;
      for (int y = 0; y < wd.h; y++)
        for (int x = 0; x < wd.w; x++) {
          n += seen[y * wd.w + x];
          if (seen[y * wd.w + x] != strata_fov_set_visible(s, x, y) && mismatches++ < 5)
            fprintf(stderr, "ford: from (%d, %d) (%d, %d) on %dx%d: %d, fov %d\n", ax, ay, x, y, wd.w,
                    wd.h, seen[y * wd.w + x], strata_fov_set_visible(s, x, y));
        }
      CHECK_EQ_INT(strata_fov_set_count(s), n);
    }
    free(seen);
    strata_tilemap_free(wd.m);
  }
  CHECK_EQ_INT(mismatches, 0);
  strata_fov_set_free(s);
  strata_fov_free(f);
}

static void test_symmetry(void) {
  strata_fov *f = strata_fov_new(NULL);
  strata_fov_options o = opts(STRATA_FOV_SYMMETRIC, 0, 0);
  int asymmetric = 0, pairs = 0;
  for (int round = 0; round < 25; round++) {
    world wd = make_world(10 + (int)rnd(20), 8 + (int)rnd(14));
    scatter(&wd, 15 + rnd(30));
    int n = wd.w * wd.h;
    strata_fov_set **sets = calloc((unsigned)n, sizeof *sets);
    for (int i = 0; i < n; i++) {
      if (opaque(&wd, i % wd.w, i / wd.w)) continue;
      sets[i] = strata_fov_set_new(NULL);
      CHECK(strata_fov_compute(f, wd.m, i % wd.w, i / wd.w, &o, sets[i], NULL) == STRATA_OK);
    }
    for (int a = 0; a < n; a++)
      for (int b = a + 1; b < n; b++) {
        if (!sets[a] || !sets[b]) continue;
        pairs++;
        if (strata_fov_set_visible(sets[a], b % wd.w, b / wd.w) !=
            strata_fov_set_visible(sets[b], a % wd.w, a / wd.w))
          asymmetric++;
      }
    for (int i = 0; i < n; i++) strata_fov_set_free(sets[i]);
    free(sets);
    strata_tilemap_free(wd.m);
  }
  CHECK_EQ_INT(asymmetric, 0);
  CHECK(pairs > 100000);
  strata_fov_free(f);
}

/* Radius, light_walls and permissive against the unlimited symmetric set. */
static void test_options(void) {
  strata_fov *f = strata_fov_new(NULL);
  strata_fov_set *all = strata_fov_set_new(NULL), *s = strata_fov_set_new(NULL);
  int bad_radius = 0, bad_walls = 0, bad_perm = 0;
  for (int round = 0; round < 40; round++) {
    world wd = make_world(20 + (int)rnd(50), 15 + (int)rnd(40));
    scatter(&wd, rnd(40));
    int ax = (int)rnd((uint32_t)wd.w), ay = (int)rnd((uint32_t)wd.h), r = 1 + (int)rnd(25);
    strata_fov_options o = opts(STRATA_FOV_SYMMETRIC, 0, 1);
    strata_fov_compute(f, wd.m, ax, ay, &o, all, NULL);
    o.radius = r;
    strata_fov_compute(f, wd.m, ax, ay, &o, s, NULL);
    for (int y = 0; y < wd.h; y++)
      for (int x = 0; x < wd.w; x++) {
        int in = (x - ax) * (x - ax) + (y - ay) * (y - ay) <= r * r;
        if (strata_fov_set_visible(s, x, y) != (in && strata_fov_set_visible(all, x, y))) bad_radius++;
      }
    o = opts(STRATA_FOV_SYMMETRIC, 0, 0);
    strata_fov_compute(f, wd.m, ax, ay, &o, s, NULL);
    for (int y = 0; y < wd.h; y++)
      for (int x = 0; x < wd.w; x++) {
        int want = strata_fov_set_visible(all, x, y) && (!opaque(&wd, x, y) || (x == ax && y == ay));
        if (strata_fov_set_visible(s, x, y) != want) bad_walls++;
      }
    o = opts(STRATA_FOV_PERMISSIVE, 0, 1);
    strata_fov_compute(f, wd.m, ax, ay, &o, s, NULL);
    for (int y = 0; y < wd.h; y++)
      for (int x = 0; x < wd.w; x++)
        if (strata_fov_set_visible(all, x, y) && !strata_fov_set_visible(s, x, y)) bad_perm++;
    strata_tilemap_free(wd.m);
  }
  CHECK_EQ_INT(bad_radius, 0);
  CHECK_EQ_INT(bad_walls, 0);
  CHECK_EQ_INT(bad_perm, 0);
  strata_fov_set_free(all);
  strata_fov_set_free(s);
  strata_fov_free(f);
}

/* Open maps from corners and edges: everything seen; a wall hides what is behind it. */
static void test_edges_and_start(void) {
  strata_fov *f = strata_fov_new(NULL);
  strata_fov_set *s = strata_fov_set_new(NULL);
  strata_error err;
  for (int a = 0; a < 3; a++) {
    strata_fov_algorithm alg = (strata_fov_algorithm)a;
    world wd = make_world(131, 70);
    strata_fov_options o = opts(alg, 0, 1);
    const int starts[][2] = {{0, 0}, {130, 69}, {130, 0}, {0, 69}, {64, 0}, {0, 35}, {65, 35}};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
      CHECK(strata_fov_compute(f, wd.m, starts[i][0], starts[i][1], &o, s, &err) == STRATA_OK);
      CHECK_EQ_INT(strata_fov_set_count(s), 131 * 70);
    }
    /* a wall across the map at y = 10: nothing beyond it from below, the wall itself seen */
    strata_tilemap_fill_rect(wd.m, 0, 10, 131, 1, wd.wall, 0, NULL);
    CHECK(strata_fov_compute(f, wd.m, 65, 35, &o, s, &err) == STRATA_OK);
    if (alg == STRATA_FOV_BASIC) { /* rays to the border miss some walls far aside */
      CHECK(strata_fov_set_count(s) > 131 * 59 && strata_fov_set_count(s) <= 131 * 60);
    } else {
      CHECK_EQ_INT(strata_fov_set_count(s), 131 * 60);
      CHECK(strata_fov_set_visible(s, 0, 10));
    }
    CHECK(!strata_fov_set_visible(s, 65, 9));
    /* an opaque start: sight goes out from it, the start is seen */
    strata_tilemap_reset(wd.m, 65, 35, wd.wall, NULL);
    o.light_walls = 0;
    CHECK(strata_fov_compute(f, wd.m, 65, 35, &o, s, &err) == STRATA_OK);
    CHECK(strata_fov_set_visible(s, 65, 35) && strata_fov_set_visible(s, 65, 60));
    CHECK(!strata_fov_set_visible(s, 0, 10));
    /* a start outside the map is refused, the set unchanged */
    uint64_t before = strata_fov_set_count(s);
    CHECK(strata_fov_compute(f, wd.m, 131, 3, &o, s, &err) == STRATA_EARG);
    CHECK_HAS(err.message, "outside");
    CHECK(strata_fov_compute(f, wd.m, 3, -1, &o, s, &err) == STRATA_EARG);
    CHECK_EQ_INT(strata_fov_set_count(s), before);
    o.radius = -1;
    CHECK(strata_fov_compute(f, wd.m, 3, 3, &o, s, &err) == STRATA_EARG);
    strata_tilemap_free(wd.m);
  }
  strata_fov_set_free(s);
  strata_fov_free(f);
}

/* Basic ray casting: every seen transparent cell has its Bresenham line clear. */
static void test_basic(void) {
  strata_fov *f = strata_fov_new(NULL);
  strata_fov_set *s = strata_fov_set_new(NULL);
  int bad = 0;
  for (int round = 0; round < 20; round++) {
    world wd = make_world(30 + (int)rnd(30), 20 + (int)rnd(20));
    scatter(&wd, 25);
    int ax = (int)rnd((uint32_t)wd.w), ay = (int)rnd((uint32_t)wd.h);
    strata_fov_options o = opts(STRATA_FOV_BASIC, 0, 0);
    strata_fov_compute(f, wd.m, ax, ay, &o, s, NULL);
    uint64_t cursor = 0;
    int x, y;
    while (strata_fov_set_next(s, &cursor, &x, &y)) {
      if (x == ax && y == ay) continue;
      if (opaque(&wd, x, y)) { bad++; continue; }
      /* some ray passes it: at least the cells between on its own line are not all needed,
      ** but the cell next to it towards the start must let light through */
      int nx = x + (ax > x) - (ax < x), ny = y + (ay > y) - (ay < y);
      if ((nx != ax || ny != ay) && opaque(&wd, nx, ny) && opaque(&wd, x + (ax > x) - (ax < x), y) &&
          opaque(&wd, x, y + (ay > y) - (ay < y)))
        bad++;
    }
    strata_tilemap_free(wd.m);
  }
  CHECK_EQ_INT(bad, 0);
  strata_fov_set_free(s);
  strata_fov_free(f);
}

/* Merging sources, iteration, caches following edits and trait changes. */
static void test_sets_and_caches(void) {
  strata_fov *f = strata_fov_new(NULL);
  strata_fov_set *a = strata_fov_set_new(NULL), *b = strata_fov_set_new(NULL),
                 *m = strata_fov_set_new(NULL);
  strata_error err;
  world wd = make_world(60, 40);
  scatter(&wd, 30);
  strata_fov_options o = opts(STRATA_FOV_SYMMETRIC, 8, 1);
  strata_fov_compute(f, wd.m, 10, 10, &o, a, NULL);
  strata_fov_compute(f, wd.m, 45, 30, &o, b, NULL);
  o.merge = 1;
  strata_fov_compute(f, wd.m, 10, 10, &o, m, NULL); /* an empty set takes the map */
  strata_fov_compute(f, wd.m, 45, 30, &o, m, NULL);
  uint64_t both = 0;
  for (int y = 0; y < 40; y++)
    for (int x = 0; x < 60; x++) {
      int want = strata_fov_set_visible(a, x, y) || strata_fov_set_visible(b, x, y);
      CHECK(strata_fov_set_visible(m, x, y) == want);
      both += (uint64_t)want;
    }
  CHECK_EQ_INT(strata_fov_set_count(m), both);
  CHECK(strata_fov_set_add(a, b, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_fov_set_count(a), both);
  /* iteration: row order, every cell once */
  uint64_t cursor = 0, n = 0, last = 0;
  int x, y, ordered = 1;
  while (strata_fov_set_next(m, &cursor, &x, &y)) {
    uint64_t i = (uint64_t)y * 60 + (uint64_t)x;
    if (n > 0 && i <= last) ordered = 0;
    last = i, n++;
    CHECK(strata_fov_set_visible(m, x, y));
  }
  CHECK(ordered);
  CHECK_EQ_INT(n, both);
  /* sets of maps of other sizes do not mix */
  world other = make_world(20, 20);
  strata_fov_set *c = strata_fov_set_new(NULL);
  o.merge = 0;
  strata_fov_compute(f, other.m, 5, 5, &o, c, NULL);
  CHECK(strata_fov_set_add(a, c, &err) == STRATA_EARG);
  o.merge = 1;
  CHECK(strata_fov_compute(f, other.m, 5, 5, &o, a, &err) == STRATA_EARG);
  CHECK_EQ_INT(strata_fov_set_count(a), both);
  strata_fov_set_clear(a);
  CHECK_EQ_INT(strata_fov_set_count(a), 0);
  /* an edit and a trait change are seen by the next computation */
  o.merge = 0, o.radius = 0;
  strata_tilemap_clear(other.m, other.floor, NULL);
  strata_fov_compute(f, other.m, 0, 0, &o, c, NULL);
  CHECK_EQ_INT(strata_fov_set_count(c), 400);
  strata_tilemap_fill_rect(other.m, 0, 2, 20, 1, other.wall, 0, NULL);
  strata_fov_compute(f, other.m, 0, 0, &o, c, NULL);
  CHECK_EQ_INT(strata_fov_set_count(c), 60);
  strata_token_traits tr = *strata_tokens_traits(strata_tilemap_tokens(other.m), other.wall);
  tr.opaque = 0;
  strata_tokens_define(strata_tilemap_tokens(other.m), "wall", 4, &tr, NULL);
  strata_fov_compute(f, other.m, 0, 0, &o, c, NULL);
  CHECK_EQ_INT(strata_fov_set_count(c), 400);
  /* a stack holding one opaque token is opaque */
  strata_token curtain = strata_tokens_intern(strata_tilemap_tokens(other.m), "curtain", 7, NULL);
  tr.opaque = 1;
  strata_tokens_define(strata_tilemap_tokens(other.m), "curtain", 7, &tr, NULL);
  strata_tilemap_fill_rect(other.m, 0, 2, 20, 1, curtain, 1, NULL);
  CHECK(strata_tilemap_fov(other.m, 0, 0, &o, c, NULL) == STRATA_OK);
  CHECK_EQ_INT(strata_fov_set_count(c), 60);
  CHECK(strata_fov_memory(f) > 0 && strata_fov_set_memory(c) > 0);
  strata_tilemap_free(other.m);
  strata_tilemap_free(wd.m);
  strata_fov_set_free(a), strata_fov_set_free(b), strata_fov_set_free(m), strata_fov_set_free(c);
  strata_fov_free(f);
}

static void test_traits(void) {
  strata_tokens *t = strata_tokens_new(NULL);
  strata_token floor = strata_tokens_intern(t, "floor", 5, NULL);
  CHECK(strata_tokens_traits(t, floor)->opaque == 0);
  strata_fov_algorithm a;
  CHECK(strata_fov_algorithm_parse("permissive", &a) && a == STRATA_FOV_PERMISSIVE);
  CHECK(!strata_fov_algorithm_parse("fast", &a));
  CHECK_STR(strata_fov_algorithm_name(STRATA_FOV_BASIC), "basic");
  strata_tokens_release(t);
}

static void test_line(void) {
  for (int k = 0; k < 500; k++) {
    int x0 = (int)rnd(41) - 20, y0 = (int)rnd(41) - 20, x1 = (int)rnd(41) - 20, y1 = (int)rnd(41) - 20;
    strata_line l;
    strata_line_init(&l, x0, y0, x1, y1);
    int x, y, px = 0, py = 0, n = 0, steps_ok = 1;
    while (strata_line_next(&l, &x, &y)) {
      if (n == 0) CHECK(x == x0 && y == y0);
      else if (abs(x - px) > 1 || abs(y - py) > 1 || (x == px && y == py)) steps_ok = 0;
      px = x, py = y, n++;
    }
    CHECK(steps_ok);
    CHECK(px == x1 && py == y1);
    int dx = abs(x1 - x0), dy = abs(y1 - y0);
    CHECK_EQ_INT(n, (dx > dy ? dx : dy) + 1);
  }
}

static void test_circle(void) {
  CHECK_EQ_INT(strata_circle(0, NULL, NULL, 0), 1);
  CHECK_EQ_INT(strata_circle(-1, NULL, NULL, 0), 0);
  for (int r = 1; r < 60; r++) {
    size_t n = strata_circle(r, NULL, NULL, 0);
    int *dx = malloc(n * sizeof *dx), *dy = malloc(n * sizeof *dy);
    CHECK_EQ_INT(strata_circle(r, dx, dy, n), n);
    CHECK(dx[0] == 0 && dy[0] == -r);
    int near = 1, connected = 1, unique = 1;
    for (size_t i = 0; i < n; i++) {
      double dist = sqrt((double)(dx[i] * dx[i] + dy[i] * dy[i]));
      if (fabs(dist - r) >= 1) near = 0;
      size_t j = (i + 1) % n;
      if (abs(dx[i] - dx[j]) > 1 || abs(dy[i] - dy[j]) > 1) connected = 0;
      for (size_t k = i + 1; k < n; k++)
        if (dx[i] == dx[k] && dy[i] == dy[k]) unique = 0;
    }
    CHECK(near && connected && unique);
    free(dx), free(dy);
  }
}

int main(void) {
  rng_state = 36;
  test_traits();
  test_line();
  test_circle();
  test_brute_force();
  test_ford();
  test_symmetry();
  test_options();
  test_edges_and_start();
  test_basic();
  test_sets_and_caches();
  return check_summary("test_fov");
}
