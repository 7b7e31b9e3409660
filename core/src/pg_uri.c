#include "pg_uri.h"
int strata_pg_uri_is(const char *s) { (void)s; return 0; }
strata_status strata_pg_uri_split(const char *uri, char *conninfo, size_t size, char world[STRATA_PG_WORLD_MAX],
                                  const char *function, strata_error *err) {
  (void)uri; (void)conninfo; (void)size; (void)world;
  return strata_error_in(err, STRATA_ESTATE, function, "not yet");
}
void strata_pg_schema(const char *world, char schema[STRATA_PG_SCHEMA_MAX]) { (void)world; schema[0] = 0; }
