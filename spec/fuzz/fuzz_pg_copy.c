/*
** fuzz_pg_copy.c - libFuzzer target: any bytes as a PostgreSQL binary COPY
** stream of one of a world's tables (the first byte picks the table), read
** as store_pg.c reads what a server sends: the header, then tuples until
** the trailer, a fault, or bytes not all at hand. Every length the decoder
** returns stays within the bytes given, every text or blob value lies
** within its tuple, and each but the last column is followed by its zero.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pg_copy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts unless every value of row lies within [p, p + len) and text and
** blobs (but the checksum, the last column) end in a zero byte. */
static void check_row(int t, const store_val *row, const unsigned char *p, long len) {
  const store_table *tb = &store_tables[t];
  for (int c = 0; c < tb->ncols; c++) {
    if (row[c].type != SV_TEXT && row[c].type != SV_BLOB) continue;
    const unsigned char *v = row[c].p;
    if (v < p || v + row[c].n > p + len) abort();
    if (c + 1 < tb->ncols && (v + row[c].n >= p + len || v[row[c].n] != 0)) abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const int t = data[0] % STORE_NTABLES;
  unsigned char *buf = malloc(size); /* the decoder writes the zeros in place */
  if (!buf) return 0;
  memcpy(buf, data + 1, size - 1);
  size_t n = size - 1, at = 0;
  const char *why = NULL;
  long got = pg_copy_header(buf, n, &why);
  if (got > (long)n || (got < 0 && !why)) abort();
  if (got > 0) {
    at = (size_t)got;
    for (;;) {
      store_val row[16]; /* more than any table has columns */
      int end = 0;
      why = NULL;
      got = pg_copy_tuple(t, buf + at, n - at, row, &end, &why);
      if (got < 0 && !why) abort();
      if (got <= 0 || end) break;
      if ((size_t)got > n - at) abort();
      check_row(t, row, buf + at, got);
      at += (size_t)got;
    }
  }
  free(buf);
  return 0;
}
