/*
** save.c - worlds in SQLite files, and the rows of every store.
**
** The rows (what each holds, its checksum, each table's count and sum, the
** generation) are written and read here, once, through a store (store.h):
** the SQLite file's (store_sqlite.c) or a PostgreSQL database's
** (store_pg.c), which only move rows. What follows of files (the temporary
** renamed over the target, the journal beside it, the path's lock) is the
** SQLite file's; a database's transaction does that work for store_pg.c.
**
** A save writes a fresh database next to the target (path + ".tmp") in one
** transaction, flushes it to disk and renames it over the target; rename is
** atomic, so a crash at any instant leaves the old file or the new one.
** Opening reads everything into a new world and validates it; any problem
** frees that world, so the caller never sees a half-loaded one.
**
** A save cannot lie (format 3; a format-2 file, from strata < 0.2, is
** refused saying so): the schema must be
** exactly this one (the tables, their columns, nothing else: no view,
** trigger or index); meta holds
** each table's row count; every row ends with a checksum of its contents
** (the table's name, the file's id and each column's type and bytes), so a
** row is checked on its own and a save that rewrote only what changed would
** stay cheap; meta sums each table's checksums, and its own rows, so that
** rows valid in another save do not pass for this one's. Any read error, a
** count, checksum or sum that does not match, or a value out of range is
** "cannot open". A progress handler bounds the work of any query by
** the size of the file, and memory at open follows the file (tile cells are
** at least a byte each; objects are kept in pages, not by largest uid).
** Maps are stored by chunks of TILEMAP_CHUNK x TILEMAP_CHUNK cells, a row
** each, so that a save to the world's file writes only the chunks edited.
*/
#include "strata/file.h"
#include "strata/alloc.h"
#include "file_internal.h"
#include "strata/world.h"
#include "tilemap_internal.h" /* revision: what changed since the last save */
#include "world_internal.h"   /* strata_world_restore_*, the dirty record */
#include "rowsum.h"
#include "pg_uri.h"
#include "store.h"
#include "serve_internal.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAVE_FORMAT "strata-world"
/* How long a save or an open waits for another process's save to finish. */
#define STRATA_SAVE_BUSY_MS 2000
/* The format written; format 3 (row checksums by FNV-1a, rowsum.h) is read
** too, and a save into such a file writes it whole. */
#define SAVE_VERSION 4
int save_version_read(int64_t v) { return v == 3 || v == SAVE_VERSION; }

/* The tables, their columns and the order they are written and read
** (store.h): the same in every store. */
#define NTABLES STORE_NTABLES
#define table_names(t) (store_tables[t].name)

/* ---- row checksums ----
** Every row ends with its checksum (rowsum.h: the table's name, file.id and
** the columns, hashed by the format's function).
**
** Each table's rows are summed in meta (sum.<table>: the sum mod 2^64 of
** mix(checksum) over its rows, which a save keeps by subtracting a deleted
** row's and adding a new one's, whatever the order), and sum.meta sums meta's
** other rows (the generation, the counts and those sums): a row of another
** save of this file, valid on its own, or a row gone with its count, no
** longer adds up. */
static void sum_seeds(uint64_t seeds[NTABLES], uint64_t file_id, int words) {
  for (int t = 0; t < NTABLES; t++) seeds[t] = rowsum_seed(table_names(t), file_id, words);
}
static int64_t sum_value(const rowsum *r) { return (int64_t)r->h; }

/* What a row's checksum adds to its table's sum: FNV-1a's bits mixed
** (splitmix64's finalizer), so that sums of related rows do not cancel. */
static uint64_t sum_mix(int64_t sum) {
  uint64_t z = (uint64_t)sum;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The checksum of a row read: its n columns but the last. */
static int64_t sum_row(const store_val *col, int n, uint64_t seed, int words) {
  rowsum r = { seed, words };
  for (int c = 0; c < n - 1; c++) {
    const store_val *v = &col[c];
    switch (v->type) {
    case SV_INT: rowsum_int(&r, v->i); break;
    case SV_REAL: rowsum_real(&r, v->r); break;
    case SV_TEXT: case SV_BLOB: rowsum_typed(&r, v->type, v->p, v->n); break;
    default: rowsum_null(&r);
    }
  }
  return (int64_t)r.h;
}

/* Tiles: tokens is a value list of token names (index = saved id); cells holds,
** row by row, each cell's stack size then its saved ids, as varints. */
static int put_varint(strata_buffer *b, uint64_t v) {
  /* (a first block of 4 KB: a map's cells) */
  if (b->len + 10 > b->cap && !STRATA_GROW(b->data, b->cap, b->len + 10 < 4096 ? 4096 : b->len + 10))
    return 0;
  do {
    unsigned char c = v & 0x7f;
    v >>= 7;
    b->data[b->len++] = c | (v ? 0x80 : 0);
  } while (v);
  return 1;
}

/* A cell's stack as the map holds it (tilemap_internal.h): one token in
** place, or a side stack; *one is where a single token is put. Read
** directly: encoding walks every cell twice, and the public accessor's
** checks per cell were most of an incremental save's time. */
static const strata_token *cell_stack(const strata_tilemap *m, size_t i, strata_token *one, uint32_t *k) {
  uint32_t v = m->cells[i];
  if (v == 0) { *k = 0; return one; }
  if (!(v & CELL_STACK)) { *one = v; *k = 1; return one; }
  const side_stack *st = &m->stacks[v & ~CELL_STACK];
  *k = st->len;
  return st->items;
}

/* Chunk c of map m: its cells [x0, x1) x [y0, y1). */
typedef struct chunk_rect { int x0, y0, x1, y1; } chunk_rect;

static chunk_rect chunk_at(const strata_tilemap *m, uint32_t c) {
  chunk_rect r;
  r.x0 = (int)((c % m->chunk_cols) << TILEMAP_CHUNK_SHIFT);
  r.y0 = (int)((c / m->chunk_cols) << TILEMAP_CHUNK_SHIFT);
  r.x1 = r.x0 + (int)TILEMAP_CHUNK < m->width ? r.x0 + (int)TILEMAP_CHUNK : m->width;
  r.y1 = r.y0 + (int)TILEMAP_CHUNK < m->height ? r.y0 + (int)TILEMAP_CHUNK : m->height;
  return r;
}

/* One chunk's row: the names list holds only the tokens its cells use,
** numbered in the order of their ids: the world's maps share one table,
** which holds every map's tokens (and any a rolled-back savepoint
** interned), and none of the other chunks' business belongs in this row,
** which is read on its own. */
static int encode_chunk(const strata_tilemap *m, chunk_rect rc, strata_buffer *names, strata_buffer *cells) {
  strata_tokens *t = strata_tilemap_tokens(m);
  uint32_t n = strata_tokens_count(t);
  uint32_t *saved = strata_calloc((size_t)n + 1, sizeof *saved); /* id -> saved id, 0: unused */
  strata_value list;
  if (!saved) return 0;
  if (strata_value_table(&list, NULL)) { strata_free(saved); return 0; }
  strata_token one;
  uint32_t k;
  int ok = 1;
  for (int y = rc.y0; y < rc.y1; y++)
    for (size_t c = (size_t)y * (size_t)m->width + (size_t)rc.x0, e = c + (size_t)(rc.x1 - rc.x0); c < e; c++) {
      const strata_token *st = cell_stack(m, c, &one, &k);
      for (uint32_t i = 0; i < k; i++)
        if (st[i] <= n) saved[st[i]] = 1;
        else ok = 0; /* never: the map's ids come from its table */
    }
  uint32_t next = 0;
  for (uint32_t id = 1; id <= n && ok; id++) {
    if (!saved[id]) continue;
    saved[id] = ++next;
    size_t len;
    const char *name = strata_tokens_name(t, id, &len);
    strata_value key = strata_value_int(next), v = strata_value_nil();
    ok = name && !strata_value_string(&v, name, len, NULL);
    if (ok && strata_vtable_set(list.u.t, &key, &v, NULL)) { strata_value_clear(&v); ok = 0; }
  }
  names->len = 0;
  ok = ok && strata_value_encode(&list, names, NULL) == STRATA_OK;
  strata_value_clear(&list);
  cells->len = 0;
  for (int y = rc.y0; y < rc.y1 && ok; y++)
    for (size_t c = (size_t)y * (size_t)m->width + (size_t)rc.x0, e = c + (size_t)(rc.x1 - rc.x0); c < e && ok; c++) {
      const strata_token *st = cell_stack(m, c, &one, &k);
      ok = put_varint(cells, k);
      for (uint32_t i = 0; i < k && ok; i++) ok = put_varint(cells, saved[st[i]]);
    }
  strata_free(saved);
  return ok;
}

static strata_status db_error(strata_error *err, sqlite3 *db, const char *what, const char *path) {
  return strata_error_set(err, STRATA_EIO, "%s '%s': %s", what, path,
                          db ? sqlite3_errmsg(db) : "cannot open");
}

/* Setting a column also feeds it to the row's checksum (r); the row (s)
** goes to the store once whole. col counts from 1. */
static int b_blob(store_val *s, rowsum *r, int col, const void *p, size_t n) {
  rowsum_typed(r, SV_BLOB, p, n);
  s[col - 1] = (store_val){ .type = SV_BLOB, .p = n ? p : "", .n = n };
  return 0;
}

/* The encoding of an empty table (value.c), which objects without tags save. */
static const unsigned char empty_table[2] = { 6, 0 };

static int b_value(store_val *s, rowsum *r, int col, const strata_value *v, strata_buffer *buf) {
  buf->len = 0;
  strata_value nil = strata_value_nil();
  strata_status st = strata_value_encode(v ? v : &nil, buf, NULL);
  if (st) return st == STRATA_ENOMEM ? STORE_NOMEM : STORE_TOOBIG; /* (too deep: never set so) */
  return b_blob(s, r, col, buf->data, buf->len);
}

static void b_null(store_val *s, rowsum *r, int col) {
  rowsum_null(r);
  s[col - 1] = (store_val){ .type = SV_NULL };
}

/* (The string must stay as it is until the row is written.) */
static void b_text(store_val *s, rowsum *r, int col, const char *t) {
  if (!t) { b_null(s, r, col); return; }
  size_t n = strlen(t);
  rowsum_typed(r, SV_TEXT, t, n);
  s[col - 1] = (store_val){ .type = SV_TEXT, .p = t, .n = n };
}

static void b_int(store_val *s, rowsum *r, int col, int64_t v) {
  rowsum_int(r, v);
  s[col - 1] = (store_val){ .type = SV_INT, .i = v };
}

static void b_real(store_val *s, rowsum *r, int col, double v) {
  rowsum_real(r, v);
  s[col - 1] = (store_val){ .type = SV_REAL, .r = v };
}


/* ---- the save's generation ----
** Every save writes in meta: file.id, a random 64-bit id drawn by each full
** save (the file's identity, kept by the incremental saves into it); save.id,
** drawn by every save; save.prev, the save.id it followed; save.count, the
** saves so far. A world remembers the save.id it opened or last saved
** (world_internal.h), which tells whether another process saved there
** since. An incremental save writes these rows first, so that its journal's
** first page holds the save.id it started from: how an open knows that a
** PATH-journal is this file's (check_beside). Ids are 16 hex digits (text:
** a uint64 does not fit SQLite's signed integer). */
#define GEN_ROWS 4
#define GEN_BIT (1 << 13) /* meta_row's bit of the first, past the required rows' */
#define SUM_BIT (1 << 17) /* meta_row's bit of sum.meta, the first sum, past the generation's */
static const char *const gen_keys[GEN_ROWS] = { "file.id", "save.id", "save.prev", "save.count" };

static void hex16(uint64_t v, char out[17]) { snprintf(out, 17, "%016llx", (unsigned long long)v); }

/* *out from 16 lowercase hex digits; 0 when s is not that. */
static int parse_hex16(const char *s, size_t n, uint64_t *out) {
  uint64_t v = 0;
  if (!s || n != 16) return 0;
  for (size_t i = 0; i < 16; i++) {
    int c = s[i], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return 0;
    v = v << 4 | (uint64_t)d;
  }
  *out = v;
  return 1;
}

/* ---- rows ----
** One function per table binds a row (feeding its checksum) and inserts it;
** the full save and the incremental one write the same rows. */
typedef struct writer {
  store *st;                  /* where the rows go */
  int64_t next_id;            /* full saves: the next map's first chunk row */
  strata_buffer buf, buf2, cells;
  int64_t rows[NTABLES];      /* rows each table holds */
  uint64_t sums[NTABLES];     /* and their sum (sum_mix of each checksum) */
  uint64_t seeds[NTABLES];    /* where each table's row checksums start */
  save_gen gen;               /* what meta says of this save */
  int served;                 /* a served world's save (serve.c): meta's clock and counter are these */
  double time;
  uint64_t next_uid;
} writer;

static void writer_init(writer *wr, store *st, const save_gen *gen) {
  memset(wr, 0, sizeof *wr);
  wr->st = st;
  wr->next_id = 1;
  wr->gen = *gen;
  sum_seeds(wr->seeds, gen->file_id, 1);
}

/* A row of table t: its checksum, started for this file. */
static void row_start(const writer *wr, rowsum *r, int t) { r->h = wr->seeds[t]; r->words = 1; }

/* Sets the checksum as the row's last column (col) and writes the row of
** table t, counting it in the table's count and sum; returns a store code. */
static int step(writer *wr, int t, store_val *s, const rowsum *r, int col) {
  s[col - 1] = (store_val){ .type = SV_INT, .i = sum_value(r) };
  int rc = wr->st->ops->put(wr->st, t, s);
  if (rc) return rc;
  wr->rows[t]++;
  wr->sums[t] += sum_mix(sum_value(r));
  return 0;
}

static void writer_done(writer *wr) {
  strata_buffer_free(&wr->buf);
  strata_buffer_free(&wr->buf2);
  strata_buffer_free(&wr->cells);
}

/* A deleted row (of table t) out of its table's sum and count. */
static void gone(void *ud, int t, int64_t sum) {
  writer *wr = ud;
  wr->sums[t] -= sum_mix(sum);
  wr->rows[t]--;
}

/* Deletes table t's rows of keys [a, b) (mods and rng: all), their
** checksums taken out of the table's sum and the rows out of its count
** (by the store's next sync at the latest). */
static int delete_rows(writer *wr, int t, int64_t a, int64_t b) { return wr->st->ops->del(wr->st, t, a, b, gone, wr); }

static int put_mod(writer *wr, int64_t ord, const strata_mod_version *m) {
  store_val s[4];
  rowsum r;
  row_start(wr, &r, T_MODS);
  b_int(s, &r, 1, ord);
  b_text(s, &r, 2, m->id);
  b_text(s, &r, 3, m->version);
  return step(wr, T_MODS, s, &r, 4);
}

static int put_object(writer *wr, const strata_object *o) {
  store_val s[9];
  rowsum r;
  int rc;
  row_start(wr, &r, T_OBJECTS);
  b_int(s, &r, 1, (int64_t)o->uid);
  b_text(s, &r, 2, o->kind);
  b_text(s, &r, 3, o->archetype);
  if (o->has_pos) {
    b_int(s, &r, 4, (int64_t)o->map);
    b_int(s, &r, 5, o->x);
    b_int(s, &r, 6, o->y);
  } else {
    b_null(s, &r, 4); b_null(s, &r, 5); b_null(s, &r, 6);
  }
  /* No tags (nil in memory) are saved as the empty table they were before. */
  rc = o->tags.type == STRATA_VNIL ? b_blob(s, &r, 7, empty_table, sizeof empty_table)
                                   : b_value(s, &r, 7, &o->tags, &wr->buf);
  /* Properties still as the file held them go back as they were. */
  if (!rc) rc = world_props_lazy(o) ? b_blob(s, &r, 8, o->props.u.str.s, o->props.u.str.len)
                                    : b_value(s, &r, 8, &o->props, &wr->buf2);
  if (!rc) rc = step(wr, T_OBJECTS, s, &r, 9);
  return rc;
}

static int put_timer(writer *wr, const strata_timer *t) {
  store_val s[6];
  rowsum r;
  row_start(wr, &r, T_TIMERS);
  b_int(s, &r, 1, (int64_t)t->uid);
  b_real(s, &r, 2, t->due);
  b_real(s, &r, 3, t->every);
  b_text(s, &r, 4, t->handler);
  int rc = b_value(s, &r, 5, &t->args, &wr->buf);
  if (!rc) rc = step(wr, T_TIMERS, s, &r, 6);
  return rc;
}

static int put_sub(writer *wr, const strata_subscription *u) {
  store_val s[7];
  rowsum r;
  row_start(wr, &r, T_SUBS);
  b_int(s, &r, 1, (int64_t)u->uid);
  b_int(s, &r, 2, (int64_t)u->object);
  b_text(s, &r, 3, u->event);
  b_text(s, &r, 4, u->handler);
  int rc = b_value(s, &r, 5, &u->args, &wr->buf);
  b_int(s, &r, 6, u->priority);
  if (!rc) rc = step(wr, T_SUBS, s, &r, 7);
  return rc;
}

static int put_chunk(writer *wr, const strata_object *o, int64_t first, uint32_t c) {
  store_val s[6];
  rowsum r;
  if (!encode_chunk(o->tilemap, chunk_at(o->tilemap, c), &wr->buf, &wr->cells)) return STORE_NOMEM;
  row_start(wr, &r, T_TILES);
  b_int(s, &r, 1, first + c);
  b_int(s, &r, 2, (int64_t)o->uid);
  b_int(s, &r, 3, (int64_t)c);
  b_blob(s, &r, 4, wr->buf.data, wr->buf.len);
  b_blob(s, &r, 5, wr->cells.data, wr->cells.len);
  return step(wr, T_TILES, s, &r, 6);
}

static uint32_t chunk_count(const strata_tilemap *m) { return m->chunk_cols * m->chunk_rows; }

/* A map whole: its maps row and every chunk's, as rows first .. */
static int put_tiles(writer *wr, const strata_object *o, int64_t first) {
  store_val s[5];
  rowsum r;
  row_start(wr, &r, T_MAPS);
  b_int(s, &r, 1, (int64_t)o->uid);
  b_int(s, &r, 2, strata_tilemap_width(o->tilemap));
  b_int(s, &r, 3, strata_tilemap_height(o->tilemap));
  b_int(s, &r, 4, first);
  int rc = step(wr, T_MAPS, s, &r, 5);
  for (uint32_t c = 0; c < chunk_count(o->tilemap) && !rc; c++) rc = put_chunk(wr, o, first, c);
  return rc;
}

/* Incremental saves: where the file holds uid's chunks (*first, *n; *n = 0
** when it holds no map for uid), or, with uid 0, the row after the last. */
static int find_map(writer *wr, uint64_t uid, int64_t *first, int64_t *n) {
  store *st = wr->st;
  *first = *n = 0;
  if (!uid) {
    int rc = st->ops->last(st, T_TILES, first);
    ++*first;
    return rc;
  }
  store_val key = { .type = SV_INT, .i = (int64_t)uid }, row[5];
  int got = st->ops->get(st, T_MAPS, &key, row);
  if (got < 0) return -got;
  if (got) {
    int64_t c = TILEMAP_CHUNK;
    *first = row[3].i;
    *n = (row[1].i + c - 1) / c * ((row[2].i + c - 1) / c);
  }
  return 0;
}

/* Deletes the chunk rows first .. first + n - 1. */
static int delete_chunks(writer *wr, int64_t first, int64_t n) { return delete_rows(wr, T_TILES, first, first + n); }

static int put_streams(writer *wr, const strata_world *w) {
  store_val s[3];
  rowsum r;
  int rc = 0;
  for (size_t i = 0; i < strata_world_stream_count(w) && !rc; i++) {
    strata_rng g;
    char state[STRATA_RNG_STATE_CHARS];
    const char *key = strata_world_stream_at(w, i, &g);
    strata_rng_format(&g, state);
    row_start(wr, &r, T_RNG);
    b_text(s, &r, 1, key);
    b_text(s, &r, 2, state);
    rc = step(wr, T_RNG, s, &r, 3);
  }
  return rc;
}

/* The generation's rows (INSERT OR REPLACE: an incremental save rewrites them). */
static int put_gen(writer *wr) {
  store_val s[3];
  rowsum r;
  char id[GEN_ROWS][17];
  int rc = 0;
  for (int i = 0; i < GEN_ROWS && !rc; i++) {
    row_start(wr, &r, T_META);
    b_text(s, &r, 1, gen_keys[i]);
    if (i == 3) {
      b_int(s, &r, 2, (int64_t)wr->gen.count);
    } else {
      hex16(i == 0 ? wr->gen.file_id : i == 1 ? wr->gen.save_id : wr->gen.prev, id[i]);
      b_text(s, &r, 2, id[i]);
    }
    rc = step(wr, T_META, s, &r, 3);
  }
  return rc;
}

/* The page-1 tag of a save: the file header's user_version holds it, meta's
** save.id names it. Page 1 (the header, the schema) holds no row, so only
** this tells one left from an earlier save (a lost write) from this one's;
** 31 bits, as PRAGMA user_version is a signed 32-bit integer. */
static int64_t header_tag(uint64_t save_id) { return (int64_t)(save_id & 0x7fffffff); }

/* After every other meta row: each table's sum, then meta's own (the sum of
** every meta row written before it: an incremental save rewrites them all),
** and the header's tag. */
static int put_sums(writer *wr) {
  store_val s[3];
  rowsum r;
  char key[64];
  int rc = 0;
  for (int i = 1; i <= NTABLES && !rc; i++) {
    int t = i % NTABLES; /* mods .. tiles, then meta */
    snprintf(key, sizeof key, "sum.%s", table_names(t));
    row_start(wr, &r, T_META);
    b_text(s, &r, 1, key);
    b_int(s, &r, 2, (int64_t)wr->sums[t]);
    rc = step(wr, T_META, s, &r, 3);
  }
  if (!rc) rc = wr->st->ops->put_tag(wr->st, header_tag(wr->gen.save_id));
  return rc;
}

/* meta last: it holds every other table's row count and sum. INSERT OR
** REPLACE: an incremental save rewrites the rows in place. */
static int put_meta(writer *wr, const strata_world *w) {
  store_val s[3];
  rowsum r;
  char tmp[64];
  int rc = 0;
  wr->sums[T_META] = 0; /* what sum.meta covers: the rows written from here */
  for (int i = 0; i < 5 + NTABLES - 1 && !rc; i++) {
    row_start(wr, &r, T_META);
    if (i < 5) {
      const char *keys[] = { "format", "version", "seed", "time", "next_uid" };
      b_text(s, &r, 1, keys[i]);
      switch (i) {
      case 0: b_text(s, &r, 2, SAVE_FORMAT); break;
      case 1: b_int(s, &r, 2, SAVE_VERSION); break;
      case 2: /* text: a uint64 seed does not fit SQLite's signed integer */
        snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)strata_world_seed(w));
        b_text(s, &r, 2, tmp);
        break;
      case 3: b_real(s, &r, 2, wr->served ? wr->time : strata_world_time(w)); break;
      case 4: b_int(s, &r, 2, (int64_t)(wr->served ? wr->next_uid : strata_world_next_uid(w))); break;
      }
    } else {
      int t = i - 5 + 1; /* mods .. tiles */
      snprintf(tmp, sizeof tmp, "rows.%s", table_names(t));
      b_text(s, &r, 1, tmp);
      b_int(s, &r, 2, wr->rows[t]);
    }
    rc = step(wr, T_META, s, &r, 3);
  }
  if (!rc) rc = put_gen(wr);
  return rc ? rc : put_sums(wr);
}

static int write_all(writer *wr, const strata_world *w, const strata_mod_version *mods,
                     size_t nmods) {
  int rc = 0;
  for (size_t i = 0; i < nmods && !rc; i++) rc = put_mod(wr, (int64_t)i, &mods[i]);
  for (strata_object *o = world_next(w, 0); o && !rc; o = world_next(w, o->uid))
    rc = put_object(wr, o);
  for (size_t i = 0; i < strata_world_timer_count(w) && !rc; i++)
    rc = put_timer(wr, strata_world_timer_at(w, i));
  for (size_t i = 0; i < strata_world_subscription_count(w) && !rc; i++)
    rc = put_sub(wr, strata_world_subscription_at(w, i));
  for (strata_object *o = world_next(w, 0); o && !rc; o = world_next(w, o->uid))
    if (o->tilemap) {
      rc = put_tiles(wr, o, wr->next_id);
      wr->next_id += chunk_count(o->tilemap);
    }
  if (!rc) rc = put_streams(wr, w);
  if (!rc) rc = put_meta(wr, w);
  return rc;
}

/* Whether the file holds another map for the object (written whole), or
** this one (then only the chunks stamped past the revision it was saved
** at are written: every tile edit stamps, whoever makes it, so a missing
** strata_world_touch loses nothing). */
static int other_map(const strata_object *o) {
  return o->tilemap->saved_id != o->tilemap->id;
}

/* The rows of what changed since the file was written (world_dirty.c), in
** the transaction the caller opened: each dirty uid's row is deleted and
** written again as it is now, keeping every table's row count, which must
** then be the world's. *mismatch: it is not (the file is not what the
** record says), and the caller writes everything instead. */
/* Subscriptions are kept in uid order: found by bisection. */
static size_t find_sub(const strata_world *w, uint64_t uid) {
  size_t lo = 0, hi = w->nsubs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (w->subs[mid].uid < uid) lo = mid + 1; else hi = mid;
  }
  return lo < w->nsubs && w->subs[lo].uid == uid ? lo : (size_t)-1;
}

/* uid's row as it is now: a uid names one thing, but it may be gone: its
** row goes from each table, and the thing it names now (if any) is written. */
static int write_uid(writer *wr, const strata_world *w, uint64_t uid) {
  const strata_object *o = world_rec(w, uid); /* props maybe encoded: put_object writes them so */
  size_t ti = o ? (size_t)-1 : world_find_timer(w, uid); /* (the world's index by uid) */
  size_t si = o || ti != (size_t)-1 ? (size_t)-1 : find_sub(w, uid);
  int rc = delete_rows(wr, T_OBJECTS, (int64_t)uid, (int64_t)uid + 1);
  if (!rc) rc = delete_rows(wr, T_TIMERS, (int64_t)uid, (int64_t)uid + 1);
  if (!rc) rc = delete_rows(wr, T_SUBS, (int64_t)uid, (int64_t)uid + 1);
  if (rc) return rc;
  if (o) return put_object(wr, o);
  if (ti != (size_t)-1) return put_timer(wr, &w->timers[ti]);
  if (si != (size_t)-1) return put_sub(wr, &w->subs[si]);
  return 0;
}

/* The tiles of uid, which was given a map since the last full save: the
** chunks edited since the save, or the whole map when it is another one;
** its rows deleted when the object or its map is gone. *maps and *chunks
** count what the store holds after. *mismatch: the store's map is not the
** one the record describes. */
static int write_map(writer *wr, const strata_world *w, uint64_t uid, int64_t *maps, int64_t *chunks,
                     int *mismatch) {
  const strata_object *o = world_rec(w, uid);
  const strata_tilemap *m = o ? o->tilemap : NULL;
  if (m) ++*maps, *chunks += chunk_count(m);
  uint64_t saved = m ? m->saved_rev : 0;
  if (m && !other_map(o) && m->revision == saved) return 0;
  int64_t first, n;
  int rc = find_map(wr, uid, &first, &n);
  if (rc) return rc;
  if (m && !other_map(o)) {
    if (n != chunk_count(m)) { *mismatch = 1; return 0; } /* not the file the record describes */
    for (uint32_t c = 0; c < chunk_count(m) && !rc; c++)
      if (m->chunk_rev[c] > saved) {
        rc = delete_chunks(wr, first + c, 1);
        if (!rc) rc = put_chunk(wr, o, first, c);
      }
    return rc;
  }
  rc = delete_rows(wr, T_MAPS, (int64_t)uid, (int64_t)uid + 1);
  if (!rc && n) rc = delete_chunks(wr, first, n);
  if (!rc && m && !(rc = find_map(wr, 0, &first, &n))) rc = put_tiles(wr, o, first);
  return rc;
}

static int write_changes(writer *wr, strata_world *w, const strata_mod_version *mods,
                       size_t nmods, int *mismatch) {
  int rc = 0;
  *mismatch = 0;
  for (size_t i = 0; i < w->dirty.cap && !rc; i++)
    if (w->dirty.keys[i]) rc = write_uid(wr, w, w->dirty.keys[i]);
  /* Tiles: every uid that was given a map. */
  int64_t maps = 0, chunks = 0;
  for (size_t i = 0; i < w->maps.cap && !rc && !*mismatch; i++)
    if (w->maps.keys[i]) rc = write_map(wr, w, w->maps.keys[i], &maps, &chunks, mismatch);
  if (*mismatch) return rc;
  if (!rc && w->streams_dirty) {
    rc = delete_rows(wr, T_RNG, 0, 0);
    if (!rc) rc = put_streams(wr, w);
  }
  if (!rc) rc = delete_rows(wr, T_MODS, 0, 0);
  for (size_t i = 0; i < nmods && !rc; i++) rc = put_mod(wr, (int64_t)i, &mods[i]);
  if (!rc) rc = wr->st->ops->sync(wr->st); /* the counts final */
  if (rc || *mismatch) return rc;
  if (wr->rows[T_OBJECTS] != (int64_t)w->count || wr->rows[T_TIMERS] != (int64_t)w->ntimers ||
      wr->rows[T_SUBS] != (int64_t)w->nsubs || wr->rows[T_RNG] != (int64_t)w->nstreams ||
      wr->rows[T_MAPS] != maps || wr->rows[T_TILES] != chunks || wr->rows[T_MODS] != (int64_t)nmods) {
    *mismatch = 1;
    return 0;
  }
  return put_meta(wr, w);
}

/* ---- files beside a save ----
** SQLite reads PATH-wal and PATH-journal when it opens PATH, and writes them
** into it: a WAL is checkpointed, a hot journal rolled back. strata writes
** no WAL, so one is refused; a journal is left to SQLite only when it is the
** journal of an interrupted save of this file: its first page is the meta
** page as the save found it (the save rewrites its generation rows first,
** put_gen), whose save.id this file's same page still holds, as save.id (the
** save never wrote that page back) or as save.prev (it did). Any other
** journal would write another file's pages into this one. */

static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A SQLite varint at p (before end): its length, 0 when it runs past end. */
static int get_varint(const unsigned char *p, const unsigned char *end, uint64_t *v) {
  *v = 0;
  for (int i = 0; i < 9 && p + i < end; i++) {
    if (i == 8) { *v = *v << 8 | p[i]; return 9; }
    *v = *v << 7 | (p[i] & 0x7f);
    if (!(p[i] & 0x80)) return i + 1;
  }
  return 0;
}

/* The live save.id and save.prev of a meta page (an index b-tree leaf, as a
** WITHOUT ROWID table's; its header at hdr: 100 on page 1); 0 when absent.
** Returns whether it is a meta page (its format row says strata-world). */
static int page_gen(const unsigned char *pg, size_t size, size_t hdr, uint64_t *id, uint64_t *prev) {
  int meta = 0;
  *id = *prev = 0;
  if (hdr + 8 > size || pg[hdr] != 10) return 0;
  unsigned ncells = (unsigned)pg[hdr + 3] << 8 | pg[hdr + 4];
  const unsigned char *end = pg + size;
  for (unsigned c = 0; c < ncells && hdr + 8 + 2 * c + 2 <= size; c++) {
    size_t at = (size_t)pg[hdr + 8 + 2 * c] << 8 | pg[hdr + 9 + 2 * c];
    uint64_t len, hlen, type[2];
    const unsigned char *p = pg + at;
    int k, k2;
    if (at >= size || !(k = get_varint(p, end, &len)) || (p += k) + len > end) continue;
    const unsigned char *rec = p;
    if (!(k = get_varint(p, end, &hlen)) || hlen > len) continue;
    p += k;
    if (!(k = get_varint(p, end, &type[0])) || !(k2 = get_varint(p + k, end, &type[1]))) continue;
    /* key and value both text (odd serial types from 13): the ids are */
    if (type[0] < 13 || !(type[0] & 1) || type[1] < 13 || !(type[1] & 1)) continue;
    uint64_t klen = (type[0] - 13) / 2, vlen = (type[1] - 13) / 2;
    const unsigned char *key = rec + hlen, *val = key + klen;
    if (val + vlen > rec + len) continue;
    uint64_t v;
    if (klen == 6 && !memcmp(key, "format", 6) && vlen == strlen(SAVE_FORMAT) && !memcmp(val, SAVE_FORMAT, vlen))
      meta = 1;
    if (!parse_hex16((const char *)val, (size_t)vlen, &v)) continue;
    if (klen == 7 && !memcmp(key, "save.id", 7)) *id = v;
    else if (klen == 9 && !memcmp(key, "save.prev", 9)) *prev = v;
  }
  return meta;
}

/* Whether journal (open as fd) is this file's, or changes nothing (a
** header alone, the file at the size it names). */
static int own_journal(int fd, const char *path) {
  static const unsigned char magic[8] = { 0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7 };
  unsigned char h[28], dbh[100];
  struct stat js, ds;
  int dfd = open(path, O_RDONLY | O_CLOEXEC);
  int ok = 0;
  if (dfd < 0 || fstat(fd, &js) != 0 || fstat(dfd, &ds) != 0 || pread(fd, h, 28, 0) != 28 ||
      memcmp(h, magic, 8) || pread(dfd, dbh, 100, 0) != 100) {
    if (dfd >= 0) close(dfd);
    return 0;
  }
  uint32_t npages = be32(h + 16), sector = be32(h + 20), pgsz = be32(h + 24);
  uint32_t dbpgsz = (uint32_t)dbh[16] << 8 | dbh[17];
  if (dbpgsz == 1) dbpgsz = 65536;
  unsigned char *img = NULL, *mine = NULL;
  if (pgsz != dbpgsz || pgsz < 512 || pgsz > 65536 || (pgsz & (pgsz - 1)) || sector < 512 || sector > 65536 ||
      (sector & (sector - 1))) {
    ok = 0;
  } else if ((uint64_t)js.st_size < (uint64_t)sector + 8 + pgsz) {
    ok = (uint64_t)npages * pgsz == (uint64_t)ds.st_size; /* no page: a rollback only truncates */
  } else if ((img = strata_malloc(pgsz + 4)) && (mine = strata_malloc(pgsz)) && pread(fd, img, pgsz + 4, sector) == (ssize_t)pgsz + 4) {
    uint32_t pgno = be32(img);
    uint64_t jid, jprev, id, prev;
    size_t hdr = pgno == 1 ? 100 : 0;
    ok = pgno >= 1 && page_gen(img + 4, pgsz, hdr, &jid, &jprev) &&
         pread(dfd, mine, pgsz, (off_t)(pgno - 1) * pgsz) == (ssize_t)pgsz && page_gen(mine, pgsz, hdr, &id, &prev);
    /* A file from before generations (no save.id in the journal's page): its
    ** first save adds them with save.prev 0, or has not written the page. */
    if (ok) ok = jid ? jid == id || jid == prev : !id || !prev;
  }
  strata_free(img);
  strata_free(mine);
  close(dfd);
  return ok;
}

/* STRATA_OK when nothing beside path would write into it as SQLite opens it. */
static strata_status check_beside(const char *path, const char *what, strata_error *err) {
  size_t n = strlen(path);
  char *side = strata_malloc(n + 9);
  if (!side) return strata_error_nomem(err, NULL);
  struct stat st;
  strata_status res = STRATA_OK;
  memcpy(side, path, n);
  memcpy(side + n, "-wal", 5);
  if (lstat(side, &st) == 0) {
    res = strata_error_set(err, STRATA_EIO,
                           "%s '%s': '%s' lies beside it, a WAL file, which strata never writes (opening the save "
                           "would write it into the save: move it away)", what, path, side);
  } else {
    memcpy(side + n, "-journal", 9);
    int fd = open(side, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    unsigned char first = 0;
    /* SQLite ignores an empty journal and one that starts with a zero byte */
    if ((fd < 0 && errno != ENOENT) || (fd >= 0 && pread(fd, &first, 1, 0) == 1 && first && !own_journal(fd, path)))
      res = strata_error_set(err, STRATA_EIO,
                             "%s '%s': '%s' lies beside it and is not the journal of an interrupted save of this "
                             "file (rolling it back would write another file's pages into it: move it away)",
                             what, path, side);
    if (fd >= 0) close(fd);
  }
  strata_free(side);
  return res;
}

/* A save killed half-way leaves PATH-journal, whose pages SQLite writes back
** into PATH at the next open. Renaming a new file over PATH would hand the
** new file those old pages: the journal is rolled back into the old file
** first (as an open would), and the rename comes after. */
static strata_status settle_journal(const char *path, strata_error *err) {
  size_t n = strlen(path);
  char *journal = strata_malloc(n + 9);
  if (!journal) return strata_error_nomem(err, NULL);
  memcpy(journal, path, n);
  memcpy(journal + n, "-journal", 9);
  int there = access(journal, F_OK) == 0;
  strata_status st = STRATA_OK;
  if (there) {
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    /* The write lock: a save under way elsewhere finishes first (its journal
    ** is then gone), and taking it rolls a hot journal back. */
    if (rc == SQLITE_OK) {
      sqlite3_busy_timeout(db, STRATA_SAVE_BUSY_MS);
      rc = sqlite3_exec(db, "BEGIN IMMEDIATE; SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL);
    }
    /* Under the lock, what is left is stale (not hot), or PATH is not a
    ** database at all: nothing in it belongs to the new file. */
    if (rc == SQLITE_OK || (rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT) {
      if (access(journal, F_OK) == 0 && unlink(journal) != 0)
        st = strata_error_set(err, STRATA_EIO, "cannot save to '%s': cannot remove '%s': %s", path,
                              journal, strerror(errno));
    } else {
      st = store_sqlite_error(err, db, rc, "cannot save to", path);
    }
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(db);
  }
  strata_free(journal);
  return st;
}

/* The full save: a new database in a temporary of its own beside the
** target, renamed over it (file_internal.h). */
static strata_status save_full(const strata_world *w, const char *path, const strata_mod_version *mods,
                               size_t nmods, const save_gen *gen, strata_error *err) {
  strata_status st = settle_journal(path, err);
  if (st) return st;
  char *tmp;
  int fd = file_tmp_create(path, "cannot save to", &tmp, err);
  if (fd < 0) return err ? err->status : STRATA_EIO;
  sqlite3 *db = NULL;
  writer wr;
  writer_init(&wr, NULL, gen);
  int rc = sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK) {
    /* The temporary file is worthless until renamed, so it needs no journal;
    ** durability comes from the fsync before the rename. */
    sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;", NULL, NULL, NULL);
    if (!(wr.st = store_sqlite_new(db, path))) rc = SQLITE_NOMEM;
    else if (!(rc = wr.st->ops->begin(wr.st, 1)) && !(rc = write_all(&wr, w, mods, nmods)))
      rc = wr.st->ops->commit(wr.st);
  }
  if (rc != SQLITE_OK) st = store_sqlite_error(err, db, rc, "cannot save to", path);
  writer_done(&wr);
  store_sqlite_free(wr.st);
  if (sqlite3_close(db) != SQLITE_OK && !st) st = store_sqlite_error(err, db, SQLITE_ERROR, "cannot save to", path);
  if (st) {
    file_tmp_discard(fd, tmp);
    return st;
  }
  return file_tmp_commit(fd, tmp, path, "cannot save to", err);
}

/* The counts and sums the store holds (meta's rows.* and sum.*), into the
** writer, which the rows it writes keep up to date. 1 when meta holds them
** all and the store is of this format: one without sums (from before saves
** were tied), or of an older format (its rows use its hash), is saved
** whole. *rc: a store's failure. */
static int read_counts(writer *wr, int *rc) {
  store *st = wr->st;
  store_scan *sc = NULL;
  store_val row[3];
  int have = 0, current = 0, got;
  if ((*rc = st->ops->scan(st, T_META, NULL, &sc))) return 0;
  while ((got = st->ops->next(sc, row)) > 0) {
    const char *k = row[0].type == SV_TEXT ? row[0].p : "";
    if (!strcmp(k, "version")) {
      current = row[1].type == SV_INT && row[1].i == SAVE_VERSION;
      continue;
    }
    int sum = !strncmp(k, "sum.", 4);
    if ((!sum && strncmp(k, "rows.", 5)) || row[1].type != SV_INT) continue;
    for (int t = 1; t < NTABLES; t++)
      if (!strcmp(k + (sum ? 4 : 5), table_names(t))) {
        if (sum) wr->sums[t] = (uint64_t)row[1].i;
        else wr->rows[t] = row[1].i;
        have |= 1 << (t + (sum ? NTABLES : 0));
      }
  }
  st->ops->scan_end(sc);
  if (got < 0) *rc = -got;
  return !*rc && have == ((1 << NTABLES) - 2) * ((1 << NTABLES) + 1) && current;
}

/* What changed, in the store's transaction (begun): the generation's rows
** first (for a file: see check_beside), then the changed rows. *mismatch:
** the store is not what the world's record describes (the caller rolls
** back and writes everything). */
static int write_incremental(writer *wr, strata_world *w, const strata_mod_version *mods, size_t nmods,
                             int *mismatch) {
  int rc = put_gen(wr);
  *mismatch = 0;
  if (rc) return rc;
  if (!read_counts(wr, &rc)) {
    *mismatch = !rc;
    return rc;
  }
  return write_changes(wr, w, mods, nmods, mismatch);
}

/* The incremental save: what changed, into the file itself, as one
** transaction under a rollback journal (docs/saves.md says why not WAL): a
** process killed at any instant leaves a hot journal that the next open
** rolls back, so the file opens as the previous save or this one. */
static strata_status save_changes(strata_world *w, const char *path, const strata_mod_version *mods,
                                  size_t nmods, const save_gen *gen, int *fallback, strata_error *err) {
  sqlite3 *db = NULL;
  writer wr;
  writer_init(&wr, NULL, gen);
  int rc, mismatch = 0;
  *fallback = 0;
  if ((rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL)) != SQLITE_OK) goto fail;
  sqlite3_busy_timeout(db, STRATA_SAVE_BUSY_MS);
  const char *pragmas = "PRAGMA journal_mode=DELETE; PRAGMA synchronous=FULL;";
#ifdef STRATA_TEST_HOOKS
  if (w->save_journal) pragmas = w->save_journal; /* a benchmark's choice (world_internal.h) */
#endif
  if ((rc = sqlite3_exec(db, pragmas, NULL, NULL, NULL)) != SQLITE_OK) goto fail;
  if (!(wr.st = store_sqlite_new(db, path))) { rc = SQLITE_NOMEM; goto fail; }
  if ((rc = wr.st->ops->begin(wr.st, 0)) || (rc = write_incremental(&wr, w, mods, nmods, &mismatch))) goto fail;
  if (mismatch) {
    /* Not the file the record describes: write everything instead. */
    *fallback = 1;
    wr.st->ops->rollback(wr.st);
    writer_done(&wr);
    store_sqlite_free(wr.st);
    sqlite3_close(db);
    return STRATA_OK;
  }
  if ((rc = wr.st->ops->commit(wr.st)) != SQLITE_OK) goto fail;
  writer_done(&wr);
  store_sqlite_free(wr.st);
  wr.st = NULL;
  if ((rc = sqlite3_close(db)) != SQLITE_OK) { db = NULL; goto fail; }
  return STRATA_OK;
fail:;
  strata_status st = store_sqlite_error(err, db, rc, "cannot save to", path);
  if (wr.st) wr.st->ops->rollback(wr.st);
  writer_done(&wr);
  store_sqlite_free(wr.st);
  sqlite3_close(db);
  return st;
}

/* Records path as the world's file, as it is on disk now: a later save is
** incremental only while the file is still exactly this one. */
static void remember_file(strata_world *w, const char *path) {
  struct stat info;
  char *copy = stat(path, &info) == 0 && S_ISREG(info.st_mode) ? strata_strdup(path) : NULL;
  strata_free(w->file.path);
  store_pg_free(w->file.store); /* (a database's connection, when the world was there) */
  w->file.store = NULL;
  w->file.path = copy;
  if (!copy) return;
  w->file.dev = (uint64_t)info.st_dev;
  w->file.ino = (uint64_t)info.st_ino;
  w->file.size = (uint64_t)info.st_size;
  w->file.mtime_ns = (int64_t)info.st_mtim.tv_sec * 1000000000 + info.st_mtim.tv_nsec;
}

/* Whether the file at path is exactly as the world left it. */
static int is_world_file(const strata_world *w, const char *path) {
  struct stat info;
  return w->file.path && stat(path, &info) == 0 && S_ISREG(info.st_mode) &&
         w->file.dev == (uint64_t)info.st_dev && w->file.ino == (uint64_t)info.st_ino &&
         w->file.size == (uint64_t)info.st_size &&
         w->file.mtime_ns == (int64_t)info.st_mtim.tv_sec * 1000000000 + info.st_mtim.tv_nsec;
}

/* The file now holds every map as it is. */
static void record_maps(strata_world *w) {
  for (size_t i = 0; i < w->maps.cap; i++) {
    strata_object *o = w->maps.keys[i] ? world_rec(w, w->maps.keys[i]) : NULL;
    if (!o || !o->tilemap) continue;
    o->tilemap->saved_id = o->tilemap->id;
    o->tilemap->saved_rev = o->tilemap->revision;
  }
}

/* After a save or an open that covered everything: the set of map owners is
** made again from the objects (dropping the gone ones); nothing is dirty. */
static void reset_after_full(strata_world *w) {
  world_dirty_reset(w);
  uidset_clear(&w->maps);
  for (strata_object *o = world_next(w, 0); o; o = world_next(w, o->uid))
    if (o->tilemap) world_mark_map(w, o->uid); /* a failure sets dirty_all: the next save is full */
  record_maps(w);
}

/* After an open: the set of map owners is the maps read_maps read (found
** without a walk over every object); nothing is dirty. */
static void reset_after_open(strata_world *w) {
  int lost = w->dirty_all; /* a map owner read_maps could not record */
  world_dirty_reset(w);
  w->dirty_all = lost;
  record_maps(w);
}

/* The save.id of the save at path (0: a file older than generations), read
** as an open reads (a hot journal of this file rolled back). */
static strata_status read_save_id(const char *path, uint64_t *id, strata_error *err) {
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  *id = 0;
  int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_busy_timeout(db, STRATA_SAVE_BUSY_MS);
    rc = sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'save.id'", -1, &s, NULL);
  }
  if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
    if (!parse_hex16((const char *)sqlite3_column_text(s, 0), (size_t)sqlite3_column_bytes(s, 0), id)) *id = 0;
    rc = sqlite3_step(s);
  }
  strata_status st = rc == SQLITE_DONE ? STRATA_OK
                                       : strata_error_set(err, STRATA_EIO, "cannot save to '%s': it is no longer the "
                                                          "save this world opened or last saved (%s); save with "
                                                          "overwrite to replace it", path,
                                                          db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  sqlite3_finalize(s);
  sqlite3_close(db);
  return st;
}

/* Whether path is the world's file: the path it was opened from or last
** saved to, or another name of the file still at that path. A file's number
** alone is not enough: once the world's file is deleted, a new file may be
** given its number. */
static int is_own_path(const strata_world *w, const char *path) {
  struct stat info, was;
  if (!w->file.path) return 0;
  if (!strcmp(w->file.path, path)) return 1;
  return stat(path, &info) == 0 && stat(w->file.path, &was) == 0 && info.st_dev == was.st_dev &&
         info.st_ino == was.st_ino && w->file.dev == (uint64_t)info.st_dev && w->file.ino == (uint64_t)info.st_ino;
}

/* The save proper, under the path's lock. */
static strata_status save_locked(strata_world *w, const char *path, const strata_mod_version *mods,
                                 size_t nmods, int overwrite, strata_error *err) {
  strata_status st = check_beside(path, "cannot save to", err);
  if (st) return st;
  /* Into its own file, a world saves over the save it opened or made last,
  ** never over one another process made since (which it would erase). */
  int own = is_own_path(w, path), other = 0;
  if (own && access(path, F_OK) == 0) {
    uint64_t id;
    if ((st = read_save_id(path, &id, err))) {
      if (!overwrite) return st;
      other = 1;
    } else if (id != w->file.gen.save_id) {
      if (!overwrite)
        return strata_error_set(err, STRATA_EIO, "cannot save to '%s': %s was saved by another process since this "
                                "world opened it (save with overwrite to replace that save)", path, path);
      other = 1;
    }
  }
  save_gen gen = { w->file.gen.file_id, file_random64(), w->file.gen.save_id, w->file.gen.count + 1 };
  if (own && !other && !w->dirty_all && is_world_file(w, path)) {
    int fallback = 0;
    if (!gen.file_id) gen.file_id = file_random64(); /* a file older than generations */
    st = save_changes(w, path, mods, nmods, &gen, &fallback, err);
    if (st) return st; /* the record stays: the next save writes it all again */
    if (!fallback) {
      world_dirty_reset(w);
      record_maps(w);
      remember_file(w, path);
      w->file.gen = gen;
      return STRATA_OK;
    }
  }
  gen.file_id = file_random64(); /* a new file */
  if ((st = save_full(w, path, mods, nmods, &gen, err))) return st;
  remember_file(w, path); /* first: marks are kept only for a world with a file */
  w->file.gen = gen;
  reset_after_full(w);
  return STRATA_OK;
}

static strata_status read_all(store *sto, strata_world **out, strata_mod_version **mods_out,
                              size_t *nmods_out, save_gen *gen_out, strata_error *err);

/* ---- a world in a database (store_pg.c) ----
** The same rows, checksums, sums and generations as a file's; the
** database's transaction in place of the file's journal and lock: the
** generation row is read locked (SELECT ... FOR UPDATE) inside the save's
** transaction, so that two writers take turns and the second finds the
** first's save.id. */

/* The world's store is now uri, holding generation gen, through st (its
** connection, kept for the next save; NULL: none kept). */
static void remember_store(strata_world *w, const char *uri, const save_gen *gen, store *st) {
  char *copy = strata_strdup(uri); /* out of memory: no store, the next save is whole */
  strata_free(w->file.path);
  if (w->file.store != st) store_pg_free(w->file.store);
  memset(&w->file, 0, sizeof w->file);
  w->file.path = copy;
  w->file.gen = *gen;
  w->file.store = copy ? st : NULL;
  if (!copy) store_pg_free(st);
}

/* The store's save.id (0: none, a new world), read as a save's first step. */
static int store_save_id(store *st, uint64_t *id) {
  store_val key = { .type = SV_TEXT, .p = "save.id", .n = 7 }, row[3];
  int got = st->ops->get(st, T_META, &key, row);
  *id = 0;
  if (got > 0 && (row[1].type != SV_TEXT || !parse_hex16(row[1].p, row[1].n, id))) *id = 0;
  return got < 0 ? -got : 0;
}

/* One try of a save into the store: incremental (what changed) or full. 1
** in *again: the store is not what the world's record says, and a full
** save follows; -1: its transaction could not even begin. */
static strata_status store_try(strata_world *w, store *st, const char *uri, const strata_mod_version *mods,
                               size_t nmods, int overwrite, int full, int *again, strata_error *err) {
  int own = w->file.path && !strcmp(w->file.path, uri), rc, mismatch = 0;
  uint64_t id = 0;
  writer wr;
  save_gen gen = { full ? file_random64() : w->file.gen.file_id, file_random64(), w->file.gen.save_id,
                   w->file.gen.count + 1 };
  writer_init(&wr, st, &gen);
  *again = 0;
  if ((rc = st->ops->begin(st, full))) *again = -1;
  if (rc || (rc = store_save_id(st, &id))) goto fail;
  if (own && id && id != w->file.gen.save_id && !overwrite) {
    st->ops->rollback(st);
    writer_done(&wr);
    return strata_error_set(err, STRATA_EIO, "cannot save to '%s': the world was saved by another process since "
                            "this world opened it (save with overwrite to replace that save)", uri);
  }
  if (!full && (!own || !id || id != w->file.gen.save_id)) mismatch = 1;
  else if (!full) rc = write_incremental(&wr, w, mods, nmods, &mismatch);
  else if (!(rc = st->ops->clear(st))) rc = write_all(&wr, w, mods, nmods);
  if (rc) goto fail;
  if (mismatch) {
    st->ops->rollback(st);
    writer_done(&wr);
    *again = 1;
    return STRATA_OK;
  }
  if ((rc = st->ops->commit(st))) goto fail;
  writer_done(&wr);
  remember_store(w, uri, &gen, st);
  if (full) {
    reset_after_full(w);
  } else {
    world_dirty_reset(w);
    record_maps(w);
  }
  return STRATA_OK;
fail:;
  strata_status res = st->ops->fail(st, rc, "cannot save to", err);
  st->ops->rollback(st);
  writer_done(&wr);
  return res; /* the record stays: the next save writes it all again */
}

/* One save through st, or (NULL) a new connection; a failed save's
** connection is not trusted again (freed, and the world's no more) unless
** it is idle. *unbegun: the failure came before any transaction began. */
static strata_status save_via(strata_world *w, store *st, const char *uri, const strata_mod_version *mods,
                              size_t nmods, int overwrite, int *unbegun, strata_error *err) {
  int again = 1, kept = st != NULL;
  if (!st && !(st = store_pg_open(uri, "cannot save to", err))) return err ? err->status : STRATA_EIO;
  strata_status res = STRATA_OK;
  if (w->file.path && !strcmp(w->file.path, uri) && !w->dirty_all)
    res = store_try(w, st, uri, mods, nmods, overwrite, 0, &again, err);
  if (!res && again) res = store_try(w, st, uri, mods, nmods, overwrite, 1, &again, err);
  *unbegun = res && again < 0;
  if (res && (!kept || !store_pg_idle(st))) {
    if (w->file.store == st) w->file.store = NULL;
    store_pg_free(st);
  }
  return res;
}

/* A save into the database at uri: through the world's connection when it
** is its own store (a connection per save cost as much as an incremental
** save), else a new one, which the world keeps once the save succeeds. */
static strata_status save_store(strata_world *w, const char *uri, const strata_mod_version *mods, size_t nmods,
                                int overwrite, strata_error *err) {
  int own = w->file.path && !strcmp(w->file.path, uri);
  store *kept = own && store_pg_idle(w->file.store) ? w->file.store : NULL;
  int unbegun = 0;
  strata_status res = save_via(w, kept, uri, mods, nmods, overwrite, &unbegun, err);
  /* A kept connection the server closed meanwhile (a restart, an idle
  ** timeout) is only found out by using it: when the save's transaction
  ** could not begin on it, once more on a new one (a save that failed
  ** inside its transaction is the caller's to know of). */
  if (res && kept && unbegun && w->file.store != kept)
    res = save_via(w, NULL, uri, mods, nmods, overwrite, &unbegun, err);
  return res;
}

static strata_status open_store(const char *uri, strata_world **out, strata_mod_version **mods, size_t *nmods,
                                strata_error *err) {
  store *st = store_pg_open(uri, "cannot open", err);
  if (!st) return err ? err->status : STRATA_EIO;
  strata_error e;
  save_gen gen;
  strata_error_clear(&e);
  strata_status res = read_all(st, out, mods, nmods, &gen, &e);
  st->ops->rollback(st); /* the read's snapshot ends */
  if (res) {
    store_pg_free(st);
    return strata_error_set(err, res, "cannot open '%s': %s", uri, e.message);
  }
  remember_store(*out, uri, &gen, st);
  reset_after_open(*out);
  return STRATA_OK;
}

strata_status strata_world_save_with(strata_world *w, const char *path, const strata_mod_version *mods,
                                     size_t nmods, const strata_save_options *opt, strata_error *err) {
  if (!path || !*path) return strata_error_set(err, STRATA_EARG, "cannot save: no path given");
  strata_status in = world_not_in_callback(w, "strata_world_save", "save", err);
  if (in) return in;
  if (w->served)
    return strata_error_in(err, STRATA_ESTATE, "strata_world_save", "this world is served by its process "
                           "(strata_serve_save saves it)");
  if (strata_pg_uri_is(path)) return save_store(w, path, mods, nmods, opt && opt->overwrite, err);
  /* Only a regular file is written into or replaced: a save renamed over a
  ** device, a FIFO or a link would put a file in its place. */
  strata_status st = strata_file_check_replace(path, "cannot save to", err);
  if (st) return st;
  /* One save of a path at a time, whatever the process: two full saves
  ** would each rename their file over the other's, and an incremental save
  ** would write into a file a full save is replacing. */
  file_lock_t lk;
  if ((st = file_lock(path, "cannot save to", STRATA_SAVE_BUSY_MS, &lk, err))) return st;
  st = save_locked(w, path, mods, nmods, opt && opt->overwrite, err);
  file_unlock(&lk);
  return st;
}

strata_status strata_world_save(strata_world *w, const char *path, const strata_mod_version *mods,
                                size_t nmods, strata_error *err) {
  return strata_world_save_with(w, path, mods, nmods, NULL, err);
}

void strata_mod_versions_free(strata_mod_version *mods, size_t n) {
  if (!mods) return;
  for (size_t i = 0; i < n; i++) { strata_free(mods[i].id); strata_free(mods[i].version); }
  strata_free(mods);
}

/* A copy of a text column into *out (NULL when the column is): STRATA_ENOMEM
** apart, so that running out of memory is never taken for a corrupt file. */
static strata_status col_dup(const store_val *v, char **out, strata_error *err) {
  const char *t = v->type == SV_TEXT ? v->p : NULL;
  *out = t ? strata_strndup(t, v->n) : NULL;
  return t && !*out ? strata_error_nomem(err, NULL) : STRATA_OK;
}

/* A text column, or NULL. */
static const char *col_text(const store_val *v) { return v->type == SV_TEXT ? v->p : NULL; }

/* A failure of the world's own function while reading a file: out of memory
** stays so; anything else means the file is not a save this build wrote. */
static strata_status corrupt(strata_error *err, const strata_error *e, const char *what, long long uid) {
  if (e->status == STRATA_ENOMEM)
    return strata_error_nomem(err, "reading %s of #%lld", what, uid);
  return strata_error_set(err, STRATA_EPARSE, "corrupt save: %s of #%lld: %s", what, uid, e->message);
}

static int is_empty_table(const store_val *v) {
  return v->type == SV_BLOB && v->n == 2 && !memcmp(v->p, empty_table, 2);
}

/* A column (v), an encoded value, into *out; with w (an object's
** properties), kept encoded when it can be (world_props.c). */
static strata_status col_value(const store_val *v, strata_value *out, const char *what,
                               long long uid, strata_world *w, strata_error *err) {
  const void *b = v->type == SV_BLOB ? v->p : NULL;
  size_t n = v->n;
  strata_error e;
  e.message[0] = '\0'; /* not strata_error_clear: a memset of the whole error per column was 1 % of an open */
  if (!b) return strata_error_set(err, STRATA_EPARSE, "corrupt save: %s of #%lld: missing", what, uid);
  e.status = w ? world_props_load(w, out, b, (size_t)n, &e) : strata_value_decode(out, b, (size_t)n, &e);
  if (e.status != STRATA_OK) return corrupt(err, &e, what, uid);
  return STRATA_OK;
}

/* What an open checks rows against: the file's identity, which each row's
** checksum covers (0 in a file from before saves were tied), and per table
** the sum of the checksums read so far (sum_mix), which meta's must equal. */
typedef struct save_tie {
  uint64_t file_id;
  uint64_t seeds[NTABLES]; /* sum_seeds of file_id */
  uint64_t sums[NTABLES];
  int words;               /* the format's hash (rowsum.h): format 4's, or 3's */
} save_tie;

static strata_status read_error(strata_error *err, store *st, const char *table, int rc);
static int row_ok(save_tie *tie, const store_val *row, int table);
static strata_status bad_row(strata_error *err, int table, long long key);
static strata_status refused_row(strata_error *err, strata_status st, int table, long long key);

/* The cells [x0, x1) x [y0, y1) of m from a row's names (column nc) and
** cells (column nc + 1): each cell's stack size, then its saved ids. */
static strata_status read_cells(strata_tilemap *m, const store_val *row, int nc, chunk_rect rc,
                                long long uid, strata_error *err) {
  int64_t ncells = (int64_t)(rc.x1 - rc.x0) * (rc.y1 - rc.y0);
  const store_val *cells = &row[nc + 1];
  size_t nbytes = cells->type == SV_BLOB || cells->type == SV_TEXT ? cells->n : 0;
  /* Each cell takes at least a byte of the file (its stack size). */
  if (ncells > (int64_t)nbytes)
    return strata_error_set(err, STRATA_EPARSE, "corrupt save: tiles of #%lld: %lld cells in %d bytes",
                            uid, (long long)ncells, (int)nbytes);
  strata_value names;
  strata_status st = col_value(&row[nc], &names, "tile tokens", uid, NULL, err);
  if (st) return st;
  if (names.type != STRATA_VTABLE) {
    strata_value_clear(&names);
    return strata_error_set(err, STRATA_EPARSE, "corrupt save: tile tokens of #%lld", uid);
  }
  strata_error e;
  /* The names are interned in the map's table (the world's) and the saved
  ** ids mapped to its ids. */
  size_t n = names.u.t->n;
  strata_token *map = strata_calloc(n + 1, sizeof *map);
  if (!map) {
    st = strata_error_nomem(err, "reading the tiles of #%lld", uid);
    goto out;
  }
  for (size_t i = 1; i <= n; i++) {
    strata_value k = strata_value_int((int64_t)i);
    const strata_value *v = strata_vtable_get(names.u.t, &k);
    e.status = STRATA_EPARSE;
    if (!v || v->type != STRATA_VSTRING ||
        !(map[i] = strata_tokens_intern(strata_tilemap_tokens(m), v->u.str.s, v->u.str.len, &e))) {
      st = e.status == STRATA_ENOMEM
             ? strata_error_nomem(err, "reading tile token %zu of #%lld", i, uid)
             : strata_error_set(err, STRATA_EPARSE, "corrupt save: tile token %zu of #%lld", i, uid);
      goto out;
    }
  }
  const unsigned char *p = nbytes ? cells->p : NULL, *end = p + nbytes;
  for (int y = rc.y0; y < rc.y1; y++)
    for (int x = rc.x0; x < rc.x1; x++) {
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
        if ((e.status = strata_tilemap_set(m, x, y, map[id], &e)) == STRATA_ENOMEM) {
          st = strata_error_nomem(err, "reading the tile cells of #%lld", uid);
          goto out;
        }
        if (e.status) goto bad;
      }
#undef VARINT
    }
  if (p != end) goto bad;
  goto out;
bad:
  st = strata_error_set(err, STRATA_EPARSE, "corrupt save: tile cells of #%lld", uid);
out:
  strata_free(map);
  strata_value_clear(&names);
  return st;
}

/* A new map on the world's token table, like the maps the world makes. */
static strata_tilemap *new_map(strata_world *w, int width, int height, long long uid, strata_error *err) {
  strata_error e;
  strata_tilemap *m = strata_tilemap_new(width, height, strata_world_tokens(w), &e);
  if (!m) corrupt(err, &e, "tiles", uid);
  return m;
}

/* Format 3: the maps row s is on (map, width, height, first, sum), its
** chunks the rows first .. first + n - 1 of tiles (id, map, chunk, tokens,
** cells, sum), read with t, which must be exactly chunks 0 .. n-1 of this
** map. *cells_left: the cells the file can still hold (a byte each at
** least), charged before the map is made. */
static strata_status read_map_v3(strata_world *w, save_tie *tie, const store_val *row, store *sto,
                                 int64_t *cells_left, int64_t *nchunks, strata_error *err) {
  long long uid = row[0].i;
  int64_t w64 = row[1].i, h64 = row[2].i;
  int width = w64 > 0 && w64 <= INT32_MAX ? (int)w64 : 0, height = h64 > 0 && h64 <= INT32_MAX ? (int)h64 : 0;
  int64_t first = row[3].i;
  if (width <= 0 || height <= 0 || (int64_t)width * height > *cells_left)
    return strata_error_set(err, STRATA_EPARSE, "corrupt save: map #%lld: %dx%d cells, more than the file holds",
                            uid, width, height);
  if (first < 1 || first > ((int64_t)1 << 62))
    return strata_error_set(err, STRATA_EPARSE, "corrupt save: map #%lld: its chunks at row %lld", uid,
                            (long long)first);
  *cells_left -= (int64_t)width * height;
  strata_tilemap *m = new_map(w, width, height, uid, err);
  if (!m) return err ? err->status : STRATA_EPARSE;
  strata_status st = STRATA_OK;
  int64_t range[2] = { first, first + chunk_count(m) };
  store_scan *t = NULL;
  store_val c[6];
  int rc = sto->ops->scan(sto, T_TILES, range, &t);
  if (rc) st = read_error(err, sto, "tiles", rc);
  for (uint32_t k = 0; k < chunk_count(m) && !st; k++) {
    int got = sto->ops->next(t, c);
    if (got <= 0)
      st = got == 0 ? strata_error_set(err, STRATA_EPARSE, "corrupt save: map #%lld lacks chunk %u", uid, k)
                    : read_error(err, sto, "tiles", -got);
    else if (!row_ok(tie, c, T_TILES))
      st = bad_row(err, T_TILES, uid);
    else if (c[0].i != first + k || c[1].i != uid || c[2].i != (int64_t)k)
      st = strata_error_set(err, STRATA_EPARSE, "corrupt save: map #%lld lacks chunk %u", uid, k);
    else if (!(st = read_cells(m, c, 3, chunk_at(m, k), uid, err)))
      (*nchunks)++;
  }
  if (t) sto->ops->scan_end(t);
  if (!st && (st = strata_world_attach_tilemap(w, (uint64_t)uid, m, err))) st = refused_row(err, st, T_MAPS, uid);
  if (st) strata_tilemap_free(m);
  return st;
}

/* Where a read stands: the error to give when the store stops a loop early.
** A failure of the server or the connection is the store's to word (a lock
** timeout is no damaged save); any other is the rows'. */
static strata_status read_error(strata_error *err, store *st, const char *table, int rc) {
  strata_status res = st->ops->transient ? st->ops->transient(st, rc, err) : STRATA_OK;
  if (res) return res;
  return strata_error_set(err, STRATA_EPARSE, "corrupt save: reading table %s: %s", table, st->ops->why(st, rc));
}

/* Whether a checksum or a sum read is the one computed. The save fuzzer
** (spec/fuzz/fuzz_save.c) checks them but goes on, so that its mutations
** reach the rest of the loader. */
static int sum_holds(uint64_t got, uint64_t want) {
#ifdef STRATA_SAVE_FUZZING
  (void)got; (void)want;
  return 1;
#else
  return got == want;
#endif
}

/* The row's stored checksum (its last column, an integer) against its
** contents; the stored one goes into its table's sum. */
static int row_ok(save_tie *tie, const store_val *row, int table) {
  int n = store_tables[table].ncols;
  const store_val *sum = &row[n - 1];
  if (sum->type != SV_INT) return 0;
  tie->sums[table] += sum_mix(sum->i);
  return sum_holds((uint64_t)sum_row(row, n, tie->seeds[table], tie->words), (uint64_t)sum->i);
}

static strata_status bad_row(strata_error *err, int table, long long key) {
  return strata_error_set(err, STRATA_EPARSE, "corrupt save: a row of %s (#%lld) does not match its checksum",
                          table_names(table), key);
}

/* A table whose rows, each valid, are not the ones this save wrote. */
static strata_status unsummed(strata_error *err, int table) {
  return strata_error_set(err, STRATA_EPARSE, "corrupt save: table %s does not add up to meta's sum.%s (rows of "
                          "another save, or a page of an earlier one)", table_names(table), table_names(table));
}

/* A row the world refused (a subscription of an object not there, a map of
** no object): the file is not one save, and the table is named. */
static strata_status refused_row(strata_error *err, strata_status st, int table, long long key) {
  if (st == STRATA_ENOMEM || !err) return st;
  char why[sizeof err->message];
  snprintf(why, sizeof why, "%s", err->message);
  return strata_error_set(err, STRATA_EPARSE, "corrupt save: table %s, row #%lld: %s", table_names(table), key, why);
}

/* Whether the file's rows are tied to it (meta holds sum.meta), and then its
** file.id, which their checksums cover, and its format, whose hash they
** use: known before the first row is read. (A version row changed to another
** format's makes meta's rows fail their checksums.) */
static strata_status read_tie(store *sto, save_tie *tie, strata_error *err) {
  static const char *const keys[3] = { "sum.meta", "file.id", "version" };
  store_val row[3];
  int got[3];
  memset(tie, 0, sizeof *tie);
  tie->words = 1;
  for (int i = 0; i < 3; i++) {
    store_val key = { .type = SV_TEXT, .p = keys[i], .n = strlen(keys[i]) };
    if ((got[i] = sto->ops->get(sto, T_META, &key, row)) < 0) return read_error(err, sto, "meta", -got[i]);
    /* (each value read before the next get) */
    if (i == 1 && got[0] && (!got[1] || row[1].type != SV_TEXT || !parse_hex16(row[1].p, row[1].n, &tie->file_id)))
      return strata_error_set(err, STRATA_EPARSE, "not a strata world save (meta table incomplete or unknown)");
    if (i == 2 && got[2]) tie->words = !(row[1].type == SV_INT && row[1].i == 3);
  }
  sum_seeds(tie->seeds, tie->file_id, tie->words);
  return STRATA_OK;
}

/* A save of another format version: format 2 (a row per map) is what strata
** before 0.2 wrote. */
strata_status save_unsupported(strata_error *err, long long v) {
  if (v == 2)
    return strata_error_set(err, STRATA_EPARSE, "save format 2 was made by strata < 0.2 (this build reads formats "
                            "3 and %d)", SAVE_VERSION);
  return strata_error_set(err, STRATA_EPARSE, "save schema version %lld is not supported (this build reads 3 and %d)",
                          v, SAVE_VERSION);
}

/* An open under way: the table being read (sc, its row), the world being
** filled, and what meta says against what the rows gave. Each table has
** its reader; read_all frees what they leave when one fails. */
typedef struct save_reader {
  store *sto;
  store_scan *sc;
  store_val row[16];
  strata_error *err;
  strata_status st;        /* what ended a table's rows early (next_row) */
  save_tie tie;
  strata_world *w;
  strata_mod_version *mods;
  size_t nmods;
  double time;             /* meta's time, seed and uid counter */
  uint64_t seed, next_uid;
  save_gen gen;
  int have;                /* meta's rows read, a bit each (meta_row) */
  int64_t want_rows[NTABLES], got_rows[NTABLES];
  uint64_t want_sums[NTABLES];
} save_reader;

/* rd->sc on table t, in place of the last table's. */
static strata_status prepare(save_reader *rd, int t) {
  if (rd->sc) rd->sto->ops->scan_end(rd->sc);
  rd->sc = NULL;
  int rc = rd->sto->ops->scan(rd->sto, t, NULL, &rd->sc);
  return rc ? read_error(rd->err, rd->sto, table_names(t), rc) : STRATA_OK;
}

/* The next row of table t into rd->row: 1 on a row; 0 at the table's end,
** or with rd->st set when the store stops early (a read error is never
** taken for the end). */
static int step_row(save_reader *rd, int t) {
  int got = rd->sto->ops->next(rd->sc, rd->row);
  if (got > 0) return 1;
  if (got < 0) rd->st = read_error(rd->err, rd->sto, table_names(t), -got);
  return 0;
}

/* Every table's row loop: `while (next_row(rd, t)) { read it }; return
** rd->st;`. The row comes checked against its checksum (row_ok: its columns
** in rd->row, its checksum added to its table's sum) and counted; one
** that fails ends the table with rd->st set. A row is named by its first
** column, or (rng's, keyed by text) by its number. */
static inline int next_row(save_reader *rd, int t) {
  if (!step_row(rd, t)) return 0;
  if (!row_ok(&rd->tie, rd->row, t)) {
    long long key = t == T_RNG ? (long long)rd->got_rows[t] : (long long)rd->row[0].i;
    rd->st = bad_row(rd->err, t, key);
    return 0;
  }
  rd->got_rows[t]++;
  return 1;
}

/* The generation's rows of meta (gen_keys[g], the value in column 1): all
** or (a file older than them) none. 0: not a value a save writes. */
static int meta_gen_row(save_reader *rd, int g) {
  const store_val *v = &rd->row[1];
  if (g == 3) {
    if (v->type != SV_INT || v->i < 1) return 0;
    rd->gen.count = (uint64_t)v->i;
  } else if (v->type != SV_TEXT ||
             !parse_hex16(v->p, v->n, g == 0 ? &rd->gen.file_id : g == 1 ? &rd->gen.save_id : &rd->gen.prev)) {
    return 0;
  }
  return GEN_BIT << g;
}

/* Meta's row k (its value in column 1): the bit it sets in rd->have, or 0
** when it is none a save writes (meta is then incomplete or unknown). */
static int meta_row(save_reader *rd, const char *k) {
  const store_val *v = &rd->row[1];
  int bit = 0;
  if (!strcmp(k, "format")) {
    if (!col_text(v) || strcmp(v->p, SAVE_FORMAT)) return 0;
    bit = 1;
  } else if (!strcmp(k, "version")) {
    if (v->type != SV_INT) return 0;
    if (!save_version_read(v->i)) return 0;
    bit = 2;
  } else if (!strcmp(k, "seed")) {
    const char *t = col_text(v);
    char *end = NULL;
    if (!t || !*t) return 0;
    rd->seed = strtoull(t, &end, 10);
    if (*end) return 0;
    bit = 4;
  } else if (!strcmp(k, "time")) {
    if (v->type != SV_REAL) return 0;
    rd->time = v->r;
    if (!(rd->time == rd->time) || rd->time > 1e300 || rd->time < -1e300) return 0;
    bit = 8;
  } else if (!strcmp(k, "next_uid")) {
    if (v->type != SV_INT) return 0;
    rd->next_uid = (uint64_t)v->i;
    bit = 16;
  } else if (!strncmp(k, "rows.", 5)) {
    for (int t = 1; t < NTABLES; t++)
      if (!strcmp(k + 5, table_names(t)) && v->type == SV_INT) {
        rd->want_rows[t] = v->i;
        bit = 32 << t;
      }
  } else if (!strncmp(k, "sum.", 4)) {
    /* The tables' sums: all or (a file from before saves were tied) none. */
    for (int t = 0; t < NTABLES; t++)
      if (!strcmp(k + 4, table_names(t)) && v->type == SV_INT) {
        rd->want_sums[t] = (uint64_t)v->i;
        bit = SUM_BIT << t;
      }
    /* sum.meta sums the other rows of meta, not itself */
    if (bit == SUM_BIT) rd->tie.sums[T_META] -= sum_mix(rd->row[2].i);
  } else {
    int g = 0;
    while (g < GEN_ROWS && strcmp(k, gen_keys[g])) g++;
    if (g < GEN_ROWS) bit = meta_gen_row(rd, g);
  }
  return bit;
}

/* Whether meta held every row a save writes, each once, the generation's
** and the sums all or none (the sums only in a tied file, of its file.id). */
static int meta_whole(const save_reader *rd) {
  const int required = 31 | (((1 << NTABLES) - 2) << 5), gen_bits = ((1 << GEN_ROWS) - 1) * GEN_BIT,
            sum_bits = ((1 << NTABLES) - 1) * SUM_BIT;
  int have = rd->have;
  uint64_t file_id = rd->tie.file_id;
  return (have & ~gen_bits & ~sum_bits) == required && (!(have & gen_bits) || (have & gen_bits) == gen_bits) &&
         (!(have & gen_bits) || (rd->gen.file_id && rd->gen.save_id)) &&
         (have & sum_bits) == (file_id ? sum_bits : 0) && (!file_id || file_id == rd->gen.file_id);
}

/* meta: a row a key, read before any other table; in a tied save, meta
** whole and of the save the store's header names. */
static strata_status read_meta(save_reader *rd) {
  strata_status st = prepare(rd, T_META);
  if (st) return st;
  while (step_row(rd, T_META)) {
    int sum_ok = row_ok(&rd->tie, rd->row, T_META);
    const char *k = col_text(&rd->row[0]);
    const store_val *v = &rd->row[1];
    /* A newer save says so, whatever its rows hold. */
    if (k && !strcmp(k, "version") && v->type == SV_INT && !save_version_read(v->i))
      return save_unsupported(rd->err, (long long)v->i);
    if (!sum_ok || !k)
      return strata_error_set(rd->err, STRATA_EPARSE, "corrupt save: a meta row does not match its checksum");
    int bit = meta_row(rd, k);
    if (!bit || (rd->have & bit)) break;
    rd->have |= bit;
  }
  if (rd->st) return rd->st;
  if (!meta_whole(rd))
    return strata_error_set(rd->err, STRATA_EPARSE, "not a strata world save (meta table incomplete or unknown)");
  if (!rd->tie.file_id) return STRATA_OK;
  if (!sum_holds(rd->tie.sums[T_META], rd->want_sums[T_META])) return unsummed(rd->err, T_META);
  int has = 0, rc;
  int64_t tag = 0;
  if ((rc = rd->sto->ops->get_tag(rd->sto, &has, &tag))) return read_error(rd->err, rd->sto, "meta", rc);
  if (has && !sum_holds((uint64_t)tag, (uint64_t)header_tag(rd->gen.save_id)))
    return strata_error_set(rd->err, STRATA_EPARSE, "corrupt save: table meta is not of the save the file's header "
                            "names (a page of another save of this file)");
  return STRATA_OK;
}

/* mods: the list the world was saved with, in order, without a gap. */
static strata_status read_mods(save_reader *rd) {
  strata_status st = prepare(rd, T_MODS);
  size_t cap = 0;
  if (st) return st;
  while (next_row(rd, T_MODS)) {
    if (rd->row[0].i != (int64_t)rd->nmods)
      return strata_error_set(rd->err, STRATA_EPARSE, "corrupt save: the mod list has a gap");
    if (!STRATA_GROW(rd->mods, cap, rd->nmods + 1)) return strata_error_nomem(rd->err, NULL);
    strata_mod_version *m = &rd->mods[rd->nmods++];
    m->id = m->version = NULL;
    if ((st = col_dup(&rd->row[1], &m->id, rd->err)) || (st = col_dup(&rd->row[2], &m->version, rd->err))) return st;
    if (!m->id || !m->version)
      return strata_error_set(rd->err, STRATA_EPARSE, "corrupt save: a mod row is incomplete");
  }
  return rd->st;
}

/* The objects row rd->row holds (uid, kind, archetype, map, x, y,
** tags, props) into the world. */
static strata_status read_object(save_reader *rd, long long uid) {
  strata_status st = STRATA_OK;
  strata_error *err = rd->err;
  strata_object o;
  memset(&o, 0, sizeof o);
  o.uid = (uint64_t)uid;
  const store_val *c = rd->row;
  /* read, not taken: the world keeps one copy of each name */
  o.kind = (char *)col_text(&c[1]);
  o.archetype = (char *)col_text(&c[2]);
  if (c[3].type != SV_NULL) {
    o.has_pos = 1;
    o.map = (uint64_t)c[3].i;
    o.x = c[4].i;
    o.y = c[5].i;
  }
  if (!o.kind) st = strata_error_set(err, STRATA_EPARSE, "corrupt save: object #%lld has no kind", uid);
  /* An object without tags holds none (nil): its empty table is not decoded. */
  if (!st && !is_empty_table(&c[6])) st = col_value(&c[6], &o.tags, "tags", uid, NULL, err);
  if (!st) st = col_value(&c[7], &o.props, "properties", uid, rd->w, err);
  if (!st && ((o.tags.type != STRATA_VTABLE && o.tags.type != STRATA_VNIL) ||
              (o.props.type != STRATA_VTABLE && !world_props_lazy(&o))))
    st = strata_error_set(err, STRATA_EPARSE, "corrupt save: object #%lld tags/properties are not tables", uid);
  if (!st && (st = strata_world_restore_object(rd->w, &o, err))) st = refused_row(err, st, T_OBJECTS, uid);
  if (st) {
    strata_value_clear(&o.tags);
    strata_value_clear(&o.props);
  }
  return st;
}

static strata_status read_objects(save_reader *rd) {
  strata_status st = prepare(rd, T_OBJECTS);
  if (st) return st;
  while (next_row(rd, T_OBJECTS))
    if ((st = read_object(rd, (long long)rd->row[0].i))) return st;
  return rd->st;
}

/* timers, in (due, uid) order: each goes in last and moves no other (the
** heap is sorted). */
static strata_status read_timers(save_reader *rd) {
  strata_status st = prepare(rd, T_TIMERS);
  if (st) return st;
  while (next_row(rd, T_TIMERS)) {
    const store_val *c = rd->row;
    long long uid = c[0].i;
    strata_timer t;
    memset(&t, 0, sizeof t);
    t.uid = (uint64_t)uid;
    t.due = c[1].type == SV_REAL ? c[1].r : (double)c[1].i;
    t.every = c[2].type == SV_REAL ? c[2].r : (double)c[2].i;
    st = col_dup(&c[3], &t.handler, rd->err);
    if (!st) st = col_value(&c[4], &t.args, "timer args", uid, NULL, rd->err);
    if (!st && (st = strata_world_restore_timer(rd->w, &t, rd->err))) st = refused_row(rd->err, st, T_TIMERS, uid);
    if (st) {
      strata_timer_clear(&t);
      return st;
    }
  }
  return rd->st;
}

static strata_status read_subs(save_reader *rd) {
  strata_status st = prepare(rd, T_SUBS);
  if (st) return st;
  while (next_row(rd, T_SUBS)) {
    const store_val *c = rd->row;
    long long uid = c[0].i;
    strata_subscription u;
    memset(&u, 0, sizeof u);
    u.uid = (uint64_t)uid;
    u.object = (uint64_t)c[1].i;
    u.priority = c[5].i;
    st = col_dup(&c[2], &u.event, rd->err);
    if (!st) st = col_dup(&c[3], &u.handler, rd->err);
    if (!st) st = col_value(&c[4], &u.args, "subscription args", uid, NULL, rd->err);
    if (!st && (st = strata_world_restore_subscription(rd->w, &u, rd->err)))
      st = refused_row(rd->err, st, T_SUBS, uid);
    if (st) {
      strata_free(u.event);
      strata_free(u.handler);
      strata_value_clear(&u.args);
      return st;
    }
  }
  return rd->st;
}

/* rng: the world's random streams by name. */
static strata_status read_rng(save_reader *rd) {
  strata_status st = prepare(rd, T_RNG);
  if (st) return st;
  while (next_row(rd, T_RNG)) {
    strata_rng r;
    const char *key = col_text(&rd->row[0]);
    const char *state = col_text(&rd->row[1]);
    if (!key || !state || !strata_rng_parse(&r, state, rd->row[1].n))
      return strata_error_set(rd->err, STRATA_EPARSE, "corrupt save: bad random stream state");
    if ((st = strata_world_set_stream(rd->w, key, &r, rd->err)))
      return refused_row(rd->err, st, T_RNG, rd->got_rows[T_RNG]);
  }
  return rd->st;
}

/* maps, each with its chunks (tiles rows, read_map_v3, counted as read):
** no more cells than the store's bytes. */
static strata_status read_maps(save_reader *rd) {
  int64_t cells_left = 0;
  int rc = rd->sto->ops->size(rd->sto, &cells_left);
  if (rc) return read_error(rd->err, rd->sto, "maps", rc);
  strata_status st = prepare(rd, T_MAPS);
  if (!st) {
    while (next_row(rd, T_MAPS)) {
      long long uid = rd->row[0].i;
      if ((st = read_map_v3(rd->w, &rd->tie, rd->row, rd->sto, &cells_left, &rd->got_rows[T_TILES], rd->err))) break;
      /* the map owners, for reset_after_open; one not recorded makes the next save whole */
      if (!uidset_add(&rd->w->maps, (uint64_t)uid)) rd->w->dirty_all = 1;
    }
  }
  return st ? st : rd->st;
}

/* Every row read counts: each table's count and sum must be meta's, and
** the uid counter past every uid read. */
static strata_status check_counts(save_reader *rd) {
  for (int t = 1; t < NTABLES; t++) {
    if (rd->got_rows[t] != rd->want_rows[t])
      return strata_error_set(rd->err, STRATA_EPARSE, "corrupt save: table %s has %lld rows, its count says %lld",
                              table_names(t), (long long)rd->got_rows[t], (long long)rd->want_rows[t]);
    if (rd->tie.file_id && !sum_holds(rd->tie.sums[t], rd->want_sums[t])) return unsummed(rd->err, t);
  }
  if (rd->next_uid < strata_world_next_uid(rd->w))
    return strata_error_set(rd->err, STRATA_EPARSE, "corrupt save: uid counter behind stored uids");
  return STRATA_OK;
}

/* The world of the store: its checks, meta, then each table in the order
** written, into a new world; on any failure, nothing (the world freed). */
static strata_status read_all(store *sto, strata_world **out, strata_mod_version **mods_out,
                              size_t *nmods_out, save_gen *gen_out, strata_error *err) {
  static strata_status (*const readers[])(save_reader *) = { read_mods, read_objects, read_timers, read_subs,
                                                             read_rng, read_maps, check_counts };
  strata_status st = sto->ops->check(sto, err);
  if (st) return st;
  save_reader rd;
  memset(&rd, 0, sizeof rd);
  rd.sto = sto;
  rd.err = err;
  rd.next_uid = 1;
  for (int t = 0; t < NTABLES; t++) rd.want_rows[t] = -1;
  if (!(st = read_tie(sto, &rd.tie, err)) && !(st = read_meta(&rd)) && !(rd.w = strata_world_new(rd.seed, err)))
    st = STRATA_ENOMEM;
  for (size_t i = 0; !st && i < sizeof readers / sizeof *readers; i++) st = readers[i](&rd);
  if (rd.sc) sto->ops->scan_end(rd.sc);
  if (st) {
    strata_world_free(rd.w);
    strata_mod_versions_free(rd.mods, rd.nmods);
    return st;
  }
  strata_world_restore_clock(rd.w, rd.time, rd.next_uid);
  *gen_out = rd.gen;
  *out = rd.w;
  *mods_out = rd.mods;
  *nmods_out = rd.nmods;
  return STRATA_OK;
}

/* Stops any query that works far more than reading the file takes. */
static int progress(void *ud) {
  int64_t *left = ud;
  return --*left < 0;
}

strata_status strata_world_open(const char *path, strata_world **out, strata_mod_version **mods,
                                size_t *nmods, strata_error *err) {
  sqlite3 *db = NULL;
  struct stat info;
  if (path && strata_pg_uri_is(path)) return open_store(path, out, mods, nmods, err);
  strata_status cst = strata_file_check_read(path, "cannot open", err);
  if (!cst) cst = check_beside(path, "cannot open", err);
  if (cst) return cst;
  if (stat(path, &info) != 0)
    return strata_error_set(err, STRATA_EIO, "cannot open '%s': %s", path, strerror(errno));
  /* Read-write where the file allows it (SQLite falls back to read-only
  ** otherwise): a save killed half-way leaves a hot journal, which only a
  ** writable connection can roll back. Nothing else is ever written. */
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
    strata_status st = db_error(err, db, "cannot open", path);
    sqlite3_close(db);
    return st;
  }
  /* Reading the file takes some VM steps per byte: a thousand per 16 bytes
  ** (callbacks come every 1000 steps) leaves room for any honest save. */
  int64_t left = 100000 + (int64_t)info.st_size / 16;
  sqlite3_progress_handler(db, 1000, progress, &left);
  /* One read transaction for every table, so that a save by another
  ** process cannot land between two of them; while that save commits, wait
  ** for it (a busy timeout), and past that say so. */
  sqlite3_busy_timeout(db, STRATA_SAVE_BUSY_MS);
  strata_error e;
  strata_error_clear(&e);
  strata_status st;
  save_gen gen;
  int rc = sqlite3_exec(db, "BEGIN; SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL);
  if ((rc & 0xff) == SQLITE_BUSY)
    st = strata_error_set(&e, STRATA_EIO, "another process is saving it (still busy after %d ms)",
                          STRATA_SAVE_BUSY_MS);
  else if (rc != SQLITE_OK)
    st = strata_error_set(&e, STRATA_EPARSE, "not a strata world save: %s", sqlite3_errmsg(db));
  else {
    store *sto = store_sqlite_new(db, path);
    st = sto ? read_all(sto, out, mods, nmods, &gen, &e) : strata_error_nomem(&e, NULL);
    store_sqlite_free(sto);
  }
  sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
  sqlite3_close(db);
  if (st) return strata_error_set(err, st, "cannot open '%s': %s", path, e.message);
  remember_file(*out, path);
  (*out)->file.gen = gen;
  reset_after_open(*out);
  return STRATA_OK;
}

/* ---- a served world's saves and pick-ups (serve.c, serve_internal.h) ----
** A serving process writes only the rows of what its scopes hold, over
** whatever the other processes saved since: the generation, the clock, the
** uid counter and each table's count and sum are read from the database
** inside the save's transaction (after its advisory lock: saves of one
** world take turns) and carried forward by what this save deletes and
** writes, so that the world still opens whole, every row checked. */

/* A served save under way. */
typedef struct served {
  writer wr;
  strata_world *w;
  const serve_hooks *h;
  const char *uri;
  uint64_t *handed;        /* the uids handed over, in order */
  size_t nhanded, cap;
  uidset seen;             /* ... as a set */
  strata_error *err;
} served;

/* meta's row key into row: 1 found, 0 none, < 0 -code. */
static int get_meta(store *st, const char *key, store_val *row) {
  store_val k = { .type = SV_TEXT, .p = key, .n = strlen(key) };
  return st->ops->get(st, T_META, &k, row);
}

/* What meta holds now: its generation, clock and uid counter. 1 when each
** row is there and well formed; < 0 -code. */
static int read_served_meta(store *st, save_gen *gen, double *time, uint64_t *next_uid) {
  store_val row[3];
  int whole = 1;
  memset(gen, 0, sizeof *gen);
  for (int g = 0; g < GEN_ROWS + 2; g++) {
    int got = get_meta(st, g < GEN_ROWS ? gen_keys[g] : g == GEN_ROWS ? "time" : "next_uid", row);
    uint64_t *id = g == 0 ? &gen->file_id : g == 1 ? &gen->save_id : &gen->prev;
    if (got < 0) return got;
    if (!got) whole = 0;
    else if (g < 3) whole &= row[1].type == SV_TEXT && parse_hex16(row[1].p, row[1].n, id);
    else if (g == 3) whole &= row[1].type == SV_INT && (gen->count = (uint64_t)row[1].i, 1);
    else if (g == GEN_ROWS) whole &= row[1].type == SV_REAL && (*time = row[1].r, 1);
    else whole &= row[1].type == SV_INT && row[1].i > 0 && (*next_uid = (uint64_t)row[1].i, 1);
  }
  return whole;
}

/* A store's failure as the save's error. */
static strata_status served_fail(served *sv, int rc) {
  return sv->wr.st->ops->fail(sv->wr.st, rc, "cannot save to", sv->err);
}

/* uid, and then everything positioned on it, on that, and so on, written
** as it is and queued for scope to. */
static strata_status hand_over(served *sv, uint64_t uid, const char *to) {
  size_t from = sv->nhanded;
  if (uidset_has(&sv->seen, uid)) return STRATA_OK;
  if (!uidset_add(&sv->seen, uid) || !STRATA_GROW(sv->handed, sv->cap, sv->nhanded + 1))
    return strata_error_nomem(sv->err, NULL);
  sv->handed[sv->nhanded++] = uid;
  for (size_t i = from; i < sv->nhanded; i++) {
    uint64_t u = sv->handed[i];
    int rc = write_uid(&sv->wr, sv->w, u);
    if (rc) return served_fail(sv, rc);
    strata_status st = sv->h->hand(sv->h->ud, sv->wr.st, u, to, sv->err);
    if (st) return st;
    for (uint64_t on = strata_world_next_on(sv->w, u, 0); on; on = strata_world_next_on(sv->w, u, on)) {
      if (uidset_has(&sv->seen, on)) continue;
      if (!uidset_add(&sv->seen, on) || !STRATA_GROW(sv->handed, sv->cap, sv->nhanded + 1))
        return strata_error_nomem(sv->err, NULL);
      sv->handed[sv->nhanded++] = on;
    }
  }
  return STRATA_OK;
}

/* A thing of the scope "world" changed in a process that does not serve it. */
static strata_status not_world(served *sv, const char *what, uint64_t uid) {
  char thing[64];
  if (uid) snprintf(thing, sizeof thing, "%.24s#%llu", what, (unsigned long long)uid);
  else snprintf(thing, sizeof thing, "%s", what);
  return strata_error_set(sv->err, STRATA_ESTATE, "cannot save to '%s': %s belongs to the scope world, which this "
                          "process does not serve", sv->uri, thing);
}

/* One changed uid: written when its scope is served, handed over when it
** is an object that moved out of them, refused otherwise. */
static strata_status served_uid(served *sv, uint64_t uid) {
  const strata_object *o = world_rec(sv->w, uid);
  char scope[STRATA_LEASE_SCOPE_MAX];
  if (!o) {
    if (!sv->h->world && (world_find_timer(sv->w, uid) != (size_t)-1 || find_sub(sv->w, uid) != (size_t)-1))
      return not_world(sv, world_find_timer(sv->w, uid) != (size_t)-1 ? "timer" : "subscription", uid);
    if (!sv->h->owns(sv->h->ud, sv->w, uid, scope) && !strcmp(scope, "world"))
      return not_world(sv, "object", uid); /* (deleted, but the world's to delete) */
    int rc = write_uid(&sv->wr, sv->w, uid); /* (gone: its row goes) */
    return rc ? served_fail(sv, rc) : STRATA_OK;
  }
  if (sv->h->owns(sv->h->ud, sv->w, uid, scope)) {
    int rc = write_uid(&sv->wr, sv->w, uid);
    return rc ? served_fail(sv, rc) : STRATA_OK;
  }
  if (!*scope)
    return strata_error_set(sv->err, STRATA_ESTATE, "cannot save to '%s': %.24s#%llu is on #%llu, which is in no "
                            "scope this process knows", sv->uri, o->kind, (unsigned long long)uid,
                            (unsigned long long)o->map);
  if (!strcmp(scope, "world")) return not_world(sv, o->kind, uid);
  if (o->tilemap || !strcmp(o->kind, "area") || !strcmp(o->kind, "map"))
    return strata_error_set(sv->err, STRATA_ESTATE, "cannot save to '%s': %.24s#%llu is in the scope %s, which this "
                            "process does not serve (only what is positioned moves between scopes)", sv->uri,
                            o->kind, (unsigned long long)uid, scope);
  return hand_over(sv, uid, scope);
}

/* Everything that changed in w, in the save's transaction. */
static strata_status served_rows(served *sv, const strata_mod_version *mods, size_t nmods) {
  strata_world *w = sv->w;
  strata_status st = STRATA_OK;
  for (size_t i = 0; i < w->dirty.cap && !st; i++)
    if (w->dirty.keys[i]) st = served_uid(sv, w->dirty.keys[i]);
  int64_t maps = 0, chunks = 0;
  int mismatch = 0, rc = 0;
  char scope[STRATA_LEASE_SCOPE_MAX];
  for (size_t i = 0; i < w->maps.cap && !st && !rc && !mismatch; i++) {
    uint64_t uid = w->maps.keys[i];
    if (uid && sv->h->owns(sv->h->ud, w, uid, scope)) rc = write_map(&sv->wr, w, uid, &maps, &chunks, &mismatch);
  }
  if (!st && mismatch)
    st = strata_error_set(sv->err, STRATA_EPARSE, "cannot save to '%s': corrupt save: the tiles of a map are not "
                          "the ones this process read", sv->uri);
  if (!st && !rc && w->streams_dirty) {
    if (!sv->h->world) return not_world(sv, "the random streams", 0);
    if (!(rc = delete_rows(&sv->wr, T_RNG, 0, 0))) rc = put_streams(&sv->wr, w);
  }
  if (!st && !rc && sv->h->world && !(rc = delete_rows(&sv->wr, T_MODS, 0, 0)))
    for (size_t i = 0; i < nmods && !rc; i++) rc = put_mod(&sv->wr, (int64_t)i, &mods[i]);
  if (!st && !rc) rc = sv->wr.st->ops->sync(sv->wr.st);
  return st ? st : rc ? served_fail(sv, rc) : STRATA_OK;
}

/* The transaction's part after its fence: meta as the database holds it,
** the rows, the uid block, meta again. *block_next: the new block's first
** uid (0: the old one goes on). */
static strata_status served_txn(served *sv, const strata_mod_version *mods, size_t nmods, uint64_t *block_next) {
  store *st = sv->wr.st;
  strata_world *w = sv->w;
  save_gen now;
  double time = 0;
  uint64_t next_uid = 0;
  int rc = read_served_meta(st, &now, &time, &next_uid);
  if (rc < 0) return served_fail(sv, -rc);
  if (!rc || !read_counts(&sv->wr, &rc))
    return rc ? served_fail(sv, rc)
              : strata_error_set(sv->err, STRATA_EPARSE, "cannot save to '%s': corrupt save: meta is incomplete",
                                 sv->uri);
  if (now.file_id != w->file.gen.file_id)
    return strata_error_set(sv->err, STRATA_ESTATE, "cannot save to '%s': the world was replaced by a whole save "
                            "since this process opened it", sv->uri);
  sv->wr.gen = (save_gen){ now.file_id, file_random64(), now.save_id, now.count + 1 };
  strata_status res = served_rows(sv, mods, nmods);
  if (res) return res;
  /* A new block when half of this one is used (or there is none yet). */
  *block_next = !w->uid_limit || w->uid_limit - w->next_uid < sv->h->block / 2 ? next_uid : 0;
  sv->wr.served = 1;
  sv->wr.time = time > w->time ? time : w->time;
  sv->wr.next_uid = *block_next ? next_uid + sv->h->block : next_uid;
  rc = put_meta(&sv->wr, w);
  return rc ? served_fail(sv, rc) : STRATA_OK;
}

strata_status save_served(strata_world *w, const char *uri, const serve_hooks *h, const strata_mod_version *mods,
                          size_t nmods, uint64_t **handed, size_t *nhanded, strata_error *err) {
  served sv;
  memset(&sv, 0, sizeof sv);
  sv.w = w, sv.h = h, sv.uri = uri, sv.err = err;
  *handed = NULL, *nhanded = 0;
  if (!store_pg_idle(w->file.store)) {
    store_pg_free(w->file.store); /* lost (a restart, a failed save): a new connection */
    if (!(w->file.store = store_pg_open(uri, "cannot save to", err))) return err ? err->status : STRATA_EIO;
  }
  store *st = w->file.store;
  writer_init(&sv.wr, st, &w->file.gen);
  uint64_t block_next = 0;
  int rc = st->ops->begin(st, 0);
  strata_status res = rc ? served_fail(&sv, rc) : h->fence(h->ud, st, err);
  if (!res) res = served_txn(&sv, mods, nmods, &block_next);
  if (!res && (rc = st->ops->commit(st))) res = served_fail(&sv, rc);
  if (res) st->ops->rollback(st);
  writer_done(&sv.wr);
  uidset_free(&sv.seen);
  if (res) {
    strata_free(sv.handed);
    return res; /* nothing written: the world stays as dirty as it was */
  }
  w->file.gen = sv.wr.gen;
  world_dirty_reset(w);
  record_maps(w);
  if (block_next) world_set_uid_block(w, block_next, block_next + h->block);
  *handed = sv.handed, *nhanded = sv.nhanded;
  return STRATA_OK;
}

int save_load_object(strata_world *w, store *st, uint64_t uid, strata_error *err) {
  save_reader rd;
  memset(&rd, 0, sizeof rd);
  rd.sto = st, rd.err = err, rd.w = w;
  if (read_tie(st, &rd.tie, err)) return -1;
  store_val key = { .type = SV_INT, .i = (int64_t)uid };
  int got = st->ops->get(st, T_OBJECTS, &key, rd.row);
  if (got <= 0) return got < 0 ? (read_error(err, st, "objects", -got), -1) : 0;
  if (!row_ok(&rd.tie, rd.row, T_OBJECTS)) return bad_row(err, T_OBJECTS, (long long)uid), -1;
  world_forget(w, uid);
  return read_object(&rd, (long long)uid) ? -1 : 1;
}
