/*
** fuzz_layout.c - libFuzzer target: any bytes as a layout file, and what
** parses run once on a small map. Parsing must end in a file or an error
** (never a crash, a hang or a leak), and so must running.
*/
#include <stddef.h>
#include <stdint.h>

#include "strata/layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  strata_error err;
  strata_layout_file *f = strata_layout_file_parse((const char *)data, size, "fuzz", &err);
  if (f == NULL) return 0;
  strata_tilemap *m = strata_tilemap_new(12, 9, NULL, &err);
  for (size_t i = 0; m && i < strata_layout_count(f) && i < 4; i++) {
    strata_rng rng;
    strata_rng_seed(&rng, i);
    strata_layout_result res;
    char why[64];
    strata_layout_run(strata_layout_at(f, i), m, &rng, &res, why, sizeof why, &err);
  }
  strata_tilemap_free(m);
  strata_layout_file_free(f);
  return 0;
}
