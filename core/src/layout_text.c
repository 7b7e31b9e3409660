/*
** layout_text.c - the layout language's text: lexing and macros.
**
** KeeperRL rewrites the text character by character and substitutes macro
** parameters textually. Here the text is cut into tokens once (strings,
** words, and the punctuation { } ( ) , + =) and macros are expanded on
** tokens, which gives the same result for everything the language allows
** while keeping each token's line and column for messages. Where KeeperRL
** has a quirk the language's specification advises against (docs/layouts.md), this
** follows the advice: comments are whitespace, Def and End are whole words,
** braces nest inside macro arguments, parameters are substituted in one
** pass, and expansion is bounded.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout_internal.h"
#include "strata/alloc.h"
#include "util.h"

/* ---- the arena ---- */
struct lt_arena_block {
  lt_arena_block *next;
  size_t used, cap;
  max_align_t data[];
};

void *lt_alloc(lt_arena *a, size_t n) {
  n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  lt_arena_block *b = a->head;
  if (b == NULL || b->cap - b->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    b = strata_malloc(sizeof *b + cap);
    if (b == NULL) return NULL;
    b->next = a->head, b->used = 0, b->cap = cap;
    a->head = b;
  }
  void *p = (char *)b->data + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

char *lt_strndup(lt_arena *a, const char *s, size_t n) {
  char *p = lt_alloc(a, n + 1);
  if (p) memcpy(p, s, n), p[n] = 0;
  return p;
}

void lt_arena_free(lt_arena *a) {
  for (lt_arena_block *b = a->head, *next; b; b = next) next = b->next, strata_free(b);
  a->head = NULL;
}

/* ---- token lists ---- */
#define MAX_TOKENS 4000000u      /* after expansion: far beyond any real layout file */
#define MAX_EXPANSIONS 200000u
/* Tokens copied while expanding (arguments read, bodies built): a few
** expansions of huge arguments cost as much as millions of small ones, so
** the count of expansions alone does not bound the time. */
#define MAX_EXPANSION_WORK 10000000u
#define MAX_MACRO_ARGS 64

static int list_push(lt_list *l, lt_token t) {
  if (!STRATA_GROW(l->items, l->cap, l->len + 1)) return 0;
  l->items[l->len++] = t;
  return 1;
}

strata_status lt_fail(strata_error *err, const char *name, int line, int col, const char *fmt, ...) {
  char msg[STRATA_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return strata_error_at(err, STRATA_EPARSE, line, col, "%s:%d:%d: %s", name, line, col, msg);
}

static strata_status nomem(strata_error *err) {
  return strata_error_nomem(err, "reading a layout");
}

static int is_punct(char c) {
  return c == '{' || c == '}' || c == '(' || c == ')' || c == ',' || c == '+' || c == '=';
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

static int is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Cuts text into tokens. line0/col0: where text starts (for re-lexed words). */
static strata_status lex(lt_arena *a, const char *text, size_t len, const char *name, int line0,
                         int col0, int call_line, lt_list *out, strata_error *err) {
  int line = line0, col = col0;
  size_t i = 0;
  while (i < len) {
    char c = text[i];
    if (c == '\n') { line++, col = 1, i++; continue; }
    if (is_space(c) || c == 0) { col++, i++; continue; }
    if (c == '#') { /* a comment runs to the end of the line and counts as whitespace */
      while (i < len && text[i] != '\n') i++;
      continue;
    }
    lt_token t = {LT_WORD, NULL, line, col, call_line};
    if (c == '"') {
      size_t j = i + 1, n = 0;
      int l = line, cl = col + 1;
      /* The string's raw length first: the buffer is sized by it, not by the
      ** rest of the file (which made many strings cost quadratic memory). */
      size_t k = i + 1;
      while (k < len && text[k] != '"') k += text[k] == '\\' && k + 1 < len && (text[k + 1] == '"' || text[k + 1] == '\\') ? 2 : 1;
      if (k >= len) return lt_fail(err, name, line, col, "unterminated string");
      char *buf = lt_alloc(a, k - i);
      if (buf == NULL) return nomem(err);
      for (;;) {
        if (j >= len)
          return lt_fail(err, name, line, col, "unterminated string");
        char d = text[j];
        if (d == '"') break;
        if (d == '\\' && j + 1 < len && (text[j + 1] == '"' || text[j + 1] == '\\')) d = text[++j], cl++;
        if (d == '\n') l++, cl = 0;
        buf[n++] = d;
        j++, cl++;
      }
      t.kind = LT_STRING, t.text = buf;
      i = j + 1;
      line = l, col = cl + 1;
    } else if (is_punct(c)) {
      t.kind = LT_PUNCT, t.text = lt_strndup(a, &text[i], 1);
      if (t.text == NULL) return nomem(err);
      i++, col++;
    } else {
      size_t j = i;
      while (j < len && !is_space(text[j]) && text[j] != 0 && !is_punct(text[j]) && text[j] != '"' &&
             text[j] != '#')
        j++;
      t.text = lt_strndup(a, &text[i], j - i);
      if (t.text == NULL) return nomem(err);
      col += (int)(j - i), i = j;
    }
    if (!list_push(out, t)) return nomem(err);
  }
  return STRATA_OK;
}

/* ---- macros ---- */
typedef struct macro {
  const char *name;
  size_t nparams;
  const char *params[MAX_MACRO_ARGS];
  lt_token *body;
  size_t nbody;
  int line, col;
} macro;

typedef struct macros {
  macro *items;
  size_t len, cap;
  size_t *slot, nslot; /* by name (index + 1; 0: empty), so that lookups stay O(1) */
} macros;

static int word_is(const lt_token *t, const char *w) { return t->kind == LT_WORD && strcmp(t->text, w) == 0; }
static int punct_is(const lt_token *t, char c) { return t->kind == LT_PUNCT && t->text[0] == c; }

static int valid_name(const char *s) {
  if (!*s) return 0;
  for (; *s; s++)
    if (!is_ident(*s)) return 0;
  return 1;
}

/* Removes every Def ... End from raw into ms; the rest goes to rest. */
static strata_status collect(const lt_list *raw, const char *name, macros *ms, lt_list *rest,
                             strata_error *err) {
  for (size_t i = 0; i < raw->len;) {
    const lt_token *t = &raw->items[i];
    if (word_is(t, "End"))
      return lt_fail(err, name, t->line, t->col, "'End' without a 'Def'");
    if (!word_is(t, "Def")) {
      if (!list_push(rest, *t)) return nomem(err);
      i++;
      continue;
    }
    macro m = {0};
    m.line = t->line, m.col = t->col;
    if (i + 1 >= raw->len || raw->items[i + 1].kind != LT_WORD || !valid_name(raw->items[i + 1].text))
      return lt_fail(err, name, t->line, t->col, "expected a macro name after 'Def'");
    m.name = raw->items[i + 1].text;
    size_t j = i + 2;
    if (j >= raw->len || !punct_is(&raw->items[j], '('))
      return lt_fail(err, name, t->line, t->col,
                              "expected '(' and the parameters of macro %s (write %s() when "
                              "it has none)", m.name, m.name);
    j++;
    while (j < raw->len && !punct_is(&raw->items[j], ')')) {
      const lt_token *p = &raw->items[j];
      if (punct_is(p, ',')) { j++; continue; }
      if (p->kind != LT_WORD || !valid_name(p->text))
        return lt_fail(err, name, p->line, p->col, "expected a parameter name of macro %s", m.name);
      if (m.nparams == MAX_MACRO_ARGS)
        return lt_fail(err, name, p->line, p->col, "macro %s has more than %d parameters", m.name, MAX_MACRO_ARGS);
      m.params[m.nparams++] = p->text;
      j++;
    }
    if (j >= raw->len)
      return lt_fail(err, name, t->line, t->col, "the parameters of macro %s have no ')'", m.name);
    j++;
    size_t body = j;
    while (j < raw->len && !word_is(&raw->items[j], "End")) {
      if (word_is(&raw->items[j], "Def"))
        return lt_fail(err, name, raw->items[j].line, raw->items[j].col,
                                "'Def' inside the definition of macro %s (line %d): a "
                                "definition ends with 'End'", m.name, m.line);
      j++;
    }
    if (j >= raw->len)
      return lt_fail(err, name, m.line, m.col, "macro %s has no 'End'", m.name);
    m.body = &raw->items[body];
    m.nbody = j - body;
    if (!STRATA_GROW(ms->items, ms->cap, ms->len + 1)) return nomem(err);
    ms->items[ms->len++] = m;
    i = j + 1;
  }
  return STRATA_OK;
}

static size_t name_hash(const char *s) {
  size_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

/* The index, once every macro is collected (at most half full; macros of one
** name lie along one probe path in the order they were defined). A second
** definition of a name and arity is an error here. */
static strata_status index_macros(macros *ms, const char *name, strata_error *err) {
  size_t n = 64;
  while (n < 2 * ms->len) n *= 2;
  ms->slot = strata_calloc(n, sizeof *ms->slot);
  if (ms->slot == NULL) return nomem(err);
  ms->nslot = n;
  for (size_t k = 0; k < ms->len; k++) {
    const macro *m = &ms->items[k];
    size_t i = name_hash(m->name) & (n - 1);
    for (; ms->slot[i]; i = (i + 1) & (n - 1)) {
      const macro *o = &ms->items[ms->slot[i] - 1];
      if (strcmp(o->name, m->name) == 0 && o->nparams == m->nparams)
        return lt_fail(err, name, m->line, m->col,
                       "macro %s with %zu parameters is defined twice (first at line %d)", m->name,
                       m->nparams, o->line);
    }
    ms->slot[i] = k + 1;
  }
  return STRATA_OK;
}

static const macro *find_macro(const macros *ms, const char *name, size_t arity, int *any) {
  *any = 0;
  for (size_t i = name_hash(name) & (ms->nslot - 1); ms->slot[i]; i = (i + 1) & (ms->nslot - 1)) {
    const macro *m = &ms->items[ms->slot[i] - 1];
    if (strcmp(m->name, name) == 0) {
      *any = 1;
      if (m->nparams == arity) return m;
    }
  }
  return NULL;
}

/* Replaces whole-word occurrences of params inside a word with the text of
** their arguments, and lexes the result (for words like -Cnt). */
static strata_status substitute_in_word(lt_arena *a, const lt_token *t, const macro *m,
                                        lt_token *const *args, const size_t *nargs, const char *name,
                                        int call_line, lt_list *out, strata_error *err) {
  char buf[4096];
  size_t n = 0;
  const char *s = t->text;
  for (size_t i = 0; s[i];) {
    size_t j = i;
    if (is_ident(s[i])) {
      while (is_ident(s[j])) j++;
      size_t k;
      for (k = 0; k < m->nparams; k++)
        if (strlen(m->params[k]) == j - i && memcmp(m->params[k], &s[i], j - i) == 0) break;
      if (k < m->nparams) {
        for (size_t q = 0; q < nargs[k]; q++) {
          const lt_token *p = &args[k][q];
          size_t pl = strlen(p->text);
          if (n + pl + 4 >= sizeof buf) goto too_long;
          if (p->kind == LT_STRING) buf[n++] = '"';
          memcpy(&buf[n], p->text, pl), n += pl;
          if (p->kind == LT_STRING) buf[n++] = '"';
          buf[n++] = ' ';
        }
        if (n) n--; /* no space after the last part: -Cnt stays one word */
        i = j;
        continue;
      }
      if (n + (j - i) >= sizeof buf) goto too_long;
      memcpy(&buf[n], &s[i], j - i), n += j - i;
      i = j;
      continue;
    }
    if (n + 1 >= sizeof buf) goto too_long;
    buf[n++] = s[i++];
  }
  return lex(a, buf, n, name, t->line, t->col, call_line, out, err);
too_long:
  return lt_fail(err, name, t->line, t->col, "macro argument too long in '%s'", t->text);
}

static int word_mentions(const char *word, const char *param) {
  size_t pl = strlen(param);
  for (const char *p = strstr(word, param); p; p = strstr(p + 1, param))
    if ((p == word || !is_ident(p[-1])) && !is_ident(p[pl])) return 1;
  return 0;
}

static strata_status too_large(strata_error *err, const char *name, const lt_token *t, const char *mname) {
  return lt_fail(err, name, t->line, t->col,
                 "macro expansion too large at %s (called on line %d): more than %u tokens copied "
                 "or %u in the result",
                 mname, t->call_line ? t->call_line : t->line, MAX_EXPANSION_WORK, MAX_TOKENS);
}

/* An expansion under way: the input as a stack, next token on top
** (expansions push their result back), the output, and what bounds the
** work. */
typedef struct expander {
  lt_arena *a;
  const char *name;
  strata_error *err;
  macros ms;
  lt_list stack, tmp; /* tmp: the arguments of the call being read */
  lt_list *out;
  const char *recent[8]; /* the last expansions, for the error of one that does not end */
  int recent_line[8];
  size_t expansions, work;
} expander;

/* A call's arguments: count of them, the q-th nargs[q] tokens at args[q]
** (in x->tmp); consumed tokens of the stack. */
typedef struct call_args {
  lt_token *args[MAX_MACRO_ARGS];
  size_t nargs[MAX_MACRO_ARGS], count, consumed;
} call_args;

/* Reads the argument list after the macro word t, if any: split at
** top-level commas. */
static strata_status read_args(expander *x, const lt_token *t, call_args *c) {
  lt_list *stack = &x->stack, *tmp = &x->tmp;
  size_t first[MAX_MACRO_ARGS];
  c->count = c->consumed = 0;
  if (stack->len == 0 || !punct_is(&stack->items[stack->len - 1], '(')) return STRATA_OK;
  size_t k = stack->len - 1, depth = 0, start = 0, count = 0;
  int closed = 0;
  tmp->len = 0;
  for (;; k--) {
    const lt_token *u = &stack->items[k];
    if (punct_is(u, '(') || punct_is(u, '{')) {
      if (depth++ == 0) { start = tmp->len; goto next; }
    } else if (punct_is(u, ')') || punct_is(u, '}')) {
      if (--depth == 0) {
        closed = 1;
        break;
      }
    } else if (depth == 1 && punct_is(u, ',')) {
      if (count == MAX_MACRO_ARGS) break;
      first[count] = start, c->nargs[count++] = tmp->len - start;
      start = tmp->len;
      goto next;
    }
    if (!list_push(tmp, *u)) return nomem(x->err);
  next:
    if (k == 0) break;
  }
  if (!closed) return lt_fail(x->err, x->name, t->line, t->col, "the arguments of %s have no ')'", t->text);
  if (tmp->len > start || count > 0) {
    if (count == MAX_MACRO_ARGS)
      return lt_fail(x->err, x->name, t->line, t->col, "too many arguments to %s", t->text);
    first[count] = start, c->nargs[count++] = tmp->len - start;
  }
  /* tmp may have moved while it grew: pointers only now */
  /* An argument list of empty arguments has no items yet (NULL): no offset from NULL. */
  for (size_t q = 0; q < count; q++) c->args[q] = tmp->items ? tmp->items + first[q] : NULL;
  c->count = count;
  c->consumed = stack->len - k;
  /* counted whether or not a macro of that arity exists: arguments read
  ** for nothing, nested, cost as much */
  x->work += c->consumed;
  if (x->work > MAX_EXPANSION_WORK) return too_large(x->err, x->name, t, t->text);
  return STRATA_OK;
}

/* The error of an expansion that does not end, called at t: the last
** expansions, as a chain. */
static strata_status runaway(const expander *x, const lt_token *t) {
  char chain[512];
  size_t n = 0;
  for (int q = 0; q < 8 && n < sizeof chain - 80; q++) {
    const char *r = x->recent[(x->expansions + (size_t)q) % 8];
    if (r) n += (size_t)snprintf(chain + n, sizeof chain - n, "%s%s (line %d)", n ? " -> " : "", r,
                                 x->recent_line[(x->expansions + (size_t)q) % 8]);
  }
  return lt_fail(x->err, x->name, t->line, t->col,
                 "macro expansion does not end (a macro that expands to itself?): ... %s", chain);
}

/* Expands the call t of m with arguments c: the substituted body, pushed
** on the stack in reverse so it is read next. */
static strata_status expand_call(expander *x, const lt_token *t, const macro *m, const call_args *c) {
  strata_status st = STRATA_OK;
  int call_line = t->call_line ? t->call_line : t->line;
  /* fixed while the body is built: locals, not read again after each push */
  const size_t work = x->work, queued = x->stack.len + x->out->len;
  lt_list body = {0};
  for (size_t b = 0; b < m->nbody && !st; b++) {
    const lt_token *u = &m->body[b];
    /* One body repeating a long argument can be larger than any limit
    ** above: checked as it grows. */
    if (work + body.len > MAX_EXPANSION_WORK || body.len + queued > MAX_TOKENS) {
      strata_free(body.items);
      return too_large(x->err, x->name, t, m->name);
    }
    size_t p = m->nparams;
    if (u->kind == LT_WORD)
      for (p = 0; p < m->nparams && strcmp(u->text, m->params[p]) != 0; p++) {}
    if (p < m->nparams) {
      for (size_t q = 0; q < c->nargs[p]; q++) {
        lt_token v = c->args[p][q];
        if (!list_push(&body, v)) st = nomem(x->err);
      }
      continue;
    }
    int mentions = 0;
    if (u->kind == LT_WORD)
      for (p = 0; p < m->nparams && !mentions; p++) mentions = word_mentions(u->text, m->params[p]);
    if (mentions) {
      st = substitute_in_word(x->a, u, m, c->args, c->nargs, x->name, call_line, &body, x->err);
      continue;
    }
    lt_token v = *u;
    v.call_line = call_line;
    if (!list_push(&body, v)) st = nomem(x->err);
  }
  x->work += body.len;
  for (size_t b = body.len; b-- > 0 && !st;)
    if (!list_push(&x->stack, body.items[b])) st = nomem(x->err);
  strata_free(body.items);
  return st;
}

/* Expands the stack's tokens into x->out. */
static strata_status expand_all(expander *x) {
  strata_status st = STRATA_OK;
  while (x->stack.len > 0 && !st) {
    lt_token t = x->stack.items[--x->stack.len];
    int any = 0;
    if (t.kind != LT_WORD || (find_macro(&x->ms, t.text, 0, &any), !any)) {
      if (!list_push(x->out, t)) st = nomem(x->err);
      continue;
    }
    call_args c;
    if ((st = read_args(x, &t, &c)) != STRATA_OK) break;
    const macro *m = find_macro(&x->ms, t.text, c.count, &any);
    if (m == NULL) { /* no macro of that arity: the word stays (and is likely an error later) */
      if (!list_push(x->out, t)) st = nomem(x->err);
      continue;
    }
    if (++x->expansions > MAX_EXPANSIONS || x->stack.len + x->out->len > MAX_TOKENS)
      return runaway(x, &t);
    x->recent[x->expansions % 8] = m->name;
    x->recent_line[x->expansions % 8] = t.call_line ? t.call_line : t.line;
    x->stack.len -= c.consumed;
    st = expand_call(x, &t, m, &c);
  }
  return st;
}

strata_status lt_expand(lt_arena *a, const char *text, size_t len, const char *name, lt_list *out,
                        strata_error *err) {
  lt_list raw = {0}, rest = {0};
  expander x = {.a = a, .name = name, .err = err, .out = out};
  strata_status st = lex(a, text, len, name, 1, 1, 0, &raw, err);
  if (!st) st = collect(&raw, name, &x.ms, &rest, err);
  if (!st) st = index_macros(&x.ms, name, err);
  /* The input as a stack, next token on top. */
  for (size_t i = rest.len; !st && i-- > 0;)
    if (!list_push(&x.stack, rest.items[i])) st = nomem(err);
  if (!st) st = expand_all(&x);
  strata_free(raw.items), strata_free(rest.items), strata_free(x.stack.items), strata_free(x.tmp.items);
  strata_free(x.ms.items), strata_free(x.ms.slot);
  return st;
}
