/*
** fuzz_xymap.c - libFuzzer target: any bytes as an XY map. The parser must
** return a map or an error, never crash, hang or leak; a map it returns must
** survive a route between two of its nodes and its display.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "strata/alloc.h"
#include "strata/xymap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Symbols beyond the default legend, so that inputs reach the paths custom
** legends open: more teleporter pairs (p, q), a link too light to be drawn
** (=, refused where it stands), one heavier from one side (~). */
static size_t extra_legend(strata_xy_legend out[4]) {
  strata_xy_legend_default(STRATA_XY_TELEPORTER, 'p', &out[0]);
  strata_xy_legend_default(STRATA_XY_TELEPORTER, 'q', &out[1]);
  strata_xy_legend_default(STRATA_XY_EW, '=', &out[2]);
  out[2].default_weight = 0.5;
  strata_xy_legend_default(STRATA_XY_EW, '~', &out[3]);
  out[3].weights[6] = 3; /* entered from the west */
  return 4;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  strata_error err;
  strata_xy_legend extra[4];
  size_t count = extra_legend(extra);
  strata_xymap *m = strata_xymap_parse((const char *)data, size, "fuzz", extra, count, &err);
  if (m == NULL) return 0;
  size_t n = strata_xymap_node_count(m);
  if (n > 0) {
    strata_xy_route route = {0};
    if (strata_xymap_shortest_path(m, 0, n - 1, &route, &err) == STRATA_OK)
      strata_xy_route_free(&route);
  }
  char *shown = NULL;
  size_t len;
  if (strata_xymap_display(m, &shown, &len, &err) == STRATA_OK) strata_free(shown);
  if (strata_xymap_builder_display(m, &shown, &len, &err) == STRATA_OK) strata_free(shown);
  strata_xymap_free(m);
  return 0;
}
