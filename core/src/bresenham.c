/* bresenham.c - the cells of a line and of a circle (bresenham.h). */
#include "strata/bresenham.h"
#include "strata/alloc.h"

#include <stdlib.h>

void strata_line_init(strata_line *l, int x0, int y0, int x1, int y1) {
  l->x = x0, l->y = y0, l->x1 = x1, l->y1 = y1;
  l->dx = abs(x1 - x0), l->dy = -abs(y1 - y0);
  l->sx = x0 < x1 ? 1 : -1, l->sy = y0 < y1 ? 1 : -1;
  l->err = l->dx + l->dy;
  l->done = 0;
}

/* The all-octant form with one error term: dx - |dy| tracks which of the two
** candidate steps stays nearer the true line. */
int strata_line_next(strata_line *l, int *x, int *y) {
  if (l->done) return 0;
  *x = l->x, *y = l->y;
  if (l->x == l->x1 && l->y == l->y1) {
    l->done = 1;
    return 1;
  }
  int e2 = 2 * l->err;
  if (e2 >= l->dy) l->err += l->dy, l->x += l->sx;
  if (e2 <= l->dx) l->err += l->dx, l->y += l->sy;
  return 1;
}

/* One eighth of the circle, x from 0 to the diagonal (x <= y): the midpoint
** rule steps y down when the midpoint between the two candidates lies
** outside. Returns the count; fills ox, oy up to cap. */
static size_t octant(int r, int *ox, int *oy, size_t cap) {
  size_t n = 0;
  int x = 0, y = r, d = 1 - r;
  while (x <= y) {
    if (n < cap) ox[n] = x, oy[n] = y;
    n++;
    x++;
    if (d < 0) {
      d += 2 * x + 1;
    } else {
      y--;
      d += 2 * (x - y) + 1;
    }
  }
  return n;
}

static void put(int *dx, int *dy, size_t cap, size_t *n, int x, int y) {
  if (*n < cap) dx[*n] = x, dy[*n] = y;
  (*n)++;
}

size_t strata_circle(int r, int *dx, int *dy, size_t cap) {
  if (r < 0 || r > 65535) return 0;
  if (r == 0) {
    if (cap > 0) dx[0] = 0, dy[0] = 0;
    return 1;
  }
  /* The octant's cells (a, b), a <= b, then the eight images in clockwise
  ** order, each segment leaving out the cell its neighbour already gave
  ** (the axis cells, and the diagonal cell when a == b). */
  size_t k = octant(r, NULL, NULL, 0);
  int *a = strata_malloc(k * sizeof *a), *b = strata_malloc(k * sizeof *b);
  if (a == NULL || b == NULL) {
    strata_free(a), strata_free(b);
    return 0;
  }
  octant(r, a, b, k);
  size_t last = k - 1, n = 0;
  int diag = a[last] == b[last];
  for (size_t i = 0; i <= last; i++) put(dx, dy, cap, &n, a[i], -b[i]);
  for (size_t i = last + 1 - (size_t)diag; i-- > 0;) put(dx, dy, cap, &n, b[i], -a[i]);
  for (size_t i = 1; i <= last; i++) put(dx, dy, cap, &n, b[i], a[i]);
  for (size_t i = last + 1 - (size_t)diag; i-- > 0;) put(dx, dy, cap, &n, a[i], b[i]);
  for (size_t i = 1; i <= last; i++) put(dx, dy, cap, &n, -a[i], b[i]);
  for (size_t i = last + 1 - (size_t)diag; i-- > 0;) put(dx, dy, cap, &n, -b[i], a[i]);
  for (size_t i = 1; i <= last; i++) put(dx, dy, cap, &n, -b[i], -a[i]);
  for (size_t i = last + 1 - (size_t)diag; i-- > 1;) put(dx, dy, cap, &n, -a[i], -b[i]);
  strata_free(a), strata_free(b);
  return n;
}
