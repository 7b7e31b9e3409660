/* test_value_block.c - a table decoded or copied holds its string keys in
** its own block (an opened world's object has a table of a few properties:
** one allocation for the table, its arrays and its keys, rather than one
** more per key). Counted by an allocator set first: decoding or copying
** { hp = 10, name = "goblin", gold = 5 } makes two blocks (the table, the
** string value); such a table then behaves as any other (keys removed,
** added past its room, replaced, copied, cleared) and frees everything. */
#include <stdlib.h>

#include "check.h"
#include "counting_alloc.h"
#include "strata/alloc.h"
#include "strata/value.h"


static void set_str(strata_vtable *t, const char *k, const char *s) {
  strata_value key, v;
  strata_value_string(&key, k, strlen(k), NULL);
  strata_value_string(&v, s, strlen(s), NULL);
  CHECK_EQ_INT(strata_vtable_set(t, &key, &v, NULL), STRATA_OK);
  strata_value_clear(&key);
}
static void set_int(strata_vtable *t, const char *k, int64_t i) {
  strata_value key, v = strata_value_int(i);
  strata_value_string(&key, k, strlen(k), NULL);
  CHECK_EQ_INT(strata_vtable_set(t, &key, &v, NULL), STRATA_OK);
  strata_value_clear(&key);
}
static void unset(strata_vtable *t, const char *k) {
  strata_value key, v = strata_value_nil();
  strata_value_string(&key, k, strlen(k), NULL);
  CHECK_EQ_INT(strata_vtable_set(t, &key, &v, NULL), STRATA_OK);
  strata_value_clear(&key);
}
static int64_t get_int(const strata_vtable *t, const char *k) {
  const strata_value *v = strata_vtable_get_str(t, k);
  return v && v->type == STRATA_VINT ? v->u.i : -1;
}

int main(void) {
  counter c = {0, 0, 0, 0};
  strata_allocator a = { count_malloc, count_realloc, count_free, &c };
  CHECK_EQ_INT(strata_set_allocator(&a, NULL), STRATA_OK);

  strata_value props;
  CHECK_EQ_INT(strata_value_table(&props, NULL), STRATA_OK);
  set_int(props.u.t, "hp", 10);
  set_str(props.u.t, "name", "goblin");
  set_int(props.u.t, "gold", 5);
  strata_buffer b = { 0 };
  CHECK_EQ_INT(strata_value_encode(&props, &b, NULL), STRATA_OK);

  /* decoded: the table's block and the string value */
  long before = c.blocks;
  strata_value d;
  CHECK_EQ_INT(strata_value_decode(&d, b.data, b.len, NULL), STRATA_OK);
  CHECK_EQ_INT(c.blocks - before, 2);
  CHECK(strata_value_equal(&d, &props));
  /* copied: the same */
  before = c.blocks;
  strata_value cp;
  CHECK_EQ_INT(strata_value_copy(&cp, &d, NULL), STRATA_OK);
  CHECK_EQ_INT(c.blocks - before, 2);
  CHECK(strata_value_equal(&cp, &props));

  /* a key removed, one replaced, then more keys than its room */
  unset(d.u.t, "name");
  CHECK(!strata_vtable_get_str(d.u.t, "name"));
  CHECK_EQ_INT(get_int(d.u.t, "gold"), 5);
  set_int(d.u.t, "hp", 11);
  char k[16];
  for (int i = 0; i < 40; i++) {
    snprintf(k, sizeof k, "k%d", i);
    set_int(d.u.t, k, i);
  }
  CHECK_EQ_INT(get_int(d.u.t, "hp"), 11);
  CHECK_EQ_INT(get_int(d.u.t, "gold"), 5);
  CHECK_EQ_INT(get_int(d.u.t, "k39"), 39);
  unset(d.u.t, "gold");
  unset(d.u.t, "hp");
  CHECK_EQ_INT(d.u.t->n, 40);

  /* nested tables and integer keys, decoded and copied */
  strata_value outer, inner;
  CHECK_EQ_INT(strata_value_table(&outer, NULL), STRATA_OK);
  strata_value_copy(&inner, &props, NULL);
  strata_value one = strata_value_int(1);
  CHECK_EQ_INT(strata_vtable_set(outer.u.t, &one, &inner, NULL), STRATA_OK);
  set_str(outer.u.t, "a rather longer key than the others", "x");
  strata_buffer b2 = { 0 };
  CHECK_EQ_INT(strata_value_encode(&outer, &b2, NULL), STRATA_OK);
  strata_value d2;
  CHECK_EQ_INT(strata_value_decode(&d2, b2.data, b2.len, NULL), STRATA_OK);
  CHECK(strata_value_equal(&d2, &outer));
  /* a table whose last pair is broken: what was decoded is freed */
  strata_value bad;
  CHECK(strata_value_decode(&bad, b2.data, b2.len - 1, NULL) != STRATA_OK);
  CHECK(strata_value_decode(&bad, b2.data, b2.len - 3, NULL) != STRATA_OK);

  strata_value_clear(&d2);
  strata_value_clear(&outer);
  strata_buffer_free(&b2);
  strata_value_clear(&d);
  strata_value_clear(&cp);
  strata_value_clear(&props);
  strata_buffer_free(&b);
  CHECK_EQ_INT(c.live, 0);
  return check_summary("value_block");
}
