/*
** rowsum.h - the checksum of a save's row (save.c): the table's name, the
** file's identity (file.id; none in a file from before saves were tied,
** docs/saves.md), then per column a type, a length and the bytes (integers
** and reals as 64-bit words). The writer feeds the values it binds, the
** reader what SQLite gives back: equal only when every column came back as
** it was written, in type and in bytes, into the file it was written for.
**
** Format 4 hashes 8 bytes a step (a multiply and a shift: each step is a
** bijection of the state, so rows of two files never share a checksum);
** format 3 hashed a byte a step (FNV-1a), 15 % of an open's time, and is
** still read. Inline: called per column of a million rows.
*/
#ifndef STRATA_ROWSUM_H
#define STRATA_ROWSUM_H

#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

typedef struct rowsum {
  uint64_t h;
  int words;               /* format 4's hash; 0: format 3's */
} rowsum;

static inline void rowsum_fnv(rowsum *r, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) { r->h ^= b[i]; r->h *= 0x100000001b3ull; }
}

static inline void rowsum_word(rowsum *r, uint64_t w) {
  r->h = (r->h ^ w) * 0xbf58476d1ce4e5b9ull;
  r->h ^= r->h >> 31;
}

/* Little-endian whatever the machine: files move between machines. */
static inline uint64_t rowsum_le(const unsigned char *b, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) v |= (uint64_t)b[i] << (8 * i);
  return v;
}

/* 8 bytes at b as a little-endian word: one load where the machine is. */
static inline uint64_t rowsum_le8(const unsigned char *b) {
  uint64_t v;
  memcpy(&v, b, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#elif !defined(__BYTE_ORDER__)
  v = rowsum_le(b, 8);
#endif
  return v;
}

static inline void rowsum_u64(rowsum *r, uint64_t v) {
  if (r->words) { rowsum_word(r, v); return; }
  unsigned char le[8];
  for (int i = 0; i < 8; i++) le[i] = (unsigned char)(v >> (8 * i));
  rowsum_fnv(r, le, 8);
}

/* A column of type `type` holding n bytes at p (text, blobs). */
static inline void rowsum_typed(rowsum *r, unsigned char type, const void *p, size_t n) {
  if (!r->words) {
    rowsum_fnv(r, &type, 1);
    rowsum_u64(r, n);
    rowsum_fnv(r, p, n);
    return;
  }
  const unsigned char *b = p;
  rowsum_word(r, type | (uint64_t)n << 8);
  for (; n >= 8; b += 8, n -= 8) rowsum_word(r, rowsum_le8(b));
  if (n) rowsum_word(r, rowsum_le(b, n)); /* the length, hashed first, tells the padding */
}

static inline void rowsum_type(rowsum *r, unsigned char type) {
  if (r->words) rowsum_word(r, type);
  else rowsum_fnv(r, &type, 1);
}

static inline void rowsum_int(rowsum *r, int64_t v) {
  rowsum_type(r, SQLITE_INTEGER);
  rowsum_u64(r, (uint64_t)v);
}

static inline void rowsum_real(rowsum *r, double v) {
  uint64_t bits;
  memcpy(&bits, &v, 8);
  rowsum_type(r, SQLITE_FLOAT);
  rowsum_u64(r, bits);
}

static inline void rowsum_null(rowsum *r) { rowsum_type(r, SQLITE_NULL); }

/* Where every row of a table starts: its name (with its NUL) and the
** file's id (0: none), hashed once per save or open rather than per row. */
static inline uint64_t rowsum_seed(const char *table, uint64_t file_id, int words) {
  rowsum r = { 0xcbf29ce484222325ull, words };
  if (words) rowsum_typed(&r, SQLITE_TEXT, table, strlen(table) + 1);
  else rowsum_fnv(&r, table, strlen(table) + 1);
  if (file_id) rowsum_u64(&r, file_id);
  return r.h;
}

#endif
