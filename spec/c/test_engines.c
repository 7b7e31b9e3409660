/*
** test_engines.c - every engine of the table (gridengine.c) that admits a
** request gives a route of the same cost as every other, on random maps.
**
** Maps of one cost (the flood, bidir and jump engines), of a few
** whole-number costs (the buckets), of costs that are not whole numbers
** and with more distinct costs than a class grid holds (the generic engine
** only), of every shape from 1x1 up, sparse and dense walls; requests of
** every algorithm, 4 and 8 neighbours, diagonal 1, sqrt 2, 1.7 and 2.5, and
** walled-in starts. Each admitted engine's route must be legal, go from
** start to goal, cost what it reports, and cost what the generic engine's
** costs (A*, Dijkstra), or take as many steps (BFS). The table's own choice
** must be its first admitted engine, and give the same route again. Mazes
** with loops: the junction engine (A* and Dijkstra, 4 neighbours, 8 with
** diagonal sqrt 2 or 1) is chosen there and agrees.
*/
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "gridengine.h"
#include "gridgen.h"
#include "strata/strata.h"

/* A map of floor (cost c[0]) with walls and patches of other costs. kinds:
** 0 one cost, 1 a few whole-number costs, 2 costs that are not whole, 3
** more distinct costs than GRID_MAX_CLASSES. */
static strata_tilemap *random_map(strata_rng *r, int w, int h, double walls, int kind) {
  strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  strata_token wl = strata_tokens_find(t, "wall", 4);
  static const double few[] = {1, 2, 3, 5}, frac[] = {1.25, 1.5, 2.75, 4};
  int ncost = kind == 0 ? 1 : kind == 3 ? 300 : 4;
  strata_token cost[300];
  for (int k = 0; k < ncost; k++) {
    char name[16];
    snprintf(name, sizeof name, "c%d", k);
    strata_token_traits tr = {1, kind == 1 ? few[k] : kind == 2 ? frac[k] : kind == 3 ? 1 + k * 0.5 : 1,
                              ".", "", 0};
    strata_tokens_define(t, name, strlen(name), &tr, NULL);
    cost[k] = strata_tokens_find(t, name, strlen(name));
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      strata_token tok = strata_rng_float(r) < walls ? wl
                         : ncost == 1 || strata_rng_float(r) < 0.6 ? cost[0]
                         : cost[strata_rng_below(r, (uint64_t)ncost)];
      strata_tilemap_set(m, x, y, tok, NULL);
    }
  /* a few stacked cells: the dearest token of a stack is the cost */
  if (kind == 1 && w * h > 4) {
    strata_tilemap_set(m, 1, 0, cost[1], NULL);
    strata_tilemap_set(m, 1, 0, cost[2], NULL);
  }
  return m;
}

/* A map of one cost with gm's walls (r draws as random_map's do). */
static strata_tilemap *gridgen_tilemap(strata_rng *r, const gridgen_map *gm) {
  strata_tilemap *m = random_map(r, gm->w, gm->h, 0, 0);
  strata_token wl = strata_tokens_find(strata_tilemap_tokens(m), "wall", 4);
  for (int i = 0; i < gm->w * gm->h; i++)
    if (gm->cells[i] == '#') strata_tilemap_set(m, i % gm->w, i / gm->w, wl, NULL);
  return m;
}

/* Legal moves from s to g on passable cells; returns the cost, or -1. */
static double walk(const strata_tilemap *m, const strata_path *p, int s, int g, int eight,
                   double diag) {
  int w = strata_tilemap_width(m);
  if (p->len == 0 || p->nodes[0] != (uint32_t)s || p->nodes[p->len - 1] != (uint32_t)g) return -1;
  double cost = 0;
  for (size_t i = 1; i < p->len; i++) {
    int x0 = (int)(p->nodes[i - 1] % (uint32_t)w), y0 = (int)(p->nodes[i - 1] / (uint32_t)w);
    int x1 = (int)(p->nodes[i] % (uint32_t)w), y1 = (int)(p->nodes[i] / (uint32_t)w);
    int dx = abs(x1 - x0), dy = abs(y1 - y0);
    if (dx > 1 || dy > 1 || dx + dy == 0 || (!eight && dx + dy == 2)) return -1;
    if (!strata_tilemap_passable(m, x1, y1)) return -1;
    cost += strata_tilemap_cost(m, x1, y1) * (dx + dy == 2 ? diag : 1);
  }
  return cost;
}

/* Maps of corridors: mazes with some walls between cells knocked out, so
** that routes are not unique. A* with every step alike goes to the
** junction engine there (ahead of the corridor engine's flood), and its
** routes cost what the generic engine's do. */
static void corridor_maps(strata_grid_search *s, strata_grid_search *table, int generic) {
  strata_path want, p;
  strata_path_init(&want), strata_path_init(&p);
  strata_rng r;
  strata_rng_seed(&r, 7);
  for (int seed = 1; seed <= 6; seed++) {
    gridgen_map gm;
    const int w = 41 + 10 * seed, h = 31 + 4 * seed;
    CHECK(gridgen_make(&gm, "maze", w, h, (uint64_t)seed));
    for (int k = 0; k < seed * 5; k++) { /* a wall between two cells, at (odd, even) or (even, odd) */
      int x = 1 + (int)strata_rng_below(&r, (uint64_t)(w - 2)), y = 1 + (int)strata_rng_below(&r, (uint64_t)(h - 2));
      if ((x + y) % 2 == 1) gm.cells[y * w + x] = '.';
    }
    strata_tilemap *m = gridgen_tilemap(&r, &gm);
    for (int trial = 0; trial < 8; trial++) {
      int x1 = gm.sx, y1 = gm.sy, x2 = gm.gx, y2 = gm.gy, ok;
      if (trial > 0) { /* any two floor cells */
        do x1 = (int)strata_rng_below(&r, (uint64_t)w), y1 = (int)strata_rng_below(&r, (uint64_t)h);
        while (gm.cells[y1 * w + x1] != '.');
        do x2 = (int)strata_rng_below(&r, (uint64_t)w), y2 = (int)strata_rng_below(&r, (uint64_t)h);
        while (gm.cells[y2 * w + x2] != '.');
      }
      for (int conn = 4; conn <= 8; conn += 4) {
        strata_grid_options o;
        strata_grid_options_init(&o);
        o.algorithm = STRATA_PATH_ASTAR, o.connectivity = conn, o.diagonal_cost = 1;
        CHECK(gridengine_run_one(s, m, generic, x1, y1, x2, y2, &o, &want, &ok, NULL) == STRATA_OK && ok);
        if (trial == 0) CHECK_NEAR(want.cost, gridgen_optimum(&gm, conn == 8, 1), 1e-9);
        CHECK(strata_grid_search_run(table, m, x1, y1, x2, y2, &o, &p, NULL) == STRATA_OK);
        CHECK_STR(gridengine_last(table), "junction");
        CHECK_EQ_INT(p.len == 0, want.len == 0);
        if (p.len) CHECK_NEAR(walk(m, &p, y1 * w + x1, y2 * w + x2, conn == 8, 1), want.cost, 1e-9);
        CHECK_NEAR(p.cost, want.cost, 1e-9);
      }
    }
    strata_tilemap_free(m);
    gridgen_free(&gm);
  }
  strata_path_free(&want), strata_path_free(&p);
}

/* The engine table's answer on m against the generic engine's (want): the
** named engine answered, with a route exactly when the generic engine found
** one, walking from start to goal at its cost. Returns that cost. */
static double table_agrees(strata_grid_search *s, strata_grid_search *table, int generic, strata_tilemap *m,
                           int x1, int y1, int x2, int y2, const strata_grid_options *o, const char *engine,
                           strata_path *want, strata_path *p) {
  const int w = strata_tilemap_width(m);
  int ok;
  CHECK(gridengine_run_one(s, m, generic, x1, y1, x2, y2, o, want, &ok, NULL) == STRATA_OK && ok);
  CHECK(strata_grid_search_run(table, m, x1, y1, x2, y2, o, p, NULL) == STRATA_OK);
  CHECK_STR(gridengine_last(table), engine);
  CHECK_EQ_INT(p->len == 0, want->len == 0);
  if (p->len)
    CHECK_NEAR(walk(m, p, y1 * w + x1, y2 * w + x2, o->connectivity == 8,
                    o->connectivity == 8 ? o->diagonal_cost : 1), want->cost, 1e-9 * (1 + want->cost));
  CHECK_NEAR(p->cost, want->cost, 1e-9 * (1 + want->cost));
  return want->cost;
}

/* Mazes at 4 neighbours and at 8, diagonal sqrt 2 or 1, with some walls knocked
** out so that routes are not unique: A* and Dijkstra go to the junction
** engine there, and its routes are legal and cost what the generic
** engine's do, from and to cells inside corridors, at junctions and in dead
** ends. */
static void junction_maps(strata_grid_search *s, strata_grid_search *table, int generic) {
  strata_path want, p;
  strata_path_init(&want), strata_path_init(&p);
  strata_rng r;
  strata_rng_seed(&r, 13);
  for (int seed = 1; seed <= 6; seed++) {
    gridgen_map gm;
    const int w = 41 + 10 * seed, h = 31 + 4 * seed;
    CHECK(gridgen_make(&gm, "maze", w, h, (uint64_t)seed));
    for (int k = 0; k < seed * 5; k++) { /* a wall between two cells, at (odd, even) or (even, odd) */
      int x = 1 + (int)strata_rng_below(&r, (uint64_t)(w - 2)), y = 1 + (int)strata_rng_below(&r, (uint64_t)(h - 2));
      if ((x + y) % 2 == 1) gm.cells[y * w + x] = '.';
    }
    strata_tilemap *m = gridgen_tilemap(&r, &gm);
    for (int trial = 0; trial < 40; trial++) {
      int x1 = gm.sx, y1 = gm.sy, x2 = gm.gx, y2 = gm.gy;
      if (trial > 0) { /* any two floor cells; every third start a dead end */
        int floors;
        do {
          x1 = (int)strata_rng_below(&r, (uint64_t)w), y1 = (int)strata_rng_below(&r, (uint64_t)h);
          floors = 0;
          for (int d = 0; d < 4 && gm.cells[y1 * w + x1] == '.'; d++)
            floors += gm.cells[(y1 + (d == 2) - (d == 0)) * w + x1 + (d == 1) - (d == 3)] == '.';
        } while (gm.cells[y1 * w + x1] != '.' || (trial % 3 == 0 && floors != 1));
        do x2 = (int)strata_rng_below(&r, (uint64_t)w), y2 = (int)strata_rng_below(&r, (uint64_t)h);
        while (gm.cells[y2 * w + x2] != '.');
        if (trial % 7 == 0) x2 = x1, y2 = y1;
      }
      for (int algo = STRATA_PATH_ASTAR; algo <= STRATA_PATH_DIJKSTRA; algo++)
        for (int rule = 0; rule < 3; rule++) { /* 4 neighbours; 8, diagonal sqrt 2; 8, diagonal 1 */
          strata_grid_options o;
          strata_grid_options_init(&o);
          o.algorithm = (strata_path_algorithm)algo, o.connectivity = rule ? 8 : 4;
          o.diagonal_cost = rule == 2 ? 1 : M_SQRT2;
          double cost = table_agrees(s, table, generic, m, x1, y1, x2, y2, &o, "junction", &want, &p);
          if (trial == 0)
            CHECK_NEAR(cost, gridgen_optimum(&gm, rule > 0, o.diagonal_cost), 1e-9 * cost);
        }
    }
    /* the same map changed: the search object's graph follows it */
    strata_token fl = strata_tokens_find(strata_tilemap_tokens(m), "c0", 2);
    for (int k = 0; k < 4; k++) {
      int x, y;
      do x = 1 + (int)strata_rng_below(&r, (uint64_t)(w - 2)), y = 1 + (int)strata_rng_below(&r, (uint64_t)(h - 2));
      while ((x + y) % 2 == 0 || gm.cells[y * w + x] == '.');
      gm.cells[y * w + x] = '.';
      CHECK(strata_tilemap_reset(m, x, y, fl, NULL) == STRATA_OK);
      strata_grid_options o;
      strata_grid_options_init(&o);
      o.connectivity = 4 + 4 * (k % 2), o.diagonal_cost = k == 3 ? 1 : M_SQRT2;
      table_agrees(s, table, generic, m, gm.sx, gm.sy, x, y, &o, "junction", &want, &p);
    }
    strata_tilemap_free(m);
    gridgen_free(&gm);
  }
  strata_path_free(&want), strata_path_free(&p);
}

/* A* and Dijkstra at 4 neighbours and at 8 with diagonal 1 on perfect
** mazes: the junction engine settles junctions, on the goal's side of each
** bridge, not cells: under one for every ten cells of the route at 4 (some
** 1 in 30 here; the corridor engine's flood settled twice as many cells as
** the route has), one for every four at 8, where cut corners make more
** junctions (some 1 in 5.6; the flood settled three times the route's
** cells). Counts, not times. */
static void junction_settled(strata_grid_search *table) {
  strata_path p;
  strata_path_init(&p);
  for (int seed = 1; seed <= 3; seed++) {
    gridgen_map gm;
    CHECK(gridgen_make(&gm, "maze", 301, 241, (uint64_t)seed));
    strata_rng r;
    strata_rng_seed(&r, (uint64_t)seed);
    strata_tilemap *m = gridgen_tilemap(&r, &gm);
    for (int algo = STRATA_PATH_ASTAR; algo <= STRATA_PATH_DIJKSTRA; algo++)
      for (int conn = 4; conn <= 8; conn += 4) { /* 8: diagonal 1 */
        strata_grid_options o;
        strata_grid_options_init(&o);
        o.algorithm = (strata_path_algorithm)algo, o.connectivity = conn, o.diagonal_cost = 1;
        CHECK(strata_grid_search_run(table, m, gm.sx, gm.sy, gm.gx, gm.gy, &o, &p, NULL) == STRATA_OK);
        CHECK_STR(gridengine_last(table), "junction");
        CHECK_NEAR(p.cost, gridgen_optimum(&gm, conn == 8, 1), 1e-9);
        const uint64_t settled = strata_grid_search_expanded(table);
        const uint64_t per = conn == 4 ? 10 : 4; /* route cells a junction settled, at least */
        if (settled * per > p.len)
          fprintf(stderr, "junction settled %llu for a route of %zu (%d neighbours)\n",
                  (unsigned long long)settled, p.len, conn);
        CHECK(settled * per <= p.len);
      }
    strata_tilemap_free(m);
    gridgen_free(&gm);
  }
  strata_path_free(&p);
}

/* Dijkstra with diagonal sqrt 2 on scattered walls: the guided engine
** (A* from both ends, the same cost as the generic engine's Dijkstra);
** with walls in lines jump point search keeps it. */
static void guided_maps(strata_grid_search *s, strata_grid_search *table, int generic) {
  int bidir = -1;
  for (int e = 0; e < gridengine_count(); e++)
    if (strcmp(gridengine_name(e), "bidir") == 0) bidir = e;
  CHECK(bidir >= 0);
  strata_path want, p;
  strata_path_init(&want), strata_path_init(&p);
  strata_rng r;
  strata_rng_seed(&r, 11);
  for (int k = 0; k < 6; k++) {
    const int w = 60 + 20 * k, h = 50 + 10 * k;
    strata_tilemap *m = random_map(&r, w, h, 0.2, 0);
    for (int trial = 0; trial < 6; trial++) {
      int x1, y1, x2, y2;
      do x1 = (int)strata_rng_below(&r, (uint64_t)w), y1 = (int)strata_rng_below(&r, (uint64_t)h);
      while (!strata_tilemap_passable(m, x1, y1));
      do x2 = (int)strata_rng_below(&r, (uint64_t)w), y2 = (int)strata_rng_below(&r, (uint64_t)h);
      while (!strata_tilemap_passable(m, x2, y2));
      strata_grid_options o;
      strata_grid_options_init(&o);
      o.algorithm = STRATA_PATH_DIJKSTRA, o.connectivity = 8, o.diagonal_cost = M_SQRT2;
      table_agrees(s, table, generic, m, x1, y1, x2, y2, &o, "guided", &want, &p);
      /* from both ends, Dijkstra is the guided engine's alone: no engine
      ** answers it where guided gives up but flood_dijkstra */
      int ok;
      CHECK(gridengine_run_one(s, m, bidir, x1, y1, x2, y2, &o, &p, &ok, NULL) == STRATA_OK && !ok);
    }
    strata_tilemap_free(m);
  }
  strata_path_free(&want), strata_path_free(&p);
}

/* The flood_dijkstra engine's routes, hashed, on scattered walls at every
** diagonal it takes: among routes of equal cost, the one its buckets give
** (ties to the first offer, in an order fixed by the map and the request),
** the same on every run and machine. Past the diagonals its ring of
** buckets holds it gives up, and the table's next engine answers. */
static void flood_dijkstra_routes(strata_grid_search *s, int engine) {
  strata_path p;
  strata_path_init(&p);
  strata_rng r;
  strata_rng_seed(&r, 23);
  /* 1.0625: its offers a diagonal later can share the bucket of those a
  ** step later */
  static const double diags[] = {M_SQRT2, 1.5, 1.7, 2.5, 1.0625, 1.99};
  uint64_t hash = 1469598103934665603u;
  for (int k = 0; k < 8; k++) {
    const int w = 30 + 25 * k, h = 20 + 15 * k;
    strata_tilemap *m = random_map(&r, w, h, 0.05 * k, 0);
    for (int trial = 0; trial < 8; trial++) {
      int x1 = (int)strata_rng_below(&r, (uint64_t)w), y1 = (int)strata_rng_below(&r, (uint64_t)h);
      int x2 = (int)strata_rng_below(&r, (uint64_t)w), y2 = (int)strata_rng_below(&r, (uint64_t)h), ok;
      strata_grid_options o;
      strata_grid_options_init(&o);
      o.algorithm = STRATA_PATH_DIJKSTRA, o.connectivity = 8, o.diagonal_cost = diags[trial % 6];
      CHECK(gridengine_run_one(s, m, engine, x1, y1, x2, y2, &o, &p, &ok, NULL) == STRATA_OK && ok);
      for (size_t i = 0; i < p.len; i++) hash = (hash ^ p.nodes[i]) * 1099511628211u;
      hash = (hash ^ p.len) * 1099511628211u;
    }
    strata_tilemap_free(m);
  }
  if (hash != 0x8ba1f239e41a0c4bu)
    fprintf(stderr, "flood_dijkstra routes %016llx\n", (unsigned long long)hash);
  CHECK(hash == 0x8ba1f239e41a0c4bu);
  strata_tilemap *m = random_map(&r, 20, 20, 0.1, 0);
  strata_tilemap_set(m, 0, 0, strata_tokens_find(strata_tilemap_tokens(m), "c0", 2), NULL);
  strata_tilemap_set(m, 19, 19, strata_tokens_find(strata_tilemap_tokens(m), "c0", 2), NULL);
  strata_grid_options o;
  strata_grid_options_init(&o);
  o.algorithm = STRATA_PATH_DIJKSTRA, o.connectivity = 8, o.diagonal_cost = 70;
  int ok;
  CHECK(gridengine_run_one(s, m, engine, 0, 0, 19, 19, &o, &p, &ok, NULL) == STRATA_OK && !ok);
  CHECK(strata_grid_search_run(s, m, 0, 0, 19, 19, &o, &p, NULL) == STRATA_OK);
  CHECK(strcmp(gridengine_last(s), "flood_dijkstra") != 0);
  strata_tilemap_free(m);
  strata_path_free(&p);
}

/* flood_astar with 4 neighbours on scattered walls: the Manhattan estimate
** is exact there, so every cell on some shortest route has the goal's f,
** and the tie-break decides how many of them are settled. Deeper first and
** along the longer remaining axis keeps to near the route (a count, not a
** time). Its routes, hashed: among equal ones the one its stacks give, the
** same on every run and machine. */
static void flood_astar_ties(strata_grid_search *s, int engine, int generic) {
  strata_path p, want;
  strata_path_init(&p), strata_path_init(&want);
  uint64_t hash = 1469598103934665603u;
  for (int seed = 1; seed <= 4; seed++) {
    gridgen_map gm;
    const int w = 150 + 50 * seed, h = 120 + 40 * seed;
    CHECK(gridgen_make(&gm, "open", w, h, (uint64_t)seed));
    strata_rng r;
    strata_rng_seed(&r, (uint64_t)seed);
    strata_tilemap *m = gridgen_tilemap(&r, &gm);
    for (int conn = 4; conn <= 8; conn += 4) {
      strata_grid_options o;
      strata_grid_options_init(&o);
      o.algorithm = STRATA_PATH_ASTAR, o.connectivity = conn, o.diagonal_cost = 1;
      int ok;
      CHECK(gridengine_run_one(s, m, engine, gm.sx, gm.sy, gm.gx, gm.gy, &o, &p, &ok, NULL) ==
                STRATA_OK && ok && p.len > 0);
      uint64_t settled = strata_grid_search_expanded(s);
      CHECK(gridengine_run_one(s, m, generic, gm.sx, gm.sy, gm.gx, gm.gy, &o, &want, &ok, NULL) ==
                STRATA_OK && ok);
      CHECK_NEAR(p.cost, want.cost, 1e-9);
      CHECK_NEAR(p.cost, gridgen_optimum(&gm, conn == 8, 1), 1e-9);
      if (conn == 4 && settled > 4 * p.len)
        fprintf(stderr, "flood_astar settled %llu for a route of %zu\n", (unsigned long long)settled, p.len);
      if (conn == 4) CHECK(settled <= 4 * p.len);
      for (size_t i = 0; i < p.len; i++) hash = (hash ^ p.nodes[i]) * 1099511628211u;
      hash = (hash ^ p.len) * 1099511628211u;
    }
    strata_tilemap_free(m);
    gridgen_free(&gm);
  }
  if (hash != 0xdd04b8db81ff8e31u) fprintf(stderr, "flood_astar routes %016llx\n", (unsigned long long)hash);
  CHECK(hash == 0xdd04b8db81ff8e31u);
  strata_path_free(&p), strata_path_free(&want);
}

/* flood_astar at 8 neighbours, diagonal 1, on rooms and on scattered walls:
** where walls make the route longer than the Chebyshev distance, the
** estimate of the cached landmark fields (the largest difference of two
** cells' distances from a landmark) lets it settle a fraction of the cells
** Chebyshev alone would (every cell of f below the optimum): counts, not
** times. The cost stays optimal, the route the same on every run, and a
** changed map gets new fields (the cost follows it: the old ones would
** overestimate across a new shortcut). */
static void flood_astar_landmarks(strata_grid_search *s, int engine, int generic) {
  strata_path p, want;
  strata_path_init(&p), strata_path_init(&want);
  static const char *const kinds[] = {"rooms", "open"};
  for (int k = 0; k < 2; k++)
    for (int seed = 1; seed <= 3; seed++) {
      gridgen_map gm;
      const int w = 200 + 60 * seed, h = 160 + 40 * seed;
      CHECK(gridgen_make(&gm, kinds[k], w, h, (uint64_t)seed));
      strata_rng r;
      strata_rng_seed(&r, (uint64_t)seed);
      strata_tilemap *m = gridgen_tilemap(&r, &gm);
      strata_grid_options o;
      strata_grid_options_init(&o);
      o.algorithm = STRATA_PATH_ASTAR, o.connectivity = 8, o.diagonal_cost = 1;
      int ok;
      CHECK(gridengine_run_one(s, m, engine, gm.sx, gm.sy, gm.gx, gm.gy, &o, &p, &ok, NULL) ==
                STRATA_OK && ok && p.len > 0);
      const uint64_t settled = strata_grid_search_expanded(s);
      CHECK_NEAR(p.cost, gridgen_optimum(&gm, 1, 1), 1e-9);
      CHECK_NEAR(walk(m, &p, gm.sy * w + gm.sx, gm.gy * w + gm.gx, 1, 1), p.cost, 1e-9);
      /* Chebyshev alone settled 9 to 10 times the route's cells here */
      if (settled > 2 * p.len)
        fprintf(stderr, "flood_astar settled %llu on %s %dx%d for a route of %zu\n",
                (unsigned long long)settled, kinds[k], w, h, p.len);
      CHECK(settled <= 2 * p.len);
      /* the route again, the same */
      strata_path again;
      strata_path_init(&again);
      CHECK(gridengine_run_one(s, m, engine, gm.sx, gm.sy, gm.gx, gm.gy, &o, &again, &ok, NULL) ==
                STRATA_OK && ok);
      CHECK(again.len == p.len && memcmp(again.nodes, p.nodes, p.len * sizeof *p.nodes) == 0);
      /* short routes one after another on the same grid: each search puts
      ** back only the cells it changed, and the next finds them as new */
      for (int q = 0; q < 60; q++) {
        int x1, y1, x2, y2;
        do x1 = (int)strata_rng_below(&r, (uint64_t)w), y1 = (int)strata_rng_below(&r, (uint64_t)h);
        while (gm.cells[y1 * w + x1] != '.');
        do {
          x2 = x1 - 12 + (int)strata_rng_below(&r, 25), y2 = y1 - 12 + (int)strata_rng_below(&r, 25);
        } while (x2 < 0 || y2 < 0 || x2 >= w || y2 >= h || gm.cells[y2 * w + x2] != '.');
        o.connectivity = q % 2 ? 4 : 8;
        CHECK(gridengine_run_one(s, m, engine, x1, y1, x2, y2, &o, &again, &ok, NULL) == STRATA_OK && ok);
        CHECK(gridengine_run_one(s, m, generic, x1, y1, x2, y2, &o, &want, &ok, NULL) == STRATA_OK && ok);
        CHECK_EQ_INT(again.len == 0, want.len == 0);
        CHECK_NEAR(again.cost, want.cost, 1e-9);
      }
      o.connectivity = 8;
      /* floor across the map's middle, both ways: shortcuts the old fields
      ** would overestimate; new fields, the generic engine's cost */
      strata_token fl = strata_tokens_find(strata_tilemap_tokens(m), "c0", 2);
      for (int x = 0; x < w; x++) strata_tilemap_reset(m, x, h / 2, fl, NULL);
      for (int y = 0; y < h; y++) strata_tilemap_reset(m, w / 2, y, fl, NULL);
      CHECK(gridengine_run_one(s, m, engine, gm.sx, gm.sy, gm.gx, gm.gy, &o, &again, &ok, NULL) ==
                STRATA_OK && ok);
      CHECK(gridengine_run_one(s, m, generic, gm.sx, gm.sy, gm.gx, gm.gy, &o, &want, &ok, NULL) ==
                STRATA_OK && ok);
      CHECK_EQ_INT(again.len == 0, want.len == 0);
      CHECK_NEAR(again.cost, want.cost, 1e-9);
      strata_path_free(&again);
      strata_tilemap_free(m);
      gridgen_free(&gm);
    }
  strata_path_free(&p), strata_path_free(&want);
}

int main(void) {
  strata_rng r;
  strata_rng_seed(&r, 41);
  static const int sizes[][2] = {{1, 1}, {1, 7}, {7, 1}, {2, 2}, {5, 5}, {13, 7}, {40, 30},
                                 {70, 9}, {64, 64}, {130, 90}};
  static const double densities[] = {0, 0.1, 0.3, 0.45};
  static const double diags[] = {1, M_SQRT2, 1.7, 2.5};
  const int engines = gridengine_count();
  int generic = -1;
  for (int e = 0; e < engines; e++)
    if (strcmp(gridengine_name(e), "generic") == 0) generic = e;
  CHECK(generic == engines - 1);
  strata_grid_search *s = strata_grid_search_new(NULL), *table = strata_grid_search_new(NULL);
  strata_path want, p, again;
  strata_path_init(&want), strata_path_init(&p), strata_path_init(&again);
  long ran[64] = {0};
  long compared = 0;
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
    for (size_t di = 0; di < sizeof densities / sizeof densities[0]; di++)
      for (int kind = 0; kind < 4; kind++) {
        const int w = sizes[si][0], h = sizes[si][1];
        if (kind == 3 && w * h < 400) continue;
        strata_tilemap *m = random_map(&r, w, h, densities[di], kind);
        /* a fresh workspace per map: each engine's first search on it too */
        strata_grid_search_free(s);
        s = strata_grid_search_new(NULL);
        for (int trial = 0; trial < 6; trial++) {
          int sc = (int)strata_rng_below(&r, (uint64_t)(w * h)), gc = (int)strata_rng_below(&r, (uint64_t)(w * h));
          if (trial == 0) gc = sc;
          for (int algo = 0; algo < 4; algo++)
            for (int conn = 4; conn <= 8; conn += 4)
              for (size_t k = 0; k < (conn == 8 ? 4u : 1u); k++) {
                strata_grid_options o;
                strata_grid_options_init(&o);
                o.algorithm = (strata_path_algorithm)algo, o.connectivity = conn, o.diagonal_cost = diags[k];
                const int eight = conn == 8;
                const double diag = eight ? diags[k] : 1;
                int x1 = sc % w, y1 = sc / w, x2 = gc % w, y2 = gc / w, ok;
                CHECK(gridengine_run_one(s, m, generic, x1, y1, x2, y2, &o, &want, &ok, NULL) ==
                      STRATA_OK && ok);
                if (want.len) CHECK_NEAR(walk(m, &want, sc, gc, eight, diag), want.cost, 1e-9);
                int first = -1;
                for (int e = 0; e < engines - 1; e++) {
                  CHECK(gridengine_run_one(s, m, e, x1, y1, x2, y2, &o, &p, &ok, NULL) == STRATA_OK);
                  if (!ok) continue;
                  if (first < 0) first = e;
                  ran[e]++;
                  CHECK_EQ_INT(p.len == 0, want.len == 0);
                  if (p.len == 0 || want.len == 0) continue;
                  double c = walk(m, &p, sc, gc, eight, diag);
                  CHECK_NEAR(c, p.cost, 1e-9 * (1 + c));
                  if (o.algorithm == STRATA_PATH_BFS) CHECK_EQ_INT(p.len, want.len);
                  else if (o.algorithm != STRATA_PATH_GREEDY) {
                    if (fabs(p.cost - want.cost) > 1e-9 * (1 + want.cost))
                      fprintf(stderr, "%s on %dx%d kind %d: %s conn %d diag %g: %.9g, want %.9g\n",
                              gridengine_name(e), w, h, kind, strata_path_algorithm_name(o.algorithm),
                              conn, diag, p.cost, want.cost);
                    CHECK_NEAR(p.cost, want.cost, 1e-9 * (1 + want.cost));
                  }
                  compared++;
                }
                /* the table: its first admitted engine, the same route twice */
                CHECK(strata_grid_search_run(table, m, x1, y1, x2, y2, &o, &p, NULL) == STRATA_OK);
                if (strata_tilemap_passable(m, x2, y2)) /* else no engine is asked */
                  CHECK_STR(gridengine_last(table), gridengine_name(first < 0 ? generic : first));
                CHECK(strata_grid_search_run(table, m, x1, y1, x2, y2, &o, &again, NULL) == STRATA_OK);
                CHECK(p.len == again.len && p.cost == again.cost &&
                      (p.len == 0 || memcmp(p.nodes, again.nodes, p.len * sizeof *p.nodes) == 0));
              }
        }
        strata_tilemap_free(m);
      }
  /* every engine ran on some request */
  for (int e = 0; e < engines - 1; e++) {
    if (ran[e] == 0) fprintf(stderr, "engine %s never ran\n", gridengine_name(e));
    CHECK(ran[e] > 0);
  }
  corridor_maps(s, table, generic);
  guided_maps(s, table, generic);
  for (int e = 0; e < engines; e++)
    if (strcmp(gridengine_name(e), "flood_dijkstra") == 0) flood_dijkstra_routes(s, e);
    else if (strcmp(gridengine_name(e), "flood_astar") == 0) {
      flood_astar_ties(s, e, generic);
      flood_astar_landmarks(s, e, generic);
    }
  junction_maps(s, table, generic);
  junction_settled(table);
  if (compared <= 3000) fprintf(stderr, "compared %ld\n", compared);
  CHECK(compared > 3000);
  strata_grid_search_free(s), strata_grid_search_free(table);
  strata_path_free(&want), strata_path_free(&p), strata_path_free(&again);
  return check_summary("engines");
}
