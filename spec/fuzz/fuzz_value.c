/*
** fuzz_value.c - libFuzzer target: any bytes as an encoded value (the format
** of every property table in a save). Decoding checks every length and the
** nesting depth; what decodes must encode back to the same bytes. What
** value_check_small accepts (an object's properties kept encoded at open,
** world_props.c) must decode: only memory may fail that later decoding.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strata/value.h"
#include "value_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  strata_error err;
  strata_value v;
  int small = value_check_small(data, size);
  if (strata_value_decode(&v, data, size, &err) != STRATA_OK) {
    if (small && err.status != STRATA_ENOMEM) abort();
    return 0;
  }
  if (small && v.type != STRATA_VTABLE) abort();
  strata_buffer b = {0};
  if (strata_value_encode(&v, &b, &err) == STRATA_OK) {
    strata_value again;
    if (strata_value_decode(&again, b.data, b.len, &err) != STRATA_OK) abort();
    if (!strata_value_equal(&v, &again)) abort();
    strata_value_clear(&again);
  }
  strata_buffer_free(&b);
  strata_value_clear(&v);
  return 0;
}
