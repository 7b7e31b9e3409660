/* consumer.c - a C game using an installed libstrata, as the install test builds it. */
#include <stdio.h>
#include <strata/strata.h>

int main(void) {
  strata_error err;
  strata_tilemap *m = strata_tilemap_new(8, 3, NULL, &err);
  if (m == NULL) return 1;
  strata_token floor = strata_tokens_intern(strata_tilemap_tokens(m), "floor", 5, &err);
  strata_tilemap_clear(m, floor, &err);
  strata_path p;
  strata_path_init(&p);
  if (strata_tilemap_find_path(m, 0, 0, 7, 2, NULL, &p, &err) != STRATA_OK) return 1;
  printf("path of %zu cells, cost %g\n", p.len, p.cost);
  strata_path_free(&p);
  strata_tilemap_free(m);
  return 0;
}
