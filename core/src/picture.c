/* picture.c - maps as pictures: SVG text and PNG images (zlib for the PNG's data). */
#include "strata/picture.h"
#include "strata/alloc.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct rgb {
  unsigned char r, g, b;
} rgb;

/* The colour names token traits use (the glyph tables' names, as in KeeperRL's). */
static const struct {
  const char *name;
  rgb c;
} palette[] = {
    {"black", {20, 20, 20}},      {"red", {190, 40, 30}},     {"green", {60, 150, 60}},
    {"brown", {130, 90, 40}},     {"yellow", {220, 200, 60}}, {"blue", {50, 90, 190}},
    {"magenta", {170, 60, 170}},  {"cyan", {60, 170, 180}},   {"white", {235, 235, 235}},
    {"gray", {110, 110, 110}},    {"grey", {110, 110, 110}},  {"orange", {220, 130, 40}},
};
static const rgb EMPTY = {0, 0, 0}, OPEN = {216, 208, 192}, SOLID = {64, 64, 64},
                 ROUTE = {230, 60, 40};

static rgb cell_colour(const strata_tilemap *m, int x, int y) {
  strata_token top = strata_tilemap_top(m, x, y);
  if (top == 0) return EMPTY;
  const strata_token_traits *t = strata_tokens_traits(strata_tilemap_tokens(m), top);
  for (size_t i = 0; i < sizeof palette / sizeof palette[0]; i++)
    if (strcmp(t->color, palette[i].name) == 0) return palette[i].c;
  return strata_tilemap_passable(m, x, y) ? OPEN : SOLID;
}

/* A growing text buffer: a failed allocation sticks, checked once at the end. */
typedef struct text {
  char *s;
  size_t len, cap;
  int failed;
} text;

static void put(text *t, const char *fmt, ...) {
  if (t->failed) return;
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) { t->failed = 1; return; }
    if (t->s && t->len + (size_t)n < t->cap) { t->len += (size_t)n; return; }
    if (!STRATA_GROW(t->s, t->cap, t->len + (size_t)n + 1)) { t->failed = 1; return; }
  }
}

static strata_status finish(text *t, char **out, size_t *len, strata_error *err) {
  if (t->failed) {
    strata_free(t->s);
    return strata_error_nomem(err, "drawing a picture");
  }
  *out = t->s;
  if (len) *len = t->len;
  return STRATA_OK;
}

static strata_status check_size(int cell, int w, int h, strata_error *err) {
  if (cell < 1 || cell > STRATA_PICTURE_CELL_MAX)
    return strata_error_set(err, STRATA_EARG, "cell must be 1 to %d pixels, got %d",
                            STRATA_PICTURE_CELL_MAX, cell);
  if ((long)w * cell > STRATA_PICTURE_SIDE_MAX || (long)h * cell > STRATA_PICTURE_SIDE_MAX)
    return strata_error_set(err, STRATA_ELIMIT, "a %dx%d picture is larger than %d pixels a side",
                            w * cell, h * cell, STRATA_PICTURE_SIDE_MAX);
  return STRATA_OK;
}

static int cell_of(const strata_picture_options *opt) {
  return opt && opt->cell ? opt->cell : 12;
}

static strata_status check_path(const strata_tilemap *m, const strata_path *p, strata_error *err) {
  size_t cells = (size_t)strata_tilemap_width(m) * (size_t)strata_tilemap_height(m);
  for (size_t i = 0; p && i < p->len; i++)
    if (p->nodes[i] >= cells)
      return strata_error_set(err, STRATA_EARG, "path cell %zu (index %u) is outside the map", i + 1,
                              (unsigned)p->nodes[i]);
  return STRATA_OK;
}

strata_status strata_tilemap_svg(const strata_tilemap *m, const strata_picture_options *opt,
                                 char **out, size_t *len, strata_error *err) {
  int w = strata_tilemap_width(m), h = strata_tilemap_height(m), c = cell_of(opt);
  const strata_path *path = opt ? opt->path : NULL;
  strata_status st = check_size(c, w, h, err);
  if (!st) st = check_path(m, path, err);
  if (st) return st;
  text t = {0};
  put(&t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\" shape-rendering=\"crispEdges\">\n",
      w * c, h * c, w * c, h * c);
  for (int y = 0; y < h; y++) {
    /* One rectangle per run of equal colours keeps large maps small. */
    for (int x = 0; x < w;) {
      rgb k = cell_colour(m, x, y);
      int run = 1;
      while (x + run < w) {
        rgb n = cell_colour(m, x + run, y);
        if (n.r != k.r || n.g != k.g || n.b != k.b) break;
        run++;
      }
      put(&t, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#%02x%02x%02x\"/>\n",
          x * c, y * c, run * c, c, k.r, k.g, k.b);
      x += run;
    }
  }
  if (path && path->len) {
    put(&t, "<polyline fill=\"none\" stroke=\"#%02x%02x%02x\" stroke-width=\"%g\" "
            "stroke-linecap=\"round\" stroke-linejoin=\"round\" points=\"",
        ROUTE.r, ROUTE.g, ROUTE.b, c / 3.0);
    for (size_t i = 0; i < path->len; i++) {
      int x = (int)(path->nodes[i] % (uint32_t)w), y = (int)(path->nodes[i] / (uint32_t)w);
      put(&t, "%s%g,%g", i ? " " : "", x * c + c / 2.0, y * c + c / 2.0);
    }
    put(&t, "\"/>\n");
  }
  put(&t, "</svg>\n");
  return finish(&t, out, len, err);
}

/* ---- PNG: 8-bit RGB, one zlib stream, chunks with their CRCs ---- */

static void be32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* Appends a chunk at out + *at (room checked by the caller). */
static void chunk(unsigned char *out, size_t *at, const char *type, const unsigned char *data,
                  size_t n) {
  unsigned char *p = out + *at;
  be32(p, (uint32_t)n);
  memcpy(p + 4, type, 4);
  if (n) memcpy(p + 8, data, n);
  uLong crc = crc32(0L, p + 4, (uInt)(n + 4));
  be32(p + 8 + n, (uint32_t)crc);
  *at += n + 12;
}

strata_status strata_tilemap_png(const strata_tilemap *m, const strata_picture_options *opt,
                                 unsigned char **out, size_t *len, strata_error *err) {
  int w = strata_tilemap_width(m), h = strata_tilemap_height(m), c = cell_of(opt);
  const strata_path *path = opt ? opt->path : NULL;
  strata_status st = check_size(c, w, h, err);
  if (!st) st = check_path(m, path, err);
  if (st) return st;
  size_t pw = (size_t)w * (size_t)c, ph = (size_t)h * (size_t)c, row = 1 + pw * 3;
  unsigned char *raw = strata_malloc(row * ph);
  unsigned char *on_path = path && path->len ? strata_calloc((size_t)w * (size_t)h, 1) : NULL;
  if (!raw || (path && path->len && !on_path)) {
    strata_free(raw), strata_free(on_path);
    return strata_error_nomem(err, "drawing a picture");
  }
  for (size_t i = 0; on_path && i < path->len; i++) on_path[path->nodes[i]] = 1;
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      rgb k = cell_colour(m, x, y);
      int marked = on_path && on_path[(size_t)y * (size_t)w + (size_t)x];
      for (int py = 0; py < c; py++) {
        unsigned char *p = raw + ((size_t)y * (size_t)c + (size_t)py) * row + 1 +
                           (size_t)x * (size_t)c * 3;
        for (int px = 0; px < c; px++, p += 3) {
          /* A route cell: a square in its middle, a third of the cell wide. */
          int mid = marked && px >= c / 3 && px < c - c / 3 && py >= c / 3 && py < c - c / 3;
          rgb v = mid || (marked && c < 3) ? ROUTE : k;
          p[0] = v.r, p[1] = v.g, p[2] = v.b;
        }
      }
    }
  }
  for (size_t y = 0; y < ph; y++) raw[y * row] = 0; /* filter: none */
  strata_free(on_path);
  uLongf zlen = compressBound((uLong)(row * ph));
  unsigned char *png = strata_malloc(8 + 25 + 12 + zlen + 12);
  if (!png) {
    strata_free(raw);
    return strata_error_nomem(err, "drawing a picture");
  }
  static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  memcpy(png, signature, 8);
  size_t at = 8;
  unsigned char ihdr[13];
  be32(ihdr, (uint32_t)pw);
  be32(ihdr + 4, (uint32_t)ph);
  ihdr[8] = 8, ihdr[9] = 2, ihdr[10] = 0, ihdr[11] = 0, ihdr[12] = 0; /* 8-bit RGB */
  chunk(png, &at, "IHDR", ihdr, sizeof ihdr);
  /* The compressed data goes straight into the IDAT chunk's place. */
  if (compress2(png + at + 8, &zlen, raw, (uLong)(row * ph), 6) != Z_OK) {
    strata_free(raw), strata_free(png);
    return strata_error_nomem(err, "compressing a picture");
  }
  strata_free(raw);
  unsigned char *idat = png + at + 8;
  be32(png + at, (uint32_t)zlen);
  memcpy(png + at + 4, "IDAT", 4);
  be32(idat + zlen, (uint32_t)crc32(0L, png + at + 4, (uInt)(zlen + 4)));
  at += zlen + 12;
  chunk(png, &at, "IEND", NULL, 0);
  *out = png;
  if (len) *len = at;
  return STRATA_OK;
}

/* ---- XY maps ---- */

/* One byte of a glyph as XML text: markup escaped, control characters (not
** allowed in XML 1.0) shown as '?'. */
static void put_glyph(text *t, char ch) {
  switch (ch) {
    case '<': put(t, "&lt;"); break;
    case '>': put(t, "&gt;"); break;
    case '&': put(t, "&amp;"); break;
    default: put(t, "%c", (unsigned char)ch < 0x20 || ch == 0x7f ? '?' : ch);
  }
}

strata_status strata_xymap_svg(const strata_xymap *m, const strata_xy_route *route,
                               const strata_picture_options *opt, char **out, size_t *len,
                               strata_error *err) {
  char *shown;
  size_t n;
  strata_status st = strata_xymap_display(m, &shown, &n, err);
  if (st) return st;
  /* The display escapes '|' as "||": back to one character per cell. */
  size_t j = 0;
  for (size_t i = 0; i < n; i++, j++) {
    shown[j] = shown[i];
    if (shown[i] == '|' && i + 1 < n && shown[i + 1] == '|') i++;
  }
  n = j;
  int rows = 1, cols = 0, col = 0;
  for (size_t i = 0; i < n; i++) {
    if (shown[i] == '\n') rows++, col = 0;
    else if (((unsigned char)shown[i] & 0xc0) != 0x80 && ++col > cols) cols = col;
  }
  int c = cell_of(opt);
  if ((st = check_size(c, cols, rows, err))) {
    strata_free(shown);
    return st;
  }
  text t = {0};
  put(&t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#101418\"/>\n",
      cols * c, rows * c, cols * c, rows * c);
  for (size_t i = 0; route && i < route->step_count; i++) {
    int x = (int)(route->steps[i].x * 2 + 0.5), y = rows - 1 - (int)(route->steps[i].y * 2 + 0.5);
    put(&t, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#%02x%02x%02x\"/>\n", x * c,
        y * c, c, c, ROUTE.r, ROUTE.g, ROUTE.b);
  }
  put(&t, "<g font-family=\"monospace\" font-size=\"%d\" fill=\"#e0e0d0\" text-anchor=\"middle\">\n",
      c);
  int y = 0, x = 0;
  for (size_t i = 0; i < n; i++) {
    if (shown[i] == '\n') { y++, x = 0; continue; }
    /* A cell is one character: a UTF-8 lead byte takes its continuation bytes along. */
    size_t end = i + 1;
    if ((unsigned char)shown[i] >= 0xc0)
      while (end < n && ((unsigned char)shown[end] & 0xc0) == 0x80) end++;
    if (shown[i] != ' ') {
      put(&t, "<text x=\"%g\" y=\"%g\">", x * c + c / 2.0, y * c + c * 0.8);
      for (size_t k = i; k < end; k++) put_glyph(&t, shown[k]);
      put(&t, "</text>\n");
    }
    i = end - 1;
    x++;
  }
  put(&t, "</g>\n</svg>\n");
  strata_free(shown);
  return finish(&t, out, len, err);
}
