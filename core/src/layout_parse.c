/*
** layout_parse.c - the layout language's grammar (docs/layouts.md):
** expanded tokens into trees of generators and predicates.
**
** The reading is type-directed, as in KeeperRL: what a place expects (a
** token, an int, a generator, ...) says how to read it. Structures take
** positional or named arguments; every error names line:column and what was
** expected there. Nesting is bounded so that no input can exhaust the stack.
*/
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout_internal.h"
#include "strata/alloc.h"
#include "util.h"

#define MAX_DEPTH 400

typedef struct parser {
  lt_list toks;
  size_t pos;
  const char *name;
  lt_arena *arena;
  strata_error *err;
  uint64_t *runs;  /* the file's run counter, which every node points to */
  int depth;
  int named;       /* the last structure read had named arguments */
  lt_token end;    /* what peek returns past the last token */
  char desc[96];   /* describe's text: one per parser, so parsers share nothing */
} parser;

typedef strata_layout_gen gen;

static const lt_token *peek(parser *p, size_t k) {
  if (p->pos + k < p->toks.len) return &p->toks.items[p->pos + k];
  return &p->end;
}

static int is_punct(const lt_token *t, char c) { return t->kind == LT_PUNCT && t->text[0] == c; }
static int is_word(const lt_token *t, const char *w) { return t->kind == LT_WORD && strcmp(t->text, w) == 0; }

/* The token as an error names it. The text lives in the parser: valid
** until the next call, which is enough for one message. */
static const char *describe(parser *p, const lt_token *t) {
  if (t->kind == LT_END) return "the end of the input";
  snprintf(p->desc, sizeof p->desc, t->kind == LT_STRING ? "\"%.60s\"" : "'%.60s'", t->text);
  return p->desc;
}

/* Sets the error at token t: "NAME:L:C: expected WHAT, found X (in a macro called at line N)". */
static int fail_at(parser *p, const lt_token *t, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (t->call_line > 0)
    lt_fail(p->err, p->name, t->line, t->col, "%s (in a macro used at line %d)", msg, t->call_line);
  else
    lt_fail(p->err, p->name, t->line, t->col, "%s", msg);
  return 0;
}

static int expect(parser *p, char c, const char *what) {
  const lt_token *t = peek(p, 0);
  if (!is_punct(t, c)) return fail_at(p, t, "expected '%c' %s, found %s", c, what, describe(p, t));
  p->pos++;
  return 1;
}

static int skip_comma(parser *p) {
  if (is_punct(peek(p, 0), ',')) {
    p->pos++;
    return 1;
  }
  return 0;
}

static gen *new_node(parser *p, lg_kind kind, const lt_token *at) {
  gen *g = lt_alloc(p->arena, sizeof *g);
  if (g == NULL) {
    strata_error_nomem(p->err, "reading a layout");
    return NULL;
  }
  g->kind = kind, g->line = at->line, g->col = at->col, g->runs = p->runs;
  return g;
}

/* A growable array of pointers, copied into the arena when done. */
typedef struct ptrs {
  void **items;
  size_t len, cap;
} ptrs;

static int ptrs_push(parser *p, ptrs *v, void *x) {
  if (!STRATA_GROW(v->items, v->cap, v->len + 1)) {
    strata_error_nomem(p->err, "reading a layout");
    return 0;
  }
  v->items[v->len++] = x;
  return 1;
}

static void *ptrs_finish(parser *p, ptrs *v, size_t size) {
  void *out = lt_alloc(p->arena, (v->len ? v->len : 1) * size);
  if (out && v->len) memcpy(out, v->items, v->len * size);
  strata_free(v->items);
  v->items = NULL;
  if (out == NULL) strata_error_nomem(p->err, "reading a layout");
  return out;
}

/* ---- values ---- */
static int parse_string(parser *p, const char **out) {
  /* part ('+' part)*, part = a quoted string or an unsigned integer */
  char buf[1024];
  size_t n = 0;
  for (;;) {
    const lt_token *t = peek(p, 0);
    int digits = t->kind == LT_WORD && t->text[0] >= '0' && t->text[0] <= '9' &&
                 strspn(t->text, "0123456789") == strlen(t->text);
    if (t->kind != LT_STRING && !digits)
      return fail_at(p, t, "expected a quoted string, found %s", describe(p, t));
    size_t l = strlen(t->text);
    if (n + l >= sizeof buf) return fail_at(p, t, "string too long");
    memcpy(buf + n, t->text, l), n += l;
    p->pos++;
    if (!is_punct(peek(p, 0), '+')) break;
    p->pos++;
  }
  *out = lt_strndup(p->arena, buf, n);
  if (*out == NULL) return strata_error_nomem(p->err, NULL), 0;
  return 1;
}

/* Integer arithmetic over a string: + - * / and parentheses. */
typedef struct expr { const char *s; int bad; } expr;
static long long ex_sum(expr *e, int depth);
static void ex_space(expr *e) { while (*e->s == ' ') e->s++; }
static long long ex_atom(expr *e, int depth) {
  ex_space(e);
  if (depth > 100) { e->bad = 1; return 0; }
  if (*e->s == '(') {
    e->s++;
    long long v = ex_sum(e, depth + 1);
    ex_space(e);
    if (*e->s != ')') e->bad = 1; else e->s++;
    return v;
  }
  if (*e->s == '-') { e->s++; return -ex_atom(e, depth + 1); }
  if (*e->s < '0' || *e->s > '9') { e->bad = 1; return 0; }
  long long v = 0;
  while (*e->s >= '0' && *e->s <= '9') {
    v = v * 10 + (*e->s++ - '0');
    if (v > 1000000000) { e->bad = 1; return 0; }
  }
  return v;
}
static long long ex_product(expr *e, int depth) {
  long long v = ex_atom(e, depth);
  for (;;) {
    ex_space(e);
    char op = *e->s;
    if (op != '*' && op != '/') return v;
    e->s++;
    long long r = ex_atom(e, depth);
    if (op == '/' && r == 0) { e->bad = 1; return 0; }
    v = op == '*' ? v * r : v / r;
    if (v > 1000000000 || v < -1000000000) { e->bad = 1; return 0; }
  }
}
static long long ex_sum(expr *e, int depth) {
  long long v = ex_product(e, depth);
  for (;;) {
    ex_space(e);
    char op = *e->s;
    if (op != '+' && op != '-') return v;
    e->s++;
    long long r = ex_product(e, depth);
    v = op == '+' ? v + r : v - r;
    if (v > 1000000000 || v < -1000000000) { e->bad = 1; return 0; }
  }
}

static int eval_int(const char *text, int *out) {
  expr e = {text, 0};
  long long v = ex_sum(&e, 0);
  ex_space(&e);
  if (e.bad || *e.s) return 0;
  *out = (int)v;
  return 1;
}

static int parse_int(parser *p, int *out, const char *what) {
  const lt_token *t = peek(p, 0);
  if (t->kind == LT_WORD) {
    if (!eval_int(t->text, out)) return fail_at(p, t, "expected an integer (%s), found %s", what, describe(p, t));
    p->pos++;
    return 1;
  }
  if (!is_punct(t, '(')) return fail_at(p, t, "expected an integer (%s), found %s", what, describe(p, t));
  /* a parenthesised expression: its tokens joined */
  char buf[512];
  size_t n = 0;
  int depth = 0;
  const lt_token *start = t;
  do {
    const lt_token *u = peek(p, 0);
    if (u->kind == LT_END || u->kind == LT_STRING)
      return fail_at(p, start, "expected an integer expression (%s)", what);
    if (is_punct(u, '(')) depth++;
    if (is_punct(u, ')')) depth--;
    size_t l = strlen(u->text);
    if (n + l + 2 >= sizeof buf) return fail_at(p, start, "integer expression too long");
    memcpy(buf + n, u->text, l), n += l, buf[n++] = ' ';
    p->pos++;
  } while (depth > 0);
  buf[n] = 0;
  if (!eval_int(buf, out)) return fail_at(p, start, "expected an integer expression (%s): %s", what, buf);
  return 1;
}

static int parse_double(parser *p, double *out, const char *what) {
  const lt_token *t = peek(p, 0);
  char *end;
  errno = 0;
  double v = t->kind == LT_WORD ? strtod(t->text, &end) : 0;
  if (t->kind != LT_WORD || *end || end == t->text || errno || !isfinite(v))
    return fail_at(p, t, "expected a number (%s), found %s", what, describe(p, t));
  *out = v;
  p->pos++;
  return 1;
}

static int is_number_word(const lt_token *t) {
  if (t->kind != LT_WORD) return 0;
  char *end;
  strtod(t->text, &end);
  return end != t->text && *end == 0;
}

static int parse_vec2(parser *p, lg_vec2 *out, const char *what) {
  if (!expect(p, '{', what)) return 0;
  if (is_punct(peek(p, 1), '=')) {
    int seen = 0;
    while (!is_punct(peek(p, 0), '}')) {
      const lt_token *k = peek(p, 0);
      int *slot = is_word(k, "x") ? &out->x : is_word(k, "y") ? &out->y : NULL;
      if (slot == NULL) return fail_at(p, k, "expected x or y in %s, found %s", what, describe(p, k));
      int bit = slot == &out->x ? 1 : 2;
      if (seen & bit) return fail_at(p, k, "%s defined twice", k->text);
      seen |= bit;
      p->pos += 2;
      if (!parse_int(p, slot, what)) return 0;
      skip_comma(p);
    }
    if (seen != 3) return fail_at(p, peek(p, 0), "%s needs both x and y", what);
  } else {
    if (!parse_int(p, &out->x, what)) return 0;
    skip_comma(p);
    if (!parse_int(p, &out->y, what)) return 0;
  }
  return expect(p, '}', "to close a vector {x y}");
}

static int parse_range(parser *p, int *lo, int *hi, const char *what) {
  const lt_token *t = peek(p, 0);
  if (!is_punct(t, '{')) {
    if (!parse_int(p, lo, what)) return 0;
    *hi = *lo + 1;
    return 1;
  }
  p->pos++;
  if (is_punct(peek(p, 1), '=')) {
    int seen = 0;
    while (!is_punct(peek(p, 0), '}')) {
      const lt_token *k = peek(p, 0);
      int *slot = is_word(k, "start") ? lo : is_word(k, "finish") ? hi : NULL;
      int step;
      if (is_word(k, "step")) slot = &step;
      if (slot == NULL) return fail_at(p, k, "expected start, finish or step in a range, found %s", describe(p, k));
      p->pos += 2;
      if (!parse_int(p, slot, what)) return 0;
      seen |= slot == lo ? 1 : slot == hi ? 2 : 4;
      skip_comma(p);
    }
    if ((seen & 3) != 3) return fail_at(p, peek(p, 0), "a range needs start and finish");
  } else {
    int step;
    if (!parse_int(p, lo, what)) return 0;
    skip_comma(p);
    if (!parse_int(p, hi, what)) return 0;
    skip_comma(p);
    if (!is_punct(peek(p, 0), '}') && !parse_int(p, &step, "range step")) return 0;
  }
  if (!expect(p, '}', "to close a range")) return 0;
  if (*lo >= *hi) return fail_at(p, t, "range {%d %d} is empty (%s; the end is excluded)", *lo, *hi, what);
  return 1;
}

static const char *const MARGINS[] = {"TOP", "BOTTOM", "LEFT", "RIGHT", NULL};
static const char *const POSITIONS[] = {"MIDDLE", "MIDDLE_V", "MIDDLE_H", "LEFT_CENTER",
  "RIGHT_CENTER", "TOP_CENTER", "BOTTOM_CENTER", "TOP_RIGHT", "TOP_LEFT", "BOTTOM_RIGHT",
  "BOTTOM_LEFT", "LEFT_STRETCHED", "RIGHT_STRETCHED", "BOTTOM_STRETCHED", "TOP_STRETCHED", NULL};

static int parse_enum(parser *p, const char *const *names, int *out, const char *what) {
  const lt_token *t = peek(p, 0);
  for (int i = 0; t->kind == LT_WORD && names[i]; i++)
    if (strcmp(t->text, names[i]) == 0) {
      *out = i;
      p->pos++;
      return 1;
    }
  char list[300];
  size_t n = 0;
  for (int i = 0; names[i] && n < sizeof list - 20; i++) n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? " " : "", names[i]);
  return fail_at(p, t, "expected %s (one of %s), found %s", what, list, describe(p, t));
}

/* ---- structures: positional or named arguments ---- */
typedef enum ftype { F_TOKEN, F_INT, F_DOUBLE, F_GEN, F_PRED, F_VEC2, F_RANGE, F_MARGIN, F_POSITION } ftype;

typedef struct field {
  const char *name;
  ftype type;
  int required;      /* else optional: may be absent or `none` */
  /* results */
  int set;
  int i, i2;
  double d;
  const char *s;
  gen *g;
  lg_vec2 v;
} field;

#define FIELD(n, t, req) {.name = (n), .type = (t), .required = (req)}

static gen *parse_gen(parser *p);
static gen *parse_pred(parser *p);

static int parse_field(parser *p, field *f) {
  switch (f->type) {
  case F_TOKEN: return parse_string(p, &f->s);
  case F_INT: return parse_int(p, &f->i, f->name);
  case F_DOUBLE: return parse_double(p, &f->d, f->name);
  case F_GEN: return (f->g = parse_gen(p)) != NULL;
  case F_PRED: return (f->g = parse_pred(p)) != NULL;
  case F_VEC2: return parse_vec2(p, &f->v, f->name);
  case F_RANGE: return parse_range(p, &f->i, &f->i2, f->name);
  case F_MARGIN: return parse_enum(p, MARGINS, &f->i, "a margin side");
  case F_POSITION: return parse_enum(p, POSITIONS, &f->i, "a placement position");
  }
  return 0;
}

/* '(' args ')' for the structure `what` with fields f[0..n). */
static int parse_struct(parser *p, const char *what, field *f, size_t n) {
  const lt_token *open = peek(p, 0);
  if (!expect(p, '(', what)) return 0;
  skip_comma(p);
  int named = peek(p, 0)->kind == LT_WORD && is_punct(peek(p, 1), '=');
  if (named) {
    while (!is_punct(peek(p, 0), ')')) {
      const lt_token *k = peek(p, 0);
      size_t i;
      if (k->kind != LT_WORD || !is_punct(peek(p, 1), '='))
        return fail_at(p, k, "expected 'name = value' in %s (arguments are all named or all "
                             "positional), found %s", what, describe(p, k));
      for (i = 0; i < n && strcmp(f[i].name, k->text) != 0; i++) {}
      if (i == n) {
        char list[200];
        size_t m = 0;
        for (size_t j = 0; j < n && m < sizeof list - 30; j++) m += (size_t)snprintf(list + m, sizeof list - m, "%s%s", j ? ", " : "", f[j].name);
        return fail_at(p, k, "%s has no argument named '%s' (it has %s)", what, k->text, list);
      }
      if (f[i].set) return fail_at(p, k, "argument '%s' of %s given twice", k->text, what);
      p->pos += 2;
      if (!f[i].required && is_word(peek(p, 0), "none")) p->pos++;
      else if (!parse_field(p, &f[i])) return 0;
      else f[i].set = 1;
      skip_comma(p);
    }
  } else {
    for (size_t i = 0; i < n && !is_punct(peek(p, 0), ')'); i++) {
      if (!f[i].required && is_word(peek(p, 0), "none")) p->pos++;
      else if (!parse_field(p, &f[i])) return 0;
      else f[i].set = 1;
      skip_comma(p);
    }
  }
  for (size_t i = 0; i < n; i++)
    if (f[i].required && !f[i].set)
      return fail_at(p, open, "%s needs its argument '%s'", what, f[i].name);
  p->named = named; /* after the fields: a structure among them has set it too */
  return expect(p, ')', "to close the arguments");
}

/* ---- generators ---- */
static const char *const GENERATORS[] = {"None", "Fail", "Set", "SetFront", "Reset", "Remove",
  "Filter", "Margins", "MarginImpl", "SplitH", "SplitV", "Position", "Place", "NoiseMap",
  "Chain", "Choose", "Connect", "Repeat", "FloodFill", "Margin", "Border", "Inside", NULL};
static const char *const PREDICATES[] = {"On", "Not", "True", "And", "Or", "Chance", "Area",
  "XMod", "YMod", "Translate", NULL};

static int unknown(parser *p, const lt_token *t, const char *kind, const char *const *names) {
  const char *best = NULL;
  size_t n = 0, d = 0;
  while (names[n]) n++;
  if (!strata_nearest(t->text, names, n, &best, &d, 1) || d >= 4) best = NULL; /* a far one helps no one */
  if (t->kind != LT_WORD) return fail_at(p, t, "expected a %s, found %s", kind, describe(p, t));
  if (best) return fail_at(p, t, "unknown %s '%s' (did you mean %s? a macro used with the wrong number of arguments stays unexpanded)", kind, t->text, best);
  return fail_at(p, t, "unknown %s '%s' (not a built-in, and no macro of that name and number of arguments)", kind, t->text);
}

static int parse_token_list(parser *p, gen *g) {
  ptrs v = {0};
  if (is_punct(peek(p, 0), '(')) {
    p->pos++;
    while (!is_punct(peek(p, 0), ')')) {
      const char *s;
      if (!parse_string(p, &s) || !ptrs_push(p, &v, (void *)s)) return strata_free(v.items), 0;
      if (!is_punct(peek(p, 0), ')') && !expect(p, ',', "between tokens")) return strata_free(v.items), 0;
    }
    p->pos++;
  } else {
    const char *s;
    if (!parse_string(p, &s) || !ptrs_push(p, &v, (void *)s)) return strata_free(v.items), 0;
  }
  g->ntokens = v.len;
  g->ids = lt_alloc(p->arena, (v.len ? v.len : 1) * sizeof *g->ids);
  return (g->tokens = ptrs_finish(p, &v, sizeof(char *))) != NULL && g->ids != NULL;
}

static gen *parse_chain_body(parser *p, const lt_token *at) {
  /* '{' generator* '}', or a single generator */
  gen *g = new_node(p, LG_CHAIN, at);
  if (g == NULL) return NULL;
  ptrs v = {0};
  if (is_punct(peek(p, 0), '{')) {
    p->pos++;
    while (!is_punct(peek(p, 0), '}')) {
      if (is_punct(peek(p, 0), ',')) return fail_at(p, peek(p, 0), "no commas between the generators of { ... }"), strata_free(v.items), NULL;
      gen *k = parse_gen(p);
      if (k == NULL || !ptrs_push(p, &v, k)) return strata_free(v.items), NULL;
    }
    p->pos++;
  } else {
    gen *k = parse_gen(p);
    if (k == NULL || !ptrs_push(p, &v, k)) return strata_free(v.items), NULL;
  }
  g->nkids = v.len;
  g->kids = ptrs_finish(p, &v, sizeof(gen *));
  return g->kids ? g : NULL;
}

static int elems_push(parser *p, lg_elem **items, size_t *n, size_t *cap, const lg_elem *e) {
  if (!strata_grow(items, cap, *n + 1, sizeof **items)) return strata_error_nomem(p->err, NULL), 0;
  (*items)[(*n)++] = *e;
  return 1;
}

static int finish_elems(parser *p, gen *g, lg_elem *items, size_t n) {
  g->elems = lt_alloc(p->arena, (n ? n : 1) * sizeof *items);
  if (g->elems == NULL) return strata_free(items), strata_error_nomem(p->err, NULL), 0;
  if (n) memcpy(g->elems, items, n * sizeof *items);
  g->nelems = n;
  strata_free(items);
  return 1;
}

static int parse_place_elem(parser *p, lg_elem *e) {
  field f[] = {FIELD("size", F_VEC2, 0), FIELD("generator", F_GEN, 1), FIELD("count", F_RANGE, 0),
               FIELD("predicate", F_PRED, 0), FIELD("minSize", F_VEC2, 0), FIELD("maxSize", F_VEC2, 0),
               FIELD("minSpacing", F_INT, 0)};
  const lt_token *at = peek(p, 0);
  if (!parse_struct(p, "a Place element", f, 7)) return 0;
  memset(e, 0, sizeof *e);
  e->has_size = f[0].set, e->size = f[0].v;
  e->gen = f[1].g;
  e->count_lo = f[2].set ? f[2].i : 1, e->count_hi = f[2].set ? f[2].i2 : 2;
  e->pred = f[3].set ? f[3].g : NULL;
  e->has_min = f[4].set, e->min_size = f[4].v;
  e->has_max = f[5].set, e->max_size = f[5].v;
  e->min_spacing = f[6].set ? f[6].i : 0;
  if (!e->has_size && !(e->has_min && e->has_max))
    return fail_at(p, at, "a Place element needs size, or minSize and maxSize");
  if (!e->has_size && (e->min_size.x >= e->max_size.x || e->min_size.y >= e->max_size.y))
    return fail_at(p, at, "a Place element needs minSize < maxSize in x and y (maxSize is excluded)");
  if (e->has_size && (e->size.x < 0 || e->size.y < 0)) return fail_at(p, at, "a Place element's size must not be negative");
  return 1;
}

static gen *parse_place(parser *p, gen *g) {
  lg_elem *items = NULL, e;
  size_t n = 0, cap = 0;
  const lt_token *second = peek(p, 1);
  if (!is_punct(peek(p, 0), '(')) return fail_at(p, peek(p, 0), "expected '(' after Place"), NULL;
  if (second->kind == LT_WORD && second->text[0] >= '0' && second->text[0] <= '9') {
    p->pos++;
    if (!parse_int(p, &g->placed_count, "the number of elements to place")) return NULL;
    skip_comma(p);
    while (!is_punct(peek(p, 0), ')')) {
      if (!parse_place_elem(p, &e) || !elems_push(p, &items, &n, &cap, &e)) return strata_free(items), NULL;
      skip_comma(p);
    }
    p->pos++;
  } else if (is_punct(second, '(')) {
    p->pos++;
    while (!is_punct(peek(p, 0), ')')) {
      /* commas between the elements are optional: the reference writes none */
      if (!parse_place_elem(p, &e) || !elems_push(p, &items, &n, &cap, &e)) return strata_free(items), NULL;
      skip_comma(p);
      if (!is_punct(peek(p, 0), ')') && !is_punct(peek(p, 0), '('))
        return fail_at(p, peek(p, 0), "expected '(' (a Place element) or ')', found %s", describe(p, peek(p, 0))), strata_free(items), NULL;
    }
    p->pos++;
  } else {
    if (!parse_place_elem(p, &e) || !elems_push(p, &items, &n, &cap, &e)) return strata_free(items), NULL;
  }
  return finish_elems(p, g, items, n) ? g : NULL;
}

static gen *parse_choose(parser *p, gen *g) {
  lg_elem *items = NULL, e;
  size_t n = 0, cap = 0;
  int bracket = is_punct(peek(p, 0), '(');
  if (bracket) p->pos++;
  double given = 0;
  size_t without = 0;
  do {
    if (bracket && is_punct(peek(p, 0), ')')) break;
    memset(&e, 0, sizeof e);
    e.chance = -1;
    if (is_number_word(peek(p, 0))) {
      if (!parse_double(p, &e.chance, "a Choose chance")) return strata_free(items), NULL;
      if (e.chance < 0) return fail_at(p, peek(p, 0), "a Choose chance must not be negative"), strata_free(items), NULL;
      given += e.chance;
    } else {
      without++;
    }
    if ((e.gen = parse_gen(p)) == NULL || !elems_push(p, &items, &n, &cap, &e)) return strata_free(items), NULL;
    if (!bracket) break;
    if (!is_punct(peek(p, 0), ')') && !expect(p, ',', "between Choose elements")) return strata_free(items), NULL;
  } while (1);
  if (bracket && !expect(p, ')', "to close Choose")) return strata_free(items), NULL;
  if (n == 0) return fail_at(p, peek(p, 0), "Choose needs at least one generator"), strata_free(items), NULL;
  if (without > 0 && given > 1 + 1e-9)
    return fail_at(p, peek(p, 0), "the chances of Choose add up to more than 1 (%g) while some elements have none", given), strata_free(items), NULL;
  for (size_t i = 0; i < n; i++)
    if (items[i].chance < 0) items[i].chance = (1 - given) / (double)without;
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += items[i].chance;
  if (!(sum > 0)) return fail_at(p, peek(p, 0), "the chances of Choose add up to 0"), strata_free(items), NULL;
  return finish_elems(p, g, items, n) ? g : NULL;
}

static int parse_connect_elem(parser *p, lg_elem *e) {
  memset(e, 0, sizeof *e);
  const lt_token *at = peek(p, 0);
  if (is_word(at, "none")) {
    p->pos++;
  } else {
    if (!parse_double(p, &e->cost, "a Connect cost")) return 0;
    if (!(e->cost > 0)) return fail_at(p, at, "a Connect cost must be positive (or none: impassable)");
    e->has_cost = 1;
  }
  if (!expect(p, ',', "after a Connect cost")) return 0;
  if ((e->pred = parse_pred(p)) == NULL) return 0;
  if (!expect(p, ',', "after a Connect predicate")) return 0;
  return (e->gen = parse_gen(p)) != NULL;
}

static gen *parse_connect(parser *p, gen *g) {
  lg_elem *items = NULL, e;
  size_t n = 0, cap = 0;
  if (!expect(p, '(', "after Connect")) return NULL;
  if ((g->pred = parse_pred(p)) == NULL) return NULL;
  if (!expect(p, ',', "after the predicate of the cells to connect")) return NULL;
  if (is_punct(peek(p, 0), '(')) {
    while (is_punct(peek(p, 0), '(')) {
      p->pos++;
      if (!parse_connect_elem(p, &e) || !elems_push(p, &items, &n, &cap, &e)) return strata_free(items), NULL;
      if (!expect(p, ')', "to close a Connect element")) return strata_free(items), NULL;
      if (!is_punct(peek(p, 0), ')') && !expect(p, ',', "between Connect elements")) return strata_free(items), NULL;
    }
  } else {
    if (!parse_connect_elem(p, &e) || !elems_push(p, &items, &n, &cap, &e)) return strata_free(items), NULL;
  }
  if (!expect(p, ')', "to close Connect")) return strata_free(items), NULL;
  return finish_elems(p, g, items, n) ? g : NULL;
}

/* The exponent of a NoiseMap written without one (the reference's form):
** the one most of KeeperRL's own NoiseMaps use. */
#define NOISE_EXPONENT 0.65

/* NoiseMap([exponent,] { (lower, upper, generator) ... }) as KeeperRL writes
** it, or NoiseMap([exponent,] (lower, upper, generator), ...) as the
** reference does: elements in brackets, commas between them optional. The
** exponent may be left out before either form (docs/layouts.md). */
static gen *parse_noisemap(parser *p, gen *g) {
  lg_elem *items = NULL, e;
  size_t n = 0, cap = 0;
  if (!expect(p, '(', "after NoiseMap")) return NULL;
  g->dval = NOISE_EXPONENT;
  if (!is_punct(peek(p, 0), '(') && !is_punct(peek(p, 0), '{') &&
      !parse_double(p, &g->dval, "the NoiseMap exponent"))
    return NULL;
  skip_comma(p);
  int curly = is_punct(peek(p, 0), '{');
  if (curly) p->pos++;
  do {
    if (curly && is_punct(peek(p, 0), '}')) break;
    if (!curly && n > 0 && is_punct(peek(p, 0), ')')) break;
    if (!curly && n > 0 && !is_punct(peek(p, 0), '('))
      return fail_at(p, peek(p, 0), "expected '(' (a NoiseMap element) or ')', found %s", describe(p, peek(p, 0))), strata_free(items), NULL;
    field f[] = {FIELD("lower", F_DOUBLE, 1), FIELD("upper", F_DOUBLE, 1), FIELD("generator", F_GEN, 1)};
    if (!parse_struct(p, "a NoiseMap element", f, 3)) return strata_free(items), NULL;
    memset(&e, 0, sizeof e);
    e.lower = f[0].d, e.upper = f[1].d, e.gen = f[2].g;
    if (!elems_push(p, &items, &n, &cap, &e)) return strata_free(items), NULL;
    if (!curly) skip_comma(p);
  } while (1);
  if (curly && !expect(p, '}', "to close the NoiseMap elements")) return strata_free(items), NULL;
  skip_comma(p);
  if (!expect(p, ')', "to close NoiseMap")) return strata_free(items), NULL;
  return finish_elems(p, g, items, n) ? g : NULL;
}

/* Margin, Border and Inside: the macros KeeperRL's own file defines (and
** the reference calls built-ins), as built-ins for files without them. A
** file's macro of the same name and arity is expanded before this is read.
** With a side first they are MarginImpl, else Margins; Border leaves the
** inside alone, Inside the border. */
enum { MARGIN_FAMILY = 19 }; /* the index of "Margin" in GENERATORS, Border and Inside after it */
static gen *parse_margin_family(parser *p, const lt_token *t, int which) {
  static const char *const names[] = {"Margin", "Border", "Inside"};
  static const char *const forms[][2] = {{"Margin (as Margins)", "Margin (as MarginImpl)"},
                                         {"Border (as Margins)", "Border (as MarginImpl)"},
                                         {"Inside (as Margins)", "Inside (as MarginImpl)"}};
  const lt_token *first = peek(p, 1);
  int sided = 0;
  for (int i = 0; first->kind == LT_WORD && MARGINS[i]; i++) sided |= strcmp(first->text, MARGINS[i]) == 0;
  field f[] = {FIELD("type", F_MARGIN, 1), FIELD("width", F_INT, 1), FIELD("border", F_GEN, 1),
               FIELD("inside", F_GEN, 1)};
  field *args = sided ? f : f + 1;
  size_t n = sided ? 4 : 3;
  if (which) args[n - 2].name = "generator", n--; /* Border(w, G), Inside(w, G) */
  gen *g = new_node(p, sided ? LG_MARGIN_IMPL : LG_MARGINS, t);
  gen *none = new_node(p, LG_NONE, t);
  if (g == NULL || none == NULL || !parse_struct(p, names[which], args, n)) return NULL;
  g->form = forms[which][sided];
  g->ival2 = sided ? f[0].i : 0, g->ival = f[1].i;
  g->gen = which == 2 ? none : f[2].g;
  g->alt = which == 0 ? f[3].g : which == 2 ? f[2].g : none;
  return g;
}

static gen *parse_gen(parser *p) {
  const lt_token *t = peek(p, 0);
  if (++p->depth > MAX_DEPTH) {
    fail_at(p, t, "generators nested more than %d deep", MAX_DEPTH);
    return NULL;
  }
  gen *g = NULL;
  if (is_punct(t, '{')) {
    g = parse_chain_body(p, t);
    p->depth--;
    return g;
  }
  int k = -1;
  for (int i = 0; t->kind == LT_WORD && GENERATORS[i]; i++)
    if (strcmp(t->text, GENERATORS[i]) == 0) k = i;
  if (k < 0) {
    unknown(p, t, "generator", GENERATORS);
    return NULL;
  }
  static const lg_kind kinds[] = {LG_NONE, LG_FAIL, LG_SET, LG_SETFRONT, LG_RESET, LG_REMOVE,
    LG_FILTER, LG_MARGINS, LG_MARGIN_IMPL, LG_SPLITH, LG_SPLITV, LG_POSITION, LG_PLACE,
    LG_NOISEMAP, LG_CHAIN, LG_CHOOSE, LG_CONNECT, LG_REPEAT, LG_FLOODFILL, LG_MARGINS, LG_MARGINS,
    LG_MARGINS};
  p->pos++;
  if (k >= MARGIN_FAMILY) {
    g = parse_margin_family(p, t, k - MARGIN_FAMILY);
    p->depth--;
    return g;
  }
  if (kinds[k] == LG_CHAIN) {
    g = parse_chain_body(p, t);
    p->depth--;
    return g;
  }
  if ((g = new_node(p, kinds[k], t)) == NULL) return NULL;
  int ok = 1;
  switch (g->kind) {
  case LG_NONE: case LG_FAIL: break;
  case LG_SET: case LG_RESET: case LG_REMOVE: ok = parse_token_list(p, g); break;
  case LG_SETFRONT: {
    field f[] = {FIELD("token", F_TOKEN, 1)};
    ok = parse_struct(p, "SetFront", f, 1);
    if (ok) {
      g->tokens = lt_alloc(p->arena, sizeof(char *));
      g->ids = lt_alloc(p->arena, sizeof *g->ids);
      if (g->tokens == NULL || g->ids == NULL) ok = 0; else g->tokens[0] = f[0].s, g->ntokens = 1;
    }
    break;
  }
  case LG_FILTER: {
    field f[] = {FIELD("predicate", F_PRED, 1), FIELD("generator", F_GEN, 1), FIELD("alt", F_GEN, 0)};
    ok = parse_struct(p, "Filter", f, 3);
    g->pred = f[0].g, g->gen = f[1].g, g->alt = f[2].g;
    break;
  }
  case LG_MARGINS: {
    field f[] = {FIELD("width", F_INT, 1), FIELD("border", F_GEN, 1), FIELD("inside", F_GEN, 1)};
    ok = parse_struct(p, "Margins", f, 3);
    g->ival = f[0].i, g->gen = f[1].g, g->alt = f[2].g;
    break;
  }
  case LG_MARGIN_IMPL: {
    field f[] = {FIELD("type", F_MARGIN, 1), FIELD("width", F_INT, 1), FIELD("border", F_GEN, 1), FIELD("inside", F_GEN, 1)};
    ok = parse_struct(p, "MarginImpl", f, 4);
    g->ival2 = f[0].i, g->ival = f[1].i, g->gen = f[2].g, g->alt = f[3].g;
    break;
  }
  case LG_SPLITH: case LG_SPLITV: {
    int h = g->kind == LG_SPLITH;
    field f[] = {FIELD("r", F_DOUBLE, 1), FIELD(h ? "left" : "top", F_GEN, 1), FIELD(h ? "right" : "bottom", F_GEN, 1)};
    ok = parse_struct(p, h ? "SplitH" : "SplitV", f, 3);
    g->dval = f[0].d, g->gen = f[1].g, g->alt = f[2].g;
    break;
  }
  case LG_POSITION: {
    field f[] = {FIELD("position", F_POSITION, 1), FIELD("size", F_VEC2, 0), FIELD("generator", F_GEN, 1),
                 FIELD("minSize", F_VEC2, 0), FIELD("maxSize", F_VEC2, 0)};
    ok = parse_struct(p, "Position", f, 5);
    /* Written in order, as the reference writes it ("a wall of width between
    ** 2 and 4": {2 0}, {4 0}), maxSize is included; named, as KeeperRL's
    ** own files write it, it is excluded. The run takes it excluded. */
    int included = ok && !p->named && f[4].set;
    g->ival = f[0].i, g->has_size = f[1].set, g->size = f[1].v, g->gen = f[2].g;
    g->has_min = f[3].set, g->min_size = f[3].v, g->has_max = f[4].set, g->max_size = f[4].v;
    if (included) g->max_size.x++, g->max_size.y++;
    if (ok && !g->has_size && !(g->has_min && g->has_max))
      ok = fail_at(p, t, "Position needs size, or minSize and maxSize");
    if (ok && !g->has_size && (g->min_size.x >= g->max_size.x || g->min_size.y >= g->max_size.y))
      ok = fail_at(p, t, included ? "Position needs minSize <= maxSize in x and y (written in order, maxSize is included)"
                                  : "Position needs minSize < maxSize in x and y (named, maxSize is excluded)");
    break;
  }
  case LG_PLACE: ok = parse_place(p, g) != NULL; break;
  case LG_NOISEMAP: ok = parse_noisemap(p, g) != NULL; break;
  case LG_CHOOSE: ok = parse_choose(p, g) != NULL; break;
  case LG_CONNECT: ok = parse_connect(p, g) != NULL; break;
  case LG_REPEAT: {
    field f[] = {FIELD("count", F_RANGE, 1), FIELD("generator", F_GEN, 1)};
    ok = parse_struct(p, "Repeat", f, 2);
    g->range_lo = f[0].i, g->range_hi = f[0].i2, g->gen = f[1].g;
    if (ok && g->range_lo < 0) ok = fail_at(p, t, "Repeat count must not be negative");
    break;
  }
  case LG_FLOODFILL: {
    field f[] = {FIELD("predicate", F_PRED, 1), FIELD("generator", F_GEN, 1)};
    ok = parse_struct(p, "FloodFill", f, 2);
    g->pred = f[0].g, g->gen = f[1].g;
    break;
  }
  default: break;
  }
  p->depth--;
  return ok ? g : NULL;
}

/* ---- predicates ---- */
/* Appends the clauses of pure predicate g (negated when neg) to c; the
** count, or -1 when g is not a conjunction of such tests. */
static int clauses_of(const gen *g, int neg, lg_clause *c, int n) {
  if (n < 0 || !g->pure) return -1;
  switch (g->kind) {
  case LP_ON: case LP_OR: case LP_AND:
    if (g->kind != LP_ON && !g->flat) break;
    if (n == LG_MAX_CLAUSES) return -1;
    c[n].src = g;
    c[n].kind = g->kind == LP_AND ? (neg ? LC_NOT_ALL : LC_ALL) : (neg ? LC_NONE : LC_ANY);
    return n + 1;
  case LP_NOT: return clauses_of(g->pred, !neg, c, n);
  default: return -1;
  }
  if (g->kind == LP_AND && !neg) {
    for (size_t i = 0; i < g->nkids && n >= 0; i++) n = clauses_of(g->kids[i], 0, c, n);
    return n;
  }
  if (g->kind == LP_OR && neg) { /* Not Or(a, b) = And(Not a, Not b) */
    for (size_t i = 0; i < g->nkids && n >= 0; i++) n = clauses_of(g->kids[i], 1, c, n);
    return n;
  }
  return -1;
}

/* Gives a pure, non-flat predicate its clause list when it has one. */
static int find_clauses(parser *p, gen *g) {
  if (!g->pure || g->flat || g->kind == LP_ON || g->kind == LP_TRUE) return 1;
  lg_clause c[LG_MAX_CLAUSES];
  int n = clauses_of(g, 0, c, 0);
  if (n <= 0) return 1;
  g->clauses = lt_alloc(p->arena, (size_t)n * sizeof *g->clauses);
  if (g->clauses == NULL) {
    strata_error_nomem(p->err, "reading a layout");
    return 0;
  }
  memcpy(g->clauses, c, (size_t)n * sizeof *c);
  g->nclauses = n;
  return 1;
}

static int random_of(const gen *g) { return g && g->random; }
static int nonlocal_of(const gen *g) { return g && g->nonlocal; }

static gen *parse_pred(parser *p) {
  const lt_token *t = peek(p, 0);
  if (++p->depth > MAX_DEPTH) {
    fail_at(p, t, "predicates nested more than %d deep", MAX_DEPTH);
    return NULL;
  }
  int k = -1;
  for (int i = 0; t->kind == LT_WORD && PREDICATES[i]; i++)
    if (strcmp(t->text, PREDICATES[i]) == 0) k = i;
  if (k < 0) {
    unknown(p, t, "predicate", PREDICATES);
    return NULL;
  }
  static const lg_kind kinds[] = {LP_ON, LP_NOT, LP_TRUE, LP_AND, LP_OR, LP_CHANCE, LP_AREA,
                                  LP_XMOD, LP_YMOD, LP_TRANSLATE};
  p->pos++;
  gen *g = new_node(p, kinds[k], t);
  if (g == NULL) return NULL;
  int ok = 1;
  switch (g->kind) {
  case LP_ON: {
    field f[] = {FIELD("token", F_TOKEN, 1)};
    ok = parse_struct(p, "On", f, 1);
    if (ok) {
      g->tokens = lt_alloc(p->arena, sizeof(char *));
      g->ids = lt_alloc(p->arena, sizeof *g->ids);
      if (g->tokens == NULL || g->ids == NULL) ok = 0; else g->tokens[0] = f[0].s, g->ntokens = 1;
    }
    g->pure = 1;
    break;
  }
  case LP_NOT:
    if (is_punct(peek(p, 0), '('))
      ok = fail_at(p, peek(p, 0), "Not takes its predicate without brackets: Not On(\"x\")");
    else ok = (g->pred = parse_pred(p)) != NULL, g->random = random_of(g->pred), g->nonlocal = nonlocal_of(g->pred);
    g->pure = ok && g->pred->pure;
    break;
  case LP_TRUE: g->pure = 1; break;
  case LP_AND: case LP_OR: {
    ptrs v = {0};
    if (is_punct(peek(p, 0), '(')) {
      p->pos++;
      while (ok && !is_punct(peek(p, 0), ')')) {
        gen *c = parse_pred(p);
        ok = c && ptrs_push(p, &v, c);
        if (ok && !is_punct(peek(p, 0), ')')) ok = expect(p, ',', "between predicates");
      }
      if (ok) p->pos++;
    } else {
      gen *c = parse_pred(p);
      ok = c && ptrs_push(p, &v, c);
    }
    if (!ok) { strata_free(v.items); break; }
    g->nkids = v.len;
    ok = (g->kids = ptrs_finish(p, &v, sizeof(gen *))) != NULL;
    g->pure = g->flat = ok;
    for (size_t i = 0; ok && i < g->nkids; i++) {
      g->random |= random_of(g->kids[i]), g->nonlocal |= nonlocal_of(g->kids[i]);
      g->pure &= g->kids[i]->pure, g->flat &= g->kids[i]->kind == LP_ON;
    }
    break;
  }
  case LP_CHANCE: {
    field f[] = {FIELD("value", F_DOUBLE, 1)};
    ok = parse_struct(p, "Chance", f, 1);
    g->dval = f[0].d, g->random = 1;
    break;
  }
  case LP_AREA: {
    field f[] = {FIELD("radius", F_INT, 1), FIELD("predicate", F_PRED, 1), FIELD("minCount", F_INT, 0)};
    ok = parse_struct(p, "Area", f, 3);
    g->ival = f[0].i, g->pred = f[1].g, g->ival2 = f[2].set ? f[2].i : 1;
    if (ok && (g->ival < 0 || g->ival > 100)) ok = fail_at(p, t, "Area radius must be in 0..100");
    g->random = random_of(g->pred), g->nonlocal = 1;
    break;
  }
  case LP_XMOD: case LP_YMOD: {
    field f[] = {FIELD("div", F_INT, 1), FIELD("mod", F_INT, 1)};
    ok = parse_struct(p, g->kind == LP_XMOD ? "XMod" : "YMod", f, 2);
    g->ival = f[0].i, g->ival2 = f[1].i;
    if (ok && g->ival == 0) ok = fail_at(p, t, "%s with div 0", g->kind == LP_XMOD ? "XMod" : "YMod");
    break;
  }
  case LP_TRANSLATE: {
    field f[] = {FIELD("offset", F_VEC2, 1), FIELD("predicate", F_PRED, 1)};
    ok = parse_struct(p, "Translate", f, 2);
    g->offset = f[0].v, g->pred = f[1].g, g->random = random_of(g->pred), g->nonlocal = 1;
    break;
  }
  default: break;
  }
  if (ok) ok = find_clauses(p, g);
  p->depth--;
  return ok ? g : NULL;
}

/* ---- files ---- */
/* Layout names to their index, so that a file of many layouts is read in
** linear time (a name is looked up for duplicates, modify and inherit). */
typedef struct name_index {
  size_t *slot; /* index + 1; 0: empty */
  size_t cap;   /* a power of two, or 0 */
} name_index;

static size_t name_hash(const char *s) {
  size_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static size_t index_find(const name_index *x, const lg_named *items, const char *key) {
  if (x->cap == 0) return SIZE_MAX;
  for (size_t i = name_hash(key) & (x->cap - 1);; i = (i + 1) & (x->cap - 1)) {
    if (x->slot[i] == 0) return SIZE_MAX;
    if (strcmp(items[x->slot[i] - 1].name, key) == 0) return x->slot[i] - 1;
  }
}

/* Adds items[n - 1]; at most half full, rebuilt from items when it grows. */
static int index_add(name_index *x, const lg_named *items, size_t n) {
  if (2 * n > x->cap) {
    size_t cap = x->cap ? 2 * x->cap : 64;
    size_t *slot = strata_calloc(cap, sizeof *slot);
    if (slot == NULL) return 0;
    strata_free(x->slot);
    x->slot = slot, x->cap = cap;
    for (size_t k = 0; k + 1 < n; k++) {
      size_t i = name_hash(items[k].name) & (cap - 1);
      while (slot[i]) i = (i + 1) & (cap - 1);
      slot[i] = k + 1;
    }
  }
  size_t i = name_hash(items[n - 1].name) & (x->cap - 1);
  while (x->slot[i]) i = (i + 1) & (x->cap - 1);
  x->slot[i] = n;
  return 1;
}

static strata_layout_file *read_text(const char *text, size_t len, const char *name, int single,
                                     strata_error *err) {
  strata_layout_file *f = strata_calloc(1, sizeof *f);
  if (f == NULL) return strata_error_nomem(err, NULL), NULL;
  parser p = {0};
  p.name = name ? name : "layout";
  p.arena = &f->arena;
  p.err = err;
  p.runs = &f->runs;
  if (lt_expand(&f->arena, text, len, p.name, &p.toks, err)) goto fail;
  p.end = (lt_token){LT_END, "end of input", 0, 0, 0};
  if (p.toks.len > 0)
    p.end.line = p.toks.items[p.toks.len - 1].line, p.end.col = p.toks.items[p.toks.len - 1].col;
  lg_named *items = NULL;
  size_t n = 0, cap = 0;
  name_index names = {0};
  if (single) {
    gen *g = parse_gen(&p);
    if (g == NULL) goto fail;
    if (peek(&p, 0)->kind != LT_END) {
      fail_at(&p, peek(&p, 0), "expected the end of the layout, found %s", describe(&p, peek(&p, 0)));
      goto fail;
    }
    items = strata_malloc(sizeof *items);
    if (items == NULL) goto nomem;
    items[0].name = "", items[0].gen = g;
    n = 1;
  } else {
    while (peek(&p, 0)->kind != LT_END) {
      const lt_token *kt = peek(&p, 0);
      const char *key;
      if (kt->kind == LT_STRING) {
        if (!parse_string(&p, &key)) goto fail_items;
      } else if (kt->kind == LT_WORD) {
        key = kt->text;
        p.pos++;
      } else {
        fail_at(&p, kt, "expected the name of a layout (a quoted string), found %s", describe(&p, kt));
        goto fail_items;
      }
      size_t existing = index_find(&names, items, key);
      if (existing == SIZE_MAX) existing = n;
      if (is_word(peek(&p, 0), "modify")) {
        p.pos++;
        if (existing == n) {
          fail_at(&p, kt, "'%s' modify: no layout of that name before it", key);
          goto fail_items;
        }
      } else {
        if (is_word(peek(&p, 0), "inherit")) {
          p.pos++;
          const lt_token *ot = peek(&p, 0);
          const char *other;
          if (!parse_string(&p, &other)) goto fail_items;
          if (index_find(&names, items, other) == SIZE_MAX) {
            fail_at(&p, ot, "'%s' inherits '%s', which is not defined before it", key, other);
            goto fail_items;
          }
        }
        if (existing < n) {
          fail_at(&p, kt, "duplicate layout name '%s' (use modify to change it)", key);
          goto fail_items;
        }
      }
      gen *g = parse_gen(&p);
      if (g == NULL) goto fail_items;
      if (existing < n) {
        items[existing].gen = g;
        continue;
      }
      if (!STRATA_GROW(items, cap, n + 1)) goto nomem_items;
      items[n].name = key, items[n].gen = g;
      n++;
      if (!index_add(&names, items, n)) goto nomem_items;
    }
  }
  strata_free(names.slot);
  f->layouts = items, f->count = n;
  strata_free(p.toks.items);
  return f;
nomem_items:
  strata_error_nomem(err, NULL);
fail_items:
  strata_free(items);
  strata_free(names.slot);
  goto fail;
nomem:
  strata_error_nomem(err, NULL);
fail:
  strata_free(p.toks.items);
  strata_layout_file_free(f);
  return NULL;
}

strata_layout_file *strata_layout_file_parse(const char *text, size_t len, const char *name,
                                             strata_error *err) {
  return read_text(text, len, name, 0, err);
}

strata_layout_file *strata_layout_parse_generator(const char *text, size_t len, const char *name,
                                                  strata_error *err) {
  return read_text(text, len, name, 1, err);
}

void strata_layout_file_free(strata_layout_file *f) {
  if (f == NULL) return;
  strata_free(f->layouts);
  lt_arena_free(&f->arena);
  strata_free(f);
}

size_t strata_layout_count(const strata_layout_file *f) { return f->count; }
const char *strata_layout_name(const strata_layout_file *f, size_t i) { return i < f->count ? f->layouts[i].name : NULL; }
const strata_layout_gen *strata_layout_at(const strata_layout_file *f, size_t i) { return i < f->count ? f->layouts[i].gen : NULL; }

const strata_layout_gen *strata_layout_find(const strata_layout_file *f, const char *name) {
  for (size_t i = 0; i < f->count; i++)
    if (strcmp(f->layouts[i].name, name) == 0) return f->layouts[i].gen;
  return NULL;
}
