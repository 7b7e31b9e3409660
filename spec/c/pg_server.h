/*
** pg_server.h - where the C tests of PostgreSQL find their server: the
** CTest fixture pg_server starts one (scripts/pg) and writes its URI to the
** file STRATA_PG_URI_FILE; STRATA_PG_URI, when set, names another server.
*/
#ifndef STRATA_SPEC_PG_SERVER_H
#define STRATA_SPEC_PG_SERVER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The server's URI: STRATA_PG_URI, or the first line of STRATA_PG_URI_FILE;
** 0 when neither gives one. */
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

#ifdef STRATA_HAVE_LIBPQ
#include <libpq-fe.h>

/* A test's start: the world's URI (world=NAME on the server's) into uri and
** an administrator's connection to the server into *admin. 0 ready, 77 no
** server (the test is skipped), 1 no connection (said on stderr). */
static inline int pg_test_start(const char *world, char *uri, size_t size, PGconn **admin) {
  char server[512];
  *admin = NULL;
  if (!server_uri(server, sizeof server)) {
    puts("skipped: no server (no STRATA_PG_URI, no URI file: PostgreSQL not installed?)");
    return 77;
  }
  snprintf(uri, size, "%s%sworld=%s", server, strchr(server, '?') ? "&" : "?", world);
  *admin = PQconnectdb(server);
  if (PQstatus(*admin) == CONNECTION_OK) return 0;
  fprintf(stderr, "%s: %s", server, PQerrorMessage(*admin));
  PQfinish(*admin);
  *admin = NULL;
  return 1;
}

/* Runs text on c, a command or a query; true when it succeeded (else the
** server's message on stderr). */
static inline int pg_sql(PGconn *c, const char *text) {
  PGresult *r = PQexec(c, text);
  int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
  if (!ok) fprintf(stderr, "%s: %s", text, PQerrorMessage(c));
  PQclear(r);
  return ok;
}
#endif

#endif
