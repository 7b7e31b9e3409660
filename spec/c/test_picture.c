/* test_picture.c - pictures of maps: PNG structure, CRCs and pixels read back
** with zlib; SVG shape; errors that allocate nothing. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
#include "strata/strata.h"

static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Walks the chunks, checks every CRC, inflates IDAT into *raw (malloc'd). */
static int read_png(const unsigned char *png, size_t len, uint32_t *w, uint32_t *h,
                    unsigned char **raw, size_t *raw_len) {
  if (len < 8 || memcmp(png, "\x89PNG\r\n\x1a\n", 8) != 0) return 0;
  unsigned char *idat = NULL;
  size_t idat_len = 0, at = 8;
  int ended = 0;
  while (at + 12 <= len && !ended) {
    uint32_t n = be32(png + at);
    if (at + 12 + n > len) break;
    if (crc32(0L, png + at + 4, n + 4) != be32(png + at + 8 + n)) break;
    if (memcmp(png + at + 4, "IHDR", 4) == 0) *w = be32(png + at + 8), *h = be32(png + at + 12);
    if (memcmp(png + at + 4, "IDAT", 4) == 0) {
      idat = realloc(idat, idat_len + n);
      memcpy(idat + idat_len, png + at + 8, n);
      idat_len += n;
    }
    ended = memcmp(png + at + 4, "IEND", 4) == 0;
    at += 12 + n;
  }
  uLongf out_len = (uLongf)(*h) * (1 + 3 * (uLongf)(*w));
  *raw = malloc(out_len);
  int ok = ended && at == len && uncompress(*raw, &out_len, idat, idat_len) == Z_OK;
  *raw_len = out_len;
  free(idat);
  return ok;
}

int main(void) {
  strata_error err;
  strata_tilemap *m = strata_tilemap_new(6, 4, NULL, &err);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall;
  strata_tokens_default_traits("wall", 4, &wall);
  wall.passable = 0;
  CHECK(strata_tokens_define(t, "wall", 4, &wall, &err) == STRATA_OK);
  strata_token_traits water;
  strata_tokens_default_traits("water", 5, &water);
  strcpy(water.color, "blue");
  CHECK(strata_tokens_define(t, "water", 5, &water, &err) == STRATA_OK);
  strata_tilemap_clear(m, strata_tokens_intern(t, "floor", 5, &err), &err);
  strata_tilemap_set(m, 3, 0, strata_tokens_intern(t, "wall", 4, &err), &err);
  strata_tilemap_set(m, 1, 2, strata_tokens_intern(t, "water", 5, &err), &err);
  strata_path p;
  strata_path_init(&p);
  CHECK(strata_tilemap_find_path(m, 0, 0, 5, 0, NULL, &p, &err) == STRATA_OK);

  /* PNG: 6x4 cells of 5 pixels, every chunk's CRC right, the pixels the cells' */
  strata_picture_options opt = {5, &p};
  unsigned char *png = NULL, *raw = NULL;
  size_t len = 0, raw_len = 0;
  CHECK(strata_tilemap_png(m, &opt, &png, &len, &err) == STRATA_OK);
  uint32_t w = 0, h = 0;
  CHECK(read_png(png, len, &w, &h, &raw, &raw_len));
  CHECK_EQ_INT(w, 30);
  CHECK_EQ_INT(h, 20);
  CHECK_EQ_INT(raw_len, 20 * (1 + 30 * 3));
  if (raw_len == 20 * (1 + 30 * 3)) {
    const unsigned char *wall_px = raw + 1 * 91 + 1 + (3 * 5 + 1) * 3;     /* cell (3, 0) */
    const unsigned char *water_px = raw + 11 * 91 + 1 + (1 * 5 + 1) * 3;   /* cell (1, 2) */
    const unsigned char *route_px = raw + 2 * 91 + 1 + (0 * 5 + 2) * 3;    /* middle of (0, 0) */
    CHECK(wall_px[0] == 64 && wall_px[1] == 64 && wall_px[2] == 64);
    CHECK(water_px[0] == 50 && water_px[1] == 90 && water_px[2] == 190);
    CHECK(route_px[0] == 230 && route_px[1] == 60 && route_px[2] == 40);
  }
  strata_free(png);
  free(raw);

  /* SVG: the header, a size from the cells, the route as one polyline */
  char *svg = NULL;
  CHECK(strata_tilemap_svg(m, &opt, &svg, &len, &err) == STRATA_OK);
  CHECK(svg && strstr(svg, "width=\"30\" height=\"20\"") != NULL);
  CHECK(svg && strstr(svg, "<polyline") != NULL);
  CHECK(svg && strlen(svg) == len);
  strata_free(svg);

  /* Errors allocate nothing and say why */
  opt.cell = 65;
  svg = NULL;
  CHECK(strata_tilemap_svg(m, &opt, &svg, &len, &err) == STRATA_EARG && svg == NULL);
  CHECK(strstr(err.message, "cell must be") != NULL);
  opt.cell = 5;
  p.nodes[0] = 999;
  CHECK(strata_tilemap_png(m, &opt, &png, &len, &err) == STRATA_EARG);
  strata_tilemap *big = strata_tilemap_new(5000, 2, NULL, &err);
  CHECK(strata_tilemap_png(big, NULL, &png, &len, &err) == STRATA_ELIMIT);
  strata_tilemap_free(big);

  /* XY maps: glyphs as text, the route's cells highlighted, '<' escaped */
  const char *map = "+ 0 1 2\n\n0 #-#<#\n\n+ 0 1 2";
  strata_xymap *xy = strata_xymap_parse(map, strlen(map), "z", NULL, 0, &err);
  CHECK(xy != NULL);
  strata_xy_route r;
  CHECK(strata_xymap_shortest_path(xy, 2, 0, &r, &err) == STRATA_OK);
  CHECK(strata_xymap_svg(xy, &r, NULL, &svg, &len, &err) == STRATA_OK);
  CHECK(svg && strstr(svg, "&lt;") != NULL);
  CHECK(svg && strstr(svg, "width=\"60\" height=\"12\"") != NULL);
  strata_free(svg);
  strata_xy_route_free(&r);
  strata_xymap_free(xy);

  strata_path_free(&p);
  strata_tilemap_free(m);
  return check_summary("picture");
}
