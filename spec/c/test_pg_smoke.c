/*
** test_pg_smoke.c - libpq reaches the throw-away server of scripts/pg (the
** CTest fixture pg_server starts it and writes its URI to the file
** STRATA_PG_URI_FILE; STRATA_PG_URI, when set, names another server) and a
** transaction behaves: a rolled-back insert is gone, a committed one stays.
** Exit 77 (skipped) when the build has no libpq or no server was started
** (scripts/pg skips without PostgreSQL installed: no URI file).
*/
#include <stdio.h>
#include <stdlib.h>

#ifndef STRATA_HAVE_LIBPQ
int main(void) {
  puts("skipped: built without libpq (Debian: libpq-dev; STRATA_WITH_POSTGRES)");
  return 77;
}
#else
#include <libpq-fe.h>

#include "check.h"
#include "pg_server.h"

/* Runs sql; true when its status is the one expected (the error printed otherwise). */
static int run(PGconn *c, const char *sql, ExecStatusType want) {
  PGresult *r = PQexec(c, sql);
  int ok = PQresultStatus(r) == want;
  if (!ok) fprintf(stderr, "%s: %s", sql, PQerrorMessage(c));
  PQclear(r);
  return ok;
}

/* SELECT count(*) of the table, -1 on an error. */
static long count_rows(PGconn *c) {
  PGresult *r = PQexec(c, "SELECT count(*) FROM smoke");
  long n = PQresultStatus(r) == PGRES_TUPLES_OK ? atol(PQgetvalue(r, 0, 0)) : -1;
  PQclear(r);
  return n;
}

int main(void) {
  char uri[512];
  if (!server_uri(uri, sizeof uri)) {
    puts("skipped: no server (no STRATA_PG_URI, no URI file: PostgreSQL not installed?)");
    return 77;
  }
  PGconn *c = PQconnectdb(uri);
  if (PQstatus(c) != CONNECTION_OK) {
    fprintf(stderr, "%s: %s", uri, PQerrorMessage(c));
    PQfinish(c);
    return 1;
  }
  CHECK(run(c, "DROP TABLE IF EXISTS smoke", PGRES_COMMAND_OK));
  CHECK(run(c, "CREATE TABLE smoke (id bigint PRIMARY KEY, name text NOT NULL)", PGRES_COMMAND_OK));

  CHECK(run(c, "BEGIN", PGRES_COMMAND_OK));
  CHECK(run(c, "INSERT INTO smoke VALUES (1, 'gone')", PGRES_COMMAND_OK));
  CHECK_EQ_INT(count_rows(c), 1);
  CHECK(run(c, "ROLLBACK", PGRES_COMMAND_OK));
  CHECK_EQ_INT(count_rows(c), 0);

  CHECK(run(c, "BEGIN", PGRES_COMMAND_OK));
  CHECK(run(c, "INSERT INTO smoke VALUES (2, 'kept')", PGRES_COMMAND_OK));
  CHECK(run(c, "COMMIT", PGRES_COMMAND_OK));
  PGresult *r = PQexec(c, "SELECT id, name FROM smoke");
  CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1);
  if (PQntuples(r) == 1) {
    CHECK_EQ_INT(atol(PQgetvalue(r, 0, 0)), 2);
    CHECK(strcmp(PQgetvalue(r, 0, 1), "kept") == 0);
  }
  PQclear(r);

  /* A failing statement aborts the transaction: nothing of it is committed. */
  CHECK(run(c, "BEGIN", PGRES_COMMAND_OK));
  CHECK(run(c, "INSERT INTO smoke VALUES (3, 'half')", PGRES_COMMAND_OK));
  CHECK(run(c, "INSERT INTO smoke VALUES (2, 'twice')", PGRES_FATAL_ERROR));
  CHECK(run(c, "COMMIT", PGRES_COMMAND_OK)); /* answered as a ROLLBACK */
  CHECK_EQ_INT(count_rows(c), 1);

  CHECK(run(c, "DROP TABLE smoke", PGRES_COMMAND_OK));
  PQfinish(c);
  return check_summary("pg_smoke");
}
#endif
