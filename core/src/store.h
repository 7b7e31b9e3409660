/*
** store.h - where a world's rows live: a SQLite file (store_sqlite.c) or a
** schema of a PostgreSQL database (store_pg.c).
**
** save.c owns the rows: what each holds, its checksum, each table's count
** and sum, the generation; both stores share that code. A store only moves
** rows, as typed values, in and out of its tables inside one transaction:
** a row written, the rows of a key range deleted (their checksums handed
** back, so that save.c keeps the table's sum), a row found by its key, a
** table read in its order. Rows stay rows, table by table: a serving
** process (serve.c) writes only the rows of the areas it owns and hands
** actors over row by row, never one opaque blob of a world.
*/
#ifndef STRATA_STORE_H
#define STRATA_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"

/* The tables in the order they are written and read. */
#define STORE_NTABLES 8
enum { T_META, T_MODS, T_OBJECTS, T_TIMERS, T_SUBS, T_RNG, T_MAPS, T_TILES };

/* A column's type: SQLite's codes, which a row's checksum hashes. */
enum { SV_INT = 1, SV_REAL = 2, SV_TEXT = 3, SV_BLOB = 4, SV_NULL = 5 };

/* A column's value. Text and blobs point into the store's memory (or the
** writer's), valid until the next call on the same scan or store. Text is
** followed by a zero byte. */
typedef struct store_val {
  int type;
  int64_t i;
  double r;
  const void *p;
  size_t n;
} store_val;

/* A table as both stores hold it: its columns (the last is the row's
** checksum), each column's type ('i' integer, 'r' real, 't' text, 'b'
** blob, 'v' any of them: meta's value; a capital: NULL allowed), the key
** rows are deleted and found by, and the order they are read in. */
typedef struct store_table {
  const char *name;
  int ncols;
  const char *cols;
  const char *types;
  const char *key;
  const char *order;
} store_table;

static const store_table store_tables[STORE_NTABLES] = {
  { "meta", 3, "key, value, sum", "tvi", "key", NULL },
  { "mods", 4, "ord, id, version, sum", "itti", "ord", "ord" },
  { "objects", 9, "uid, kind, archetype, map, x, y, tags, props, sum", "itTIIIbbi", "uid", "uid" },
  { "timers", 6, "uid, due, every, handler, args, sum", "irrtbi", "uid", "due, uid" },
  { "subscriptions", 7, "uid, object, event, handler, args, priority, sum", "iittbii", "uid", "uid" },
  { "rng", 3, "key, state, sum", "tti", "key", NULL },
  { "maps", 5, "map, width, height, first, sum", "iiiii", "map", "map" },
  { "tiles", 6, "id, map, chunk, tokens, cells, sum", "iiibbi", "id", "id" },
};

/* A store's codes: 0 is success; STORE_NOMEM and STORE_TOOBIG are the
** writer's own (SQLite's values, so that the SQLite store's codes pass
** through unchanged); any other is the store's, which its fail explains. */
#define STORE_NOMEM 7
#define STORE_TOOBIG 18

typedef struct store store;
typedef struct store_scan store_scan;

typedef struct store_ops {
  /* The save's transaction. full: the tables are emptied (made if absent)
  ** for a save of everything. */
  int (*begin)(store *s, int full);
  int (*commit)(store *s);
  void (*rollback)(store *s);
  /* Empties every table (a whole save, after the generation check). */
  int (*clear)(store *s);
  /* Writes a row (ncols values); meta's replaces the row of its key. */
  int (*put)(store *s, int t, const store_val *row);
  /* Deletes the rows of t whose key is in [lo, hi) (meta never; mods and
  ** rng whole), calling gone with each one's table and checksum, then or
  ** by the next sync. */
  int (*del)(store *s, int t, int64_t lo, int64_t hi, void (*gone)(void *ud, int t, int64_t sum), void *ud);
  /* Every row put or deleted so far is: a store that sends them ahead
  ** (PostgreSQL's pipeline) waits for their outcome here. */
  int (*sync)(store *s);
  /* The row of t whose key is *key into row: 1 found, 0 none, < 0 an error
  ** (-code). */
  int (*get)(store *s, int t, const store_val *key, store_val *row);
  /* The largest key of t (0: empty). */
  int (*last)(store *s, int t, int64_t *key);
  /* The save's tag in the store's header (SQLite's page 1); has = 0 from
  ** a store without one. */
  int (*put_tag)(store *s, int64_t tag);
  int (*get_tag)(store *s, int *has, int64_t *tag);
  /* Reading: the store's checks before any row (the tables are these),
  ** the bytes it holds (what bounds an open's allocations; a failure is
  ** the open's, never taken for an empty store), then each
  ** table in its order, or (range) its keys [range[0], range[1]). */
  strata_status (*check)(store *s, strata_error *err);
  int (*size)(store *s, int64_t *bytes);
  int (*scan)(store *s, int t, const int64_t *range, store_scan **out);
  int (*next)(store_scan *sc, store_val *row);  /* 1 a row, 0 the end, < 0 -code */
  void (*scan_end)(store_scan *sc);
  /* A failed call's code as one line into err: "<what> '<where>': <why>". */
  strata_status (*fail)(store *s, int rc, const char *what, strata_error *err);
  const char *(*why)(store *s, int rc);
  /* A failed read's code when the failure is the server's or the
  ** connection's, not the stored rows' (PostgreSQL: a lost connection, a
  ** lock or statement timeout, a cancel, a shutdown, the server out of
  ** resources): its one line into err ("PostgreSQL: <the server's first
  ** line>") and STRATA_EIO, so that an open says so rather than "corrupt
  ** save"; else STRATA_OK, err untouched. NULL: no failure is (SQLite's
  ** busy and I/O errors are worded by save.c as they were). */
  strata_status (*transient)(store *s, int rc, strata_error *err);
} store_ops;

struct store {
  const store_ops *ops;
};

/* ---- the stores ---- */
struct sqlite3;
/* A store on an open database (save.c opens, closes and sets it up); path
** names it in errors and must outlive the store. NULL: out of memory. */
store *store_sqlite_new(struct sqlite3 *db, const char *path);
void store_sqlite_free(store *s);
/* SQLite's failure rc as one line: "<what> '<path>': <why>". */
strata_status store_sqlite_error(strata_error *err, struct sqlite3 *db, int rc, const char *what, const char *path);

/* A connection to the world the URI names (its schema need not exist yet):
** NULL with err set (out of memory, a bad URI, no server, a build without
** libpq). what begins the error ("cannot open"). */
store *store_pg_open(const char *uri, const char *what, strata_error *err);
void store_pg_free(store *s);
/* Whether s is a connection that can take a save now (connected, in no
** transaction); 0 for NULL. */
int store_pg_idle(store *s);
/* The connection (libpq's PGconn) and the world's schema ("strata_NAME",
** unquoted, STRATA_PG_SCHEMA_MAX bytes at most): a serving process runs its
** leases' checks and its hand-overs inside the store's transaction. */
struct pg_conn;
struct pg_conn *store_pg_conn(store *s);
void store_pg_schema(store *s, char *out);

/* ---- save.c's, which the stores share ---- */
/* Whether a save of format version v is read by this build. */
int save_version_read(int64_t v);
/* The error for a save of another format version. */
strata_status save_unsupported(strata_error *err, long long v);

#endif
