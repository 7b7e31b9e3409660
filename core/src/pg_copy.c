/*
** pg_copy.c - PostgreSQL's binary values and COPY stream decoded (pg_copy.h).
** A tuple split across the server's messages is "not all there" until its
** last byte is at hand: the caller gathers what the server sent, never what
** a length claims, so a hostile length costs no allocation.
*/
#include "pg_copy.h"

#include <string.h>

static uint64_t get64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | p[i];
  return v;
}

static uint32_t get32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void pg_value_from(const unsigned char *p, size_t n, char typ, store_val *o) {
  memset(o, 0, sizeof *o);
  o->type = SV_NULL;
  if (!p) return;
  switch (typ | 0x20) {
  case 'i':
  case 'r':
    if (n != 8) return; /* (never from an int8 or float8 column) */
    if ((typ | 0x20) == 'i') {
      o->type = SV_INT;
      o->i = (int64_t)get64(p);
    } else {
      uint64_t bits = get64(p);
      o->type = SV_REAL;
      memcpy(&o->r, &bits, 8);
    }
    return;
  case 't': o->type = SV_TEXT; o->p = p; o->n = n; return;
  case 'b': o->type = SV_BLOB; o->p = p; o->n = n; return;
  }
  /* meta's value: a type's code, then its bytes; anything else reads as
  ** NULL, which the row's checksum refuses */
  if (n < 1) return;
  if ((p[0] == SV_INT || p[0] == SV_REAL) && n == 9) {
    store_val w = { .type = SV_INT, .i = 0 };
    uint64_t bits = get64(p + 1);
    *o = w;
    if (p[0] == SV_INT) o->i = (int64_t)bits;
    else o->type = SV_REAL, memcpy(&o->r, &bits, 8);
  } else if (p[0] == SV_TEXT || p[0] == SV_BLOB) {
    o->type = p[0];
    o->p = p + 1; /* (a zero byte follows every value: text stays a C string) */
    o->n = n - 1;
  }
}

long pg_copy_header(const unsigned char *p, size_t n, const char **why) {
  static const unsigned char sig[11] = "PGCOPY\n\377\r\n";
  *why = "no binary COPY header";
  if (memcmp(p, sig, n < 11 ? n : 11)) return -1;
  if (n < 19) return 0;
  /* flags 16-31 are critical (16: OIDs): none is one strata reads */
  if ((get32(p + 11) & 0xffff0000u) || get32(p + 15) > PG_COPY_FIELD_MAX) return -1;
  return n - 19 < get32(p + 15) ? 0 : (long)(19 + get32(p + 15));
}

long pg_copy_tuple(int t, unsigned char *p, size_t n, store_val *row, int *end, const char **why) {
  const store_table *tb = &store_tables[t];
  if (n < 2) return 0;
  unsigned nf = (unsigned)p[0] << 8 | p[1];
  if (nf == 0xffffu) {
    *end = 1;
    return 2;
  }
  if (nf != (unsigned)tb->ncols) {
    *why = "a row of another count of columns";
    return -1;
  }
  size_t q = 2;
  for (int c = 0; c < tb->ncols; c++) {
    if (n - q < 4) return 0;
    uint32_t len = get32(p + q);
    int null = len == 0xffffffffu;
    q += 4;
    if (!null && len > PG_COPY_FIELD_MAX) {
      *why = "a column's length out of bounds";
      return -1;
    }
    if (!null && n - q < len) return 0;
    pg_value_from(null ? NULL : p + q, null ? 0 : len, tb->types[c], &row[c]);
    q += null ? 0 : len;
  }
  /* (the last column, the checksum, is no text: its end needs no zero) */
  uint32_t len = get32(p + 2);
  for (size_t k = 2, c = 0; c + 1 < (size_t)tb->ncols; c++) {
    k += 4 + (len == 0xffffffffu ? 0 : len);
    len = get32(p + k); /* (read before its first byte becomes the zero) */
    p[k] = 0;
  }
  return (long)q;
}
