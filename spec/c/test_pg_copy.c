/*
** test_pg_copy.c - PostgreSQL's binary COPY stream decoded (core/src/pg_copy.h),
** as a damaged or hostile server could send it: every prefix of a tuple or
** header is "not all there" (and leaves the bytes as they were), a count of
** columns or a length out of bounds is refused with one line, a length
** claiming more than is at hand never reads past it. No server needed.
*/
#include <string.h>

#include "check.h"
#include "pg_copy.h"

static size_t put16(unsigned char *p, unsigned v) {
  p[0] = (unsigned char)(v >> 8);
  p[1] = (unsigned char)v;
  return 2;
}

static size_t put32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (24 - 8 * i));
  return 4;
}

static size_t put_int(unsigned char *p, int64_t v) {
  size_t n = put32(p, 8);
  for (int i = 0; i < 8; i++) p[n + (size_t)i] = (unsigned char)((uint64_t)v >> (56 - 8 * i));
  return n + 8;
}

static size_t put_text(unsigned char *p, const char *s) {
  size_t n = put32(p, (uint32_t)strlen(s));
  memcpy(p + n, s, strlen(s));
  return n + strlen(s);
}

/* A row of mods (ord, id, version, sum: "itti") as COPY sends it. */
static size_t mods_row(unsigned char *p) {
  size_t n = put16(p, 4);
  n += put_int(p + n, 3);
  n += put_text(p + n, "base");
  n += put_text(p + n, "0.1.0");
  n += put_int(p + n, -5);
  return n;
}

static void tuples(void) {
  unsigned char buf[128], copy[128];
  store_val row[4];
  const char *why = NULL;
  int end = 0;
  size_t len = mods_row(buf);
  memcpy(copy, buf, len);
  /* every prefix: not all there, the bytes untouched */
  for (size_t n = 0; n < len; n++) {
    CHECK_EQ_INT((int)pg_copy_tuple(T_MODS, buf, n, row, &end, &why), 0);
    CHECK(memcmp(buf, copy, len) == 0 && !end);
  }
  /* the whole tuple, a trailer after it */
  put16(buf + len, 0xffff);
  CHECK_EQ_INT((int)pg_copy_tuple(T_MODS, buf, len + 2, row, &end, &why), (int)len);
  CHECK(!end);
  CHECK(row[0].type == SV_INT && row[0].i == 3);
  CHECK(row[1].type == SV_TEXT && row[1].n == 4 && !strcmp(row[1].p, "base"));
  CHECK(row[2].type == SV_TEXT && row[2].n == 5 && !strcmp(row[2].p, "0.1.0"));
  CHECK(row[3].type == SV_INT && row[3].i == -5);
  CHECK_EQ_INT((int)pg_copy_tuple(T_MODS, buf + len, 2, row, &end, &why), 2);
  CHECK(end);
}

static void refused(void) {
  unsigned char buf[128];
  store_val row[4];
  const char *why;
  int end = 0;
  /* another count of columns */
  size_t len = mods_row(buf);
  put16(buf, 3);
  why = NULL;
  CHECK_EQ_INT((int)pg_copy_tuple(T_MODS, buf, len, row, &end, &why), -1);
  CHECK(why && strstr(why, "columns") && !strchr(why, '\n'));
  /* lengths past PostgreSQL's largest value, or negative but NULL's -1 */
  static const uint32_t bad[] = { 0x40000000u, 0x7fffffffu, 0x80000000u, 0xfffffffeu };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    mods_row(buf);
    put32(buf + 2 + 12, bad[i]); /* the id's length */
    why = NULL;
    CHECK_EQ_INT((int)pg_copy_tuple(T_MODS, buf, len, row, &end, &why), -1);
    CHECK(why && strstr(why, "length"));
  }
  /* a length claiming more than is at hand: not all there, nothing read past */
  mods_row(buf);
  put32(buf + 2 + 12, 1000);
  CHECK_EQ_INT((int)pg_copy_tuple(T_MODS, buf, len, row, &end, &why), 0);
  /* NULL (-1) in a column, an integer of 4 bytes: values the checksum refuses */
  size_t n = put16(buf, 4);
  n += put32(buf + n, 0xffffffffu);
  n += put32(buf + n, 0);
  n += put32(buf + n, 4);
  n += put32(buf + n, 7);
  n += put32(buf + n, 4);
  n += put32(buf + n, 9);
  CHECK_EQ_INT((int)pg_copy_tuple(T_MODS, buf, n, row, &end, &why), (int)n);
  CHECK(row[0].type == SV_NULL && row[1].type == SV_TEXT && row[1].n == 0 && row[3].type == SV_NULL);
}

static void header(void) {
  static const unsigned char sig[11] = "PGCOPY\n\377\r\n";
  unsigned char buf[64];
  const char *why = NULL;
  memcpy(buf, sig, 11);
  size_t n = 11 + put32(buf + 11, 0);
  n += put32(buf + n, 3); /* an extension of 3 bytes */
  memcpy(buf + n, "abc", 3);
  n += 3;
  for (size_t k = 0; k < n; k++) CHECK_EQ_INT((int)pg_copy_header(buf, k, &why), 0);
  CHECK_EQ_INT((int)pg_copy_header(buf, n, &why), (int)n);
  /* another signature (a byte of it, at hand or not), a critical flag, a
  ** huge extension */
  buf[3] = 'X';
  CHECK_EQ_INT((int)pg_copy_header(buf, 5, &why), -1);
  CHECK_EQ_INT((int)pg_copy_header(buf, n, &why), -1);
  CHECK(why && strstr(why, "header"));
  buf[3] = 'O';
  put32(buf + 11, 1u << 16);
  CHECK_EQ_INT((int)pg_copy_header(buf, n, &why), -1);
  put32(buf + 11, 0);
  put32(buf + 15, 0xfffffff0u);
  CHECK_EQ_INT((int)pg_copy_header(buf, n, &why), -1);
}

int main(void) {
  tuples();
  refused();
  header();
  return check_summary("pg_copy");
}
