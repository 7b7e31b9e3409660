/*
** test_json.c - the JSON reader and writer (strata/json.h): exact numbers,
** escapes and UTF-8, canonical text (written, read, written again: the same
** bytes), refusals naming the JSON path, line and column, the limits.
*/
#include <stdlib.h>

#include "check.h"
#include "strata/strata.h"

/* text parsed and written (compact) into out; the status. */
static strata_status round_trip(const char *text, char *out, size_t cap, strata_error *err) {
  strata_json v;
  strata_status s = strata_json_parse(&v, text, strlen(text), err);
  if (s) return s;
  strata_buffer b = { 0 };
  s = strata_json_write(&v, 0, &b, err);
  if (!s) snprintf(out, cap, "%.*s", (int)b.len, (const char *)b.data);
  strata_buffer_free(&b);
  strata_json_free(&v);
  return s;
}

static void numbers_and_strings(void) {
  char out[512];
  strata_error err;
  CHECK_EQ_INT(round_trip(" [0, -1, 9223372036854775807, -9223372036854775808, 1.0, 0.1, 1e300, 2.5e-3, -0.0] ",
                     out, sizeof out, &err), STRATA_OK);
  CHECK_STR(out, "[0,-1,9223372036854775807,-9223372036854775808,1.0,0.1,1e+300,0.0025,-0.0]");
  CHECK_EQ_INT(round_trip("[9223372036854775808]", out, sizeof out, &err), STRATA_OK);
  CHECK_STR(out, "[9.223372036854776e+18]");
  CHECK_EQ_INT(round_trip("\"a\\u00e9\\ud83d\\ude00\\/\\b\\f\\n\\r\\t\\u0000\\u001f\"", out, sizeof out, &err), STRATA_OK);
  CHECK(memcmp(out, "\"a\xc3\xa9\xf0\x9f\x98\x80/\\u0008\\u000c\\n\\r\\t\\u0000\\u001f\"", 36) == 0);
  CHECK_EQ_INT(round_trip("{\"b\": {\"c\": [true, false, null]}, \"a\": []}", out, sizeof out, &err), STRATA_OK);
  CHECK_STR(out, "{\"b\":{\"c\":[true,false,null]},\"a\":[]}");
  double samples[] = { 0.1, 1.0 / 3, 5e-324, 1.7976931348623157e308, 123456789.125, -2.5 };
  for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
    strata_json f = strata_json_float(samples[i]), back;
    strata_buffer b = { 0 };
    CHECK_EQ_INT(strata_json_write(&f, 0, &b, &err), STRATA_OK);
    CHECK_EQ_INT(strata_json_parse(&back, (const char *)b.data, b.len, &err), STRATA_OK);
    CHECK(back.type == STRATA_JFLOAT && back.u.f == samples[i]);
    strata_buffer_free(&b);
  }
}

/* text refused with status and a message beginning with want, at line:column. */
static void refused(const char *text, strata_status status, const char *want, int line, int column) {
  strata_json v;
  strata_error err;
  CHECK_EQ_INT(strata_json_parse(&v, text, strlen(text), &err), status);
  CHECK(v.type == STRATA_JNULL);
  if (strncmp(err.message, want, strlen(want)) != 0) fprintf(stderr, "got: %s\n", err.message);
  CHECK(strncmp(err.message, want, strlen(want)) == 0);
  if (line) {
    CHECK_EQ_INT(err.line, line);
    CHECK_EQ_INT(err.column, column);
  }
}

static void refusals(void) {
  refused("{\"objects\": [{\"hp\": 1},\n {\"hp\": \"x\", }]}", STRATA_EPARSE, "$.objects[1]: expected a key", 2, 14);
  refused("", STRATA_EPARSE, "$: the text ends where a value should be", 1, 1);
  refused("[1,", STRATA_EPARSE, "$[1]: the text ends where a value should be", 1, 4);
  refused("{\"a\":1,\"b\":2,\"a\":3}", STRATA_EPARSE, "$.a: a duplicate key", 0, 0);
  refused("[\"\x80\"]", STRATA_EPARSE, "$[0]: a string that is not UTF-8", 1, 3);
  refused("[\"\xc0\xaf\"]", STRATA_EPARSE, "$[0]: a string that is not UTF-8", 0, 0);
  refused("[\"\xed\xa0\x80\"]", STRATA_EPARSE, "$[0]: a string that is not UTF-8", 0, 0);
  refused("[\"\\udc00\"]", STRATA_EPARSE, "$[0]: a lone low surrogate", 0, 0);
  refused("[\"\\x\"]", STRATA_EPARSE, "$[0]: an unknown escape", 0, 0);
  refused("[\"a\nb\"]", STRATA_EPARSE, "$[0]: a control character", 0, 0);
  refused("{\"a b\": [1 2]}", STRATA_EPARSE, "$[\"a b\"]: expected ',' or ']'", 1, 12);
  refused("[-]", STRATA_EPARSE, "$[0]: a number without digits", 0, 0);
  refused("[1.]", STRATA_EPARSE, "$[0]: a number without digits after its '.'", 0, 0);
  refused("[NaN]", STRATA_EPARSE, "$[0]: expected a value", 0, 0);
  refused("1 2", STRATA_EPARSE, "$: text after the value", 1, 3);
  /* as deep as allowed, and one more */
  size_t n = STRATA_JSON_MAX_DEPTH;
  char *deep = malloc(2 * n + 3);
  memset(deep, '[', n);
  memset(deep + n, ']', n);
  deep[2 * n] = '\0';
  strata_json v;
  strata_error err;
  CHECK_EQ_INT(strata_json_parse(&v, deep, 2 * n, &err), STRATA_OK);
  strata_json_free(&v);
  memset(deep, '[', n + 1);
  memset(deep + n + 1, ']', n + 1);
  deep[2 * n + 2] = '\0';
  refused(deep, STRATA_ELIMIT, "$[0][0]", 0, 0);
  CHECK(strstr(err.message, "...") == NULL);
  CHECK_EQ_INT(strata_json_parse(&v, deep, 2 * n + 2, &err), STRATA_ELIMIT);
  CHECK(strstr(err.message, "...") != NULL && strstr(err.message, "nested deeper than 512 levels") != NULL);
  free(deep);
  CHECK_EQ_INT(strata_json_parse(&v, "[]", STRATA_JSON_MAX_SIZE + 1, &err), STRATA_ELIMIT);
}

static void building_and_writing(void) {
  strata_error err;
  strata_json root = strata_json_object(), rows = strata_json_array(), s, x = strata_json_int(3);
  CHECK_EQ_INT(strata_json_string(&s, "#.#", 3, &err), STRATA_OK);
  CHECK_EQ_INT(strata_json_push(&rows, &s, &err), STRATA_OK);
  CHECK(s.type == STRATA_JNULL);
  CHECK_EQ_INT(strata_json_put(&root, "x", 1, &x, &err), STRATA_OK);
  CHECK_EQ_INT(strata_json_put(&root, "rows", 4, &rows, &err), STRATA_OK);
  strata_json inner = strata_json_object(), f = strata_json_float(0.5);
  CHECK_EQ_INT(strata_json_put(&inner, "f", 1, &f, &err), STRATA_OK);
  CHECK_EQ_INT(strata_json_put(&root, "inner", 5, &inner, &err), STRATA_OK);
  CHECK(strata_json_get(&root, "rows") && strata_json_get(&root, "rows")->u.c.n == 1);
  CHECK(strata_json_get(&root, "nope") == NULL);
  strata_buffer b = { 0 };
  CHECK_EQ_INT(strata_json_write(&root, 1, &b, &err), STRATA_OK);
  CHECK(b.len == strlen("{\n  \"x\": 3,\n  \"rows\": [\"#.#\"],\n  \"inner\": {\n    \"f\": 0.5\n  }\n}\n"));
  CHECK(memcmp(b.data, "{\n  \"x\": 3,\n  \"rows\": [\"#.#\"],\n  \"inner\": {\n    \"f\": 0.5\n  }\n}\n", b.len) == 0);
  /* refused: the buffer as it was, the path named */
  size_t len = b.len;
  strata_json bad = strata_json_float(NAN), bytes;
  CHECK_EQ_INT(strata_json_put(&root, "bad", 3, &bad, &err), STRATA_OK);
  CHECK_EQ_INT(strata_json_write(&root, 0, &b, &err), STRATA_EARG);
  CHECK_STR(err.message, "$.bad: NaN is no JSON number");
  CHECK_EQ_INT(b.len, len);
  CHECK_EQ_INT(strata_json_string(&bytes, "\xff", 1, &err), STRATA_OK);
  strata_json arr = strata_json_array();
  CHECK_EQ_INT(strata_json_push(&arr, &bytes, &err), STRATA_OK);
  CHECK_EQ_INT(strata_json_write(&arr, 0, &b, &err), STRATA_EARG);
  CHECK_STR(err.message, "$[0]: a string that is not UTF-8 (byte 1)");
  strata_json_free(&arr);
  strata_buffer_free(&b);
  strata_json_free(&root);
  /* a path's format */
  strata_json_path a = { NULL, "objects", 7, 0 }, i = { &a, NULL, 0, 12 }, k = { &i, "a \"b\"", 5, 0 };
  char text[128];
  strata_json_path_format(&k, text, sizeof text);
  CHECK_STR(text, "$.objects[12][\"a \\\"b\\\"\"]");
  strata_json_fail(&err, STRATA_EARG, &i, "expected %s", strata_json_type_name(STRATA_JOBJECT));
  CHECK_STR(err.message, "$.objects[12]: expected an object");
  /* long keys of escapes and of wide characters, deep paths: cut, never past buf
  ** (fuzz_json found the escapes writing past a step's buffer) */
  char key[600], wide[600], big[300];
  memset(key, '\\', sizeof key);
  for (size_t j = 0; j + 3 <= sizeof wide; j += 3) memcpy(wide + j, "\xe2\x9c\x93", 3);
  char ctl[600]; /* each written \u0001: six bytes a byte of the key */
  memset(ctl, 1, sizeof ctl);
  strata_json_path cp = { &i, ctl, sizeof ctl, 0 };
  strata_json_path kp = { &cp, key, sizeof key, 0 }, wp = { &kp, wide, sizeof wide / 3 * 3, 0 }, chain[40];
  for (size_t j = 0; j < 40; j++) chain[j] = (strata_json_path){ j ? &chain[j - 1] : &wp, wide, 299, 0 };
  for (size_t cap = 128; cap <= sizeof big; cap += 43) {
    memset(big, 'x', sizeof big);
    strata_json_path_format(&chain[39], big, cap);
    CHECK(strlen(big) < cap && big[0] == '$' && strstr(big, "...") != NULL);
    CHECK(strata_json_is_utf8(big, strlen(big)));
    strata_json_path_format(&wp, big, cap);
    CHECK(strlen(big) < cap);
    strata_json_path_format(&cp, big, cap);
    CHECK(strlen(big) < cap && strstr(big, "\\u0001...\"]") != NULL);
  }
  strata_json_path_format(&k, big, 64);
  CHECK_STR(big, "");
}

/* A world's JSON, read back: the same text; a refusal makes nothing. */
static void world_round_trip(void) {
  strata_error err;
  strata_world *w = strata_world_new(UINT64_MAX, &err); /* a seed past int64_t: written as its digits */
  uint64_t map, actor, timer, sub;
  CHECK_EQ_INT(strata_world_create_map(w, 5, 2, NULL, &map, &err), STRATA_OK);
  strata_tilemap *m = strata_world_tilemap(w, map);
  strata_tokens *t = strata_world_tokens(w);
  strata_token floor = strata_tokens_intern(t, "floor", 5, &err), moss = strata_tokens_intern(t, "x.moss", 6, &err);
  CHECK_EQ_INT(strata_tilemap_clear(m, floor, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_set(m, 2, 1, moss, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_reset(m, 4, 0, 0, &err), STRATA_OK);
  CHECK_EQ_INT(strata_world_create(w, "actor", "x.ghoul", &actor, &err), STRATA_OK);
  CHECK_EQ_INT(strata_object_set_position(w, actor, map, 1, 1, &err), STRATA_OK);
  strata_value key, hp = strata_value_float(0.1), ref = strata_value_ref(map);
  CHECK_EQ_INT(strata_value_string(&key, "hp", 2, &err), STRATA_OK);
  CHECK_EQ_INT(strata_object_set(w, actor, &key, 1, &hp, &err), STRATA_OK);
  strata_value_clear(&key);
  CHECK_EQ_INT(strata_value_string(&key, "\xff", 1, &err), STRATA_OK);
  CHECK_EQ_INT(strata_object_set(w, actor, &key, 1, &ref, &err), STRATA_OK);
  strata_value_clear(&key);
  CHECK_EQ_INT(strata_world_schedule(w, 10, 5, "x.tick", NULL, &timer, &err), STRATA_OK);
  CHECK_EQ_INT(strata_world_subscribe(w, actor, "base.moved", "x.tick", NULL, 3, &sub, &err), STRATA_OK);
  strata_rng r;
  CHECK_EQ_INT(strata_world_stream(w, "dice", &r, &err), STRATA_OK);
  strata_mod_version mods[1] = { { "x", "1.0" } };
  strata_buffer a = { 0 }, b = { 0 };
  CHECK_EQ_INT(strata_world_to_json(w, mods, 1, &a, &err), STRATA_OK);
  strata_world *again;
  strata_mod_version *got;
  size_t n;
  CHECK_EQ_INT(strata_world_from_json((const char *)a.data, a.len, &again, &got, &n, &err), STRATA_OK);
  CHECK(n == 1 && strcmp(got[0].id, "x") == 0 && strcmp(got[0].version, "1.0") == 0);
  CHECK_EQ_INT(strata_world_to_json(again, got, n, &b, &err), STRATA_OK);
  CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
  CHECK(strstr((const char *)a.data, "\"seed\": \"18446744073709551615\"") != NULL);
  CHECK(strstr((const char *)a.data, "\"rows\": [\"ffff \", \"fffff\"]") != NULL);
  CHECK(strstr((const char *)a.data, "\"stacks\": [[2, 1, [\"floor\", \"x.moss\"]]]") != NULL);
  CHECK(strstr((const char *)a.data, "\"$bytes\": \"ff\"") != NULL);
  CHECK(strata_world_seed(again) == UINT64_MAX);
  strata_world_free(again);
  strata_mod_versions_free(got, n);
  /* a dangling subscription: refused, naming where; nothing made */
  char *bad = strstr((char *)a.data, "\"object\": ");
  CHECK(bad != NULL);
  if (bad) memcpy(bad, "\"object\": 9", 11);
  again = (strata_world *)&err;
  CHECK_EQ_INT(strata_world_from_json((const char *)a.data, a.len, &again, &got, &n, &err), STRATA_EPARSE);
  CHECK(again == NULL && got == NULL && n == 0);
  CHECK(strncmp(err.message, "$.subscriptions[0].object: no object #9", 39) == 0);
  strata_buffer_free(&a);
  strata_buffer_free(&b);
  strata_world_free(w);
}

int main(void) {
  world_round_trip();
  numbers_and_strings();
  refusals();
  building_and_writing();
  return check_summary("json");
}
