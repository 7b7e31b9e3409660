/*
** fuzz_worldgen.c - libFuzzer target: any bytes as a world template file.
** Reading refuses what is damaged (with a line) and allocates no more than
** the text can fill; what it accepts writes back to text that reads again
** into the same bytes, and draws.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strata/alloc.h"
#include "strata/worldgen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  strata_error err;
  strata_worldgen *t = NULL;
  if (strata_worldgen_parse((const char *)data, size, "fuzz", &t, &err) != STRATA_OK) {
    if (err.status == STRATA_EPARSE && err.line < 1) abort(); /* a refusal names its line */
    return 0;
  }
  char *text = NULL, *again = NULL, *drawn = NULL;
  size_t len, len2;
  if (strata_worldgen_format(t, &text, &len, &err) != STRATA_OK) abort();
  strata_worldgen *u = NULL;
  if (strata_worldgen_parse(text, len, "fuzz", &u, &err) != STRATA_OK) abort();
  if (strata_worldgen_format(u, &again, &len2, &err) != STRATA_OK) abort();
  if (len != len2 || memcmp(text, again, len) != 0) abort();
  if (strata_worldgen_render(u, 1, &drawn, NULL, &err) != STRATA_OK) abort();
  for (int z = 1; z <= u->dim_z && z <= 2; z++) {
    int passable;
    if (strata_worldgen_passable(u, z, STRATA_PATH_BFS, &passable, &err) != STRATA_OK) abort();
  }
  strata_free(text), strata_free(again), strata_free(drawn);
  strata_worldgen_free(u);
  strata_worldgen_free(t);
  return 0;
}
