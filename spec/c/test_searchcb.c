/* test_searchcb.c - per-search costs and the occupancy layer (tilemap.h):
** a cost callback that walls a cell or makes a corridor dear, the same
** routes as the token costs when it answers them, once per cell, bad
** answers and a failing callback refused, a callback that edits its map or
** searches again with the same search object; the cells actors hold, kept
** by the world through moves, deletes, a rolled-back savepoint and a save
** opened again, and searches that block or charge them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "strata/alloc.h"
#include "strata/tilemap.h"
#include "strata/world.h"

/* A map from rows of text: '#' wall, '~' water (cost 5), anything else floor. */
static strata_tilemap *map_of(const char *const *rows, int h) {
  strata_error err;
  int w = (int)strlen(rows[0]);
  strata_tilemap *m = strata_tilemap_new(w, h, NULL, &err);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0}, water = {1, 5, "~", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, &err);
  strata_tokens_define(t, "water", 5, &water, &err);
  strata_token fl = strata_tokens_intern(t, "floor", 5, &err);
  strata_token wa = strata_tokens_find(t, "wall", 4), wt = strata_tokens_find(t, "water", 5);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      strata_tilemap_set(m, x, y, rows[y][x] == '#' ? wa : rows[y][x] == '~' ? wt : fl, &err);
  return m;
}

static int on_path(const strata_path *p, int w, int x, int y) {
  for (size_t i = 0; i < p->len; i++)
    if (p->nodes[i] == (uint32_t)(y * w + x)) return 1;
  return 0;
}

/* ---- callbacks ---- */

typedef struct calls {
  int w, h;
  int *count;           /* calls per cell */
  int total;
  int wall_x, wall_y;   /* a cell the callback blocks (-1: none) */
  int answers;          /* nonzero: the wall cell gets answer instead of blocking */
  double answer;
  double scale;         /* cost multiplier */
  strata_tilemap *edit; /* a map the callback edits once */
  strata_tilemap *again;/* a map the callback searches again */
  strata_status inner;  /* what that search returned */
} calls;

static double cb(void *data, int x, int y, double cost) {
  calls *c = data;
  c->total++;
  if (c->count) c->count[y * c->w + x]++;
  if (x == c->wall_x && y == c->wall_y) return c->answers ? c->answer : STRATA_GRID_BLOCKED;
  if (c->edit) {
    strata_tilemap_set(c->edit, 0, 0, strata_tokens_find(strata_tilemap_tokens(c->edit), "wall", 4), NULL);
    c->edit = NULL;
  }
  if (c->again) {
    strata_path p;
    strata_path_init(&p);
    c->inner = strata_tilemap_find_path(c->again, 0, 0, 1, 0, NULL, &p, NULL);
    strata_path_free(&p);
    c->again = NULL;
  }
  return cost * c->scale;
}

static void init_calls(calls *c, const strata_tilemap *m) {
  memset(c, 0, sizeof *c);
  c->w = strata_tilemap_width(m), c->h = strata_tilemap_height(m);
  c->wall_x = c->wall_y = -1;
  c->scale = 1;
}

static void opts_with(strata_grid_options *o, calls *c, strata_path_algorithm a, int conn) {
  strata_grid_options_init(o);
  o->algorithm = a;
  o->connectivity = conn;
  o->cost = cb;
  o->cost_data = c;
}

/* A map of rows searched with the callback. */
typedef struct fixture {
  strata_tilemap *m;
  strata_path p;
  strata_error err;
  calls c;
  strata_grid_options o;
} fixture;

static void start(fixture *f, const char *const *rows, int h, strata_path_algorithm a) {
  f->m = map_of(rows, h);
  strata_path_init(&f->p);
  init_calls(&f->c, f->m);
  opts_with(&f->o, &f->c, a, 4);
}

static strata_status find(fixture *f, int x1, int y1, int x2, int y2) {
  return strata_tilemap_find_path(f->m, x1, y1, x2, y2, &f->o, &f->p, &f->err);
}

static void finish(fixture *f) {
  strata_path_free(&f->p);
  strata_tilemap_free(f->m);
}

/* A wall made by the callback: the straight route goes round it. */
static void test_callback_wall(void) {
  const char *rows[] = {"......", "......", "......"};
  fixture f;
  start(&f, rows, 3, STRATA_PATH_ASTAR);
  CHECK(find(&f, 0, 1, 5, 1) == STRATA_OK);
  CHECK_EQ_INT(f.p.len, 6);
  f.c.wall_x = 2, f.c.wall_y = 1;
  CHECK(find(&f, 0, 1, 5, 1) == STRATA_OK);
  CHECK_EQ_INT(f.p.len, 8);
  CHECK(!on_path(&f.p, 6, 2, 1));
  /* a blocked goal: no route, not an error */
  f.c.wall_x = 5, f.c.wall_y = 1;
  CHECK(find(&f, 0, 1, 5, 1) == STRATA_OK);
  CHECK_EQ_INT(f.p.len, 0);
  /* every algorithm takes the callback */
  f.c.wall_x = 2, f.c.wall_y = 1;
  for (int a = STRATA_PATH_ASTAR; a <= STRATA_PATH_GREEDY; a++) {
    f.o.algorithm = (strata_path_algorithm)a;
    CHECK(find(&f, 0, 1, 5, 1) == STRATA_OK);
    CHECK(f.p.len > 0 && !on_path(&f.p, 6, 2, 1));
  }
  finish(&f);
}

/* A corridor the callback makes dear is avoided; a wall it opens is taken. */
static void test_callback_costs(void) {
  const char *rows[] = {"#.....#", "#.###.#", "...#...", "#######"};
  fixture f;
  start(&f, rows, 4, STRATA_PATH_DIJKSTRA);
  /* (3, 2) is a wall: the way round over the top, 10 steps */
  CHECK(find(&f, 0, 2, 6, 2) == STRATA_OK);
  CHECK_EQ_INT(f.p.len, 11);
  CHECK_NEAR(f.p.cost, 10, 1e-9);
  /* the callback opens it at cost 2: straight through, 6 steps, cost 7 */
  f.c.wall_x = 3, f.c.wall_y = 2, f.c.answers = 1, f.c.answer = 2;
  CHECK(find(&f, 0, 2, 6, 2) == STRATA_OK);
  CHECK_EQ_INT(f.p.len, 7);
  CHECK_NEAR(f.p.cost, 7, 1e-9);
  /* at cost 9 the way over the top is cheaper again */
  f.c.answer = 9;
  CHECK(find(&f, 0, 2, 6, 2) == STRATA_OK);
  CHECK_EQ_INT(f.p.len, 11);
  CHECK(!on_path(&f.p, 7, 3, 2));
  finish(&f);
}

/* Answering the token cost finds routes as cheap as the token costs' on
** random maps, every algorithm that promises the cheapest, 4 and 8
** neighbours; each cell asked at most once. */
static void test_same_as_tokens(void) {
  enum { W = 40, H = 30 };
  char grid[H][W + 1];
  const char *rows[H];
  unsigned seed = 7;
  for (int y = 0; y < H; y++) {
    for (int x = 0; x < W; x++) {
      seed = seed * 1103515245u + 12345u;
      unsigned r = (seed >> 16) % 10;
      grid[y][x] = r < 2 ? '#' : r < 4 ? '~' : '.';
    }
    grid[y][W] = 0;
    rows[y] = grid[y];
  }
  grid[0][0] = grid[H - 1][W - 1] = '.';
  strata_tilemap *m = map_of(rows, H);
  strata_path p, q;
  strata_path_init(&p), strata_path_init(&q);
  strata_error err;
  int count[W * H];
  calls c;
  init_calls(&c, m);
  c.count = count;
  for (int a = 0; a < 2; a++)
    for (int conn = 4; conn <= 8; conn += 4) {
      strata_grid_options plain, o;
      strata_grid_options_init(&plain);
      plain.algorithm = a ? STRATA_PATH_DIJKSTRA : STRATA_PATH_ASTAR;
      plain.connectivity = conn;
      opts_with(&o, &c, plain.algorithm, conn);
      for (int k = 0; k < 6; k++) {
        int x1 = (k * 7) % W, y1 = (k * 5) % H, x2 = W - 1 - (k * 3) % W, y2 = H - 1 - k % H;
        memset(count, 0, sizeof count);
        CHECK(strata_tilemap_find_path(m, x1, y1, x2, y2, &plain, &p, &err) == STRATA_OK);
        CHECK(strata_tilemap_find_path(m, x1, y1, x2, y2, &o, &q, &err) == STRATA_OK);
        CHECK_EQ_INT(q.len > 0, p.len > 0);
        CHECK_NEAR(q.cost, p.cost, 1e-9);
        int most = 0;
        for (int i = 0; i < W * H; i++) most = count[i] > most ? count[i] : most;
        CHECK(most <= 1);
      }
    }
  strata_path_free(&p), strata_path_free(&q);
  strata_tilemap_free(m);
}

/* Bad answers, a failing callback, a cost below cost_min, bad options. */
static void test_bad_answers(void) {
  const char *rows[] = {"......", "......"};
  fixture f;
  start(&f, rows, 2, STRATA_PATH_ASTAR);
  f.c.wall_x = 1, f.c.wall_y = 0, f.c.answers = 1;
  double bad[] = {-1, 0.0 / 0.0, 1.0 / 0.0};
  for (int i = 0; i < 3; i++) {
    f.c.answer = bad[i];
    CHECK(find(&f, 0, 0, 5, 0) == STRATA_EARG);
    CHECK(strstr(f.err.message, "cost callback") != NULL);
    CHECK(strstr(f.err.message, "(1, 0)") != NULL);
    CHECK_EQ_INT(f.p.len, 0);
  }
  /* A* scales its estimate by the least cost: an answer below it is refused */
  f.c.answer = 0.5;
  CHECK(find(&f, 0, 0, 5, 0) == STRATA_EARG);
  CHECK(strstr(f.err.message, "cost_min") != NULL);
  f.o.cost_min = 0.5;
  CHECK(find(&f, 0, 0, 5, 0) == STRATA_OK);
  CHECK_NEAR(f.p.cost, 4.5, 1e-9);
  f.o.algorithm = STRATA_PATH_DIJKSTRA, f.o.cost_min = 0; /* Dijkstra has no estimate */
  CHECK(find(&f, 0, 0, 5, 0) == STRATA_OK);
  f.o.cost_min = -1;
  CHECK(find(&f, 0, 0, 5, 0) == STRATA_EARG);
  f.o.cost_min = 0, f.o.occupied = (strata_grid_occupied)7;
  CHECK(find(&f, 0, 0, 5, 0) == STRATA_EARG);
  f.o.occupied = STRATA_OCCUPIED_COST, f.o.occupied_cost = -2;
  CHECK(find(&f, 0, 0, 5, 0) == STRATA_EARG);
  /* the map was not left busy by a failure */
  f.o.occupied = STRATA_OCCUPIED_IGNORE, f.c.answer = 1;
  CHECK(find(&f, 0, 0, 5, 0) == STRATA_OK);
  CHECK_EQ_INT(f.p.len, 6);
  finish(&f);
}

/* A callback that edits the map fails the search; one that searches with
** the same search object is refused there (its own search goes on). */
static void test_callback_misuse(void) {
  const char *rows[] = {"......", "......"};
  fixture f;
  start(&f, rows, 2, STRATA_PATH_ASTAR);
  f.c.edit = f.m;
  CHECK(find(&f, 0, 1, 5, 1) == STRATA_EARG);
  CHECK(strstr(f.err.message, "changed") != NULL);
  f.c.again = f.m;
  CHECK(find(&f, 0, 1, 5, 1) == STRATA_OK);
  CHECK_EQ_INT(f.c.inner, STRATA_ESTATE);
  CHECK_EQ_INT(f.p.len, 6);
  finish(&f);
}

/* ---- occupancy ---- */

static uint64_t actor_at(strata_world *w, uint64_t map, int x, int y) {
  uint64_t a = 0;
  strata_error err;
  CHECK(strata_world_create(w, "actor", NULL, &a, &err) == STRATA_OK);
  CHECK(strata_object_set_position(w, a, map, x, y, &err) == STRATA_OK);
  return a;
}

static int occ(strata_world *w, uint64_t map, int x, int y) {
  return strata_tilemap_occupied(strata_world_tilemap(w, map), x, y);
}

/* w saved to a new file and opened again; NULL when either fails. */
static strata_world *reopen(strata_world *w) {
  char path[] = "/tmp/strata-searchcb-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return NULL;
  close(fd);
  unlink(path);
  strata_world *opened = NULL;
  strata_mod_version *mods = NULL;
  size_t n = 0;
  strata_error err;
  if (strata_world_save(w, path, NULL, 0, &err) == STRATA_OK &&
      strata_world_open(path, &opened, &mods, &n, &err) == STRATA_OK)
    strata_mod_versions_free(mods, n);
  unlink(path);
  return opened;
}

/* Placed, moved, deleted, rolled back, saved and opened: the counts follow. */
static void test_occupancy_kept(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t map, map2, item;
  CHECK(strata_world_create_map(w, 8, 4, NULL, &map, &err) == STRATA_OK);
  CHECK(strata_world_create_map(w, 8, 4, NULL, &map2, &err) == STRATA_OK);
  uint64_t a = actor_at(w, map, 1, 1), b = actor_at(w, map, 1, 1);
  CHECK_EQ_INT(occ(w, map, 1, 1), 2);
  CHECK_EQ_INT(occ(w, map, 2, 1), 0);
  CHECK_EQ_INT(strata_tilemap_occupied(strata_world_tilemap(w, map), -1, 0), 0);
  /* things other than actors hold no cell */
  CHECK(strata_world_create(w, "item", NULL, &item, &err) == STRATA_OK);
  CHECK(strata_object_set_position(w, item, map, 3, 3, &err) == STRATA_OK);
  CHECK_EQ_INT(occ(w, map, 3, 3), 0);
  /* a move on the map, to another map, a delete */
  CHECK(strata_object_set_position(w, a, map, 4, 2, &err) == STRATA_OK);
  CHECK_EQ_INT(occ(w, map, 1, 1), 1);
  CHECK_EQ_INT(occ(w, map, 4, 2), 1);
  CHECK(strata_object_set_position(w, b, map2, 1, 1, &err) == STRATA_OK);
  CHECK_EQ_INT(occ(w, map, 1, 1), 0);
  CHECK_EQ_INT(occ(w, map2, 1, 1), 1);
  CHECK(strata_world_delete(w, b, &err) == STRATA_OK);
  CHECK_EQ_INT(occ(w, map2, 1, 1), 0);
  /* a savepoint rolled back: moves, a new actor, a delete undone */
  CHECK(strata_world_begin(w, &err) == STRATA_OK);
  CHECK(strata_object_set_position(w, a, map, 5, 2, &err) == STRATA_OK);
  uint64_t c = actor_at(w, map, 6, 3);
  CHECK(strata_world_touch(w, map, &err) == STRATA_OK); /* the tiles journaled too */
  strata_tilemap *tm = strata_world_tilemap(w, map);
  CHECK(strata_tilemap_set(tm, 0, 0, strata_tokens_intern(strata_tilemap_tokens(tm), "floor", 5, &err), &err) == STRATA_OK);
  CHECK_EQ_INT(occ(w, map, 5, 2), 1);
  CHECK_EQ_INT(occ(w, map, 6, 3), 1);
  CHECK(strata_world_delete(w, a, &err) == STRATA_OK);
  CHECK_EQ_INT(occ(w, map, 5, 2), 0);
  CHECK(strata_world_rollback(w) == STRATA_OK);
  CHECK_EQ_INT(occ(w, map, 4, 2), 1);
  CHECK_EQ_INT(occ(w, map, 5, 2), 0);
  CHECK_EQ_INT(occ(w, map, 6, 3), 0);
  CHECK(strata_world_object(w, c) == NULL);
  /* saved and opened: rebuilt from the actors, not read from the file */
  strata_world *w2 = reopen(w);
  CHECK(w2 != NULL);
  if (w2) {
    CHECK_EQ_INT(occ(w2, map, 4, 2), 1);
    CHECK_EQ_INT(occ(w2, map, 1, 1), 0);
    CHECK_EQ_INT(occ(w2, map, 3, 3), 0);
    strata_world_free(w2);
  }
  /* a map given new tiles counts the actors already on it */
  strata_tilemap *fresh = strata_tilemap_new(8, 4, strata_world_tokens(w), &err);
  CHECK(strata_world_attach_tilemap(w, map, fresh, &err) == STRATA_OK);
  CHECK_EQ_INT(occ(w, map, 4, 2), 1);
  /* standalone maps have no actors */
  strata_tilemap *alone = strata_tilemap_new(3, 3, NULL, &err);
  CHECK_EQ_INT(strata_tilemap_occupied(alone, 1, 1), 0);
  strata_tilemap_free(alone);
  strata_world_free(w);
}

/* Searches block occupied cells, charge them, or ignore them (the
** default); the start and goal cells are never held against a route. */
static void test_occupancy_searches(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t map;
  CHECK(strata_world_create_map(w, 7, 3, NULL, &map, &err) == STRATA_OK);
  strata_tilemap *m = strata_world_tilemap(w, map);
  strata_token fl = strata_tokens_intern(strata_tilemap_tokens(m), "floor", 5, &err);
  strata_tilemap_clear(m, fl, &err);
  actor_at(w, map, 3, 1);
  actor_at(w, map, 0, 1); /* on the start */
  actor_at(w, map, 6, 1); /* on the goal */
  strata_path p;
  strata_path_init(&p);
  strata_grid_options o;
  strata_grid_options_init(&o);
  CHECK(strata_tilemap_find_path(m, 0, 1, 6, 1, &o, &p, &err) == STRATA_OK);
  CHECK_EQ_INT(p.len, 7);
  CHECK(on_path(&p, 7, 3, 1));
  o.occupied = STRATA_OCCUPIED_BLOCK;
  CHECK(strata_tilemap_find_path(m, 0, 1, 6, 1, &o, &p, &err) == STRATA_OK);
  CHECK_EQ_INT(p.len, 9);
  CHECK(!on_path(&p, 7, 3, 1));
  o.occupied = STRATA_OCCUPIED_COST, o.occupied_cost = 1; /* 1 more: a tie at best, 2 steps more round */
  CHECK(strata_tilemap_find_path(m, 0, 1, 6, 1, &o, &p, &err) == STRATA_OK);
  CHECK_NEAR(p.cost, 7, 1e-9);
  o.occupied_cost = 3;
  CHECK(strata_tilemap_find_path(m, 0, 1, 6, 1, &o, &p, &err) == STRATA_OK);
  CHECK_NEAR(p.cost, 8, 1e-9);
  CHECK(!on_path(&p, 7, 3, 1));
  /* a wall of actors: blocked, no route; ignored, straight through */
  actor_at(w, map, 3, 0);
  actor_at(w, map, 3, 2);
  o.occupied = STRATA_OCCUPIED_BLOCK;
  CHECK(strata_tilemap_find_path(m, 0, 1, 6, 1, &o, &p, &err) == STRATA_OK);
  CHECK_EQ_INT(p.len, 0);
  o.occupied = STRATA_OCCUPIED_COST, o.occupied_cost = 10;
  CHECK(strata_tilemap_find_path(m, 0, 1, 6, 1, &o, &p, &err) == STRATA_OK);
  CHECK_NEAR(p.cost, 16, 1e-9);
  strata_path_free(&p);
  strata_world_free(w);
}

/* An allocator that refuses while fail is set. */
typedef struct toggle { int fail; } toggle;
static void *t_malloc(void *ud, size_t n) { return ((toggle *)ud)->fail ? NULL : malloc(n); }
static void *t_realloc(void *ud, void *p, size_t n) { return ((toggle *)ud)->fail ? NULL : realloc(p, n); }
static void t_free(void *ud, void *p) { (void)ud; free(p); }

/* Out of memory, the count is lost (-1), a search that honours it fails
** rather than walking through actors, and the next move counts again. */
static void test_occupancy_lost(toggle *t) {
  enum { N = 40 };
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t map, a[N];
  CHECK(strata_world_create_map(w, N, 3, NULL, &map, &err) == STRATA_OK);
  strata_tilemap *m = strata_world_tilemap(w, map);
  strata_tilemap_clear(m, strata_tokens_intern(strata_tilemap_tokens(m), "floor", 5, &err), &err);
  actor_at(w, map, 0, 0);
  for (int i = 0; i < N; i++) CHECK(strata_world_create(w, "actor", NULL, &a[i], &err) == STRATA_OK);
  t->fail = 1;
  for (int i = 0; i < N; i++) CHECK(strata_object_set_position(w, a[i], map, i, 2, &err) == STRATA_OK);
  t->fail = 0;
  CHECK_EQ_INT(strata_tilemap_occupied(m, 0, 0), -1);
  strata_path p;
  strata_path_init(&p);
  strata_grid_options o;
  strata_grid_options_init(&o);
  o.occupied = STRATA_OCCUPIED_BLOCK;
  CHECK(strata_tilemap_find_path(m, 0, 1, N - 1, 1, &o, &p, &err) == STRATA_ENOMEM);
  CHECK(strata_object_set_position(w, a[0], map, 0, 1, &err) == STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_occupied(m, 0, 0), 1);
  CHECK_EQ_INT(strata_tilemap_occupied(m, 0, 1), 1);
  CHECK_EQ_INT(strata_tilemap_occupied(m, 0, 2), 0);
  for (int i = 1; i < N; i++) CHECK_EQ_INT(strata_tilemap_occupied(m, i, 2), 1);
  CHECK(strata_tilemap_find_path(m, 1, 1, N - 1, 1, &o, &p, &err) == STRATA_OK);
  CHECK_EQ_INT(p.len, N - 1);
  strata_path_free(&p);
  strata_world_free(w);
}

int main(void) {
  static toggle t;
  strata_allocator al = {t_malloc, t_realloc, t_free, &t};
  CHECK(strata_set_allocator(&al, NULL) == STRATA_OK);
  test_callback_wall();
  test_callback_costs();
  test_same_as_tokens();
  test_bad_answers();
  test_callback_misuse();
  test_occupancy_kept();
  test_occupancy_searches();
  test_occupancy_lost(&t);
  return check_summary("test_searchcb");
}
