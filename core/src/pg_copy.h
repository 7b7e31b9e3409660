/*
** pg_copy.h - PostgreSQL's binary values and its binary COPY stream decoded
** into a store's values (store.h), apart from libpq: the PostgreSQL store
** (store_pg.c) reads what the server sends through them, and a test feeds
** them what a damaged or hostile server could.
**
** The stream: a header (its signature, 4 bytes of flags, an extension of a
** 4-byte length), then each tuple (a 2-byte count of fields, each field a
** 4-byte length, -1 for NULL, then its bytes), then a trailer (a count of
** -1), all big-endian. Every length is checked against the bytes at hand.
*/
#ifndef STRATA_PG_COPY_H
#define STRATA_PG_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* The most bytes a field holds: PostgreSQL's largest value (1 GB). */
#define PG_COPY_FIELD_MAX 0x3fffffffu

/* A column's n bytes at p (NULL: SQL's NULL) of type letter typ (store.h)
** as a value: int8 and float8 as integers and reals, bytea as text or
** blobs pointing at p (which a zero byte must follow), meta's value led by
** its type's code; bytes of another shape read as NULL, which the row's
** checksum refuses. */
void pg_value_from(const unsigned char *p, size_t n, char typ, store_val *o);

/* The header at p (n bytes): its length; 0 when not all of it is at hand;
** -1 (*why: one line) when it is not a binary COPY header strata reads. */
long pg_copy_header(const unsigned char *p, size_t n, const char **why);

/* The tuple of table t at p (n bytes) into row: its length; 0 when not
** all of it is at hand (p untouched); -1 (*why) when it is not one of t's;
** the trailer: 2 with *end set. The byte after each text or blob (the next
** field's length, once read) becomes the zero that ends it. */
long pg_copy_tuple(int t, unsigned char *p, size_t n, store_val *row, int *end, const char **why);

#endif
