/* gridflood.h - searches on maps whose passable cells all cost the same
** (gridflood.c); the fast grid engine (gridsearch.c) owns the workspace. */
#ifndef STRATA_GRIDFLOOD_H
#define STRATA_GRIDFLOOD_H

#include <stddef.h>
#include <stdint.h>

#include "strata/path.h"

struct grid_flood;

void gridflood_free(struct grid_flood *f); /* NULL is accepted */
size_t gridflood_memory(const struct grid_flood *f);

/* Searches the padded class grid cls (pw x ph, one class: 1 passable, 0
** wall) from start to goal (padded indices); the goal is at (gx, gy) on the
** map of the given width. fewest_steps: breadth-first whatever the costs;
** else Dijkstra, where a step into a cell costs cell_cost (times diag when
** diagonal). *f is created on first use and reused. Fills out (map indices,
** cost) and *expanded; returns 1 found, 0 no route, -1 out of memory. */
int gridflood_run(struct grid_flood **f, const uint8_t *cls, uint32_t pw, uint32_t ph,
                  int eight, double diag, int fewest_steps, uint32_t start, uint32_t goal,
                  int gx, int gy, uint32_t width, double cell_cost, strata_path *out,
                  uint64_t *expanded);

#endif
