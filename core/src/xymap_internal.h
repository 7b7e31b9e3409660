/* xymap_internal.h - the parsed XY map, shared by the parser, paths and views. */
#ifndef STRATA_XYMAP_INTERNAL_H
#define STRATA_XYMAP_INTERNAL_H

#include "strata/xymap.h"

#define XY_TELEPORT 8      /* the pseudo direction a teleporter leads to */
#define XY_SIDES 9         /* eight directions and the teleport */
#define XY_BIGVAL 999999999999.0

typedef struct xy_comp {
  int gx, gy;              /* character grid position (x right, y up) */
  int line, column;        /* 1-based, in the map string */
  uint16_t legend;         /* index into strata_xymap.legend */
  int32_t node;            /* node index, or -1 for links */
  int8_t dirs[XY_SIDES];   /* entry side -> exit side, -1 none (links) */
  uint8_t dirs_state;      /* 0 not computed, 1 computing, 2 ready */
  int32_t partner;         /* teleporters: the paired teleporter */
} xy_comp;

/* A chain from a node: the first link's direction and the links walked. */
typedef struct xy_chain {
  uint32_t target;         /* node index */
  int8_t direction;
  uint8_t blocked;         /* crosses a blocked link: never used by paths */
  const char *name;        /* step name: the first link's alias or the direction */
  double weight;
  uint32_t first_step, step_count; /* into strata_xymap.steps (component indices) */
} xy_chain;

/* An edge for the pathfinder: one per (node, target), as Evennia's matrix. */
typedef struct xy_edge {
  uint32_t from, to;
  double weight;           /* of the last chain to `to` in tracing order */
  uint32_t route;          /* chain index of the lightest chain (earliest on ties) */
  uint8_t usable;
} xy_edge;

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
  uint32_t *steps;
  size_t step_count, step_cap;
  xy_edge *edges;          /* grouped by `from` */
  size_t edge_count;
  uint32_t *node_edges;    /* node -> first edge; node_count + 1 entries */
  uint32_t *in_edges;      /* edge indices grouped by `to` */
  uint32_t max_int_weight; /* every usable weight a whole number up to this; 0: not so */
  uint32_t *node_in;       /* node -> first in_edges entry; node_count + 1 entries */
};

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
