/*
** worldgen_conf.c - the configuration file of the world generator
** (worldgen.h, docs/worldgen.md): the options that shape a world, one
** `key = value` a line, in the form of an INI file with one section.
**
** The file is someone else's text: every line is checked before anything is
** set, so a refusal (one message naming the file, the line and what is
** wrong) leaves the options as they were.
*/
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "strata/alloc.h"
#include "strata/file.h"
#include "worldgen_internal.h"

enum { K_DIM_X, K_DIM_Y, K_DIM_Z, K_RAND, K_SEED, K_ROOM_VARIANCE, K_POST_CHECK, K_PATH_ALG, NKEYS };
static const char *const KEYS[NKEYS] = { "dim_x", "dim_y", "dim_z", "rand", "seed", "room_variance",
                                         "post_check", "path_alg" };

typedef struct conf {
  const char *name;
  int line;
  int at[NKEYS]; /* the line each key was given on; 0: not given */
  strata_error *err;
} conf;

static strata_status fail(conf *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static strata_status fail(conf *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  strata_status st = wg_failv(c->err, c->name, c->line, fmt, ap);
  va_end(ap);
  return st;
}

static int blank(char ch) { return ch == ' ' || ch == '\t'; }

static void trim(const char **s, size_t *n) {
  while (*n && blank(**s)) (*s)++, (*n)--;
  while (*n && blank((*s)[*n - 1])) (*n)--;
}

static int is(const char *s, size_t n, const char *word) { return strlen(word) == n && !memcmp(s, word, n); }

/* A decimal integer in [lo, hi], nothing else. */
static int integer(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *out) {
  size_t i = n && (s[0] == '-' || s[0] == '+');
  if (i == n || n - i > 19) return 0;
  uint64_t v = 0;
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
    v = v * 10 + (uint64_t)(s[i] - '0');
  }
  int neg = s[0] == '-';
  if (v > (uint64_t)INT64_MAX + (uint64_t)neg) return 0;
  int64_t x = neg ? (int64_t)(0 - v) : (int64_t)v;
  if (x < lo || x > hi) return 0;
  *out = x;
  return 1;
}

/* ConfigParser's booleans: true/false, yes/no, on/off, 1/0, in any case. */
static int boolean(const char *s, size_t n, int *out) {
  static const char *const yes[] = { "true", "yes", "on", "1" }, *const no[] = { "false", "no", "off", "0" };
  char low[8];
  if (n >= sizeof low) return 0;
  for (size_t i = 0; i < n; i++) low[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
  for (int i = 0; i < 4; i++) {
    if (is(low, n, yes[i])) { *out = 1; return 1; }
    if (is(low, n, no[i])) { *out = 0; return 1; }
  }
  return 0;
}

/* The value v (n bytes) of key k into o. */
static strata_status set(conf *c, int k, const char *v, size_t n, strata_worldgen_options *o) {
  char q[48];
  int64_t i;
  int b;
  switch (k) {
  case K_DIM_X: case K_DIM_Y: case K_DIM_Z:
    if (!integer(v, n, 1, STRATA_WORLDGEN_SIDE_MAX, &i))
      return fail(c, "%s must be a whole number from 1 to %d, got '%s'", KEYS[k], STRATA_WORLDGEN_SIDE_MAX,
                  wg_shown(v, n, q));
    *(k == K_DIM_X ? &o->dim_x : k == K_DIM_Y ? &o->dim_y : &o->dim_z) = (int)i;
    return STRATA_OK;
  case K_SEED:
    if (!integer(v, n, INT64_MIN, INT64_MAX, &i)) return fail(c, "seed must be an integer, got '%s'", wg_shown(v, n, q));
    o->seed = i;
    return STRATA_OK;
  case K_ROOM_VARIANCE:
    if (!integer(v, n, 3, STRATA_WORLDGEN_SIDE_MAX, &i))
      return fail(c, "room_variance must be a whole number of at least 3 (the smallest room side), got '%s'",
                  wg_shown(v, n, q));
    o->room_variance = (int)i;
    return STRATA_OK;
  case K_PATH_ALG: {
    char name[16];
    /* gbf_search: the reference's name of greedy best-first, its default */
    if (is(v, n, "gbf_search")) { o->path_alg = STRATA_PATH_GREEDY; return STRATA_OK; }
    if (n < sizeof name) memcpy(name, v, n), name[n] = 0;
    if (n >= sizeof name || !strata_path_algorithm_parse(name, &o->path_alg))
      return fail(c, "path_alg must be astar, greedy, bfs, dijkstra or gbf_search, got '%s'", wg_shown(v, n, q));
    return STRATA_OK;
  }
  default: /* rand, post_check */
    if (!boolean(v, n, &b))
      return fail(c, "%s must be true or false (yes, no, on, off, 1, 0), got '%s'", KEYS[k], wg_shown(v, n, q));
    *(k == K_RAND ? &o->rand : &o->post_check) = b;
    return STRATA_OK;
  }
}

/* One line (without its newline) into o; a comment, a blank or the section line changes nothing. */
static strata_status line(conf *c, const char *s, size_t n, int *section, strata_worldgen_options *o) {
  char q[48];
  if (memchr(s, 0, n)) return fail(c, "a NUL byte");
  trim(&s, &n);
  if (n == 0 || s[0] == '#' || s[0] == ';') return STRATA_OK;
  if (s[0] == '[') {
    if (!is(s, n, "[worldgen]"))
      return fail(c, "unknown section %s (the one section is [worldgen])", wg_shown(s, n, q));
    if (*section) return fail(c, "section [worldgen] is given twice (first on line %d)", *section);
    *section = c->line;
    return STRATA_OK;
  }
  size_t eq = 0;
  while (eq < n && s[eq] != '=' && s[eq] != ':') eq++;
  const char *key = s, *val = s + eq + 1;
  size_t kn = eq, vn = eq < n ? n - eq - 1 : 0;
  trim(&key, &kn);
  trim(&val, &vn);
  if (eq == n || kn == 0) return fail(c, "expected 'key = value', found '%s'", wg_shown(s, n, q));
  /* keys in any case, as ConfigParser reads them */
  char low[32];
  size_t ln = kn < sizeof low - 1 ? kn : sizeof low - 1;
  for (size_t i = 0; i < ln; i++) low[i] = (char)(key[i] >= 'A' && key[i] <= 'Z' ? key[i] + 32 : key[i]);
  low[ln] = 0;
  int k = 0;
  while (k < NKEYS && !(kn == ln && !strcmp(low, KEYS[k]))) k++;
  if (k == NKEYS) {
    const char *near[3] = { NULL, NULL, NULL };
    size_t got = strata_nearest(wg_shown(key, kn, q), KEYS, NKEYS, near, NULL, 3);
    return fail(c, "unknown key '%s' (nearest known: %s%s%s%s%s)", q, near[0], got > 1 ? ", " : "",
                got > 1 ? near[1] : "", got > 2 ? ", " : "", got > 2 ? near[2] : "");
  }
  if (c->at[k]) return fail(c, "%s is given twice (first on line %d)", KEYS[k], c->at[k]);
  c->at[k] = c->line;
  strata_status st = set(c, k, val, vn, o);
  if (st) return st;
  int dims = c->at[K_DIM_X] || c->at[K_DIM_Y] || c->at[K_DIM_Z];
  if (dims && c->at[K_RAND] && o->rand)
    return fail(c, "rand = true draws the dims: give dim_x, dim_y, dim_z or rand, not both");
  return STRATA_OK;
}

strata_status strata_worldgen_conf_parse(const char *text, size_t len, const char *name,
                                         strata_worldgen_options *o, strata_error *err) {
  conf c;
  memset(&c, 0, sizeof c);
  c.name = name ? name : "(conf)", c.err = err;
  strata_worldgen_options next = *o;
  int section = 0;
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p)), *stop = nl ? nl : end;
    size_t n = (size_t)(stop - p);
    if (n && p[n - 1] == '\r') n--;
    c.line++;
    strata_status st = line(&c, p, n, &section, &next);
    if (st) return st;
    p = nl ? nl + 1 : end;
  }
  *o = next;
  return STRATA_OK;
}

strata_status strata_worldgen_conf_read(const char *path, strata_worldgen_options *o, strata_error *err) {
  char *text;
  size_t len;
  strata_status st = strata_file_read(path, STRATA_WORLDGEN_CONF_MAX, "cannot read",
                                      "the most a worldgen conf file may hold", &text, &len, err);
  if (st) return st;
  st = strata_worldgen_conf_parse(text, len, path, o, err);
  strata_free(text);
  return st;
}
