/*
** save.c - worlds in SQLite files.
**
** A save writes a fresh database next to the target (path + ".tmp") in one
** transaction, flushes it to disk and renames it over the target; rename is
** atomic, so a crash at any instant leaves the old file or the new one.
** Opening reads everything into a new world and validates it; any problem
** frees that world, so the caller never sees a half-loaded one.
*/
#include "strata/world.h"
#include "world_internal.h" /* strata_world_restore_* */

#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAVE_FORMAT "strata-world"
#define SAVE_VERSION 1

static const char *const schema =
  "CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;"
  "CREATE TABLE mods(ord INTEGER PRIMARY KEY, id TEXT NOT NULL, version TEXT NOT NULL);"
  "CREATE TABLE objects(uid INTEGER PRIMARY KEY, kind TEXT NOT NULL, archetype TEXT,"
  " map INTEGER, x INTEGER, y INTEGER, tags BLOB NOT NULL, props BLOB NOT NULL);"
  "CREATE TABLE timers(uid INTEGER PRIMARY KEY, due REAL NOT NULL, every REAL NOT NULL,"
  " handler TEXT NOT NULL, args BLOB NOT NULL);"
  "CREATE TABLE subscriptions(uid INTEGER PRIMARY KEY, object INTEGER NOT NULL,"
  " event TEXT NOT NULL, handler TEXT NOT NULL, args BLOB NOT NULL, priority INTEGER NOT NULL);"
  "CREATE TABLE rng(key TEXT PRIMARY KEY, state TEXT NOT NULL) WITHOUT ROWID;"
  "CREATE TABLE tiles(map INTEGER PRIMARY KEY, width INTEGER NOT NULL, height INTEGER NOT NULL,"
  " tokens BLOB NOT NULL, cells BLOB NOT NULL);";

/* Tiles: tokens is a value list of token names (index = saved id); cells holds,
** row by row, each cell's stack size then its saved ids, as varints. */
static int put_varint(strata_buffer *b, uint64_t v) {
  if (b->len + 10 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 4096;
    unsigned char *d = realloc(b->data, cap);
    if (!d) return 0;
    b->data = d;
    b->cap = cap;
  }
  do {
    unsigned char c = v & 0x7f;
    v >>= 7;
    b->data[b->len++] = c | (v ? 0x80 : 0);
  } while (v);
  return 1;
}

/* The names list holds only the tokens the map uses, numbered in the order
** of their ids: the world's maps share one table, which holds every map's
** tokens (and any a rolled-back savepoint interned), and none of that other
** maps' business belongs in this map's row. */
static int encode_tiles(const strata_tilemap *m, strata_buffer *names, strata_buffer *cells) {
  strata_tokens *t = strata_tilemap_tokens(m);
  uint32_t n = strata_tokens_count(t);
  uint32_t *saved = calloc((size_t)n + 1, sizeof *saved); /* id -> saved id, 0: unused */
  strata_value list;
  if (!saved) return 0;
  if (strata_value_table(&list, NULL)) { free(saved); return 0; }
  strata_token stack[256];
  int w = strata_tilemap_width(m), h = strata_tilemap_height(m), ok = 1;
  for (int y = 0; y < h && ok; y++)
    for (int x = 0; x < w && ok; x++) {
      size_t k = strata_tilemap_stack(m, x, y, stack, 256);
      if (k > 256) ok = 0; /* taller stacks than the buffer: refuse rather than lose tokens */
      for (size_t i = 0; i < k && ok; i++) saved[stack[i]] = 1;
    }
  uint32_t next = 0;
  for (uint32_t id = 1; id <= n && ok; id++) {
    if (!saved[id]) continue;
    saved[id] = ++next;
    size_t len;
    const char *name = strata_tokens_name(t, id, &len);
    strata_value k = strata_value_int(next), v = strata_value_nil();
    ok = name && !strata_value_string(&v, name, len, NULL);
    if (ok && strata_vtable_set(list.u.t, &k, &v, NULL)) { strata_value_clear(&v); ok = 0; }
  }
  names->len = 0;
  ok = ok && strata_value_encode(&list, names, NULL) == STRATA_OK;
  strata_value_clear(&list);
  cells->len = 0;
  for (int y = 0; y < h && ok; y++)
    for (int x = 0; x < w && ok; x++) {
      size_t k = strata_tilemap_stack(m, x, y, stack, 256);
      ok = put_varint(cells, k);
      for (size_t i = 0; i < k && ok; i++) ok = put_varint(cells, saved[stack[i]]);
    }
  free(saved);
  return ok;
}

static strata_status db_error(strata_error *err, sqlite3 *db, const char *what, const char *path) {
  return strata_error_set(err, STRATA_EIO, "%s '%s': %s", what, path,
                          db ? sqlite3_errmsg(db) : "cannot open");
}

static int bind_value(sqlite3_stmt *s, int col, const strata_value *v, strata_buffer *buf) {
  buf->len = 0;
  strata_value nil = strata_value_nil();
  if (strata_value_encode(v ? v : &nil, buf, NULL)) return SQLITE_NOMEM;
  return sqlite3_bind_blob(s, col, buf->data, (int)buf->len, SQLITE_STATIC);
}

static int bind_text(sqlite3_stmt *s, int col, const char *t) {
  return t ? sqlite3_bind_text(s, col, t, -1, SQLITE_STATIC) : sqlite3_bind_null(s, col);
}

/* Runs one prepared insert and resets it; returns an sqlite code. */
static int step(sqlite3_stmt *s) {
  int rc = sqlite3_step(s);
  sqlite3_reset(s);
  sqlite3_clear_bindings(s);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int write_all(sqlite3 *db, const strata_world *w, const strata_mod_version *mods,
                     size_t nmods) {
  sqlite3_stmt *s = NULL;
  strata_buffer buf = { 0 };
  int rc = sqlite3_exec(db, schema, NULL, NULL, NULL);
  char tmp[64];
#define PREP(sql) (sqlite3_finalize(s), s = NULL, rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL))
  if (rc || PREP("INSERT INTO meta VALUES(?, ?)")) goto done;
  const char *keys[] = { "format", "version", "seed", "time", "next_uid" };
  for (int i = 0; i < 5 && !rc; i++) {
    bind_text(s, 1, keys[i]);
    switch (i) {
    case 0: bind_text(s, 2, SAVE_FORMAT); break;
    case 1: sqlite3_bind_int(s, 2, SAVE_VERSION); break;
    case 2: /* text: a uint64 seed does not fit SQLite's signed integer */
      snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)strata_world_seed(w));
      sqlite3_bind_text(s, 2, tmp, -1, SQLITE_TRANSIENT);
      break;
    case 3: sqlite3_bind_double(s, 2, strata_world_time(w)); break;
    case 4: sqlite3_bind_int64(s, 2, (sqlite3_int64)strata_world_next_uid(w)); break;
    }
    rc = step(s);
  }
  if (rc || PREP("INSERT INTO mods VALUES(?, ?, ?)")) goto done;
  for (size_t i = 0; i < nmods && !rc; i++) {
    sqlite3_bind_int64(s, 1, (sqlite3_int64)i);
    bind_text(s, 2, mods[i].id);
    bind_text(s, 3, mods[i].version);
    rc = step(s);
  }
  if (rc || PREP("INSERT INTO objects VALUES(?, ?, ?, ?, ?, ?, ?, ?)")) goto done;
  strata_buffer buf2 = { 0 };
  for (strata_object *o = strata_world_next_object(w, 0); o && !rc;
       o = strata_world_next_object(w, o->uid)) {
    sqlite3_bind_int64(s, 1, (sqlite3_int64)o->uid);
    bind_text(s, 2, o->kind);
    bind_text(s, 3, o->archetype);
    if (o->has_pos) {
      sqlite3_bind_int64(s, 4, (sqlite3_int64)o->map);
      sqlite3_bind_int64(s, 5, o->x);
      sqlite3_bind_int64(s, 6, o->y);
    }
    rc = bind_value(s, 7, &o->tags, &buf);
    if (!rc) rc = bind_value(s, 8, &o->props, &buf2);
    if (!rc) rc = step(s);
  }
  strata_buffer_free(&buf2);
  if (rc || PREP("INSERT INTO timers VALUES(?, ?, ?, ?, ?)")) goto done;
  for (size_t i = 0; i < strata_world_timer_count(w) && !rc; i++) {
    const strata_timer *t = strata_world_timer_at(w, i);
    sqlite3_bind_int64(s, 1, (sqlite3_int64)t->uid);
    sqlite3_bind_double(s, 2, t->due);
    sqlite3_bind_double(s, 3, t->every);
    bind_text(s, 4, t->handler);
    rc = bind_value(s, 5, &t->args, &buf);
    if (!rc) rc = step(s);
  }
  if (rc || PREP("INSERT INTO subscriptions VALUES(?, ?, ?, ?, ?, ?)")) goto done;
  for (size_t i = 0; i < strata_world_subscription_count(w) && !rc; i++) {
    const strata_subscription *u = strata_world_subscription_at(w, i);
    sqlite3_bind_int64(s, 1, (sqlite3_int64)u->uid);
    sqlite3_bind_int64(s, 2, (sqlite3_int64)u->object);
    bind_text(s, 3, u->event);
    bind_text(s, 4, u->handler);
    rc = bind_value(s, 5, &u->args, &buf);
    sqlite3_bind_int64(s, 6, u->priority);
    if (!rc) rc = step(s);
  }
  if (rc || PREP("INSERT INTO tiles VALUES(?, ?, ?, ?, ?)")) goto done;
  {
    strata_buffer cells = { 0 };
    for (strata_object *o = strata_world_next_object(w, 0); o && !rc;
         o = strata_world_next_object(w, o->uid)) {
      if (!o->tilemap) continue;
      if (!encode_tiles(o->tilemap, &buf, &cells)) { rc = SQLITE_NOMEM; break; }
      sqlite3_bind_int64(s, 1, (sqlite3_int64)o->uid);
      sqlite3_bind_int(s, 2, strata_tilemap_width(o->tilemap));
      sqlite3_bind_int(s, 3, strata_tilemap_height(o->tilemap));
      sqlite3_bind_blob(s, 4, buf.data, (int)buf.len, SQLITE_STATIC);
      sqlite3_bind_blob(s, 5, cells.data, (int)cells.len, SQLITE_STATIC);
      rc = step(s);
    }
    strata_buffer_free(&cells);
  }
  if (rc || PREP("INSERT INTO rng VALUES(?, ?)")) goto done;
  for (size_t i = 0; i < strata_world_stream_count(w) && !rc; i++) {
    strata_rng r;
    char state[STRATA_RNG_STATE_CHARS];
    const char *key = strata_world_stream_at(w, i, &r);
    strata_rng_format(&r, state);
    bind_text(s, 1, key);
    sqlite3_bind_text(s, 2, state, -1, SQLITE_TRANSIENT);
    rc = step(s);
  }
#undef PREP
done:
  sqlite3_finalize(s);
  strata_buffer_free(&buf);
  return rc;
}

/* fsync of a file or directory by name; 0 on success. */
static int sync_path(const char *path, int dir) {
  int fd = open(path, dir ? O_RDONLY | O_DIRECTORY : O_RDWR);
  if (fd < 0) return -1;
  int rc = fsync(fd);
  close(fd);
  return rc;
}

strata_status strata_world_save(const strata_world *w, const char *path,
                                const strata_mod_version *mods, size_t nmods, strata_error *err) {
  size_t n = strlen(path);
  char *tmp = malloc(n + 5);
  if (!tmp) return strata_error_set(err, STRATA_ENOMEM, "out of memory");
  memcpy(tmp, path, n);
  memcpy(tmp + n, ".tmp", 5);
  unlink(tmp); /* a leftover of an interrupted save */
  sqlite3 *db = NULL;
  strata_status st = STRATA_OK;
  if (sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
    st = db_error(err, db, "cannot create", tmp);
    goto fail;
  }
  /* The temporary file is worthless until renamed, so it needs no journal;
  ** durability comes from the fsync before the rename. */
  sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;", NULL, NULL, NULL);
  if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
      write_all(db, w, mods, nmods) != SQLITE_OK ||
      sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
    st = db_error(err, db, "cannot write", tmp);
    goto fail;
  }
  if (sqlite3_close(db) != SQLITE_OK) {
    st = db_error(err, db, "cannot close", tmp);
    db = NULL;
    goto fail;
  }
  db = NULL;
  if (sync_path(tmp, 0) != 0 || rename(tmp, path) != 0) {
    st = strata_error_set(err, STRATA_EIO, "cannot move the save into place at '%s'", path);
    goto fail;
  }
  {
    /* Make the rename itself durable. */
    char *slash = strrchr(tmp, '/');
    if (slash) { *slash = '\0'; sync_path(*tmp ? tmp : "/", 1); }
    else sync_path(".", 1);
  }
  free(tmp);
  return STRATA_OK;
fail:
  if (db) sqlite3_close(db);
  unlink(tmp);
  free(tmp);
  return st;
}

void strata_mod_versions_free(strata_mod_version *mods, size_t n) {
  if (!mods) return;
  for (size_t i = 0; i < n; i++) { free(mods[i].id); free(mods[i].version); }
  free(mods);
}

static char *col_dup(sqlite3_stmt *s, int col) {
  const unsigned char *t = sqlite3_column_text(s, col);
  if (!t) return NULL;
  size_t n = (size_t)sqlite3_column_bytes(s, col);
  char *p = malloc(n + 1);
  if (p) { memcpy(p, t, n); p[n] = '\0'; }
  return p;
}

static strata_status col_value(sqlite3_stmt *s, int col, strata_value *out, const char *what,
                               long long uid, strata_error *err) {
  const void *b = sqlite3_column_blob(s, col);
  int n = sqlite3_column_bytes(s, col);
  strata_error e;
  strata_error_clear(&e);
  if (!b || strata_value_decode(out, b, (size_t)n, &e) != STRATA_OK)
    return strata_error_set(err, STRATA_EPARSE, "corrupt save: %s of #%lld: %s", what, uid,
                            b ? e.message : "missing");
  return STRATA_OK;
}

static strata_status read_tiles(strata_world *w, sqlite3_stmt *s, long long uid,
                                strata_error *err) {
  int width = sqlite3_column_int(s, 1), height = sqlite3_column_int(s, 2);
  strata_value names;
  strata_status st = col_value(s, 3, &names, "tile tokens", uid, err);
  if (st) return st;
  if (names.type != STRATA_VTABLE) {
    strata_value_clear(&names);
    return strata_error_set(err, STRATA_EPARSE, "corrupt save: tile tokens of #%lld", uid);
  }
  strata_error e;
  /* On the world's table, like the maps the world makes: the names are
  ** interned there and the saved ids mapped to the world's. */
  strata_tilemap *m = strata_tilemap_new(width, height, strata_world_tokens(w), &e);
  size_t n = names.u.t->n;
  strata_token *map = m ? calloc(n + 1, sizeof *map) : NULL;
  if (!m || !map) {
    st = strata_error_set(err, STRATA_EPARSE, "corrupt save: tiles of #%lld: %s", uid,
                          m ? "out of memory" : e.message);
    goto out;
  }
  for (size_t i = 1; i <= n; i++) {
    strata_value k = strata_value_int((int64_t)i);
    const strata_value *v = strata_vtable_get(names.u.t, &k);
    if (!v || v->type != STRATA_VSTRING ||
        !(map[i] = strata_tokens_intern(strata_tilemap_tokens(m), v->u.str.s, v->u.str.len, &e))) {
      st = strata_error_set(err, STRATA_EPARSE, "corrupt save: tile token %zu of #%lld", i, uid);
      goto out;
    }
  }
  const unsigned char *p = sqlite3_column_blob(s, 4), *end = p + sqlite3_column_bytes(s, 4);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++) {
      uint64_t k = 0, id = 0;
      int shift = 0;
#define VARINT(out)                                                                 \
  do {                                                                              \
    out = 0; shift = 0;                                                             \
    for (;;) {                                                                      \
      if (!p || p >= end || shift > 56) goto bad;                                   \
      unsigned char c = *p++;                                                       \
      out |= (uint64_t)(c & 0x7f) << shift;                                         \
      shift += 7;                                                                   \
      if (!(c & 0x80)) break;                                                       \
    }                                                                               \
  } while (0)
      VARINT(k);
      for (uint64_t i = 0; i < k; i++) {
        VARINT(id);
        if (id == 0 || id > n) goto bad;
        if (strata_tilemap_set(m, x, y, map[id], &e)) goto bad;
      }
#undef VARINT
    }
  if (p != end) goto bad;
  if ((st = strata_world_attach_tilemap(w, (uint64_t)uid, m, err))) goto out;
  m = NULL;
  goto out;
bad:
  st = strata_error_set(err, STRATA_EPARSE, "corrupt save: tile cells of #%lld", uid);
out:
  strata_tilemap_free(m);
  free(map);
  strata_value_clear(&names);
  return st;
}

static strata_status read_all(sqlite3 *db, strata_world **out, strata_mod_version **mods_out,
                              size_t *nmods_out, strata_error *err) {
  sqlite3_stmt *s = NULL;
  strata_world *w = NULL;
  strata_mod_version *mods = NULL;
  size_t nmods = 0;
  strata_status st = STRATA_OK;
  double time = 0;
  uint64_t next_uid = 1, seed = 0;
  int have = 0;
#define PREP(sql)                                                                   \
  (sqlite3_finalize(s), s = NULL,                                                   \
   sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK                           \
     ? (st = strata_error_set(err, STRATA_EPARSE, "not a strata world save: %s",    \
                              sqlite3_errmsg(db)))                                  \
     : STRATA_OK)
  if (PREP("SELECT key, value FROM meta")) goto fail;
  while (sqlite3_step(s) == SQLITE_ROW) {
    const char *k = (const char *)sqlite3_column_text(s, 0);
    if (!k) continue;
    if (!strcmp(k, "format")) {
      const char *v = (const char *)sqlite3_column_text(s, 1);
      if (v && !strcmp(v, SAVE_FORMAT)) have |= 1;
    } else if (!strcmp(k, "version")) {
      int v = sqlite3_column_int(s, 1);
      if (v != SAVE_VERSION) {
        st = strata_error_set(err, STRATA_EPARSE,
                              "save schema version %d is not supported (this build reads %d)",
                              v, SAVE_VERSION);
        goto fail;
      }
      have |= 2;
    } else if (!strcmp(k, "seed")) {
      const char *v = (const char *)sqlite3_column_text(s, 1);
      if (v) { seed = strtoull(v, NULL, 10); have |= 4; }
    } else if (!strcmp(k, "time")) {
      time = sqlite3_column_double(s, 1);
      have |= 8;
    } else if (!strcmp(k, "next_uid")) {
      next_uid = (uint64_t)sqlite3_column_int64(s, 1);
      have |= 16;
    }
  }
  if (have != 31) {
    st = strata_error_set(err, STRATA_EPARSE, "not a strata world save (meta table incomplete)");
    goto fail;
  }
  if (!(w = strata_world_new(seed, err))) { st = STRATA_ENOMEM; goto fail; }
  if (PREP("SELECT id, version FROM mods ORDER BY ord")) goto fail;
  size_t cap = 0;
  while (sqlite3_step(s) == SQLITE_ROW) {
    if (nmods == cap) {
      cap = cap ? cap * 2 : 8;
      strata_mod_version *m = realloc(mods, cap * sizeof *m);
      if (!m) { st = strata_error_set(err, STRATA_ENOMEM, "out of memory"); goto fail; }
      mods = m;
    }
    mods[nmods].id = col_dup(s, 0);
    mods[nmods].version = col_dup(s, 1);
    nmods++;
    if (!mods[nmods - 1].id || !mods[nmods - 1].version) {
      st = strata_error_set(err, STRATA_EPARSE, "corrupt save: a mod row is incomplete");
      goto fail;
    }
  }
  if (PREP("SELECT uid, kind, archetype, map, x, y, tags, props FROM objects")) goto fail;
  while (sqlite3_step(s) == SQLITE_ROW) {
    strata_object o;
    memset(&o, 0, sizeof o);
    long long uid = sqlite3_column_int64(s, 0);
    o.uid = (uint64_t)uid;
    o.kind = col_dup(s, 1);
    o.archetype = col_dup(s, 2);
    if (sqlite3_column_type(s, 3) != SQLITE_NULL) {
      o.has_pos = 1;
      o.map = (uint64_t)sqlite3_column_int64(s, 3);
      o.x = sqlite3_column_int64(s, 4);
      o.y = sqlite3_column_int64(s, 5);
    }
    if (!o.kind) st = strata_error_set(err, STRATA_EPARSE, "corrupt save: object #%lld has no kind", uid);
    if (!st) st = col_value(s, 6, &o.tags, "tags", uid, err);
    if (!st) st = col_value(s, 7, &o.props, "properties", uid, err);
    if (!st && (o.tags.type != STRATA_VTABLE || o.props.type != STRATA_VTABLE))
      st = strata_error_set(err, STRATA_EPARSE, "corrupt save: object #%lld tags/properties are not tables", uid);
    if (!st) st = strata_world_restore_object(w, &o, err);
    if (st) {
      free(o.kind); free(o.archetype);
      strata_value_clear(&o.tags); strata_value_clear(&o.props);
      goto fail;
    }
  }
  if (PREP("SELECT uid, due, every, handler, args FROM timers")) goto fail;
  while (sqlite3_step(s) == SQLITE_ROW) {
    strata_timer t;
    memset(&t, 0, sizeof t);
    long long uid = sqlite3_column_int64(s, 0);
    t.uid = (uint64_t)uid;
    t.due = sqlite3_column_double(s, 1);
    t.every = sqlite3_column_double(s, 2);
    t.handler = col_dup(s, 3);
    st = col_value(s, 4, &t.args, "timer args", uid, err);
    if (!st) st = strata_world_restore_timer(w, &t, err);
    if (st) { strata_timer_clear(&t); goto fail; }
  }
  if (PREP("SELECT uid, object, event, handler, args, priority FROM subscriptions")) goto fail;
  while (sqlite3_step(s) == SQLITE_ROW) {
    strata_subscription u;
    memset(&u, 0, sizeof u);
    long long uid = sqlite3_column_int64(s, 0);
    u.uid = (uint64_t)uid;
    u.object = (uint64_t)sqlite3_column_int64(s, 1);
    u.event = col_dup(s, 2);
    u.handler = col_dup(s, 3);
    u.priority = sqlite3_column_int64(s, 5);
    st = col_value(s, 4, &u.args, "subscription args", uid, err);
    if (!st) st = strata_world_restore_subscription(w, &u, err);
    if (st) {
      free(u.event); free(u.handler); strata_value_clear(&u.args);
      goto fail;
    }
  }
  if (PREP("SELECT key, state FROM rng")) goto fail;
  while (sqlite3_step(s) == SQLITE_ROW) {
    strata_rng r;
    const char *key = (const char *)sqlite3_column_text(s, 0);
    const char *state = (const char *)sqlite3_column_text(s, 1);
    if (!key || !state || !strata_rng_parse(&r, state, strlen(state))) {
      st = strata_error_set(err, STRATA_EPARSE, "corrupt save: bad random stream state");
      goto fail;
    }
    if ((st = strata_world_set_stream(w, key, &r, err))) goto fail;
  }
  if (PREP("SELECT map, width, height, tokens, cells FROM tiles")) goto fail;
  while (sqlite3_step(s) == SQLITE_ROW) {
    long long uid = sqlite3_column_int64(s, 0);
    if ((st = read_tiles(w, s, uid, err))) goto fail;
  }
#undef PREP
  sqlite3_finalize(s);
  if (next_uid < strata_world_next_uid(w)) {
    st = strata_error_set(err, STRATA_EPARSE, "corrupt save: uid counter behind stored uids");
    strata_world_free(w);
    strata_mod_versions_free(mods, nmods);
    return st;
  }
  strata_world_restore_clock(w, time, next_uid);
  *out = w;
  *mods_out = mods;
  *nmods_out = nmods;
  return STRATA_OK;
fail:
  sqlite3_finalize(s);
  strata_world_free(w);
  strata_mod_versions_free(mods, nmods);
  if (st == STRATA_OK) st = strata_error_set(err, STRATA_EPARSE, "unreadable save");
  return st;
}

strata_status strata_world_open(const char *path, strata_world **out, strata_mod_version **mods,
                                size_t *nmods, strata_error *err) {
  sqlite3 *db = NULL;
  if (access(path, R_OK) != 0)
    return strata_error_set(err, STRATA_EIO, "cannot open '%s': no such readable file", path);
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    strata_status st = db_error(err, db, "cannot open", path);
    sqlite3_close(db);
    return st;
  }
  strata_error e;
  strata_error_clear(&e);
  strata_status st = read_all(db, out, mods, nmods, &e);
  sqlite3_close(db);
  if (st) strata_error_set(err, st, "cannot open '%s': %s", path, e.message);
  return st;
}
