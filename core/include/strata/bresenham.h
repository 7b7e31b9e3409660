/*
** bresenham.h - the cells of a straight line and of a circle on a grid.
**
** Integer only (Bresenham 1965; the midpoint circle): the same cells on
** every machine. Field of view's basic ray casting walks its rays with
** strata_line (fov.h).
*/
#ifndef STRATA_BRESENHAM_H
#define STRATA_BRESENHAM_H

#include "strata/api.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A line being walked, from (x0, y0) to (x1, y1), both ends included. */
typedef struct strata_line {
  int x, y, x1, y1;
  int dx, dy, sx, sy, err;
  int done;
} strata_line;

STRATA_API void strata_line_init(strata_line *l, int x0, int y0, int x1, int y1);
/* 1 and the next cell of the line (the first call gives (x0, y0)); 0 once
** (x1, y1) was given. Each step moves to one of the 8 neighbours; the line
** has max(|x1 - x0|, |y1 - y0|) + 1 cells. */
STRATA_API int strata_line_next(strata_line *l, int *x, int *y);

/* The cells of the circle of radius r around (0, 0) (midpoint circle; r = 0
** is the centre alone), each once, clockwise from (0, -r) (y grows
** downwards). Writes at most cap of them into dx, dy (NULL when cap is 0)
** and returns how many there are; 0 for r < 0 or r > 65535, or when memory
** runs out (it holds an eighth of the circle meanwhile). */
STRATA_API size_t strata_circle(int r, int *dx, int *dy, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
