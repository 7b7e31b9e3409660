/* xymap_view.c - drawing an XY map the way players see it. */
#include <stdlib.h>
#include <string.h>

#include "xymap_internal.h"

/* What a component shows. Blocked and interrupt links show the plain link
** they stand in for (Evennia's table: n-s, e-w, ne-sw; the nw-se entry of
** that table has a typo, so such a link shows its own letter). */
static const char *display_of(strata_xymap *m, uint32_t ci, char own[2]) {
  const xy_comp *c = &m->comps[ci];
  const strata_xy_legend *lg = xy_legend_of(m, c);
  own[0] = lg->symbol;
  own[1] = '\0';
  if (lg->display[0]) return lg->display;
  switch (lg->kind) {
    case STRATA_XY_INTERRUPT_NODE: return "#";
    case STRATA_XY_TRANSITION:
    case STRATA_XY_TELEPORTER: return " ";
    case STRATA_XY_NS: return "||";
    case STRATA_XY_BLOCKED:
    case STRATA_XY_INTERRUPT_LINK:
      if (xy_link_directions(m, ci, NULL)) {
        const int8_t *d = c->dirs;
        if (d[0] >= 0 || d[4] >= 0) return "||";
        if (d[2] >= 0 || d[6] >= 0) return "-";
        if (d[1] >= 0 || d[5] >= 0) return "/";
      }
      return own;
    default: return own;
  }
}

strata_status strata_xymap_display(const strata_xymap *m_const, char **out, size_t *len,
                                   strata_error *err) {
  /* Display may compute (and cache) a smart link's directions. */
  strata_xymap *m = (strata_xymap *)m_const;
  size_t total = 0;
  char own[2];
  for (int pass = 0; pass < 2; pass++) {
    char *buf = NULL, *p = NULL;
    if (pass == 1) {
      buf = p = malloc(total + 1);
      if (buf == NULL) return strata_error_set(err, STRATA_ENOMEM, "out of memory drawing a map");
    }
    for (int gy = m->height - 1; gy >= 0; gy--) {
      for (int gx = 0; gx < m->width; gx++) {
        int32_t ci = xy_cell(m, gx, gy);
        const char *s = ci < 0 ? " " : display_of(m, (uint32_t)ci, own);
        size_t l = strlen(s);
        if (pass == 0) total += l;
        else memcpy(p, s, l), p += l;
      }
      if (gy > 0) {
        if (pass == 0) total++;
        else *p++ = '\n';
      }
    }
    if (pass == 1) {
      *p = '\0';
      *out = buf;
      if (len) *len = total;
    }
  }
  return STRATA_OK;
}
