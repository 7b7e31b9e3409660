/* layout_internal.h - the layout language's tokens and trees, shared by the
** reader (layout_text.c, layout_parse.c) and the interpreter (layout_run.c). */
#ifndef STRATA_LAYOUT_INTERNAL_H
#define STRATA_LAYOUT_INTERNAL_H

#include <stdint.h>

#include "strata/layout.h"

/* ---- tokens after lexing and macro expansion ---- */
typedef enum lt_kind { LT_WORD, LT_STRING, LT_PUNCT, LT_END } lt_kind;

typedef struct lt_token {
  lt_kind kind;
  const char *text;   /* NUL-terminated; strings without quotes, escapes resolved */
  int line, col;      /* where it was written (for macro bodies: in the body) */
  int call_line;      /* > 0: it came from a macro called at this line */
} lt_token;

typedef struct lt_list {
  lt_token *items;
  size_t len, cap;
} lt_list;

/* An arena: every string and node of a file lives in it and goes with it. */
typedef struct lt_arena_block lt_arena_block;
typedef struct lt_arena {
  lt_arena_block *head;
} lt_arena;

void *lt_alloc(lt_arena *a, size_t n);             /* zeroed; NULL on ENOMEM */
char *lt_strndup(lt_arena *a, const char *s, size_t n);
void lt_arena_free(lt_arena *a);

/* Lexes text and expands its macros into out. 0, or an error status. */
/* A parse error at line:col of the text called name: the message reads
** "NAME:LINE:COL: what" and err's line and column fields are filled too.
** Returns STRATA_EPARSE. */
strata_status lt_fail(strata_error *err, const char *name, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 5, 6)))
#endif
  ;
strata_status lt_expand(lt_arena *a, const char *text, size_t len, const char *name, lt_list *out,
                        strata_error *err);

/* ---- trees ---- */
typedef enum lg_kind {
  /* generators */
  LG_NONE, LG_FAIL, LG_SET, LG_SETFRONT, LG_RESET, LG_REMOVE, LG_FILTER, LG_MARGINS,
  LG_MARGIN_IMPL, LG_SPLITH, LG_SPLITV, LG_POSITION, LG_PLACE, LG_NOISEMAP, LG_CHAIN,
  LG_CHOOSE, LG_CONNECT, LG_REPEAT, LG_FLOODFILL,
  /* predicates */
  LP_ON, LP_NOT, LP_TRUE, LP_AND, LP_OR, LP_CHANCE, LP_AREA, LP_XMOD, LP_YMOD, LP_TRANSLATE
} lg_kind;

typedef struct lg_vec2 { int x, y; } lg_vec2;

/* A pure predicate that is a conjunction of tests on the bits of one node
** each (On, Not On, an Or or And of Ons, their Not, And of those) is run as
** that flat list: one mask test per clause instead of a walk of the tree. */
typedef enum lg_clause_kind { LC_ANY, LC_NONE, LC_ALL, LC_NOT_ALL } lg_clause_kind;
typedef struct lg_clause {
  lg_clause_kind kind;
  const struct strata_layout_gen *src; /* whose bits (On, or a flat And/Or) */
  uint64_t bits;                       /* src's bits, copied for the run */
} lg_clause;
#define LG_MAX_CLAUSES 8

/* A term of an And that is not pure (it has a Translate, Area or Chance):
** a pure predicate on small tokens read at an offset from the cell (an
** offset kid is a Translate: false off the map), or any other predicate. */
typedef struct lg_term {
  int dx, dy;
  int translated;
  const struct strata_layout_gen *p;     /* pure on small tokens, or NULL */
  const struct strata_layout_gen *other; /* p == NULL: asked with pred() */
} lg_term;

/* One element of Place, Connect, NoiseMap or Choose. */
typedef struct lg_elem {
  struct strata_layout_gen *gen;   /* generator (all) */
  struct strata_layout_gen *pred;  /* Place: predicate; Connect: predicate */
  int has_size, has_min, has_max;
  lg_vec2 size, min_size, max_size;
  int count_lo, count_hi;          /* Place: count range [lo, hi) */
  int min_spacing;
  int has_cost;                    /* Connect: cost, or none (impassable) */
  double cost;
  double lower, upper;             /* NoiseMap band */
  double chance;                   /* Choose: the weight (given or shared) */
} lg_elem;

struct strata_layout_gen {
  /* What a predicate test reads comes first, in one cache line: a run visits
  ** hundreds of nodes per cell pass, and each further line touched costs. */
  lg_kind kind;
  /* A pure predicate on small tokens that is one test of the cell's token
  ** bits m, ((m & ebits) == ewant) != eneg (On, Not On, flat Or and And,
  ** their Not, True), else `general` (see pure_pred). A prepared form (see
  ** `changed`). */
  int general, eneg;
  uint64_t ebits, ewant;
  /* A predicate of On, Not, And, Or and True only: a function of the cell's
  ** tokens, so of its token bits when every id is below 64. */
  int pure;
  int flat;                        /* And or Or whose children are all On */
  int small;                       /* pure predicates: every token's id is below 64 (a form) */
  int nclauses;
  /* Caches of one run, valid while `run` equals the file's run counter (a
  ** number no earlier run had, so nothing has to be cleared between runs).
  ** The ids are interned anew in every run (each map may have its own token
  ** table); the forms made from them (bits, small, clause bits, the one test,
  ** terms) are kept across runs and made again only when an id they read
  ** changed: `changed` is the run in which a pure predicate's forms last
  ** changed, so forms made in run `run` still hold while the node's own ids
  ** come out the same and no child's `changed` is later. `run` is 0 before
  ** the first preparation, and after a pure predicate's failed one. */
  uint64_t run;                    /* the run the caches belong to */
  uint64_t bits;                   /* pure predicates: the On bits (see `flat`) */
  lg_clause *clauses;              /* pure predicates of that form (see lg_clause), else NULL */
  strata_token *ids;               /* tokens interned in the run's token table */
  lg_term *terms;                  /* And that is not pure: its kids as terms (the file's arena) */
  int terms_pure;                  /* every term reads token bits (none is `other`) */
  struct strata_layout_gen *pred;  /* Filter, FloodFill, Connect toConnect, Not, Area, Translate */
  /* children: generators or predicates by kind */
  struct strata_layout_gen **kids;
  size_t nkids;
  /* tokens (Set, SetFront, Reset, Remove, On) */
  const char **tokens;
  size_t ntokens;
  uint64_t *runs;                  /* the file's run counter */
  int line, col;                   /* where it was written */
  const char *form;                /* the name written, when a built-in reads it as another
                                      ("Border (as Margins)"): what its errors name; else NULL */
  lg_elem *elems;
  size_t nelems;
  int placed_count;                /* Place(N, ...): N, else 0 */
  struct strata_layout_gen *gen, *alt;
  int ival, ival2;                 /* widths, radius, div/mod, margin type, position, minCount */
  double dval;                     /* ratios, chance, exponent */
  int has_size, has_min, has_max;
  lg_vec2 size, min_size, max_size, offset;
  int range_lo, range_hi;          /* Repeat */
  int random;                      /* a predicate that draws (contains Chance) */
  int nonlocal;                    /* a predicate that looks at other cells (Area, Translate) */
  uint64_t changed;                /* the last run that changed its forms (see `run`) */
  uint32_t *lens;                  /* the tokens' lengths, once a run needed them (the file's arena) */
};

typedef enum lg_margin { LG_TOP, LG_BOTTOM, LG_LEFT, LG_RIGHT } lg_margin;
typedef enum lg_position {
  LG_MIDDLE, LG_MIDDLE_V, LG_MIDDLE_H, LG_LEFT_CENTER, LG_RIGHT_CENTER, LG_TOP_CENTER,
  LG_BOTTOM_CENTER, LG_TOP_RIGHT, LG_TOP_LEFT, LG_BOTTOM_RIGHT, LG_BOTTOM_LEFT,
  LG_LEFT_STRETCHED, LG_RIGHT_STRETCHED, LG_BOTTOM_STRETCHED, LG_TOP_STRETCHED
} lg_position;

typedef struct lg_named {
  const char *name;
  struct strata_layout_gen *gen;
} lg_named;

struct strata_layout_file {
  lt_arena arena;                  /* also holds the forms runs keep (gen.terms) */
  uint64_t runs;                   /* runs of its generators so far (see gen.run) */
  lg_named *layouts;
  size_t count;
};

/* ---- NoiseMap (layout_noise.c) ---- */
/* The W x H heights of a NoiseMap of this variance, column-major (x * H + y),
** drawn as KeeperRL draws them. 0, or -1 when out of memory. */
int lg_noise_heights(strata_rng *rng, double variance, int W, int H, double *heights);
/* out = in (n heights) in ascending order. 0, or -1 when out of memory. */
int lg_sort_heights(const double *in, size_t n, double *out);

/* ---- Connect's searches with whole-number costs (layout_connect.c) ---- */
#define LG_IMPASSABLE (-1)
/* The cost to enter cell (i, j) of the area (>= 1), or LG_IMPASSABLE. */
typedef int32_t (*lg_cost_fn)(void *ctx, int i, int j);
typedef struct lg_search lg_search;
/* A search over an aw x ah area. keep_costs: a cell's cost is asked once and
** kept until lg_search_forget; else it is asked again in every search. NULL
** when out of memory. */
lg_search *lg_search_new(int aw, int ah, int keep_costs, lg_cost_fn cost_of, void *ctx);
void lg_search_free(lg_search *s);
void lg_search_forget(lg_search *s, int i, int j);
/* The A* path from (i1, j1) to (i2, j2): its cells from the goal back to the
** one after the start, as i * ah + j, into path (room for aw * ah), their
** number in *len. 1, or 0 when the goal cannot be reached. */
int lg_search_path(lg_search *s, int i1, int j1, int i2, int j2, int32_t *path, size_t *len);
/* Keeping costs: the kept cost of cell (i, j), or a negative number when it
** is impassable or not kept. */
int32_t lg_search_cost(const lg_search *s, int i, int j);
/* Keeping costs: 1 when a staircase of cells of kept cost 1 (each step
** towards (i2, j2)) leads from (i1, j1) to (i2, j2), else 0. Then every
** cell of the path lg_search_path would give costs 1. */
int lg_search_straight(const lg_search *s, int i1, int j1, int i2, int j2);

#endif
