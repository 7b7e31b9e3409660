/*
** pg_server.h - the PostgreSQL server a test runs against: the CTest
** fixture pg_server writes its URI to the file STRATA_PG_URI_FILE
** (scripts/pg); STRATA_PG_URI, when set, names another server.
*/
#ifndef STRATA_PG_SERVER_H
#define STRATA_PG_SERVER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The server's URI into out: STRATA_PG_URI, or the first line of
** STRATA_PG_URI_FILE; 0 when there is none. */
static int server_uri(char *out, size_t size) {
  const char *uri = getenv("STRATA_PG_URI");
  if (uri != NULL && *uri != '\0') return snprintf(out, size, "%s", uri) < (int)size;
  const char *path = getenv("STRATA_PG_URI_FILE");
  FILE *f = path != NULL ? fopen(path, "r") : NULL;
  if (f == NULL) return 0;
  int ok = fgets(out, (int)size, f) != NULL;
  fclose(f);
  out[strcspn(out, "\n")] = '\0';
  return ok && *out != '\0';
}

#endif
