/*
** worldgen_text.c - world templates as text: the template file (format,
** parse, read, write) and the drawing for a person (render).
**
** The file is line-based and strict: fixed header lines in a fixed order,
** then one block per floor (its points, its rooms, its rows of glyphs).
** Being strict keeps the reader small and lets every refusal name its
** line; the writer is its exact inverse, so reading a file and writing it
** again gives the same bytes.
*/
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/file.h"
#include "strata/alloc.h"
#include "worldgen_internal.h"
#include "util.h"

#define MAGIC "strata worldgen 1"
#define LEGEND "legend # wall , hallway . room S start E exit < ascent > descent"

/* ---- a growing text buffer ---------------------------------------------------------- */

typedef struct buf {
  char *data;
  size_t len, cap;
  int failed;
} buf;

static void reserve(buf *b, size_t more) {
  if (b->failed || b->len + more + 1 <= b->cap) return;
  if (!STRATA_GROW(b->data, b->cap, b->len + more + 1)) b->failed = 1;
}

static void put(buf *b, const char *s, size_t n) {
  reserve(b, n);
  if (b->failed) return;
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

static void putf(buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void putf(buf *b, const char *fmt, ...) {
  char tmp[160];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static strata_status finish(buf *b, char **text, size_t *len, strata_error *err) {
  if (b->failed) {
    strata_free(b->data);
    return strata_error_nomem(err, "for the text of a world");
  }
  if (b->data == NULL) puts_(b, "");
  *text = b->data;
  if (len) *len = b->len;
  return STRATA_OK;
}

/* ---- writing -------------------------------------------------------------------- */

strata_status strata_worldgen_format(const strata_worldgen *t, char **text, size_t *len,
                                     strata_error *err) {
  strata_status st = strata_worldgen_validate(t, err);
  if (st != STRATA_OK) return st;
  buf b = {0};
  reserve(&b, (size_t)t->dim_z * ((size_t)t->dim_y * ((size_t)t->dim_x + 1) + 128) + 512);
  puts_(&b, MAGIC "\n" LEGEND "\n");
  putf(&b, "dims %d %d %d\n", t->dim_x, t->dim_y, t->dim_z);
  putf(&b, "seed %" PRId64 "\n", t->seed);
  putf(&b, "room_variance %d\n", t->room_variance);
  putf(&b, "path_alg %s\n", strata_path_algorithm_name(t->path_alg));
  putf(&b, "post_check %s\n", t->post_check ? "true" : "false");
  const strata_worldgen_floor *first = &t->floors[0], *last = &t->floors[t->dim_z - 1];
  putf(&b, "start %d %d 1\n", first->start.x, first->start.y);
  putf(&b, "exit %d %d %d\n", last->exit.x, last->exit.y, t->dim_z);
  for (int z = 1; z <= t->dim_z; z++) {
    const strata_worldgen_floor *f = &t->floors[z - 1];
    putf(&b, "\nfloor %d\nattempts %d\n", z, f->attempts);
    if (z > 1) putf(&b, "ascent %d %d\n", f->ascent.x, f->ascent.y);
    if (z < t->dim_z) putf(&b, "descent %d %d\n", f->descent.x, f->descent.y);
    for (size_t i = 0; i < f->room_count; i++)
      putf(&b, "room %d %d %d %d\n", f->rooms[i].x, f->rooms[i].y, f->rooms[i].w, f->rooms[i].h);
    puts_(&b, "tiles\n");
    for (int y = 0; y < t->dim_y; y++) {
      reserve(&b, (size_t)t->dim_x + 1);
      if (b.failed) break;
      const unsigned char *row = f->tiles + (size_t)y * (size_t)t->dim_x;
      for (int x = 0; x < t->dim_x; x++) b.data[b.len++] = strata_worldgen_tile_glyph(row[x]);
      b.data[b.len++] = '\n';
      b.data[b.len] = 0;
    }
  }
  return finish(&b, text, len, err);
}

strata_status strata_worldgen_write(const strata_worldgen *t, const char *path, strata_error *err) {
  char *text;
  size_t len;
  strata_status st = strata_worldgen_format(t, &text, &len, err);
  if (st != STRATA_OK) return st;
  st = strata_file_write(path, text, len, err);
  strata_free(text);
  return st;
}

/* ---- reading -------------------------------------------------------------------- */

typedef struct reader {
  const char *p, *end;
  const char *name;
  int line;            /* of the line last read */
  const char *s;       /* that line, without its newline */
  size_t n;
  strata_error *err;
} reader;

/* The next line into r->s / r->n; 0 at the end of the text. */
static int next_line(reader *r) {
  if (r->p >= r->end) return 0;
  const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
  const char *stop = nl ? nl : r->end;
  r->s = r->p;
  r->n = (size_t)(stop - r->p);
  if (r->n > 0 && r->s[r->n - 1] == '\r') r->n--;
  r->p = nl ? nl + 1 : r->end;
  r->line++;
  return 1;
}

static strata_status fail(reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static strata_status fail(reader *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  strata_status st = wg_failv(r->err, r->name, r->line, fmt, ap);
  va_end(ap);
  return st;
}

strata_status wg_failv(strata_error *err, const char *name, int line, const char *fmt, va_list ap) {
  char msg[STRATA_ERROR_MESSAGE_MAX];
  vsnprintf(msg, sizeof msg, fmt, ap);
  return strata_error_at(err, STRATA_EPARSE, line, 1, "%s:%d: %s", name, line, msg);
}

const char *wg_shown(const char *s, size_t n, char out[48]) {
  size_t k = 0;
  for (size_t i = 0; i < n && i < 40; i++) out[k++] = s[i] >= 32 && s[i] < 127 ? s[i] : '?';
  if (n > 40) out[k++] = '.', out[k++] = '.', out[k++] = '.';
  out[k] = 0;
  return out;
}

/* The line being read, quoted for a message. */
static const char *quoted(const reader *r, char out[48]) { return wg_shown(r->s, r->n, out); }

#define MAX_WORDS 6
typedef struct words { const char *w[MAX_WORDS]; size_t n[MAX_WORDS]; int count; } words;

/* Splits the line at spaces and tabs; more than MAX_WORDS words count as MAX_WORDS + 1. */
static void split(const reader *r, words *ws) {
  ws->count = 0;
  size_t i = 0;
  while (i < r->n) {
    while (i < r->n && (r->s[i] == ' ' || r->s[i] == '\t')) i++;
    if (i == r->n) break;
    size_t j = i;
    while (j < r->n && r->s[j] != ' ' && r->s[j] != '\t') j++;
    if (ws->count == MAX_WORDS) {
      ws->count++;
      return;
    }
    ws->w[ws->count] = r->s + i, ws->n[ws->count] = j - i;
    ws->count++;
    i = j;
  }
}

static int word_is(const words *ws, int i, const char *s) {
  return i < ws->count && ws->n[i] == strlen(s) && memcmp(ws->w[i], s, ws->n[i]) == 0;
}

/* A decimal integer in [lo, hi]. */
static int to_int(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *out) {
  size_t i = 0;
  int neg = 0;
  if (n > 0 && (s[0] == '-' || s[0] == '+')) neg = s[0] == '-', i = 1;
  if (i == n || n - i > 19) return 0;
  uint64_t v = 0;
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
    v = v * 10 + (uint64_t)(s[i] - '0');
  }
  if (!neg && v > (uint64_t)INT64_MAX) return 0;
  if (neg && v > (uint64_t)INT64_MAX + 1) return 0;
  int64_t x = neg ? (int64_t)(0 - v) : (int64_t)v;
  if (x < lo || x > hi) return 0;
  *out = x;
  return 1;
}

/* Reads the next line, which must be `key` followed by `count` integers
** within [lo, hi] (into v). */
static strata_status expect(reader *r, const char *key, int count, int64_t lo, int64_t hi,
                            int64_t *v, const char *shape) {
  char q[48];
  if (!next_line(r)) {
    r->line++;
    return fail(r, "the text ends where '%s' was expected", shape);
  }
  words ws;
  split(r, &ws);
  if (!word_is(&ws, 0, key)) return fail(r, "expected '%s', found '%s'", shape, quoted(r, q));
  if (ws.count != count + 1) return fail(r, "expected '%s', found '%s'", shape, quoted(r, q));
  for (int i = 0; i < count; i++)
    if (!to_int(ws.w[i + 1], ws.n[i + 1], lo, hi, &v[i]))
      return fail(r, "'%s': %.*s is not a number in %" PRId64 " .. %" PRId64, shape, (int)ws.n[i + 1],
                  ws.w[i + 1], lo, hi);
  return STRATA_OK;
}

/* A point line: key X Y inside the floor. */
static strata_status expect_point(reader *r, const strata_worldgen *t, const char *key,
                                  strata_worldgen_point *p) {
  char shape[32];
  snprintf(shape, sizeof shape, "%s X Y", key);
  int64_t v[2];
  strata_status st = expect(r, key, 2, INT_MIN, INT_MAX, v, shape);
  if (st != STRATA_OK) return st;
  if (v[0] < 1 || v[0] > t->dim_x || v[1] < 1 || v[1] > t->dim_y)
    return fail(r, "%s (%" PRId64 ", %" PRId64 ") is outside the %dx%d floor", key, v[0], v[1],
                t->dim_x, t->dim_y);
  p->x = (int)v[0], p->y = (int)v[1];
  return STRATA_OK;
}

static int glyph_tile(char c) {
  for (int i = 0; i < STRATA_WG_TILE_KINDS; i++)
    if (strata_worldgen_tile_glyph(i) == c) return i;
  return -1;
}

static strata_status read_floor(reader *r, strata_worldgen *t, int z) {
  strata_worldgen_floor *f = &t->floors[z - 1];
  char q[48];
  /* Blank lines between floors. */
  do {
    if (!next_line(r)) {
      r->line++;
      return fail(r, "the text ends before floor %d (dims give %d floors)", z, t->dim_z);
    }
  } while (r->n == 0);
  r->p = r->s, r->line--; /* read it again below */
  int64_t v[4];
  char shape[32];
  snprintf(shape, sizeof shape, "floor %d", z);
  strata_status st = expect(r, "floor", 1, z, z, v, shape);
  if (st != STRATA_OK) return st;
  if ((st = expect(r, "attempts", 1, 1, INT_MAX, v, "attempts N")) != STRATA_OK) return st;
  f->attempts = (int)v[0];
  if (z > 1) {
    if ((st = expect_point(r, t, "ascent", &f->ascent)) != STRATA_OK) return st;
    strata_worldgen_point above = t->floors[z - 2].descent;
    if (f->ascent.x != above.x || f->ascent.y != above.y)
      return fail(r, "ascent (%d, %d) is not under the descent (%d, %d) of floor %d", f->ascent.x,
                  f->ascent.y, above.x, above.y, z - 1);
  }
  if (z < t->dim_z && (st = expect_point(r, t, "descent", &f->descent)) != STRATA_OK) return st;
  /* Rooms, then the tiles. */
  for (;;) {
    if (!next_line(r)) {
      r->line++;
      return fail(r, "the text ends where 'room X Y W H' or 'tiles' was expected");
    }
    words ws;
    split(r, &ws);
    if (word_is(&ws, 0, "tiles") && ws.count == 1) break;
    if (!word_is(&ws, 0, "room") || ws.count != 5)
      return fail(r, "expected 'room X Y W H' or 'tiles', found '%s'", quoted(r, q));
    for (int i = 0; i < 4; i++)
      if (!to_int(ws.w[i + 1], ws.n[i + 1], INT_MIN, INT_MAX, &v[i]))
        return fail(r, "'room X Y W H': %.*s is not a number", (int)ws.n[i + 1], ws.w[i + 1]);
    if (v[2] < 3 || v[3] < 3 || v[2] > t->room_variance || v[3] > t->room_variance)
      return fail(r, "room %" PRId64 "x%" PRId64 ": sides must lie in 3 .. %d (room_variance)", v[2],
                  v[3], t->room_variance);
    if (v[0] < 1 || v[1] < 1 || v[0] + v[2] - 1 > t->dim_x || v[1] + v[3] - 1 > t->dim_y)
      return fail(r, "room at (%" PRId64 ", %" PRId64 ") of %" PRId64 "x%" PRId64
                  " does not lie inside the %dx%d floor", v[0], v[1], v[2], v[3], t->dim_x, t->dim_y);
    strata_worldgen_room room = {(int)v[0], (int)v[1], (int)v[2], (int)v[3]};
    if ((st = strata_worldgen_add_room(f, room, r->err)) != STRATA_OK) return st;
  }
  strata_worldgen_point arrive, leave;
  int arrive_tile, leave_tile;
  wg_floor_ends(t, z, &arrive, &arrive_tile, &leave, &leave_tile);
  for (int y = 1; y <= t->dim_y; y++) {
    if (!next_line(r)) {
      r->line++;
      return fail(r, "floor %d: the text ends at row %d of %d", z, y, t->dim_y);
    }
    if (r->n != (size_t)t->dim_x)
      return fail(r, "floor %d, row %d: %zu tiles, expected %d", z, y, r->n, t->dim_x);
    unsigned char *row = f->tiles + (size_t)(y - 1) * (size_t)t->dim_x;
    for (int x = 1; x <= t->dim_x; x++) {
      char c = r->s[x - 1];
      int tile = glyph_tile(c);
      if (tile < 0)
        return fail(r, "floor %d, (%d, %d): '%c' is no tile (legend: # , . S E < >)", z, x, y,
                    c >= 32 && c < 127 ? c : '?');
      int want = -1;
      if (x == leave.x && y == leave.y) want = leave_tile;
      else if (x == arrive.x && y == arrive.y) want = arrive_tile;
      if (want >= 0 && tile != want)
        return fail(r, "floor %d, (%d, %d): the %s is drawn as '%c', expected '%c'", z, x, y,
                    strata_worldgen_tile_name(want), c, strata_worldgen_tile_glyph(want));
      if (want < 0 && tile >= STRATA_WG_START)
        return fail(r, "floor %d, (%d, %d): '%c' (%s) where the floor has none", z, x, y, c,
                    strata_worldgen_tile_name(tile));
      row[x - 1] = (unsigned char)tile;
    }
  }
  /* What the lines above could not see alone (the two ends sharing a cell). */
  strata_error e;
  if (wg_validate_floor(t, z, &e) != STRATA_OK) return fail(r, "%s", e.message);
  return STRATA_OK;
}

strata_status strata_worldgen_parse(const char *text, size_t len, const char *name,
                                    strata_worldgen **out, strata_error *err) {
  reader r = {text, text + len, name ? name : "template", 0, NULL, 0, err};
  char q[48];
  if (!next_line(&r) || r.n != strlen(MAGIC) || memcmp(r.s, MAGIC, r.n) != 0) {
    if (r.line == 0) r.line = 1;
    if (r.n > 16 && memcmp(r.s, "strata worldgen ", 16) == 0)
      return fail(&r, "format '%s' is not one this strata reads (it reads '" MAGIC "')", quoted(&r, q));
    return fail(&r, "not a world template: the first line must be '" MAGIC "'");
  }
  if (!next_line(&r) || r.n != strlen(LEGEND) || memcmp(r.s, LEGEND, r.n) != 0) {
    if (r.line < 2) r.line = 2;
    return fail(&r, "expected the line '" LEGEND "'");
  }
  int64_t v[3];
  strata_status st = expect(&r, "dims", 3, 1, STRATA_WORLDGEN_SIDE_MAX, v, "dims X Y Z");
  if (st != STRATA_OK) return st;
  /* The rows must be in the text: this bounds what a damaged header can
  ** make the reader allocate. */
  uint64_t need = (uint64_t)v[2] * (uint64_t)v[1] * (uint64_t)(v[0] + 1);
  if (need > (uint64_t)(r.end - r.p) + 1)
    return fail(&r, "dims %" PRId64 "x%" PRId64 "x%" PRId64
                ": the text is too short to hold that many rows of tiles", v[0], v[1], v[2]);
  strata_error e;
  strata_worldgen *t = strata_worldgen_new((int)v[0], (int)v[1], (int)v[2], &e);
  if (t == NULL) {
    if (e.status == STRATA_ENOMEM) return strata_error_set(err, STRATA_ENOMEM, "%s", e.message);
    return fail(&r, "%s", e.message);
  }
  if ((st = expect(&r, "seed", 1, INT64_MIN, INT64_MAX, v, "seed N")) != STRATA_OK) goto done;
  t->seed = v[0];
  if ((st = expect(&r, "room_variance", 1, 3, INT_MAX, v, "room_variance N")) != STRATA_OK) goto done;
  t->room_variance = (int)v[0];
  {
    words ws;
    if (!next_line(&r)) {
      r.line++;
      st = fail(&r, "the text ends where 'path_alg NAME' was expected");
      goto done;
    }
    split(&r, &ws);
    char alg[16] = "";
    if (word_is(&ws, 0, "path_alg") && ws.count == 2 && ws.n[1] < sizeof alg)
      memcpy(alg, ws.w[1], ws.n[1]), alg[ws.n[1]] = 0;
    if (!strata_path_algorithm_parse(alg, &t->path_alg)) {
      st = fail(&r, "expected 'path_alg astar|dijkstra|bfs|greedy', found '%s'", quoted(&r, q));
      goto done;
    }
    if (!next_line(&r)) {
      r.line++;
      st = fail(&r, "the text ends where 'post_check true|false' was expected");
      goto done;
    }
    split(&r, &ws);
    if (!word_is(&ws, 0, "post_check") || ws.count != 2 ||
        !(word_is(&ws, 1, "true") || word_is(&ws, 1, "false"))) {
      st = fail(&r, "expected 'post_check true|false', found '%s'", quoted(&r, q));
      goto done;
    }
    t->post_check = word_is(&ws, 1, "true");
  }
  if ((st = expect(&r, "start", 3, INT_MIN, INT_MAX, v, "start X Y 1")) != STRATA_OK) goto done;
  if (v[2] != 1 || v[0] < 1 || v[0] > t->dim_x || v[1] < 1 || v[1] > t->dim_y) {
    st = fail(&r, "start (%" PRId64 ", %" PRId64 ", %" PRId64 ") is not a cell of floor 1 (%dx%d)",
              v[0], v[1], v[2], t->dim_x, t->dim_y);
    goto done;
  }
  t->floors[0].start.x = (int)v[0], t->floors[0].start.y = (int)v[1];
  if ((st = expect(&r, "exit", 3, INT_MIN, INT_MAX, v, "exit X Y Z")) != STRATA_OK) goto done;
  if (v[2] != t->dim_z || v[0] < 1 || v[0] > t->dim_x || v[1] < 1 || v[1] > t->dim_y) {
    st = fail(&r, "exit (%" PRId64 ", %" PRId64 ", %" PRId64 ") is not a cell of the last floor "
              "(%dx%d, floor %d)", v[0], v[1], v[2], t->dim_x, t->dim_y, t->dim_z);
    goto done;
  }
  t->floors[t->dim_z - 1].exit.x = (int)v[0], t->floors[t->dim_z - 1].exit.y = (int)v[1];
  for (int z = 1; z <= t->dim_z; z++)
    if ((st = read_floor(&r, t, z)) != STRATA_OK) goto done;
  while (next_line(&r)) {
    if (r.n != 0) {
      st = fail(&r, "unexpected text after the last floor: '%s'", quoted(&r, q));
      goto done;
    }
  }
  st = strata_worldgen_validate(t, &e);
  if (st != STRATA_OK) st = fail(&r, "%s", e.message);
done:
  if (st != STRATA_OK) {
    strata_worldgen_free(t);
    return st;
  }
  *out = t;
  return STRATA_OK;
}

strata_status strata_worldgen_read(const char *path, strata_worldgen **out, strata_error *err) {
  char *text;
  size_t len;
  strata_status st = strata_file_read(path, STRATA_WORLDGEN_TEXT_MAX, "cannot read",
                                      "the most a worldgen template may hold", &text, &len, err);
  if (st) return st;
  st = strata_worldgen_parse(text, len, path, out, err);
  strata_free(text);
  return st;
}

/* ---- drawing ---------------------------------------------------------------------- */

/* ANSI colours per tile: walls dim, hallways blue (as the reference drew
** them), rooms plain, the points bold. */
static const char *const COLOR[STRATA_WG_TILE_KINDS] = {
    "\033[90m", "\033[34m", "", "\033[1;32m", "\033[1;31m", "\033[1;33m", "\033[1;33m"};

strata_status strata_worldgen_render(const strata_worldgen *t, int color, char **text,
                                     size_t *len, strata_error *err) {
  strata_status st = strata_worldgen_validate(t, err);
  if (st != STRATA_OK) return st;
  buf b = {0};
  for (int z = 1; z <= t->dim_z; z++) {
    const strata_worldgen_floor *f = &t->floors[z - 1];
    if (z > 1) puts_(&b, "\n");
    putf(&b, "floor %d of %d:", z, t->dim_z);
    if (z == 1) putf(&b, " start (%d, %d),", f->start.x, f->start.y);
    if (z > 1) putf(&b, " ascent (%d, %d),", f->ascent.x, f->ascent.y);
    if (z < t->dim_z) putf(&b, " descent (%d, %d),", f->descent.x, f->descent.y);
    if (z == t->dim_z) putf(&b, " exit (%d, %d),", f->exit.x, f->exit.y);
    putf(&b, " %zu room%s\n", f->room_count, f->room_count == 1 ? "" : "s");
    for (int y = 0; y < t->dim_y && !b.failed; y++) {
      const unsigned char *row = f->tiles + (size_t)y * (size_t)t->dim_x;
      int current = -1; /* the colour in force: only changes are written */
      for (int x = 0; x < t->dim_x; x++) {
        int tile = row[x];
        if (color && tile != current) {
          if (current >= 0 && COLOR[current][0]) puts_(&b, "\033[0m");
          puts_(&b, COLOR[tile]);
          current = tile;
        }
        char g = strata_worldgen_tile_glyph(tile);
        put(&b, &g, 1);
      }
      if (color && current >= 0 && COLOR[current][0]) puts_(&b, "\033[0m");
      puts_(&b, "\n");
    }
  }
  return finish(&b, text, len, err);
}
