/*
** griddial.h - the fixed-point bucket queue of Dijkstra on padded class
** grids (Dial's buckets), shared by the pair search of gridflood.c and the
** distance maps of distmap.c.
**
** A cell's key is its distance in fixed point with 4 low bits of flags: the
** direction it was reached from (3 bits) and KEY_SETTLED. Walls hold 0 (no
** offer is below it), unseen cells KEY_UNSEEN. Buckets hold cells by their
** distance; an offer is written at its bucket's tail whether or not it is
** nearer, and the tail moves on only when it is (no branch: which
** neighbours improve looks random to the predictor).
*/
#ifndef STRATA_GRIDDIAL_H
#define STRATA_GRIDDIAL_H

#include <stdint.h>

#include "util.h"

#if defined(__SSE2__) && !defined(STRATA_NO_SIMD)
#include <emmintrin.h>
#endif

#define KEY_SETTLED 8u
#define KEY_LOW 15u          /* the direction and KEY_SETTLED */
#define KEY_UNSEEN UINT64_MAX
#define BUCKETS_MAX 512 /* a ring of Dial's buckets at most: diagonals below 62 */

/* The cells of one bucket. */
typedef struct cell_list {
  uint32_t *items;
  uint32_t len, cap;
} cell_list;

/* Room for n more cells in list l; 0 on ENOMEM. */
static inline int list_room(cell_list *l, uint32_t n) {
  return l->len + n <= l->cap || STRATA_GROW32(l->items, l->cap, (size_t)l->len + n);
}

/* Offers the cell at pv (index v) the key c (distance and direction): if
** its distance is less, c replaces the cell's key and v is written at its
** bucket's tail (written there anyway; the tail moves on only then). One
** compare: cl, c with its low bits set, is below the cell's key only if c's
** distance is. The item first and the length by the compare alone: gcc
** makes that a compare and an add with carry, no set-and-widen. */
static inline __attribute__((always_inline)) size_t relax(uint64_t *pv, uint32_t *items, size_t len,
                                                          uint32_t v, uint64_t c, uint64_t cl) {
  const uint64_t kv = *pv;
  items[len] = v;
  len += cl < kv;
  *pv = kv > cl ? c : kv;
  return len;
}

/* Dijkstra with straight steps of cost 1 and diagonal steps of cost diag
** (Dial's buckets). A cell's key is its distance in fixed point (KEY_ONE a
** straight step, diag * KEY_ONE rounded a diagonal one: sums of whole
** numbers, the same whatever the order of the steps) with the direction it
** came from in the low 3 bits and KEY_SETTLED above them; walls hold 0,
** unseen cells KEY_UNSEEN. Buckets hold the cells by their distance in
** eighths of a step: every step costs at least 1, so a cell can give no
** cell of its own bucket a shorter route, and the cells of a bucket are
** final in any order: no heap, no sorting. A neighbour offered a shorter
** distance takes it without a branch (which neighbours improve looks
** random to the predictor). Ties go to the first offer, in the buckets'
** order, which the map and the request alone fix. For sqrt 2 the rounding
** of the diagonal (under 2^-32) orders two routes right while they differ
** by fewer than some 39,000 diagonal steps (the doubles of the generic
** engine have their own rounding). */
#define KEY_SHIFT 36
#define KEY_ONE ((uint64_t)1 << KEY_SHIFT)
/* Buckets of an eighth of a step: any width up to a step keeps a bucket's
** cells final, and a narrow one has fewer offers bettered later. */
#define BUCKET_SHIFT (KEY_SHIFT - 3)
/* What a cell offers, by the direction it came from: per direction
** DIAL_SLOTS offers, the straight ones first, each the neighbour's index
** less the cell's and what the offer's key adds to the cell's key with its
** low bits set and a step added: the direction, less KEY_LOW. A slot a
** direction does not use offers the cell itself (settled: never nearer). */
#define DIAL_SLOTS 8
#define DIAL_AHEAD 6
typedef struct dial_offer {
  int64_t off, adj;
} dial_offer;

typedef struct dial_run {
  uint64_t *key;
  cell_list *bucket;
  uint64_t dkey;
  uint32_t mask, goal;
  int32_t pw;
  uint32_t from, until; /* the buckets to read: from (1 at first), before until (a pause) */
  uint32_t split;       /* 1: two lists a bucket (dial_list), 2 (mask + 1) in all */
  dial_offer offer[8 * DIAL_SLOTS];
  uint64_t forced; /* the cells that made forced offers (CANON) */
  uint64_t enough; /* a field's loop pauses too once it has settled this many */
} dial_run;

/* The offers of the cells [p, end) of bucket k to the lists of len and
** items (a diagonal later, or the next bucket, and a step later; with
** ALIAS the first is the third). LEAN: cells reached by a straight step,
** whose slots 1 and 2 are unused (a cell reached diagonally since it was
** listed, rare, offers them too: a branch the predictor gets right).
** CANON (dial_offers): slots 3 and 4 are offered only when forced, behind
** one branch; *forced counts the cells that took it. 1 when the goal is
** settled (*settled then counts it), else 0; *stale counts second entries. */
static inline __attribute__((always_inline)) int dial_cells(const dial_run *r, const uint32_t *p, const uint32_t *end,
                                                            uint32_t *const items[3], size_t len[3], uint32_t k,
                                                            const int pruned, const int alias, const int lean,
                                                            const int canon, const unsigned bshift, const int field,
                                                            uint64_t *settled, uint32_t *stale, uint64_t *forced) {
  uint64_t *const key = r->key;
  const uint32_t goal = r->goal;
  const uint64_t dkey = r->dkey;
  const uint32_t dbuckets = (uint32_t)(dkey >> bshift);
  const int straight = pruned ? 2 : 4, offers = pruned ? 5 : 8;
  const intptr_t pw = r->pw;
  const uint32_t *const first = p;
  uint32_t *const is = items[2];
  size_t ns = len[2]; /* the straight offers' length, in a register */
  for (const uint32_t *q = p; field && q < end && q < p + DIAL_AHEAD; q++) {
    __builtin_prefetch(key + *q - pw, 1);
    __builtin_prefetch(key + *q + pw, 1);
  }
  for (; p < end; p++) {
    /* The keys of the cell DIAL_AHEAD entries on and of its eight
    ** neighbours, asked for now: a bucket's cells lie along the front, rows
    ** apart, and each waited for its keys (1.3 times the time on the open
    ** map; 4 to 8 entries ahead alike). A column either side: the lines of
    ** all nine. */
    if (end - p > DIAL_AHEAD) {
      const uint64_t *const ahead = key + p[DIAL_AHEAD];
      __builtin_prefetch(ahead - 1, 1);
      __builtin_prefetch(ahead + 1, 1);
      __builtin_prefetch(ahead - pw - 1, 1);
      __builtin_prefetch(ahead - pw + 1, 1);
      __builtin_prefetch(ahead + pw - 1, 1);
      __builtin_prefetch(ahead + pw + 1, 1);
    }
    const uint32_t u = *p;
    uint64_t *const pu = key + u;
    const uint64_t ku = *pu;
    if (ku & KEY_SETTLED) { /* left already: a second entry */
      ++*stale;
      continue;
    }
    *pu = ku | KEY_SETTLED;
    if (!field && u == goal) return *settled += (uint64_t)(p - first) + 1 - *stale, 1; /* a field: no goal */
    const uint64_t kl = ku | KEY_LOW, ks = kl + KEY_ONE, kd = kl + dkey;
    const uint32_t late = (uint32_t)(kd >> bshift) - (k + dbuckets);
    const int shared = alias && !late; /* the diagonal offers go after the straight ones */
    const int all = !lean || (ku & 4u);
    const dial_offer *const o = r->offer + DIAL_SLOTS * (ku & 7u);
    if (canon) {
      ns = relax(pu + o[0].off, is, ns, u + (uint32_t)o[0].off, ks + (uint64_t)o[0].adj, ks);
      /* forced: the cell beside is a wall and the offer betters the diagonal */
      const int f3 = (pu[o[5].off] == 0) & (kd < pu[o[3].off]), f4 = (pu[o[6].off] == 0) & (kd < pu[o[4].off]);
      if (__builtin_expect(!all & !f3 & !f4, 1)) continue;
      *forced += (uint64_t)(f3 | f4);
      uint32_t *const id = items[late];
      size_t n = len[late];
      if (all) {
        ns = relax(pu + o[1].off, is, ns, u + (uint32_t)o[1].off, ks + (uint64_t)o[1].adj, ks);
        n = relax(pu + o[2].off, id, n, u + (uint32_t)o[2].off, kd + (uint64_t)o[2].adj, kd);
      }
      /* an offer not forced: a key no cell is above */
      n = relax(pu + o[3].off, id, n, u + (uint32_t)o[3].off, kd + (uint64_t)o[3].adj, kd | (0 - (uint64_t)!f3));
      n = relax(pu + o[4].off, id, n, u + (uint32_t)o[4].off, kd + (uint64_t)o[4].adj, kd | (0 - (uint64_t)!f4));
      len[late] = n;
      continue;
    }
#pragma GCC unroll 8
    for (int j = 0; j < straight; j++)
      if (j == 0 || all) ns = relax(pu + o[j].off, is, ns, u + (uint32_t)o[j].off, ks + (uint64_t)o[j].adj, ks);
    uint32_t *const id = shared ? is : items[late];
    size_t n = shared ? ns : len[late];
#pragma GCC unroll 8
    for (int j = straight; j < offers; j++)
      if (j != straight || all) n = relax(pu + o[j].off, id, n, u + (uint32_t)o[j].off, kd + (uint64_t)o[j].adj, kd);
    if (shared) ns = n;
    else len[late] = n;
  }
  len[2] = ns;
  *settled += (uint64_t)(end - first);
  return 0;
}

/* The list of bucket k (of a ring of mask + 1) for the cells reached
** straight (diagonal 0) or diagonally: with SPLIT, two a bucket. */
static inline cell_list *dial_list(cell_list *bucket, uint32_t mask, uint32_t k, int split, int diagonal) {
  return &bucket[split ? 2 * (k & mask) + (uint32_t)diagonal : k & mask];
}

/* The buckets from the start's, whose neighbours are queued. PRUNED (a
** diagonal cheaper than two straight steps): a cell offers routes only to
** the neighbours its parent could not reach as cheaply. One reached by a
** straight step reaches its sides and the cells behind them more cheaply
** from its parent, so it offers the three ahead; one reached diagonally
** offers the three ahead and the two whose way round, past its parent's
** side, may be walled (jump point search's natural and forced neighbours,
** the forced ones always). Else every neighbour. By the table of offers,
** not a switch: the direction hardly repeats from cell to cell, and a
** mispredicted jump per cell cost more than the unused slots. SPLIT (a
** field's pruned offers, whose ties nobody reads): the cells reached
** straight wait in lists of their own and skip the unused slots without a
** mispredicted jump, and no diagonal offer shares the straight offers'
** list (ALIAS's choice of list was a jump mispredicted some 60,000 times
** a field on the benchmark's rooms: 1.35 times as fast without). Buckets
** of 2^bshift keys, at most a step (KEY_SHIFT). CANON (with SPLIT):
** canonical offers (dial_offers), r->forced counting the cells whose
** forced offers were made. ALIAS (not with SPLIT): a
** diagonal later is the straight step's bucket or the next, so the offers
** a diagonal later may go to the bucket of those a step later. 1 found, 0 not (for goal UINT32_MAX: every cell it reaches
** settled), 2 paused at bucket until or with r->enough settled (r->from
** then), -1 ENOMEM. */
static inline __attribute__((always_inline)) int dial_loop(dial_run *r, const int pruned,
                                                           const int alias, const unsigned bshift,
                                                           const int field, const int canon, uint64_t *pops) {
  const int split = field && pruned;
  cell_list *const bucket = r->bucket;
  const uint32_t mask = r->mask;
  const uint32_t dbuckets = (uint32_t)(r->dkey >> bshift), sbuckets = (uint32_t)(KEY_ONE >> bshift);
  uint64_t settled = *pops;
  const uint32_t until = r->until;
  for (uint32_t k = r->from, empty = 0; empty <= mask; k++) {
    if (field && (k == until || settled >= r->enough)) return r->from = k, *pops = settled, 2;
    cell_list *const cur = dial_list(bucket, mask, k, split, 0);
    const uint32_t count = cur->len + (split ? cur[1].len : 0);
    empty = count ? 0 : empty + 1;
    if (!count) continue;
    /* The offers go to three lists, held here: a diagonal later (l[0], or
    ** the next bucket's, l[1]) and a step later (l[2]); room in each for
    ** eight offers of each of this bucket's cells. */
    cell_list *const l[3] = {dial_list(bucket, mask, k + dbuckets, split, 1),
                             dial_list(bucket, mask, k + dbuckets + 1, split, 1),
                             dial_list(bucket, mask, k + sbuckets, split, 0)};
    for (int j = 0; j < 3; j++)
      if (!list_room(l[j], 8 * count)) return -1;
    uint32_t *const items[3] = {l[0]->items, l[1]->items, l[2]->items};
    size_t len[3] = {l[0]->len, l[1]->len, l[2]->len};
    uint32_t stale = 0;
    for (int s = 0; s <= split; s++) {
      const uint32_t *const first = cur[s].items, *const end = first + cur[s].len;
      const int found = split && s == 0
                            ? dial_cells(r, first, end, items, len, k, pruned, alias, 1, canon, bshift, field, &settled,
                                         &stale, &r->forced)
                            : dial_cells(r, first, end, items, len, k, pruned, alias, 0, canon, bshift, field, &settled,
                                         &stale, &r->forced);
      if (found) return *pops = settled, 1;
      cur[s].len = 0;
    }
    settled -= stale;
    for (int j = 0; j < 3; j++) l[j]->len = (uint32_t)len[j]; /* with ALIAS, l[0] is l[2] */
  }
  *pops = settled;
  return 0;
}

/* Fills r's dkey and table of offers for a diagonal of diag steps (below
** BUCKETS_MAX / 8 - 2); returns whether the offers are pruned (diag < 2).
** Pruned, a cell offers routes only to the neighbours its parent could not
** reach as cheaply (slots 0 to 4; -1 a slot not used, which offers the
** cell itself): one reached straight the cell ahead and the two diagonals
** beside it (slots 3, 4), one reached diagonally its two straight steps,
** the same diagonal and the two diagonals whose way round, past its
** parent's side, may be walled (3, 4). Slots 5 and 6 name the cells
** beside whose walls force slots 3 and 4: CANON (a field's, whose ties
** nobody reads; canonical ordering, diagonal steps first) offers those
** only then, as the diagonal is otherwise reached as cheaply through the
** parent's other neighbours (exact for any diagonal under 2; corners may
** be cut, so that cell alone can be in the way), and on open ground a
** cell receives one offer. */
static inline int dial_offers(dial_run *r, double diag) {
  const int32_t pw = r->pw;
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  const int pruned = diag < 2;
  /* in the order the ties go by: the straight offers, then the diagonal ones */
  static const int8_t PRUNED[8][7] = {{0, -1, -1, 4, 7, 1, 3}, {1, -1, -1, 4, 5, 0, 2}, {2, -1, -1, 5, 6, 1, 3},
                                      {3, -1, -1, 6, 7, 2, 0}, {0, 1, 4, 5, 7, 2, 3},   {1, 2, 5, 4, 6, 0, 3},
                                      {2, 3, 6, 5, 7, 1, 0},   {0, 3, 7, 4, 6, 1, 2}};
  r->dkey = (uint64_t)(diag * (double)KEY_ONE) & ~(uint64_t)KEY_LOW;
  for (int d = 0; d < 8; d++)
    for (int j = 0; j < DIAL_SLOTS; j++) {
      const int e = !pruned ? j : j < 7 ? PRUNED[d][j] : -1;
      r->offer[DIAL_SLOTS * d + j] = e < 0 ? (dial_offer){0, 0} : (dial_offer){off[e], (int64_t)e - (int64_t)KEY_LOW};
    }
  return pruned;
}

/* Each cell's key before a search: KEY_UNSEEN for a passable cell, 0 for a
** wall. Sixteen cells at a time where SSE2 is at hand (every x86-64): the
** byte loop was 5 % of a search's instructions. Returns the number of
** passable cells (the distance maps choose their scan by it). */
static inline uint32_t keys_clear(uint64_t *key, const uint8_t *cls, uint32_t n) {
  uint32_t i = 0, walls = 0;
#if defined(__SSE2__) && !defined(STRATA_NO_SIMD)
  const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi8(-1), one = _mm_set1_epi8(1);
  __m128i sum = zero;
  for (; n - i >= 16; i += 16) {
    /* each byte 0xff for a passable cell, widened to 8 bytes by doubling */
    const __m128i wall = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(cls + i)), zero);
    const __m128i open = _mm_xor_si128(wall, ones);
    sum = _mm_add_epi64(sum, _mm_sad_epu8(_mm_and_si128(wall, one), zero)); /* walls */
    const __m128i w[2] = {_mm_unpacklo_epi8(open, open), _mm_unpackhi_epi8(open, open)};
    for (int a = 0; a < 2; a++) {
      const __m128i d[2] = {_mm_unpacklo_epi16(w[a], w[a]), _mm_unpackhi_epi16(w[a], w[a])};
      for (int b = 0; b < 2; b++) {
        __m128i *const out = (__m128i *)(key + i + 8 * a + 4 * b);
        _mm_storeu_si128(out, _mm_unpacklo_epi32(d[b], d[b]));
        _mm_storeu_si128(out + 1, _mm_unpackhi_epi32(d[b], d[b]));
      }
    }
  }
  walls = (uint32_t)_mm_cvtsi128_si32(sum) + (uint32_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(sum, sum));
#endif
  for (; i < n; i++) {
    key[i] = (uint64_t)0 - (cls[i] != 0);
    walls += cls[i] == 0;
  }
  return n - walls;
}

#endif
