/* xymap_view.c - drawing an XY map the way players see it. */
#include <stdlib.h>
#include <string.h>

#include "xymap_internal.h"
#include "strata/alloc.h"
#include "util.h"

/* What a component shows. Blocked and interrupt links show the plain link
** they stand in for (Evennia's table: n-s, e-w, ne-sw; the nw-se entry of
** that table has a typo, so such a link shows its own letter). For
** builders (builder set) every cell shows its own symbol, the markers
** players never see (T, t, b, i, I, transitions) included. */
static const char *display_of(strata_xymap *m, uint32_t ci, int builder, char own[3]) {
  const xy_comp *c = &m->comps[ci];
  const strata_xy_legend *lg = xy_legend_of(m, c);
  own[0] = lg->symbol;
  own[1] = builder && lg->symbol == '|' ? '|' : '\0'; /* the markup escape */
  own[2] = '\0';
  if (builder) return own;
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

static strata_status display_map(const strata_xymap *m_const, int builder, char **out, size_t *len,
                                 strata_error *err) {
  /* Display may compute (and cache) a smart link's directions. */
  strata_xymap *m = (strata_xymap *)m_const;
  size_t total = 0;
  char own[3];
  for (int pass = 0; pass < 2; pass++) {
    char *buf = NULL, *p = NULL;
    if (pass == 1) {
      buf = p = strata_malloc(total + 1);
      if (buf == NULL) return strata_error_nomem(err, "drawing a map");
    }
    for (int gy = m->height - 1; gy >= 0; gy--) {
      for (int gx = 0; gx < m->width; gx++) {
        int32_t ci = xy_cell(m, gx, gy);
        const char *s = ci < 0 ? " " : display_of(m, (uint32_t)ci, builder, own);
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

strata_status strata_xymap_display(const strata_xymap *m, char **out, size_t *len, strata_error *err) {
  return display_map(m, 0, out, len, err);
}

strata_status strata_xymap_builder_display(const strata_xymap *m, char **out, size_t *len,
                                           strata_error *err) {
  return display_map(m, 1, out, len, err);
}

/* ---- visual range --------------------------------------------------------------- */

typedef struct text_buf {
  char *p;
  size_t len, cap;
  int failed;
} text_buf;

static void put(text_buf *b, const char *s, size_t n) {
  if (b->failed) return;
  if (b->len + n + 1 > b->cap) {
    if (!STRATA_GROW(b->p, b->cap, b->len + n + 1)) {
      b->failed = 1;
      return;
    }
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
}

/* Writes style with each "{display_symbol}" replaced by sym. */
static void put_styled(text_buf *b, const char *style, const char *sym) {
  static const char key[] = "{display_symbol}";
  const char *at;
  while ((at = strstr(style, key)) != NULL) {
    put(b, style, (size_t)(at - style));
    put(b, sym, strlen(sym));
    style = at + sizeof key - 1;
  }
  put(b, style, strlen(style));
}

static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The grid cells a view shows: x0..x1, y0..y1. */
typedef struct xy_window {
  int x0, x1, y0, y1;
} xy_window;

/* Marks in shown the cells of the chains within dist nodes of centre, and
** sets w to their bounds. Breadth-first: each node once, so the cost grows
** with the area, not with degree^dist as a walk of every path would. 0 out
** of memory. */
static int mark_nearby(const strata_xymap *m, uint32_t centre, int dist, unsigned char *shown,
                       xy_window *w) {
  uint32_t *queue = strata_malloc(m->node_count * sizeof *queue);
  int32_t *hops = strata_malloc(m->node_count * sizeof *hops);
  if (queue == NULL || hops == NULL) return strata_free(queue), strata_free(hops), 0;
  for (size_t i = 0; i < m->node_count; i++) hops[i] = -1;
  size_t head = 0, tail = 0;
  queue[tail++] = centre;
  hops[centre] = 0;
  const xy_comp *cc = &m->comps[m->nodes[centre]];
  w->x0 = w->x1 = cc->gx, w->y0 = w->y1 = cc->gy;
  shown[(size_t)cc->gy * (size_t)m->width + (size_t)cc->gx] = 1;
  while (head < tail) {
    uint32_t u = queue[head++];
    if (hops[u] >= dist) continue;
    for (uint32_t ci = m->node_chains[u]; ci < m->node_chains[u + 1]; ci++) {
      const xy_chain *ch = &m->chains[ci];
      uint32_t nsteps = xy_chain_steps(m, ci), first = m->node_steps[u];
      for (uint32_t k2 = m->node_chains[u]; k2 < ci; k2++) first += m->chains[k2].steps;
      for (uint32_t k = 0; k <= nsteps; k++) {
        const xy_comp *c = k < nsteps ? &m->comps[m->steps[first + k]]
                                      : &m->comps[m->nodes[ch->target]];
        shown[(size_t)c->gy * (size_t)m->width + (size_t)c->gx] = 1;
        if (c->gx < w->x0) w->x0 = c->gx;
        if (c->gx > w->x1) w->x1 = c->gx;
        if (c->gy < w->y0) w->y0 = c->gy;
        if (c->gy > w->y1) w->y1 = c->gy;
      }
      if (hops[ch->target] < 0) {
        hops[ch->target] = hops[u] + 1;
        queue[tail++] = ch->target;
      }
    }
  }
  strata_free(queue), strata_free(hops);
  return 1;
}

/* Marks in on_route the cells of the route from centre to the view's
** target within the window, as far as the view reaches. */
static void mark_route(strata_xymap *m, const strata_xy_view *view, size_t centre,
                       const xy_window *w, unsigned char *on_route, strata_error *err) {
  int64_t tn = strata_xymap_node_at(m, view->target_x, view->target_y);
  strata_xy_route r;
  if (tn < 0 || strata_xymap_shortest_path(m, centre, (size_t)tn, &r, err) != STRATA_OK) return;
  double limit = view->mode == STRATA_XY_VIEW_SCAN ? view->dist / 2.0 : view->dist;
  int nodes_passed = 0;
  for (size_t k = 1; k < r.step_count; k++) {
    if (r.steps[k].is_node && ++nodes_passed > limit && view->dist >= 0) break;
    int gx = (int)(r.steps[k].x * 2), gy = (int)(r.steps[k].y * 2);
    if (gx >= w->x0 && gx <= w->x1 && gy >= w->y0 && gy <= w->y1)
      on_route[(size_t)gy * (size_t)m->width + (size_t)gx] = 1;
  }
  strata_xy_route_free(&r);
}

/* Draws the window, cropped to the view's size around (ix, iy), into b. */
static void draw_window(strata_xymap *m, const strata_xy_view *view, xy_window w, int ix, int iy,
                        const unsigned char *shown, const unsigned char *on_route, text_buf *b) {
  const char *character = view->character && view->character[0] ? view->character : NULL;
  if (view->max_w > 0) {
    w.x0 = w.x0 > ix - view->max_w / 2 ? w.x0 : ix - view->max_w / 2;
    w.x1 = w.x1 < ix + view->max_w / 2 ? w.x1 : ix + view->max_w / 2;
  }
  if (view->max_h > 0) {
    w.y0 = w.y0 > iy - view->max_h / 2 ? w.y0 : iy - view->max_h / 2;
    w.y1 = w.y1 < iy + view->max_h / 2 ? w.y1 : iy + view->max_h / 2;
  }
  const char *style = view->target_style ? view->target_style : "|y{display_symbol}|n";
  char own[3];
  for (int gy = w.y1; gy >= w.y0; gy--) {
    for (int gx = w.x0; gx <= w.x1; gx++) {
      size_t i = (size_t)gy * (size_t)m->width + (size_t)gx;
      int32_t ci = xy_cell(m, gx, gy);
      const char *sym = ci >= 0 && shown[i] ? display_of(m, (uint32_t)ci, view->builder, own) : " ";
      if (character && gx == ix && gy == iy) put(b, character, strlen(character));
      else if (on_route && on_route[i] && ci >= 0)
        put_styled(b, style, display_of(m, (uint32_t)ci, view->builder, own));
      else put(b, sym, strlen(sym));
    }
    if (gy > w.y0) put(b, "\n", 1);
  }
}

strata_status strata_xymap_visual_range(const strata_xymap *m_const, const strata_xy_view *view,
                                        char **out, size_t *len, strata_error *err) {
  strata_xymap *m = (strata_xymap *)m_const;
  if (view->x < 0 || view->y < 0 || view->x > m->max_X || view->y > m->max_Y)
    return strata_error_set(err, STRATA_EARG,
                            "coordinate (%d, %d) is outside the grid size of (0,0) - (%d, %d)",
                            view->x, view->y, m->max_X, m->max_Y);
  const char *character = view->character && view->character[0] ? view->character : NULL;
  int64_t centre = strata_xymap_node_at(m, view->x, view->y);
  text_buf b = {0};
  if (view->dist == 0 || centre < 0) {
    put(&b, character ? character : " ", strlen(character ? character : " "));
    goto done;
  }
  int ix = clamp(2 * view->x, 0, m->width), iy = clamp(2 * view->y, 0, m->height);
  /* The cells to show: a mark per grid cell, and the window's bounds. */
  size_t cells = (size_t)m->width * (size_t)m->height;
  unsigned char *shown = strata_calloc(cells ? cells : 1, 1);
  unsigned char *on_route = NULL;
  if (shown == NULL) goto nomem;
  xy_window w;
  if (view->dist < 0) {
    w = (xy_window){0, m->width - 1, 0, m->height - 1};
    memset(shown, 1, cells);
  } else if (view->mode == STRATA_XY_VIEW_SCAN) {
    w = (xy_window){clamp(ix - view->dist, 0, m->width - 1), clamp(ix + view->dist, 0, m->width - 1),
                    clamp(iy - view->dist, 0, m->height - 1), clamp(iy + view->dist, 0, m->height - 1)};
    memset(shown, 1, cells);
  } else if (!mark_nearby(m, (uint32_t)centre, view->dist, shown, &w)) {
    goto nomem;
  }
  /* The route to the target, as far as the view reaches: cells to restyle. */
  if (view->has_target) {
    if (view->target_x < 0 || view->target_y < 0 || view->target_x > m->max_X ||
        view->target_y > m->max_Y) {
      strata_free(shown), strata_free(b.p);
      return strata_error_set(err, STRATA_EARG, "target (%d, %d) is outside the grid size of "
                              "(0,0) - (%d, %d)", view->target_x, view->target_y, m->max_X, m->max_Y);
    }
    on_route = strata_calloc(cells ? cells : 1, 1);
    if (on_route == NULL) goto nomem;
    mark_route(m, view, (size_t)centre, &w, on_route, err);
  }
  draw_window(m, view, w, ix, iy, shown, on_route, &b);
  strata_free(on_route), strata_free(shown);
done:
  if (b.failed || b.p == NULL) {
    strata_free(b.p);
    return strata_error_nomem(err, "drawing a view");
  }
  *out = b.p;
  if (len) *len = b.len;
  return STRATA_OK;
nomem:
  strata_free(shown), strata_free(b.p);
  return strata_error_nomem(err, "drawing a view");
}
