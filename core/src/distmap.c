/*
** distmap.c - distance maps: Dijkstra from many goals over a tile map's
** costs, kept in a field that is reused and repaired after edits.
**
** The machinery is the grid searches': the map's cells as a padded class
** grid (gridengine.c's builder, the same costs and passability), and the
** fixed-point keys and bucket lists of Dial's Dijkstra (griddial.h, as
** gridflood.c's pair search). A field of a map of one cost, 8 neighbours
** and no limit runs the pair search's loop itself (dial_field); other
** fields of one cost, and every update and flee map of one, two sorted
** queues in place of the buckets (scan_fifo). The field runs Dijkstra
** backwards from the goals: a settled cell u offers each neighbour v the route v -> u, which
** costs u's cost (times the diagonal multiplier diagonally), one lookup per
** settled cell. Buckets are at most an eighth of the cheapest step wide
** where the ring holds the dearest step at that width, so every cell of a
** bucket is final in any order; on maps of costs too far apart for that
** the buckets are wider and a cell bettered inside its bucket is settled
** again (label correcting within a bucket: still exact).
**
** Sources with keys of their own (the flee map's, an update's) are fed to
** the ring in key order as the scan reaches their bucket. An update finds
** the edited cells from the map's chunk stamps, drops the distances that
** rested on a cell made dearer (each cell keeps its distance while some
** neighbour still gives it exactly, well founded as every step costs more
** than nothing), and runs Dijkstra again from the cells next to the edits
** and the dropped ones.
**
** Where a per-cell cost callback would plug in: the step keys of a settled
** cell (step_keys below) and the passability read from the class grid when
** keys are reset (reset_keys).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "griddial.h"
#include "gridengine.h"
#include "gridjunction.h"
#include "prefault.h"
#include "strata/alloc.h"
#include "strata/distmap.h"
#include "tilemap_internal.h"

#define RING_MAX 4096u /* buckets: wider ones beyond this (costs far apart) */
/* A field's keys stay below 2^54 when computed, and below 2^61 after
** updates that bring dearer costs (up to 128 times): far from KEY_UNSEEN. */
#define KEY_BOUND 0x1p54
#define KEY_ROOM 0x1p61

typedef struct seed {
  uint64_t key;
  uint32_t cell;
} seed;

/* A link of a junction (junctions in depth-first order, their links in
** turn): the junction at its end. */
typedef struct jlink {
  uint32_t to;
  uint16_t a, b; /* its straight and diagonal steps: 8 bytes, not 16 with its keys (a field reads them all) */
} jlink;

/* A kept cell (a junction or a chain's), in the order of the cells: the
** source of its distance (a chain, or nchain + a junction) and its steps
** from the source's first end. */
typedef struct jkept {
  uint32_t cell, src;
  uint16_t a, b;
} jkept;

typedef struct change {
  uint32_t cell;
  uint8_t old; /* its class before */
} change;

struct strata_distmap {
  int width, height;
  uint32_t pw, ph;
  int computed, is_flee;
  int eight;
  /* walls are most neighbours (under 3/8 of the cells passable): rooms 0.28
  ** of the map 1.2x as fast; a maze (0.5) 1.2x slower, its walls' pattern
  ** unpredictable (bench_distmap) */
  int sparse;
  int wide; /* buckets wider than the cheapest step (costs far apart): a cell may offer to its own */
  double diag, max_cost;
  strata_grid_occupied occupied; /* other than IGNORE: the held cells are in the class grid */
  double occupied_cost;
  uint64_t *key; /* per padded cell: distance << and flags (griddial.h) */
  uint32_t key_cap;
  grid_classes classes; /* the costs the field was computed with */
  double *token_cost;
  uint32_t token_cost_cap;
  /* fixed point: a distance is key / scale - offset */
  double scale, offset;
  uint64_t sk[GRID_MAX_CLASSES + 1], dk[GRID_MAX_CLASSES + 1];
  unsigned shift;
  uint32_t mask;
  uint64_t limit;
  cell_list *ring;
  uint32_t ring_cap;
  uint32_t *goals; /* padded indices, sorted, each once */
  size_t goal_count, goal_cap;
  seed *seeds;
  size_t seed_count, seed_cap;
  /* an update's lists: the cells changed, those whose distance is in
  ** doubt (a queue), those dropped */
  change *changes;
  size_t change_len, change_cap;
  uint32_t *work, *dropped;
  size_t work_len, work_cap, dropped_len, dropped_cap;
  uint64_t map_id, map_revision, tokens_revision;
  int classes_of_map; /* classes are map_id's at map_revision (not a flee map's copy) */
  const strata_tokens *table;
  uint32_t tokens_count;
  uint64_t settled;
  /* a maze's field over its junctions: the graph (of classes.serial); laid
  ** out for the field (of that serial + 1 and these step keys): its
  ** junctions with their links in keys, its skipped cells (cell << 8 | the
  ** kept neighbours' directions); the goals on chains (key, slot) */
  struct grid_junction *junction;
  uint64_t again; /* the class grid computed on before (its serial + 1) */
  /* the class grid (serial + 1) whose field over the junctions the keys
  ** hold: its walls 0, so the next such field writes the passable cells
  ** alone (clearing 8 MB of keys was a tenth of a field) */
  uint64_t jkeys;
  uint64_t laid, laid_sk, laid_dk;
  uint64_t too_long; /* the class grid (serial + 1) with a link of 2^16 steps or more */
  /* per junction in depth-first order, + 1: its distance (per compute), its
  ** first link; two arrays, not one of pairs, so that the distances the
  ** links' ends read are 8 bytes a junction (the maze's 98,000 fit L2) */
  uint64_t *jnode_dist;
  uint32_t *jnode_link;
  jlink *jlinks;
  uint32_t *skipped, *jnew; /* jnew: a junction of the graph -> its place in the jnode_ arrays */
  uint64_t *jdist; /* per junction of the graph, its distance (as the chains read them) */
  jkept *kept;
  uint64_t *jends; /* per source of kept cells: its two ends' distances, as at the first (jends) */
  uint32_t kept_cap, kept_len, jends_cap;
  uint32_t jnode_cap, jlink_cap, skipped_cap, skipped_len, jnew_cap, jdist_cap;
  seed *cseeds;
  size_t cseed_len, cseed_cap;
};

void strata_distmap_options_init(strata_distmap_options *o) {
  o->connectivity = 4, o->diagonal_cost = M_SQRT2, o->max_cost = HUGE_VAL;
  o->occupied = STRATA_OCCUPIED_IGNORE, o->occupied_cost = 0;
}

strata_distmap *strata_distmap_new(strata_error *err) {
  strata_distmap *d = strata_calloc(1, sizeof *d);
  if (d == NULL) strata_error_nomem(err, "creating a distance map");
  return d;
}

void strata_distmap_free(strata_distmap *d) {
  if (d == NULL) return;
  strata_free(d->key);
  strata_free(d->classes.cls);
  strata_free(d->token_cost);
  for (uint32_t i = 0; i < d->ring_cap; i++) strata_free(d->ring[i].items);
  strata_free(d->ring);
  strata_free(d->goals);
  strata_free(d->seeds);
  strata_free(d->changes);
  strata_free(d->work);
  strata_free(d->dropped);
  gridjunction_free(d->junction);
  strata_free(d->jnode_dist), strata_free(d->jnode_link), strata_free(d->jlinks), strata_free(d->skipped), strata_free(d->jnew);
  strata_free(d->jdist), strata_free(d->kept), strata_free(d->jends);
  strata_free(d->cseeds);
  strata_free(d);
}

int strata_distmap_width(const strata_distmap *d) { return d->computed ? d->width : 0; }
int strata_distmap_height(const strata_distmap *d) { return d->computed ? d->height : 0; }
uint64_t strata_distmap_settled(const strata_distmap *d) { return d->settled; }

size_t strata_distmap_memory(const strata_distmap *d) {
  size_t bytes = sizeof *d + (size_t)d->key_cap * sizeof *d->key;
  bytes += (size_t)d->classes.pw * d->classes.ph + (size_t)d->token_cost_cap * sizeof(double);
  bytes += (size_t)d->ring_cap * sizeof *d->ring;
  for (uint32_t i = 0; i < d->ring_cap; i++) bytes += (size_t)d->ring[i].cap * sizeof(uint32_t);
  bytes += d->goal_cap * sizeof *d->goals + d->seed_cap * sizeof *d->seeds;
  bytes += d->change_cap * sizeof *d->changes + d->dropped_cap * sizeof *d->dropped;
  bytes += gridjunction_memory(d->junction) + (size_t)d->jnode_cap * 12;
  bytes += (size_t)d->jlink_cap * sizeof *d->jlinks + ((size_t)d->skipped_cap + d->jnew_cap) * 4;
  bytes += (size_t)d->jdist_cap * sizeof *d->jdist + (size_t)d->kept_cap * sizeof *d->kept;
  bytes += (size_t)d->jends_cap * sizeof *d->jends;
  bytes += d->cseed_cap * sizeof *d->cseeds;
  return bytes + d->work_cap * sizeof *d->work;
}

/* ---- fixed point ---- */

static inline uint64_t dist_of(uint64_t k) { return k & ~(uint64_t)KEY_LOW; }
static inline int reached(uint64_t k) { return k != 0 && k != KEY_UNSEEN; }

/* A cost in keys: a multiple of 16 (the flags' bits clear), rounded. */
static uint64_t to_key(double v) { return (uint64_t)llround(v / 16) * 16; }

/* A ring of buckets that holds a step of `step` keys (between scans, when
** every bucket is empty). 0 on ENOMEM. */
static int ring_for(strata_distmap *d, uint64_t step) {
  uint32_t size = 4;
  while (size < (step >> d->shift) + 2) size *= 2;
  if (size > d->ring_cap) {
    cell_list *ring = strata_realloc(d->ring, size * sizeof *ring);
    if (ring == NULL) return 0;
    memset(ring + d->ring_cap, 0, (size - d->ring_cap) * sizeof *ring);
    d->ring = ring, d->ring_cap = size;
  }
  d->mask = size - 1;
  return 1;
}

/* Chooses the scale (a power of two: keys per unit of cost) for distances
** up to bound, the step keys of every class, and the buckets: an eighth of
** the cheapest step wide where the ring holds the dearest step then. */
static int prepare_steps(strata_distmap *d);
static int prepare_scale(strata_distmap *d, double bound) {
  int e;
  frexp(KEY_BOUND / (bound > 1e-300 ? bound : 1), &e);
  d->scale = ldexp(1, e - 1);
  return prepare_steps(d);
}

/* The step keys and buckets for d->scale. */
static int prepare_steps(strata_distmap *d) {
  const grid_classes *gc = &d->classes;
  uint64_t lo = UINT64_MAX, hi = 16;
  d->sk[0] = d->dk[0] = 0;
  for (unsigned c = 1; c <= gc->count; c++) {
    uint64_t s = to_key(gc->cost[c] * d->scale), g = to_key(gc->cost[c] * d->diag * d->scale);
    d->sk[c] = s < 16 ? 16 : s, d->dk[c] = g < 16 ? 16 : g;
    if (d->sk[c] < lo) lo = d->sk[c];
    if ((d->eight ? d->dk[c] : d->sk[c]) > hi) hi = d->eight ? d->dk[c] : d->sk[c];
  }
  unsigned shift = 4;
  while (lo != UINT64_MAX && (lo >> (shift + 1)) >= 8) shift++;
  while ((hi >> shift) + 2 > RING_MAX) shift++;
  d->wide = lo != UINT64_MAX && (lo >> shift) == 0;
  d->shift = shift;
  if (!ring_for(d, hi)) return 0;
  /* a route of exactly max_cost may sum to a hair more in fixed point */
  double limit = d->max_cost * d->scale * (1 + 1e-10);
  d->limit = limit >= KEY_ROOM ? UINT64_MAX : (uint64_t)limit & ~(uint64_t)KEY_LOW;
  if (d->limit != UINT64_MAX) d->limit |= KEY_LOW;
  return 1;
}

/* The largest distance a route can have: every padded cell once, at the
** dearest diagonal step. */
static double distance_bound(const strata_distmap *d) {
  return (double)d->pw * (double)d->ph * d->classes.max_cost * (d->eight ? d->diag : 1);
}

/* Whether the scale keeps every distance within 2^-20 of itself: each step
** rounds by at most 8 keys, so the cheapest step must be 2^23 keys or more;
** or whole-number steps, exact at 16 keys a unit. Costs too far apart for
** that (1 beside 1e12, a diagonal multiplier of 1e15) would give wrong
** distances, and are refused. */
static int precise(const strata_distmap *d) {
  const grid_classes *gc = &d->classes;
  const int whole = gc->integral && (!d->eight || d->diag == floor(d->diag)) && d->scale >= 16;
  return gc->count == 0 || whole || gc->min_cost * d->scale >= 0x1p23;
}

static strata_status imprecise(const strata_distmap *d, strata_error *err) {
  return strata_error_set(err, STRATA_EARG,
                          "costs too far apart for a distance map of a %dx%d map: %g to %g, "
                          "diagonal_cost %g (the dearest step over the cheapest, times the cells, "
                          "at most about 2^31)",
                          d->width, d->height, d->classes.min_cost, d->classes.max_cost,
                          d->eight ? d->diag : 1.0);
}

/* ---- the scan ---- */

static int seed_order(const void *a, const void *b) {
  const seed *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->cell > y->cell) - (x->cell < y->cell);
}

/* Walls 0, passable cells unseen. (A per-cell passability callback would
** be read here.) */
static void reset_keys(strata_distmap *d) {
  const uint32_t n = d->pw * d->ph;
  const uint32_t open = keys_clear(d->key, d->classes.cls, n);
  d->sparse = open < n / 4 + n / 8;
}

/* What the scan reads, copied into a local of the scan: through d, every
** field would be read again after each store to a key or a bucket (they
** might alias), a third of the instructions per cell. */
typedef struct scan_ctx {
  uint64_t *key;
  cell_list *ring;
  const uint8_t *cls;
  const uint64_t *sk, *dk;
  unsigned shift;
  uint32_t mask;
  int32_t pw;
} scan_ctx;

/* Offers the neighbours of u, settled with distance ku, their routes
** through u. */
static inline __attribute__((always_inline)) int offer(const scan_ctx *x, uint32_t u, uint64_t ku,
                                                       const int eight, const int sparse) {
  const uint8_t *const cls = x->cls;
  const unsigned c = cls[u];
  const uint64_t ks = ku + x->sk[c], kd = ku + x->dk[c];
  cell_list *const ls = &x->ring[(ks >> x->shift) & x->mask];
  cell_list *const ld = &x->ring[(kd >> x->shift) & x->mask];
  if (!list_room(ls, 8) || !list_room(ld, 8)) return 0;
  uint64_t *const key = x->key;
  uint32_t *const is = ls->items, *const id = ld->items;
  const uint32_t un = u - (uint32_t)x->pw, us = u + (uint32_t)x->pw;
  /* sparse (walls are most neighbours): a wall's key is not even read */
#define OFFER(items, v, k) \
  if (!sparse || cls[v]) n = (uint32_t)relax(key + (v), items, n, (v), (k), (k) | KEY_LOW)
  uint32_t n = ls->len;
  OFFER(is, un, ks | 0);
  OFFER(is, u + 1, ks | 1);
  OFFER(is, us, ks | 2);
  OFFER(is, u - 1, ks | 3);
  ls->len = n;
  if (eight) {
    n = ld->len; /* ld may be ls */
    OFFER(id, un + 1, kd | 4);
    OFFER(id, us + 1, kd | 5);
    OFFER(id, us - 1, kd | 6);
    OFFER(id, un - 1, kd | 7);
    ld->len = n;
  }
#undef OFFER
  return 1;
}

/* Dijkstra from d->seeds (sorted by key, each key set in d->key unless a
** lower one was) until the ring is empty or past the limit; what is left
** unsettled is then unseen. 0 on ENOMEM. wide: buckets wider than the
** cheapest step, so a cell may offer to its own bucket while it is read. */
static inline __attribute__((always_inline)) int scan(strata_distmap *d, const int eight,
                                                      const int sparse, const int wide) {
  const scan_ctx x = {d->key, d->ring, d->classes.cls, d->sk, d->dk, d->shift, d->mask, (int32_t)d->pw};
  uint64_t *const key = x.key;
  const unsigned shift = x.shift;
  const uint32_t mask = x.mask;
  const uint64_t limit = d->limit;
  const uint64_t last = limit == UINT64_MAX ? UINT64_MAX : limit >> shift;
  const seed *const seeds = d->seeds;
  const size_t seed_count = d->seed_count;
  size_t next = 0;
  uint64_t settled = 0;
  uint64_t k = seed_count ? seeds[0].key >> shift : 0;
  for (uint32_t empty = 0; k <= last;) {
    cell_list *const cur = &x.ring[k & mask];
    for (; next < seed_count && (seeds[next].key >> shift) <= k; next++) {
      if (key[seeds[next].cell] != seeds[next].key) continue; /* bettered since */
      if (!list_room(cur, 1)) return 0;
      cur->items[cur->len++] = seeds[next].cell;
    }
    if (cur->len == 0) {
      if (++empty <= mask) k++;
      else if (next < seed_count) k = seeds[next].key >> shift, empty = 0;
      else break;
      continue;
    }
    empty = 0;
    const uint32_t count = cur->len, *const items = cur->items;
    for (uint32_t i = 0; i < (wide ? cur->len : count); i++) {
      const uint32_t u = wide ? cur->items[i] : items[i];
      const uint64_t ku = key[u];
      if (ku & KEY_SETTLED) continue; /* left already: a second entry */
      if (ku > limit) {
        key[u] = KEY_UNSEEN; /* too far (an offer below the limit would still take it) */
        continue;
      }
      key[u] = ku | KEY_SETTLED;
      settled++;
      if (!offer(&x, u, dist_of(ku), eight, sparse)) return 0;
    }
    cur->len = 0;
    k++;
  }
  d->settled += settled;
  /* what is left over: unseen */
  for (uint32_t b = 0; b <= mask; b++) {
    cell_list *l = &x.ring[b];
    for (uint32_t i = 0; i < l->len; i++)
      if (!(key[l->items[i]] & KEY_SETTLED)) key[l->items[i]] = KEY_UNSEEN;
    l->len = 0;
  }
  for (; next < seed_count; next++)
    if (!(key[seeds[next].cell] & KEY_SETTLED)) key[seeds[next].cell] = KEY_UNSEEN;
  return 1;
}

/* The scan of a map of one cost: with one straight step s and one diagonal
** step g, the offers of straight steps are made in the order cells are
** settled, so their keys never decrease, and the same for diagonal ones: a
** first-in first-out queue of each is sorted, and Dijkstra takes the least
** of their heads (and of the seeds'), with no buckets at all. A queue holds
** cells, not keys: a head's key is read from the cell. A head since given a
** lower key by the other queue still gives the least key (that lower key
** lies in the other queue, behind keys no less than it), so the cell is
** settled then, and its later entries are passed over. 0 on ENOMEM. */
static inline __attribute__((always_inline)) int scan_fifo(strata_distmap *d, const int eight) {
  uint64_t *const key = d->key;
  cell_list *const qs = &d->ring[0], *const qd = &d->ring[1];
  const uint64_t sk = d->sk[1], dk = d->dk[1], limit = d->limit;
  const uint32_t pw = d->pw;
  const seed *const seeds = d->seeds;
  const size_t seed_count = d->seed_count;
  size_t next = 0;
  uint32_t hs = 0, hd = 0;
  uint64_t settled = 0;
  for (;;) {
    while (hs < qs->len && (key[qs->items[hs]] & KEY_SETTLED)) hs++;
    while (eight && hd < qd->len && (key[qd->items[hd]] & KEY_SETTLED)) hd++;
    while (next < seed_count && key[seeds[next].cell] != seeds[next].key) next++;
    const uint64_t as = hs < qs->len ? key[qs->items[hs]] : KEY_UNSEEN;
    const uint64_t ad = eight && hd < qd->len ? key[qd->items[hd]] : KEY_UNSEEN;
    const uint64_t a0 = next < seed_count ? seeds[next].key : KEY_UNSEEN;
    const uint64_t ku = as <= ad && as <= a0 ? as : ad <= a0 ? ad : a0;
    if (ku == KEY_UNSEEN || ku > limit) break; /* left in their queues: made unseen below */
    const uint32_t u = as == ku ? qs->items[hs++] : ad == ku ? qd->items[hd++] : seeds[next++].cell;
    key[u] = ku | KEY_SETTLED;
    settled++;
    if (!list_room(qs, 4) || (eight && !list_room(qd, 4))) return 0;
    const uint64_t ks = dist_of(ku) + sk, kd = dist_of(ku) + dk;
    uint32_t *const is = qs->items, *const id = qd->items;
    /* the neighbours' keys by offset from u's: no index to widen per neighbour */
    uint64_t *const ku_at = key + u;
    const intptr_t w = (intptr_t)pw;
#define OFFER(items, o, k) n = (uint32_t)relax(ku_at + (o), items, n, u + (uint32_t)(o), (k), (k) | KEY_LOW)
    uint32_t n = qs->len;
    OFFER(is, -w, ks | 0);
    OFFER(is, 1, ks | 1);
    OFFER(is, w, ks | 2);
    OFFER(is, -1, ks | 3);
    qs->len = n;
    if (eight) {
      n = qd->len;
      OFFER(id, -w + 1, kd | 4);
      OFFER(id, w + 1, kd | 5);
      OFFER(id, w - 1, kd | 6);
      OFFER(id, -w - 1, kd | 7);
      qd->len = n;
    }
#undef OFFER
  }
  d->settled += settled;
  /* what is left over: unseen */
  for (uint32_t i = hs; i < qs->len; i++)
    if (!(key[qs->items[i]] & KEY_SETTLED)) key[qs->items[i]] = KEY_UNSEEN;
  for (uint32_t i = hd; i < qd->len; i++)
    if (!(key[qd->items[i]] & KEY_SETTLED)) key[qd->items[i]] = KEY_UNSEEN;
  for (; next < seed_count; next++)
    if (!(key[seeds[next].cell] & KEY_SETTLED)) key[seeds[next].cell] = KEY_UNSEEN;
  qs->len = qd->len = 0;
  return 1;
}

static int list_add(uint32_t **list, size_t *len, size_t *cap, uint32_t cell) {
  if (!STRATA_GROW(*list, *cap, *len + 1)) return 0;
  (*list)[(*len)++] = cell;
  return 1;
}
#define WORK_ADD(d, cell) list_add(&(d)->work, &(d)->work_len, &(d)->work_cap, (cell))

/* The Dial loop's buckets: an eighth of a step while the front is wide,
** a whole step where the goals have reached under DIAL_FEW cells each
** DIAL_PROBE steps out: where the front is narrow, in eighths most buckets
** hold one cell or none, and their turns cost more than the cells
** (bench_distmap's maps reach some 600 to 1,800 cells a goal open, 200 to
** 300 in rooms, 40 to 100 in the maze: a maze 1.4 times as fast in whole
** steps, rooms 1.03 times as in half steps, the open map 1.1 times in
** eighths). */
#define NARROW_SHIFT BUCKET_SHIFT
#define DIAL_PROBE 32u
#define DIAL_FEW 400u
/* The offers of the probe's first DIAL_SAMPLE cells are canonical
** (griddial.h); the rest of the field's too where under one cell in
** DIAL_FORCED made forced offers there. Where walls are everywhere (the
** benchmark's open map: 1 in 6, its maze 1 in 5) the forced offers'
** branch, mispredicted, cost more than the offers it saved (the open map
** 0.77 times as fast); rooms, 1 in 40, run 22 % fewer instructions. Either
** offers are exact, mixed too: each a superset of the canonical ones. */
#define DIAL_FORCED 16u
#define DIAL_SAMPLE 2048u

/* The loop, its constants chosen (a copy of it for each). */
static int dial_go(dial_run *r, int pruned, int canon, int wide, uint64_t *settled) {
  /* pruned, a field's lists are split: no alias */
#define DIAL_GO(sh)                                                                                          \
  (!pruned ? dial_loop(r, 0, 0, (sh), 1, 0, settled)                                                         \
   : canon ? dial_loop(r, 1, 0, (sh), 1, 1, settled)                                                         \
           : dial_loop(r, 1, 0, (sh), 1, 0, settled))
  return wide ? DIAL_GO(KEY_SHIFT) : DIAL_GO(NARROW_SHIFT);
#undef DIAL_GO
}

/* The cells waiting in the ring of a loop paused at bucket r->from, moved
** to buckets of a whole step: every waiting key is at least that bucket's.
** 0 on ENOMEM. */
static int dial_widen(strata_distmap *d, dial_run *r) {
  const unsigned sh = KEY_SHIFT;
  d->work_len = 0;
  for (uint32_t b = 0; b < (r->mask + 1) << r->split; b++) {
    cell_list *const l = &r->bucket[b];
    for (uint32_t i = 0; i < l->len; i++)
      if (!(d->key[l->items[i]] & KEY_SETTLED) && !WORK_ADD(d, l->items[i])) return 0;
    l->len = 0;
  }
  for (size_t i = 0; i < d->work_len; i++) {
    const uint64_t k = d->key[d->work[i]];
    cell_list *const l = dial_list(r->bucket, r->mask, (uint32_t)(k >> sh), r->split, (k & 4u) != 0);
    if (!list_room(l, 1)) return 0;
    l->items[l->len++] = d->work[i];
  }
  r->from >>= sh - NARROW_SHIFT;
  return 1;
}

/* Settles the goals (passable ones) and offers their neighbours. The
** number settled; UINT64_MAX on ENOMEM. */
static uint64_t dial_goals(strata_distmap *d, const dial_run *r) {
  uint64_t settled = 0;
  for (size_t i = 0; i < d->goal_count; i++)
    if (d->key[d->goals[i]] != 0) d->key[d->goals[i]] = KEY_SETTLED, settled++;
  const int32_t pw = r->pw;
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  cell_list *const ls = dial_list(r->bucket, r->mask, (uint32_t)(KEY_ONE >> NARROW_SHIFT), r->split, 0);
  cell_list *const ld = dial_list(r->bucket, r->mask, (uint32_t)(r->dkey >> NARROW_SHIFT), r->split, 1);
  for (size_t i = 0; i < d->goal_count; i++) {
    const uint32_t g = d->goals[i];
    if (d->key[g] != KEY_SETTLED) continue; /* a wall */
    if (!list_room(ls, 8) || !list_room(ld, 8)) return UINT64_MAX;
    for (unsigned k = 0; k < 8; k++) {
      cell_list *const l = k < 4 ? ls : ld;
      const uint64_t c = (k < 4 ? KEY_ONE : r->dkey) | k;
      const uint32_t v = (uint32_t)((int32_t)g + off[k]);
      l->len = (uint32_t)relax(d->key + v, l->items, l->len, v, c, c | KEY_LOW);
    }
  }
  return settled;
}

/* ---- a maze: the field over its junctions ----
** Where the pair search would run over the junctions (gridjunction.h: one
** cost, few junctions; diagonals under 2 here), the junctions' distances
** are found alone, from the goals' ways to them (jcorrect), each chain's
** cells are then filled from its two ends and the goals on it, and each
** skipped cell (no optimal route passes through one) from its kept
** neighbours and the goals next to it. The keys are the Dial loop's (the
** same sums of the same step keys, so the same minimum): a maze's front is
** a few cells wide, and cell by cell each bucket's turn served two or
** three. */

/* The keys of a straight and b diagonal steps. */
static inline uint64_t jkey(const strata_distmap *d, uint32_t a, uint32_t b) {
  return (uint64_t)a * d->sk[1] + (uint64_t)b * d->dk[1];
}

/* Junction v (its place in the jnode_ arrays) offered distance k from a goal; 0 on
** ENOMEM. */
static inline int joffer(strata_distmap *d, uint32_t v, uint64_t k) {
  if (!STRATA_GROW(d->seeds, d->seed_cap, d->seed_count + 1)) return 0;
  d->seeds[d->seed_count++] = (seed){k, v};
  return 1;
}

/* A goal's way in through kept cell n, k from the goal: n's junction, or
** both ends of n's chain and n itself (a chain goal). 0 on ENOMEM. */
static int jseed(strata_distmap *d, const gridjunction_graph *g, uint32_t n, uint64_t k) {
  const uint32_t t = g->tag[n];
  const uint32_t *const jnew = d->jnew;
  if (t & JUNCTION_FLAG) return joffer(d, jnew[t & ~JUNCTION_FLAG], k);
  const uint32_t s = t - 1;
  const jchain *ch = &g->chain[g->schain[s]];
  if (!STRATA_GROW(d->cseeds, d->cseed_cap, d->cseed_len + 1)) return 0;
  d->cseeds[d->cseed_len++] = (seed){k, s};
  return joffer(d, jnew[ch->ja], k + jkey(d, g->sa[s], g->sb[s])) &&
         joffer(d, jnew[ch->jb], k + jkey(d, ch->a - g->sa[s], ch->b - g->sb[s]));
}

/* Writes k to chain slot t's cell while it is less than the cell has:
** 1 written, 0 not. */
static inline int jwrite(strata_distmap *d, const gridjunction_graph *g, uint32_t t, uint64_t k) {
  uint64_t *const p = &d->key[g->scell[t]];
  if (reached(*p) && dist_of(*p) <= k) return 0;
  *p = k | KEY_SETTLED;
  return 1;
}

/* Unreached ends in jends: sums with the steps along stay apart from every
** distance (below KEY_ROOM / 4) and stay below 2^64. */
#define JEND_A ((uint64_t)1 << 62)
#define JEND_B ((uint64_t)1 << 63)

/* Each source's ends, as seen from its first end: a chain's two (the far
** one's distance plus the chain's steps), a junction's own and none. */
static void jends(strata_distmap *d, const gridjunction_graph *g) {
  uint64_t *const e = d->jends;
  for (uint32_t c = 0; c < g->nchain; c++) {
    const jchain *ch = &g->chain[c];
    const uint64_t ka = d->jdist[ch->ja], kb = d->jdist[ch->jb];
    e[2 * c] = ka == KEY_UNSEEN ? JEND_A : ka;
    e[2 * c + 1] = kb == KEY_UNSEEN ? JEND_B : kb + jkey(d, ch->a, ch->b);
  }
  for (uint32_t v = 0; v < g->njunc; v++) {
    const uint64_t k = d->jdist[v];
    e[2 * (g->nchain + v)] = k == KEY_UNSEEN ? JEND_A : k, e[2 * (g->nchain + v) + 1] = JEND_B;
  }
}

/* The kept cells in the order of the cells: the nearer of their source's
** ends (neither reached: unseen). Cell by cell along the chains, the key
** writes went a row apart down every column's corridor; in the cells'
** order they stream. */
static void jfill(strata_distmap *d) {
  uint64_t *const key = d->key;
  const uint64_t *const e = d->jends;
  const uint64_t sk = d->sk[1], dk = d->dk[1];
  const jkept *const kept = d->kept;
  for (uint32_t i = 0; i < d->kept_len; i++) {
    const jkept k = kept[i];
    const uint64_t along = k.a * sk + k.b * dk, va = e[2 * k.src] + along, vb = e[2 * k.src + 1] - along;
    const uint64_t v = va < vb ? va : vb;
    key[k.cell] = v >= JEND_A ? KEY_UNSEEN : v | KEY_SETTLED;
  }
}

/* Out from each goal on a chain while it gives less (distances along a
** chain change by at most a step a step, so where a goal gives no less it
** gives no less beyond). */
static void jchain_goals(strata_distmap *d, const gridjunction_graph *g) {
  for (size_t i = 0; i < d->cseed_len; i++) {
    const uint32_t s = d->cseeds[i].cell;
    const jchain *ch = &g->chain[g->schain[s]];
    const uint64_t k = d->cseeds[i].key, at = jkey(d, g->sa[s], g->sb[s]);
    const uint32_t end = ch->first + ch->len;
    for (uint32_t t = s; t < end && jwrite(d, g, t, k + jkey(d, g->sa[t], g->sb[t]) - at); t++) {}
    for (uint32_t t = s; t-- > ch->first && jwrite(d, g, t, k + at - jkey(d, g->sa[t], g->sb[t]));) {}
  }
}

/* The skipped cells: the least of their kept neighbours' distances plus
** the step; then the goals among them (0) and their skipped neighbours
** (a step from such a goal, when that is less). */
static void jskipped(strata_distmap *d, const gridjunction_graph *g, const int32_t *off) {
  uint64_t *const key = d->key;
  const uint64_t sk = d->sk[1], dk = d->dk[1];
  for (uint32_t i = 0; i < d->skipped_len; i++) {
    const uint32_t c = d->skipped[i] >> 8;
    uint64_t best = KEY_UNSEEN;
    for (unsigned m = d->skipped[i] & 0xff; m; m &= m - 1) {
      const unsigned k = (unsigned)__builtin_ctz(m);
      const uint64_t kn = key[(uint32_t)((int32_t)c + off[k])];
      const uint64_t v = kn == KEY_UNSEEN ? KEY_UNSEEN : dist_of(kn) + (k < 4 ? sk : dk);
      best = v < best ? v : best;
    }
    key[c] = best == KEY_UNSEEN ? best : best | KEY_SETTLED;
  }
  for (size_t i = 0; i < d->goal_count; i++) {
    const uint32_t c = d->goals[i];
    if (!d->classes.cls[c] || g->tag[c]) continue;
    key[c] = KEY_SETTLED;
    for (unsigned k = 0; k < 8; k++) {
      const uint32_t n = (uint32_t)((int32_t)c + off[k]);
      const uint64_t v = (k < 4 ? sk : dk) | KEY_SETTLED;
      if (d->classes.cls[n] && !g->tag[n] && (!reached(key[n]) || key[n] > v)) key[n] = v;
    }
  }
}

/* The junctions' distances from the goals' offers in d->seeds, label
** correcting, first offered first: on a maze without loops each junction
** is reached once or little more (no queue in key order, whose every turn
** waited on memory: a heap took 2.5 times as long). Exact when the list
** runs dry; -1 after budget junctions taken (many loops, goals far apart:
** the Dial loop then), 0 on ENOMEM. d->settled: the junctions taken. */
static int jcorrect(strata_distmap *d, uint64_t budget) {
  uint64_t *const dist = d->jnode_dist;
  const uint32_t *const first = d->jnode_link;
  const jlink *const link = d->jlinks;
  const uint64_t sk = d->sk[1], dk = d->dk[1];
  d->work_len = 0;
  for (size_t i = 0; i < d->seed_count; i++) {
    const seed e = d->seeds[i];
    if (e.key >= dist[e.cell]) continue;
    dist[e.cell] = e.key;
    if (!WORK_ADD(d, e.cell)) return 0;
  }
  uint64_t taken = 0;
  /* the list in locals: a store to a junction's distance (a uint64_t) might
  ** be d->work_len to the compiler, which read d again after each */
  uint32_t *list = d->work;
  size_t len = d->work_len, cap = d->work_cap;
  for (size_t head = 0; head < len; head++) {
    if (++taken > budget) return -1;
    const uint32_t u = list[head];
    /* the list is known ahead: its junctions and their links fetched ahead */
    if (head + 8 < len) __builtin_prefetch(&first[list[head + 8]]);
    if (head + 4 < len) __builtin_prefetch(&link[first[list[head + 4]]]);
    const uint64_t du = dist[u];
    const uint32_t from = first[u], to = first[u + 1];
    if (len + (to - from) > cap) {
      d->work_len = len;
      if (!STRATA_GROW(d->work, d->work_cap, len + (to - from))) return 0;
      list = d->work, cap = d->work_cap;
    }
    for (uint32_t k = from; k < to; k++) { /* as relax: which offers improve looks random */
      const uint32_t v = link[k].to;
      const uint64_t dv = du + link[k].a * sk + link[k].b * dk, have = dist[v];
      list[len] = v;
      len += dv < have;
      dist[v] = dv < have ? dv : have;
    }
  }
  d->work_len = len;
  d->settled = taken;
  return 1;
}

/* Lays the graph out for the field: junctions with their links in keys,
** the skipped cells with their kept neighbours (kept until the class grid
** or the step keys change). 0 on ENOMEM, -1 when a link is longer than
** its 16-bit steps hold (the Dial loop's map, until the graph changes). */
static int jlay(strata_distmap *d, const gridjunction_graph *g, const int32_t *off) {
  const grid_classes *gc = &d->classes;
  if (d->laid == gc->serial + 1 && d->laid_sk == d->sk[1] && d->laid_dk == d->dk[1]) return 1;
  if (d->too_long == gc->serial + 1) return -1;
  d->laid = 0;
  const uint32_t links = g->eoff[g->njunc], n = g->njunc;
  for (uint32_t c = 0; c < g->nchain; c++) /* steps of links and of cells along chains: 16 bits */
    if (g->chain[c].a > UINT16_MAX || g->chain[c].b > UINT16_MAX) return d->too_long = gc->serial + 1, -1;
  uint32_t cap = d->jnode_cap;
  if (!STRATA_GROW32(d->jnode_dist, cap, (size_t)n + 1) || !STRATA_GROW32(d->jnode_link, d->jnode_cap, (size_t)n + 1) ||
      !STRATA_GROW32(d->jlinks, d->jlink_cap, links ? links : 1) ||
      !STRATA_GROW32(d->jnew, d->jnew_cap, n ? n : 1) || !STRATA_GROW32(d->jdist, d->jdist_cap, n ? n : 1) ||
      !STRATA_GROW32(d->jends, d->jends_cap, 2 * ((size_t)g->nchain + n) + 2) ||
      !STRATA_GROW(d->work, d->work_cap, (size_t)n + 1) ||
      !STRATA_GROW(d->dropped, d->dropped_cap, (size_t)links + n + 1))
    return 0;
  strata_hugepages(d->jlinks, (size_t)d->jlink_cap * sizeof *d->jlinks);
  /* the junctions in depth-first order: a junction's neighbours lie near
  ** it in memory, as the front runs along the corridors */
  uint32_t *const jnew = d->jnew, *const order = d->work, *const stack = d->dropped;
  memset(jnew, 0xff, (size_t)n * sizeof *jnew);
  uint32_t placed = 0;
  for (uint32_t r = 0; r < n; r++) {
    size_t sp = 0;
    stack[sp++] = r;
    while (sp) {
      const uint32_t v = stack[--sp];
      if (jnew[v] != JUNCTION_NONE) continue;
      jnew[v] = placed, order[placed++] = v;
      for (uint32_t k = g->eoff[v + 1]; k-- > g->eoff[v];)
        if (jnew[g->edge[k].to] == JUNCTION_NONE) stack[sp++] = g->edge[k].to;
    }
  }
  uint32_t at = 0;
  for (uint32_t i = 0; i <= n; i++) {
    d->jnode_dist[i] = KEY_UNSEEN, d->jnode_link[i] = at;
    if (i < n) at += g->eoff[order[i] + 1] - g->eoff[order[i]];
  }
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t k = g->eoff[order[i]], l = d->jnode_link[i]; k < g->eoff[order[i] + 1]; k++, l++) {
      const uint32_t to = jnew[g->edge[k].to];
      if (g->edge[k].a > UINT16_MAX || g->edge[k].b > UINT16_MAX) return d->too_long = gc->serial + 1, -1;
      d->jlinks[l] = (jlink){to, (uint16_t)g->edge[k].a, (uint16_t)g->edge[k].b};
    }
  d->skipped_len = d->kept_len = 0;
  for (uint32_t c = gc->pw; c < gc->pw * (gc->ph - 1); c++) {
    const uint32_t t = g->tag[c];
    if (t) {
      if (!STRATA_GROW32(d->kept, d->kept_cap, (size_t)d->kept_len + 1)) return 0;
      const uint32_t s = t - 1;
      d->kept[d->kept_len++] = t & JUNCTION_FLAG ? (jkept){c, g->nchain + (t & ~JUNCTION_FLAG), 0, 0}
                                                 : (jkept){c, g->schain[s], (uint16_t)g->sa[s], (uint16_t)g->sb[s]};
      continue;
    }
    if (!gc->cls[c]) continue;
    unsigned m = 0;
    for (unsigned k = 0; k < 8; k++) m |= (unsigned)(g->tag[(uint32_t)((int32_t)c + off[k])] != 0) << k;
    if (!STRATA_GROW32(d->skipped, d->skipped_cap, (size_t)d->skipped_len + 1)) return 0;
    d->skipped[d->skipped_len++] = c << 8 | m;
  }
  d->laid = gc->serial + 1, d->laid_sk = d->sk[1], d->laid_dk = d->dk[1];
  return 1;
}

/* The field over the junctions, on a map dial_field takes (its step keys
** set): 1 done, 0 ENOMEM, -1 not a maze (or diagonals of 2 or more). */
static int junction_field(strata_distmap *d) {
  const grid_classes *gc = &d->classes;
  /* diagonals under 2 steps: a skipped cell's two neighbours a step apart
  ** are nearer than through it (the graph counts steps of each kind, so
  ** not only sqrt 2) */
  if (!(d->diag < 2) || gc->pw * gc->ph > GRIDBIDIR_MAX_CELLS) return -1;
  /* the graph costs some four fields to build (the benchmark's maze): the
  ** first field of a class grid is the Dial loop's, so that a map edited
  ** between fields never pays it */
  if (d->again != gc->serial + 1) return d->again = gc->serial + 1, -1;
  const double share = gridjunction_share(&d->junction, 1, gc->cls, gc->pw, gc->ph, gc->serial);
  if (share < 0) return 0;
  if (share > JUNCTION_MAX_SHARE) return -1;
  gridjunction_graph g;
  const int32_t pw = (int32_t)d->pw;
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  if (!gridjunction_graph_of(&d->junction, gc->cls, gc->pw, gc->ph, gc->serial, &g)) return 0;
  const int laid = jlay(d, &g, off);
  if (laid <= 0) return laid;
  uint64_t *const node_dist = d->jnode_dist;
  for (uint32_t v = 0; v < g.njunc; v++) node_dist[v] = KEY_UNSEEN;
  /* every passable cell is written below (junctions, chains, skipped
  ** cells): the walls alone need their 0, which the field before on this
  ** class grid left */
  const int walls_zero = d->jkeys == gc->serial + 1;
  d->jkeys = 0;
  if (!walls_zero) reset_keys(d);
  d->seed_count = d->cseed_len = 0;
  for (size_t i = 0; i < d->goal_count; i++) {
    const uint32_t c = d->goals[i];
    if (!gc->cls[c]) continue; /* a wall */
    if (g.tag[c]) {
      if (!jseed(d, &g, c, 0)) return 0;
      continue;
    }
    for (unsigned k = 0; k < 8; k++) { /* a skipped goal: its ways in through its kept neighbours */
      const uint32_t n = (uint32_t)((int32_t)c + off[k]);
      if (g.tag[n] && !jseed(d, &g, n, k < 4 ? d->sk[1] : d->dk[1])) return 0;
    }
  }
  /* junctions taken per junction on the benchmark's maze: 1.07 (1 goal), 1.15 (100) */
  const int r = jcorrect(d, 2 * (uint64_t)g.njunc + 16);
  if (r <= 0) return r;
  for (uint32_t v = 0; v < g.njunc; v++) d->jdist[v] = node_dist[d->jnew[v]]; /* in the graph's order */
  jends(d, &g);
  jfill(d);
  jchain_goals(d, &g);
  jskipped(d, &g, off);
  d->jkeys = gc->serial + 1;
  return 1;
}

/* The field from d->goals on a map of one cost, 8 neighbours, no limit:
** the pair search's Dial loop (griddial.h) from the goals, settled first.
** The scale makes a straight step KEY_ONE, so that an update's scans go
** on with the same keys. 1 done, 0 ENOMEM, -1 when the map is not for it
** (the other scans then). */
static int dial_field(strata_distmap *d) {
  const double diag = d->diag, cost = d->classes.cost[1];
  /* the junctions and the loop's walls are the map's: held cells are not */
  if (d->occupied != STRATA_OCCUPIED_IGNORE || !d->eight || d->classes.count != 1 || !(diag < BUCKETS_MAX / 8 - 2) ||
      distance_bound(d) / cost * (double)KEY_ONE > KEY_ROOM / 4)
    return -1;
  d->scale = (double)KEY_ONE / cost;
  dial_run r = {d->key, NULL, 0, 0, UINT32_MAX, (int32_t)d->pw, 1, DIAL_PROBE << (KEY_SHIFT - NARROW_SHIFT), 0, {{0, 0}},
                0, 0};
  const int pruned = dial_offers(&r, diag);
  r.split = pruned; /* two lists a bucket (dial_loop) */
  if (!prepare_steps(d)) return 0;
  if (d->sk[1] != KEY_ONE || d->limit != UINT64_MAX) return -1;
  d->dk[1] = r.dkey; /* truncated as the loop has it, for the updates' scans */
  /* the ring holds buckets k to k + 1 + diag, and d->ring's other users' */
  if (!ring_for(d, (uint64_t)(((uint32_t)diag + 2) * 8) << NARROW_SHIFT)) return 0; /* shift: NARROW_SHIFT */
  if (r.split && !ring_for(d, (uint64_t)(d->mask + 1) << NARROW_SHIFT)) return 0; /* twice the lists */
  r.bucket = d->ring, r.mask = d->mask >> r.split;
  for (uint32_t b = 0; b <= d->mask; b++) r.bucket[b].len = 0;
  const int maze = junction_field(d);
  if (maze >= 0) return maze;
  reset_keys(d);
  uint64_t settled = dial_goals(d, &r);
  if (settled == UINT64_MAX) return 0;
  if (settled == 0) return d->settled = 0, 1; /* every goal a wall */
  const uint64_t goals = settled;
  /* canonical offers for the probe's first DIAL_SAMPLE cells, then the loop they chose */
  r.enough = goals + DIAL_SAMPLE;
  int found = dial_go(&r, pruned, 1, 0, &settled), wide = 0, canon = 1;
  if (found == 2) {
    canon = r.forced * DIAL_FORCED < settled - goals;
    r.enough = UINT64_MAX;
    if (r.from != r.until) found = dial_go(&r, pruned, canon, 0, &settled);
  }
  if (found == 2) {
    const uint64_t each = (settled - goals) / goals;
    wide = each < DIAL_FEW;
    if (wide && !dial_widen(d, &r)) return 0;
    r.until = 0;
    found = dial_go(&r, pruned, canon, wide, &settled);
  }
  d->settled = settled;
  return found >= 0;
}

static int run_scan(strata_distmap *d) {
  if (d->seed_count > 1) qsort(d->seeds, d->seed_count, sizeof *d->seeds, seed_order);
  if (d->classes.count == 1) return d->eight ? scan_fifo(d, 1) : scan_fifo(d, 0);
  if (d->wide) return d->eight ? scan(d, 1, 0, 1) : scan(d, 0, 0, 1);
  if (d->sparse) return d->eight ? scan(d, 1, 1, 0) : scan(d, 0, 1, 0);
  return d->eight ? scan(d, 1, 0, 0) : scan(d, 0, 0, 0);
}

static int seeds_room(strata_distmap *d, size_t n) {
  d->seed_count = 0;
  return STRATA_GROW(d->seeds, d->seed_cap, n ? n : 1);
}

/* ---- computing ---- */

static strata_status check_options(const strata_distmap_options *o, strata_error *err) {
  if (o->connectivity != 4 && o->connectivity != 8)
    return strata_error_set(err, STRATA_EARG, "connectivity must be 4 or 8, got %d", o->connectivity);
  if (!(o->diagonal_cost >= 1) || !isfinite(o->diagonal_cost))
    return strata_error_set(err, STRATA_EARG, "diagonal cost must be at least 1, got %g",
                            o->diagonal_cost);
  if (!(o->max_cost >= 0))
    return strata_error_set(err, STRATA_EARG, "max_cost must be a number >= 0, got %g", o->max_cost);
  if ((unsigned)o->occupied > STRATA_OCCUPIED_COST)
    return strata_error_set(err, STRATA_EARG, "unknown occupied mode %d", (int)o->occupied);
  if (o->occupied == STRATA_OCCUPIED_COST && (!(o->occupied_cost >= 0) || !isfinite(o->occupied_cost)))
    return strata_error_set(err, STRATA_EARG, "occupied_cost must be 0 or more and finite, got %g",
                            o->occupied_cost);
  return STRATA_OK;
}

static strata_status nomem(const strata_distmap *d, strata_error *err) {
  return strata_error_nomem(err, "for a distance map of a %dx%d map", d->width, d->height);
}

/* Sizes the field for m, its classes and keys from m's cells; remembers
** what they were built from. */
static strata_status take_map(strata_distmap *d, const strata_tilemap *m, strata_error *err) {
  d->width = m->width, d->height = m->height;
  d->pw = (uint32_t)m->width + 2, d->ph = (uint32_t)m->height + 2;
  const uint32_t n = d->pw * d->ph;
  const strata_tokens *t = m->tokens;
  /* the class grid of the last compute or update serves while the map and
  ** its token table are as they were then (a game computing fields every
  ** turn: a third of a field on rooms) */
  const int same = d->classes_of_map && d->map_id == m->id && d->map_revision == m->revision &&
                   d->table == t && d->tokens_revision == strata_tokens_revision(t) &&
                   d->tokens_count == strata_tokens_count(t);
  d->classes_of_map = 0;
  if (!same && (!grid_token_costs(&d->token_cost, &d->token_cost_cap, t) ||
                !grid_classes_build(&d->classes, m, d->token_cost)))
    return nomem(d, err);
  if (d->classes.too_many)
    return strata_error_set(err, STRATA_EARG, "a distance map takes at most %d distinct costs",
                            GRID_MAX_CLASSES);
  if (n > d->key_cap) {
    uint64_t *key = strata_malloc((size_t)n * sizeof *key);
    if (key == NULL) return nomem(d, err);
    strata_free(d->key);
    d->key = key, d->key_cap = n, d->jkeys = 0;
    /* read near the search's front, a row apart: the TLB misses less */
    strata_hugepages(key, (size_t)n * sizeof *key);
  }
  d->map_id = m->id, d->map_revision = m->revision;
  d->table = t, d->tokens_revision = strata_tokens_revision(t), d->tokens_count = strata_tokens_count(t);
  d->classes_of_map = 1;
  return STRATA_OK;
}

static int is_goal(const strata_distmap *d, uint32_t p);

/* Writes the cells actors hold (goals aside) into the class grid as walls
** or dearer classes, as the grid searches take them: every scan then sees
** them with no test of its own. The grid is then no longer the map's. */
static strata_status hold_cells(strata_distmap *d, const strata_tilemap *m, strata_error *err) {
  if (m->occ_lost)
    return strata_error_nomem(err, "the cells actors hold on this %dx%d map were lost; the world "
                              "counts them again at the next move on it", m->width, m->height);
  grid_classes *gc = &d->classes;
  d->classes_of_map = 0;
  gc->serial++; /* other contents: the junctions are of the map's */
  const uint32_t w = (uint32_t)m->width;
  /* the count's own slots (cell index + 1 -> actors): a few actors on a
  ** large map are a few cells read, not the map */
  for (size_t s = 0; s < m->occ.cap; s++) {
    const uidmap_entry *e = &m->occ.e[s];
    if (e->uid == 0 || e->at == 0) continue;
    const uint32_t i = (uint32_t)(e->uid - 1), p = (i / w + 1) * d->pw + i % w + 1;
    if (gc->cls[p] == 0 || is_goal(d, p)) continue;
    const int c = d->occupied == STRATA_OCCUPIED_BLOCK
                      ? 0
                      : grid_class_of(gc, gc->cost[gc->cls[p]] + d->occupied_cost);
    if (c < 0)
      return strata_error_set(err, STRATA_EARG, "a distance map takes at most %d distinct costs "
                              "(occupied cells' included)", GRID_MAX_CLASSES);
    gc->cls[p] = (uint8_t)c;
  }
  return STRATA_OK;
}

/* The field afresh from d->goals, on m. */
static strata_status recompute(strata_distmap *d, const strata_tilemap *m, strata_error *err) {
  d->computed = 0;
  d->settled = 0;
  strata_status st = take_map(d, m, err);
  if (st == STRATA_OK && d->occupied != STRATA_OCCUPIED_IGNORE) st = hold_cells(d, m, err);
  if (st != STRATA_OK) return st;
  d->offset = 0;
  const int dial = dial_field(d); /* -1: not a map for it (a limit, costs) */
  if (dial == 0) return nomem(d, err);
  if (dial == 1) return d->computed = 1, STRATA_OK;
  if (!prepare_scale(d, distance_bound(d)) || !seeds_room(d, d->goal_count)) return nomem(d, err);
  if (!precise(d)) return imprecise(d, err);
  reset_keys(d);
  for (size_t i = 0; i < d->goal_count; i++) {
    const uint32_t g = d->goals[i];
    if (d->key[g] == 0) continue; /* a goal nobody can stand on */
    d->key[g] = 0; /* distance 0, unsettled (a wall's key, until it is settled) */
    d->seeds[d->seed_count++] = (seed){0, g};
  }
  if (!run_scan(d)) return nomem(d, err);
  d->computed = 1;
  return STRATA_OK;
}

static int cell_order(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Takes the goals (map indices) as padded indices, sorted, each once. */
static strata_status set_goals(strata_distmap *d, const strata_tilemap *m, const uint32_t *goals,
                               size_t count, strata_error *err) {
  const uint32_t w = (uint32_t)m->width, cells = w * (uint32_t)m->height;
  d->goal_count = 0;
  for (size_t i = 0; i < count; i++)
    if (goals[i] >= cells)
      return strata_error_set(err, STRATA_EARG, "goal %zu (cell %u) is outside the %dx%d map", i + 1,
                              goals[i], m->width, m->height);
  if (!STRATA_GROW(d->goals, d->goal_cap, count ? count : 1))
    return strata_error_nomem(err, "for %zu goals of a distance map", count);
  for (size_t i = 0; i < count; i++) d->goals[i] = (goals[i] / w + 1) * (w + 2) + goals[i] % w + 1;
  qsort(d->goals, count, sizeof *d->goals, cell_order);
  size_t n = 0;
  for (size_t i = 0; i < count; i++)
    if (n == 0 || d->goals[n - 1] != d->goals[i]) d->goals[n++] = d->goals[i];
  d->goal_count = n;
  return STRATA_OK;
}

strata_status strata_distmap_compute(strata_distmap *d, const strata_tilemap *m, const uint32_t *goals,
                                     size_t count, const strata_distmap_options *opt, strata_error *err) {
  strata_distmap_options defaults;
  if (opt == NULL) strata_distmap_options_init(&defaults), opt = &defaults;
  if (d == NULL || m == NULL)
    return strata_error_set(err, STRATA_EARG, "a distance map needs a field object and a map");
  d->computed = 0;
  strata_status st = check_options(opt, err);
  if (st == STRATA_OK) st = set_goals(d, m, goals, count, err);
  if (st != STRATA_OK) return st;
  d->is_flee = 0;
  d->eight = opt->connectivity == 8;
  d->diag = d->eight ? opt->diagonal_cost : 1;
  d->max_cost = opt->max_cost;
  d->occupied = opt->occupied, d->occupied_cost = opt->occupied_cost;
  return recompute(d, m, err);
}

strata_status strata_distmap_compute_where(strata_distmap *d, const strata_tilemap *m,
                                           strata_distmap_goal_fn fn, void *ud,
                                           const strata_distmap_options *opt, strata_error *err) {
  if (d == NULL || m == NULL || fn == NULL)
    return strata_error_set(err, STRATA_EARG, "a distance map needs a field object, a map and a predicate");
  uint32_t *cells = NULL;
  size_t count = 0, cap = 0;
  for (int y = 0; y < m->height; y++)
    for (int x = 0; x < m->width; x++) {
      if (!fn(ud, x, y)) continue;
      if (!STRATA_GROW(cells, cap, count + 1)) {
        strata_free(cells);
        return strata_error_nomem(err, "for the goals of a distance map");
      }
      cells[count++] = (uint32_t)y * (uint32_t)m->width + (uint32_t)x;
    }
  strata_status st = strata_distmap_compute(d, m, cells, count, opt, err);
  strata_free(cells);
  return st;
}

/* ---- reading ---- */

static const int DX[8] = {0, 1, 0, -1, 1, 1, -1, -1}, DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

static uint32_t padded(const strata_distmap *d, int x, int y) {
  return (uint32_t)(y + 1) * d->pw + (uint32_t)(x + 1);
}

int strata_distmap_at(const strata_distmap *d, int x, int y, double *dist) {
  if (!d->computed || x < 0 || y < 0 || x >= d->width || y >= d->height) return 0;
  const uint64_t k = d->key[padded(d, x, y)];
  if (!reached(k)) return 0;
  *dist = (double)dist_of(k) / d->scale - d->offset;
  return 1;
}

/* The distance through the best neighbour of p, and its direction (-1: none). */
static uint64_t best_neighbour(const strata_distmap *d, uint32_t p, int *dir) {
  const int32_t pw = (int32_t)d->pw;
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  uint64_t best = UINT64_MAX;
  *dir = -1;
  for (int k = 0; k < (d->eight ? 8 : 4); k++) {
    const uint32_t n = (uint32_t)((int32_t)p + off[k]);
    const uint64_t kn = d->key[n];
    if (!reached(kn)) continue;
    const uint64_t via = dist_of(kn) + (k < 4 ? d->sk : d->dk)[d->classes.cls[n]];
    if (via < best) best = via, *dir = k;
  }
  return best;
}

int strata_distmap_step_down(const strata_distmap *d, int x, int y, int *nx, int *ny) {
  if (!d->computed || x < 0 || y < 0 || x >= d->width || y >= d->height) return 0;
  const uint32_t p = padded(d, x, y);
  const uint64_t own = reached(d->key[p]) ? dist_of(d->key[p]) : UINT64_MAX;
  int dir;
  const uint64_t best = best_neighbour(d, p, &dir);
  if (dir < 0 || best > own || (best == own && own == UINT64_MAX)) return 0;
  *nx = x + DX[dir], *ny = y + DY[dir];
  return 1;
}

/* ---- flee ---- */

strata_status strata_distmap_flee(strata_distmap *dst, const strata_distmap *src, double factor,
                                  strata_error *err) {
  if (dst == NULL || src == NULL || dst == src)
    return strata_error_set(err, STRATA_EARG, "flee needs a distance map and another field to fill");
  if (!src->computed || src->is_flee)
    return strata_error_set(err, STRATA_EARG, "flee: %s",
                            src->is_flee ? "a flee map is not fled again: flee its distance map"
                                         : "the distance map was never computed");
  if (!(factor > 0) || !isfinite(factor))
    return strata_error_set(err, STRATA_EARG, "flee factor must be a positive number, got %g", factor);
  dst->computed = 0, dst->classes_of_map = 0;
  dst->settled = 0;
  const uint32_t n = src->pw * src->ph;
  grid_classes *gc = &dst->classes;
  if (gc->cls == NULL || gc->pw != src->pw || gc->ph != src->ph) {
    strata_free(gc->cls);
    gc->pw = gc->ph = 0;
    if ((gc->cls = strata_malloc(n)) == NULL) return nomem(src, err);
    gc->pw = src->pw, gc->ph = src->ph;
  }
  uint8_t *cls = gc->cls;
  const uint64_t serial = gc->serial; /* this grid's own count: its junctions are of its own contents */
  *gc = src->classes;
  gc->cls = cls, gc->serial = serial + 1;
  memcpy(cls, src->classes.cls, n);
  if (n > dst->key_cap) {
    uint64_t *key = strata_malloc((size_t)n * sizeof *key);
    if (key == NULL) return nomem(src, err);
    strata_free(dst->key);
    dst->key = key, dst->key_cap = n;
  }
  dst->jkeys = 0;
  dst->width = src->width, dst->height = src->height, dst->pw = src->pw, dst->ph = src->ph;
  dst->eight = src->eight, dst->diag = src->diag, dst->max_cost = HUGE_VAL;
  dst->is_flee = 1, dst->goal_count = 0;
  uint64_t far = 0;
  size_t count = 0;
  for (uint32_t i = 0; i < n; i++)
    if (reached(src->key[i])) {
      count++;
      if (dist_of(src->key[i]) > far) far = dist_of(src->key[i]);
    }
  const double farthest = (double)far / src->scale;
  dst->offset = factor * farthest;
  /* keys are fixed point under a bound: an infinite one holds no distance */
  if (!prepare_scale(dst, dst->offset + distance_bound(dst)) || !seeds_room(dst, count))
    return nomem(src, err);
  /* keys are fixed point under a bound: a factor too large leaves no room for the steps */
  if (!isfinite(dst->offset + distance_bound(dst)) || !precise(dst))
    return strata_error_set(err, STRATA_EARG, "flee factor %g is too large for this map", factor);
  reset_keys(dst);
  for (uint32_t i = 0; i < n; i++) {
    if (!reached(src->key[i])) continue;
    const uint64_t k = to_key(factor * (farthest - (double)dist_of(src->key[i]) / src->scale) * dst->scale);
    dst->key[i] = k;
    dst->seeds[dst->seed_count++] = (seed){k, i};
  }
  if (!run_scan(dst)) return nomem(src, err);
  dst->computed = 1;
  return STRATA_OK;
}

/* ---- updating ---- */

/* The step keys of class c, new since the field was computed, the ring
** grown to hold them: 1, 0 on ENOMEM, -1 when the field's scale or ring
** cannot hold them (a compute afresh can). */
static int class_fits(strata_distmap *d, unsigned c) {
  const double cost = d->classes.cost[c];
  const uint64_t s = to_key(cost * d->scale), g = to_key(cost * d->diag * d->scale);
  const uint64_t step = d->eight ? g : s;
  if (s < 16 || (step >> d->shift) + 2 > RING_MAX || distance_bound(d) * d->scale > KEY_ROOM)
    return -1;
  d->sk[c] = s, d->dk[c] = g;
  if ((s >> d->shift) == 0) d->wide = 1;
  return (step >> d->shift) + 2 <= d->mask + 1 || ring_for(d, step);
}

/* Reads the cells of the chunks edited since the field's revision into the
** class grid, listing each cell whose class changed and its old class. 1
** done, 0 ENOMEM, -1 when the edits need a compute afresh (a cost outside
** the field's scale, too many classes or cells). */
static int find_changes(strata_distmap *d, const strata_tilemap *m) {
  grid_classes *gc = &d->classes;
  const uint32_t cs = TILEMAP_CHUNK, w = (uint32_t)m->width, h = (uint32_t)m->height;
  d->change_len = 0;
  for (uint32_t cy = 0; cy < m->chunk_rows; cy++)
    for (uint32_t cx = 0; cx < m->chunk_cols; cx++) {
      if (m->chunk_rev[cy * m->chunk_cols + cx] <= d->map_revision) continue;
      const uint32_t x1 = (cx + 1) * cs < w ? (cx + 1) * cs : w, y1 = (cy + 1) * cs < h ? (cy + 1) * cs : h;
      for (uint32_t y = cy * cs; y < y1; y++)
        for (uint32_t x = cx * cs; x < x1; x++) {
          const uint32_t p = (y + 1) * d->pw + x + 1;
          const unsigned count = gc->count;
          const int c = grid_class_of(gc, tilemap_cell_cost(m, d->token_cost, y * w + x));
          const int fits = c < 0 ? -1 : gc->count != count ? class_fits(d, (unsigned)c) : 1;
          if (fits <= 0) return fits;
          if ((unsigned)c == gc->cls[p]) continue;
          if (d->change_len >= (size_t)w * h / 16 + 16) return -1;
          if (!STRATA_GROW(d->changes, d->change_cap, d->change_len + 1)) return 0;
          d->changes[d->change_len++] = (change){p, gc->cls[p]};
          gc->cls[p] = (uint8_t)c;
          gc->serial += d->change_len == 1; /* new contents: the junctions are of the old */
        }
    }
  return 1;
}

static int is_goal(const strata_distmap *d, uint32_t p) {
  return bsearch(&p, d->goals, d->goal_count, sizeof p, cell_order) != NULL;
}

/* Lists the reached neighbours of p farther than dist: those whose
** distance may have rested on p. 0 on ENOMEM. */
static int list_dependants(strata_distmap *d, uint32_t p, uint64_t dist) {
  const int32_t pw = (int32_t)d->pw;
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  for (int k = 0; k < (d->eight ? 8 : 4); k++) {
    const uint32_t n = (uint32_t)((int32_t)p + off[k]);
    if (reached(d->key[n]) && dist_of(d->key[n]) > dist && !WORK_ADD(d, n)) return 0;
  }
  return 1;
}

/* Drops the distances that rested on cells made dearer or walled: a cell
** keeps its distance while some neighbour still gives it (or less, when a
** neighbour became cheaper: the scan lowers it then). The dropped cells go
** to d->dropped. Cells walled get key 0, opened ones unseen. 0 on ENOMEM. */
static int drop_unsupported(strata_distmap *d) {
  const grid_classes *gc = &d->classes;
  d->work_len = d->dropped_len = 0;
  for (size_t i = 0; i < d->change_len; i++) {
    const uint32_t p = d->changes[i].cell, old = d->changes[i].old, now = gc->cls[p];
    const uint64_t kp = d->key[p];
    if (now == 0) d->key[p] = 0;
    else if (old == 0) d->key[p] = KEY_UNSEEN;
    if (old == 0 || (now != 0 && gc->cost[now] <= gc->cost[old]) || !reached(kp)) continue;
    /* dearer or walled: what entered p is in doubt (the dependants of p) */
    if (!list_dependants(d, p, now == 0 ? 0 : dist_of(kp) > 0 ? dist_of(kp) - 1 : 0)) return 0;
  }
  for (size_t head = 0; head < d->work_len; head++) {
    const uint32_t v = d->work[head];
    const uint64_t kv = d->key[v];
    if (!reached(kv) || dist_of(kv) == 0) continue; /* dropped already, or a goal */
    int dir;
    if (best_neighbour(d, v, &dir) <= dist_of(kv)) continue;
    d->key[v] = KEY_UNSEEN;
    if (!list_add(&d->dropped, &d->dropped_len, &d->dropped_cap, v) ||
        !list_dependants(d, v, dist_of(kv)))
      return 0;
  }
  return 1;
}

/* Seeds the scan with cell p when its neighbours (or being a goal) give
** it less than it has. 0 on ENOMEM. */
static int reseed(strata_distmap *d, uint32_t p) {
  if (d->classes.cls[p] == 0) return 1;
  int dir = 0;
  const uint64_t have = reached(d->key[p]) ? dist_of(d->key[p]) : UINT64_MAX;
  const uint64_t best = is_goal(d, p) ? 0 : best_neighbour(d, p, &dir);
  if (best >= have) return 1;
  const uint64_t k = best | (uint64_t)(dir < 0 ? 0 : dir);
  d->key[p] = k;
  if (!STRATA_GROW(d->seeds, d->seed_cap, d->seed_count + 1)) return 0;
  d->seeds[d->seed_count++] = (seed){k, p};
  return 1;
}

/* The field after the listed changes: drop, seed the dropped cells and the
** changed ones with their neighbours, scan. 0 on ENOMEM. */
static int repair(strata_distmap *d) {
  const int32_t pw = (int32_t)d->pw;
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  if (!drop_unsupported(d)) return 0;
  d->seed_count = 0;
  for (size_t i = 0; i < d->dropped_len; i++)
    if (!reseed(d, d->dropped[i])) return 0;
  for (size_t i = 0; i < d->change_len; i++) {
    const uint32_t p = d->changes[i].cell;
    if (!reseed(d, p)) return 0;
    for (int k = 0; k < (d->eight ? 8 : 4); k++)
      if (!reseed(d, (uint32_t)((int32_t)p + off[k]))) return 0;
  }
  return run_scan(d);
}

strata_status strata_distmap_update(strata_distmap *d, const strata_tilemap *m, strata_error *err) {
  if (d == NULL || m == NULL) return strata_error_set(err, STRATA_EARG, "update needs a field and a map");
  if (!d->computed)
    return strata_error_set(err, STRATA_EARG, "update: the distance map was never computed");
  if (d->is_flee)
    return strata_error_set(err, STRATA_EARG,
                            "update: a flee map is not updated: update its distance map and flee again");
  if (m->width != d->width || m->height != d->height)
    return strata_error_set(err, STRATA_EARG, "update: the %dx%d map is not the %dx%d map of the field",
                            m->width, m->height, d->width, d->height);
  const strata_tokens *t = m->tokens;
  /* actors move without a revision of the map: their cells are read afresh */
  if (d->occupied != STRATA_OCCUPIED_IGNORE || m->id != d->map_id || t != d->table || strata_tokens_revision(t) != d->tokens_revision ||
      strata_tokens_count(t) != d->tokens_count)
    return recompute(d, m, err);
  d->settled = 0;
  if (m->revision == d->map_revision) return STRATA_OK;
  const int r = find_changes(d, m);
  if (r < 0) return recompute(d, m, err);
  d->computed = 0; /* until repaired: a failure leaves no half-made field readable */
  if (r == 0 || !repair(d)) return nomem(d, err);
  d->map_revision = m->revision;
  d->computed = 1;
  return STRATA_OK;
}
