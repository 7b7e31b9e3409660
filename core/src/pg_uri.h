/*
** pg_uri.h - a store URI ("postgresql://...?...&world=NAME") split into what
** libpq reads and the world's name, strata's own parameter, which libpq
** would refuse. The leases (lease.c) and the PostgreSQL store use it.
*/
#ifndef STRATA_PG_URI_H
#define STRATA_PG_URI_H

#include <stddef.h>

#include "strata/error.h"

/* A world's name: 1 to 48 bytes of lowercase letters, digits and '_' (its
** schema, "strata_NAME", within PostgreSQL's 63 bytes, needing no quotes). */
#define STRATA_PG_WORLD_MAX 49
#define STRATA_PG_SCHEMA_MAX (STRATA_PG_WORLD_MAX + 7)
/* The world of a URI without world=NAME. */
#define STRATA_PG_WORLD_DEFAULT "main"

/* Nonzero when s begins "postgresql://" or "postgres://" (libpq's URIs). */
int strata_pg_uri_is(const char *s);

/* Copies uri into conninfo (size bytes; strlen(uri) + 1 always suffice)
** without its parameter world=NAME, and NAME (STRATA_PG_WORLD_DEFAULT when
** absent) into world. Fails (errors in function's name) with STRATA_EARG for
** no postgresql:// URI, world= twice, or a name that is not one; STRATA_ELIMIT when conninfo is too small. */
strata_status strata_pg_uri_split(const char *uri, char *conninfo, size_t size, char world[STRATA_PG_WORLD_MAX],
                                  const char *function, strata_error *err);

/* The world's schema: "strata_" then world (a name strata_pg_uri_split gave). */
void strata_pg_schema(const char *world, char schema[STRATA_PG_SCHEMA_MAX]);

/* The URI as errors show it, a password (user:PASSWORD@, password=...)
** replaced by "***": the caller frees it (strata_free); NULL: no memory. */
char *strata_pg_uri_shown(const char *uri);

/* tmpl (a statement) with each '@' replaced by schema, into out (size
** bytes: room for the longest statement). */
void strata_pg_with_schema(const char *tmpl, const char *schema, char *out, size_t size);

/* The first line of a libpq message, its "ERROR:  " or "FATAL:  " left out
** ("no answer from the server" when empty): errors are one line. */
void strata_pg_first_line(const char *msg, char *out, size_t size);

#ifdef STRATA_HAVE_LIBPQ
/* libpq's connection to conninfo (a URI strata_pg_uri_split gave), with
** connect_timeout=10 and application_name=app (NULL: none) unless the URI
** sets them: a server out of reach is an error in seconds, never a hang.
** Check it with PQstatus (NULL: out of memory). */
struct pg_conn *strata_pg_connect(const char *conninfo, const char *app);
#endif

#endif
