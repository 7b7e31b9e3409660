/*
** fuzz_worldgen_conf.c - libFuzzer target: any bytes as a configuration file
** of the world generator. A refusal names its line and leaves the options as
** they were; what is accepted is within the options' bounds, reads the same
** twice, and (when small) generates.
*/
#include <stdint.h>
#include <stdlib.h>

#include "strata/worldgen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Field by field (a struct's padding is not compared). */
static int same(const strata_worldgen_options *a, const strata_worldgen_options *b) {
  return a->dim_x == b->dim_x && a->dim_y == b->dim_y && a->dim_z == b->dim_z && a->rand == b->rand
         && a->seed == b->seed && a->room_variance == b->room_variance && a->path_alg == b->path_alg
         && a->post_check == b->post_check && a->max_attempts == b->max_attempts && a->leg_steps == b->leg_steps;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  strata_error err;
  strata_worldgen_options o, before, again;
  strata_worldgen_options_init(&o);
  before = o;
  if (strata_worldgen_conf_parse((const char *)data, size, "fuzz", &o, &err) != STRATA_OK) {
    if (err.status != STRATA_EPARSE || err.line < 1) abort(); /* a refusal names its line */
    if (!same(&o, &before)) abort();          /* and changes nothing */
    return 0;
  }
  strata_worldgen_options_init(&again);
  if (strata_worldgen_conf_parse((const char *)data, size, "fuzz", &again, &err) != STRATA_OK) abort();
  if (!same(&o, &again)) abort();
  if (o.room_variance < 3 || o.dim_x < 1 || o.dim_y < 1 || o.dim_z < 1) abort();
  if (o.dim_x > STRATA_WORLDGEN_SIDE_MAX || o.dim_y > STRATA_WORLDGEN_SIDE_MAX || o.dim_z > STRATA_WORLDGEN_SIDE_MAX)
    abort();
  strata_worldgen_resolve(&o);
  if (o.rand || o.dim_x < 1 || o.dim_y < 1 || o.dim_z < 1) abort();
  if ((int64_t)o.dim_x * o.dim_y * o.dim_z <= 4096) {
    o.max_attempts = 3;
    strata_worldgen *t = NULL;
    strata_status st = strata_worldgen_generate(&o, &t, &err);
    if (st != STRATA_OK && st != STRATA_ELIMIT) abort(); /* only an impassable floor may fail */
    strata_worldgen_free(t);
  }
  return 0;
}
