/*
** suggest.c - the nearest known names, for the "unknown 'x' (nearest known:
** ...)" messages of the core, the binding and the Lua layer (options.nearest
** calls strata_nearest through strata.core.nearest), so that all of them
** suggest alike.
*/
#include <string.h>

#include "strata/alloc.h"
#include "strata/error.h"

/* The distance when a row of the shorter string's length cannot be had: the
** length of the longer, which the edit distance never exceeds. */
#define ROW_ON_STACK 128

/* The work bounds. A distance costs la x lb cells; names are short, so a
** pair past DISTANCE_CELLS (two 2,048-byte strings) is answered with the
** bound max(la, lb) ("nothing alike"), and one strata_nearest call computes
** at most NEAREST_CELLS in all, the rest by that bound: a mod's hostile
** strings or lists cost milliseconds inside one C call, which no budget can
** interrupt, not hours. */
#define DISTANCE_CELLS ((size_t)1 << 22)
#define NEAREST_CELLS ((size_t)1 << 24)

/* The distance of a (la bytes) and b (lb bytes) when it costs at most
** *left cells (then taken from *left), else max(la, lb). */
static size_t distance_within(const char *a, size_t la, const char *b, size_t lb, size_t *left) {
  if (lb > la) {
    const char *t = a; a = b; b = t;
    size_t n = la; la = lb; lb = n;
  }
  if (lb == 0) return la;
  if (la > *left / lb) return la;
  *left -= la * lb;
  /* One row over the shorter string b; a long one on the heap. */
  size_t stack[ROW_ON_STACK + 1], *row = stack;
  if (lb > ROW_ON_STACK && !(row = strata_malloc((lb + 1) * sizeof *row))) return la;
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  size_t d = row[lb];
  if (row != stack) strata_free(row);
  return d;
}

size_t strata_edit_distance(const char *a, const char *b) {
  size_t left = DISTANCE_CELLS;
  return distance_within(a, strlen(a), b, strlen(b), &left);
}

static const char *after_dot(const char *s) {
  const char *d = strchr(s, '.');
  return d ? d + 1 : s;
}

size_t strata_nearest(const char *name, const char *const *known, size_t n, const char **near,
                      size_t *dist, size_t max) {
  size_t d8[8], *d = dist ? dist : d8, kept = 0, left = NEAREST_CELLS;
  if (max > 8) max = 8;
  if (!name) name = "";
  for (size_t i = 0; i < n; i++) {
    const char *k = known[i];
    if (!k) continue;
    const char *nd = after_dot(name), *kd = after_dot(k);
    size_t dk = distance_within(name, strlen(name), k, strlen(k), &left);
    if (nd != name || kd != k) {
      size_t ds = distance_within(nd, strlen(nd), kd, strlen(kd), &left);
      if (ds < dk) dk = ds;
    }
    /* Insertion into the sorted (distance, name) list of the kept ones. */
    size_t j = kept < max ? kept++ : max;
    while (j > 0 && (d[j - 1] > dk || (d[j - 1] == dk && strcmp(near[j - 1], k) > 0))) {
      if (j < max) near[j] = near[j - 1], d[j] = d[j - 1];
      j--;
    }
    if (j < max) near[j] = k, d[j] = dk;
  }
  return kept;
}
