/* test_alloc.c - the allocator hook (strata/alloc.h): set before anything
** else, it sees every block strata allocates, all of them freed again (maps,
** tile paths, pictures, layouts, XY maps, worldgen, a world with areas, a
** save and an open); made to fail the Nth allocation, each of those returns
** STRATA_ENOMEM and leaks nothing; once strata has allocated, another
** allocator is refused. The counts are the allocator's own, so a leak shows
** here without ASan (which runs this test too). */
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "area_fixture.h"
#include "check.h"

/* A 16-byte header before each block holds its size. */
typedef struct counter {
  atomic_long live, bytes, seen; /* blocks, bytes outstanding; allocations made */
  long fail_at;                  /* the allocation (from 1 in `seen`) that fails; 0: none */
} counter;

enum { HEADER = 16 };

static int fail_now(counter *c) {
  return atomic_fetch_add(&c->seen, 1) + 1 == c->fail_at;
}

static void *count_malloc(void *ud, size_t size) {
  counter *c = ud;
  if (fail_now(c)) return NULL;
  char *p = malloc(HEADER + size);
  if (!p) return NULL;
  *(size_t *)p = size;
  atomic_fetch_add(&c->live, 1);
  atomic_fetch_add(&c->bytes, (long)size);
  return p + HEADER;
}

static void *count_realloc(void *ud, void *ptr, size_t size) {
  counter *c = ud;
  if (!ptr) return count_malloc(ud, size);
  if (fail_now(c)) return NULL;
  char *h = (char *)ptr - HEADER;
  size_t old = *(size_t *)h;
  char *p = realloc(h, HEADER + size);
  if (!p) return NULL;
  *(size_t *)p = size;
  atomic_fetch_add(&c->bytes, (long)size - (long)old);
  return p + HEADER;
}

static void count_free(void *ud, void *ptr) {
  counter *c = ud;
  if (!ptr) return;
  char *h = (char *)ptr - HEADER;
  atomic_fetch_sub(&c->live, 1);
  atomic_fetch_sub(&c->bytes, (long)*(size_t *)h);
  free(h);
}

static void *never_malloc(void *ud, size_t size) { (void)ud, (void)size; return NULL; }
static void *never_realloc(void *ud, void *p, size_t size) { (void)ud, (void)p, (void)size; return NULL; }
static void never_free(void *ud, void *p) { (void)ud, (void)p; }

static counter count;
static strata_registry *reg;
static char dir[64];

/* ---- the workloads: each frees all it made, and answers the first failure ---- */

#define STEP(x) do { if ((st = (x)) != STRATA_OK) goto done; } while (0)
#define MADE(p) do { if (!(p)) { st = err->status; goto done; } } while (0)

static strata_status op_map(strata_error *err) {
  strata_status st = STRATA_OK;
  char *text = NULL, *svg = NULL;
  unsigned char *png = NULL;
  size_t len;
  strata_path path;
  strata_path_init(&path);
  strata_tilemap *m = strata_tilemap_new(24, 12, NULL, err);
  MADE(m);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token floor = strata_tokens_intern(t, "floor", 5, err), wall;
  MADE(floor);
  wall = strata_tokens_intern(t, "wall", 4, err);
  MADE(wall);
  STEP(strata_tokens_define(t, "wall", 4, &(strata_token_traits){ 0, 1, "#", "", 0 }, err));
  STEP(strata_tilemap_clear(m, floor, err));
  for (int y = 0; y < 10; y++) STEP(strata_tilemap_set(m, 12, y, wall, err));
  STEP(strata_tilemap_set(m, 3, 3, wall, err)); /* a stack of two */
  STEP(strata_tilemap_find_path(m, 0, 0, 23, 0, NULL, &path, err));
  if (path.len == 0) { st = strata_error_set(err, STRATA_ESTATE, "no path"); goto done; }
  STEP(strata_tilemap_render(m, NULL, &text, &len, err));
  STEP(strata_tilemap_svg(m, &(strata_picture_options){ 4, &path }, &svg, &len, err));
  STEP(strata_tilemap_png(m, NULL, &png, &len, err));
done:
  strata_free(text);
  strata_free(svg);
  strata_free(png);
  strata_path_free(&path);
  strata_tilemap_free(m);
  return st;
}

static strata_status op_layout(strata_error *err) {
  static const char src[] =
    "{ Reset(\"wall\")\n"
    "  Place(minSize = {3 3} maxSize = {5 4} count = {2 3} generator = Margins(1, None, Reset(\"floor\")))\n"
    "  Connect(On(\"floor\"), (1, On(\"floor\"), None), (4, On(\"wall\"), Reset(\"floor\"))) }";
  strata_status st = STRATA_OK;
  strata_tilemap *m = NULL;
  strata_layout_file *f = strata_layout_parse_generator(src, sizeof src - 1, "rooms", err);
  MADE(f);
  m = strata_tilemap_new(20, 12, NULL, err);
  MADE(m);
  strata_rng rng;
  strata_rng_seed(&rng, 3);
  strata_layout_result res;
  STEP(strata_layout_run(strata_layout_at(f, 0), m, &rng, &res, NULL, 0, err));
done:
  strata_tilemap_free(m);
  strata_layout_file_free(f);
  return st;
}

static strata_status op_xymap(strata_error *err) {
  static const char src[] = "+ 0 1 2\n\n2 #-#-#\n     /\n1 #-#\n  |  \\\n0 #---#\n\n+ 0 1 2\n";
  strata_status st = STRATA_OK;
  char *text = NULL, *svg = NULL;
  size_t len;
  strata_xy_route r;
  memset(&r, 0, sizeof r);
  strata_xymap *m = strata_xymap_parse(src, sizeof src - 1, "t", NULL, 0, err);
  MADE(m);
  STEP(strata_xymap_shortest_path(m, 0, 6, &r, err));
  STEP(strata_xymap_display(m, &text, &len, err));
  STEP(strata_xymap_svg(m, &r, NULL, &svg, &len, err));
done:
  strata_free(text);
  strata_free(svg);
  strata_xy_route_free(&r);
  strata_xymap_free(m);
  return st;
}

static strata_status op_worldgen(strata_error *err) {
  strata_status st = STRATA_OK;
  strata_worldgen *t = NULL, *again = NULL;
  char *text = NULL, *drawn = NULL;
  size_t len, dlen;
  strata_worldgen_options o;
  strata_worldgen_options_init(&o);
  o.dim_x = 2, o.dim_y = 2, o.dim_z = 2, o.seed = 9;
  STEP(strata_worldgen_generate(&o, &t, err));
  STEP(strata_worldgen_format(t, &text, &len, err));
  STEP(strata_worldgen_parse(text, len, "again", &again, err));
  STEP(strata_worldgen_render(again, 0, &drawn, &dlen, err));
done:
  strata_free(text);
  strata_free(drawn);
  strata_worldgen_free(t);
  strata_worldgen_free(again);
  return st;
}

/* A world with areas, travelled, run for a while, saved and opened again. */
static strata_status op_world(strata_error *err) {
  static int run;
  char path[128];
  snprintf(path, sizeof path, "%s/w%d.db", dir, run++);
  strata_status st = STRATA_OK;
  strata_runtime *rt = NULL;
  strata_world *opened = NULL;
  strata_mod_version *mods = NULL;
  size_t nmods = 0;
  strata_failures fails = { NULL, 0, 0 };
  strata_world *w = strata_world_new(5, err);
  MADE(w);
  rt = strata_runtime_new(w, strata_registry_resolver(reg), err);
  MADE(rt);
  uint64_t hero, cave, f1, down = 0, f2;
  STEP(strata_world_create(w, "actor", NULL, &hero, err));
  STEP(strata_set_player(rt, hero, err));
  STEP(strata_area_create(rt, "dungeon.cave", NULL, &cave, err));
  STEP(strata_area_floor(rt, cave, 1, &f1, err));
  STEP(strata_travel(rt, hero, f1, NULL, NULL, err));
  uint64_t list[16];
  size_t n = strata_map_objects(rt, f1, "feature", list, 16);
  for (size_t i = 0; i < n && i < 16; i++)
    if (strata_feature_floor_delta(rt, list[i]) == 1) down = list[i];
  STEP(strata_travel(rt, hero, down, NULL, &f2, err));
  strata_value arg = fx_str("arg");
  st = strata_world_schedule(w, 5, 5, "dungeon.noop", &arg, NULL, err);
  strata_value_clear(&arg);
  if (st) goto done;
  STEP(strata_advance(rt, 30, &fails, err));
  STEP(strata_world_save(w, path, NULL, 0, err));
  STEP(strata_world_open(path, &opened, &mods, &nmods, err));
done:
  strata_failures_clear(&fails);
  strata_mod_versions_free(mods, nmods);
  strata_world_free(opened);
  strata_runtime_free(rt);
  strata_world_free(w);
  unlink(path);
  return st;
}

typedef struct op {
  const char *name;
  strata_status (*fn)(strata_error *);
} op;

static const op ops[] = {
  { "map", op_map }, { "layout", op_layout }, { "xymap", op_xymap },
  { "worldgen", op_worldgen }, { "world", op_world },
};

/* Every block an operation made is freed when it ends. */
static void check_freed(const char *name, long k) {
  if (atomic_load(&count.live) != 0 || atomic_load(&count.bytes) != 0)
    fprintf(stderr, "%s (allocation %ld failing): %ld blocks, %ld bytes left\n", name, k,
            atomic_load(&count.live), atomic_load(&count.bytes));
  CHECK_EQ_INT(atomic_load(&count.live), 0);
  CHECK_EQ_INT(atomic_load(&count.bytes), 0);
}

/* The allocations of a clean run, then each failing in turn: all of them up to
** 300, then about 300 more spread over the rest. */
static void sweep(const op *o) {
  strata_error err;
  count.fail_at = 0;
  atomic_store(&count.seen, 0);
  strata_status st = o->fn(&err);
  if (st) fprintf(stderr, "%s: %s\n", o->name, err.message);
  CHECK_EQ_INT(st, STRATA_OK);
  long total = atomic_load(&count.seen);
  CHECK(total > 0);
  check_freed(o->name, 0);
  long stride = total > 300 ? (total - 300) / 300 + 1 : 1, failing = 0;
  for (long k = 1; k <= total; k += k < 300 ? 1 : stride) {
    atomic_store(&count.seen, 0);
    count.fail_at = k;
    strata_error_clear(&err);
    st = o->fn(&err);
    count.fail_at = 0;
    if (st != STRATA_OK) {
      failing++;
      if (st != STRATA_ENOMEM)
        fprintf(stderr, "%s, allocation %ld failing: %s: %s\n", o->name, k, strata_status_name(st),
                err.message);
      CHECK_EQ_INT(st, STRATA_ENOMEM);
    }
    check_freed(o->name, k);
  }
  CHECK(failing > 0);
  printf("%s: %ld allocations, %ld failing runs\n", o->name, total, failing);
}

int main(void) {
  strata_error err;
  strata_allocator never = { never_malloc, never_realloc, never_free, NULL };
  strata_allocator counting = { count_malloc, count_realloc, count_free, &count };
  /* before anything is allocated, any allocator (or the C library's again) */
  CHECK_EQ_INT(strata_set_allocator(&never, &err), STRATA_OK);
  CHECK_EQ_INT(strata_set_allocator(NULL, &err), STRATA_OK);
  CHECK_EQ_INT(strata_set_allocator(&(strata_allocator){ count_malloc, NULL, count_free, NULL }, &err),
               STRATA_EARG);
  CHECK_EQ_INT(strata_set_allocator(&counting, &err), STRATA_OK);

  snprintf(dir, sizeof dir, "%s", "/tmp/strata-alloc-XXXXXX");
  CHECK(mkdtemp(dir) != NULL);
  reg = dungeon_registry();
  CHECK(reg != NULL);
  CHECK(atomic_load(&count.live) > 0); /* the registry's blocks are counted */

  /* once strata has allocated: the same allocator again, nothing else */
  CHECK_EQ_INT(strata_set_allocator(&counting, &err), STRATA_OK);
  strata_error_clear(&err);
  CHECK_EQ_INT(strata_set_allocator(&never, &err), STRATA_ESTATE);
  CHECK(strstr(err.message, "before any other strata function") != NULL);
  CHECK_EQ_INT(strata_set_allocator(NULL, &err), STRATA_ESTATE);

  long registry_blocks = atomic_load(&count.live), registry_bytes = atomic_load(&count.bytes);
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
    atomic_fetch_sub(&count.live, registry_blocks); /* so that each op's blocks count from 0 */
    atomic_fetch_sub(&count.bytes, registry_bytes);
    sweep(&ops[i]);
    atomic_fetch_add(&count.live, registry_blocks);
    atomic_fetch_add(&count.bytes, registry_bytes);
  }
  strata_registry_free(reg);
  check_freed("the registry", 0);
  rmdir(dir);
  return check_summary("test_alloc");
}
