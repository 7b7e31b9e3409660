/*
** fuzz_value.c - libFuzzer target: any bytes as an encoded value (the format
** of every property table in a save). Decoding checks every length and the
** nesting depth; what decodes must encode back to the same bytes.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strata/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  strata_error err;
  strata_value v;
  if (strata_value_decode(&v, data, size, &err) != STRATA_OK) return 0;
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
