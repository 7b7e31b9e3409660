/* xymap_internal.h - the parsed XY map, shared by the parser, paths and views. */
#ifndef STRATA_XYMAP_INTERNAL_H
#define STRATA_XYMAP_INTERNAL_H

#include "strata/xymap.h"

#define XY_TELEPORT 8      /* the pseudo direction a teleporter leads to */
#define XY_SIDES 9         /* eight directions and the teleport */
#define XY_BIGVAL 999999999999.0

/* One character of the map: 20 bytes, as there are about three per node. */
typedef struct xy_comp {
  uint16_t gx, gy;         /* character grid position (x right, y up) */
  int32_t node;            /* node index, or -1 for links */
  uint16_t legend;         /* index into strata_xymap.legend */
  uint8_t dirs_state;      /* 0 not computed, 1 computing, 2 ready */
  int8_t dirs[XY_SIDES];   /* entry side -> exit side, -1 none (links) */
} xy_comp;

/* The widest and highest map, in characters (positions are 16-bit). */
#define XY_SIDE_MAX 65535

/* A chain from a node: the first link's direction and the links walked.
** Chains and their links are stored in tracing order, so a chain's links
** follow those of the chains before it (xy_chain_first). The last chain to
** each target carries the edge the pathfinder uses (Evennia's matrix holds
** one weight per node pair: the last one traced). 16 bytes. */
typedef struct xy_chain {
  uint32_t target;         /* node index */
  uint16_t steps;          /* links walked */
  int8_t direction;
  uint8_t flags;           /* XY_CHAIN_* */
  double weight;
} xy_chain;

/* The most links one chain may have (steps is 16-bit). */
#define XY_CHAIN_MAX 65535

#define XY_CHAIN_BLOCKED 1u  /* crosses a blocked link */
#define XY_CHAIN_EDGE 2u     /* the last chain to its target: carries the edge */
#define XY_CHAIN_USABLE 4u   /* carries an edge that routes may use */

struct strata_xymap {
  char z[STRATA_XY_NAME_MAX * 2];
  int width, height;       /* character grid: max_x + 1, max_y + 1 */
  int32_t *cell;           /* component index per grid cell, -1 empty */
  xy_comp *comps;
  size_t comp_count;
  uint32_t *nodes;         /* node index -> component index */
  size_t node_count;
  int max_X, max_Y;
  strata_xy_legend *legend;
  size_t legend_count;
  int16_t by_symbol[256];  /* legend index for a byte, -1 none */
  xy_chain *chains;        /* grouped by node, in tracing order */
  size_t chain_count;
  uint32_t *node_chains;   /* node -> first chain; node_count + 1 entries */
  uint32_t *steps;         /* component indices of the chains' links, chain after chain */
  uint32_t *node_steps;    /* node -> index in steps of its first chain's first link */
  uint32_t *teleports;     /* pairs (teleporter, partner) of component indices */
  size_t teleport_count, teleport_cap;
  size_t step_count, step_cap;
  uint32_t *in_chains;     /* usable edge-carrying chains grouped by target */
  uint32_t *node_in;       /* node -> first in_chains entry; node_count + 1 entries */
  uint32_t max_int_weight; /* every usable weight a whole number up to this; 0: not so */
  int mx, row0_line;       /* for positions: column = gx + mx + 3, line = row0_line - gy */
};

static inline uint32_t xy_chain_steps(const strata_xymap *m, size_t c) {
  return m->chains[c].steps;
}

/* The node a chain leaves from. */
static inline uint32_t xy_chain_source(const strata_xymap *m, uint32_t c) {
  size_t lo = 0, hi = m->node_count; /* the last node whose first chain is <= c */
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (m->node_chains[mid] <= c) lo = mid;
    else hi = mid;
  }
  return (uint32_t)lo;
}

/* Index in steps of chain c's first link. */
static inline uint32_t xy_chain_first(const strata_xymap *m, uint32_t c) {
  uint32_t n = xy_chain_source(m, c), first = m->node_steps[n];
  for (uint32_t k = m->node_chains[n]; k < c; k++) first += m->chains[k].steps;
  return first;
}

/* Among node u's chains to v, the lightest (the earliest on ties): the one a
** route follows and names. */
static inline uint32_t xy_route_chain(const strata_xymap *m, uint32_t u, uint32_t v) {
  uint32_t best = UINT32_MAX;
  for (uint32_t c = m->node_chains[u]; c < m->node_chains[u + 1]; c++)
    if (m->chains[c].target == v && (best == UINT32_MAX || m->chains[c].weight < m->chains[best].weight))
      best = c;
  return best;
}

/* The step name of chain c: the first link's alias for its direction. */
const char *xy_chain_name(const strata_xymap *m, uint32_t c);
/* The teleporter paired with component ci, or -1. */
int32_t xy_partner(const strata_xymap *m, uint32_t ci);

static inline int32_t xy_cell(const strata_xymap *m, int gx, int gy) {
  if (gx < 0 || gy < 0 || gx >= m->width || gy >= m->height) return -1;
  return m->cell[(size_t)gy * (size_t)m->width + (size_t)gx];
}

static inline const strata_xy_legend *xy_legend_of(const strata_xymap *m, const xy_comp *c) {
  return &m->legend[c->legend];
}

/* Computes a link's directions (smart links look at their neighbours);
** fills err (message with the component's prefix) and returns 0 on error. */
int xy_link_directions(strata_xymap *m, uint32_t comp, strata_error *err);

#endif
