/* fov.c - field of view (fov.h): shadowcasting over transparency bitsets,
** basic ray casting, visibility sets. */
#include "strata/fov.h"
#include "strata/alloc.h"
#include "strata/bresenham.h"
#include "tilemap_internal.h"
#include "util.h"

#include <math.h>
#include <string.h>

struct strata_fov_set {
  int width, height;
  uint64_t *bits; /* one bit per cell, row by row; rows padded to a multiple of 64 */
  size_t cap;     /* words allocated */
  size_t stride;  /* words per row */
  /* What the set may hold: rows y0..y1, words w0..w1 (y0 > y1: nothing).
  ** Clearing, counting and iterating stay inside it. */
  int y0, y1;
  size_t w0, w1;
};

/* A pending row of a quadrant's sweep: its depth and the slopes bounding
** its sector, as exact fractions (num / den, den > 0). */
typedef struct fov_row {
  int d;
  int64_t ln, ld, hn, hd;
} fov_row;

struct strata_fov {
  /* What the transparency bits were built from (as strata_grid_search's caches). */
  int built;
  uint64_t map_id, map_revision;
  const strata_tokens *table;
  uint64_t tokens_revision;
  uint32_t tokens_count;
  int width, height;
  /* Transparency (1 lets light through), by rows (trow: row y is a line of
  ** x bits) and by columns (tcol: column x is a line of y bits), so that the
  ** four quadrants all sweep lines of bits. Lines padded to multiples of 64. */
  uint64_t *trow, *tcol;
  size_t trow_cap, tcol_cap, trow_stride, tcol_stride;
  /* The east and west quadrants' cells, by columns, before they are turned
  ** into rows (fold): all zero between computations; x0..x1, w0..w1 what it may hold. */
  uint64_t *scratch;
  size_t scratch_cap;
  int sx0, sx1;
  size_t sw0, sw1;
  uint8_t *opaque; /* per token id */
  uint32_t opaque_cap;
  fov_row *stack;
  size_t stack_cap;
};

/* ---- names and options ---- */

void strata_fov_options_init(strata_fov_options *o) {
  memset(o, 0, sizeof *o);
  o->algorithm = STRATA_FOV_SYMMETRIC;
  o->light_walls = 1;
}

static const char *const algorithm_names[] = {"symmetric", "permissive", "basic"};

int strata_fov_algorithm_parse(const char *name, strata_fov_algorithm *out) {
  for (int i = 0; i < 3; i++)
    if (strcmp(name, algorithm_names[i]) == 0) {
      *out = (strata_fov_algorithm)i;
      return 1;
    }
  return 0;
}

const char *strata_fov_algorithm_name(strata_fov_algorithm a) {
  return (unsigned)a < 3 ? algorithm_names[a] : "?";
}

/* ---- bits ---- */

static size_t pad64(int n) { return ((size_t)n + 63) & ~(size_t)63; }
static size_t words(int n) { return ((size_t)n + 63) >> 6; }

/* Makes *p hold n zero words (reusing what it has); 0 on ENOMEM. */
static int zeroed(uint64_t **p, size_t *cap, size_t n) {
  if (n > *cap) {
    uint64_t *b = strata_calloc(n, sizeof *b);
    if (b == NULL) return 0;
    strata_free(*p);
    *p = b, *cap = n;
    return 1;
  }
  memset(*p, 0, n * sizeof **p);
  return 1;
}

/* The 64x64 bit block a[] transposed in place: bit j of a[i] becomes bit i
** of a[j]. Swaps the off-diagonal halves, then quarters, and so on. */
static void transpose64(uint64_t a[64]) {
  uint64_t m = 0x00000000ffffffffull;
  for (unsigned j = 32; j != 0; j >>= 1, m ^= m << j)
    for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
      a[k] ^= t << j;
      a[k | j] ^= t;
    }
}

/* The first position in [p, end] whose bit is want, else end + 1. */
static int next_bit(const uint64_t *line, int p, int end, int want) {
  size_t w = (size_t)p >> 6;
  uint64_t flip = want ? 0 : ~0ull;
  uint64_t word = (line[w] ^ flip) & (~0ull << (p & 63));
  for (;;) {
    if (word) {
      int q = (int)(w << 6) + __builtin_ctzll(word);
      return q <= end ? q : end + 1;
    }
    if ((int)(++w << 6) > end) return end + 1;
    word = line[w] ^ flip;
  }
}

static inline void touch(int line, size_t w0, size_t w1, int *y0, int *y1, size_t *ww0, size_t *ww1) {
  if (line < *y0) *y0 = line;
  if (line > *y1) *y1 = line;
  if (w0 < *ww0) *ww0 = w0;
  if (w1 > *ww1) *ww1 = w1;
}

/* Sets bits p0..p1 of a line, a word at a time. */
static void set_run(uint64_t *line, int p0, int p1) {
  size_t a = (size_t)p0 >> 6, b = (size_t)p1 >> 6;
  uint64_t first = ~0ull << (p0 & 63), last = ~0ull >> (63 - (p1 & 63));
  if (a == b) {
    line[a] |= first & last;
    return;
  }
  line[a] |= first;
  for (size_t w = a + 1; w < b; w++) line[w] = ~0ull;
  line[b] |= last;
}

/* ---- the workspace and its transparency cache ---- */

strata_fov *strata_fov_new(strata_error *err) {
  strata_fov *f = strata_calloc(1, sizeof *f);
  if (f == NULL) strata_error_nomem(err, "creating a field of view workspace");
  return f;
}

void strata_fov_free(strata_fov *f) {
  if (f == NULL) return;
  strata_free(f->trow);
  strata_free(f->tcol);
  strata_free(f->scratch);
  strata_free(f->opaque);
  strata_free(f->stack);
  strata_free(f);
}

size_t strata_fov_memory(const strata_fov *f) {
  return sizeof *f + (f->trow_cap + f->tcol_cap + f->scratch_cap) * sizeof(uint64_t) +
         f->opaque_cap + f->stack_cap * sizeof(fov_row);
}

static int cell_transparent(const strata_tilemap *m, const uint8_t *opaque, uint32_t i) {
  uint32_t v = m->cells[i];
  if ((v & CELL_STACK) == 0) return !opaque[v];
  const side_stack *st = &m->stacks[v & ~CELL_STACK];
  for (uint32_t k = 0; k < st->len; k++)
    if (opaque[st->items[k]]) return 0;
  return 1;
}

/* Rebuilds the transparency bits when m or its token table changed; 0 on ENOMEM. */
static int refresh(strata_fov *f, const strata_tilemap *m) {
  const strata_tokens *t = m->tokens;
  uint32_t count = strata_tokens_count(t);
  if (f->built && f->map_id == m->id && f->map_revision == m->revision && f->table == t &&
      f->tokens_revision == strata_tokens_revision(t) && f->tokens_count == count)
    return 1;
  f->built = 0;
  int w = m->width, h = m->height;
  size_t rs = words(w), cs = words(h);
  if (!STRATA_GROW32(f->opaque, f->opaque_cap, (size_t)count + 1) ||
      !zeroed(&f->trow, &f->trow_cap, rs * pad64(h)) || !zeroed(&f->tcol, &f->tcol_cap, cs * pad64(w)))
    return 0;
  f->opaque[0] = 0; /* an empty cell lets light through */
  for (uint32_t id = 1; id <= count; id++) f->opaque[id] = strata_tokens_traits(t, id)->opaque != 0;
  for (int y = 0; y < h; y++) {
    uint64_t *line = f->trow + (size_t)y * rs;
    uint32_t i = (uint32_t)y * (uint32_t)w;
    for (int x = 0; x < w; x++, i++)
      line[x >> 6] |= (uint64_t)cell_transparent(m, f->opaque, i) << (x & 63);
  }
  uint64_t blk[64];
  for (size_t bx = 0; bx < rs; bx++)
    for (size_t by = 0; by < cs; by++) {
      for (size_t i = 0; i < 64; i++) blk[i] = f->trow[(by * 64 + i) * rs + bx];
      transpose64(blk);
      for (size_t i = 0; i < 64; i++) f->tcol[(bx * 64 + i) * cs + by] = blk[i];
    }
  f->trow_stride = rs, f->tcol_stride = cs;
  f->width = w, f->height = h;
  f->map_id = m->id, f->map_revision = m->revision;
  f->table = t, f->tokens_revision = strata_tokens_revision(t), f->tokens_count = count;
  f->built = 1;
  return 1;
}

/* ---- sets ---- */

strata_fov_set *strata_fov_set_new(strata_error *err) {
  strata_fov_set *s = strata_calloc(1, sizeof *s);
  if (s == NULL) strata_error_nomem(err, "creating a visibility set");
  else s->y0 = 1, s->y1 = 0;
  return s;
}

void strata_fov_set_free(strata_fov_set *s) {
  if (s == NULL) return;
  strata_free(s->bits);
  strata_free(s);
}

size_t strata_fov_set_memory(const strata_fov_set *s) { return sizeof *s + s->cap * sizeof *s->bits; }
int strata_fov_set_width(const strata_fov_set *s) { return s->width; }
int strata_fov_set_height(const strata_fov_set *s) { return s->height; }

void strata_fov_set_clear(strata_fov_set *s) {
  for (int y = s->y0; y <= s->y1; y++)
    memset(s->bits + (size_t)y * s->stride + s->w0, 0, (s->w1 - s->w0 + 1) * sizeof *s->bits);
  s->y0 = s->height, s->y1 = -1;
  s->w0 = s->stride, s->w1 = 0;
}

/* Makes s an empty set of a w x h map; 0 on ENOMEM (s then of no map). */
static int set_reset(strata_fov_set *s, int w, int h) {
  if (s->width == w && s->height == h) {
    strata_fov_set_clear(s);
    return 1;
  }
  s->width = s->height = 0;
  s->y0 = 1, s->y1 = 0;
  if (!zeroed(&s->bits, &s->cap, words(w) * pad64(h))) return 0;
  s->width = w, s->height = h, s->stride = words(w);
  strata_fov_set_clear(s);
  return 1;
}

int strata_fov_set_visible(const strata_fov_set *s, int x, int y) {
  if (x < 0 || y < 0 || x >= s->width || y >= s->height) return 0;
  return (int)(s->bits[(size_t)y * s->stride + ((size_t)x >> 6)] >> (x & 63)) & 1;
}

uint64_t strata_fov_set_count(const strata_fov_set *s) {
  uint64_t n = 0;
  for (int y = s->y0; y <= s->y1; y++) {
    const uint64_t *line = s->bits + (size_t)y * s->stride;
    for (size_t w = s->w0; w <= s->w1; w++) n += (uint64_t)__builtin_popcountll(line[w]);
  }
  return n;
}

strata_status strata_fov_set_add(strata_fov_set *dst, const strata_fov_set *src, strata_error *err) {
  if (dst->width == 0 && src->width != 0 && !set_reset(dst, src->width, src->height))
    return strata_error_nomem(err, "for a visibility set of a %dx%d map", src->width, src->height);
  if (src->width != dst->width || src->height != dst->height)
    return strata_error_set(err, STRATA_EARG,
                            "cannot add the cells of a %dx%d map to a set of a %dx%d map",
                            src->width, src->height, dst->width, dst->height);
  for (int y = src->y0; y <= src->y1; y++) {
    uint64_t *to = dst->bits + (size_t)y * dst->stride;
    const uint64_t *from = src->bits + (size_t)y * src->stride;
    for (size_t w = src->w0; w <= src->w1; w++) to[w] |= from[w];
    touch(y, src->w0, src->w1, &dst->y0, &dst->y1, &dst->w0, &dst->w1);
  }
  return STRATA_OK;
}

int strata_fov_set_next(const strata_fov_set *s, uint64_t *cursor, int *x, int *y) {
  uint64_t i = *cursor, w = (uint64_t)s->width;
  if (s->y0 > s->y1 || w == 0) return 0;
  int row = (int)(i / w), col = (int)(i % w);
  if (row < s->y0) row = s->y0, col = 0;
  for (; row <= s->y1; row++, col = 0) {
    const uint64_t *line = s->bits + (size_t)row * s->stride;
    size_t k = (size_t)col >> 6;
    uint64_t word = line[k] & (~0ull << (col & 63));
    if (k < s->w0) k = s->w0, word = line[k];
    for (; k <= s->w1; word = ++k <= s->w1 ? line[k] : 0) {
      if (word == 0) continue;
      *x = (int)(k << 6) + __builtin_ctzll(word);
      *y = row;
      *cursor = (uint64_t)row * w + (uint64_t)*x + 1;
      return 1;
    }
  }
  *cursor = (uint64_t)s->height * w;
  return 0;
}

/* ---- shadowcasting ----
** One quadrant is swept over a plane of lines (rows for north and south,
** columns for east and west): a row at depth d is line a + s*d, its cell at
** column c is position p + c. Ford's sweep: a row's cells between the
** sector's slopes are scanned run by run (runs of transparent and of opaque
** cells found a word at a time); a transparent run after an opaque one
** narrows the sector's start; an opaque run after a transparent one sends
** the sector so far to the next row (pushed); a row ending transparent goes
** on to the next row. Cells outside the plane let light through and are
** never marked (as in libtcod, whose counts this matches). */
typedef struct sweep {
  const uint64_t *t;
  size_t tstride;
  uint64_t *v;
  size_t vstride;
  int lines, len, a, p, s;
  int radius, permissive, light_walls;
  int *y0, *y1;
  size_t *w0, *w1;
} sweep;

static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static void sweep_mark(sweep *sw, int line, int64_t c0, int64_t c1) {
  if (c0 > c1) return;
  int p0 = sw->p + (int)c0, p1 = sw->p + (int)c1;
  set_run(sw->v + (size_t)line * sw->vstride, p0, p1);
  touch(line, (size_t)p0 >> 6, (size_t)p1 >> 6, sw->y0, sw->y1, sw->w0, sw->w1);
}

/* The widest column at depth d inside the radius. */
static int64_t radius_columns(int radius, int d) {
  int64_t left = (int64_t)radius * radius - (int64_t)d * d;
  int64_t w = (int64_t)sqrt((double)left);
  while (w * w > left) w--;
  while ((w + 1) * (w + 1) <= left) w++;
  return w;
}

/* Sweeps row r; 1 when the sector goes on to the next row (r updated), 0
** when it ends, -1 on ENOMEM (pushing a sector). */
static int sweep_row(strata_fov *f, sweep *sw, fov_row *r, size_t *top) {
  int d = r->d;
  int line = sw->a + sw->s * d;
  if ((sw->radius && d > sw->radius) || line < 0 || line >= sw->lines) return 0;
  /* the columns the sector touches: ties at half cells go inwards */
  int64_t cmin = floor_div(2 * d * r->ln + r->ld, 2 * r->ld);
  int64_t cmax = ceil_div(2 * d * r->hn - r->hd, 2 * r->hd);
  int64_t lo_lim = -sw->p, hi_lim = sw->len - 1 - sw->p;
  if (cmax < lo_lim || cmin > hi_lim) return 0; /* outside the map, as every row after */
  r->d++;
  if (cmin > cmax) return 1;
  int64_t c0 = max64(cmin, lo_lim), c1 = min64(cmax, hi_lim);
  /* (the diagonals belong to two quadrants: both mark them, the fold ORs) */
  int64_t lim = sw->radius ? min64(d, radius_columns(sw->radius, d)) : d;
  const uint64_t *t = sw->t + (size_t)line * sw->tstride;
  int end_pos = sw->p + (int)c1, prev_opaque = 0;
  for (int64_t c = c0; c <= c1;) {
    int pos = sw->p + (int)c;
    int see_through = (int)(t[(size_t)pos >> 6] >> (pos & 63)) & 1;
    int64_t last = next_bit(t, pos, end_pos, !see_through) - sw->p - 1;
    if (see_through) {
      if (prev_opaque) r->ln = 2 * c - 1, r->ld = 2 * (int64_t)d;
      int64_t m0 = c, m1 = last;
      if (!sw->permissive) { /* centres inside the sector */
        m0 = max64(m0, ceil_div((int64_t)d * r->ln, r->ld));
        m1 = min64(m1, floor_div((int64_t)d * r->hn, r->hd));
      }
      sweep_mark(sw, line, max64(m0, -lim), min64(m1, lim));
    } else {
      if (sw->light_walls) sweep_mark(sw, line, max64(c, -lim), min64(last, lim));
      /* (a first opaque run at a clipped start: the sector before it is all outside) */
      if (!prev_opaque && c != c0) {
        if (*top == f->stack_cap && !STRATA_GROW(f->stack, f->stack_cap, *top + 1)) return -1;
        f->stack[(*top)++] = (fov_row){d + 1, r->ln, r->ld, 2 * c - 1, 2 * (int64_t)d};
      }
    }
    prev_opaque = !see_through;
    c = last + 1;
  }
  return prev_opaque ? 0 : 1;
}

static int sweep_quadrant(strata_fov *f, sweep *sw) {
  size_t top = 0;
  fov_row r = {1, -1, 1, 1, 1};
  for (;;) {
    int more = sweep_row(f, sw, &r, &top);
    if (more < 0) return 0;
    if (more) continue;
    if (top == 0) return 1;
    r = f->stack[--top];
  }
}

/* The east and west quadrants' columns into the set's rows, 64x64 bits at a
** time, leaving the scratch bits zero. */
static void fold(strata_fov *f, strata_fov_set *s) {
  if (f->sx0 > f->sx1) return;
  size_t cs = f->tcol_stride;
  uint64_t blk[64];
  for (size_t bx = (size_t)f->sx0 >> 6; bx <= (size_t)f->sx1 >> 6; bx++)
    for (size_t by = f->sw0; by <= f->sw1; by++) {
      uint64_t any = 0;
      for (size_t i = 0; i < 64; i++) {
        uint64_t *w = f->scratch + (bx * 64 + i) * cs + by;
        blk[i] = *w, *w = 0;
        any |= blk[i];
      }
      if (!any) continue;
      transpose64(blk);
      for (size_t i = 0; i < 64; i++) {
        if (!blk[i]) continue;
        int row = (int)(by * 64 + i);
        s->bits[(size_t)row * s->stride + bx] |= blk[i];
        touch(row, bx, bx, &s->y0, &s->y1, &s->w0, &s->w1);
      }
    }
  f->sx0 = 1, f->sx1 = 0;
}

static int shadowcast(strata_fov *f, int x, int y, const strata_fov_options *o, strata_fov_set *s) {
  sweep sw = {0};
  sw.radius = o->radius, sw.light_walls = o->light_walls != 0;
  sw.permissive = o->algorithm == STRATA_FOV_PERMISSIVE;
  f->sx0 = f->width, f->sx1 = -1, f->sw0 = f->tcol_stride, f->sw1 = 0;
  int ok = 1;
  for (int q = 0; q < 4 && ok; q++) {
    int rows = q < 2; /* north and south: rows; east and west: columns */
    sw.t = rows ? f->trow : f->tcol, sw.tstride = rows ? f->trow_stride : f->tcol_stride;
    sw.v = rows ? s->bits : f->scratch, sw.vstride = rows ? s->stride : f->tcol_stride;
    sw.lines = rows ? f->height : f->width, sw.len = rows ? f->width : f->height;
    sw.a = rows ? y : x, sw.p = rows ? x : y, sw.s = q % 2 ? 1 : -1;
    sw.y0 = rows ? &s->y0 : &f->sx0, sw.y1 = rows ? &s->y1 : &f->sx1;
    sw.w0 = rows ? &s->w0 : &f->sw0, sw.w1 = rows ? &s->w1 : &f->sw1;
    ok = sweep_quadrant(f, &sw);
  }
  fold(f, s);
  return ok;
}

/* ---- basic ray casting ---- */

static void mark_cell(strata_fov_set *s, int x, int y) {
  s->bits[(size_t)y * s->stride + ((size_t)x >> 6)] |= 1ull << (x & 63);
  touch(y, (size_t)x >> 6, (size_t)x >> 6, &s->y0, &s->y1, &s->w0, &s->w1);
}

static void cast_ray(const strata_fov *f, int x, int y, int tx, int ty, const strata_fov_options *o,
                     strata_fov_set *s) {
  strata_line l;
  int cx, cy;
  int64_t r2 = (int64_t)o->radius * o->radius;
  strata_line_init(&l, x, y, tx, ty);
  strata_line_next(&l, &cx, &cy); /* the start */
  while (strata_line_next(&l, &cx, &cy)) {
    int64_t dx = cx - x, dy = cy - y;
    if (o->radius && dx * dx + dy * dy > r2) return;
    int clear = (int)(f->trow[(size_t)cy * f->trow_stride + ((size_t)cx >> 6)] >> (cx & 63)) & 1;
    if (clear || o->light_walls) mark_cell(s, cx, cy);
    if (!clear) return;
  }
}

/* Rays to every cell of the border of the radius' square, clipped to the map. */
static void basic(const strata_fov *f, int x, int y, const strata_fov_options *o, strata_fov_set *s) {
  int r = o->radius ? o->radius : (f->width > f->height ? f->width : f->height);
  int x0 = x - r < 0 ? 0 : x - r, y0 = y - r < 0 ? 0 : y - r;
  int x1 = x + r >= f->width ? f->width - 1 : x + r, y1 = y + r >= f->height ? f->height - 1 : y + r;
  for (int tx = x0; tx <= x1; tx++) {
    cast_ray(f, x, y, tx, y0, o, s);
    cast_ray(f, x, y, tx, y1, o, s);
  }
  for (int ty = y0 + 1; ty < y1; ty++) {
    cast_ray(f, x, y, x0, ty, o, s);
    cast_ray(f, x, y, x1, ty, o, s);
  }
}

/* ---- computing ---- */

strata_status strata_fov_compute(strata_fov *f, const strata_tilemap *m, int x, int y,
                                 const strata_fov_options *o, strata_fov_set *out,
                                 strata_error *err) {
  strata_fov_options defaults;
  if (o == NULL) strata_fov_options_init(&defaults), o = &defaults;
  if (!strata_tilemap_contains(m, x, y))
    return strata_error_set(err, STRATA_EARG, "field of view from (%d, %d), outside the %dx%d map",
                            x, y, m->width, m->height);
  if (o->radius < 0)
    return strata_error_set(err, STRATA_EARG, "field of view radius %d is negative", o->radius);
  if ((unsigned)o->algorithm > STRATA_FOV_BASIC)
    return strata_error_set(err, STRATA_EARG, "unknown field of view algorithm %d", (int)o->algorithm);
  int merge = o->merge && out->width != 0;
  if (merge && (out->width != m->width || out->height != m->height))
    return strata_error_set(err, STRATA_EARG,
                            "cannot add the view of a %dx%d map to a set of a %dx%d map",
                            m->width, m->height, out->width, out->height);
  /* (the scratch bits are zero whatever their layout: only grown here) */
  if (!refresh(f, m) ||
      (f->scratch_cap < f->tcol_stride * pad64(m->width) &&
       !zeroed(&f->scratch, &f->scratch_cap, f->tcol_stride * pad64(m->width))) ||
      (!merge && !set_reset(out, m->width, m->height)))
    return strata_error_nomem(err, "for the field of view of a %dx%d map", m->width, m->height);
  int ok = 1;
  if (o->algorithm == STRATA_FOV_BASIC) basic(f, x, y, o, out);
  else ok = shadowcast(f, x, y, o, out);
  mark_cell(out, x, y);
  if (!ok) {
    strata_fov_set_clear(out);
    return strata_error_nomem(err, "during a field of view");
  }
  return STRATA_OK;
}

strata_status strata_tilemap_fov(strata_tilemap *m, int x, int y, const strata_fov_options *o,
                                 strata_fov_set *out, strata_error *err) {
  if (m->fov == NULL && (m->fov = strata_fov_new(err)) == NULL) return STRATA_ENOMEM;
  return strata_fov_compute(m->fov, m, x, y, o, out, err);
}
