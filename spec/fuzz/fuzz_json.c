/*
** fuzz_json.c - libFuzzer target: any bytes as JSON text (strata/json.h).
** What parses must write, and the text written must parse and write again
** to the same bytes (the writer's text is canonical), compact and pretty.
** The same bytes as a world's JSON form: refused with a path, or a world
** whose JSON, read again, gives a world of the same JSON.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strata/json.h"
#include "strata/world.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void again(const strata_json *v, int pretty) {
  strata_error err;
  strata_buffer a = { 0 }, b = { 0 };
  if (strata_json_write(v, pretty, &a, &err) != STRATA_OK) {
    if (err.status != STRATA_ENOMEM) abort(); /* whatever parses is writable */
    return;
  }
  strata_json w;
  if (strata_json_parse(&w, (const char *)a.data, a.len, &err) != STRATA_OK) abort();
  if (strata_json_write(&w, pretty, &b, &err) != STRATA_OK) abort();
  if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) abort();
  strata_json_free(&w);
  strata_buffer_free(&a);
  strata_buffer_free(&b);
}

static void as_world(const uint8_t *data, size_t size) {
  strata_error err;
  strata_world *w;
  strata_mod_version *mods;
  size_t n;
  if (strata_world_from_json((const char *)data, size, &w, &mods, &n, &err) != STRATA_OK) {
    if (w || mods || n || (err.status != STRATA_ENOMEM && err.message[0] != '$')) abort();
    return;
  }
  strata_buffer a = { 0 }, b = { 0 };
  strata_world *again = NULL;
  strata_mod_version *mods2 = NULL;
  size_t n2 = 0;
  if (strata_world_to_json(w, mods, n, &a, &err) == STRATA_OK) {
    if (strata_world_from_json((const char *)a.data, a.len, &again, &mods2, &n2, &err) != STRATA_OK) abort();
    if (strata_world_to_json(again, mods2, n2, &b, &err) != STRATA_OK) abort();
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) abort();
  }
  strata_buffer_free(&a);
  strata_buffer_free(&b);
  strata_world_free(again);
  strata_mod_versions_free(mods2, n2);
  strata_world_free(w);
  strata_mod_versions_free(mods, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  strata_error err;
  strata_json v;
  as_world(data, size);
  if (strata_json_parse(&v, (const char *)data, size, &err) != STRATA_OK) {
    if (v.type != STRATA_JNULL || err.message[0] != '$' && err.status != STRATA_ENOMEM) abort();
    return 0;
  }
  again(&v, 0);
  again(&v, 1);
  strata_json_free(&v);
  return 0;
}
