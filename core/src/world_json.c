/*
** world_json.c - the JSON form of a whole world (strata/json.h,
** docs/saves.md "The JSON form"): what a save holds, as readable JSON.
**
** Writing walks the world through its public accessors into a JSON tree;
** everything is written in an order of its own (uids, keys, token names), so
** that the same world gives the same bytes whatever order its tables were
** filled in, and a world read back from them writes them again.
**
** Reading builds a new world through the restore functions the save loader
** uses (world_internal.h), in the loader's order (objects by uid, timers by
** due time, subscriptions by uid, streams, tiles, then the clock), and checks
** what a save's checksums would have vouched for: uids unique and below the
** counter, positions on objects that exist, tiles inside their maps. Any
** refusal frees that world.
*/
#include "strata/json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/alloc.h"
#include "strata/rng.h"
#include "strata/tilemap.h"
#include "strata/tokens.h"
#include "util.h"
#include "world_internal.h"

#define WORLD_FORMAT "strata-world"
#define WORLD_VERSION 1
/* The largest uid an object may have (world.c's place_object). */
#define UID_MAX ((int64_t)1 << 40)

/* ---- writing: values -------------------------------------------------------------------- */

/* A new null member key (len bytes; key NULL: an array's item) of c: the node
** to fill, or NULL when memory ran out. */
static strata_json *add_len(strata_json *c, const char *key, size_t len, strata_error *err) {
  strata_json null = strata_json_null();
  if (key ? strata_json_put(c, key, len, &null, err) : strata_json_push(c, &null, err)) return NULL;
  return &c->u.c.items[c->u.c.n - 1];
}

static strata_json *add(strata_json *c, const char *key, strata_error *err) {
  return add_len(c, key, key ? strlen(key) : 0, err);
}

/* {"tag": *v}, v taken. */
static strata_status tagged(strata_json *out, const char *tag, strata_json *v, strata_error *err) {
  *out = strata_json_object();
  strata_status s = strata_json_put(out, tag, strlen(tag), v, err);
  if (s) strata_json_free(v);
  return s;
}

/* A string as it is when UTF-8, else {"$bytes": "<hex>"}. */
static strata_status string_json(const char *s, size_t len, strata_json *out, strata_error *err) {
  if (strata_json_is_utf8(s, len)) return strata_json_string(out, s, len, err);
  if (len > (SIZE_MAX - 1) / 2) return strata_error_nomem(err, NULL);
  char *hex = strata_malloc(2 * len + 1);
  if (!hex) return strata_error_nomem(err, NULL);
  for (size_t i = 0; i < len; i++) snprintf(hex + 2 * i, 3, "%02x", (unsigned char)s[i]);
  strata_json h;
  strata_status st = strata_json_string(&h, hex, 2 * len, err);
  strata_free(hex);
  return st ? st : tagged(out, "$bytes", &h, err);
}

static int plain_key(const strata_value *k) {
  return k->type == STRATA_VSTRING && k->u.str.s[0] != '$' && strata_json_is_utf8(k->u.str.s, k->u.str.len);
}

static strata_status value_json(const strata_value *v, strata_json *out, strata_error *err);

/* A table: an object when its keys are strings (none beginning with '$'),
** an array when they are 1..n in that order, else {"$table": [[k, v], ...]};
** its pairs in the table's order. */
static strata_status table_json(const strata_vtable *t, strata_json *out, strata_error *err) {
  int object = 1, array = t->n > 0;
  for (size_t i = 0; i < t->n; i++) {
    object = object && plain_key(&t->keys[i]);
    array = array && t->keys[i].type == STRATA_VINT && t->keys[i].u.i == (int64_t)i + 1;
  }
  strata_json pairs = strata_json_array(), *f;
  *out = object ? strata_json_object() : array ? strata_json_array() : pairs;
  strata_status st = STRATA_OK;
  for (size_t i = 0; i < t->n && !st; i++) {
    const strata_value *k = &t->keys[i];
    if (object || array) {
      if (!(f = add_len(out, object ? k->u.str.s : NULL, object ? k->u.str.len : 0, err))) return STRATA_ENOMEM;
      st = value_json(&t->vals[i], f, err);
      continue;
    }
    strata_json *pair = add(out, NULL, err), *kf, *vf;
    if (!pair) return STRATA_ENOMEM;
    *pair = strata_json_array();
    if (!(kf = add(pair, NULL, err))) return STRATA_ENOMEM;
    st = k->type == STRATA_VINT ? (*kf = strata_json_int(k->u.i), STRATA_OK) : string_json(k->u.str.s, k->u.str.len, kf, err);
    if (!st && !(vf = add(pair, NULL, err))) return STRATA_ENOMEM;
    if (!st) st = value_json(&t->vals[i], vf, err);
  }
  if (st || object || array) return st;
  pairs = *out;
  return tagged(out, "$table", &pairs, err);
}

static strata_status value_json(const strata_value *v, strata_json *out, strata_error *err) {
  strata_json inner;
  *out = strata_json_null();
  switch (v->type) {
  case STRATA_VNIL: return STRATA_OK;
  case STRATA_VBOOL: *out = strata_json_bool(v->u.b); return STRATA_OK;
  case STRATA_VINT: *out = strata_json_int(v->u.i); return STRATA_OK;
  case STRATA_VFLOAT:
    if (isfinite(v->u.f)) { *out = strata_json_float(v->u.f); return STRATA_OK; }
    if (strata_json_string(&inner, isnan(v->u.f) ? "nan" : v->u.f > 0 ? "inf" : "-inf",
                           isnan(v->u.f) ? 3 : v->u.f > 0 ? 3 : 4, err))
      return STRATA_ENOMEM;
    return tagged(out, "$float", &inner, err);
  case STRATA_VSTRING: return string_json(v->u.str.s, v->u.str.len, out, err);
  case STRATA_VTABLE: return table_json(v->u.t, out, err);
  case STRATA_VREF: inner = strata_json_int((int64_t)v->u.ref); return tagged(out, "$ref", &inner, err);
  }
  return strata_error_set(err, STRATA_EARG, "not a value (type %d)", (int)v->type);
}

/* ---- writing: tiles --------------------------------------------------------------------- */

typedef struct legend_entry {
  strata_token token;
  const char *name;
  size_t len;
  uint32_t cp; /* its character in the rows */
} legend_entry;

static int cmp_entry_names(const void *a, const void *b) {
  const legend_entry *x = a, *y = b;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->name, y->name, n);
  return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int taken(const legend_entry *e, size_t n, uint32_t cp) {
  for (size_t i = 0; i < n; i++)
    if (e[i].cp == cp) return 1;
  return cp == ' ' || cp == '"' || cp == '\\' || cp < 0x21 || cp == 0x7F || (cp >= 0x80 && cp < 0xA1) ||
         (cp >= 0xD800 && cp <= 0xDFFF);
}

/* Each entry's character: the first letter of its name's last part, or that
** letter in the other case, or the first free of a list of signs, then of
** the code points from U+00A1 on; entries e[0..n) in name order. */
static void assign_chars(legend_entry *e, size_t n) {
  static const char signs[] = "#.~+=%&*@!?:;,^<>|/-_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  uint32_t next = 0xA1;
  for (size_t i = 0; i < n; i++) {
    const char *dot = memchr(e[i].name, '.', e[i].len), *part = e[i].name;
    while (dot) {
      part = dot + 1;
      dot = memchr(part, '.', e[i].len - (size_t)(part - e[i].name));
    }
    unsigned char c = part < e[i].name + e[i].len ? (unsigned char)*part : ' ';
    uint32_t other = c >= 'a' && c <= 'z' ? c - 32u : c >= 'A' && c <= 'Z' ? c + 32u : ' ';
    if (!taken(e, i, c)) { e[i].cp = c; continue; }
    if (!taken(e, i, other)) { e[i].cp = other; continue; }
    e[i].cp = 0;
    for (const char *s = signs; *s && !e[i].cp; s++)
      if (!taken(e, i, (unsigned char)*s)) e[i].cp = (unsigned char)*s;
    while (!e[i].cp) {
      if (!taken(e, i, next)) e[i].cp = next;
      next++;
    }
  }
}

static size_t put_utf8(uint32_t cp, char *out) {
  if (cp < 0x80) { out[0] = (char)cp; return 1; }
  if (cp < 0x800) { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12)); out[1] = (char)(0x80 | ((cp >> 6) & 0x3F)); out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18)); out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* A cell's stack (count returned), into *buf (grown as needed; *cap). */
static size_t cell_tokens(const strata_tilemap *m, int x, int y, strata_token **buf, size_t *cap, int *nomem) {
  size_t k = strata_tilemap_stack(m, x, y, *buf, *cap);
  if (k > *cap) {
    if (!STRATA_GROW(*buf, *cap, k)) { *nomem = 1; return 0; }
    strata_tilemap_stack(m, x, y, *buf, *cap);
  }
  return k;
}

/* The rows (and the stacks of two tokens or more) of map m, its characters
** chr[token]. */
static strata_status rows_json(const strata_tilemap *m, const uint32_t *chr, strata_json *tiles, strata_error *err) {
  int w = strata_tilemap_width(m), h = strata_tilemap_height(m), nomem = 0;
  strata_json *rows = add(tiles, "rows", err), stacks = strata_json_array();
  strata_token *buf = NULL;
  size_t cap = 0;
  char *line = strata_malloc((size_t)w * 4 + 1);
  strata_status st = rows && line ? STRATA_OK : strata_error_nomem(err, NULL);
  if (rows) *rows = strata_json_array();
  for (int y = 0; y < h && !st; y++) {
    size_t o = 0;
    for (int x = 0; x < w && !st; x++) {
      size_t k = cell_tokens(m, x, y, &buf, &cap, &nomem);
      o += put_utf8(k ? chr[buf[0]] : ' ', line + o);
      if (k < 2) continue;
      strata_json *e = add(&stacks, NULL, err), *f, *names;
      if (!e) { st = STRATA_ENOMEM; break; }
      *e = strata_json_array();
      if (!(f = add(e, NULL, err))) { st = STRATA_ENOMEM; break; }
      *f = strata_json_int(x);
      if (!(f = add(e, NULL, err))) { st = STRATA_ENOMEM; break; }
      *f = strata_json_int(y);
      if (!(names = add(e, NULL, err))) { st = STRATA_ENOMEM; break; }
      *names = strata_json_array();
      for (size_t i = 0; i < k && !st; i++) {
        size_t len;
        const char *name = strata_tokens_name(strata_tilemap_tokens(m), buf[i], &len);
        st = (f = add(names, NULL, err)) ? strata_json_string(f, name, len, err) : STRATA_ENOMEM;
      }
    }
    strata_json *row = st || nomem ? NULL : add(rows, NULL, err);
    if (nomem) st = strata_error_nomem(err, NULL);
    else if (!st) st = row ? strata_json_string(row, line, o, err) : STRATA_ENOMEM;
  }
  if (!st && stacks.u.c.n) {
    strata_json *f = add(tiles, "stacks", err);
    if (f) { *f = stacks; stacks = strata_json_null(); }
    else st = STRATA_ENOMEM;
  }
  strata_json_free(&stacks);
  strata_free(line);
  strata_free(buf);
  return st;
}

/* {"width", "height", "legend": {char: token name}, "rows": [...], "stacks"?}. */
static strata_status tiles_json(const strata_tilemap *m, strata_json *out, strata_error *err) {
  strata_tokens *tokens = strata_tilemap_tokens(m);
  uint32_t ntok = strata_tokens_count(tokens);
  uint32_t *chr = strata_calloc((size_t)ntok + 1, sizeof *chr); /* token -> its character; 1: used */
  legend_entry *e = NULL;
  strata_token *buf = NULL;
  size_t cap = 0, n = 0;
  int nomem = !chr;
  *out = strata_json_object();
  for (int y = 0; y < strata_tilemap_height(m) && !nomem; y++)
    for (int x = 0; x < strata_tilemap_width(m) && !nomem; x++) {
      size_t k = cell_tokens(m, x, y, &buf, &cap, &nomem);
      for (size_t i = 0; i < k; i++)
        if (buf[i] <= ntok && !chr[buf[i]]) { chr[buf[i]] = 1; n++; }
    }
  strata_free(buf);
  if (!nomem && !(e = strata_calloc(n ? n : 1, sizeof *e))) nomem = 1;
  for (uint32_t t = 1, i = 0; !nomem && t <= ntok; t++)
    if (chr[t]) { e[i].token = t; e[i].name = strata_tokens_name(tokens, t, &e[i].len); i++; }
  strata_status st = nomem ? strata_error_nomem(err, NULL) : STRATA_OK;
  if (!st) {
    qsort(e, n, sizeof *e, cmp_entry_names);
    assign_chars(e, n);
    strata_json *f;
    if ((f = add(out, "width", err))) *f = strata_json_int(strata_tilemap_width(m));
    if (f && (f = add(out, "height", err))) *f = strata_json_int(strata_tilemap_height(m));
    strata_json *legend = f ? add(out, "legend", err) : NULL;
    if (legend) *legend = strata_json_object();
    st = legend ? STRATA_OK : STRATA_ENOMEM;
    for (size_t i = 0; i < n && !st; i++) {
      char c[4];
      chr[e[i].token] = e[i].cp;
      st = (f = add_len(legend, c, put_utf8(e[i].cp, c), err)) ? strata_json_string(f, e[i].name, e[i].len, err)
                                                               : STRATA_ENOMEM;
    }
    if (!st) st = rows_json(m, chr, out, err);
  }
  strata_free(e);
  strata_free(chr);
  return st;
}

/* ---- writing: the world ----------------------------------------------------------------- */

static strata_status object_json(const strata_object *o, strata_json *out, strata_error *err) {
  strata_json *f;
  *out = strata_json_object();
  if (!(f = add(out, "uid", err))) return STRATA_ENOMEM;
  *f = strata_json_int((int64_t)o->uid);
  strata_status st = (f = add(out, "kind", err)) ? string_json(o->kind, strlen(o->kind), f, err) : STRATA_ENOMEM;
  if (!st && o->archetype)
    st = (f = add(out, "archetype", err)) ? string_json(o->archetype, strlen(o->archetype), f, err) : STRATA_ENOMEM;
  if (!st && o->has_pos) {
    const char *keys[] = { "map", "x", "y" };
    int64_t vals[] = { (int64_t)o->map, o->x, o->y };
    for (int i = 0; i < 3 && !st; i++)
      if ((f = add(out, keys[i], err))) *f = strata_json_int(vals[i]);
      else st = STRATA_ENOMEM;
  }
  if (!st && o->tags.type == STRATA_VTABLE && o->tags.u.t->n)
    st = (f = add(out, "tags", err)) ? value_json(&o->tags, f, err) : STRATA_ENOMEM;
  if (!st) st = (f = add(out, "props", err)) ? value_json(&o->props, f, err) : STRATA_ENOMEM;
  if (!st && o->tilemap) st = (f = add(out, "tiles", err)) ? tiles_json(o->tilemap, f, err) : STRATA_ENOMEM;
  return st;
}

static int cmp_timers(const void *a, const void *b) {
  const strata_timer *x = *(const strata_timer *const *)a, *y = *(const strata_timer *const *)b;
  return (x->uid > y->uid) - (x->uid < y->uid);
}

static strata_status timers_json(const strata_world *w, strata_json *out, strata_error *err) {
  size_t n = strata_world_timer_count(w);
  const strata_timer **t = strata_malloc((n ? n : 1) * sizeof *t);
  if (!t) return strata_error_nomem(err, NULL);
  for (size_t i = 0; i < n; i++) t[i] = strata_world_timer_at(w, i);
  qsort(t, n, sizeof *t, cmp_timers);
  strata_status st = STRATA_OK;
  *out = strata_json_array();
  for (size_t i = 0; i < n && !st; i++) {
    strata_json *e = add(out, NULL, err), *f;
    if (!e) { st = STRATA_ENOMEM; break; }
    *e = strata_json_object();
    if ((f = add(e, "uid", err))) *f = strata_json_int((int64_t)t[i]->uid);
    if (f && (f = add(e, "due", err))) *f = strata_json_float(t[i]->due);
    if (f && (f = add(e, "every", err))) *f = strata_json_float(t[i]->every);
    st = f && (f = add(e, "handler", err)) ? string_json(t[i]->handler, strlen(t[i]->handler), f, err) : STRATA_ENOMEM;
    if (!st) st = (f = add(e, "args", err)) ? value_json(&t[i]->args, f, err) : STRATA_ENOMEM;
  }
  strata_free(t);
  return st;
}

static int cmp_subs(const void *a, const void *b) {
  const strata_subscription *x = *(const strata_subscription *const *)a, *y = *(const strata_subscription *const *)b;
  return (x->uid > y->uid) - (x->uid < y->uid);
}

static strata_status subs_json(const strata_world *w, strata_json *out, strata_error *err) {
  size_t n = strata_world_subscription_count(w);
  const strata_subscription **u = strata_malloc((n ? n : 1) * sizeof *u);
  if (!u) return strata_error_nomem(err, NULL);
  for (size_t i = 0; i < n; i++) u[i] = strata_world_subscription_at(w, i);
  qsort(u, n, sizeof *u, cmp_subs);
  strata_status st = STRATA_OK;
  *out = strata_json_array();
  for (size_t i = 0; i < n && !st; i++) {
    strata_json *e = add(out, NULL, err), *f;
    if (!e) { st = STRATA_ENOMEM; break; }
    *e = strata_json_object();
    if ((f = add(e, "uid", err))) *f = strata_json_int((int64_t)u[i]->uid);
    if (f && (f = add(e, "object", err))) *f = strata_json_int((int64_t)u[i]->object);
    st = f && (f = add(e, "event", err)) ? string_json(u[i]->event, strlen(u[i]->event), f, err) : STRATA_ENOMEM;
    if (!st) st = (f = add(e, "handler", err)) ? string_json(u[i]->handler, strlen(u[i]->handler), f, err) : STRATA_ENOMEM;
    if (!st) st = (f = add(e, "args", err)) ? value_json(&u[i]->args, f, err) : STRATA_ENOMEM;
    if (!st) { if ((f = add(e, "priority", err))) *f = strata_json_int(u[i]->priority); else st = STRATA_ENOMEM; }
  }
  strata_free(u);
  return st;
}

typedef struct stream_entry {
  const char *key;
  char state[STRATA_RNG_STATE_CHARS];
} stream_entry;

static int cmp_streams(const void *a, const void *b) {
  return strcmp(((const stream_entry *)a)->key, ((const stream_entry *)b)->key);
}

static strata_status streams_json(const strata_world *w, strata_json *out, strata_error *err) {
  size_t n = strata_world_stream_count(w);
  stream_entry *s = strata_malloc((n ? n : 1) * sizeof *s);
  if (!s) return strata_error_nomem(err, NULL);
  for (size_t i = 0; i < n; i++) {
    strata_rng g;
    s[i].key = strata_world_stream_at(w, i, &g);
    strata_rng_format(&g, s[i].state);
  }
  qsort(s, n, sizeof *s, cmp_streams);
  strata_status st = STRATA_OK;
  *out = strata_json_object();
  for (size_t i = 0; i < n && !st; i++) {
    strata_json *f = add(out, s[i].key, err);
    st = f ? strata_json_string(f, s[i].state, strlen(s[i].state), err) : STRATA_ENOMEM;
  }
  strata_free(s);
  return st;
}

static strata_status world_json(const strata_world *w, const strata_mod_version *mods, size_t nmods,
                                strata_json *root, strata_error *err) {
  strata_json *f;
  *root = strata_json_object();
  strata_status st = (f = add(root, "format", err)) ? strata_json_string(f, WORLD_FORMAT, strlen(WORLD_FORMAT), err)
                                                    : STRATA_ENOMEM;
  if (!st && (f = add(root, "version", err))) *f = strata_json_int(WORLD_VERSION);
  uint64_t seed = strata_world_seed(w);
  char digits[24];
  snprintf(digits, sizeof digits, "%llu", (unsigned long long)seed);
  /* a seed past int64_t's range as its digits */
  if (!st && f && (f = add(root, "seed", err)))
    st = seed <= INT64_MAX ? (*f = strata_json_int((int64_t)seed), STRATA_OK) : strata_json_string(f, digits, strlen(digits), err);
  if (!st && f && (f = add(root, "time", err))) *f = strata_json_float(strata_world_time(w));
  if (!st && f && (f = add(root, "next_uid", err))) *f = strata_json_int((int64_t)strata_world_next_uid(w));
  if (!st && f && (f = add(root, "mods", err))) *f = strata_json_array();
  for (size_t i = 0; i < nmods && !st && f; i++) {
    strata_json *m = add(f, NULL, err), *g;
    if (!m) { st = STRATA_ENOMEM; break; }
    *m = strata_json_object();
    st = (g = add(m, "id", err)) ? string_json(mods[i].id, strlen(mods[i].id), g, err) : STRATA_ENOMEM;
    if (!st) st = (g = add(m, "version", err)) ? string_json(mods[i].version, strlen(mods[i].version), g, err) : STRATA_ENOMEM;
  }
  if (!st && !f) st = STRATA_ENOMEM;
  if (!st) st = (f = add(root, "streams", err)) ? streams_json(w, f, err) : STRATA_ENOMEM;
  strata_json *objects = st ? NULL : add(root, "objects", err);
  if (!st && !objects) st = STRATA_ENOMEM;
  if (objects) *objects = strata_json_array();
  for (const strata_object *o = strata_world_next_object(w, 0); o && !st; o = strata_world_next_object(w, o->uid))
    st = (f = add(objects, NULL, err)) ? object_json(o, f, err) : STRATA_ENOMEM;
  /* (the walk stops short when an object's properties cannot be decoded for want of memory) */
  if (!st && objects->u.c.n != strata_world_count(w)) st = strata_error_nomem(err, "reading the objects");
  if (!st) st = (f = add(root, "timers", err)) ? timers_json(w, f, err) : STRATA_ENOMEM;
  if (!st) st = (f = add(root, "subscriptions", err)) ? subs_json(w, f, err) : STRATA_ENOMEM;
  return st;
}

strata_status strata_world_to_json(const strata_world *w, const strata_mod_version *mods, size_t n,
                                   strata_buffer *out, strata_error *err) {
  if (!w || !out || (n && !mods)) return strata_error_set(err, STRATA_EARG, "strata_world_to_json: NULL argument");
  strata_json root;
  strata_status st = world_json(w, mods, n, &root, err);
  if (!st) st = strata_json_write(&root, 1, out, err);
  strata_json_free(&root);
  return st;
}

/* ---- reading: fields -------------------------------------------------------------------- */

typedef const strata_json_path jpath;

/* err's message (a restore's refusal) put after path: "<path>: <message>". */
static strata_status at_path(strata_error *err, strata_status st, jpath *path) {
  if (!err || st == STRATA_ENOMEM) return st;
  char message[STRATA_ERROR_MESSAGE_MAX];
  snprintf(message, sizeof message, "%s", err->message);
  return strata_json_fail(err, STRATA_EPARSE, path, "%s", message);
}

static strata_status wrong_type(const strata_json *v, const char *want, jpath *path, strata_error *err) {
  return strata_json_fail(err, STRATA_EPARSE, path, "expected %s, got %s", want, strata_json_type_name(v->type));
}

/* Refuses a key of obj not in known (NULL-terminated), naming the nearest. */
static strata_status known_keys(const strata_json *obj, const char *const *known, jpath *path, strata_error *err) {
  size_t nknown = 0;
  while (known[nknown]) nknown++;
  for (size_t i = 0; i < obj->u.c.n; i++) {
    const strata_json_key *k = &obj->u.c.keys[i];
    size_t j = 0;
    while (j < nknown && !(strlen(known[j]) == k->len && memcmp(known[j], k->s, k->len) == 0)) j++;
    if (j < nknown) continue;
    const char *near[3];
    size_t m = strata_nearest(k->s, known, nknown, near, NULL, 3);
    char list[160] = "";
    for (size_t n = 0; n < m; n++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", n ? ", " : "", near[n]);
    strata_json_path here = { path, k->s, k->len, 0 };
    return strata_json_fail(err, STRATA_EPARSE, &here, "unknown key '%s'%s%s%s", k->s, m ? " (nearest known: " : "",
                            list, m ? ")" : "");
  }
  return STRATA_OK;
}

/* obj's member key into *v, its path into *here (kept while *here is used):
** absent is a refusal when required (*v NULL otherwise); a member of another
** type (STRATA_JNULL: any; STRATA_JFLOAT takes an integer too) is one. */
static strata_status field(const strata_json *obj, jpath *path, const char *key, strata_jtype type, int required,
                           const strata_json **v, strata_json_path *here, strata_error *err) {
  here->up = path;
  here->key = key;
  here->keylen = strlen(key);
  here->index = 0;
  *v = strata_json_get(obj, key);
  if (!*v) return required ? strata_json_fail(err, STRATA_EPARSE, path, "missing key '%s'", key) : STRATA_OK;
  if (type == STRATA_JNULL || (*v)->type == type || (type == STRATA_JFLOAT && (*v)->type == STRATA_JINT))
    return STRATA_OK;
  return wrong_type(*v, strata_json_type_name(type), here, err);
}

static strata_status int_field(const strata_json *obj, jpath *path, const char *key, int64_t min, int64_t max,
                               int64_t *out, strata_error *err) {
  const strata_json *v;
  strata_json_path here;
  strata_status st = field(obj, path, key, STRATA_JINT, 1, &v, &here, err);
  if (st) return st;
  if (v->u.i < min || v->u.i > max)
    return strata_json_fail(err, STRATA_EPARSE, &here, "%lld is out of range (%lld to %lld)", (long long)v->u.i,
                            (long long)min, (long long)max);
  *out = v->u.i;
  return STRATA_OK;
}

static double number_of(const strata_json *v) { return v->type == STRATA_JINT ? (double)v->u.i : v->u.f; }

/* A copy of the non-empty string member key (optional: *out NULL when absent). */
static strata_status string_field(const strata_json *obj, jpath *path, const char *key, int required, char **out,
                                  strata_error *err) {
  const strata_json *v;
  strata_json_path here;
  *out = NULL;
  strata_status st = field(obj, path, key, STRATA_JSTRING, required, &v, &here, err);
  if (st || !v) return st;
  if (v->u.str.len == 0 || memchr(v->u.str.s, '\0', v->u.str.len))
    return strata_json_fail(err, STRATA_EPARSE, &here, "expected a non-empty string without NUL bytes");
  if (!(*out = strata_strndup(v->u.str.s, v->u.str.len))) return strata_error_nomem(err, NULL);
  return STRATA_OK;
}

/* ---- reading: values -------------------------------------------------------------------- */

static int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* {"$bytes": "<hex>"}'s string. */
static strata_status bytes_value(const strata_json *hex, jpath *path, strata_value *out, strata_error *err) {
  if (hex->type != STRATA_JSTRING) return wrong_type(hex, "a string of hexadecimal digits", path, err);
  size_t n = hex->u.str.len / 2;
  if (hex->u.str.len % 2) return strata_json_fail(err, STRATA_EPARSE, path, "an odd number of hexadecimal digits");
  char *b = strata_malloc(n + 1);
  if (!b) return strata_error_nomem(err, NULL);
  for (size_t i = 0; i < n; i++) {
    int hi = hex_digit(hex->u.str.s[2 * i]), lo = hex_digit(hex->u.str.s[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      strata_free(b);
      return strata_json_fail(err, STRATA_EPARSE, path, "'%c%c' is not a hexadecimal byte", hex->u.str.s[2 * i],
                              hex->u.str.s[2 * i + 1]);
    }
    b[i] = (char)(hi * 16 + lo);
  }
  strata_status st = strata_value_string(out, b, n, err);
  strata_free(b);
  return st;
}

static strata_status json_value(const strata_json *j, jpath *path, size_t level, strata_value *out,
                                strata_error *err);

/* A table key: an integer, a string or {"$bytes": ...}. */
static strata_status key_value(const strata_json *j, jpath *path, strata_value *out, strata_error *err) {
  if (j->type == STRATA_JINT) { *out = strata_value_int(j->u.i); return STRATA_OK; }
  if (j->type == STRATA_JSTRING) return strata_value_string(out, j->u.str.s, j->u.str.len, err);
  const strata_json *b = j->type == STRATA_JOBJECT && j->u.c.n == 1 ? strata_json_get(j, "$bytes") : NULL;
  if (b) {
    strata_json_path here = { path, "$bytes", 6, 0 };
    return bytes_value(b, &here, out, err);
  }
  return wrong_type(j, "a key (an integer, a string or {\"$bytes\": ...})", path, err);
}

/* One pair of a table (key k, value v) into t: a key twice is refused. */
static strata_status set_pair(strata_vtable *t, const strata_json *k, const strata_json *v, jpath *kpath,
                              jpath *vpath, size_t level, strata_error *err) {
  strata_value key, val;
  strata_status st = key_value(k, kpath, &key, err);
  if (st) return st;
  if (strata_vtable_get(t, &key)) st = strata_json_fail(err, STRATA_EPARSE, kpath, "a key twice in one table");
  if (!st && !(st = json_value(v, vpath, level + 1, &val, err)) && (st = strata_vtable_set(t, &key, &val, err)))
    strata_value_clear(&val);
  strata_value_clear(&key);
  return st;
}

/* {"$table": [[key, value], ...]} */
static strata_status pairs_value(const strata_json *pairs, jpath *path, size_t level, strata_vtable *t,
                                 strata_error *err) {
  if (pairs->type != STRATA_JARRAY) return wrong_type(pairs, "an array of [key, value] pairs", path, err);
  strata_status st = STRATA_OK;
  for (size_t i = 0; i < pairs->u.c.n && !st; i++) {
    const strata_json *p = &pairs->u.c.items[i];
    strata_json_path here = { path, NULL, 0, i }, k = { &here, NULL, 0, 0 }, v = { &here, NULL, 0, 1 };
    if (p->type != STRATA_JARRAY || p->u.c.n != 2) return wrong_type(p, "a [key, value] pair", &here, err);
    st = set_pair(t, &p->u.c.items[0], &p->u.c.items[1], &k, &v, level, err);
  }
  return st;
}

/* A tagged value: {"$ref": uid}, {"$float": "nan" | "inf" | "-inf"}, {"$bytes": hex}, {"$table": pairs}. */
static strata_status tagged_value(const strata_json *j, jpath *path, size_t level, strata_value *out,
                                  strata_error *err) {
  static const char *const tags[] = { "$ref", "$float", "$bytes", "$table", NULL };
  strata_status st = known_keys(j, tags, path, err);
  if (st) return st;
  if (j->u.c.n != 1)
    return strata_json_fail(err, STRATA_EPARSE, path, "a tagged value ($ref, $float, $bytes, $table) has one key");
  const strata_json *v = &j->u.c.items[0];
  const char *tag = j->u.c.keys[0].s;
  strata_json_path here = { path, tag, strlen(tag), 0 };
  if (!strcmp(tag, "$ref")) {
    if (v->type != STRATA_JINT || v->u.i < 1) return wrong_type(v, "a uid (an integer >= 1)", &here, err);
    *out = strata_value_ref((uint64_t)v->u.i);
  } else if (!strcmp(tag, "$float")) {
    const char *s = v->type == STRATA_JSTRING ? v->u.str.s : "";
    if (strcmp(s, "nan") && strcmp(s, "inf") && strcmp(s, "-inf"))
      return strata_json_fail(err, STRATA_EPARSE, &here, "expected \"nan\", \"inf\" or \"-inf\"");
    *out = strata_value_float(!strcmp(s, "nan") ? NAN : !strcmp(s, "inf") ? INFINITY : -INFINITY);
  } else if (!strcmp(tag, "$bytes")) {
    return bytes_value(v, &here, out, err);
  } else {
    if ((st = strata_value_table(out, err))) return st;
    if ((st = pairs_value(v, &here, level, out->u.t, err))) strata_value_clear(out);
  }
  return st;
}

static strata_status json_value(const strata_json *j, jpath *path, size_t level, strata_value *out,
                                strata_error *err) {
  *out = strata_value_nil();
  if (level > STRATA_VALUE_MAX_DEPTH)
    return strata_json_fail(err, STRATA_EPARSE, path, "tables nested deeper than %d levels", STRATA_VALUE_MAX_DEPTH);
  switch (j->type) {
  case STRATA_JNULL: return strata_json_fail(err, STRATA_EPARSE, path, "null is no value to store (leave the key out)");
  case STRATA_JBOOL: *out = strata_value_bool(j->u.b); return STRATA_OK;
  case STRATA_JINT: *out = strata_value_int(j->u.i); return STRATA_OK;
  case STRATA_JFLOAT: *out = strata_value_float(j->u.f); return STRATA_OK;
  case STRATA_JSTRING: return strata_value_string(out, j->u.str.s, j->u.str.len, err);
  case STRATA_JARRAY:
  case STRATA_JOBJECT: break;
  }
  int object = j->type == STRATA_JOBJECT;
  for (size_t i = 0; object && i < j->u.c.n; i++)
    if (j->u.c.keys[i].s[0] == '$') return tagged_value(j, path, level, out, err);
  strata_status st = strata_value_table(out, err);
  for (size_t i = 0; !st && i < j->u.c.n; i++) {
    strata_json_path here = { path, object ? j->u.c.keys[i].s : NULL, object ? j->u.c.keys[i].len : 0, i };
    strata_value key, val;
    if (object) st = strata_value_string(&key, j->u.c.keys[i].s, j->u.c.keys[i].len, err);
    else key = strata_value_int((int64_t)i + 1);
    if (!st && !(st = json_value(&j->u.c.items[i], &here, level + 1, &val, err)) &&
        (st = strata_vtable_set(out->u.t, &key, &val, err)))
      strata_value_clear(&val);
    strata_value_clear(&key);
  }
  if (st) strata_value_clear(out);
  return st;
}

/* A member that must be a table (props, tags): absent is an empty one (props) or nil (tags). */
static strata_status table_field(const strata_json *obj, jpath *path, const char *key, int empty, strata_value *out,
                                 strata_error *err) {
  const strata_json *v;
  strata_json_path here;
  *out = strata_value_nil();
  strata_status st = field(obj, path, key, STRATA_JNULL, 0, &v, &here, err);
  if (st) return st;
  if (!v) return empty ? strata_value_table(out, err) : STRATA_OK;
  if ((st = json_value(v, &here, 0, out, err))) return st;
  if (out->type == STRATA_VTABLE) return STRATA_OK;
  strata_value_clear(out);
  return wrong_type(v, "a table (an object or an array)", &here, err);
}

/* ---- reading: uids ---------------------------------------------------------------------- */

/* Where each uid is: its list (0 objects, 1 timers, 2 subscriptions) and index. */
typedef struct uid_at {
  uint64_t uid;
  int list;
  size_t index;
} uid_at;

static const char *const list_names[] = { "objects", "timers", "subscriptions" };

static int cmp_uids(const void *a, const void *b) {
  const uid_at *x = a, *y = b;
  if (x->uid != y->uid) return (x->uid > y->uid) - (x->uid < y->uid);
  if (x->list != y->list) return x->list - y->list;
  return (x->index > y->index) - (x->index < y->index);
}

/* The entries of lists[0..3) (arrays of objects, each with its uid), sorted
** by uid into *out (*n of them): a uid twice is refused. */
static strata_status gather_uids(const strata_json *const lists[3], jpath *root, uid_at **out, size_t *n,
                                 strata_error *err) {
  size_t total = 0;
  for (int l = 0; l < 3; l++) total += lists[l]->u.c.n;
  uid_at *u = strata_malloc((total ? total : 1) * sizeof *u);
  if (!u) return strata_error_nomem(err, NULL);
  strata_status st = STRATA_OK;
  size_t k = 0;
  for (int l = 0; l < 3 && !st; l++) {
    strata_json_path lp = { root, list_names[l], strlen(list_names[l]), 0 };
    for (size_t i = 0; i < lists[l]->u.c.n && !st; i++) {
      const strata_json *e = &lists[l]->u.c.items[i];
      strata_json_path here = { &lp, NULL, 0, i };
      int64_t uid = 0;
      if (e->type != STRATA_JOBJECT) st = wrong_type(e, "an object", &here, err);
      else if (!(st = int_field(e, &here, "uid", 1, UID_MAX, &uid, err))) u[k++] = (uid_at){ (uint64_t)uid, l, i };
    }
  }
  if (!st) qsort(u, k, sizeof *u, cmp_uids);
  for (size_t i = 1; i < k && !st; i++)
    if (u[i].uid == u[i - 1].uid) {
      strata_json_path lp = { root, list_names[u[i].list], strlen(list_names[u[i].list]), 0 };
      strata_json_path here = { &lp, NULL, 0, u[i].index }, uid = { &here, "uid", 3, 0 };
      st = strata_json_fail(err, STRATA_EPARSE, &uid, "uid %llu is also $.%s[%zu]'s", (unsigned long long)u[i].uid,
                            list_names[u[i - 1].list], u[i - 1].index);
    }
  if (st) { strata_free(u); return st; }
  *out = u;
  *n = k;
  return STRATA_OK;
}

/* ---- reading: objects, timers, subscriptions, streams ------------------------------------ */

static strata_status read_object(strata_world *w, const strata_json *e, jpath *path, strata_error *err) {
  static const char *const known[] = { "uid", "kind", "archetype", "map", "x", "y", "tags", "props", "tiles", NULL };
  strata_object o;
  memset(&o, 0, sizeof o);
  int64_t uid = 0, map = 0;
  strata_status st = known_keys(e, known, path, err);
  if (!st) st = int_field(e, path, "uid", 1, UID_MAX, &uid, err);
  o.uid = (uint64_t)uid;
  if (!st) st = string_field(e, path, "kind", 1, &o.kind, err);
  if (!st) st = string_field(e, path, "archetype", 0, &o.archetype, err);
  int at = strata_json_get(e, "map") || strata_json_get(e, "x") || strata_json_get(e, "y");
  if (!st && at && !(st = int_field(e, path, "map", 1, UID_MAX, &map, err)) &&
      !(st = int_field(e, path, "x", INT64_MIN, INT64_MAX, &o.x, err)))
    st = int_field(e, path, "y", INT64_MIN, INT64_MAX, &o.y, err);
  o.has_pos = at;
  o.map = (uint64_t)map;
  if (!st) st = table_field(e, path, "tags", 0, &o.tags, err);
  if (!st) st = table_field(e, path, "props", 1, &o.props, err);
  char *kind = o.kind, *archetype = o.archetype; /* only read by the restore, which clears o */
  if (!st && (st = strata_world_restore_object(w, &o, err))) st = at_path(err, st, path);
  strata_free(kind);
  strata_free(archetype);
  if (st) {
    strata_value_clear(&o.tags);
    strata_value_clear(&o.props);
  }
  return st;
}

/* args: null is nil. */
static strata_status args_field(const strata_json *e, jpath *path, strata_value *out, strata_error *err) {
  const strata_json *v;
  strata_json_path here;
  *out = strata_value_nil();
  strata_status st = field(e, path, "args", STRATA_JNULL, 1, &v, &here, err);
  return st || v->type == STRATA_JNULL ? st : json_value(v, &here, 0, out, err);
}

static strata_status read_timer(const strata_json *e, jpath *path, strata_timer *t, strata_error *err) {
  static const char *const known[] = { "uid", "due", "every", "handler", "args", NULL };
  const strata_json *v;
  strata_json_path here;
  int64_t uid = 0;
  memset(t, 0, sizeof *t);
  strata_status st = known_keys(e, known, path, err);
  if (!st) st = int_field(e, path, "uid", 1, UID_MAX, &uid, err);
  t->uid = (uint64_t)uid;
  if (!st && !(st = field(e, path, "due", STRATA_JFLOAT, 1, &v, &here, err))) t->due = number_of(v);
  if (!st && !(st = field(e, path, "every", STRATA_JFLOAT, 1, &v, &here, err))) t->every = number_of(v);
  if (!st) st = string_field(e, path, "handler", 1, &t->handler, err);
  if (!st) st = args_field(e, path, &t->args, err);
  return st;
}

static int cmp_due(const void *a, const void *b) {
  const strata_timer *x = a, *y = b;
  if (x->due != y->due) return (x->due > y->due) - (x->due < y->due);
  return (x->uid > y->uid) - (x->uid < y->uid);
}

/* Every timer read, then restored in (due, uid) order, as a save's are. */
static strata_status read_timers(strata_world *w, const strata_json *list, jpath *path, strata_error *err) {
  size_t n = list->u.c.n, i = 0, done = 0;
  strata_timer *t = strata_calloc(n ? n : 1, sizeof *t);
  if (!t) return strata_error_nomem(err, NULL);
  strata_status st = STRATA_OK;
  for (; i < n && !st; i++) {
    strata_json_path here = { path, NULL, 0, i };
    st = read_timer(&list->u.c.items[i], &here, &t[i], err);
  }
  if (!st) qsort(t, n, sizeof *t, cmp_due);
  for (; done < n && !st; done++)
    if ((st = strata_world_restore_timer(w, &t[done], err))) {
      /* its place in the list, for the message */
      size_t at = 0;
      while (at < n && (list->u.c.items[at].type != STRATA_JOBJECT ||
                        !strata_json_get(&list->u.c.items[at], "uid") ||
                        (uint64_t)strata_json_get(&list->u.c.items[at], "uid")->u.i != t[done].uid)) at++;
      strata_json_path here = { path, NULL, 0, at };
      st = at_path(err, st, &here);
    }
  for (size_t k = 0; k < n; k++) strata_timer_clear(&t[k]);
  strata_free(t);
  return st;
}

static strata_status read_sub(strata_world *w, const strata_json *e, jpath *path, strata_error *err) {
  static const char *const known[] = { "uid", "object", "event", "handler", "args", "priority", NULL };
  strata_subscription u;
  memset(&u, 0, sizeof u);
  int64_t uid = 0, object = 0;
  strata_status st = known_keys(e, known, path, err);
  if (!st) st = int_field(e, path, "uid", 1, UID_MAX, &uid, err);
  if (!st) st = int_field(e, path, "object", 1, UID_MAX, &object, err);
  u.uid = (uint64_t)uid;
  u.object = (uint64_t)object;
  if (!st) st = string_field(e, path, "event", 1, &u.event, err);
  if (!st) st = string_field(e, path, "handler", 1, &u.handler, err);
  if (!st) st = args_field(e, path, &u.args, err);
  if (!st) st = int_field(e, path, "priority", INT64_MIN, INT64_MAX, &u.priority, err);
  if (!st && !strata_world_object(w, u.object)) {
    strata_json_path here = { path, "object", 6, 0 };
    st = strata_json_fail(err, STRATA_EPARSE, &here, "no object #%llu (a dangling uid)", (unsigned long long)u.object);
  }
  if (!st && (st = strata_world_restore_subscription(w, &u, err))) st = at_path(err, st, path);
  if (st) {
    strata_free(u.event);
    strata_free(u.handler);
    strata_value_clear(&u.args);
  }
  return st;
}

static strata_status read_streams(strata_world *w, const strata_json *streams, jpath *path, strata_error *err) {
  strata_status st = STRATA_OK;
  for (size_t i = 0; i < streams->u.c.n && !st; i++) {
    const strata_json *v = &streams->u.c.items[i];
    const strata_json_key *k = &streams->u.c.keys[i];
    strata_json_path here = { path, k->s, k->len, 0 };
    strata_rng r;
    if (v->type != STRATA_JSTRING || !strata_rng_parse(&r, v->u.str.s, v->u.str.len))
      st = strata_json_fail(err, STRATA_EPARSE, &here, "expected a generator's state (as rng:state() gives)");
    else if (memchr(k->s, '\0', k->len))
      st = strata_json_fail(err, STRATA_EPARSE, &here, "a stream's key holds a NUL byte");
    else if ((st = strata_world_set_stream(w, k->s, &r, err)))
      st = at_path(err, st, &here);
  }
  return st;
}

/* ---- reading: tiles --------------------------------------------------------------------- */

typedef struct legend_char {
  uint32_t cp;
  strata_token token;
} legend_char;

static int cmp_chars(const void *a, const void *b) {
  const legend_char *x = a, *y = b;
  return (x->cp > y->cp) - (x->cp < y->cp);
}

/* The code point of the UTF-8 sequence at s (valid: the reader checked it); its length into *len. */
static uint32_t next_cp(const unsigned char *s, size_t *len) {
  if (s[0] < 0x80) { *len = 1; return s[0]; }
  if (s[0] < 0xE0) { *len = 2; return ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F); }
  if (s[0] < 0xF0) { *len = 3; return ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F); }
  *len = 4;
  return ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) | ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
}

static strata_status intern(strata_world *w, const strata_json *name, jpath *path, strata_token *out, strata_error *err) {
  if (name->type != STRATA_JSTRING) return wrong_type(name, "a token name", path, err);
  strata_error e;
  *out = strata_tokens_intern(strata_world_tokens(w), name->u.str.s, name->u.str.len, &e);
  if (*out) return STRATA_OK;
  if (e.status == STRATA_ENOMEM) return strata_error_nomem(err, NULL);
  return strata_json_fail(err, STRATA_EPARSE, path, "not a token name: %s", e.message);
}

/* The legend's characters (one code point each, not a space) and their tokens, sorted. */
static strata_status read_legend(strata_world *w, const strata_json *legend, jpath *path, legend_char *chars,
                                 strata_error *err) {
  for (size_t i = 0; i < legend->u.c.n; i++) {
    const strata_json_key *k = &legend->u.c.keys[i];
    strata_json_path here = { path, k->s, k->len, 0 };
    size_t len = 0;
    chars[i].cp = k->len ? next_cp((const unsigned char *)k->s, &len) : 0;
    if (len != k->len || chars[i].cp == ' ')
      return strata_json_fail(err, STRATA_EPARSE, &here, "a legend's key is one character, not a space");
    strata_status st = intern(w, &legend->u.c.items[i], &here, &chars[i].token, err);
    if (st) return st;
  }
  qsort(chars, legend->u.c.n, sizeof *chars, cmp_chars);
  return STRATA_OK;
}

/* rows (height rows of width characters each, each a space or in the
** legend) into m. */
static strata_status read_rows(strata_tilemap *m, const strata_json *rows, jpath *path, const legend_char *chars,
                               size_t nchars, strata_error *err) {
  int w = strata_tilemap_width(m);
  for (size_t y = 0; y < rows->u.c.n; y++) {
    const strata_json *row = &rows->u.c.items[y];
    strata_json_path here = { path, NULL, 0, y };
    if (row->type != STRATA_JSTRING) return wrong_type(row, "a string", &here, err);
    const unsigned char *s = (const unsigned char *)row->u.str.s, *end = s + row->u.str.len;
    int x = 0;
    for (size_t len; s < end; s += len, x++) {
      legend_char key = { next_cp(s, &len), 0 };
      const legend_char *c = key.cp == ' ' ? NULL : bsearch(&key, chars, nchars, sizeof *chars, cmp_chars);
      if (x >= w) return strata_json_fail(err, STRATA_EPARSE, &here, "more than the map's %d characters", w);
      if (key.cp != ' ' && !c)
        return strata_json_fail(err, STRATA_EPARSE, &here, "character %d, '%.*s', is in no legend", x + 1, (int)len, s);
      strata_error e;
      if (c && strata_tilemap_set(m, x, (int)y, c->token, &e)) return strata_error_nomem(err, NULL);
    }
    if (x < w) return strata_json_fail(err, STRATA_EPARSE, &here, "%d characters, not the map's %d", x, w);
  }
  return STRATA_OK;
}

/* stacks: [[x, y, [token, ...]], ...], each replacing its cell. */
static strata_status read_stacks(strata_world *w, strata_tilemap *m, const strata_json *stacks, jpath *path,
                                 strata_error *err) {
  for (size_t i = 0; i < stacks->u.c.n; i++) {
    const strata_json *s = &stacks->u.c.items[i];
    strata_json_path here = { path, NULL, 0, i };
    if (s->type != STRATA_JARRAY || s->u.c.n != 3 || s->u.c.items[0].type != STRATA_JINT ||
        s->u.c.items[1].type != STRATA_JINT || s->u.c.items[2].type != STRATA_JARRAY || !s->u.c.items[2].u.c.n)
      return wrong_type(s, "[x, y, [token, ...]] (a cell's stack, bottom first)", &here, err);
    int64_t x = s->u.c.items[0].u.i, y = s->u.c.items[1].u.i;
    if (x < 0 || y < 0 || x >= strata_tilemap_width(m) || y >= strata_tilemap_height(m))
      return strata_json_fail(err, STRATA_EPARSE, &here, "(%lld, %lld) is outside the map (%d x %d)", (long long)x,
                              (long long)y, strata_tilemap_width(m), strata_tilemap_height(m));
    const strata_json *names = &s->u.c.items[2];
    strata_error e;
    strata_tilemap_reset(m, (int)x, (int)y, 0, &e);
    for (size_t k = 0; k < names->u.c.n; k++) {
      strata_json_path np = { &here, NULL, 0, 2 }, tp = { &np, NULL, 0, k };
      strata_token t;
      strata_status st = intern(w, &names->u.c.items[k], &tp, &t, err);
      if (st) return st;
      if (strata_tilemap_set(m, (int)x, (int)y, t, &e)) return strata_error_nomem(err, NULL);
    }
  }
  return STRATA_OK;
}

/* An object's tiles: checked whole before the map is made (its cells are as
** many as the text has characters), then filled and attached. */
static strata_status read_tiles(strata_world *w, uint64_t uid, const strata_json *t, jpath *path, strata_error *err) {
  static const char *const known[] = { "width", "height", "legend", "rows", "stacks", NULL };
  const strata_json *legend, *rows, *stacks;
  strata_json_path lp, rp, sp;
  int64_t width = 0, height = 0;
  if (t->type != STRATA_JOBJECT) return wrong_type(t, "an object", path, err);
  strata_status st = known_keys(t, known, path, err);
  if (!st) st = int_field(t, path, "width", 1, INT32_MAX, &width, err);
  if (!st) st = int_field(t, path, "height", 1, INT32_MAX, &height, err);
  if (!st) st = field(t, path, "legend", STRATA_JOBJECT, 1, &legend, &lp, err);
  if (!st) st = field(t, path, "rows", STRATA_JARRAY, 1, &rows, &rp, err);
  if (!st) st = field(t, path, "stacks", STRATA_JARRAY, 0, &stacks, &sp, err);
  if (!st && rows->u.c.n != (size_t)height)
    st = strata_json_fail(err, STRATA_EPARSE, &rp, "%zu rows, not the map's height %lld", rows->u.c.n, (long long)height);
  for (size_t i = 0; !st && i < rows->u.c.n; i++)
    if (rows->u.c.items[i].type == STRATA_JSTRING && rows->u.c.items[i].u.str.len < (size_t)width) {
      strata_json_path here = { &rp, NULL, 0, i };
      st = strata_json_fail(err, STRATA_EPARSE, &here, "fewer characters than the map's width %lld", (long long)width);
    }
  if (st) return st;
  legend_char *chars = strata_malloc((legend->u.c.n ? legend->u.c.n : 1) * sizeof *chars);
  strata_error e;
  strata_tilemap *m = chars ? strata_tilemap_new((int)width, (int)height, strata_world_tokens(w), &e) : NULL;
  if (!chars || (!m && e.status == STRATA_ENOMEM)) st = strata_error_nomem(err, NULL);
  else if (!m) st = strata_json_fail(err, STRATA_EPARSE, path, "%s", e.message);
  if (!st) st = read_legend(w, legend, &lp, chars, err);
  if (!st) st = read_rows(m, rows, &rp, chars, legend->u.c.n, err);
  if (!st && stacks) st = read_stacks(w, m, stacks, &sp, err);
  if (!st && (st = strata_world_attach_tilemap(w, uid, m, err))) st = at_path(err, st, path);
  if (st) strata_tilemap_free(m);
  strata_free(chars);
  return st;
}

/* ---- reading: the world ----------------------------------------------------------------- */

static strata_status read_mods(const strata_json *list, jpath *path, strata_mod_version **out, size_t *n,
                               strata_error *err) {
  static const char *const known[] = { "id", "version", NULL };
  *out = strata_calloc(list->u.c.n ? list->u.c.n : 1, sizeof **out);
  *n = 0;
  if (!*out) return strata_error_nomem(err, NULL);
  strata_status st = STRATA_OK;
  for (size_t i = 0; i < list->u.c.n && !st; i++) {
    const strata_json *m = &list->u.c.items[i];
    strata_json_path here = { path, NULL, 0, i };
    if (m->type != STRATA_JOBJECT) return wrong_type(m, "an object ({\"id\": ..., \"version\": ...})", &here, err);
    (*n)++;
    if (!(st = known_keys(m, known, &here, err)) && !(st = string_field(m, &here, "id", 1, &(*out)[i].id, err)))
      st = string_field(m, &here, "version", 1, &(*out)[i].version, err);
  }
  return st;
}

/* The members of the top level, of the types they must be. */
typedef struct world_parts {
  const strata_json *format, *version, *seed, *time, *next_uid, *mods, *streams, *lists[3];
} world_parts;

static strata_status read_parts(const strata_json *root, world_parts *p, strata_error *err) {
  static const char *const known[] = { "format", "version", "seed", "time", "next_uid", "mods", "streams",
                                       "objects", "timers", "subscriptions", NULL };
  strata_json_path here;
  if (root->type != STRATA_JOBJECT) return wrong_type(root, "an object (a world)", NULL, err);
  strata_status st = known_keys(root, known, NULL, err);
  if (!st) st = field(root, NULL, "format", STRATA_JSTRING, 1, &p->format, &here, err);
  if (!st && strcmp(p->format->u.str.s, WORLD_FORMAT))
    st = strata_json_fail(err, STRATA_EPARSE, &here, "expected \"%s\" (not a strata world)", WORLD_FORMAT);
  if (!st) st = field(root, NULL, "version", STRATA_JINT, 1, &p->version, &here, err);
  if (!st && p->version->u.i != WORLD_VERSION)
    st = strata_json_fail(err, STRATA_EPARSE, &here, "version %lld, and this strata reads version %d",
                          (long long)p->version->u.i, WORLD_VERSION);
  if (!st) st = field(root, NULL, "seed", STRATA_JNULL, 1, &p->seed, &here, err);
  if (!st) st = field(root, NULL, "time", STRATA_JFLOAT, 1, &p->time, &here, err);
  if (!st && !(number_of(p->time) >= -TIMER_LAST_DUE && number_of(p->time) <= TIMER_LAST_DUE))
    st = strata_json_fail(err, STRATA_EPARSE, &here, "a time out of range (-1e300 to 1e300)");
  if (!st) st = field(root, NULL, "next_uid", STRATA_JINT, 1, &p->next_uid, &here, err);
  if (!st) st = field(root, NULL, "mods", STRATA_JARRAY, 1, &p->mods, &here, err);
  if (!st) st = field(root, NULL, "streams", STRATA_JOBJECT, 1, &p->streams, &here, err);
  for (int l = 0; l < 3 && !st; l++) st = field(root, NULL, list_names[l], STRATA_JARRAY, 1, &p->lists[l], &here, err);
  return st;
}

static strata_status read_seed(const strata_json *v, uint64_t *seed, strata_error *err) {
  strata_json_path here = { NULL, "seed", 4, 0 };
  if (v->type == STRATA_JINT && v->u.i >= 0) { *seed = (uint64_t)v->u.i; return STRATA_OK; }
  if (v->type == STRATA_JSTRING && v->u.str.len && v->u.str.len < 21 && strspn(v->u.str.s, "0123456789") == v->u.str.len) {
    char *end;
    errno = 0;
    *seed = strtoull(v->u.str.s, &end, 10);
    if (!errno) return STRATA_OK;
  }
  return strata_json_fail(err, STRATA_EPARSE, &here, "expected a seed (an integer from 0 to 2^64 - 1, past 2^63 as its digits)");
}

/* An object on a tile map stands inside it; its tags are { [name] = true }. */
static strata_status check_place(const strata_world *w, const strata_object *o, jpath *path, strata_error *err) {
  const strata_tilemap *m = o->has_pos ? strata_world_tilemap(w, o->map) : NULL;
  if (m && (o->x < 0 || o->y < 0 || o->x >= strata_tilemap_width(m) || o->y >= strata_tilemap_height(m)))
    return strata_json_fail(err, STRATA_EPARSE, path, "(%lld, %lld) is outside map #%llu (%d x %d)", (long long)o->x,
                            (long long)o->y, (unsigned long long)o->map, strata_tilemap_width(m), strata_tilemap_height(m));
  const strata_vtable *t = o->tags.type == STRATA_VTABLE ? o->tags.u.t : NULL;
  for (size_t i = 0; t && i < t->n; i++)
    if (t->keys[i].type != STRATA_VSTRING || !t->keys[i].u.str.len || t->vals[i].type != STRATA_VBOOL || !t->vals[i].u.b) {
      strata_json_path tp = { path, "tags", 4, 0 };
      return strata_json_fail(err, STRATA_EPARSE, &tp, "expected { \"name\": true, ... }");
    }
  return STRATA_OK;
}

/* The objects in uid order (uids[0..n) sorted, those of list 0), their
** positions on objects that exist, their tiles, then their places on them. */
static strata_status read_objects(strata_world *w, const strata_json *list, const uid_at *uids, size_t n,
                                  strata_error *err) {
  strata_json_path lp = { NULL, "objects", 7, 0 };
  strata_status st = STRATA_OK;
  for (int pass = 0; pass < 4 && !st; pass++)
    for (size_t i = 0; i < n && !st; i++) {
      if (uids[i].list != 0) continue;
      const strata_json *e = &list->u.c.items[uids[i].index], *v;
      strata_json_path here = { &lp, NULL, 0, uids[i].index };
      const strata_object *o = pass ? strata_world_object(w, uids[i].uid) : NULL;
      if (pass == 0) st = read_object(w, e, &here, err);
      else if (!o) st = strata_error_nomem(err, NULL);
      else if (pass == 1 && o->has_pos && !strata_world_object(w, o->map)) {
        strata_json_path mp = { &here, "map", 3, 0 };
        st = strata_json_fail(err, STRATA_EPARSE, &mp, "no object #%llu (a dangling uid)", (unsigned long long)o->map);
      } else if (pass == 2 && (v = strata_json_get(e, "tiles"))) {
        strata_json_path tp = { &here, "tiles", 5, 0 };
        st = read_tiles(w, uids[i].uid, v, &tp, err);
      } else if (pass == 3) {
        st = check_place(w, o, &here, err);
      }
    }
  return st;
}

static strata_status read_world(const strata_json *root, strata_world **out, strata_mod_version **mods,
                                size_t *nmods, strata_error *err) {
  world_parts p;
  uint64_t seed = 0;
  uid_at *uids = NULL;
  size_t n = 0;
  strata_status st = read_parts(root, &p, err);
  if (!st) st = read_seed(p.seed, &seed, err);
  strata_json_path mp = { NULL, "mods", 4, 0 }, sp = { NULL, "streams", 7, 0 }, np = { NULL, "next_uid", 8, 0 };
  if (!st) st = read_mods(p.mods, &mp, mods, nmods, err);
  if (!st) st = gather_uids(p.lists, NULL, &uids, &n, err);
  strata_world *w = st ? NULL : strata_world_new(seed, err);
  if (!st && !w) st = STRATA_ENOMEM;
  if (!st) st = read_objects(w, p.lists[0], uids, n, err);
  strata_json_path tp = { NULL, "timers", 6, 0 }, up = { NULL, "subscriptions", 13, 0 };
  if (!st) st = read_timers(w, p.lists[1], &tp, err);
  for (size_t i = 0; i < n && !st; i++)
    if (uids[i].list == 2) {
      strata_json_path here = { &up, NULL, 0, uids[i].index };
      st = read_sub(w, &p.lists[2]->u.c.items[uids[i].index], &here, err);
    }
  if (!st) st = read_streams(w, p.streams, &sp, err);
  if (!st && (p.next_uid->u.i < 1 || (uint64_t)p.next_uid->u.i < strata_world_next_uid(w)))
    st = strata_json_fail(err, STRATA_EPARSE, &np, "%lld is not past every uid (the largest is %llu)",
                          (long long)p.next_uid->u.i, (unsigned long long)(strata_world_next_uid(w) - 1));
  strata_free(uids);
  if (st) {
    strata_world_free(w);
    return st;
  }
  strata_world_restore_clock(w, number_of(p.time), (uint64_t)p.next_uid->u.i);
  *out = w;
  return STRATA_OK;
}

strata_status strata_world_from_json(const char *text, size_t len, strata_world **out, strata_mod_version **mods,
                                     size_t *nmods, strata_error *err) {
  if (out) *out = NULL;
  if (mods) *mods = NULL;
  if (nmods) *nmods = 0;
  if (!text || !out || !mods || !nmods)
    return strata_error_set(err, STRATA_EARG, "strata_world_from_json: NULL argument");
  strata_json root;
  strata_status st = strata_json_parse(&root, text, len, err);
  if (st) return st;
  st = read_world(&root, out, mods, nmods, err);
  strata_json_free(&root);
  if (st) {
    strata_mod_versions_free(*mods, *nmods);
    *mods = NULL;
    *nmods = 0;
  }
  return st;
}
