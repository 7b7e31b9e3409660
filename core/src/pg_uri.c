/*
** pg_uri.c - a store URI split into libpq's part and strata's world=NAME
** (pg_uri.h). The split is textual: the parameter is cut out of the query
** as written, so whatever else the URI says reaches libpq unchanged.
*/
#include "pg_uri.h"
#include "strata/alloc.h"

#include <stdio.h>
#include <string.h>

int strata_pg_uri_is(const char *s) {
  return s != NULL && (strncmp(s, "postgresql://", 13) == 0 || strncmp(s, "postgres://", 11) == 0);
}

/* Whether [p, p + n) is a world's name (pg_uri.h). */
static int world_name(const char *p, size_t n) {
  if (n == 0 || n >= STRATA_PG_WORLD_MAX) return 0;
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return 0;
  }
  return 1;
}

strata_status strata_pg_uri_split(const char *uri, char *conninfo, size_t size, char world[STRATA_PG_WORLD_MAX],
                                  const char *function, strata_error *err) {
  if (!strata_pg_uri_is(uri)) return strata_error_in(err, STRATA_EARG, function, "not a postgresql:// URI");
  size_t len = strlen(uri);
  if (size <= len) return strata_error_in(err, STRATA_ELIMIT, function, "the URI is too long (%zu bytes)", len);
  const char *query = strchr(uri, '?');
  size_t out = query != NULL ? (size_t)(query - uri) : len;
  memcpy(conninfo, uri, out);
  int found = 0;
  /* each parameter of the query but world=NAME, joined again by '?' then '&' */
  for (const char *p = query; p != NULL && *p != '\0';) {
    const char *start = p + 1, *end = start + strcspn(start, "&#");
    size_t n = (size_t)(end - start);
    if (n >= 6 && strncmp(start, "world=", 6) == 0) {
      if (found) return strata_error_in(err, STRATA_EARG, function, "world= twice in the URI");
      if (!world_name(start + 6, n - 6)) {
        /* the name as given, up to 60 bytes, each byte outside printable ASCII a '?': one line */
        char got[61];
        size_t k = n - 6 > 60 ? 60 : n - 6;
        for (size_t i = 0; i < k; i++) got[i] = start[6 + i] >= ' ' && start[6 + i] < 127 ? start[6 + i] : '?';
        got[k] = '\0';
        return strata_error_in(err, STRATA_EARG, function,
                               "the world name must be 1 to %d lowercase letters, digits and '_', got '%s'",
                               STRATA_PG_WORLD_MAX - 1, got);
      }
      memcpy(world, start + 6, n - 6);
      world[n - 6] = '\0';
      found = 1;
    } else if (n > 0) {
      char sep = memchr(conninfo, '?', out) != NULL ? '&' : '?';
      conninfo[out++] = sep;
      memcpy(conninfo + out, start, n);
      out += n;
    }
    p = *end == '&' ? end : NULL;
  }
  conninfo[out] = '\0';
  if (!found) memcpy(world, STRATA_PG_WORLD_DEFAULT, sizeof STRATA_PG_WORLD_DEFAULT);
  return STRATA_OK;
}

void strata_pg_schema(const char *world, char schema[STRATA_PG_SCHEMA_MAX]) {
  size_t n = strnlen(world, STRATA_PG_WORLD_MAX - 1);
  memcpy(schema, "strata_", 7);
  memcpy(schema + 7, world, n);
  schema[7 + n] = '\0';
}

char *strata_pg_uri_shown(const char *uri) {
  size_t n = strlen(uri);
  /* each "***" may stand for less: 3 bytes more for the user's password,
  ** 3 more a "password=" (9 bytes at least) */
  char *out = strata_malloc(n + n / 3 + 8), *o = out;
  if (!out) return NULL;
  const char *scheme = strata_pg_uri_is(uri) ? strstr(uri, "://") : NULL;
  const char *at = scheme ? strpbrk(scheme + 3, "@/?") : NULL;
  /* user:PASSWORD@: the bytes between the colon and the '@' */
  const char *colon = at && *at == '@' ? memchr(scheme + 3, ':', (size_t)(at - scheme - 3)) : NULL;
  for (const char *p = uri; *p;) {
    if (colon && p > colon && p < at) {
      memcpy(o, "***", 3);
      o += 3;
      p = at;
      colon = NULL;
    } else if (p > uri && (p[-1] == '?' || p[-1] == '&') && !strncmp(p, "password=", 9)) {
      memcpy(o, "password=***", 12);
      o += 12;
      p += strcspn(p, "&");
    } else {
      *o++ = *p++;
    }
  }
  *o = '\0';
  return out;
}

/* tmpl with each '@' replaced by schema, into out (room for the longest). */
void strata_pg_with_schema(const char *tmpl, const char *schema, char *out, size_t size) {
  size_t n = 0, k = strlen(schema);
  for (const char *p = tmpl; *p != '\0' && n + k + 1 < size; p++) {
    if (*p == '@') {
      memcpy(out + n, schema, k);
      n += k;
    } else {
      out[n++] = *p;
    }
  }
  out[n] = '\0';
}

/* The first line of libpq's message, its "ERROR:  " or "FATAL:  " left out. */
void strata_pg_first_line(const char *msg, char *out, size_t size) {
  const char *colon = strstr(msg, ":  ");
  if (colon != NULL && colon - msg < 10) msg = colon + 3;
  snprintf(out, size, "%.*s", (int)strcspn(msg, "\n"), msg);
  if (*out == '\0') snprintf(out, size, "no answer from the server");
}

#ifdef STRATA_HAVE_LIBPQ
#include <libpq-fe.h>

struct pg_conn *strata_pg_connect(const char *conninfo, const char *app) {
  /* these first, so that the URI's own (dbname, expanded) win */
  const char *const keys[] = { "application_name", "connect_timeout", "dbname", NULL };
  const char *const values[] = { app, "10", conninfo, NULL };
  return PQconnectdbParams(keys, values, 1);
}
#endif
