/*
** layout_run.c - running layout trees on tile maps (docs/layouts.md).
**
** Every generator returns OK, FAILED (a soft failure: the caller retries on
** a fresh map) or ERROR (a configuration error, with the node's position).
** Randomness comes only from the generator passed in, drawn in the order
** the spec documents (x before y for vectors).
**
** Place does not try random spots blindly. For a predicate that draws no
** random numbers, the cells where a rectangle may go are known: the cells
** that fail the predicate or are taken are summed over the area once per
** rectangle, and a size's valid origins are counted from those sums. Each
** attempt of KeeperRL's loop (draw a size, draw an origin, test it) succeeds
** with probability valid / possible for the size drawn, so an attempt here
** draws the size, then succeeds with that probability and takes a valid
** origin uniformly: the same outcomes with the same probabilities, at the
** cost of one count per distinct size instead of 100,000 tests. The first
** few attempts are made as KeeperRL makes them, as they mostly succeed.
*/
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout_internal.h"
#include "strata/alloc.h"
#include "tilemap_internal.h"

#define OK 0
#define FAILED 1
#define ERROR (-1)
#define PLACE_ATTEMPTS 100000
#define PLACE_DIRECT 16      /* attempts tried as KeeperRL does before counting origins */
#define CONNECT_ROUNDS 300

/* The generators with state of their own stay out of run_gen: inlined, they
** made its every call set up their locals (a stalled 16-byte reload of the
** area showed up as a third of run_gen's time on small maps). */
#define NOINLINE __attribute__((noinline))

typedef strata_layout_gen gen;

typedef struct rect { int px, py, kx, ky; } rect;

typedef struct run {
  strata_tilemap *m;
  int W, H;
  strata_rng *rng;
  strata_tokens *tokens;
  uint64_t id;         /* this run's number in the file (see gen.run) */
  strata_error *err;
  char *why;
  size_t cap;
  /* Per cell, a bit for each token with an id below 64: On() is one bit test
  ** for those (most layouts use a few dozen tokens). Kept by edit(), the
  ** only writer during a run. */
  uint64_t *mask;
  /* Some cell may hold a small token twice (the map came so, or a Reset
  ** named one twice): else a Remove clears the token's bit without looking
  ** for a second copy. */
  int dups;
  /* Cells changed while a Connect keeps costs across its searches. */
  int tracking;
  uint8_t *dirty_mark;  /* W * H */
  int32_t *dirty;       /* cell indices y * W + x */
  size_t ndirty;
} run;

/* The arena of g's file, where the forms kept across runs live (gen.terms):
** every node points to its file's run counter. */
static lt_arena *file_arena(const gen *g) {
  return &((strata_layout_file *)((char *)g->runs - offsetof(strata_layout_file, runs)))->arena;
}

static inline void touched(run *r, int x, int y) {
  if (!r->tracking) return;
  size_t i = (size_t)y * (size_t)r->W + (size_t)x;
  if (!r->dirty_mark[i]) r->dirty_mark[i] = 1, r->dirty[r->ndirty++] = (int32_t)i;
}

static rect rect2(int x1, int y1, int x2, int y2) {
  rect r = {x1 < x2 ? x1 : x2, y1 < y2 ? y1 : y2, x1 < x2 ? x2 : x1, y1 < y2 ? y2 : y1};
  return r;
}

static rect rect4(int px, int py, int kx, int ky) {
  rect r = {px, py, kx, ky};
  if (kx <= px || ky <= py) r.kx = px, r.ky = py;
  return r;
}

static int empty(rect r) { return r.kx <= r.px || r.ky <= r.py; }

static int config_error(run *r, const gen *g, const char *fmt, ...) {
  char msg[360];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  strata_error_at(r->err, STRATA_EARG, g->line, g->col, "layout line %d:%d: %s", g->line, g->col, msg);
  return ERROR;
}

static const char *gen_name(const gen *g) {
  static const char *const names[] = {"None", "Fail", "Set", "SetFront", "Reset", "Remove",
    "Filter", "Margins", "MarginImpl", "SplitH", "SplitV", "Position", "Place", "NoiseMap",
    "Chain", "Choose", "Connect", "Repeat", "FloodFill", "On", "Not", "True", "And", "Or",
    "Chance", "Area", "XMod", "YMod", "Translate"};
  return g->form ? g->form : names[g->kind];
}

static int soft_fail(run *r, const gen *g, const char *what) {
  if (r->why && r->cap) snprintf(r->why, r->cap, "%s at line %d:%d %s", gen_name(g), g->line, g->col, what);
  return FAILED;
}

static int prepare_pure(run *r, gen *g);

/* The lengths of g's tokens, measured in its first run and kept with the
** file (the tokens never change). 0, or ERROR. */
static int measure_tokens(run *r, gen *g) {
  if ((g->lens = lt_alloc(file_arena(g), g->ntokens * sizeof *g->lens)) == NULL) {
    strata_error_nomem(r->err, "running a layout");
    return ERROR;
  }
  for (size_t i = 0; i < g->ntokens; i++) g->lens[i] = (uint32_t)strlen(g->tokens[i]);
  return OK;
}

/* A prepared pure predicate as one test of the token bits, where it is one
** (see gen.general): pure_eval then has no branch to mispredict. */
static void one_test(gen *g) {
  g->general = 0, g->eneg = 0, g->ebits = g->ewant = 0;
  if (!g->small) {
    g->general = 1;
    return;
  }
  const gen *n = g->kind == LP_NOT ? g->pred : g;
  int neg = g->kind == LP_NOT;
  if (n->kind == LP_ON || (n->kind == LP_OR && n->flat)) g->ebits = n->bits, g->ewant = 0, g->eneg = !neg;
  else if (n->kind == LP_AND && n->flat) g->ebits = g->ewant = n->bits, g->eneg = neg;
  else if (n->kind == LP_TRUE) g->eneg = neg;
  else if (n == g && g->nclauses == 1) {
    uint64_t b = g->clauses[0].bits;
    switch (g->clauses[0].kind) {
    case LC_ANY: g->ebits = b, g->eneg = 1; break;
    case LC_NONE: g->ebits = b; break;
    case LC_ALL: g->ebits = g->ewant = b; break;
    default: g->ebits = g->ewant = b, g->eneg = 1; break; /* LC_NOT_ALL */
    }
  } else g->general = 1;
}

/* An And that is not pure, as terms (see lg_term): its pure kids and its
** Translates of pure predicates read the token bits directly, without a walk
** of the tree per cell (world_map's Connections: And(Not On(a), Translate(
** {0 -1}, On(a))) on every cell, forty times). The terms are made again only
** when a pure kid's forms changed since g's last preparation `last`. */
static int prepare_terms(run *r, gen *g, uint64_t last) {
  int same = last != 0 && g->terms != NULL;
  for (size_t i = 0; i < g->nkids; i++) {
    gen *k = g->kids[i], *q = k->kind == LP_TRANSLATE ? k->pred : k;
    if (!q->pure) continue;
    if (q->run != r->id && prepare_pure(r, q)) return ERROR;
    same &= q->changed <= last;
  }
  if (same) return OK;
  if (g->terms == NULL && (g->terms = lt_alloc(file_arena(g), g->nkids * sizeof *g->terms)) == NULL) {
    strata_error_nomem(r->err, "running a layout");
    return ERROR;
  }
  g->terms_pure = 1;
  for (size_t i = 0; i < g->nkids; i++) {
    gen *k = g->kids[i], *q = k->kind == LP_TRANSLATE ? k->pred : k;
    lg_term t = {0, 0, 0, NULL, k};
    if (q->pure && q->small) {
      t.p = q, t.other = NULL;
      if (k != q) t.dx = k->offset.x, t.dy = k->offset.y, t.translated = 1;
    }
    g->terms[i] = t;
    g->terms_pure &= t.p != NULL;
  }
  return OK;
}

static inline int in_map(const run *r, int x, int y);
static inline int pure_eval(const gen *p, uint64_t m);

/* An And of terms that all read token bits, at cell (x, y). */
static inline int terms_hold(const run *r, const gen *p, int x, int y) {
  for (size_t i = 0; i < p->nkids; i++) {
    const lg_term *t = &p->terms[i];
    int tx = x + t->dx, ty = y + t->dy;
    uint64_t m = 0;
    if (in_map(r, tx, ty)) m = r->mask[(size_t)ty * (size_t)r->W + (size_t)tx];
    else if (t->translated) return 0;
    if (!pure_eval(t->p, m)) return 0;
  }
  return 1;
}

/* A node's caches for this run (see gen.run): its tokens as ids of the
** map's table, and for a pure predicate or an And its forms. 0, or ERROR
** with r->err set. The caches are not part of the tree's meaning; the
** file's run counter tells a stale cache from a fresh one. The ids are
** interned in every run, as each map may have a table of its own; the forms
** made from them are made again only when an id changed, the node's own or a
** child's: a tiny layout run many times on maps that intern its tokens alike
** does not pay for them in every run. */
static int prepare_ids(run *r, gen *g);
static int prepare_and(run *r, gen *g);

NOINLINE static int prepare(run *r, gen *g) {
  if (g->pure) return prepare_pure(r, g);
  if (g->kind == LP_AND) return prepare_and(r, g);
  return prepare_ids(r, g);
}

/* A node that is not a predicate (an edit, most often): its ids. */
NOINLINE static int prepare_ids(run *r, gen *g) {
  if (g->lens == NULL && g->ntokens && measure_tokens(r, g)) return ERROR;
  for (size_t i = 0; i < g->ntokens; i++)
    if ((g->ids[i] = strata_tokens_intern(r->tokens, g->tokens[i], g->lens[i], r->err)) == 0) return ERROR;
  g->run = r->id;
  return OK;
}

/* An And that is not pure: its terms. */
NOINLINE static int prepare_and(run *r, gen *g) {
  if (prepare_terms(r, g, g->run)) return ERROR;
  g->run = r->id;
  return OK;
}

/* A pure predicate: its ids, its children's caches, and its forms (token
** bits, smallness, clause bits, the one test) when an id changed. */
NOINLINE static int prepare_pure(run *r, gen *g) {
  uint64_t last = g->run; /* 0: never prepared, or its last preparation failed */
  int same = last != 0;
  if (g->lens == NULL && g->ntokens && measure_tokens(r, g)) goto fail;
  for (size_t i = 0; i < g->ntokens; i++) {
    strata_token id = strata_tokens_intern(r->tokens, g->tokens[i], g->lens[i], r->err);
    if (id == 0) goto fail;
    same &= id == g->ids[i];
    g->ids[i] = id;
  }
  switch (g->kind) {
  case LP_NOT:
    if (g->pred->run != r->id && prepare_pure(r, g->pred)) goto fail;
    same &= g->pred->changed <= last;
    break;
  case LP_AND: case LP_OR:
    for (size_t i = 0; i < g->nkids; i++) {
      if (g->kids[i]->run != r->id && prepare_pure(r, g->kids[i])) goto fail;
      same &= g->kids[i]->changed <= last;
    }
    break;
  default: break;
  }
  if (!same) {
    g->bits = 0, g->small = 1;
    switch (g->kind) {
    case LP_ON: g->small = g->ids[0] < 64, g->bits = g->small ? (uint64_t)1 << g->ids[0] : 0; break;
    case LP_NOT: g->small = g->pred->small; break;
    case LP_AND: case LP_OR:
      for (size_t i = 0; i < g->nkids; i++) g->small &= g->kids[i]->small, g->bits |= g->kids[i]->bits;
      break;
    default: break;
    }
    for (int k = 0; k < g->nclauses; k++) g->clauses[k].bits = g->clauses[k].src->bits;
    one_test(g);
    g->changed = r->id;
  }
  g->run = r->id;
  return OK;
fail: /* its ids may have changed without its forms: make them anew next time */
  g->run = 0;
  return ERROR;
}

static int pure_pred(const gen *p, uint64_t m);

/* pure_pred with the commonest forms inline: On, Or of Ons, And of Ons. */
static inline int pure_eval(const gen *p, uint64_t m) {
  if (p->general) return pure_pred(p, m);
  return ((m & p->ebits) == p->ewant) != p->eneg;
}

static inline const strata_token *ids(run *r, const gen *g) {
  if (g->run == r->id) return g->ids;
  return prepare(r, (gen *)g) ? NULL : g->ids;
}

/* A pure predicate whose ids are all below 64, on a cell's token bits (0
** outside the map: On is false there). */
static int pure_pred(const gen *p, uint64_t m) {
  if (p->nclauses) {
    for (int k = 0; k < p->nclauses; k++) {
      uint64_t b = p->clauses[k].bits, v = m & b;
      switch (p->clauses[k].kind) {
      case LC_ANY: if (v == 0) return 0; break;
      case LC_NONE: if (v != 0) return 0; break;
      case LC_ALL: if (v != b) return 0; break;
      default: if (v == b) return 0; break; /* LC_NOT_ALL */
      }
    }
    return 1;
  }
  switch (p->kind) {
  case LP_ON: return (m & p->bits) != 0;
  case LP_NOT: return !pure_pred(p->pred, m);
  case LP_AND:
    if (p->flat) return (m & p->bits) == p->bits;
    for (size_t i = 0; i < p->nkids; i++)
      if (!pure_pred(p->kids[i], m)) return 0;
    return 1;
  case LP_OR:
    if (p->flat) return (m & p->bits) != 0;
    for (size_t i = 0; i < p->nkids; i++)
      if (pure_pred(p->kids[i], m)) return 1;
    return 0;
  default: return 1; /* True */
  }
}

/* The token bits of cell (x, y); *dups set when it holds a small token twice. */
static uint64_t cell_mask(const strata_tilemap *m, int x, int y, int *dups) {
  uint32_t v = m->cells[(size_t)y * (size_t)m->width + (size_t)x];
  if ((v & CELL_STACK) == 0) return v != 0 && v < 64 ? (uint64_t)1 << v : 0;
  const side_stack *st = &m->stacks[v & ~CELL_STACK];
  uint64_t bits = 0;
  for (uint32_t k = 0; k < st->len; k++)
    if (st->items[k] < 64) {
      *dups |= (bits >> st->items[k]) & 1;
      bits |= (uint64_t)1 << st->items[k];
    }
  return bits;
}

/* Whether the cell holds t: the tile map's own test without its checks
** (the caller knows the cell is on the map), as predicates ask it millions
** of times per layout. */
static inline int cell_has_slow(const strata_tilemap *m, int x, int y, strata_token t) {
  uint32_t v = m->cells[(size_t)y * (size_t)m->width + (size_t)x];
  if ((v & CELL_STACK) == 0) return v == t;
  const side_stack *st = &m->stacks[v & ~CELL_STACK];
  for (uint32_t k = 0; k < st->len; k++)
    if (st->items[k] == t) return 1;
  return 0;
}

static inline int in_map(const run *r, int x, int y) { return x >= 0 && y >= 0 && x < r->W && y < r->H; }

static int check_area(run *r, const gen *g, rect a) {
  if (empty(a)) return OK;
  if (a.px < 0 || a.py < 0 || a.kx > r->W || a.ky > r->H)
    return config_error(r, g, "%s: the area [%d,%d)x[%d,%d) is outside the %dx%d map", gen_name(g),
                        a.px, a.kx, a.py, a.ky, r->W, r->H);
  return OK;
}

static inline int has(const run *r, int x, int y, strata_token t) {
  if (t < 64) return (int)((r->mask[(size_t)y * (size_t)r->W + (size_t)x] >> t) & 1);
  return cell_has_slow(r->m, x, y, t);
}

/* ---- predicates ---- */
static int pred_other(run *r, const gen *p, int x, int y);

/* On, the commonest test by far, inline; the rest in pred_other. */
static inline int pred(run *r, const gen *p, int x, int y) {
  if (p == NULL) return 1;
  if (p->pure) {
    if (p->run != r->id && prepare_pure(r, (gen *)p)) return 0;
    if (p->small) return pure_eval(p, in_map(r, x, y) ? r->mask[(size_t)y * (size_t)r->W + (size_t)x] : 0);
  }
  if (p->kind == LP_ON) {
    const strata_token *t = ids(r, p);
    return t && in_map(r, x, y) && has(r, x, y, t[0]);
  }
  if (p->kind == LP_NOT && p->pred->kind == LP_ON) {
    const strata_token *t = ids(r, p->pred);
    return !(t && in_map(r, x, y) && has(r, x, y, t[0]));
  }
  return pred_other(r, p, x, y);
}

static int pred_other(run *r, const gen *p, int x, int y) {
  switch (p->kind) {
  case LP_NOT: return !pred(r, p->pred, x, y);
  case LP_TRUE: return 1;
  case LP_AND:
    if (!p->pure && (p->run == r->id || prepare_and(r, (gen *)p) == OK)) { /* terms (a pure And is not small here) */
      if (p->terms_pure) return terms_hold(r, p, x, y);
      for (size_t i = 0; i < p->nkids; i++) {
        const lg_term *t = &p->terms[i];
        if (t->p == NULL) {
          if (!pred(r, t->other, x, y)) return 0;
          continue;
        }
        int tx = x + t->dx, ty = y + t->dy;
        uint64_t m = 0;
        if (in_map(r, tx, ty)) m = r->mask[(size_t)ty * (size_t)r->W + (size_t)tx];
        else if (t->translated) return 0;
        if (!pure_eval(t->p, m)) return 0;
      }
      return 1;
    }
    for (size_t i = 0; i < p->nkids; i++)
      if (!pred(r, p->kids[i], x, y)) return 0;
    return 1;
  case LP_OR:
    for (size_t i = 0; i < p->nkids; i++)
      if (pred(r, p->kids[i], x, y)) return 1;
    return 0;
  case LP_CHANCE: return strata_rng_float(r->rng) <= p->dval;
  case LP_AREA: {
    int count = 0;
    if (p->pred->kind == LP_ON) { /* the common NextTo(On(...)): bit tests only */
      const strata_token *t = ids(r, p->pred);
      if (t == NULL) return 0;
      int x0 = x - p->ival < 0 ? 0 : x - p->ival, x1 = x + p->ival >= r->W ? r->W - 1 : x + p->ival;
      int y0 = y - p->ival < 0 ? 0 : y - p->ival, y1 = y + p->ival >= r->H ? r->H - 1 : y + p->ival;
      if (t[0] < 64) { /* rows of token bits; stop at minCount */
        uint64_t b = (uint64_t)1 << t[0];
        for (int j = y0; j <= y1; j++) {
          const uint64_t *row = r->mask + (size_t)j * (size_t)r->W;
          for (int i = x0; i <= x1; i++) count += (row[i] & b) != 0;
          if (count >= p->ival2) return 1;
        }
        return count >= p->ival2;
      }
      for (int i = x0; i <= x1; i++)
        for (int j = y0; j <= y1; j++) count += cell_has_slow(r->m, i, j, t[0]);
      return count >= p->ival2;
    }
    for (int i = x - p->ival; i <= x + p->ival; i++)
      for (int j = y - p->ival; j <= y + p->ival; j++)
        if (in_map(r, i, j) && pred(r, p->pred, i, j)) count++;
    return count >= p->ival2;
  }
  case LP_XMOD: return x % p->ival == p->ival2;
  case LP_YMOD: return y % p->ival == p->ival2;
  case LP_TRANSLATE: {
    int tx = x + p->offset.x, ty = y + p->offset.y;
    return in_map(r, tx, ty) && pred(r, p->pred, tx, ty);
  }
  default: return 0;
  }
}

/* ---- cell edits ---- */
/* The edits go to the tile map's cells directly: the ids come from the
** map's own table and the area was checked, so the public calls' checks
** would only repeat themselves once per cell. */
static int nomem_edit(run *r) {
  strata_error_nomem(r->err, "running a layout");
  return ERROR;
}

/* Whether cell index c holds t (has() for callers with the index). */
static inline int has_at(const run *r, uint32_t c, strata_token t) {
  if (t < 64) return (int)((r->mask[c] >> t) & 1);
  uint32_t v = r->m->cells[c];
  if ((v & CELL_STACK) == 0) return v == t;
  const side_stack *st = &r->m->stacks[v & ~CELL_STACK];
  for (uint32_t k = 0; k < st->len; k++)
    if (st->items[k] == t) return 1;
  return 0;
}

static inline uint64_t bit_of(strata_token t) { return t < 64 ? (uint64_t)1 << t : 0; }

/* Runs the caller's CELLS(kind) loop with the edit kind k as a constant in
** each copy, so that edit_cell's switch on it folds away per loop. */
#define EDIT_KINDS(k)                             \
  switch (k) {                                    \
  case LG_SET: CELLS(LG_SET) break;               \
  case LG_SETFRONT: CELLS(LG_SETFRONT) break;     \
  case LG_RESET: CELLS(LG_RESET) break;           \
  case LG_REMOVE: CELLS(LG_REMOVE) break;         \
  default: break;                                 \
  }

/* Remove's usual case, without a call: t, held once, on top of a stack that
** keeps two tokens or more (a marker Set a moment ago is on top; the stack
** stays a stack). 1 when done, else 0 and the cell is as it was. */
static inline int remove_top(strata_tilemap *m, uint32_t c, strata_token t) {
  uint32_t v = m->cells[c];
  if ((v & CELL_STACK) == 0) return 0;
  side_stack *st = &m->stacks[v & ~CELL_STACK];
  if (st->len <= 2 || st->items[st->len - 1] != t) return 0;
  st->len--;
  return 1;
}

/* An edit of kind `kind` (Set, SetFront, Reset or Remove) with the n ids t
** of cell index c at (x, y). The caller bumps the map's revision. */
static inline __attribute__((always_inline)) int edit_cell_n(run *r, lg_kind kind, const strata_token *t, size_t n,
                                                             uint32_t c, int x, int y) {
  strata_tilemap *m = r->m;
  touched(r, x, y);
  switch (kind) {
  case LG_SET:
    for (size_t i = 0; i < n; i++)
      if (!has_at(r, c, t[i])) {
        if (tilemap_cell_add(m, c, t[i], 0, NULL)) return nomem_edit(r);
        r->mask[c] |= bit_of(t[i]);
      }
    break;
  case LG_SETFRONT:
    if (!has_at(r, c, t[0])) {
      if (tilemap_cell_add(m, c, t[0], 1, NULL)) return nomem_edit(r);
      r->mask[c] |= bit_of(t[0]);
    }
    break;
  case LG_RESET:
    tilemap_cell_reset(m, c, n ? t[0] : 0);
    r->mask[c] = n ? bit_of(t[0]) : 0;
    for (size_t i = 1; i < n; i++) {
      if (tilemap_cell_add(m, c, t[i], 0, NULL)) return nomem_edit(r);
      r->dups |= (r->mask[c] & bit_of(t[i])) != 0;
      r->mask[c] |= bit_of(t[i]);
    }
    break;
  case LG_REMOVE:
    for (size_t i = 0; i < n; i++) {
      if (t[i] < 64 && !(r->mask[c] & bit_of(t[i]))) continue; /* not there */
      if (t[i] < 64 && !r->dups && remove_top(m, c, t[i])) {
        r->mask[c] &= ~bit_of(t[i]);
        continue;
      }
      if (tilemap_cell_remove_first(m, c, t[i]) && t[i] < 64 && (!r->dups || !cell_has_slow(m, x, y, t[i])))
        r->mask[c] &= ~bit_of(t[i]); /* unless a duplicate remains */
    }
    break;
  default: break;
  }
  return OK;
}

/* edit_cell_n with g's ids: a copy for the usual single token, whose loops
** over the ids fold away, and one for the rest. */
static inline __attribute__((always_inline)) int edit_cell(run *r, lg_kind kind, const gen *g, const strata_token *t,
                                                           uint32_t c, int x, int y) {
  if (g->ntokens == 1) return edit_cell_n(r, kind, t, 1, c, x, y);
  return edit_cell_n(r, kind, t, g->ntokens, c, x, y);
}

static int edit(run *r, const gen *g, rect a) {
  const strata_token *t = ids(r, g);
  if (t == NULL && g->ntokens) return ERROR;
  /* a loop per kind (a constant in each), so the kind is not asked per cell */
#define CELLS(kind)                                                              \
  for (int x = a.px; x < a.kx; x++)                                              \
    for (int y = a.py; y < a.ky; y++)                                            \
      if (edit_cell(r, kind, g, t, (uint32_t)y * (uint32_t)r->W + (uint32_t)x, x, y)) return ERROR;
  EDIT_KINDS(g->kind)
#undef CELLS
  r->m->revision++; /* what the public edits would have done, once per cell */
  return OK;
}

static int is_edit(const gen *g) { return g && g->kind >= LG_SET && g->kind <= LG_REMOVE; }

static int run_gen(run *r, const gen *g, rect a);

static int sub(run *r, const gen *parent, const gen *child, rect a) {
  if (child == NULL) return OK;
  if (check_area(r, parent, a)) return ERROR;
  return run_gen(r, child, a);
}

/* ---- Position ---- */
static int draw_size(run *r, int has_size, lg_vec2 size, lg_vec2 lo, lg_vec2 hi, int *sx, int *sy) {
  if (has_size) {
    *sx = size.x, *sy = size.y;
    return 0;
  }
  *sx = (int)strata_rng_int(r->rng, lo.x, hi.x - 1); /* maxSize is excluded; x first */
  *sy = (int)strata_rng_int(r->rng, lo.y, hi.y - 1);
  return 0;
}

NOINLINE static int position(run *r, const gen *g, rect a) {
  int sx, sy;
  draw_size(r, g->has_size, g->size, g->min_size, g->max_size, &sx, &sy);
  int mx = (a.px + a.kx) / 2, my = (a.py + a.ky) / 2, hx = sx / 2, hy = sy / 2;
  rect b;
  switch ((lg_position)g->ival) {
  case LG_MIDDLE: b = rect2(mx - hx, my - hy, mx - hx + sx, my - hy + sy); break;
  case LG_MIDDLE_V: b = rect4(mx - hx, a.py, mx - hx + sx, a.ky); break;
  case LG_MIDDLE_H: b = rect4(a.px, my - hy, a.kx, my - hy + sy); break;
  case LG_LEFT_CENTER: b = rect4(a.px, my - hy, a.px + sx, my - hy + sy); break;
  case LG_RIGHT_CENTER: b = rect4(a.kx - sx, my - hy, a.kx, my - hy + sy); break;
  case LG_TOP_CENTER: b = rect4(mx - hx, a.py, mx - hx + sx, a.py + sy); break;
  case LG_BOTTOM_CENTER: b = rect4(mx - hx, a.ky - sy, mx - hx + sx, a.ky); break;
  case LG_TOP_LEFT: b = rect2(a.px, a.py, a.px + sx, a.py + sy); break;
  case LG_TOP_RIGHT: b = rect2(a.kx - sx, a.py, a.kx, a.py + sy); break;
  case LG_BOTTOM_LEFT: b = rect2(a.px, a.ky - sy, a.px + sx, a.ky); break;
  case LG_BOTTOM_RIGHT: b = rect2(a.kx - sx, a.ky - sy, a.kx, a.ky); break;
  case LG_LEFT_STRETCHED: b = rect2(a.px, a.py, a.px + sx, a.ky); break;
  case LG_RIGHT_STRETCHED: b = rect2(a.kx - sx, a.py, a.kx, a.ky); break;
  case LG_TOP_STRETCHED: b = rect2(a.px, a.py, a.kx, a.py + sy); break;
  default: b = rect2(a.px, a.ky - sy, a.kx, a.ky); break; /* BOTTOM_STRETCHED */
  }
  return sub(r, g, g->gen, b);
}

/* ---- Place ---- */
typedef struct place_state {
  int aw, ah;
  uint8_t *occ;        /* aw * ah, column-major over A: taken by an earlier rectangle */
  int32_t *sum;        /* (aw + 1) * (ah + 1) prefix sums of bad cells */
} place_state;

/* Fills the prefix sums of "bad" (predicate false or taken) over A. */
static void bad_sums(run *r, const lg_elem *e, rect a, place_state *s) {
  int W1 = s->aw + 1;
  for (int i = 0; i <= s->aw; i++) s->sum[i] = 0;
  for (int j = 0; j < s->ah; j++) {
    int32_t row = 0;
    s->sum[(j + 1) * W1] = 0;
    for (int i = 0; i < s->aw; i++) {
      int bad = s->occ[i * s->ah + j] || !pred(r, e->pred, a.px + i, a.py + j);
      row += bad;
      s->sum[(j + 1) * W1 + i + 1] = s->sum[j * W1 + i + 1] + row;
    }
  }
}

static int32_t bad_in(const place_state *s, int i, int j, int w, int h) {
  int W1 = s->aw + 1;
  return s->sum[(j + h) * W1 + i + w] - s->sum[j * W1 + i + w] - s->sum[(j + h) * W1 + i] + s->sum[j * W1 + i];
}

/* With k < 0: the number of valid origins of size (w, h). Otherwise the k-th
** (0-based, column-major) in *oi, *oj, and k + 1 (the count stops there). */
static int valid_origins(const place_state *s, int w, int h, long k, int *oi, int *oj) {
  int n = 0;
  for (int i = 0; i + w <= s->aw; i++)
    for (int j = 0; j + h <= s->ah; j++)
      if (bad_in(s, i, j, w, h) == 0) {
        if (n == k) {
          *oi = i, *oj = j;
          return n + 1;
        }
        n++;
      }
  return n;
}

static int place_one(run *r, const gen *g, const lg_elem *e, rect a, place_state *s, size_t ei) {
  int minx = e->has_size ? e->size.x : e->min_size.x, miny = e->has_size ? e->size.y : e->min_size.y;
  if (minx > s->aw || miny > s->ah)
    return config_error(r, g, "Place element %zu (%dx%d) does not fit in its %dx%d area", ei + 1, minx,
                        miny, s->aw, s->ah);
  int ox = 0, oy = 0, sx = 0, sy = 0, found = 0;
  /* KeeperRL's loop as it is: always for a predicate that draws, and for the
  ** first attempts otherwise, which usually succeed when there is room. */
  int direct = e->pred && e->pred->random ? PLACE_ATTEMPTS : PLACE_DIRECT;
  int attempt = 0;
  {
    for (; attempt < direct && !found; attempt++) {
      draw_size(r, e->has_size, e->size, e->min_size, e->max_size, &sx, &sy);
      if (sx > s->aw || sy > s->ah || sx < 0 || sy < 0) continue;
      ox = (int)strata_rng_int(r->rng, a.px, a.kx - sx);
      oy = (int)strata_rng_int(r->rng, a.py, a.ky - sy);
      int ok = 1;
      for (int x = ox; x < ox + sx && ok; x++)
        for (int y = oy; y < oy + sy && ok; y++)
          ok = pred(r, e->pred, x, y) && !s->occ[(x - a.px) * s->ah + (y - a.py)];
      found = ok;
    }
  }
  if (!found && attempt < PLACE_ATTEMPTS) {
    bad_sums(r, e, a, s);
    /* counts of valid origins per size, filled as sizes are drawn */
    enum { MAXS = 64 };
    int cache_w[MAXS], cache_h[MAXS], cache_n[MAXS], ncache = 0;
    for (; attempt < PLACE_ATTEMPTS && !found; attempt++) {
      draw_size(r, e->has_size, e->size, e->min_size, e->max_size, &sx, &sy);
      if (sx > s->aw || sy > s->ah || sx < 0 || sy < 0) continue;
      int valid = -1, k;
      for (k = 0; k < ncache; k++)
        if (cache_w[k] == sx && cache_h[k] == sy) valid = cache_n[k];
      if (valid < 0) {
        int dummy_i, dummy_j;
        valid = valid_origins(s, sx, sy, -1, &dummy_i, &dummy_j);
        if (ncache < MAXS) cache_w[ncache] = sx, cache_h[ncache] = sy, cache_n[ncache++] = valid;
      }
      long possible = (long)(s->aw - sx + 1) * (s->ah - sy + 1);
      if (valid == 0) {
        if (e->has_size) break; /* one size only: no attempt can ever succeed */
        continue;
      }
      if (valid < possible && strata_rng_float(r->rng) * (double)possible >= (double)valid) continue;
      int oi = 0, oj = 0;
      valid_origins(s, sx, sy, (long)strata_rng_below(r->rng, (uint64_t)valid), &oi, &oj);
      ox = a.px + oi, oy = a.py + oj;
      found = 1;
    }
  }
  if (!found) {
    char what[120];
    snprintf(what, sizeof what, "found no room for element %zu", ei + 1);
    return soft_fail(r, g, what);
  }
  /* taken: the rectangle grown by minSpacing, clipped to A */
  rect t = rect4(ox - e->min_spacing, oy - e->min_spacing, ox + sx + e->min_spacing, oy + sy + e->min_spacing);
  if (t.px < a.px) t.px = a.px;
  if (t.py < a.py) t.py = a.py;
  if (t.kx > a.kx) t.kx = a.kx;
  if (t.ky > a.ky) t.ky = a.ky;
  for (int x = t.px; x < t.kx; x++)
    for (int y = t.py; y < t.ky; y++) s->occ[(x - a.px) * s->ah + (y - a.py)] = 1;
  return sub(r, g, e->gen, rect2(ox, oy, ox + sx, oy + sy));
}

NOINLINE static int place(run *r, const gen *g, rect a) {
  place_state s = {a.kx - a.px, a.ky - a.py, NULL, NULL};
  if (s.aw <= 0 || s.ah <= 0) {
    if (g->nelems == 0) return OK;
    return config_error(r, g, "Place on an empty area");
  }
  /* one block: the order, the sums, the taken cells (zeroed) */
  size_t norder = g->nelems ? g->nelems : 1, nsum = (size_t)(s.aw + 1) * (size_t)(s.ah + 1);
  size_t nocc = (size_t)s.aw * (size_t)s.ah;
  size_t *order = strata_malloc(norder * sizeof *order + nsum * sizeof *s.sum + nocc);
  int st = OK;
  if (order == NULL) {
    st = ERROR;
    strata_error_nomem(r->err, "running Place");
    goto done;
  }
  s.sum = (int32_t *)(order + norder);
  s.occ = memset((uint8_t *)(s.sum + nsum), 0, nocc);
  size_t n = g->nelems;
  for (size_t i = 0; i < n; i++) order[i] = i;
  if (g->placed_count > 0) {
    strata_rng_shuffle(r->rng, order, n, sizeof *order);
    if ((size_t)g->placed_count < n) n = (size_t)g->placed_count;
  }
  for (size_t k = 0; k < n && st == OK; k++) {
    const lg_elem *e = &g->elems[order[k]];
    int count = (int)strata_rng_int(r->rng, e->count_lo, e->count_hi - 1);
    for (int c = 0; c < count && st == OK; c++) st = place_one(r, g, e, a, &s, order[k]);
  }
done:
  strata_free(order);
  return st;
}

/* ---- NoiseMap ---- */
NOINLINE static int noisemap(run *r, const gen *g, rect a) {
  int W = a.kx - a.px, H = a.ky - a.py;
  if (W <= 0 || H <= 0) return OK;
  size_t N = (size_t)W * H;
  double *heights = strata_malloc(N * sizeof *heights), *sorted = strata_malloc(N * sizeof *sorted);
  int st = OK;
  if (heights == NULL || sorted == NULL || lg_noise_heights(r->rng, g->dval, W, H, heights) ||
      lg_sort_heights(heights, N, sorted)) {
    st = ERROR;
    strata_error_nomem(r->err, "running NoiseMap");
    goto done;
  }
  for (size_t e = 0; e < g->nelems && st == OK; e++) {
    double q[2], f[2] = {g->elems[e].lower, g->elems[e].upper};
    for (int k = 0; k < 2; k++) {
      /* A bound from the file may be anything (1e20, inf, nan): clamp to
      ** [0, N] before the cast, which is undefined out of range. */
      double idx = f[k] * (double)N;
      size_t i = idx > 0 ? (idx < (double)N ? (size_t)idx : N) : 0;
      q[k] = i < N ? sorted[i] : sorted[N - 1] + 1;
    }
    const gen *eg = g->elems[e].gen;
    if (is_edit(eg)) { /* the usual band: an edit, straight to the cells */
      const strata_token *t = ids(r, eg);
      if (t == NULL && eg->ntokens) st = ERROR;
#define CELLS(kind)                                                                        \
  for (int x = 0; x < W && st == OK; x++)                                                  \
    for (int y = 0; y < H && st == OK; y++) {                                              \
      double hgt = heights[x * H + y];                                                     \
      if (q[0] <= hgt && hgt < q[1])                                                       \
        st = edit_cell(r, kind, eg, t, (uint32_t)(a.py + y) * (uint32_t)r->W + (uint32_t)(a.px + x), \
                       a.px + x, a.py + y);                                                \
    }
      EDIT_KINDS(st == OK ? eg->kind : LG_NONE)
#undef CELLS
      r->m->revision++;
      continue;
    }
    for (int x = 0; x < W && st == OK; x++)
      for (int y = 0; y < H && st == OK; y++) {
        double hgt = heights[x * H + y];
        if (q[0] <= hgt && hgt < q[1]) st = sub(r, g, eg, rect2(a.px + x, a.py + y, a.px + x + 1, a.py + y + 1));
      }
  }
done:
  strata_free(heights), strata_free(sorted);
  return st;
}

/* ---- Connect ---- */
typedef struct cnode { double f; int32_t cell; } cnode;

typedef struct connect_state {
  int aw, ah;
  uint32_t *stamp, gen;
  double *g;
  double *cost;        /* entry cost, cached for one search; < 0: impassable */
  uint32_t *cost_stamp;
  int32_t *parent;
  uint8_t *closed;
  cnode *heap;
  size_t nheap, cap;
  int keep_costs;      /* costs depend on the cell alone: kept across searches */
  uint8_t *known;      /* with keep_costs: cost[] is up to date */
} connect_state;

/* The element governing cell (x, y) now: the first with the lowest cost
** among those whose predicate holds, else the last cost-less one; -1 none. */
static int governing(run *r, const gen *g, int x, int y) {
  int best = -1, last_free = -1;
  for (size_t i = 0; i < g->nelems; i++) {
    const lg_elem *e = &g->elems[i];
    if (!pred(r, e->pred, x, y)) continue;
    if (!e->has_cost) last_free = (int)i;
    else if (best < 0 || e->cost < g->elems[best].cost) best = (int)i;
  }
  return best >= 0 ? best : last_free;
}

/* Heap order: lower f first; between equal f, the larger x, then the larger
** y (KeeperRL's order, so corridors look alike; with column-major cell
** indices that is the larger index). */
static inline int cnode_before(cnode a, cnode b) { return a.f < b.f || (a.f == b.f && a.cell > b.cell); }

static void heap_push(connect_state *c, cnode n) {
  size_t i = c->nheap++;
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (!cnode_before(n, c->heap[up])) break;
    c->heap[i] = c->heap[up], i = up;
  }
  c->heap[i] = n;
}

static cnode heap_pop(connect_state *c) {
  cnode top = c->heap[0], last = c->heap[--c->nheap];
  size_t i = 0;
  for (;;) {
    size_t k = 2 * i + 1;
    if (k >= c->nheap) break;
    if (k + 1 < c->nheap && cnode_before(c->heap[k + 1], c->heap[k])) k++;
    if (!cnode_before(c->heap[k], last)) break;
    c->heap[i] = c->heap[k], i = k;
  }
  if (c->nheap) c->heap[i] = last;
  return top;
}

static void forget_dirty(run *r, rect a, connect_state *c, lg_search *s);

static int connect_pair(run *r, const gen *g, rect a, connect_state *c, int p1, int p2) {
  /* cells are column-major indices in A: i * ah + j */
  if (++c->gen == 0) {
    memset(c->stamp, 0, (size_t)c->aw * c->ah * sizeof *c->stamp);
    memset(c->cost_stamp, 0, (size_t)c->aw * c->ah * sizeof *c->cost_stamp);
    c->gen = 1;
  }
  if (c->keep_costs) forget_dirty(r, a, c, NULL); /* costs stay valid but for the cells changed since */
  int gx = p2 / c->ah, gy = p2 % c->ah;
  c->nheap = 0;
  c->stamp[p1] = c->gen, c->g[p1] = 0, c->parent[p1] = -1, c->closed[p1] = 0;
  heap_push(c, (cnode){(double)(abs(p1 / c->ah - gx) + abs(p1 % c->ah - gy)), p1});
  static const int DX[4] = {0, 0, 1, -1}, DY[4] = {-1, 1, 0, 0}; /* up, down, right, left */
  int found = 0;
  while (c->nheap > 0) {
    cnode n = heap_pop(c);
    int u = n.cell;
    if (c->closed[u]) continue;
    c->closed[u] = 1;
    if (u == p2) { found = 1; break; }
    int ux = u / c->ah, uy = u % c->ah;
    for (int d = 0; d < 4; d++) {
      int vx = ux + DX[d], vy = uy + DY[d];
      if (vx < 0 || vy < 0 || vx >= c->aw || vy >= c->ah) continue;
      int v = vx * c->ah + vy;
      if (c->keep_costs ? !c->known[v] : c->cost_stamp[v] != c->gen) {
        int e = governing(r, g, a.px + vx, a.py + vy);
        c->cost[v] = e < 0 ? 1 : g->elems[e].has_cost ? g->elems[e].cost : -1;
        c->cost_stamp[v] = c->gen;
        if (c->keep_costs) c->known[v] = 1;
      }
      if (c->cost[v] < 0) continue;
      double ng = c->g[u] + c->cost[v];
      if (c->stamp[v] == c->gen && (c->closed[v] || ng >= c->g[v])) continue;
      if (c->stamp[v] != c->gen) c->closed[v] = 0;
      c->stamp[v] = c->gen, c->g[v] = ng, c->parent[v] = u;
      heap_push(c, (cnode){ng + abs(vx - gx) + abs(vy - gy), v});
    }
  }
  if (!found) return OK; /* unreachable: the pair is skipped (KeeperRL crashes) */
  /* Back from p2 along decreasing distance: at each step the neighbour (up,
  ** down, right, left) with the strictly smallest tentative distance. */
  for (int v = p2; v != p1;) {
    int x = a.px + v / c->ah, y = a.py + v % c->ah;
    int vx = v / c->ah, vy = v % c->ah, next = c->parent[v];
    double best = c->g[v];
    for (int d = 0; d < 4; d++) {
      int nx = vx + DX[d], ny = vy + DY[d];
      if (nx < 0 || ny < 0 || nx >= c->aw || ny >= c->ah) continue;
      int w = nx * c->ah + ny;
      if (c->stamp[w] == c->gen && c->g[w] < best) best = c->g[w], next = w;
    }
    int e = governing(r, g, x, y);
    if (e >= 0) {
      int st = sub(r, g, g->elems[e].gen, rect2(x, y, x + 1, y + 1));
      if (st) return st;
    }
    v = next;
  }
  return OK;
}

/* governing() when every element's predicate is pure on small tokens (or
** none): a function of the cell's token bits, kept per bits, as a map has
** few kinds of cells and a Connect asks about thousands. */
enum { GOV_SLOTS = 256, GOV_PROBES = 8 };
typedef struct gov_memo {
  int on;                  /* -1 until the first answer (which prepares every predicate) */
  uint64_t bits[GOV_SLOTS];
  int32_t elem[GOV_SLOTS]; /* governing()'s answer + 1; 0: a free slot */
} gov_memo;

/* Whether g's predicates, prepared for this run, allow the memo. */
static int memo_fits(const run *r, const gen *g) {
  for (size_t i = 0; i < g->nelems; i++) {
    const gen *p = g->elems[i].pred;
    if (p != NULL && (!p->pure || p->run != r->id || !p->small)) return 0;
  }
  return 1;
}

static int governing_of(run *r, const gen *g, gov_memo *memo, int x, int y) {
  if (memo->on < 0) {
    int e = governing(r, g, x, y); /* every predicate asked, so prepared */
    memo->on = memo_fits(r, g);
    if (!memo->on) return e;
    memset(memo->elem, 0, sizeof memo->elem);
  } else if (!memo->on) {
    return governing(r, g, x, y);
  }
  uint64_t m = r->mask[(size_t)y * (size_t)r->W + (size_t)x];
  size_t h = (size_t)((m * 0x9e3779b97f4a7c15ull) >> 56);
  for (int k = 0; k < GOV_PROBES; k++, h = (h + 1) % GOV_SLOTS) {
    if (memo->elem[h] == 0) {
      int e = governing(r, g, x, y);
      memo->bits[h] = m, memo->elem[h] = e + 1;
      return e;
    }
    if (memo->bits[h] == m) return memo->elem[h] - 1;
  }
  return governing(r, g, x, y);
}

typedef struct cost_ctx { run *r; const gen *g; rect a; gov_memo *memo; } cost_ctx;

/* A cell's cost for lg_search: whole numbers only (see whole_costs). */
static int32_t governed_cost(void *ctx, int i, int j) {
  const cost_ctx *c = ctx;
  int e = governing_of(c->r, c->g, c->memo, c->a.px + i, c->a.py + j);
  return e < 0 ? 1 : c->g->elems[e].has_cost ? (int32_t)c->g->elems[e].cost : LG_IMPASSABLE;
}

/* Whether every cost is a whole number of at least 1, small enough that no
** distance in the area leaves int32: then lg_search runs the searches. */
static int whole_costs(const gen *g, rect a) {
  double most = 1, cells = (double)(a.kx - a.px) * (a.ky - a.py);
  for (size_t i = 0; i < g->nelems; i++) {
    double c = g->elems[i].cost;
    if (!g->elems[i].has_cost) continue;
    if (!(c >= 1 && c <= 1e6 && c == (double)(int32_t)c)) return 0;
    if (c > most) most = c;
  }
  return cells * most + (a.kx - a.px) + (a.ky - a.py) < 2e9;
}

/* The costs kept across searches: forget those of the cells changed since
** the last search. */
static void forget_dirty(run *r, rect a, connect_state *c, lg_search *s) {
  for (size_t k = 0; k < r->ndirty; k++) {
    int x = r->dirty[k] % r->W, y = r->dirty[k] / r->W;
    r->dirty_mark[r->dirty[k]] = 0;
    if (x >= a.px && x < a.kx && y >= a.py && y < a.ky) {
      if (s) lg_search_forget(s, x - a.px, y - a.py);
      else c->known[(x - a.px) * c->ah + (y - a.py)] = 0;
    }
  }
  r->ndirty = 0;
}

/* Whether a cell of cost 1 is one no element governs (the cost no element
** has): then a search's cells of cost 1 run nothing (see connect_rounds). */
static int one_is_free(const gen *g) {
  for (size_t i = 0; i < g->nelems; i++)
    if (g->elems[i].has_cost && g->elems[i].cost == 1) return 0;
  return 1;
}

/* The rounds with lg_search: the same searches as connect_pair's. With
** costs kept and no element of cost 1 (one_is_free), a round whose ends a staircase
** of cost-1 cells joins carves nothing (every cell of its path costs 1,
** lg_search_straight) and is not searched; and a path cell whose kept cost
** is 1 and which nothing changed since the search runs nothing. */
static int connect_rounds(run *r, const gen *g, rect a, connect_state *c, const int32_t *points, size_t np) {
  gov_memo memo;
  memo.on = -1;
  cost_ctx cc = {r, g, a, &memo};
  int shortcuts = c->keep_costs && one_is_free(g);
  lg_search *s = lg_search_new(c->aw, c->ah, c->keep_costs, governed_cost, &cc);
  int32_t *path = strata_malloc((size_t)c->aw * c->ah * sizeof *path);
  int st = OK;
  if (s == NULL || path == NULL) {
    st = ERROR;
    strata_error_nomem(r->err, "running Connect");
  }
  for (int round = 0; round < CONNECT_ROUNDS && np > 0 && st == OK; round++) {
    int p1 = points[strata_rng_below(r->rng, np)], p2 = points[strata_rng_below(r->rng, np)];
    if (p1 == p2) continue;
    if (c->keep_costs) forget_dirty(r, a, c, s);
    int i1 = p1 / c->ah, j1 = p1 % c->ah, i2 = p2 / c->ah, j2 = p2 % c->ah;
    if (shortcuts && lg_search_straight(s, i1, j1, i2, j2)) continue;
    size_t len;
    if (!lg_search_path(s, i1, j1, i2, j2, path, &len)) continue;
    for (size_t k = 0; k < len && st == OK; k++) {
      int i = path[k] / c->ah, j = path[k] % c->ah, x = a.px + i, y = a.py + j;
      if (shortcuts && lg_search_cost(s, i, j) == 1 && !r->dirty_mark[(size_t)y * (size_t)r->W + (size_t)x])
        continue;
      int e = governing_of(r, g, &memo, x, y);
      if (e >= 0) st = sub(r, g, g->elems[e].gen, rect2(x, y, x + 1, y + 1));
    }
  }
  lg_search_free(s);
  strata_free(path);
  return st;
}

NOINLINE static int connect(run *r, const gen *g, rect a) {
  connect_state c = {0};
  c.aw = a.kx - a.px, c.ah = a.ky - a.py;
  if (c.aw <= 0 || c.ah <= 0) return OK;
  size_t n = (size_t)c.aw * c.ah;
  int whole = whole_costs(g, a);
  /* When every element's predicate looks only at the cell and draws nothing,
  ** a cell's cost changes only when the cell does: keep costs across the
  ** searches and forget those of the cells carved since. */
  c.keep_costs = !r->tracking;
  for (size_t i = 0; i < g->nelems && c.keep_costs; i++)
    if (g->elems[i].pred && (g->elems[i].pred->random || g->elems[i].pred->nonlocal)) c.keep_costs = 0;
  if (c.keep_costs) {
    size_t cells = (size_t)r->W * r->H;
    c.known = whole ? NULL : strata_calloc(n, 1);
    r->dirty_mark = strata_calloc(cells, 1);
    r->dirty = strata_malloc(cells * sizeof *r->dirty);
    if ((!whole && c.known == NULL) || r->dirty_mark == NULL || r->dirty == NULL) {
      strata_free(c.known), strata_free(r->dirty_mark), strata_free(r->dirty);
      r->dirty_mark = NULL, r->dirty = NULL;
      strata_error_nomem(r->err, "running Connect");
      return ERROR;
    }
    r->tracking = 1, r->ndirty = 0;
  }
  int32_t *points = strata_malloc(n * sizeof *points);
  int st = OK;
  if (!whole) {
    c.stamp = strata_calloc(n, sizeof *c.stamp), c.cost_stamp = strata_calloc(n, sizeof *c.cost_stamp);
    c.g = strata_malloc(n * sizeof *c.g), c.cost = strata_malloc(n * sizeof *c.cost);
    c.parent = strata_malloc(n * sizeof *c.parent), c.closed = strata_malloc(n);
    c.cap = 4 * n + 16, c.heap = strata_malloc(c.cap * sizeof *c.heap);
  }
  if (!points || (!whole && (!c.stamp || !c.cost_stamp || !c.g || !c.cost || !c.parent || !c.closed || !c.heap))) {
    st = ERROR;
    strata_error_nomem(r->err, "running Connect");
    goto done;
  }
  size_t np = 0;
  for (int i = 0; i < c.aw; i++)
    for (int j = 0; j < c.ah; j++)
      if (pred(r, g->pred, a.px + i, a.py + j)) points[np++] = i * c.ah + j;
  if (whole) {
    st = connect_rounds(r, g, a, &c, points, np);
    goto done;
  }
  for (int round = 0; round < CONNECT_ROUNDS && np > 0 && st == OK; round++) {
    int p1 = points[strata_rng_below(r->rng, np)], p2 = points[strata_rng_below(r->rng, np)];
    if (p1 != p2) st = connect_pair(r, g, a, &c, p1, p2);
  }
done:
  strata_free(points), strata_free(c.stamp), strata_free(c.cost_stamp), strata_free(c.g), strata_free(c.cost), strata_free(c.parent);
  strata_free(c.closed), strata_free(c.heap);
  if (c.keep_costs) {
    strata_free(c.known), strata_free(r->dirty_mark), strata_free(r->dirty);
    r->dirty_mark = NULL, r->dirty = NULL, r->tracking = 0, r->ndirty = 0;
  }
  return st;
}

/* ---- FloodFill ---- */
NOINLINE static int floodfill(run *r, const gen *g, rect a) {
  size_t n = (size_t)r->W * r->H;
  uint8_t *seen = strata_calloc(n, 1);
  uint32_t *queue = strata_malloc(n * sizeof *queue); /* cells as x << 16 | y: no division to go back */
  size_t head = 0, tail = 0;
  int st = OK;
  if (seen == NULL || queue == NULL) {
    st = ERROR;
    strata_error_nomem(r->err, "running FloodFill");
    goto done;
  }
  /* The usual fill: a pure predicate on the token bits, and an edit. A pure
  ** predicate reads only its own cell and an edit writes only its own, so
  ** a cell's test is the same before and after its neighbours' edits: the
  ** edits can wait until the fill is done, and go straight to the cells. */
  const gen *p = g->pred, *e = g->gen;
  if (p && p->pure && p->run != r->id && prepare_pure(r, (gen *)p)) {
    st = ERROR;
    goto done;
  }
  int bits = p && p->pure && p->small;
  int later = bits && is_edit(e);
  if (later) {
    /* Nothing changes while it floods, so a cell's test gives the same
    ** answer every time a neighbour reaches it: test each cell once, and
    ** mark a refused one (2) as well as a visited one (1). */
    int W = r->W, H = r->H;
#define TRY(c, x, y)                                                           \
  do {                                                                         \
    if (!seen[c]) {                                                            \
      seen[c] = pure_eval(p, r->mask[c]) ? 1 : 2;                              \
      if (seen[c] == 1) queue[tail++] = (uint32_t)(x) << 16 | (uint32_t)(y);   \
    }                                                                          \
  } while (0)
    for (int x = a.px; x < a.kx; x++)
      for (int y = a.py; y < a.ky; y++)
        if (in_map(r, x, y)) TRY((size_t)y * W + x, x, y);
    while (head < tail) {
      int x = (int)(queue[head] >> 16), y = (int)(queue[head] & 0xffff);
      size_t c = (size_t)y * W + x;
      head++;
      /* KeeperRL's order: (x, y+1), (x+1, y), (x, y-1), (x-1, y) */
      if (y + 1 < H) TRY(c + W, x, y + 1);
      if (x + 1 < W) TRY(c + 1, x + 1, y);
      if (y > 0) TRY(c - W, x, y - 1);
      if (x > 0) TRY(c - 1, x - 1, y);
    }
#undef TRY
  }
#define FILLS(x, y) (bits ? pure_eval(p, r->mask[(size_t)(y) * r->W + (x)]) : pred(r, p, (x), (y)))
#define VISIT(x, y)                                                            \
  do {                                                                         \
    seen[(size_t)(y) * r->W + (x)] = 1;                                        \
    queue[tail++] = (uint32_t)(x) << 16 | (uint32_t)(y);                       \
    st = sub(r, g, e, (rect){(x), (y), (x) + 1, (y) + 1});                     \
  } while (0)
  static const int DX[4] = {0, 1, 0, -1}, DY[4] = {1, 0, -1, 0};
  if (!later) {
    for (int x = a.px; x < a.kx && st == OK; x++)
      for (int y = a.py; y < a.ky && st == OK; y++)
        if (in_map(r, x, y) && !seen[(size_t)y * r->W + x] && FILLS(x, y)) VISIT(x, y);
    while (head < tail && st == OK) {
      int ux = (int)(queue[head] >> 16), uy = (int)(queue[head] & 0xffff);
      head++;
      for (int d = 0; d < 4 && st == OK; d++) {
        int x = ux + DX[d], y = uy + DY[d];
        if (in_map(r, x, y) && !seen[(size_t)y * r->W + x] && FILLS(x, y)) VISIT(x, y);
      }
    }
  }
#undef VISIT
#undef FILLS
  if (later && st == OK) {
    const strata_token *t = ids(r, e);
    if (t == NULL && e->ntokens) st = ERROR;
    /* a loop per kind, as in edit() */
#define CELLS(kind)                                                              \
  for (size_t k = 0; k < tail && st == OK; k++) {                                \
    int x = (int)(queue[k] >> 16), y = (int)(queue[k] & 0xffff);                 \
    st = edit_cell(r, kind, e, t, (uint32_t)y * (uint32_t)r->W + (uint32_t)x, x, y); \
  }
    EDIT_KINDS(st == OK ? e->kind : LG_NONE)
#undef CELLS
    r->m->revision++;
  }
done:
  strata_free(seen), strata_free(queue);
  return st;
}

/* ---- the dispatcher ---- */
static int run_gen(run *r, const gen *g, rect a);

/* Filter's cells for one kind of test, in a function of its own per kind so
** that the usual loop (filter) keeps no test of the kind per cell. */
#define FILTER_CELLS(test)                                                                   \
  for (int x = a.px; x < a.kx; x++)                                                          \
    for (int y = a.py; y < a.ky; y++) {                                                      \
      int yes = (test);                                                                      \
      const gen *c = yes ? g->gen : g->alt;                                                  \
      if (c == NULL) continue;                                                               \
      int st;                                                                                \
      if (is_edit(c))                                                                        \
        st = edit_cell(r, c->kind, c, yes ? tg : ta, (uint32_t)y * (uint32_t)r->W + (uint32_t)x, x, y); \
      else st = run_gen(r, c, (rect){x, y, x + 1, y + 1});                                   \
      if (st) return st;                                                                     \
    }                                                                                        \
  r->m->revision++;                                                                          \
  return OK;

/* An And of token-bit terms (Translates among them). */
NOINLINE static int filter_terms(run *r, const gen *g, rect a, const strata_token *tg, const strata_token *ta) {
  const gen *p = g->pred;
  FILTER_CELLS(terms_hold(r, p, x, y))
}

/* The edits of a Filter whose answers were all known ahead (ans: 1 or 0
** per cell of A, row by row): g->gen's edit on the cells answered 1, then
** g->alt's on the others, a loop per kind. Both branches are edits or
** nothing, and an edit reads and writes its own cell only, so the edits of
** different cells commute: the passes make what the cell-by-cell loop makes. */
static int apply_answers(run *r, const gen *g, rect a, const uint8_t *ans, const strata_token *tg,
                         const strata_token *ta) {
  size_t aw = (size_t)(a.kx - a.px);
  int st = OK;
  for (int want = 1; want >= 0 && st == OK; want--) {
    const gen *e = want ? g->gen : g->alt;
    const strata_token *t = want ? tg : ta;
    if (e == NULL) continue;
#define CELLS(kind)                                                                       \
  for (int x = a.px; x < a.kx && st == OK; x++)                                           \
    for (int y = a.py; y < a.ky && st == OK; y++)                                         \
      if (ans[(size_t)(y - a.py) * aw + (size_t)(x - a.px)] == want)                      \
        st = edit_cell(r, kind, e, t, (uint32_t)y * (uint32_t)r->W + (uint32_t)x, x, y);
    EDIT_KINDS(e->kind)
#undef CELLS
  }
  r->m->revision++;
  return st;
}

enum { FLAT_TERMS = 16 };

/* Whether branch e (an edit with ids t, or nothing) leaves the token bits b
** of every cell as they were: Set, SetFront or Remove of other tokens. */
static int keeps_bits(const gen *e, const strata_token *t, uint64_t b) {
  if (e == NULL) return 1;
  if (!is_edit(e) || e->kind == LG_RESET) return 0;
  for (size_t i = 0; i < e->ntokens; i++)
    if (bit_of(t[i]) & b) return 0;
  return 1;
}

/* Whether every term of And p is one test of the token bits (gen.general
** clear) read on the map wherever the area puts it; then the offset of each
** term's cell from the cell tested goes into off. */
static int flat_terms(const run *r, const gen *p, rect a, ptrdiff_t *off) {
  if (p->nkids > FLAT_TERMS) return 0;
  for (size_t i = 0; i < p->nkids; i++) {
    const lg_term *t = &p->terms[i];
    if (t->p->general || a.px + t->dx < 0 || a.py + t->dy < 0 || a.kx + t->dx > r->W || a.ky + t->dy > r->H) return 0;
    off[i] = (ptrdiff_t)t->dy * r->W + t->dx;
  }
  return 1;
}

/* The terms of filter_flat: one test of the bits at an offset each. */
typedef struct flat_term { ptrdiff_t off; uint64_t ebits, ewant; int eneg; } flat_term;

static inline int flat_holds(const uint64_t *mask, const flat_term *t, size_t n) {
  int ok = 1;
  for (size_t i = 0; i < n; i++) ok &= ((mask[t[i].off] & t[i].ebits) == t[i].ewant) != t[i].eneg;
  return ok;
}

/* filter_terms for flat_terms: every term tested without a branch. */
NOINLINE static int filter_flat(run *r, const gen *g, rect a, const strata_token *tg, const strata_token *ta,
                                const ptrdiff_t *off) {
  const gen *p = g->pred;
  size_t n = p->nkids;
  flat_term t[FLAT_TERMS];
  for (size_t i = 0; i < n; i++) {
    const gen *q = p->terms[i].p;
    t[i] = (flat_term){off[i], q->ebits, q->ewant, q->eneg};
  }
  uint64_t read = 0;
  for (size_t i = 0; i < n; i++) read |= t[i].ebits;
  uint8_t *ans = NULL;
  size_t aw = (size_t)(a.kx - a.px);
  /* When no branch changes a bit the terms read, every cell's answer is
  ** known before the edits: the terms are tested row by row, term by term
  ** (loops the compiler makes wide), and the edits follow in the usual order. */
  if (keeps_bits(g->gen, tg, read) && keeps_bits(g->alt, ta, read) &&
      (ans = strata_malloc(aw * (size_t)(a.ky - a.py))) != NULL) {
    for (int y = a.py; y < a.ky; y++) {
      uint8_t *row = ans + (size_t)(y - a.py) * aw;
      memset(row, 1, aw);
      for (size_t i = 0; i < n; i++) {
        const uint64_t *m = r->mask + (ptrdiff_t)y * r->W + a.px + t[i].off;
        uint64_t eb = t[i].ebits, ew = t[i].ewant;
        uint8_t en = (uint8_t)t[i].eneg;
        for (size_t x = 0; x < aw; x++) row[x] &= (uint8_t)(((m[x] & eb) == ew) ^ en);
      }
    }
    int st = apply_answers(r, g, a, ans, tg, ta);
    strata_free(ans);
    return st;
  }
  FILTER_CELLS(flat_holds(r->mask + (ptrdiff_t)y * r->W + x, t, n))
}

/* Area(radius, On(t), minCount) with t small: the cellular automata's count
** of live neighbours, on rows of token bits, stopping at minCount. */
static inline int area_on(const run *r, const gen *p, uint64_t b, int x, int y) {
  int x0 = x - p->ival < 0 ? 0 : x - p->ival, x1 = x + p->ival >= r->W ? r->W - 1 : x + p->ival;
  int y0 = y - p->ival < 0 ? 0 : y - p->ival, y1 = y + p->ival >= r->H ? r->H - 1 : y + p->ival;
  int count = 0;
  for (int j = y0; j <= y1; j++) {
    const uint64_t *row = r->mask + (size_t)j * (size_t)r->W;
    for (int i = x0; i <= x1; i++) count += (row[i] & b) != 0;
    if (count >= p->ival2) return 1;
  }
  return count >= p->ival2;
}

NOINLINE static int filter_area(run *r, const gen *g, rect a, const strata_token *tg, const strata_token *ta,
                                uint64_t b) {
  const gen *p = g->pred;
  FILTER_CELLS(area_on(r, p, b, x, y))
}


/* filter_area when no branch changes bit b, so that a cell's count is the
** same before and after its neighbours' edits: the counts come from sums of
** the bits over the area grown by the radius, made once (one pass over the
** cells, four reads a cell, instead of (2 radius + 1)^2 reads a cell). */
NOINLINE static int filter_area_sums(run *r, const gen *g, rect a, const strata_token *tg, const strata_token *ta,
                                     uint64_t b) {
  const gen *p = g->pred;
  int R = p->ival, k = p->ival2, ah = a.ky - a.py;
  int x0 = a.px - R < 0 ? 0 : a.px - R, x1 = a.kx + R > r->W ? r->W : a.kx + R;
  int y0 = a.py - R < 0 ? 0 : a.py - R, y1 = a.ky + R > r->H ? r->H : a.ky + R;
  size_t cw = (size_t)(x1 - x0) + 1; /* sum[(y - y0) * cw + (x - x0)]: the bits of [x0, x) x [y0, y) */
  size_t nsum = cw * ((size_t)(y1 - y0) + 1);
  /* the sums, then per row of A the offsets of its window's first and last rows */
  size_t aw = (size_t)(a.kx - a.px);
  int32_t *sum = strata_malloc((nsum + 2 * (size_t)ah) * sizeof *sum + aw * (size_t)ah), *top = sum + nsum, *bot = top + ah;
  if (sum == NULL) return nomem_edit(r);
  uint8_t *ans = (uint8_t *)(bot + ah);
  for (size_t i = 0; i < cw; i++) sum[i] = 0;
  for (int y = y0; y < y1; y++) {
    const uint64_t *row = r->mask + (size_t)y * (size_t)r->W;
    int32_t *up = sum + (size_t)(y - y0) * cw, *s = up + cw, run_sum = 0;
    s[0] = 0;
    for (int x = x0; x < x1; x++) run_sum += (row[x] & b) != 0, s[x - x0 + 1] = up[x - x0 + 1] + run_sum;
  }
  for (int y = a.py; y < a.ky; y++) {
    top[y - a.py] = (int32_t)((size_t)((y - R < y0 ? y0 : y - R) - y0) * cw);
    bot[y - a.py] = (int32_t)((size_t)((y + R + 1 > y1 ? y1 : y + R + 1) - y0) * cw);
  }
  for (int y = a.py; y < a.ky; y++) {
    const int32_t *t0 = sum + top[y - a.py], *t1 = sum + bot[y - a.py];
    uint8_t *row = ans + (size_t)(y - a.py) * aw;
    for (int x = a.px; x < a.kx; x++) {
      int lo = (x - R < x0 ? x0 : x - R) - x0, hi = (x + R + 1 > x1 ? x1 : x + R + 1) - x0;
      row[x - a.px] = t1[hi] - t1[lo] - t0[hi] + t0[lo] >= k;
    }
  }
  int st = apply_answers(r, g, a, ans, tg, ta);
  strata_free(sum);
  return st;
}

/* A Filter whose answers can all be known before its edits: both branches
** edits or nothing, and a predicate that is one test of bits the branches
** leave alone, or a Chance (it reads no cell, and draws in the cells' order
** as before). 1 when done (*st set), 0 when it is not such a Filter. */
NOINLINE static int filter_ahead(run *r, const gen *g, rect a, const strata_token *tg, const strata_token *ta,
                                 int *st) {
  const gen *p = g->pred;
  if ((g->gen && !is_edit(g->gen)) || (g->alt && !is_edit(g->alt))) return 0;
  int chance = p->kind == LP_CHANCE;
  if (!chance && (p->general || !keeps_bits(g->gen, tg, p->ebits) || !keeps_bits(g->alt, ta, p->ebits))) return 0;
  size_t aw = (size_t)(a.kx - a.px), ah = (size_t)(a.ky - a.py);
  uint8_t *ans = strata_malloc(aw * ah);
  if (ans == NULL) return 0;
  if (chance) {
    for (size_t i = 0; i < aw; i++)
      for (size_t j = 0; j < ah; j++) ans[j * aw + i] = strata_rng_float(r->rng) <= p->dval;
  } else {
    uint64_t eb = p->ebits, ew = p->ewant;
    uint8_t en = (uint8_t)p->eneg;
    for (size_t j = 0; j < ah; j++) {
      const uint64_t *m = r->mask + (size_t)(a.py + (int)j) * (size_t)r->W + (size_t)a.px;
      for (size_t i = 0; i < aw; i++) ans[j * aw + i] = (uint8_t)(((m[i] & eb) == ew) ^ en);
    }
  }
  *st = apply_answers(r, g, a, ans, tg, ta);
  strata_free(ans);
  return 1;
}

NOINLINE static int filter(run *r, const gen *g, rect a) {
  /* edits, the usual branches, go to the cell without a dispatch */
  const strata_token *tg = NULL, *ta = NULL;
  if (is_edit(g->gen) && (tg = ids(r, g->gen)) == NULL && g->gen->ntokens) return ERROR;
  if (is_edit(g->alt) && (ta = ids(r, g->alt)) == NULL && g->alt->ntokens) return ERROR;
  /* a pure predicate on the token bits straight away (A is on the map) */
  const gen *p = g->pred;
  int bits = p && p->pure && (p->run == r->id || prepare_pure(r, (gen *)p) == OK) && p->small;
  /* an And of token-bit terms (Translates among them) without a walk per cell */
  if (!bits && p && p->kind == LP_AND && (p->run == r->id || prepare(r, (gen *)p) == OK) && p->terms &&
      p->terms_pure) {
    ptrdiff_t off[FLAT_TERMS];
    return flat_terms(r, p, a, off) ? filter_flat(r, g, a, tg, ta, off) : filter_terms(r, g, a, tg, ta);
  }
  if (!bits && p && p->kind == LP_AREA && p->pred->kind == LP_ON) {
    const strata_token *t = ids(r, p->pred);
    uint64_t b = t && t[0] < 64 ? (uint64_t)1 << t[0] : 0;
    if (b && p->ival >= 0 && keeps_bits(g->gen, tg, b) && keeps_bits(g->alt, ta, b))
      return filter_area_sums(r, g, a, tg, ta, b);
    if (b) return filter_area(r, g, a, tg, ta, b);
  }
  int st;
  if ((bits || (p && p->kind == LP_CHANCE)) && a.kx > a.px && a.ky > a.py && filter_ahead(r, g, a, tg, ta, &st)) return st;
  for (int x = a.px; x < a.kx; x++)
    for (int y = a.py; y < a.ky; y++) {
      int yes = bits ? pure_eval(p, r->mask[(size_t)y * (size_t)r->W + (size_t)x]) : pred(r, p, x, y);
      const gen *c = yes ? g->gen : g->alt;
      if (c == NULL) continue;
      if (is_edit(c)) st = edit_cell(r, c->kind, c, yes ? tg : ta, (uint32_t)y * (uint32_t)r->W + (uint32_t)x, x, y);
      else st = run_gen(r, c, (rect){x, y, x + 1, y + 1});
      if (st) return st;
    }
  r->m->revision++;
  return OK;
}

NOINLINE static int margins(run *r, const gen *g, rect a) {
  int w = g->ival, st;
  if ((st = sub(r, g, g->alt, rect4(a.px + w, a.py + w, a.kx - w, a.ky - w)))) return st;
  if ((st = sub(r, g, g->gen, rect2(a.px, a.py, a.kx, a.py + w)))) return st;
  if ((st = sub(r, g, g->gen, rect2(a.kx - w, a.py + w, a.kx, a.ky)))) return st;
  if ((st = sub(r, g, g->gen, rect2(a.px, a.ky - w, a.kx - w, a.ky)))) return st;
  return sub(r, g, g->gen, rect2(a.px, a.py + w, a.px + w, a.ky - w));
}

NOINLINE static int margin_impl(run *r, const gen *g, rect a) {
  int w = g->ival, st;
  rect b, in;
  switch ((lg_margin)g->ival2) {
  case LG_TOP: b = rect2(a.px, a.py, a.kx, a.py + w), in = rect2(a.px, a.py + w, a.kx, a.ky); break;
  case LG_BOTTOM: b = rect2(a.px, a.ky - w, a.kx, a.ky), in = rect2(a.px, a.py, a.kx, a.ky - w); break;
  case LG_LEFT: b = rect2(a.px, a.py, a.px + w, a.ky), in = rect2(a.px + w, a.py, a.kx, a.ky); break;
  default: b = rect2(a.kx - w, a.py, a.kx, a.ky), in = rect2(a.px, a.py, a.kx - w, a.ky); break;
  }
  if ((st = sub(r, g, g->gen, b))) return st;
  return sub(r, g, g->alt, in);
}

NOINLINE static int split(run *r, const gen *g, rect a) {
  int st;
  if (g->kind == LG_SPLITH) {
    int s = (int)trunc(a.px + (a.kx - a.px) * g->dval);
    if ((st = sub(r, g, g->gen, rect2(a.px, a.py, s, a.ky)))) return st;
    return sub(r, g, g->alt, rect2(s, a.py, a.kx, a.ky));
  }
  int s = (int)trunc(a.py + (a.ky - a.py) * g->dval);
  if ((st = sub(r, g, g->gen, rect2(a.px, a.py, a.kx, s)))) return st;
  return sub(r, g, g->alt, rect2(a.px, s, a.kx, a.ky));
}

NOINLINE static int choose(run *r, const gen *g, rect a) {
  double sum = 0;
  for (size_t i = 0; i < g->nelems; i++) sum += g->elems[i].chance;
  double u = strata_rng_float(r->rng) * sum, run_sum = 0;
  size_t pick = g->nelems - 1;
  for (size_t i = 0; i < g->nelems; i++) {
    run_sum += g->elems[i].chance;
    if (run_sum > u) { pick = i; break; }
  }
  return run_gen(r, g->elems[pick].gen, a);
}

/* The dispatcher: only calls, so that no case's locals or vector code make
** every call pay for setting them up. */
static int run_gen(run *r, const gen *g, rect a) {
  switch (g->kind) {
  case LG_NONE: return OK;
  case LG_FAIL: return soft_fail(r, g, "(Fail)");
  case LG_SET: case LG_SETFRONT: case LG_RESET: case LG_REMOVE: return edit(r, g, a);
  case LG_FILTER: return filter(r, g, a);
  case LG_MARGINS: return margins(r, g, a);
  case LG_MARGIN_IMPL: return margin_impl(r, g, a);
  case LG_SPLITH: case LG_SPLITV: return split(r, g, a);
  case LG_POSITION: return position(r, g, a);
  case LG_PLACE: return place(r, g, a);
  case LG_NOISEMAP: return noisemap(r, g, a);
  case LG_CHAIN:
    for (size_t i = 0; i < g->nkids; i++) {
      int st = run_gen(r, g->kids[i], a);
      if (st) return st;
    }
    return OK;
  case LG_CHOOSE: return choose(r, g, a);
  case LG_CONNECT: return connect(r, g, a);
  case LG_REPEAT: {
    int n = (int)strata_rng_int(r->rng, g->range_lo, g->range_hi - 1);
    for (int i = 0; i < n; i++) {
      int st = run_gen(r, g->gen, a);
      if (st) return st;
    }
    return OK;
  }
  case LG_FLOODFILL: return floodfill(r, g, a);
  default: return config_error(r, g, "%s is a predicate, not a generator", gen_name(g));
  }
}

strata_status strata_layout_run(const strata_layout_gen *g, strata_tilemap *m, strata_rng *rng,
                                strata_layout_result *result, char *why, size_t cap,
                                strata_error *err) {
  if (g == NULL || m == NULL || rng == NULL || result == NULL)
    return strata_error_in(err, STRATA_EARG, "strata_layout_run", "NULL argument");
  run r = {0};
  r.m = m, r.W = strata_tilemap_width(m), r.H = strata_tilemap_height(m), r.rng = rng;
  r.tokens = strata_tilemap_tokens(m), r.err = err, r.why = why, r.cap = cap;
  if (why && cap) why[0] = 0;
  r.id = ++*g->runs;
  r.mask = strata_malloc(((size_t)r.W * (size_t)r.H + 1) * sizeof *r.mask);
  if (r.mask == NULL) return strata_error_nomem(err, "running a layout");
  for (int y = 0; y < r.H; y++)
    for (int x = 0; x < r.W; x++) r.mask[(size_t)y * (size_t)r.W + (size_t)x] = cell_mask(m, x, y, &r.dups);
  /* Every chunk is stamped as edited (for saves, tilemap_touch_xy): once here,
  ** not per cell edit, which cost layouts 5-8 %. */
  tilemap_touch_rect(m, 0, 0, r.W, r.H);
  strata_error local;
  if (err == NULL) r.err = &local;
  int st = run_gen(&r, g, rect2(0, 0, r.W, r.H));
  strata_free(r.mask);
  if (st == ERROR) return r.err->status ? r.err->status : STRATA_EARG;
  *result = st == FAILED ? STRATA_LAYOUT_FAILED : STRATA_LAYOUT_OK;
  return STRATA_OK;
}
