/*
** json.c - the JSON reader and writer (strata/json.h).
**
** The reader descends recursively, at most STRATA_JSON_MAX_DEPTH levels (a
** few hundred bytes of C stack each), with the path of the node at hand
** chained on the stack for its messages. Duplicate keys are found when an
** object closes: pairwise in a small one, by sorting its keys in a large one,
** so that a hostile object of a million keys costs n log n, not n squared.
*/
#include "strata/json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/alloc.h"
#include "util.h"

/* ---- paths and messages ---------------------------------------------------------------- */

static int is_identifier(const char *s, size_t len) {
  if (len == 0 || (s[0] >= '0' && s[0] <= '9')) return 0;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return 0;
  }
  return 1;
}

/* One step of a path ("[3]", ".hp", "[\"a b\"]") into buf (cap bytes, >= 32). */
static void format_step(const strata_json_path *p, char *buf, size_t cap) {
  if (!p->key) {
    snprintf(buf, cap, "[%zu]", p->index);
  } else if (is_identifier(p->key, p->keylen) && p->keylen < cap - 2) {
    snprintf(buf, cap, ".%.*s", (int)p->keylen, p->key);
  } else {
    size_t o = 0;
    buf[o++] = '[';
    buf[o++] = '"';
    size_t i = 0;
    /* cut (when it must be) before a character, never inside one: room kept for "...\"]" */
    for (; i < p->keylen; i++) {
      unsigned char c = (unsigned char)p->key[i];
      if (o + 16 >= cap && ((c & 0xC0) != 0x80 || o + 8 >= cap)) break;
      if (c == '"' || c == '\\') { buf[o++] = '\\'; buf[o++] = (char)c; }
      else if (c < 0x20) o += (size_t)snprintf(buf + o, cap - o, "\\u%04x", c);
      else buf[o++] = (char)c;
    }
    if (i < p->keylen) { memcpy(buf + o, "...", 3); o += 3; }
    buf[o++] = '"';
    buf[o++] = ']';
    buf[o] = '\0';
  }
}

void strata_json_path_format(const strata_json_path *path, char *buf, size_t cap) {
  const strata_json_path *steps[STRATA_JSON_MAX_DEPTH + 2];
  size_t n = 0, total = 1;
  char step[96];
  /* each step shorter than a quarter of buf: the first and the last fit */
  size_t stepcap = cap / 4 < sizeof step ? cap / 4 : sizeof step;
  if (cap < 2) return;
  buf[0] = cap < 128 ? '\0' : '$';
  buf[1] = '\0';
  if (cap < 128) return;
  for (const strata_json_path *p = path; p && n < STRATA_JSON_MAX_DEPTH + 2; p = p->up) {
    steps[n++] = p;
    format_step(p, step, stepcap);
    total += strlen(step);
  }
  /* steps[n - 1] is the root's first: all of them when they fit, else the
  ** first ones up to half of buf, "...", and as many of the last as fit */
  size_t o = 1, i = n, tail = 0;
  if (total >= cap) {
    size_t used = 0;
    while (tail < n) {
      format_step(steps[tail], step, stepcap);
      if (used + strlen(step) >= cap / 2 - 4) break;
      used += strlen(step);
      tail++;
    }
  }
  for (; i-- > tail;) {
    format_step(steps[i], step, stepcap);
    size_t len = strlen(step);
    if (tail && o + len >= cap / 2) break;
    memcpy(buf + o, step, len + 1);
    o += len;
  }
  if (!tail) return;
  memcpy(buf + o, "...", 4);
  o += 3;
  for (size_t j = tail; j-- > 0;) {
    format_step(steps[j], step, stepcap);
    size_t len = strlen(step);
    memcpy(buf + o, step, len + 1);
    o += len;
  }
}

static strata_status json_failv(strata_error *err, strata_status status, const strata_json_path *path,
                                const char *fmt, va_list ap) {
  char where[STRATA_ERROR_MESSAGE_MAX / 2], what[STRATA_ERROR_MESSAGE_MAX];
  strata_json_path_format(path, where, sizeof where);
  vsnprintf(what, sizeof what, fmt, ap);
  return strata_error_set(err, status, "%s: %s", where, what);
}

strata_status strata_json_fail(strata_error *err, strata_status status, const strata_json_path *path,
                               const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  strata_status s = json_failv(err, status, path, fmt, ap);
  va_end(ap);
  return s;
}

const char *strata_json_type_name(strata_jtype type) {
  switch (type) {
  case STRATA_JNULL: return "null";
  case STRATA_JBOOL: return "a boolean";
  case STRATA_JINT: return "an integer";
  case STRATA_JFLOAT: return "a number";
  case STRATA_JSTRING: return "a string";
  case STRATA_JARRAY: return "an array";
  case STRATA_JOBJECT: return "an object";
  }
  return "?";
}

/* ---- the tree ----------------------------------------------------------------------- */

strata_json strata_json_null(void) { strata_json v; memset(&v, 0, sizeof v); return v; }
strata_json strata_json_bool(int b) { strata_json v = strata_json_null(); v.type = STRATA_JBOOL; v.u.b = !!b; return v; }
strata_json strata_json_int(int64_t i) { strata_json v = strata_json_null(); v.type = STRATA_JINT; v.u.i = i; return v; }
strata_json strata_json_float(double f) { strata_json v = strata_json_null(); v.type = STRATA_JFLOAT; v.u.f = f; return v; }
strata_json strata_json_array(void) { strata_json v = strata_json_null(); v.type = STRATA_JARRAY; return v; }
strata_json strata_json_object(void) { strata_json v = strata_json_null(); v.type = STRATA_JOBJECT; return v; }

static char *copy_bytes(const char *s, size_t len) {
  if (len == SIZE_MAX) return NULL;
  char *p = strata_malloc(len + 1);
  if (!p) return NULL;
  if (len) memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

strata_status strata_json_string(strata_json *out, const char *s, size_t len, strata_error *err) {
  *out = strata_json_null();
  char *p = copy_bytes(s, len);
  if (!p) return strata_error_nomem(err, "copying a JSON string");
  out->type = STRATA_JSTRING;
  out->u.str.s = p;
  out->u.str.len = len;
  return STRATA_OK;
}

void strata_json_free(strata_json *v) {
  if (!v) return;
  if (v->type == STRATA_JSTRING) {
    strata_free(v->u.str.s);
  } else if (v->type == STRATA_JARRAY || v->type == STRATA_JOBJECT) {
    for (size_t i = 0; i < v->u.c.n; i++) {
      strata_json_free(&v->u.c.items[i]);
      if (v->u.c.keys) strata_free(v->u.c.keys[i].s);
    }
    strata_free(v->u.c.items);
    strata_free(v->u.c.keys);
  }
  *v = strata_json_null();
}

/* Room for one more item (and key, in an object). */
static int reserve(strata_json *c) {
  if (c->u.c.n < c->u.c.cap) return 1;
  size_t cap = c->u.c.cap;
  if (!STRATA_GROW(c->u.c.items, cap, c->u.c.n + 1)) return 0;
  if (c->type == STRATA_JOBJECT) {
    size_t kcap = c->u.c.cap;
    if (!STRATA_GROW(c->u.c.keys, kcap, cap)) return 0; /* items grown: cap stays, retried next time */
  }
  c->u.c.cap = cap;
  return 1;
}

strata_status strata_json_push(strata_json *arr, strata_json *item, strata_error *err) {
  if (arr->type != STRATA_JARRAY) return strata_error_set(err, STRATA_EARG, "strata_json_push: not an array");
  if (!reserve(arr)) return strata_error_nomem(err, "growing a JSON array");
  arr->u.c.items[arr->u.c.n++] = *item;
  *item = strata_json_null();
  return STRATA_OK;
}

strata_status strata_json_put(strata_json *obj, const char *key, size_t len, strata_json *item,
                              strata_error *err) {
  if (obj->type != STRATA_JOBJECT) return strata_error_set(err, STRATA_EARG, "strata_json_put: not an object");
  char *k = copy_bytes(key, len);
  if (!k || !reserve(obj)) {
    strata_free(k);
    return strata_error_nomem(err, "growing a JSON object");
  }
  obj->u.c.keys[obj->u.c.n].s = k;
  obj->u.c.keys[obj->u.c.n].len = len;
  obj->u.c.items[obj->u.c.n++] = *item;
  *item = strata_json_null();
  return STRATA_OK;
}

const strata_json *strata_json_get(const strata_json *obj, const char *key) {
  if (!obj || obj->type != STRATA_JOBJECT) return NULL;
  size_t len = strlen(key);
  for (size_t i = 0; i < obj->u.c.n; i++)
    if (obj->u.c.keys[i].len == len && memcmp(obj->u.c.keys[i].s, key, len) == 0) return &obj->u.c.items[i];
  return NULL;
}

/* ---- UTF-8 -------------------------------------------------------------------------- */

/* The length of the UTF-8 sequence at s (n bytes left) and its code point,
** or 0 when it is not one (overlong, a surrogate, past U+10FFFF, cut short). */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp) {
  unsigned char c = s[0];
  size_t len;
  uint32_t v, min;
  if (c < 0x80) { *cp = c; return 1; }
  if (c >= 0xC2 && c <= 0xDF) { len = 2; v = c & 0x1F; min = 0x80; }
  else if (c >= 0xE0 && c <= 0xEF) { len = 3; v = c & 0x0F; min = 0x800; }
  else if (c >= 0xF0 && c <= 0xF4) { len = 4; v = c & 0x07; min = 0x10000; }
  else return 0;
  if (n < len) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (s[i] & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return len;
}

static size_t utf8_encode(uint32_t cp, char *out) {
  if (cp < 0x80) { out[0] = (char)cp; return 1; }
  if (cp < 0x800) { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

int strata_json_is_utf8(const char *s, size_t len) {
  uint32_t cp;
  for (size_t i = 0, n; i < len; i += n)
    if (!(n = utf8_decode((const unsigned char *)s + i, len - i, &cp))) return 0;
  return 1;
}

/* ---- the reader --------------------------------------------------------------------- */

typedef struct reader {
  const char *s;
  size_t len, pos;
  strata_error *err;
} reader;

static strata_status fail_at(reader *r, strata_status status, const strata_json_path *path, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 4, 5)))
#endif
  ;

/* A refusal at the reader's position: err's line and column set too. */
static strata_status fail_at(reader *r, strata_status status, const strata_json_path *path, const char *fmt, ...) {
  int line = 1, column = 1;
  for (size_t i = 0; i < r->pos && i < r->len; i++) {
    if (r->s[i] == '\n') { line++; column = 1; }
    else if (((unsigned char)r->s[i] & 0xC0) != 0x80) column++;
  }
  va_list ap;
  va_start(ap, fmt);
  json_failv(r->err, status, path, fmt, ap);
  va_end(ap);
  if (r->err) {
    r->err->line = line;
    r->err->column = column;
  }
  return status;
}

static void skip_space(reader *r) {
  while (r->pos < r->len) {
    char c = r->s[r->pos];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
    r->pos++;
  }
}

static int hex4(const char *s, uint32_t *v) {
  *v = 0;
  for (int i = 0; i < 4; i++) {
    char c = s[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return 0;
    *v = *v * 16 + (uint32_t)d;
  }
  return 1;
}

/* A \u escape at r->pos (just after the backslash and 'u'), a surrogate pair
** taken whole; its code point into *cp. */
static strata_status read_unicode_escape(reader *r, const strata_json_path *path, uint32_t *cp) {
  if (r->len - r->pos < 4 || !hex4(r->s + r->pos, cp))
    return fail_at(r, STRATA_EPARSE, path, "a \\u escape needs four hexadecimal digits");
  r->pos += 4;
  if (*cp >= 0xDC00 && *cp <= 0xDFFF) return fail_at(r, STRATA_EPARSE, path, "a lone low surrogate \\u%04X", *cp);
  if (*cp < 0xD800 || *cp > 0xDBFF) return STRATA_OK;
  uint32_t low;
  if (r->len - r->pos < 6 || r->s[r->pos] != '\\' || r->s[r->pos + 1] != 'u' || !hex4(r->s + r->pos + 2, &low) ||
      low < 0xDC00 || low > 0xDFFF)
    return fail_at(r, STRATA_EPARSE, path, "a high surrogate \\u%04X without its low one", *cp);
  r->pos += 6;
  *cp = 0x10000 + ((*cp - 0xD800) << 10) + (low - 0xDC00);
  return STRATA_OK;
}

/* A string at r->pos (its opening quote), decoded into *text (NUL-terminated,
** strata_malloc'd) and *textlen. */
static strata_status read_string(reader *r, const strata_json_path *path, char **text, size_t *textlen) {
  size_t start = ++r->pos, n = 0;
  /* the decoded text is never longer than the quoted one */
  const char *end = memchr(r->s + start, '"', r->len - start);
  size_t bound = end ? (size_t)(end - r->s) - start : r->len - start;
  char *buf = NULL;
  size_t cap = 0;
  if (!STRATA_GROW(buf, cap, bound + 1)) return strata_error_nomem(r->err, "reading a JSON string");
  for (;;) {
    if (r->pos >= r->len) { strata_free(buf); return fail_at(r, STRATA_EPARSE, path, "a string without its closing quote"); }
    unsigned char c = (unsigned char)r->s[r->pos];
    if (c == '"') break;
    if (n + 4 >= cap && !STRATA_GROW(buf, cap, n + 5)) { strata_free(buf); return strata_error_nomem(r->err, "reading a JSON string"); }
    if (c < 0x20) { strata_free(buf); return fail_at(r, STRATA_EPARSE, path, "a control character (0x%02X) inside a string", c); }
    if (c != '\\') {
      uint32_t cp;
      size_t len = utf8_decode((const unsigned char *)r->s + r->pos, r->len - r->pos, &cp);
      if (!len) { strata_free(buf); return fail_at(r, STRATA_EPARSE, path, "a string that is not UTF-8"); }
      memcpy(buf + n, r->s + r->pos, len);
      n += len;
      r->pos += len;
      continue;
    }
    if (++r->pos >= r->len) continue;
    char e = r->s[r->pos++];
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *at = e ? strchr(from, e) : NULL;
    if (at) { buf[n++] = to[at - from]; continue; }
    uint32_t cp = 0; /* (set by read_unicode_escape when it succeeds; GCC -O3 cannot see that) */
    strata_status s = e == 'u' ? read_unicode_escape(r, path, &cp)
                               : fail_at(r, STRATA_EPARSE, path, "an unknown escape '\\%c'", e >= 0x20 && e < 0x7F ? e : '?');
    if (s) { strata_free(buf); return s; }
    n += utf8_encode(cp, buf + n);
  }
  r->pos++;
  buf[n] = '\0';
  *text = buf;
  *textlen = n;
  return STRATA_OK;
}

static strata_status read_number(reader *r, const strata_json_path *path, strata_json *out) {
  size_t start = r->pos;
  const char *s = r->s;
  int is_float = 0;
  if (r->pos < r->len && s[r->pos] == '-') r->pos++;
  size_t digits = r->pos;
  while (r->pos < r->len && s[r->pos] >= '0' && s[r->pos] <= '9') r->pos++;
  if (r->pos == digits) return fail_at(r, STRATA_EPARSE, path, "a number without digits");
  if (s[digits] == '0' && r->pos - digits > 1) { r->pos = digits; return fail_at(r, STRATA_EPARSE, path, "a number with a leading zero"); }
  if (r->pos < r->len && s[r->pos] == '.') {
    is_float = 1;
    size_t frac = ++r->pos;
    while (r->pos < r->len && s[r->pos] >= '0' && s[r->pos] <= '9') r->pos++;
    if (r->pos == frac) return fail_at(r, STRATA_EPARSE, path, "a number without digits after its '.'");
  }
  if (r->pos < r->len && (s[r->pos] == 'e' || s[r->pos] == 'E')) {
    is_float = 1;
    r->pos++;
    if (r->pos < r->len && (s[r->pos] == '+' || s[r->pos] == '-')) r->pos++;
    size_t exp = r->pos;
    while (r->pos < r->len && s[r->pos] >= '0' && s[r->pos] <= '9') r->pos++;
    if (r->pos == exp) return fail_at(r, STRATA_EPARSE, path, "a number without digits in its exponent");
  }
  char buf[512];
  size_t len = r->pos - start;
  if (len >= sizeof buf) { r->pos = start; return fail_at(r, STRATA_EPARSE, path, "a number of more than 511 characters"); }
  memcpy(buf, s + start, len);
  buf[len] = '\0';
  if (!is_float) {
    char *end;
    errno = 0;
    long long i = strtoll(buf, &end, 10);
    if (errno == 0) { *out = strata_json_int((int64_t)i); return STRATA_OK; }
  }
  double f = strtod(buf, NULL);
  if (!isfinite(f)) { r->pos = start; return fail_at(r, STRATA_EPARSE, path, "a number out of a double's range"); }
  *out = strata_json_float(f);
  return STRATA_OK;
}

static int cmp_keys(const void *a, const void *b) {
  const strata_json_key *x = *(const strata_json_key *const *)a, *y = *(const strata_json_key *const *)b;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->s, y->s, n);
  return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* The first key of obj that repeats an earlier one, or NULL. */
static const strata_json_key *duplicate_key(const strata_json *obj, strata_error *err, int *nomem) {
  size_t n = obj->u.c.n;
  const strata_json_key *k = obj->u.c.keys;
  *nomem = 0;
  if (n <= 32) {
    for (size_t i = 1; i < n; i++)
      for (size_t j = 0; j < i; j++)
        if (k[i].len == k[j].len && memcmp(k[i].s, k[j].s, k[i].len) == 0) return &k[i];
    return NULL;
  }
  const strata_json_key **sorted = strata_malloc(n * sizeof *sorted);
  if (!sorted) { *nomem = 1; strata_error_nomem(err, "checking a JSON object's keys"); return NULL; }
  for (size_t i = 0; i < n; i++) sorted[i] = &k[i];
  qsort(sorted, n, sizeof *sorted, cmp_keys);
  const strata_json_key *dup = NULL;
  for (size_t i = 1; i < n && !dup; i++)
    if (cmp_keys(&sorted[i - 1], &sorted[i]) == 0) dup = sorted[i] > sorted[i - 1] ? sorted[i] : sorted[i - 1];
  strata_free(sorted);
  return dup;
}

static strata_status read_value(reader *r, const strata_json_path *path, size_t depth, strata_json *out);

/* An array or an object at r->pos (its opening bracket) into *out. */
static strata_status read_container(reader *r, const strata_json_path *path, size_t depth, strata_json *out) {
  int is_object = r->s[r->pos] == '{';
  char close = is_object ? '}' : ']';
  if (depth >= STRATA_JSON_MAX_DEPTH)
    return fail_at(r, STRATA_ELIMIT, path, "nested deeper than %d levels", STRATA_JSON_MAX_DEPTH);
  *out = is_object ? strata_json_object() : strata_json_array();
  r->pos++;
  skip_space(r);
  if (r->pos < r->len && r->s[r->pos] == close) { r->pos++; return STRATA_OK; }
  strata_status s = STRATA_OK;
  for (;;) {
    strata_json_path here = { path, NULL, 0, out->u.c.n };
    strata_json item = strata_json_null();
    char *key = NULL;
    size_t keylen = 0;
    skip_space(r);
    if (is_object) {
      if (r->pos >= r->len || r->s[r->pos] != '"') { s = fail_at(r, STRATA_EPARSE, path, "expected a key (a string) or '}'"); break; }
      if ((s = read_string(r, path, &key, &keylen))) break;
      here.key = key;
      here.keylen = keylen;
      skip_space(r);
      if (r->pos >= r->len || r->s[r->pos] != ':') { s = fail_at(r, STRATA_EPARSE, &here, "expected ':' after the key"); strata_free(key); break; }
      r->pos++;
    }
    if ((s = read_value(r, &here, depth + 1, &item)) || (s = reserve(out) ? STRATA_OK : strata_error_nomem(r->err, "reading JSON"))) {
      strata_free(key);
      strata_json_free(&item);
      break;
    }
    if (is_object) { out->u.c.keys[out->u.c.n].s = key; out->u.c.keys[out->u.c.n].len = keylen; }
    out->u.c.items[out->u.c.n++] = item;
    skip_space(r);
    if (r->pos < r->len && r->s[r->pos] == ',') { r->pos++; continue; }
    if (r->pos < r->len && r->s[r->pos] == close) { r->pos++; break; }
    s = r->pos >= r->len ? fail_at(r, STRATA_EPARSE, path, "the text ends inside %s", is_object ? "an object" : "an array")
                         : fail_at(r, STRATA_EPARSE, path, "expected ',' or '%c'", close);
    break;
  }
  if (!s && is_object) {
    int nomem;
    const strata_json_key *dup = duplicate_key(out, r->err, &nomem);
    if (nomem) s = STRATA_ENOMEM;
    else if (dup) {
      strata_json_path here = { path, dup->s, dup->len, 0 };
      s = strata_json_fail(r->err, STRATA_EPARSE, &here, "a duplicate key");
    }
  }
  if (s) strata_json_free(out);
  return s;
}

static strata_status read_literal(reader *r, const strata_json_path *path, strata_json *out) {
  static const char *const words[] = { "null", "true", "false" };
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(words[i]);
    if (r->len - r->pos >= n && memcmp(r->s + r->pos, words[i], n) == 0) {
      r->pos += n;
      *out = i == 0 ? strata_json_null() : strata_json_bool(i == 1);
      return STRATA_OK;
    }
  }
  return fail_at(r, STRATA_EPARSE, path, "expected a value (an object, an array, a string, a number, true, false or null)");
}

static strata_status read_value(reader *r, const strata_json_path *path, size_t depth, strata_json *out) {
  *out = strata_json_null();
  skip_space(r);
  if (r->pos >= r->len) return fail_at(r, STRATA_EPARSE, path, "the text ends where a value should be");
  char c = r->s[r->pos];
  if (c == '{' || c == '[') return read_container(r, path, depth, out);
  if (c == '"') {
    char *text;
    size_t len;
    strata_status s = read_string(r, path, &text, &len);
    if (s) return s;
    out->type = STRATA_JSTRING;
    out->u.str.s = text;
    out->u.str.len = len;
    return STRATA_OK;
  }
  if (c == '-' || (c >= '0' && c <= '9')) return read_number(r, path, out);
  return read_literal(r, path, out);
}

strata_status strata_json_parse(strata_json *out, const char *text, size_t len, strata_error *err) {
  *out = strata_json_null();
  if (!text) return strata_error_set(err, STRATA_EARG, "strata_json_parse: NULL text");
  if (len > STRATA_JSON_MAX_SIZE)
    return strata_error_set(err, STRATA_ELIMIT, "JSON text of %zu bytes, more than the %zu a text may hold", len,
                            STRATA_JSON_MAX_SIZE);
  reader r = { text, len, 0, err };
  strata_status s = read_value(&r, NULL, 0, out);
  if (s) return s;
  skip_space(&r);
  if (r.pos < r.len) {
    strata_json_free(out);
    return fail_at(&r, STRATA_EPARSE, NULL, "text after the value");
  }
  return STRATA_OK;
}

/* ---- the writer --------------------------------------------------------------------- */

static int put(strata_buffer *b, const void *p, size_t n) {
  if (b->len + n < b->len) return 0;
  if (b->len + n > b->cap && !STRATA_GROW(b->data, b->cap, b->len + n)) return 0;
  memcpy(b->data + b->len, p, n);
  b->len += n;
  return 1;
}

#define PUTS(b, s) put((b), (s), sizeof(s) - 1)

static strata_status write_string(const char *s, size_t len, strata_buffer *b, const strata_json_path *path,
                                  strata_error *err) {
  if (!PUTS(b, "\"")) return strata_error_nomem(err, "writing JSON");
  size_t run = 0; /* bytes copied as they are, written in one go */
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)s[i];
    uint32_t cp;
    size_t n = utf8_decode((const unsigned char *)s + i, len - i, &cp);
    if (!n) return strata_json_fail(err, STRATA_EARG, path, "a string that is not UTF-8 (byte %zu)", i + 1);
    if (c >= 0x20 && c != '"' && c != '\\') { i += n; run += n; continue; }
    char esc[8];
    int m = c == '"' ? snprintf(esc, sizeof esc, "\\\"") : c == '\\' ? snprintf(esc, sizeof esc, "\\\\")
          : c == '\n' ? snprintf(esc, sizeof esc, "\\n") : c == '\t' ? snprintf(esc, sizeof esc, "\\t")
          : c == '\r' ? snprintf(esc, sizeof esc, "\\r") : snprintf(esc, sizeof esc, "\\u%04x", c);
    if (!put(b, s + i - run, run) || !put(b, esc, (size_t)m)) return strata_error_nomem(err, "writing JSON");
    run = 0;
    i++;
  }
  if (!put(b, s + len - run, run) || !PUTS(b, "\"")) return strata_error_nomem(err, "writing JSON");
  return STRATA_OK;
}

/* The shortest of %.15g, %.16g and %.17g that reads back as f, ".0" added
** when it would read as an integer. */
static strata_status write_float(double f, strata_buffer *b, const strata_json_path *path, strata_error *err) {
  if (!isfinite(f)) return strata_json_fail(err, STRATA_EARG, path, "%s is no JSON number", isnan(f) ? "NaN" : "an infinity");
  char text[40];
  for (int digits = 15; digits <= 17; digits++) {
    snprintf(text, sizeof text, "%.*g", digits, f);
    if (strtod(text, NULL) == f) break;
  }
  if (!strpbrk(text, ".eE")) strcat(text, ".0");
  return put(b, text, strlen(text)) ? STRATA_OK : strata_error_nomem(err, "writing JSON");
}

/* Whether v goes on one line when pretty: a scalar, or an array of such
** (arrays in it too) of at most *budget characters or so (a number counted
** as 8: the same tree always gets the same lines). */
static int fits_line(const strata_json *v, long *budget) {
  if (v->type == STRATA_JOBJECT) return 0;
  if (v->type == STRATA_JSTRING) *budget -= v->u.str.len > 1000 ? 1000 : (long)v->u.str.len + 4;
  else if (v->type != STRATA_JARRAY) *budget -= 8;
  else {
    *budget -= 2;
    for (size_t i = 0; i < v->u.c.n && *budget >= 0; i++)
      if (!fits_line(&v->u.c.items[i], budget)) return 0;
  }
  return *budget >= 0;
}

static int newline(strata_buffer *b, int pretty, size_t depth) {
  if (!pretty) return 1;
  if (!PUTS(b, "\n")) return 0;
  for (size_t i = 0; i < depth; i++)
    if (!PUTS(b, "  ")) return 0;
  return 1;
}

static strata_status write_value(const strata_json *v, int pretty, size_t depth, strata_buffer *b,
                                 const strata_json_path *path, strata_error *err);

static strata_status write_container(const strata_json *v, int pretty, size_t depth, strata_buffer *b,
                                     const strata_json_path *path, strata_error *err) {
  int obj = v->type == STRATA_JOBJECT;
  if (depth >= STRATA_JSON_MAX_DEPTH)
    return strata_json_fail(err, STRATA_EARG, path, "nested deeper than %d levels", STRATA_JSON_MAX_DEPTH);
  if (!put(b, obj ? "{" : "[", 1)) return strata_error_nomem(err, "writing JSON");
  long budget = 100;
  int flat = !obj && fits_line(v, &budget); /* a short array of scalars stays on one line */
  for (size_t i = 0; i < v->u.c.n; i++) {
    strata_json_path here = { path, obj ? v->u.c.keys[i].s : NULL, obj ? v->u.c.keys[i].len : 0, i };
    if (i && !put(b, ",", 1)) return strata_error_nomem(err, "writing JSON");
    if (flat ? (i && pretty && !PUTS(b, " ")) : !newline(b, pretty, depth + 1)) return strata_error_nomem(err, "writing JSON");
    strata_status s;
    if (obj) {
      if ((s = write_string(v->u.c.keys[i].s, v->u.c.keys[i].len, b, &here, err))) return s;
      if (!(pretty ? PUTS(b, ": ") : PUTS(b, ":"))) return strata_error_nomem(err, "writing JSON");
    }
    if ((s = write_value(&v->u.c.items[i], pretty, depth + 1, b, &here, err))) return s;
  }
  if (v->u.c.n && !flat && !newline(b, pretty, depth)) return strata_error_nomem(err, "writing JSON");
  return put(b, obj ? "}" : "]", 1) ? STRATA_OK : strata_error_nomem(err, "writing JSON");
}

static strata_status write_value(const strata_json *v, int pretty, size_t depth, strata_buffer *b,
                                 const strata_json_path *path, strata_error *err) {
  char text[32];
  switch (v->type) {
  case STRATA_JNULL: return PUTS(b, "null") ? STRATA_OK : strata_error_nomem(err, "writing JSON");
  case STRATA_JBOOL:
    return (v->u.b ? PUTS(b, "true") : PUTS(b, "false")) ? STRATA_OK : strata_error_nomem(err, "writing JSON");
  case STRATA_JINT:
    snprintf(text, sizeof text, "%lld", (long long)v->u.i);
    return put(b, text, strlen(text)) ? STRATA_OK : strata_error_nomem(err, "writing JSON");
  case STRATA_JFLOAT: return write_float(v->u.f, b, path, err);
  case STRATA_JSTRING: return write_string(v->u.str.s, v->u.str.len, b, path, err);
  case STRATA_JARRAY:
  case STRATA_JOBJECT: return write_container(v, pretty, depth, b, path, err);
  }
  return strata_json_fail(err, STRATA_EARG, path, "not a JSON node (type %d)", (int)v->type);
}

strata_status strata_json_write(const strata_json *v, int pretty, strata_buffer *out, strata_error *err) {
  size_t len = out->len;
  strata_status s = write_value(v, pretty, 0, out, NULL, err);
  if (!s && pretty && !PUTS(out, "\n")) s = strata_error_nomem(err, "writing JSON");
  if (s) out->len = len;
  return s;
}
