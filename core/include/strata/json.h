/*
** json.h - a small JSON reader and writer (RFC 8259), for the JSON form of a
** world (strata_world_to_json) and for hosts that read JSON files (a Tiled
** map): a tree of strata_json nodes, parsed from text or built by hand, and
** written back as text.
**
** Numbers stay exact: a number written without a fraction or an exponent
** that fits an int64_t is an integer, any other a double; a double is written
** in the shortest form that reads back to the same bits, with a ".0" when it
** would look like an integer. Strings are UTF-8 (checked both ways) and may
** hold NUL bytes (\u0000). Hostile text is refused with a message naming the
** JSON path and the line and column ("$.objects[12].props: expected ',' or
** '}'"): nesting deeper than STRATA_JSON_MAX_DEPTH, text longer than
** STRATA_JSON_MAX_SIZE, a duplicate key, bad UTF-8, trailing text.
**
** Ownership: a node owns its string and its items (and their keys);
** strata_json_free frees them. Nodes are plain structs, safe to move with
** memcpy.
*/
#ifndef STRATA_JSON_H
#define STRATA_JSON_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/value.h"
#include "strata/world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define STRATA_JSON_MAX_DEPTH 512
#define STRATA_JSON_MAX_SIZE ((size_t)1 << 30)

typedef enum strata_jtype {
  STRATA_JNULL = 0,
  STRATA_JBOOL,
  STRATA_JINT,
  STRATA_JFLOAT,
  STRATA_JSTRING,
  STRATA_JARRAY,
  STRATA_JOBJECT
} strata_jtype;

typedef struct strata_json strata_json;

/* An object's key: len bytes at s, NUL-terminated as well. */
typedef struct strata_json_key {
  char *s;
  size_t len;
} strata_json_key;

struct strata_json {
  strata_jtype type;
  union {
    int b;
    int64_t i;
    double f;
    struct { char *s; size_t len; } str;          /* NUL-terminated as well */
    struct {
      strata_json *items;                         /* an array's items, an object's values */
      strata_json_key *keys;                      /* an object's keys, in order; NULL for an array */
      size_t n, cap;
    } c;
  } u;
};

/* Where a node sits, for messages: a chain from the node up to the root,
** kept on the caller's stack as it walks down (NULL: the root, "$"). */
typedef struct strata_json_path {
  const struct strata_json_path *up;
  const char *key;  /* a member's key (keylen bytes), or NULL for an array's item */
  size_t keylen;
  size_t index;     /* an array item's index, from 0 */
} strata_json_path;

/* Writes path as "$", "$.objects[12].props" or "$[\"a key\"]" into buf
** (cap bytes, at least 128, else "" is written; a long path loses its
** middle, "$.a...[3].b", a long key its end). */
STRATA_API void strata_json_path_format(const strata_json_path *path, char *buf, size_t cap);

/* Fills err with status and "<path>: <message>"; returns status. */
STRATA_API strata_status strata_json_fail(strata_error *err, strata_status status, const strata_json_path *path,
                                          const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 4, 5)))
#endif
  ;

/* "null", "a boolean", "an integer", "a number", "a string", "an array", "an object". */
STRATA_API const char *strata_json_type_name(strata_jtype type);

/* Parses exactly the len bytes at text (white space around the value
** allowed) into *out. Refused (STRATA_EPARSE, line and column set, message
** "<path>: <what>"; STRATA_ELIMIT past the limits above; STRATA_ENOMEM):
** *out is then null. */
STRATA_API strata_status strata_json_parse(strata_json *out, const char *text, size_t len, strata_error *err);

/* Appends v as JSON text to out: compact, or (pretty nonzero) one member or
** item a line indented by two spaces, a short array of scalars (and of
** such arrays) on one line, about 100 characters at most. A
** string that is not UTF-8, a double that is not finite or nesting deeper
** than STRATA_JSON_MAX_DEPTH is refused (STRATA_EARG, naming the path). */
STRATA_API strata_status strata_json_write(const strata_json *v, int pretty, strata_buffer *out,
                                           strata_error *err);

/* Frees what v owns and leaves it null. */
STRATA_API void strata_json_free(strata_json *v);

/* Constructors: scalars never fail; a string copies len bytes of s. */
STRATA_API strata_json strata_json_null(void);
STRATA_API strata_json strata_json_bool(int b);
STRATA_API strata_json strata_json_int(int64_t i);
STRATA_API strata_json strata_json_float(double f);
STRATA_API strata_json strata_json_array(void);
STRATA_API strata_json strata_json_object(void);
STRATA_API strata_status strata_json_string(strata_json *out, const char *s, size_t len, strata_error *err);

/* Appends *item to the array arr, or the member key (len bytes, copied) =
** *item to the object obj (keys are not checked for duplicates: the caller
** writes each once). Takes *item (left null) on success; on failure arr,
** obj and *item are unchanged (freeing *item is the caller's). */
STRATA_API strata_status strata_json_push(strata_json *arr, strata_json *item, strata_error *err);
STRATA_API strata_status strata_json_put(strata_json *obj, const char *key, size_t len, strata_json *item,
                                         strata_error *err);

/* The member key of obj (an object), or NULL. */
STRATA_API const strata_json *strata_json_get(const strata_json *obj, const char *key);

/* 1 when the len bytes at s are UTF-8 (no overlong form, surrogate or code
** point past U+10FFFF), as a JSON string must be. */
STRATA_API int strata_json_is_utf8(const char *s, size_t len);

/* ---- the JSON form of a whole world (docs/saves.md, "The JSON form") ---- */

/* Appends the world as JSON text (pretty, format "strata-world", version 1)
** to out: what a save holds, mods (n of them) as the save's mod list. The
** text is the same for the same world: objects, timers and subscriptions by
** uid, streams by key. A string that is not UTF-8 is written as a tagged
** value ({"$bytes": hex}); nothing is refused but for want of memory. */
STRATA_API strata_status strata_world_to_json(const strata_world *w, const strata_mod_version *mods, size_t n,
                                              strata_buffer *out, strata_error *err);

/* A new world from the len bytes of JSON text at text (as written above),
** through the same checks as opening a save, and the mod list it names
** (strata_mod_versions_free). All or nothing: any refusal (STRATA_EPARSE,
** the message naming the JSON path: "$.objects[3].map: no object #9")
** leaves *out NULL and allocates nothing. */
STRATA_API strata_status strata_world_from_json(const char *text, size_t len, strata_world **out,
                                                strata_mod_version **mods, size_t *nmods, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
