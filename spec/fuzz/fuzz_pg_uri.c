/*
** fuzz_pg_uri.c - libFuzzer target: any bytes as a store URI (pg_uri.h).
** The split either refuses in one line or gives a world name of the rule
** and what libpq reads, never longer than the URI; the URI as errors show
** it never keeps a password given as password=.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pg_uri.h"
#include "strata/alloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *uri = malloc(size + 1), world[STRATA_PG_WORLD_MAX];
  if (!uri) return 0;
  memcpy(uri, data, size);
  uri[size] = '\0';
  const size_t len = strlen(uri);
  char *conninfo = malloc(len + 1);
  strata_error err;
  if (conninfo && strata_pg_uri_split(uri, conninfo, len + 1, world, "fuzz", &err) == STRATA_OK) {
    if (strlen(conninfo) > len || !world[0] || strspn(world, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(world))
      abort();
  } else if (conninfo && strchr(err.message, '\n')) {
    abort();
  }
  char *shown = strata_pg_uri_shown(uri);
  if (shown) {
    for (const char *p = strstr(shown, "password="); p; p = strstr(p + 1, "password="))
      if (p > shown && (p[-1] == '?' || p[-1] == '&') && strncmp(p, "password=***", 12) != 0) abort();
    strata_free(shown);
  }
  free(conninfo);
  free(uri);
  return 0;
}
