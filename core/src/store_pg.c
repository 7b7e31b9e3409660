/*
** store_pg.c - the PostgreSQL store (store.h): a world's rows in a schema
** of a PostgreSQL database, through libpq (compiled with STRATA_HAVE_LIBPQ;
** without it a URI is refused saying so).
**
** A world is named by libpq's URI plus strata's own query parameter
** world=NAME (pg_uri.h: lowercase letters, digits, '_'; default main), which is taken out before
** libpq sees the URI; its tables live in the schema strata_NAME, so several
** worlds share a database. Every value crosses in binary (no quoting, no
** text conversion): integers as int8, reals as float8, text and blobs as
** bytea (strata's strings are bytes, which a text column of a UTF-8
** database would refuse), meta's value (any type, as in SQLite) as a bytea
** led by its type's code. Reads stream each table by binary COPY (the server
** sends while strata decodes; every length checked against the bytes at
** hand), a map's chunks by one query; a save is
** one transaction, which PostgreSQL commits whole or not at all.
*/
#include "store.h"
#include "pg_copy.h"
#include "pg_uri.h"
#include "strata/alloc.h"
#include "strata/value.h" /* strata_buffer */
#include "uidset.h"
#include "util.h"         /* STRATA_GROW */

#include <string.h>

#ifndef STRATA_HAVE_LIBPQ
store *store_pg_open(const char *uri, const char *what, strata_error *err) {
  strata_error_set(err, STRATA_EARG, "%s '%s': strata was built without PostgreSQL (no libpq: "
                   "STRATA_WITH_POSTGRES)", what, uri);
  return NULL;
}

void store_pg_free(store *s) { (void)s; }
int store_pg_idle(store *s) { (void)s; return 0; }
#else
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>

/* Rows a cursor fetches at a time. */
#ifndef PG_BATCH
#define PG_BATCH 2048
#endif
/* Tiles rows a map's chunks are read with at least (a window of the rows
** from its first chunk on): the maps after it find theirs there, where a
** query a map waited a round trip each (1,000 maps: a fifth of an open). */
#ifndef PG_WINDOW
#define PG_WINDOW 256
#endif
/* A whole save's rows of a table go by COPY, this many bytes at a time. */
#define PG_COPY_BYTES (4u << 20)
#define PG_MAX_PARAMS 9

struct store_scan {
  struct pg_store *s;
  int t;
  PGresult *res;   /* the batch (or a range's rows) */
  int row, nrows;
  int cursor;      /* fetched by batches from cursor c<t> */
  int done;        /* the cursor gave its last batch; the COPY its trailer */
  /* A ranged scan (a map's chunks): res holds every row with a key in
  ** [wlo, whi), read from row up to the range's end hi. */
  int64_t wlo, whi, hi;
  /* A table streamed by COPY ... TO STDOUT (FORMAT binary): the server
  ** sends while strata decodes, where a cursor waited a round trip a batch. */
  int copy;        /* 1 streaming, 2 its header read */
  char *chunk;     /* libpq's last message (PQfreemem) */
  unsigned char *buf; /* what is decoded: chunk, or pend when a tuple spans messages */
  size_t at, len;
  strata_buffer pend;
};

typedef struct pg_store {
  store base;
  PGconn *c;
  char *shown;               /* the URI as errors name it (no password) */
  char schema[64];           /* "strata_NAME", quoted */
  char error[256];           /* the last failure, one line */
  int transient;             /* ... the server's or the connection's (p_transient) */
  int writing;               /* in a save's transaction: meta's rows are locked as read */
  unsigned prepared[STORE_NTABLES]; /* statements prepared, a bit each */
  PGresult *got;             /* the last get's row (its values live until the next) */
  store_scan scans[STORE_NTABLES][2];
  /* a row's parameters as they go */
  unsigned char words[PG_MAX_PARAMS][9];
  char *vbuf;                /* meta's value with its type's code */
  size_t vcap;
  int copying;               /* a whole save: rows go by COPY (p_clear) */
  int piped;                 /* in libpq's pipeline mode: meta's writes sent, outcome not read */
  size_t nsent;              /* how many */
  /* An incremental save's writes of each other table, gathered and sent at
  ** the next flush as one DELETE and one COPY: a statement a row (four a
  ** changed uid) was most of its time. */
  struct batch {
    int all;                 /* every row to delete */
    int64_t *keys;           /* the rows to delete by key */
    size_t nkeys, keycap;
    uidset put;              /* the keys of the rows put since (in copy[t]), plus 1 */
  } batch[STORE_NTABLES];
  void (*gone)(void *, int, int64_t); /* what a deleted row's checksum is handed to */
  void *ud;
  strata_buffer copy[STORE_NTABLES]; /* each table's rows not sent yet, COPY's binary tuples */
} pg_store;

enum { Q_INS, Q_DEL, Q_GET, Q_LOCK, Q_LAST, NQ };

/* Whether a failure is the server's or the connection's, by its SQLSTATE:
** the connection (class 08, or libpq's own loss: no SQLSTATE), a
** transaction to retry (40: serialization, deadlock), the server's
** resources (53), a lock not available (55P03), an operator's or a
** timeout's cancel or shutdown (57: 57014, 57P01-57P05). The rest (data
** 22, the tables' shape 42, ...) is what the world's tables hold. */
static int transient_failure(PGconn *c, const PGresult *r) {
  if (PQstatus(c) == CONNECTION_BAD) return 1;
  const char *code = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
  if (!code) return 0;
  return !strncmp(code, "08", 2) || !strncmp(code, "40", 2) || !strncmp(code, "53", 2) ||
         !strcmp(code, "55P03") || !strncmp(code, "57", 2);
}

/* The failure of the last call: the server's first line (its severity
** left out), into s->error, and its kind; returns 1 (a store code: save.c
** hands it back to s_fail). */
static int failed(pg_store *s, const PGresult *r) {
  const char *m = r ? PQresultErrorMessage(r) : NULL;
  if (!m || !*m) m = PQerrorMessage(s->c);
  if (!m || !*m) m = "unknown error";
  strata_pg_first_line(m, s->error, sizeof s->error);
  s->transient = transient_failure(s->c, r);
  return 1;
}

/* Runs sql (no parameters, a command): 0 or a failure. */
static int run(pg_store *s, const char *sql) {
  PGresult *r = PQexec(s->c, sql);
  int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
  int rc = ok ? 0 : failed(s, r);
  PQclear(r);
  return rc;
}

static const char *pg_type(char c) {
  switch (c | 0x20) {
  case 'i': return "bigint";
  case 'r': return "double precision";
  default: return "bytea";
  }
}

/* Table t's column c (0-based) name into out. */
static void col_name(int t, int c, char *out, size_t size) {
  const char *p = store_tables[t].cols;
  for (int i = 0; i < c; i++) p = strchr(p, ',') + 2;
  size_t n = strcspn(p, ",");
  snprintf(out, size, "%.*s", (int)n, p);
}

/* How many of the world's tables its schema holds (read from the catalog:
** no lock on them), or -1 failed. */
static long tables_there(pg_store *s) {
  char name[STRATA_PG_SCHEMA_MAX];
  store_pg_schema(&s->base, name);
  const char *pv[1] = { name };
  PGresult *r = PQexecParams(s->c, "SELECT count(*) FROM pg_tables WHERE schemaname = $1 AND tablename IN ('meta',"
                             " 'mods', 'objects', 'timers', 'subscriptions', 'rng', 'maps', 'tiles')",
                             1, NULL, pv, NULL, NULL, 0);
  long n = PQresultStatus(r) == PGRES_TUPLES_OK ? atol(PQgetvalue(r, 0, 0)) : (failed(s, r), -1);
  PQclear(r);
  return n;
}

/* Makes the schema and the tables where absent. The chunks' cells are
** stored uncompressed: an open charges a map's cells against the bytes
** the world takes, a byte a cell at least. */
static int create(pg_store *s) {
  char sql[1024];
  snprintf(sql, sizeof sql, "CREATE SCHEMA IF NOT EXISTS %s", s->schema);
  int rc = run(s, sql);
  for (int t = 0; t < STORE_NTABLES && !rc; t++) {
    const store_table *tb = &store_tables[t];
    int n = snprintf(sql, sizeof sql, "CREATE TABLE IF NOT EXISTS %s.%s (", s->schema, tb->name);
    for (int c = 0; c < tb->ncols; c++) {
      char name[32];
      col_name(t, c, name, sizeof name);
      n += snprintf(sql + n, sizeof sql - (size_t)n, "%s%s %s%s%s", c ? ", " : "", name, pg_type(tb->types[c]),
                    tb->types[c] >= 'a' ? " NOT NULL" : "", c == 0 ? " PRIMARY KEY" : "");
    }
    snprintf(sql + n, sizeof sql - (size_t)n, ")");
    rc = run(s, sql);
  }
  if (!rc) {
    snprintf(sql, sizeof sql, "ALTER TABLE %s.tiles ALTER COLUMN cells SET STORAGE EXTERNAL,"
             " ALTER COLUMN tokens SET STORAGE EXTERNAL", s->schema);
    rc = run(s, sql);
  }
  return rc;
}

/* The whole tables (deleted by no key): mods and rng. */
static int whole(int t) { return t == T_MODS || t == T_RNG; }

/* Statement q of table t, prepared on this connection if not yet: its name. */
static int prepare(pg_store *s, int t, int q, char name[16]) {
  snprintf(name, 16, "s%d_%d", t, q);
  if (s->prepared[t] & 1u << q) return 0;
  const store_table *tb = &store_tables[t];
  char sql[1024];
  int n;
  switch (q) {
  case Q_INS:
    n = snprintf(sql, sizeof sql, "INSERT INTO %s.%s (%s) VALUES (", s->schema, tb->name, tb->cols);
    for (int c = 0; c < tb->ncols; c++) n += snprintf(sql + n, sizeof sql - (size_t)n, "%s$%d", c ? ", " : "", c + 1);
    snprintf(sql + n, sizeof sql - (size_t)n, ")%s",
             t == T_META ? " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, sum = EXCLUDED.sum" : "");
    break;
  case Q_DEL:
    snprintf(sql, sizeof sql, "DELETE FROM %s.%s%s%s%s%s%s RETURNING sum", s->schema, tb->name,
             whole(t) ? "" : " WHERE ", whole(t) ? "" : tb->key, whole(t) ? "" : " >= $1 AND ",
             whole(t) ? "" : tb->key, whole(t) ? "" : " < $2");
    break;
  case Q_GET:
  case Q_LOCK:
    snprintf(sql, sizeof sql, "SELECT %s FROM %s.%s WHERE %s = $1%s", tb->cols, s->schema, tb->name, tb->key,
             q == Q_LOCK ? " FOR UPDATE" : "");
    break;
  default:
    snprintf(sql, sizeof sql, "SELECT coalesce(max(%s), 0) FROM %s.%s", tb->key, s->schema, tb->name);
  }
  PGresult *r = PQprepare(s->c, name, sql, 0, NULL);
  int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : failed(s, r);
  PQclear(r);
  if (!rc) s->prepared[t] |= 1u << q;
  return rc;
}

static void be64(uint64_t v, unsigned char *p) {
  for (int i = 7; i >= 0; i--, v >>= 8) p[i] = (unsigned char)v;
}


/* Value v as parameter c of a statement (binary), in the store's buffers;
** 0, or STORE_NOMEM. typ: the column's type letter. */
static int param(pg_store *s, int c, char typ, const store_val *v, const char **val, int *len) {
  unsigned char *w = s->words[c];
  uint64_t bits;
  switch (v->type) {
  case SV_NULL: *val = NULL; *len = 0; return 0;
  case SV_INT: bits = (uint64_t)v->i; break;
  case SV_REAL: memcpy(&bits, &v->r, 8); break;
  default: bits = 0;
  }
  if ((typ | 0x20) != 'v') {
    if (v->type == SV_TEXT || v->type == SV_BLOB) {
      *val = v->n ? v->p : "";
      *len = (int)v->n;
    } else {
      be64(bits, w);
      *val = (const char *)w;
      *len = 8;
    }
    return 0;
  }
  /* meta's value: its type's code, then its bytes */
  size_t n = v->type == SV_TEXT || v->type == SV_BLOB ? v->n : 8;
  if (n + 1 > s->vcap) {
    char *b = strata_realloc(s->vbuf, n + 1);
    if (!b) return STORE_NOMEM;
    s->vbuf = b;
    s->vcap = n + 1;
  }
  s->vbuf[0] = (char)v->type;
  if (v->type == SV_TEXT || v->type == SV_BLOB) memcpy(s->vbuf + 1, v->p, n);
  else be64(bits, (unsigned char *)s->vbuf + 1);
  *val = s->vbuf;
  *len = (int)n + 1;
  return 0;
}

/* Column c of row i of r, of type letter typ, as a value. */
static void value_of(const PGresult *r, int i, int c, char typ, store_val *o) {
  const unsigned char *p = PQgetisnull(r, i, c) ? NULL : (const unsigned char *)PQgetvalue(r, i, c);
  pg_value_from(p, p ? (size_t)PQgetlength(r, i, c) : 0, typ, o);
}

static void row_of(const PGresult *r, int i, int t, store_val *row) {
  for (int c = 0; c < store_tables[t].ncols; c++) value_of(r, i, c, store_tables[t].types[c], &row[c]);
}

/* A statement's parameters (binary): its n values, of table t's columns
** for an insert, of its key for the rest. */
typedef struct params {
  const char *v[PG_MAX_PARAMS];
  int len[PG_MAX_PARAMS], fmt[PG_MAX_PARAMS];
} params;

static int set_params(pg_store *s, int t, int q, const store_val *vals, int n, params *p) {
  int rc = 0;
  for (int c = 0; c < n && !rc; c++) {
    p->fmt[c] = 1;
    rc = param(s, c, q == Q_INS ? store_tables[t].types[c] : store_tables[t].types[0] == 't' ? 't' : 'i', &vals[c],
               &p->v[c], &p->len[c]);
  }
  return rc;
}

static int drain(pg_store *s);

/* Runs prepared statement q of table t with the n values; *out the result
** (binary), whose status is want. */
static int exec(pg_store *s, int t, int q, const store_val *vals, int n, ExecStatusType want, PGresult **out) {
  char name[16];
  params p;
  int rc = drain(s);
  if (!rc) rc = prepare(s, t, q, name);
  if (!rc) rc = set_params(s, t, q, vals, n, &p);
  if (rc) return rc;
  PGresult *r = PQexecPrepared(s->c, name, n, p.v, p.len, p.fmt, 1);
  if (PQresultStatus(r) != want) {
    rc = failed(s, r);
    PQclear(r);
    return rc;
  }
  if (out) *out = r;
  else PQclear(r);
  return 0;
}

/* meta's writes (upserts: a save writes its generation rows twice) are
** sent ahead in libpq's pipeline mode and their outcomes read at the next
** drain (PG_AHEAD at most: the server's answers must not fill the socket
** while strata is still writing). */
#ifndef PG_AHEAD
#define PG_AHEAD 256 /* (a build may choose another, to measure) */
#endif

static int send(pg_store *s, int t, int q, const store_val *vals, int n) {
  char name[16];
  params p;
  int rc = 0;
  if (!(s->prepared[t] & 1u << q)) rc = drain(s); /* (prepared outside the pipeline) */
  if (!rc) rc = prepare(s, t, q, name);
  if (!rc) rc = set_params(s, t, q, vals, n, &p);
  if (rc) return rc;
  if (!s->piped) {
    if (PQenterPipelineMode(s->c) != 1) return failed(s, NULL);
    s->piped = 1;
  }
  if (PQsendQueryPrepared(s->c, name, n, p.v, p.len, p.fmt, 1) != 1) return failed(s, NULL);
  return ++s->nsent >= PG_AHEAD ? drain(s) : 0;
}

/* The outcome of every write sent ahead, in order (the first failure is
** the one kept: those after it are skipped by the server), and out of the
** pipeline. */
static int drain(pg_store *s) {
  if (!s->piped) return 0;
  int rc = PQpipelineSync(s->c) == 1 ? 0 : failed(s, NULL);
  PGresult *r;
  for (size_t i = 0; i < s->nsent; i++)
    while ((r = PQgetResult(s->c))) {
      if (!rc && PQresultStatus(r) != PGRES_COMMAND_OK) rc = failed(s, r);
      PQclear(r);
    }
  s->nsent = 0;
  /* the sync's own result; a broken connection gives none */
  for (int tries = 0; tries < 4; tries++) {
    r = PQgetResult(s->c);
    int done = !r || PQresultStatus(r) == PGRES_PIPELINE_SYNC;
    if (r && !done && !rc && PQresultStatus(r) != PGRES_COMMAND_OK) rc = failed(s, r);
    PQclear(r);
    if (done) break;
  }
  if (PQexitPipelineMode(s->c) != 1 && !rc) rc = failed(s, NULL);
  s->piped = 0;
  return rc;
}


/* A save's transaction. Saves of one world take turns on a transaction
** lock of their own (advisory: class 21332, "ST", and the schema's name
** hashed), taken first: two first saves of a new world would otherwise
** race to make its schema. */
static void drop_windows(pg_store *s);

static int p_begin(store *st, int full) {
  pg_store *s = (pg_store *)st;
  char sql[256];
  snprintf(sql, sizeof sql, "BEGIN; SELECT pg_advisory_xact_lock(21332, hashtext('%.*s'))", (int)strlen(s->schema) - 2,
           s->schema + 1);
  drop_windows(s);
  int rc = run(s, sql);
  /* Only where a table is missing: ALTER TABLE's lock (tiles' storage)
  ** would wait for the opens reading the world, and stop later ones. */
  long n = !rc && full ? tables_there(s) : STORE_NTABLES;
  if (n < 0) rc = 1;
  else if (n != STORE_NTABLES) rc = create(s);
  s->writing = !rc;
  return rc;
}

static int flush_all(pg_store *s);

/* What COPY has not sent yet is dropped (a rollback), or sent (anything
** else that reads or ends the transaction). */
static void uncopy(pg_store *s) {
  s->copying = 0;
  for (int t = 0; t < STORE_NTABLES; t++) {
    s->copy[t].len = 0;
    s->batch[t].all = 0;
    s->batch[t].nkeys = 0;
    uidset_clear(&s->batch[t].put);
  }
}

static int p_commit(store *st) {
  pg_store *s = (pg_store *)st;
  int rc = flush_all(s);
  uncopy(s);
  s->writing = 0;
  if (rc) return rc;
  PGresult *r = PQexec(s->c, "COMMIT");
  /* A COMMIT of a failed transaction answers ROLLBACK: that is no commit. */
  int ok = PQresultStatus(r) == PGRES_COMMAND_OK && !strcmp(PQcmdStatus(r), "COMMIT");
  rc = ok ? 0 : failed(s, r);
  if (!ok && !strchr(s->error, ' ')) snprintf(s->error, sizeof s->error, "the transaction was rolled back");
  PQclear(r);
  return rc;
}

static void p_rollback(store *st) {
  pg_store *s = (pg_store *)st;
  drain(s);
  uncopy(s);
  s->writing = 0;
  PQclear(PQexec(s->c, "ROLLBACK"));
}

/* A whole save replaces what the world's tables held: by DELETE, in the
** save's transaction. TRUNCATE's ACCESS EXCLUSIVE lock would wait for every
** open reading the world and stop every later one until the save commits;
** a DELETE's ROW EXCLUSIVE lock conflicts with neither, and the opens'
** snapshots keep seeing the rows it deletes. */
static int p_clear(store *st) {
  pg_store *s = (pg_store *)st;
  char sql[1024];
  int n = 0;
  for (int t = 0; t < STORE_NTABLES; t++)
    n += snprintf(sql + n, sizeof sql - (size_t)n, "DELETE FROM %s.%s;", s->schema, store_tables[t].name);
  int rc = run(s, sql);
  s->copying = !rc;
  return rc;
}

/* Table t's rows gathered for COPY, sent in one COPY ... FROM STDIN
** (binary: a header, the tuples, a trailer). A round trip a row was most of
** a whole save's time. */
static int send_copy(pg_store *s, int t) {
  static const char head[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0", tail[2] = { '\377', '\377' };
  strata_buffer *b = &s->copy[t];
  if (!b->len) return 0;
  char sql[512];
  snprintf(sql, sizeof sql, "COPY %s.%s (%s) FROM STDIN (FORMAT binary)", s->schema, store_tables[t].name,
           store_tables[t].cols);
  PGresult *r = PQexec(s->c, sql);
  int rc = PQresultStatus(r) == PGRES_COPY_IN ? 0 : failed(s, r);
  PQclear(r);
  if (rc) return rc;
  int ok = PQputCopyData(s->c, head, 19) == 1 && PQputCopyData(s->c, (const char *)b->data, (int)b->len) == 1 &&
           PQputCopyData(s->c, tail, 2) == 1;
  b->len = 0;
  if (PQputCopyEnd(s->c, ok ? NULL : "strata: a write failed") != 1) return failed(s, NULL);
  while ((r = PQgetResult(s->c))) {
    if (!rc && PQresultStatus(r) != PGRES_COMMAND_OK) rc = failed(s, r);
    PQclear(r);
  }
  return rc;
}

/* The rows a DELETE ... RETURNING sum gave, handed to s->gone. */
static int gone_rows(pg_store *s, int t, PGresult *r) {
  int rc = PQresultStatus(r) == PGRES_TUPLES_OK ? 0 : failed(s, r);
  for (int k = 0; !rc && k < PQntuples(r); k++) {
    store_val v;
    value_of(r, k, 0, 'i', &v);
    s->gone(s->ud, t, v.i);
  }
  PQclear(r);
  return rc;
}

/* Deletes now the rows of t in [range[0], range[1]), or (NULL) all. */
static int delete_now(pg_store *s, int t, const int64_t *range) {
  store_val r[2] = { { .type = SV_INT, .i = range ? range[0] : 0 }, { .type = SV_INT, .i = range ? range[1] : 0 } };
  PGresult *res = NULL;
  int rc = exec(s, t, Q_DEL, r, range ? 2 : 0, PGRES_TUPLES_OK, &res);
  return rc ? rc : gone_rows(s, t, res);
}

/* Table t's gathered writes: its deletes (all, then by key, in one
** statement: the keys as an array's text), then its rows by COPY. */
static int flush_table(pg_store *s, int t) {
  struct batch *b = &s->batch[t];
  strata_buffer text = { 0 };
  int rc = drain(s); /* (no other statement while the pipeline is open) */
  if (!rc && b->all) rc = delete_now(s, t, NULL);
  b->all = 0;
  for (size_t i = 0; i < b->nkeys && !rc; i++) {
    if (!STRATA_GROW(text.data, text.cap, text.len + 24)) rc = STORE_NOMEM;
    else text.len += (size_t)snprintf((char *)text.data + text.len, 24, "%c%lld", i ? ',' : '{', (long long)b->keys[i]);
  }
  if (!rc && b->nkeys) {
    char sql[512];
    text.data[text.len] = '}'; /* (room: 24 bytes were grown for the last key) */
    text.data[text.len + 1] = '\0';
    snprintf(sql, sizeof sql, "DELETE FROM %s.%s WHERE %s = ANY($1::bigint[]) RETURNING sum", s->schema,
             store_tables[t].name, store_tables[t].key);
    const char *pv[1] = { (const char *)text.data };
    rc = gone_rows(s, t, PQexecParams(s->c, sql, 1, NULL, pv, NULL, NULL, 1));
  }
  strata_buffer_free(&text);
  b->nkeys = 0;
  uidset_clear(&b->put);
  return rc ? rc : send_copy(s, t);
}

/* Everything written so far sent and its outcome read. */
static int flush_all(pg_store *s) {
  int rc = drain(s);
  for (int t = 0; t < STORE_NTABLES && !rc; t++) rc = flush_table(s, t);
  return rc;
}

/* A row as a COPY binary tuple: its count of fields, then each one's
** length (-1: NULL) and bytes, as a parameter would carry them. */
static int copy_row(pg_store *s, int t, const store_val *row) {
  strata_buffer *b = &s->copy[t];
  const store_table *tb = &store_tables[t];
  for (int c = 0; c < tb->ncols; c++) {
    const char *v;
    int len;
    int rc = param(s, 0, tb->types[c], &row[c], &v, &len);
    if (rc) return rc;
    size_t need = b->len + 6 + (size_t)(len > 0 ? len : 0);
    if (need > b->cap && !STRATA_GROW(b->data, b->cap, need)) return STORE_NOMEM;
    unsigned char *p = b->data + b->len;
    if (c == 0) {
      b->data[b->len++] = 0;
      b->data[b->len++] = (unsigned char)tb->ncols;
      p += 2;
    }
    uint32_t n = v ? (uint32_t)len : 0xffffffffu;
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(n >> (24 - 8 * i));
    b->len += 4;
    if (v && len) memcpy(b->data + b->len, v, (size_t)len);
    b->len += v ? (size_t)len : 0;
  }
  return b->len >= PG_COPY_BYTES ? send_copy(s, t) : 0;
}

static int p_sync(store *st) { return flush_all((pg_store *)st); }

static int p_put(store *st, int t, const store_val *row) {
  pg_store *s = (pg_store *)st;
  if (t == T_META && !s->copying) return send(s, t, Q_INS, row, store_tables[t].ncols);
  /* (every table's key but meta's and rng's is an integer from 0) */
  if (!s->copying && t != T_RNG && !uidset_add(&s->batch[t].put, (uint64_t)row[0].i + 1)) return STORE_NOMEM;
  return copy_row(s, t, row);
}

/* A delete waits for the table's flush, unless a row it may delete was put
** since the last (then the table is flushed first: rows go in order). */
static int p_del(store *st, int t, int64_t lo, int64_t hi, void (*gone)(void *, int, int64_t), void *ud) {
  pg_store *s = (pg_store *)st;
  struct batch *b = &s->batch[t];
  int one = !whole(t) && hi == lo + 1 && lo >= 0, rc = 0;
  s->gone = gone;
  s->ud = ud;
  if (s->copy[t].len && (!one || t == T_RNG || uidset_has(&b->put, (uint64_t)lo + 1))) rc = flush_table(s, t);
  if (rc) return rc;
  if (whole(t)) {
    b->all = 1;
    return 0;
  }
  if (!one) {
    int64_t range[2] = { lo, hi };
    return (rc = flush_table(s, t)) ? rc : delete_now(s, t, range);
  }
  if (!STRATA_GROW(b->keys, b->keycap, b->nkeys + 1)) return STORE_NOMEM;
  b->keys[b->nkeys++] = lo;
  return 0;
}

static int p_get(store *st, int t, const store_val *key, store_val *row) {
  pg_store *s = (pg_store *)st;
  PQclear(s->got);
  s->got = NULL;
  int rc = flush_all(s);
  if (rc) return -rc;
  /* In a save, meta's rows are locked as read: a second writer waits for
  ** this save's end, then finds the generation it wrote. */
  rc = exec(s, t, s->writing && t == T_META ? Q_LOCK : Q_GET, key, 1, PGRES_TUPLES_OK, &s->got);
  if (rc) return -rc;
  if (PQntuples(s->got) < 1) return 0;
  row_of(s->got, 0, t, row);
  return 1;
}

static int p_last(store *st, int t, int64_t *key) {
  PGresult *r = NULL;
  int rc = flush_all((pg_store *)st);
  if (!rc) rc = exec((pg_store *)st, t, Q_LAST, NULL, 0, PGRES_TUPLES_OK, &r);
  if (rc) return rc;
  store_val v;
  value_of(r, 0, 0, 'i', &v);
  *key = v.type == SV_INT ? v.i : 0;
  PQclear(r);
  return 0;
}

/* The save's tag lives in meta (save.id) alone: there is no header page. */
static int p_put_tag(store *st, int64_t tag) {
  (void)st; (void)tag;
  return 0;
}

static int p_get_tag(store *st, int *has, int64_t *tag) {
  (void)st;
  *has = 0;
  *tag = 0;
  return 0;
}

/* An open: one read-only snapshot for every table (a save committing
** meanwhile is not seen half), and the world's tables there. */
static strata_status p_check(store *st, strata_error *err) {
  pg_store *s = (pg_store *)st;
  if (run(s, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
    return strata_error_set(err, STRATA_EIO, "PostgreSQL: %s", s->error);
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)strlen(s->schema) - 2, s->schema + 1);
  long n = tables_there(s);
  strata_status res = STRATA_OK;
  if (n < 0)
    res = strata_error_set(err, STRATA_EIO, "PostgreSQL: %s", s->error);
  else if (n == 0)
    res = strata_error_set(err, STRATA_EIO, "no world '%s' in this database (no schema %s with its tables)",
                           name + 7, name);
  else if (n != STORE_NTABLES)
    res = strata_error_set(err, STRATA_EPARSE, "not a strata world save: schema %s has %ld of its %d tables",
                           name, n, STORE_NTABLES);
  return res;
}

/* The bytes the world's tables take, their TOAST and indexes included. */
static int p_size(store *st, int64_t *bytes) {
  pg_store *s = (pg_store *)st;
  char name[STRATA_PG_SCHEMA_MAX];
  store_pg_schema(&s->base, name);
  const char *pv[1] = { name };
  PGresult *r = PQexecParams(s->c, "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c"
                             " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'",
                             1, NULL, pv, NULL, NULL, 0);
  if (PQresultStatus(r) != PGRES_TUPLES_OK) {
    int rc = failed(s, r);
    PQclear(r);
    return rc;
  }
  *bytes = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
  PQclear(r);
  return 0;
}

/* ---- a table streamed by binary COPY (pg_copy.h) ---- */

/* The stream's fault, one line, into s->error: 1 (a store code). */
static int copy_bad(store_scan *sc, const char *why) {
  snprintf(sc->s->error, sizeof sc->s->error, "the server's COPY of %s: %s", store_tables[sc->t].name, why);
  sc->s->transient = 0;
  return 1;
}

/* The server's next message after what is left of the last one: 1, 0 at
** the stream's end, -1 failed. A tuple split across messages is gathered
** in sc->pend (as the bytes arrive). */
static int copy_more(store_scan *sc) {
  char *m = NULL;
  int got = PQgetCopyData(sc->s->c, &m, 0);
  if (got == -1) return 0;
  if (got < 0) return -failed(sc->s, NULL);
  size_t rest = sc->len - sc->at;
  if (!rest) {
    PQfreemem(sc->chunk);
    sc->chunk = m;
    sc->buf = (unsigned char *)m;
    sc->at = 0;
    sc->len = (size_t)got;
    return 1;
  }
  strata_buffer *b = &sc->pend;
  int gathering = sc->buf == b->data; /* (before a growth moves it) */
  if (gathering) memmove(b->data, b->data + sc->at, rest);
  if (rest + (size_t)got + 1 > b->cap && !STRATA_GROW(b->data, b->cap, rest + (size_t)got + 1)) {
    PQfreemem(m);
    snprintf(sc->s->error, sizeof sc->s->error, "out of memory");
    sc->s->transient = 0;
    return -1;
  }
  if (!gathering) memcpy(b->data, sc->buf + sc->at, rest);
  memcpy(b->data + rest, m, (size_t)got);
  b->data[rest + (size_t)got] = 0;
  PQfreemem(m);
  PQfreemem(sc->chunk);
  sc->chunk = NULL;
  sc->buf = b->data;
  sc->at = 0;
  sc->len = rest + (size_t)got;
  return 1;
}

/* The COPY's end: what follows the trailer, then its outcome. quit: the
** scan ends early (its rows are not wanted: the server is asked to stop). */
static int copy_end(store_scan *sc, int quit) {
  pg_store *s = sc->s;
  int rc = 0, got;
  if (quit) {
    PGcancel *cancel = PQgetCancel(s->c);
    char why[64];
    if (cancel) PQcancel(cancel, why, sizeof why);
    PQfreeCancel(cancel);
  }
  char *m;
  while ((got = PQgetCopyData(s->c, &m, 0)) >= 0) {
    PQfreemem(m);
    if (!rc && !quit) rc = copy_bad(sc, "rows after its end");
  }
  if (got == -2 && !rc && !quit) rc = failed(s, NULL);
  PGresult *r;
  while ((r = PQgetResult(s->c))) {
    if (!rc && !quit && PQresultStatus(r) != PGRES_COMMAND_OK) rc = failed(s, r);
    PQclear(r);
  }
  PQfreemem(sc->chunk);
  sc->chunk = NULL;
  sc->buf = NULL;
  sc->at = sc->len = 0;
  sc->copy = 0;
  return rc;
}

/* The next row of a streamed table: 1, 0 at its end, < 0 -code. */
static int copy_next(store_scan *sc, store_val *row) {
  for (;;) {
    if (sc->done) return 0;
    long n = 0;
    const char *why = NULL;
    if (sc->at < sc->len)
      n = sc->copy == 1 ? pg_copy_header(sc->buf + sc->at, sc->len - sc->at, &why)
                        : pg_copy_tuple(sc->t, sc->buf + sc->at, sc->len - sc->at, row, &sc->done, &why);
    if (n < 0) return -copy_bad(sc, why);
    if (n > 0) {
      sc->at += (size_t)n;
      if (sc->copy == 1) sc->copy = 2;
      else if (!sc->done) return 1;
      else return -copy_end(sc, 0);
      continue;
    }
    int more = copy_more(sc);
    if (more < 0) return more;
    if (more == 0) { /* the stream ended before its trailer: the server's error, or a cut */
      int rc = copy_end(sc, 0);
      return -(rc ? rc : copy_bad(sc, sc->at < sc->len ? "cut in the middle of a row" : "no end"));
    }
  }
}

/* Streamed: every table but maps, whose rows are read by cursor: each
** map's chunks are read between them, and a connection streams one COPY
** at a time. */
static int streamed(int t) { return t != T_MAPS; }

/* Row i's key (column 0, an int8). */
static int64_t key_at(const PGresult *r, int i) {
  store_val v;
  value_of(r, i, 0, 'i', &v);
  return v.i;
}

/* A ranged scan, [range[0], range[1]): served from the window when it holds
** the range, else the window read again from range[0] on: at least
** PG_WINDOW rows, at most as many more as the range asks (a map's chunks:
** as many as its cells allow, charged before). */
static int window_scan(pg_store *s, store_scan *sc, int t, const int64_t *range, store_scan **out) {
  const int64_t lo = range[0], hi = range[1];
  if (!sc->res || lo < sc->wlo || hi > sc->whi) {
    const store_table *tb = &store_tables[t];
    const int64_t want = hi - lo > PG_WINDOW ? hi - lo : PG_WINDOW;
    char sql[1024];
    PQclear(sc->res);
    memset(sc, 0, sizeof *sc);
    snprintf(sql, sizeof sql, "SELECT %s FROM %s.%s WHERE %s >= %lld ORDER BY %s LIMIT %lld", tb->cols, s->schema,
             tb->name, tb->key, (long long)lo, tb->key, (long long)want);
    sc->res = PQexecParams(s->c, sql, 0, NULL, NULL, NULL, NULL, 1);
    if (PQresultStatus(sc->res) != PGRES_TUPLES_OK) {
      int rc = failed(s, sc->res);
      PQclear(sc->res);
      sc->res = NULL;
      return rc;
    }
    sc->nrows = PQntuples(sc->res);
    /* a window short of its limit holds every row from lo to the end */
    sc->wlo = lo;
    const int64_t last = sc->nrows ? key_at(sc->res, sc->nrows - 1) : lo;
    sc->whi = sc->nrows < want || last == INT64_MAX ? INT64_MAX : last + 1;
  }
  sc->s = s, sc->t = t, sc->hi = hi, sc->done = 1;
  int a = 0, b = sc->nrows; /* the first row whose key is lo or more */
  while (a < b) {
    int m = a + (b - a) / 2;
    if (key_at(sc->res, m) < lo) a = m + 1;
    else b = m;
  }
  sc->row = a;
  *out = sc;
  return 0;
}

static int p_scan(store *st, int t, const int64_t *range, store_scan **out) {
  pg_store *s = (pg_store *)st;
  store_scan *sc = &s->scans[t][range != NULL];
  const store_table *tb = &store_tables[t];
  char sql[1024];
  int rc = flush_all(s);
  if (rc) return rc;
  if (range) return window_scan(s, sc, t, range, out);
  PQclear(sc->res);
  strata_buffer pend = sc->pend;
  memset(sc, 0, sizeof *sc);
  sc->pend = pend;
  sc->s = s;
  sc->t = t;
  if (streamed(t)) {
    snprintf(sql, sizeof sql, "COPY (SELECT %s FROM %s.%s ORDER BY %s) TO STDOUT (FORMAT binary)", tb->cols, s->schema,
             tb->name, tb->order ? tb->order : tb->key);
    PGresult *r = PQexec(s->c, sql);
    rc = PQresultStatus(r) == PGRES_COPY_OUT ? 0 : failed(s, r);
    PQclear(r);
    if (rc) return rc;
    sc->copy = 1;
  } else {
    snprintf(sql, sizeof sql, "DECLARE c%d NO SCROLL CURSOR FOR SELECT %s FROM %s.%s ORDER BY %s", t, tb->cols,
             s->schema, tb->name, tb->order ? tb->order : tb->key);
    rc = run(s, sql);
    if (rc) return rc;
    sc->cursor = 1;
  }
  *out = sc;
  return 0;
}

static int p_next(store_scan *sc, store_val *row) {
  pg_store *s = sc->s;
  if (sc->copy) return copy_next(sc, row);
  if (sc->row >= sc->nrows) {
    if (sc->done) return 0;
    char sql[64];
    snprintf(sql, sizeof sql, "FETCH %d FROM c%d", PG_BATCH, sc->t);
    PQclear(sc->res);
    sc->res = PQexecParams(s->c, sql, 0, NULL, NULL, NULL, NULL, 1);
    sc->row = 0;
    sc->nrows = 0;
    if (PQresultStatus(sc->res) != PGRES_TUPLES_OK) return -failed(s, sc->res);
    sc->nrows = PQntuples(sc->res);
    sc->done = sc->nrows < PG_BATCH;
    if (!sc->nrows) return 0;
  }
  if (sc->hi && key_at(sc->res, sc->row) >= sc->hi) return 0;
  row_of(sc->res, sc->row++, sc->t, row);
  return 1;
}

/* The windows go with the whole-table scan they served (the maps') and
** before any write. */
static void drop_windows(pg_store *s) {
  for (int t = 0; t < STORE_NTABLES; t++) {
    PQclear(s->scans[t][1].res);
    s->scans[t][1].res = NULL;
  }
}

static void p_scan_end(store_scan *sc) {
  if (sc->hi) return; /* a window, kept for the next range */
  drop_windows(sc->s);
  if (sc->copy) copy_end(sc, 1);
  PQclear(sc->res);
  sc->res = NULL;
  if (sc->cursor) {
    char sql[32];
    snprintf(sql, sizeof sql, "CLOSE c%d", sc->t);
    PQclear(PQexec(sc->s->c, sql));
    sc->cursor = 0;
  }
}

static strata_status p_fail(store *st, int rc, const char *what, strata_error *err) {
  pg_store *s = (pg_store *)st;
  if (rc == STORE_NOMEM) return strata_error_nomem(err, "saving to '%s'", s->shown);
  return strata_error_set(err, STRATA_EIO, "%s '%s': PostgreSQL: %s", what, s->shown,
                          rc == STORE_TOOBIG ? "a value too large" : s->error);
}

/* (Every failure sets s->error: the last one is the one asked about.) */
static const char *p_why(store *st, int rc) {
  (void)rc;
  return ((pg_store *)st)->error;
}

static strata_status p_transient(store *st, int rc, strata_error *err) {
  pg_store *s = (pg_store *)st;
  if (rc == STORE_NOMEM || rc == STORE_TOOBIG || !s->transient) return STRATA_OK;
  return strata_error_set(err, STRATA_EIO, "PostgreSQL: %s", s->error);
}

static const store_ops pg_ops = { p_begin, p_commit, p_rollback, p_clear, p_put, p_del, p_sync, p_get, p_last, p_put_tag,
                                  p_get_tag, p_check, p_size, p_scan, p_next, p_scan_end, p_fail, p_why,
                                  p_transient };

store *store_pg_open(const char *uri, const char *what, strata_error *err) {
  pg_store *s = strata_calloc(1, sizeof *s);
  const size_t size = strlen(uri) + 1;
  char *conninfo = s ? strata_malloc(size) : NULL, world[STRATA_PG_WORLD_MAX], schema[STRATA_PG_SCHEMA_MAX];
  if (s) s->shown = strata_pg_uri_shown(uri);
  if (!s || !conninfo || !s->shown) {
    strata_free(conninfo);
    if (s) strata_free(s->shown);
    strata_free(s);
    strata_error_nomem(err, NULL);
    return NULL;
  }
  s->base.ops = &pg_ops;
  strata_error why;
  if (strata_pg_uri_split(uri, conninfo, size, world, what, &why) != STRATA_OK) {
    strata_error_set(err, why.status, "%s '%s': %s", what, s->shown, why.message);
    strata_free(conninfo);
    store_pg_free(&s->base);
    return NULL;
  }
  strata_pg_schema(world, schema);
  snprintf(s->schema, sizeof s->schema, "\"%s\"", schema);
  s->c = strata_pg_connect(conninfo, NULL);
  strata_free(conninfo);
  if (!s->c) {
    strata_error_nomem(err, NULL);
    store_pg_free(&s->base);
    return NULL;
  }
  if (PQstatus(s->c) != CONNECTION_OK) {
    failed(s, NULL);
    strata_error_set(err, STRATA_EIO, "%s '%s': PostgreSQL: %s", what, s->shown, s->error);
    store_pg_free(&s->base);
    return NULL;
  }
  /* Notices (CREATE ... IF NOT EXISTS on what exists) are not errors. */
  PQclear(PQexec(s->c, "SET client_min_messages = warning"));
  return &s->base;
}

struct pg_conn *store_pg_conn(store *st) { return st ? ((pg_store *)st)->c : NULL; }

void store_pg_schema(store *st, char *out) {
  const pg_store *s = (const pg_store *)st;
  snprintf(out, STRATA_PG_SCHEMA_MAX, "%.*s", (int)strlen(s->schema) - 2, s->schema + 1);
}

int store_pg_idle(store *st) {
  pg_store *s = (pg_store *)st;
  return s && PQstatus(s->c) == CONNECTION_OK && PQtransactionStatus(s->c) == PQTRANS_IDLE;
}

void store_pg_free(store *st) {
  pg_store *s = (pg_store *)st;
  if (!s) return;
  for (int t = 0; t < STORE_NTABLES; t++)
    for (int k = 0; k < 2; k++) {
      PQclear(s->scans[t][k].res);
      PQfreemem(s->scans[t][k].chunk);
      strata_buffer_free(&s->scans[t][k].pend);
    }
  PQclear(s->got);
  PQfinish(s->c);
  for (int t = 0; t < STORE_NTABLES; t++) strata_buffer_free(&s->copy[t]);
  for (int t = 0; t < STORE_NTABLES; t++) {
    strata_free(s->batch[t].keys);
    uidset_free(&s->batch[t].put);
  }
  strata_free(s->vbuf);
  strata_free(s->shown);
  strata_free(s);
}
#endif
