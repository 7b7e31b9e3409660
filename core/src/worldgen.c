/*
** worldgen.c - making world templates: per floor, waypoints joined by
** hallways, rooms around the waypoints, the floor's two ends (start or
** ascent, descent or exit), and the pathfinder's word on whether the floor
** can be crossed; plus the rules every template obeys (validate).
**
** The hallway between two waypoints is a walk that mostly steps towards the
** target, keeps its direction for a while (so hallways run straight), and
** now and then wanders; a walk that runs out of steps stops where it is, as
** the reference generator's legs did. That is what can leave a floor
** impassable, and why the check exists: such a floor is made again from the
** next numbers of its stream.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/rng.h"
#include "strata/alloc.h"
#include "strata/tilemap.h"
#include "worldgen_internal.h"
#include "util.h"

static const char *const TILE_NAMES[STRATA_WG_TILE_KINDS] = {
    "wall", "hallway", "room", "start", "exit", "ascent", "descent"};
static const char TILE_GLYPHS[STRATA_WG_TILE_KINDS] = {'#', ',', '.', 'S', 'E', '<', '>'};

const char *strata_worldgen_tile_name(int tile) {
  return tile >= 0 && tile < STRATA_WG_TILE_KINDS ? TILE_NAMES[tile] : NULL;
}

char strata_worldgen_tile_glyph(int tile) {
  return tile >= 0 && tile < STRATA_WG_TILE_KINDS ? TILE_GLYPHS[tile] : 0;
}

int strata_worldgen_tile_parse(const char *name, size_t len) {
  for (int i = 0; i < STRATA_WG_TILE_KINDS; i++)
    if (strlen(TILE_NAMES[i]) == len && memcmp(TILE_NAMES[i], name, len) == 0) return i;
  return -1;
}

void strata_worldgen_options_init(strata_worldgen_options *o) {
  memset(o, 0, sizeof *o);
  o->dim_x = 25, o->dim_y = 25, o->dim_z = 3;
  o->room_variance = STRATA_WORLDGEN_ROOM_VARIANCE;
  o->path_alg = STRATA_PATH_ASTAR;
  o->post_check = 1;
  o->max_attempts = STRATA_WORLDGEN_ATTEMPTS;
}

/* ---- templates as data ---------------------------------------------------------- */

static strata_status check_dims(int x, int y, int z, strata_error *err) {
  if (x < 1 || y < 1 || z < 1)
    return strata_error_set(err, STRATA_EARG, "dims must be at least 1 each, got %dx%dx%d", x, y, z);
  if (x > STRATA_WORLDGEN_SIDE_MAX || y > STRATA_WORLDGEN_SIDE_MAX || z > STRATA_WORLDGEN_SIDE_MAX)
    return strata_error_set(err, STRATA_ELIMIT, "dims %dx%dx%d: each must be at most %d", x, y, z,
                            STRATA_WORLDGEN_SIDE_MAX);
  uint64_t cells = (uint64_t)x * (uint64_t)y * (uint64_t)z;
  if (cells > STRATA_WORLDGEN_CELLS_MAX)
    return strata_error_set(err, STRATA_ELIMIT, "dims %dx%dx%d: %llu cells, more than the %u allowed",
                            x, y, z, (unsigned long long)cells, STRATA_WORLDGEN_CELLS_MAX);
  return STRATA_OK;
}

void strata_worldgen_floor_clear(strata_worldgen_floor *f) {
  if (f == NULL) return;
  strata_free(f->tiles);
  strata_free(f->rooms);
  memset(f, 0, sizeof *f);
}

void strata_worldgen_free(strata_worldgen *t) {
  if (t == NULL) return;
  for (int z = 0; t->floors && z < t->dim_z; z++) strata_worldgen_floor_clear(&t->floors[z]);
  strata_free(t->floors);
  strata_free(t);
}

strata_worldgen *strata_worldgen_new(int dim_x, int dim_y, int dim_z, strata_error *err) {
  if (check_dims(dim_x, dim_y, dim_z, err) != STRATA_OK) return NULL;
  strata_worldgen *t = strata_calloc(1, sizeof *t);
  if (t == NULL) goto nomem;
  t->dim_x = dim_x, t->dim_y = dim_y, t->dim_z = dim_z;
  t->room_variance = STRATA_WORLDGEN_ROOM_VARIANCE;
  t->path_alg = STRATA_PATH_ASTAR;
  t->post_check = 1;
  t->floors = strata_calloc((size_t)dim_z, sizeof *t->floors);
  if (t->floors == NULL) goto nomem;
  for (int z = 0; z < dim_z; z++) {
    t->floors[z].tiles = strata_calloc((size_t)dim_x * (size_t)dim_y, 1); /* all STRATA_WG_WALL */
    if (t->floors[z].tiles == NULL) goto nomem;
    t->floors[z].attempts = 1;
  }
  return t;
nomem:
  strata_worldgen_free(t);
  strata_error_nomem(err, "for a %dx%dx%d world", dim_x, dim_y, dim_z);
  return NULL;
}

strata_status strata_worldgen_add_room(strata_worldgen_floor *f, strata_worldgen_room r,
                                       strata_error *err) {
  if (!STRATA_GROW(f->rooms, f->room_cap, f->room_count + 1)) return strata_error_nomem(err, "for rooms");
  f->rooms[f->room_count++] = r;
  return STRATA_OK;
}

static int is_point(strata_worldgen_point p) { return p.x != 0 || p.y != 0; }
static int same_point(strata_worldgen_point a, strata_worldgen_point b) {
  return a.x == b.x && a.y == b.y;
}

void wg_floor_ends(const strata_worldgen *t, int z, strata_worldgen_point *arrive, int *arrive_tile,
                   strata_worldgen_point *leave, int *leave_tile) {
  const strata_worldgen_floor *f = &t->floors[z - 1];
  *arrive = z == 1 ? f->start : f->ascent;
  *arrive_tile = z == 1 ? STRATA_WG_START : STRATA_WG_ASCENT;
  *leave = z == t->dim_z ? f->exit : f->descent;
  *leave_tile = z == t->dim_z ? STRATA_WG_EXIT : STRATA_WG_DESCENT;
}

strata_status wg_validate_header(const strata_worldgen *t, strata_error *err) {
  if (t == NULL) return strata_error_set(err, STRATA_EARG, "no template");
  strata_status st = check_dims(t->dim_x, t->dim_y, t->dim_z, err);
  if (st != STRATA_OK) return st;
  if (t->room_variance < 3)
    return strata_error_set(err, STRATA_EARG, "room_variance must be at least 3, got %d",
                            t->room_variance);
  if ((unsigned)t->path_alg > STRATA_PATH_GREEDY)
    return strata_error_set(err, STRATA_EARG, "path_alg: unknown algorithm %d", (int)t->path_alg);
  if (t->floors == NULL) return strata_error_set(err, STRATA_EARG, "the template has no floors");
  return STRATA_OK;
}

/* Checks one of the floor's points: present exactly when it should be, and inside. */
static strata_status check_point(const strata_worldgen *t, int z, const char *name,
                                 strata_worldgen_point p, int wanted, strata_error *err) {
  if (!wanted) {
    if (is_point(p))
      return strata_error_set(err, STRATA_EARG, "floor %d: no %s expected, found (%d, %d)", z, name,
                              p.x, p.y);
    return STRATA_OK;
  }
  if (!is_point(p)) return strata_error_set(err, STRATA_EARG, "floor %d: %s missing", z, name);
  if (p.x < 1 || p.x > t->dim_x || p.y < 1 || p.y > t->dim_y)
    return strata_error_set(err, STRATA_EARG, "floor %d: %s (%d, %d) is outside the %dx%d floor", z,
                            name, p.x, p.y, t->dim_x, t->dim_y);
  return STRATA_OK;
}

strata_status wg_validate_floor(const strata_worldgen *t, int z, strata_error *err) {
  const strata_worldgen_floor *f = &t->floors[z - 1];
  int last = z == t->dim_z;
  strata_status st;
  if ((st = check_point(t, z, "start", f->start, z == 1, err)) != STRATA_OK ||
      (st = check_point(t, z, "exit", f->exit, last, err)) != STRATA_OK ||
      (st = check_point(t, z, "ascent", f->ascent, z > 1, err)) != STRATA_OK ||
      (st = check_point(t, z, "descent", f->descent, !last, err)) != STRATA_OK)
    return st;
  if (z > 1 && !same_point(f->ascent, t->floors[z - 2].descent))
    return strata_error_set(err, STRATA_EARG,
                            "floor %d: ascent (%d, %d) is not under the descent (%d, %d) of floor %d",
                            z, f->ascent.x, f->ascent.y, t->floors[z - 2].descent.x,
                            t->floors[z - 2].descent.y, z - 1);
  if (f->attempts < 1)
    return strata_error_set(err, STRATA_EARG, "floor %d: attempts must be at least 1, got %d", z,
                            f->attempts);
  if (f->tiles == NULL) return strata_error_set(err, STRATA_EARG, "floor %d: has no tiles", z);
  strata_worldgen_point arrive, leave;
  int arrive_tile, leave_tile;
  wg_floor_ends(t, z, &arrive, &arrive_tile, &leave, &leave_tile);
  int one_cell = t->dim_x == 1 && t->dim_y == 1;
  if (same_point(arrive, leave) && !one_cell)
    return strata_error_set(err, STRATA_EARG, "floor %d: %s and %s share the cell (%d, %d)", z,
                            TILE_NAMES[arrive_tile], TILE_NAMES[leave_tile], arrive.x, arrive.y);
  /* Each point drawn on its tile (the leaving point's when they share the
  ** one cell of a 1x1 floor), and no other tile drawn as a point. */
  for (int y = 1; y <= t->dim_y; y++) {
    for (int x = 1; x <= t->dim_x; x++) {
      int tile = f->tiles[(size_t)(y - 1) * (size_t)t->dim_x + (size_t)(x - 1)];
      int want = -1;
      if (x == leave.x && y == leave.y) want = leave_tile;
      else if (x == arrive.x && y == arrive.y) want = arrive_tile;
      if (tile >= STRATA_WG_TILE_KINDS)
        return strata_error_set(err, STRATA_EARG, "floor %d: tile (%d, %d) is %d, not a tile kind", z,
                                x, y, tile);
      if (want >= 0 && tile != want)
        return strata_error_set(err, STRATA_EARG, "floor %d: the %s (%d, %d) is drawn as %s", z,
                                TILE_NAMES[want], x, y, TILE_NAMES[tile]);
      if (want < 0 && tile >= STRATA_WG_START)
        return strata_error_set(err, STRATA_EARG, "floor %d: tile (%d, %d) is drawn as %s, but the floor's %s is at (%d, %d)",
                                z, x, y, TILE_NAMES[tile], TILE_NAMES[tile],
                                tile == arrive_tile ? arrive.x : tile == leave_tile ? leave.x : 0,
                                tile == arrive_tile ? arrive.y : tile == leave_tile ? leave.y : 0);
    }
  }
  for (size_t i = 0; i < f->room_count; i++) {
    strata_worldgen_room r = f->rooms[i];
    if (r.w < 3 || r.h < 3 || r.w > t->room_variance || r.h > t->room_variance)
      return strata_error_set(err, STRATA_EARG,
                              "floor %d: room %zu is %dx%d; sides must lie in 3 .. %d (room_variance)",
                              z, i + 1, r.w, r.h, t->room_variance);
    if (r.x < 1 || r.y < 1 || r.x > t->dim_x - r.w + 1 || r.y > t->dim_y - r.h + 1)
      return strata_error_set(err, STRATA_EARG,
                              "floor %d: room %zu (%d, %d) %dx%d does not lie inside the %dx%d floor",
                              z, i + 1, r.x, r.y, r.w, r.h, t->dim_x, t->dim_y);
  }
  return STRATA_OK;
}

strata_status strata_worldgen_validate(const strata_worldgen *t, strata_error *err) {
  strata_status st = wg_validate_header(t, err);
  for (int z = 1; st == STRATA_OK && z <= t->dim_z; z++) st = wg_validate_floor(t, z, err);
  return st;
}

/* ---- the check: the pathfinder over a scratch tile map ---------------------------- */

typedef struct checker {
  strata_tilemap *map;
  strata_token wall, floor;
  strata_path path;
} checker;

static void checker_free(checker *c) {
  strata_tilemap_free(c->map);
  strata_path_free(&c->path);
  c->map = NULL;
}

static strata_status checker_init(checker *c, int w, int h, strata_error *err) {
  memset(c, 0, sizeof *c);
  strata_path_init(&c->path);
  c->map = strata_tilemap_new(w, h, NULL, err);
  if (c->map == NULL) return err ? err->status : STRATA_ENOMEM;
  strata_tokens *tokens = strata_tilemap_tokens(c->map);
  strata_token_traits traits;
  strata_tokens_default_traits("wall", 4, &traits);
  traits.passable = 0;
  traits.opaque = 1;
  if (strata_tokens_define(tokens, "wall", 4, &traits, err) != STRATA_OK) goto fail;
  c->wall = strata_tokens_intern(tokens, "wall", 4, err);
  c->floor = strata_tokens_intern(tokens, "floor", 5, err);
  if (c->wall == 0 || c->floor == 0) goto fail;
  return STRATA_OK;
fail:
  checker_free(c);
  return err ? err->status : STRATA_ENOMEM;
}

/* Copies the tiles into the scratch map (walls and floor, a run of each at a
** time) and searches from a to b. */
static strata_status checker_run(checker *c, const unsigned char *tiles, int w, int h,
                                 strata_worldgen_point a, strata_worldgen_point b,
                                 strata_path_algorithm alg, int *passable, strata_error *err) {
  for (int y = 0; y < h; y++) {
    const unsigned char *row = tiles + (size_t)y * (size_t)w;
    int x = 0;
    while (x < w) {
      int open = row[x] != STRATA_WG_WALL, end = x + 1;
      while (end < w && (row[end] != STRATA_WG_WALL) == open) end++;
      strata_tilemap_fill_rect(c->map, x, y, end - x, 1, open ? c->floor : c->wall, 0, NULL);
      x = end;
    }
  }
  strata_grid_options go;
  strata_grid_options_init(&go);
  go.algorithm = alg;
  go.connectivity = 4;
  strata_status st = strata_tilemap_find_path(c->map, a.x - 1, a.y - 1, b.x - 1, b.y - 1, &go,
                                              &c->path, err);
  if (st == STRATA_OK) *passable = c->path.len > 0;
  return st;
}

strata_status strata_worldgen_passable(const strata_worldgen *t, int z, strata_path_algorithm alg,
                                       int *passable, strata_error *err) {
  strata_status st = wg_validate_header(t, err);
  if (st != STRATA_OK) return st;
  if (z < 1 || z > t->dim_z)
    return strata_error_set(err, STRATA_EARG, "no floor %d: the world has floors 1 .. %d", z, t->dim_z);
  if ((unsigned)alg > STRATA_PATH_GREEDY)
    return strata_error_set(err, STRATA_EARG, "path_alg: unknown algorithm %d", (int)alg);
  if ((st = wg_validate_floor(t, z, err)) != STRATA_OK) return st;
  strata_worldgen_point a, b;
  int at, bt;
  wg_floor_ends(t, z, &a, &at, &b, &bt);
  checker c;
  if ((st = checker_init(&c, t->dim_x, t->dim_y, err)) != STRATA_OK) return st;
  st = checker_run(&c, t->floors[z - 1].tiles, t->dim_x, t->dim_y, a, b, alg, passable, err);
  checker_free(&c);
  return st;
}

/* ---- generation -------------------------------------------------------------------- */

typedef struct gen {
  const strata_worldgen_options *o;
  int w, h;
  checker check; /* made on the first floor that is checked */
  int have_check;
  strata_worldgen_point *way; /* arrival, waypoints, leaving: the order hallways join them */
  size_t way_cap;
  /* The nearest-waypoint search: buckets of waypoints not yet visited. */
  int *head, *next, *prev;
  strata_worldgen_point *drawn;
  size_t head_cap, node_cap;
  strata_error *err;
} gen;

/* Sends a message to the log callback; nonzero when it asked to stop. */
static int say(gen *g, int level, int floor, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int say(gen *g, int level, int floor, const char *fmt, ...) {
  if (g->o->log == NULL) return 0;
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return g->o->log(g->o->log_ud, level, floor, msg);
}

static strata_status stopped(gen *g) {
  return strata_error_set(g->err, STRATA_ESTATE, "stopped by the log callback");
}

static strata_status check_options(const strata_worldgen_options *o, strata_error *err) {
  strata_status st = check_dims(o->dim_x, o->dim_y, o->dim_z, err);
  if (st != STRATA_OK) return st;
  if (o->room_variance < 3)
    return strata_error_set(err, STRATA_EARG, "room_variance must be at least 3, got %d",
                            o->room_variance);
  if ((unsigned)o->path_alg > STRATA_PATH_GREEDY)
    return strata_error_set(err, STRATA_EARG, "path_alg: unknown algorithm %d", (int)o->path_alg);
  if (o->max_attempts < 1)
    return strata_error_set(err, STRATA_EARG, "max_attempts must be at least 1, got %d",
                            o->max_attempts);
  if (o->leg_steps < 0)
    return strata_error_set(err, STRATA_EARG, "leg_steps must not be negative, got %d", o->leg_steps);
  return STRATA_OK;
}

static strata_worldgen_point random_cell(strata_rng *r, int w, int h) {
  strata_worldgen_point p;
  p.x = 1 + (int)strata_rng_below(r, (uint64_t)w);
  p.y = 1 + (int)strata_rng_below(r, (uint64_t)h);
  return p;
}

/* A floor's leaving point: a cell of its own stream, drawn again while it is
** the floor's arrival point (unless the floor has only that one cell). */
static strata_worldgen_point leaving_point(const strata_worldgen_options *o, int z,
                                           strata_worldgen_point arrive) {
  char key[48];
  int n = z == o->dim_z ? snprintf(key, sizeof key, "worldgen exit")
                        : snprintf(key, sizeof key, "worldgen stairs %d", z);
  strata_rng r;
  strata_rng_stream(&r, (uint64_t)o->seed, key, (size_t)n);
  strata_worldgen_point p = random_cell(&r, o->dim_x, o->dim_y);
  while (same_point(p, arrive) && (o->dim_x > 1 || o->dim_y > 1)) p = random_cell(&r, o->dim_x, o->dim_y);
  return p;
}

static strata_worldgen_point start_point(const strata_worldgen_options *o) {
  strata_rng r;
  strata_rng_stream(&r, (uint64_t)o->seed, "worldgen start", 14);
  return random_cell(&r, o->dim_x, o->dim_y);
}

static const int DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0}; /* north, east, south, west */

/* Percentages of a hallway step: a random direction, else the direction of
** the last step while it still leads closer, else towards the target along
** an axis chosen in proportion to the distance left on it. */
#define WANDER 12
#define KEEP 60

/* Walks a hallway from a towards b, turning walls into hallway. Returns
** whether it arrived; *steps gets the steps taken. */
static int hallway(gen *g, strata_rng *r, unsigned char *tiles, strata_worldgen_point a,
                   strata_worldgen_point b, long *steps) {
  int w = g->w, h = g->h, x = a.x, y = a.y, prev = -1;
  long dist = labs((long)b.x - a.x) + labs((long)b.y - a.y);
  long limit = g->o->leg_steps > 0 ? g->o->leg_steps : 3 * dist + 16;
  unsigned char *cell = &tiles[(size_t)(y - 1) * (size_t)w + (size_t)(x - 1)];
  if (*cell == STRATA_WG_WALL) *cell = STRATA_WG_HALLWAY;
  long s = 0;
  for (; (x != b.x || y != b.y) && s < limit; s++) {
    int dx = b.x - x, dy = b.y - y, d;
    uint32_t roll = (uint32_t)strata_rng_below(r, 100);
    if (roll < WANDER) {
      d = (int)strata_rng_below(r, 4);
    } else if (prev >= 0 && roll < WANDER + KEEP && (DX[prev] * dx > 0 || DY[prev] * dy > 0)) {
      d = prev;
    } else {
      uint64_t ax = (uint64_t)abs(dx), ay = (uint64_t)abs(dy);
      if (strata_rng_below(r, ax + ay) < ax) d = dx > 0 ? 1 : 3;
      else d = dy > 0 ? 2 : 0;
    }
    int nx = x + DX[d], ny = y + DY[d];
    if (nx < 1 || nx > w || ny < 1 || ny > h) continue; /* into the edge: a step lost */
    x = nx, y = ny, prev = d;
    cell = &tiles[(size_t)(y - 1) * (size_t)w + (size_t)(x - 1)];
    if (*cell == STRATA_WG_WALL) *cell = STRATA_WG_HALLWAY;
  }
  *steps = s;
  return x == b.x && y == b.y;
}

/* Orders the waypoints way[1 .. n] (way[0] is the arrival point) by nearest
** neighbour from the arrival (Manhattan distance, the earlier drawn on a
** tie), so that hallways join rooms that lie close together instead of
** crossing the floor at every leg. The waypoints wait in square buckets of
** about one waypoint each; a search looks at rings of buckets around the
** current point until no nearer waypoint can lie further out, which keeps
** it near O(1) per step where a plain scan would be O(n). */
static strata_status order_waypoints(gen *g, strata_worldgen_point *way, size_t n) {
  if (n < 2) return STRATA_OK;
  int w = g->w, h = g->h;
  int side = (int)sqrt((double)w * (double)h / (double)n);
  if (side < 1) side = 1;
  int bw = (w + side - 1) / side, bh = (h + side - 1) / side;
  size_t buckets = (size_t)bw * (size_t)bh;
  if (buckets > g->head_cap) {
    int *head = strata_realloc(g->head, buckets * sizeof *head);
    if (head == NULL) return strata_error_nomem(g->err, "for waypoints");
    g->head = head, g->head_cap = buckets;
  }
  if (n > g->node_cap) {
    int *next = strata_realloc(g->next, n * sizeof *next);
    if (next) g->next = next;
    int *prev = next ? strata_realloc(g->prev, n * sizeof *prev) : NULL;
    if (prev) g->prev = prev;
    strata_worldgen_point *drawn = prev ? strata_realloc(g->drawn, n * sizeof *drawn) : NULL;
    if (drawn == NULL) return strata_error_nomem(g->err, "for waypoints");
    g->drawn = drawn, g->node_cap = n;
  }
  for (size_t b = 0; b < buckets; b++) g->head[b] = -1;
  for (size_t k = n; k-- > 0;) { /* backwards, so that each bucket lists its waypoints in order */
    strata_worldgen_point p = g->drawn[k] = way[k + 1];
    int b = (p.y - 1) / side * bw + (p.x - 1) / side;
    g->prev[k] = -1, g->next[k] = g->head[b];
    if (g->head[b] >= 0) g->prev[g->head[b]] = (int)k;
    g->head[b] = (int)k;
  }
  strata_worldgen_point cur = way[0];
  for (size_t k = 1; k <= n; k++) {
    int cx = (cur.x - 1) / side, cy = (cur.y - 1) / side, best = -1;
    long best_d = 0;
    for (int r = 0;; r++) {
      if (best >= 0 && (long)(r - 1) * side + 1 > best_d) break; /* every bucket further out is further */
      if (cx - r < 0 && cy - r < 0 && cx + r >= bw && cy + r >= bh) break;
      int y0 = cy - r < 0 ? 0 : cy - r, y1 = cy + r >= bh ? bh - 1 : cy + r;
      int x0 = cx - r < 0 ? 0 : cx - r, x1 = cx + r >= bw ? bw - 1 : cx + r;
      for (int by = y0; by <= y1; by++) {
        /* the ring: whole rows at its top and bottom, two columns between */
        int edge = by == cy - r || by == cy + r;
        for (int bx = x0; bx <= x1; bx = edge || bx >= cx + r ? bx + 1 : cx + r) {
          if (!edge && bx != cx - r && bx != cx + r) continue;
          for (int i = g->head[by * bw + bx]; i >= 0; i = g->next[i]) {
            long d = labs((long)g->drawn[i].x - cur.x) + labs((long)g->drawn[i].y - cur.y);
            if (best < 0 || d < best_d || (d == best_d && i < best)) best = i, best_d = d;
          }
        }
      }
    }
    /* best leaves its bucket and becomes the next stop */
    strata_worldgen_point p = g->drawn[best];
    int b = (p.y - 1) / side * bw + (p.x - 1) / side;
    if (g->prev[best] >= 0) g->next[g->prev[best]] = g->next[best];
    else g->head[b] = g->next[best];
    if (g->next[best] >= 0) g->prev[g->next[best]] = g->prev[best];
    way[k] = cur = p;
  }
  return STRATA_OK;
}

/* One generation of floor z into f (tiles allocated, rooms emptied). */
static strata_status draw_floor(gen *g, strata_rng *r, int z, strata_worldgen_floor *f,
                                strata_worldgen_point arrive, int arrive_tile,
                                strata_worldgen_point leave, int leave_tile, int attempt) {
  int w = g->w, h = g->h;
  size_t n = ((size_t)w + (size_t)h) / 4; /* waypoints, as the reference generator had them */
  memset(f->tiles, STRATA_WG_WALL, (size_t)w * (size_t)h);
  f->room_count = 0;
  if (n + 2 > g->way_cap) {
    strata_worldgen_point *way = strata_realloc(g->way, (n + 2) * sizeof *way);
    if (way == NULL) return strata_error_nomem(g->err, "for waypoints");
    g->way = way, g->way_cap = n + 2;
  }
  strata_worldgen_point *way = g->way;
  way[0] = arrive;
  /* Rooms: sides of 3 .. room_variance (at most the floor's), placed so that
  ** the room holds its waypoint and lies inside the floor. Floors narrower
  ** than 3 have none. */
  int wmax = g->o->room_variance < w ? g->o->room_variance : w;
  int hmax = g->o->room_variance < h ? g->o->room_variance : h;
  for (size_t i = 1; i <= n; i++) {
    strata_worldgen_point p = random_cell(r, w, h);
    way[i] = p;
    if (w < 3 || h < 3) continue;
    strata_worldgen_room room;
    room.w = (int)strata_rng_int(r, 3, wmax);
    room.h = (int)strata_rng_int(r, 3, hmax);
    room.x = p.x - (int)strata_rng_below(r, (uint64_t)room.w);
    room.y = p.y - (int)strata_rng_below(r, (uint64_t)room.h);
    if (room.x < 1) room.x = 1;
    if (room.x > w - room.w + 1) room.x = w - room.w + 1;
    if (room.y < 1) room.y = 1;
    if (room.y > h - room.h + 1) room.y = h - room.h + 1;
    strata_status st = strata_worldgen_add_room(f, room, g->err);
    if (st != STRATA_OK) return st;
    for (int y = room.y; y < room.y + room.h; y++)
      memset(&f->tiles[(size_t)(y - 1) * (size_t)w + (size_t)(room.x - 1)], STRATA_WG_ROOM,
             (size_t)room.w);
  }
  way[n + 1] = leave;
  strata_status ost = order_waypoints(g, way, n);
  if (ost != STRATA_OK) return ost;
  if (say(g, 2, z, "floor %d attempt %d: %zu waypoints, %zu rooms", z, attempt, n, f->room_count))
    return stopped(g);
  size_t short_legs = 0;
  for (size_t i = 0; i <= n; i++) {
    long steps;
    int arrived = hallway(g, r, f->tiles, way[i], way[i + 1], &steps);
    short_legs += !arrived;
    if (g->o->log && say(g, 2, z, "  hallway (%d, %d) -> (%d, %d): %ld steps%s", way[i].x, way[i].y,
                         way[i + 1].x, way[i + 1].y, steps, arrived ? "" : ", cut short"))
      return stopped(g);
  }
  if (short_legs && say(g, 2, z, "floor %d attempt %d: %zu of %zu hallways cut short", z, attempt,
                        short_legs, n + 1))
    return stopped(g);
  /* The ends last: the leaving point's tile wins on a floor of one cell. */
  f->tiles[(size_t)(arrive.y - 1) * (size_t)w + (size_t)(arrive.x - 1)] = (unsigned char)arrive_tile;
  f->tiles[(size_t)(leave.y - 1) * (size_t)w + (size_t)(leave.x - 1)] = (unsigned char)leave_tile;
  return STRATA_OK;
}

/* Floor z, whose arrival point is given, into f (overwritten). */
static strata_status make_floor(gen *g, int z, strata_worldgen_point arrive,
                                strata_worldgen_floor *f) {
  const strata_worldgen_options *o = g->o;
  memset(f, 0, sizeof *f);
  f->tiles = strata_malloc((size_t)g->w * (size_t)g->h);
  if (f->tiles == NULL) return strata_error_nomem(g->err, "for floor %d", z);
  int last = z == o->dim_z;
  strata_worldgen_point leave = leaving_point(o, z, arrive);
  int arrive_tile = z == 1 ? STRATA_WG_START : STRATA_WG_ASCENT;
  int leave_tile = last ? STRATA_WG_EXIT : STRATA_WG_DESCENT;
  if (z == 1) f->start = arrive; else f->ascent = arrive;
  if (last) f->exit = leave; else f->descent = leave;

  char key[48];
  int klen = snprintf(key, sizeof key, "worldgen floor %d", z);
  strata_rng r;
  strata_rng_stream(&r, (uint64_t)o->seed, key, (size_t)klen);
  strata_status st = STRATA_OK;
  const char *alg = strata_path_algorithm_name(o->path_alg);
  for (int attempt = 1;; attempt++) {
    f->attempts = attempt;
    if ((st = draw_floor(g, &r, z, f, arrive, arrive_tile, leave, leave_tile, attempt)) != STRATA_OK)
      break;
    if (!o->post_check) break;
    if (!g->have_check) {
      if ((st = checker_init(&g->check, g->w, g->h, g->err)) != STRATA_OK) break;
      g->have_check = 1;
    }
    int passable = 0;
    if ((st = checker_run(&g->check, f->tiles, g->w, g->h, arrive, leave, o->path_alg, &passable,
                          g->err)) != STRATA_OK)
      break;
    if (passable) break;
    if (say(g, 2, z, "floor %d attempt %d: no way from %s (%d, %d) to %s (%d, %d) (%s): again", z,
            attempt, TILE_NAMES[arrive_tile], arrive.x, arrive.y, TILE_NAMES[leave_tile], leave.x,
            leave.y, alg)) {
      st = stopped(g);
      break;
    }
    if (attempt >= o->max_attempts) {
      st = strata_error_set(g->err, STRATA_ELIMIT,
                            "floor %d is not passable from its %s (%d, %d) to its %s (%d, %d) "
                            "after %d attempts",
                            z, TILE_NAMES[arrive_tile], arrive.x, arrive.y, TILE_NAMES[leave_tile],
                            leave.x, leave.y, o->max_attempts);
      break;
    }
  }
  if (st != STRATA_OK) {
    strata_worldgen_floor_clear(f);
    return st;
  }
  if (say(g, 1, z, "floor %d of %d: %zu rooms, %s after %d attempt%s", z, o->dim_z, f->room_count,
          o->post_check ? "passable" : "not checked", f->attempts, f->attempts == 1 ? "" : "s")) {
    strata_worldgen_floor_clear(f);
    return stopped(g);
  }
  return STRATA_OK;
}

static void gen_init(gen *g, const strata_worldgen_options *o, strata_error *err) {
  memset(g, 0, sizeof *g);
  g->o = o, g->w = o->dim_x, g->h = o->dim_y, g->err = err;
}

static void gen_free(gen *g) {
  if (g->have_check) checker_free(&g->check);
  strata_free(g->way);
  strata_free(g->head), strata_free(g->next), strata_free(g->prev), strata_free(g->drawn);
}

/* rand's dims come from a stream of their own, so that the floors are those
** of the same dims given. */
void strata_worldgen_resolve(strata_worldgen_options *o) {
  if (!o->rand) return;
  strata_rng r;
  strata_rng_stream(&r, (uint64_t)o->seed, "worldgen dims", 13);
  int span = STRATA_WORLDGEN_RAND_SIDE_MAX - STRATA_WORLDGEN_RAND_SIDE_MIN + 1;
  o->dim_x = STRATA_WORLDGEN_RAND_SIDE_MIN + (int)strata_rng_below(&r, (uint64_t)span);
  o->dim_y = STRATA_WORLDGEN_RAND_SIDE_MIN + (int)strata_rng_below(&r, (uint64_t)span);
  o->dim_z = 1 + (int)strata_rng_below(&r, STRATA_WORLDGEN_RAND_FLOORS_MAX);
  o->rand = 0;
}

static strata_worldgen_options resolved(const strata_worldgen_options *given) {
  strata_worldgen_options o = *given;
  strata_worldgen_resolve(&o);
  return o;
}

strata_status strata_worldgen_generate(const strata_worldgen_options *given, strata_worldgen **out,
                                       strata_error *err) {
  strata_worldgen_options dims = resolved(given);
  const strata_worldgen_options *o = &dims;
  strata_status st = check_options(o, err);
  if (st != STRATA_OK) return st;
  strata_worldgen *t = strata_calloc(1, sizeof *t);
  if (t == NULL) return strata_error_nomem(err, "for a world");
  t->dim_x = o->dim_x, t->dim_y = o->dim_y, t->dim_z = 0; /* floors counted as they are made */
  t->seed = o->seed, t->room_variance = o->room_variance;
  t->path_alg = o->path_alg, t->post_check = o->post_check != 0;
  t->floors = strata_calloc((size_t)o->dim_z, sizeof *t->floors);
  if (t->floors == NULL) {
    strata_free(t);
    return strata_error_nomem(err, "for %d floors", o->dim_z);
  }
  gen g;
  gen_init(&g, o, err);
  strata_worldgen_point arrive = start_point(o);
  for (int z = 1; z <= o->dim_z; z++) {
    if ((st = make_floor(&g, z, arrive, &t->floors[z - 1])) != STRATA_OK) break;
    t->dim_z = z;
    arrive = t->floors[z - 1].descent;
  }
  gen_free(&g);
  if (st != STRATA_OK) {
    strata_worldgen_free(t);
    return st;
  }
  *out = t;
  return STRATA_OK;
}

strata_status strata_worldgen_make_floor(const strata_worldgen_options *given, int z,
                                         strata_worldgen_floor *out, strata_error *err) {
  strata_worldgen_options dims = resolved(given);
  const strata_worldgen_options *o = &dims;
  memset(out, 0, sizeof *out);
  strata_status st = check_options(o, err);
  if (st != STRATA_OK) return st;
  if (z < 1 || z > o->dim_z)
    return strata_error_set(err, STRATA_EARG, "no floor %d: dims give floors 1 .. %d", z, o->dim_z);
  /* The arrival point is the floor above's leaving point: follow the chain. */
  strata_worldgen_point arrive = start_point(o);
  for (int k = 1; k < z; k++) arrive = leaving_point(o, k, arrive);
  gen g;
  gen_init(&g, o, err);
  st = make_floor(&g, z, arrive, out);
  gen_free(&g);
  return st;
}
