/*
** test_pg_uri.c - a store URI split (core/src/pg_uri.h): strata's own
** parameter world=NAME taken out of what libpq reads, the rest kept as it was
** written; a URI without a world, with two, or with a name that is no schema's
** refused with one line. No server needed.
*/
#include <string.h>

#include "check.h"
#include "pg_uri.h"
#include "strata/alloc.h"

static void splits(const char *uri, const char *conninfo, const char *world) {
  char c[256], w[STRATA_PG_WORLD_MAX];
  strata_error err;
  CHECK_EQ_INT(strata_pg_uri_split(uri, c, sizeof c, w, "test", &err), STRATA_OK);
  CHECK(strcmp(c, conninfo) == 0);
  CHECK(strcmp(w, world) == 0);
  if (strcmp(c, conninfo) != 0 || strcmp(w, world) != 0) fprintf(stderr, "%s -> %s, %s\n", uri, c, w);
}

static void refuses(const char *uri, const char *words) {
  char c[256], w[STRATA_PG_WORLD_MAX];
  strata_error err;
  CHECK_EQ_INT(strata_pg_uri_split(uri, c, sizeof c, w, "test", &err), STRATA_EARG);
  CHECK(strstr(err.message, words) != NULL);
  CHECK(strchr(err.message, '\n') == NULL);
  CHECK(err.function != NULL && strcmp(err.function, "test") == 0);
  if (strstr(err.message, words) == NULL) fprintf(stderr, "%s: %s\n", uri, err.message);
}

int main(void) {
  splits("postgresql:///strata?host=/tmp/pg&user=strata&world=w1", "postgresql:///strata?host=/tmp/pg&user=strata", "w1");
  splits("postgresql:///strata?world=town_2&host=/tmp/pg", "postgresql:///strata?host=/tmp/pg", "town_2");
  splits("postgres://u@db:5432/strata?world=w", "postgres://u@db:5432/strata", "w");
  splits("postgresql:///s?a=1&world=w&b=2", "postgresql:///s?a=1&b=2", "w");
  /* a parameter whose name only ends in world is libpq's */
  splits("postgresql:///s?oldworld=x&world=w", "postgresql:///s?oldworld=x", "w");
  CHECK(strata_pg_uri_is("postgresql:///x"));
  CHECK(strata_pg_uri_is("postgres://h/x"));
  CHECK(!strata_pg_uri_is("world.db"));
  CHECK(!strata_pg_uri_is("postgresql:"));

  refuses("world.db", "not a postgresql:// URI");
  /* no world=NAME: the world main */
  splits("postgresql:///strata?host=/tmp/pg", "postgresql:///strata?host=/tmp/pg", "main");
  splits("postgresql:///strata", "postgresql:///strata", "main");
  refuses("postgresql:///s?world=a&world=b", "world= twice");
  refuses("postgresql:///s?world=", "world name");
  refuses("postgresql:///s?world=Town", "world name");
  refuses("postgresql:///s?world=a-b", "world name");
  refuses("postgresql:///s?world=a%20b", "world name");
  refuses("postgresql:///s?world=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "world name");
  char small[8], w[STRATA_PG_WORLD_MAX];
  strata_error err;
  CHECK_EQ_INT(strata_pg_uri_split("postgresql:///strata?world=w", small, sizeof small, w, "test", &err), STRATA_ELIMIT);
  /* a name's bytes shown on one line; passwords hidden however many */
  refuses("postgresql:///s?world=a\n9", "got 'a?9'");
  char *shown = strata_pg_uri_shown("postgres://u:pw@h/s?password=x&password=y&password=z&user=&password=q");
  CHECK(shown != NULL && strcmp(shown, "postgres://u:***@h/s?password=***&password=***&password=***&user=&password=***") == 0);
  strata_free(shown);
  shown = strata_pg_uri_shown("postgres://h&password=a:secret@x/s");
  CHECK(shown != NULL && strstr(shown, "secret") == NULL);
  strata_free(shown);
  char schema[STRATA_PG_SCHEMA_MAX];
  strata_pg_schema("town_2", schema);
  CHECK(strcmp(schema, "strata_town_2") == 0);
  return check_summary("pg_uri");
}
