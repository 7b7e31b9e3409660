/*
** gridjunction.h - the junction graph of gridjunction.c, as the distance
** maps (distmap.c) read it: a field over a maze is Dijkstra over the
** junctions, each chain's cells then filled from its two ends.
*/
#ifndef STRATA_GRIDJUNCTION_H
#define STRATA_GRIDJUNCTION_H

#include <stdint.h>

#define JUNCTION_NONE UINT32_MAX
#define JUNCTION_FLAG 0x80000000u /* a tag naming a junction (else a chain slot + 1) */

/* Up to this share of junctions among the passable cells
** (gridjunction_share) the searches run over the junctions: the maze 0.2;
** rooms and open ground most of their cells. */
#define JUNCTION_MAX_SHARE 0.35

typedef struct jchain {
  uint32_t first, len; /* its slots */
  uint32_t ja, jb;     /* junctions at the ends, first slot next to ja */
  uint32_t a, b;       /* straight and diagonal steps from ja to jb */
} jchain;

typedef struct jedge {
  uint32_t to, chain; /* its chain (top bit: walked backwards), or JUNCTION_NONE: one step */
  uint32_t a, b;
  uint32_t cut; /* a bridge: the junction whose side of it is a subtree; else JUNCTION_NONE */
} jedge;

/* The graph of a padded class grid, read only. Cells that are not walls
** and have tag 0 are skipped (their neighbours all next to each other):
** no optimal route passes through one. */
typedef struct gridjunction_graph {
  uint32_t njunc, nchain;
  const uint32_t *tag;        /* per padded cell: 0, JUNCTION_FLAG | junction, or slot + 1 */
  const uint32_t *jcell;      /* per junction: its padded cell */
  const uint32_t *eoff;       /* per junction + 1: its edges in edge[] */
  const jedge *edge;          /* loops back to their own junction are not edges */
  const jchain *chain;
  const uint32_t *scell, *schain, *sa, *sb; /* per slot: cell, chain, steps from the chain's ja */
} gridjunction_graph;

struct grid_junction;
/* Builds the graph of cls (unless built from this serial) into *g; 0 on
** ENOMEM. */
int gridjunction_graph_of(struct grid_junction **jp, const uint8_t *cls, uint32_t pw, uint32_t ph,
                          uint64_t serial, gridjunction_graph *g);

#endif
