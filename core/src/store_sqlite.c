/*
** store_sqlite.c - the SQLite store (store.h): a world's rows in a SQLite
** file, through statements prepared once per table and kept for the
** store's life. save.c opens and closes the database (its pragmas, its
** locks, the files beside it); this file only moves rows, and says what the
** file's schema must be: exactly the eight tables as written, nothing else.
*/
#include "store.h"
#include "strata/alloc.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

/* Each statement is also exactly what sqlite_schema must hold for it. */
static const char *const table_sql[STORE_NTABLES] = {
  "CREATE TABLE meta(key TEXT PRIMARY KEY, value, sum INTEGER NOT NULL) WITHOUT ROWID",
  "CREATE TABLE mods(ord INTEGER PRIMARY KEY, id TEXT NOT NULL, version TEXT NOT NULL,"
  " sum INTEGER NOT NULL)",
  "CREATE TABLE objects(uid INTEGER PRIMARY KEY, kind TEXT NOT NULL, archetype TEXT,"
  " map INTEGER, x INTEGER, y INTEGER, tags BLOB NOT NULL, props BLOB NOT NULL,"
  " sum INTEGER NOT NULL)",
  "CREATE TABLE timers(uid INTEGER PRIMARY KEY, due REAL NOT NULL, every REAL NOT NULL,"
  " handler TEXT NOT NULL, args BLOB NOT NULL, sum INTEGER NOT NULL)",
  "CREATE TABLE subscriptions(uid INTEGER PRIMARY KEY, object INTEGER NOT NULL,"
  " event TEXT NOT NULL, handler TEXT NOT NULL, args BLOB NOT NULL, priority INTEGER NOT NULL,"
  " sum INTEGER NOT NULL)",
  "CREATE TABLE rng(key TEXT PRIMARY KEY, state TEXT NOT NULL, sum INTEGER NOT NULL) WITHOUT ROWID",
  /* A map's chunks are the tiles rows first .. first + n - 1. A rowid
  ** table: a chunk's row is KBs (8 for 64x64 single tokens), of which a
  ** WITHOUT ROWID table keeps about 1 KB in its page and spills the rest
  ** into overflow pages left mostly empty (docs/saves.md). */
  "CREATE TABLE maps(map INTEGER PRIMARY KEY, width INTEGER NOT NULL, height INTEGER NOT NULL,"
  " first INTEGER NOT NULL, sum INTEGER NOT NULL)",
  "CREATE TABLE tiles(id INTEGER PRIMARY KEY, map INTEGER NOT NULL, chunk INTEGER NOT NULL,"
  " tokens BLOB NOT NULL, cells BLOB NOT NULL, sum INTEGER NOT NULL)",
};

/* The statements of a table, made on first use. */
enum { Q_INS, Q_SEL, Q_DEL, Q_GET, Q_LAST, Q_SCAN, Q_RANGE, NQ };

struct store_scan {
  sqlite3_stmt *s;
  int ncols;
};

typedef struct sqlite_store {
  store base;
  sqlite3 *db;
  const char *path;
  sqlite3_stmt *q[STORE_NTABLES][NQ];
  store_scan scans[STORE_NTABLES][2];
} sqlite_store;

/* The tables deleted whole (by no key): mods and rng. */
static int whole(int t) { return t == T_MODS || t == T_RNG; }

/* Statement q of table t, prepared now if not yet. */
static int stmt(sqlite_store *s, int t, int q, sqlite3_stmt **out) {
  if (!s->q[t][q]) {
    const store_table *tb = &store_tables[t];
    char sql[256], where[96];
    where[0] = '\0';
    if (!whole(t)) snprintf(where, sizeof where, " WHERE %s >= ?1 AND %s < ?2", tb->key, tb->key);
    switch (q) {
    case Q_INS: {
      static const char marks[] = "?, ?, ?, ?, ?, ?, ?, ?, ?";
      snprintf(sql, sizeof sql, "INSERT%s INTO %s VALUES(%.*s)", t == T_META ? " OR REPLACE" : "", tb->name,
               tb->ncols * 3 - 2, marks);
      break;
    }
    case Q_SEL: snprintf(sql, sizeof sql, "SELECT sum FROM %s%s", tb->name, where); break;
    case Q_DEL: snprintf(sql, sizeof sql, "DELETE FROM %s%s", tb->name, where); break;
    case Q_GET: snprintf(sql, sizeof sql, "SELECT %s FROM %s WHERE %s = ?1", tb->cols, tb->name, tb->key); break;
    case Q_LAST: snprintf(sql, sizeof sql, "SELECT coalesce(max(%s), 0) FROM %s", tb->key, tb->name); break;
    default:
      snprintf(sql, sizeof sql, "SELECT %s FROM %s%s%s%s", tb->cols, tb->name,
               q == Q_RANGE ? " WHERE id >= ?1 AND id < ?2" : "", tb->order ? " ORDER BY " : "",
               tb->order ? tb->order : "");
    }
    if (sqlite3_prepare_v2(s->db, sql, -1, &s->q[t][q], NULL) != SQLITE_OK) return sqlite3_errcode(s->db);
  }
  *out = s->q[t][q];
  return SQLITE_OK;
}

static int bind(sqlite3_stmt *q, int col, const store_val *v) {
  switch (v->type) {
  case SV_INT: return sqlite3_bind_int64(q, col, v->i);
  case SV_REAL: return sqlite3_bind_double(q, col, v->r);
  /* Static: the writer keeps the bytes until the statement has run. */
  case SV_TEXT: return sqlite3_bind_text(q, col, v->p, (int)v->n, SQLITE_STATIC);
  case SV_BLOB: return sqlite3_bind_blob(q, col, v->p, (int)v->n, SQLITE_STATIC);
  default: return sqlite3_bind_null(q, col);
  }
}

/* The row the statement is on, its first n columns, as values. */
static void row_of(sqlite3_stmt *q, int n, store_val *row) {
  for (int c = 0; c < n; c++) {
    sqlite3_value *v = sqlite3_column_value(q, c);
    store_val *o = &row[c];
    switch (o->type = sqlite3_value_type(v)) {
    case SQLITE_INTEGER: o->i = sqlite3_value_int64(v); break;
    case SQLITE_FLOAT: o->r = sqlite3_value_double(v); break;
    case SQLITE_TEXT:
      o->p = sqlite3_value_text(v);
      o->n = (size_t)sqlite3_value_bytes(v);
      break;
    case SQLITE_BLOB:
      o->p = sqlite3_value_blob(v);
      o->n = (size_t)sqlite3_value_bytes(v);
      break;
    default: o->type = SV_NULL;
    }
  }
}

static int exec(store *st, const char *sql) { return sqlite3_exec(((sqlite_store *)st)->db, sql, NULL, NULL, NULL); }

static int s_begin(store *st, int full) {
  int rc = exec(st, full ? "BEGIN" : "BEGIN IMMEDIATE");
  for (int t = 0; t < STORE_NTABLES && full && !rc; t++) rc = exec(st, table_sql[t]);
  return rc;
}

static int s_commit(store *st) { return exec(st, "COMMIT"); }
static void s_rollback(store *st) { exec(st, "ROLLBACK"); }

/* A whole save goes into a new file: nothing to empty. Each row is written
** as it comes: nothing to wait for. */
static int s_none(store *st) {
  (void)st;
  return SQLITE_OK;
}

static int s_put(store *st, int t, const store_val *row) {
  sqlite3_stmt *q;
  int rc = stmt((sqlite_store *)st, t, Q_INS, &q);
  if (rc) return rc;
  for (int c = 0; c < store_tables[t].ncols; c++) bind(q, c + 1, &row[c]);
  rc = sqlite3_step(q);
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* A SELECT then a DELETE: SQLite's DELETE ... RETURNING costs five times
** as much, and most deletes of a save find nothing (a changed uid is looked
** for in three tables). */
static int s_del(store *st, int t, int64_t lo, int64_t hi, void (*gone)(void *, int, int64_t), void *ud) {
  sqlite_store *s = (sqlite_store *)st;
  sqlite3_stmt *sel, *del;
  int rc, found = 0;
  if ((rc = stmt(s, t, Q_SEL, &sel)) || (rc = stmt(s, t, Q_DEL, &del))) return rc;
  if (!whole(t)) {
    sqlite3_bind_int64(sel, 1, lo); sqlite3_bind_int64(sel, 2, hi);
    sqlite3_bind_int64(del, 1, lo); sqlite3_bind_int64(del, 2, hi);
  }
  while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
    found++;
    gone(ud, t, sqlite3_column_int64(sel, 0));
  }
  sqlite3_reset(sel);
  if (rc != SQLITE_DONE) return rc;
  if (!found) return SQLITE_OK;
  rc = sqlite3_step(del);
  sqlite3_reset(del);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int s_get(store *st, int t, const store_val *key, store_val *row) {
  sqlite3_stmt *q;
  int rc = stmt((sqlite_store *)st, t, Q_GET, &q);
  if (rc) return -rc;
  sqlite3_reset(q); /* the row a get before it left */
  bind(q, 1, key);
  rc = sqlite3_step(q);
  if (rc == SQLITE_ROW) {
    row_of(q, store_tables[t].ncols, row);
    return 1; /* (reset at the next get: the row's values live until then) */
  }
  sqlite3_reset(q);
  return rc == SQLITE_DONE ? 0 : -rc;
}

static int s_last(store *st, int t, int64_t *key) {
  sqlite3_stmt *q;
  int rc = stmt((sqlite_store *)st, t, Q_LAST, &q);
  if (rc) return rc;
  rc = sqlite3_step(q);
  *key = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
  sqlite3_reset(q);
  return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

static int s_put_tag(store *st, int64_t tag) {
  char sql[64];
  snprintf(sql, sizeof sql, "PRAGMA user_version = %lld", (long long)tag);
  return exec(st, sql);
}

static int s_get_tag(store *st, int *has, int64_t *tag) {
  sqlite3_stmt *q = NULL;
  int rc = sqlite3_prepare_v2(((sqlite_store *)st)->db, "PRAGMA user_version", -1, &q, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_step(q);
  *has = 1;
  *tag = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1; /* (-1: matches no tag) */
  sqlite3_finalize(q);
  return SQLITE_OK;
}

static int s_size(store *st, int64_t *bytes) {
  sqlite3_stmt *q = NULL;
  int rc = sqlite3_prepare_v2(((sqlite_store *)st)->db, "SELECT page_count * page_size FROM pragma_page_count,"
                              " pragma_page_size", -1, &q, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_step(q) == SQLITE_ROW ? SQLITE_OK : sqlite3_errcode(((sqlite_store *)st)->db);
  if (rc == SQLITE_OK) *bytes = sqlite3_column_int64(q, 0);
  sqlite3_finalize(q);
  return rc;
}

static int s_scan(store *st, int t, const int64_t *range, store_scan **out) {
  sqlite_store *s = (sqlite_store *)st;
  store_scan *sc = &s->scans[t][range != NULL];
  int rc = stmt(s, t, range ? Q_RANGE : Q_SCAN, &sc->s);
  if (rc) return rc;
  if (range) {
    sqlite3_bind_int64(sc->s, 1, range[0]);
    sqlite3_bind_int64(sc->s, 2, range[1]);
  }
  sc->ncols = store_tables[t].ncols;
  *out = sc;
  return SQLITE_OK;
}

static int s_next(store_scan *sc, store_val *row) {
  int rc = sqlite3_step(sc->s);
  if (rc == SQLITE_ROW) {
    row_of(sc->s, sc->ncols, row);
    return 1;
  }
  return rc == SQLITE_DONE ? 0 : -rc;
}

static void s_scan_end(store_scan *sc) { sqlite3_reset(sc->s); }

static const char *s_why(store *st, int rc) {
  (void)st;
  return rc == SQLITE_INTERRUPT ? "too much work for the file's size" : sqlite3_errstr(rc);
}

strata_status store_sqlite_error(strata_error *err, sqlite3 *db, int rc, const char *what,
                                   const char *path) {
  if ((rc & 0xff) == SQLITE_NOMEM) /* the writer's own allocation, or SQLite's */
    return strata_error_nomem(err, "saving to '%s'", path);
  int ext = db ? sqlite3_extended_errcode(db) : rc, code = ext & 0xff;
  int sys = db ? sqlite3_system_errno(db) : 0;
  /* A write past a file size limit (EFBIG) comes back as a plain write error. */
  const char *why = code == SQLITE_FULL || sys == ENOSPC || sys == EFBIG || sys == EDQUOT
                      ? "the disk is full (or the file size limit is reached)"
                  : ext == SQLITE_IOERR_WRITE || ext == SQLITE_IOERR_TRUNCATE
                      ? "a write failed: is the disk full, or the file size limit reached?"
                  : code == SQLITE_BUSY ? "the file is busy (another process is using it)"
                  : code == SQLITE_READONLY || code == SQLITE_CANTOPEN || sys == EACCES || sys == EROFS
                      ? "the file or its directory is read-only"
                  : db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  if (sys && code != SQLITE_BUSY)
    return strata_error_set(err, STRATA_EIO, "%s '%s': %s (%s)", what, path, why, strerror(sys));
  return strata_error_set(err, STRATA_EIO, "%s '%s': %s", what, path, why);
}

static strata_status check_schema(sqlite3 *db, strata_error *err) {
  sqlite3_stmt *s = NULL;
  if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql FROM sqlite_schema", -1, &s, NULL) != SQLITE_OK)
    return strata_error_set(err, STRATA_EPARSE, "not a strata world save: %s", sqlite3_errmsg(db));
  int seen[STORE_NTABLES] = { 0 }, n = 0, rc;
  strata_status st = STRATA_OK;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW && !st) {
    const char *type = (const char *)sqlite3_column_text(s, 0);
    const char *name = (const char *)sqlite3_column_text(s, 1);
    const char *tbl = (const char *)sqlite3_column_text(s, 2);
    const char *sql = (const char *)sqlite3_column_text(s, 3);
    int which = -1;
    for (int t = 0; t < STORE_NTABLES && name; t++) if (!strcmp(name, store_tables[t].name)) which = t;
    if (!(which >= 0 && type && !strcmp(type, "table") && tbl && !strcmp(tbl, name) && sql && !seen[which]++ &&
          !strcmp(sql, table_sql[which])))
      st = strata_error_set(err, STRATA_EPARSE, "not a strata world save: unexpected %s '%s' in its schema",
                            type ? type : "entry", name ? name : "?");
    n++;
  }
  if (!st && rc != SQLITE_DONE)
    st = strata_error_set(err, STRATA_EPARSE, "corrupt save: reading table sqlite_schema: %s", sqlite3_errstr(rc));
  if (!st && n != STORE_NTABLES)
    st = strata_error_set(err, STRATA_EPARSE, "not a strata world save: %d of its %d tables", n, STORE_NTABLES);
  sqlite3_finalize(s);
  return st;
}

/* The schema is not this build's: an older or newer save has another one,
** and says which version it is when its meta table (a table, not a view)
** tells; st otherwise. */
static strata_status schema_refused(sqlite3 *db, strata_status st, strata_error *err) {
  sqlite3_stmt *v = NULL;
  int meta_is_table = 0;
  if (sqlite3_prepare_v2(db, "SELECT type = 'table' FROM sqlite_schema WHERE name = 'meta'", -1, &v,
                         NULL) == SQLITE_OK && sqlite3_step(v) == SQLITE_ROW)
    meta_is_table = sqlite3_column_int(v, 0);
  sqlite3_finalize(v);
  v = NULL;
  if (meta_is_table &&
      sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'version'", -1, &v, NULL) == SQLITE_OK &&
      sqlite3_step(v) == SQLITE_ROW && sqlite3_column_type(v, 0) == SQLITE_INTEGER &&
      !save_version_read(sqlite3_column_int64(v, 0)))
    st = save_unsupported(err, (long long)sqlite3_column_int64(v, 0));
  sqlite3_finalize(v);
  return st;
}

static strata_status s_check(store *st, strata_error *err) {
  sqlite3 *db = ((sqlite_store *)st)->db;
  strata_status res = check_schema(db, err);
  return res ? schema_refused(db, res, err) : STRATA_OK;
}

static strata_status s_fail(store *st, int rc, const char *what, strata_error *err) {
  sqlite_store *s = (sqlite_store *)st;
  return store_sqlite_error(err, s->db, rc, what, s->path);
}

static const store_ops sqlite_ops = { s_begin, s_commit, s_rollback, s_none, s_put, s_del, s_none, s_get, s_last, s_put_tag,
                                      s_get_tag, s_check, s_size, s_scan, s_next, s_scan_end, s_fail, s_why, NULL };

store *store_sqlite_new(sqlite3 *db, const char *path) {
  sqlite_store *s = strata_calloc(1, sizeof *s);
  if (!s) return NULL;
  s->base.ops = &sqlite_ops;
  s->db = db;
  s->path = path;
  return &s->base;
}

void store_sqlite_free(store *st) {
  sqlite_store *s = (sqlite_store *)st;
  if (!s) return;
  for (int t = 0; t < STORE_NTABLES; t++)
    for (int q = 0; q < NQ; q++) sqlite3_finalize(s->q[t][q]);
  strata_free(s);
}
