/*
** gridjunction.c - A* and Dijkstra over a map's junctions, on maps of one
** cost, 4 neighbours or 8 with diagonal steps of cost sqrt 2 or 1, where
** most cells lie in corridors (mazes).
**
** Why: in a maze every cell-by-cell search settles the corridors cell by
** cell, though a corridor offers no choice. Here the cells are made into a
** graph once per map (the class grid's serial names it) and the searches
** run over its junctions:
** - Corners may be cut (a diagonal step needs only its destination
**   passable), so a cell's neighbours are its passable neighbours of 8. A
**   cell whose neighbours are all next to each other (a corner of a turn,
**   the end of a dead end) is skipped: any route through it has a cheaper
**   one past it (two steps, at least 2, against one of at most sqrt 2, or
**   1 when diagonals cost 1), so no optimal route needs it except at its
**   ends. Skipping them all at
**   once is safe, since each shortcut joins two of the skipped cell's
**   neighbours, which were neighbours before anything was skipped.
** - At 4 neighbours no two of a cell's neighbours are next to each other:
**   only dead ends (and cells with no neighbour) are skipped, and a
**   corridor's turns are chain cells like its straight runs (a corridor
**   engine's flood settled the maze cell by cell: 198,263 cells for a
**   route of 72,856 steps). Every step is straight, the estimate the
**   Manhattan distance; each connectivity has a graph (and a workspace) of
**   its own.
** - Of the cells kept, those with exactly two kept neighbours are chain
**   cells; the others are junctions. A chain runs from junction to
**   junction; its cells are stored in order with the exact cost from its
**   first junction (straight and diagonal step counts). A ring of chain
**   cells with no junction gets one: its first cell.
** - Diagonal 1 searches the same 8-neighbour graph as sqrt 2: which cells
**   are skipped, kept or junctions depends on the connectivity alone, and
**   the chains count straight and diagonal steps apart. Only the keys
**   change (a + b, the estimate Chebyshev's: the octile one at 1).
** - A search joins the start to the junctions it reaches without passing
**   one (through a kept neighbour when it is skipped: its chain's two
**   ends, or the junction itself), the goal likewise, and runs A* (octile
**   estimate, consistent on the junction graph) or Dijkstra over the
**   junctions; routes that meet no junction (both ends on one chain, or
**   next to each other) are a candidate from the start. The route is then
**   filled in from the chains. (A skipped end needs no more: an optimal
**   route whose inner cells are all kept exists, by the shortcuts above.)
** - A bridge of the junction graph (an edge whose removal splits it) is
**   crossed only toward the side the goal is reached from: on a maze
**   without loops most of the graph hangs off the route by bridges.
** The table's measure (gridjunction_share: junctions per passable cell;
** the maze of docs/benchmarks.md 0.2) takes two bytes a cell; the graph is
** built only where the engine runs, sized by its counts.
** Costs are exact: whole counts of straight and diagonal steps, keyed as
** a + b sqrt 2 (or a + b) in a double, which orders them exactly (see
** gridbidir.c); the cost reported is cell cost x (straight + diagonal x
** the diagonal's cost), the same expression as the other engines'.
*/
#include <math.h>
#include <string.h>

#include "gridengine.h"
#include "gridjunction.h"
#include "strata/alloc.h"

#define NONE JUNCTION_NONE
#define JFLAG JUNCTION_FLAG
#define REV 0x80000000u   /* an edge walking its chain backwards */
#define MAX_ATT 16        /* a skipped end: 8 neighbours, 2 chain ends each */

static const int DX[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
static const int DY[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

/* A way from a search's end to a junction: through the kept cell n (the
** end itself when kept), e steps to n, then along n's chain (end 0 toward
** ja, 1 toward jb) to the junction; a, b in all. */
typedef struct jatt {
  uint32_t junction, n, end;
  uint32_t a, b, ea, eb;
} jatt;

typedef struct jentry {
  double f;
  uint32_t v;
} jentry;

struct grid_junction {
  int eight;       /* 8 neighbours, else 4 */
  double diag;     /* the search's diagonal step: sqrt 2 or 1 (the graph serves both) */
  uint8_t dirs;    /* bit d: direction d of DX, DY is a neighbour */
  /* the measure, from the class grid of this serial (+ 1; 0 none) */
  uint64_t measured;
  uint32_t pw, ph;
  int32_t off[8];
  uint8_t *kept;   /* per padded cell: not skipped (a passable cell whose neighbours are not all next to each other) */
  uint8_t *kmask;  /* per padded cell: bit d when neighbour d is kept */
  uint32_t cell_cap; /* kept and kmask sized for this many padded cells */
  uint32_t candidates, chained; /* kept cells with other than two kept neighbours; with two */
  /* the graph, built from the class grid of this serial (0 none, as measured) */
  uint64_t built;
  uint32_t *tag;   /* per padded cell: 0 wall or skipped, JFLAG | junction, or slot + 1 */
  uint32_t tag_cap, junction_cap, slot_cap;
  uint32_t *jcell; /* per junction: its padded cell */
  uint32_t njunc, passable;
  uint32_t *scell, *schain, *sa, *sb; /* per slot: cell, chain, steps from the chain's ja */
  uint32_t *smap, *jmap, *jx, *jy;     /* map indices of slots and junctions; junctions' x, y */
  uint32_t *tin, *tout; /* per junction: its depth-first interval (see bridges) */
  uint32_t nslot;
  jchain *chain;
  uint32_t nchain, chain_cap;
  uint32_t *eoff; /* per junction + 1: its edges in edge[] */
  jedge *edge;
  uint32_t eoff_cap, edge_cap;
  /* the search, per junction + 2 (start, goal) */
  uint32_t *ga, *gb, *parent, *via, *stamp, *gatt;
  uint32_t gen, node_cap;
  jentry *heap;
  uint32_t len, heap_cap;
};

/* The graph's arrays (not the measure's). */
static void free_graph(struct grid_junction *j) {
  strata_free(j->tag), strata_free(j->jcell);
  strata_free(j->scell), strata_free(j->schain), strata_free(j->sa), strata_free(j->sb);
  strata_free(j->chain), strata_free(j->eoff), strata_free(j->edge);
  strata_free(j->smap), strata_free(j->jmap), strata_free(j->jx), strata_free(j->jy);
  strata_free(j->tin), strata_free(j->tout);
  j->tin = j->tout = NULL;
  j->tag = NULL, j->jcell = NULL, j->scell = j->schain = j->sa = j->sb = NULL;
  j->smap = j->jmap = j->jx = j->jy = NULL;
  j->chain = NULL, j->eoff = NULL, j->edge = NULL;
  j->tag_cap = j->junction_cap = j->slot_cap = 0;
  j->chain_cap = 0, j->eoff_cap = 0, j->edge_cap = 0, j->built = 0;
}

static void free_search(struct grid_junction *j) {
  strata_free(j->ga), strata_free(j->gb), strata_free(j->parent), strata_free(j->via);
  strata_free(j->stamp), strata_free(j->gatt);
  j->ga = j->gb = j->parent = j->via = j->stamp = j->gatt = NULL;
  j->node_cap = 0;
}

void gridjunction_free(struct grid_junction *j) {
  if (j == NULL) return;
  free_graph(j);
  free_search(j);
  strata_free(j->kept), strata_free(j->kmask);
  strata_free(j->heap);
  strata_free(j);
}

size_t gridjunction_memory(const struct grid_junction *j) {
  if (j == NULL) return 0;
  size_t bytes = sizeof *j + (size_t)j->cell_cap * 2 + (size_t)j->tag_cap * 4;
  bytes += (size_t)j->junction_cap * 6 * 4 + (size_t)j->slot_cap * 5 * 4;
  bytes += (size_t)j->eoff_cap * 4 + (size_t)j->edge_cap * sizeof(jedge);
  bytes += (size_t)j->chain_cap * sizeof(jchain) + (size_t)j->node_cap * 6 * 4;
  return bytes + (size_t)j->heap_cap * sizeof(jentry);
}

/* The workspace of *jp for a connectivity, made on first use; a change of
** connectivity drops what was built for the other one. NULL on ENOMEM. */
static struct grid_junction *workspace(struct grid_junction **jp, int eight) {
  if (*jp == NULL && (*jp = strata_calloc(1, sizeof **jp)) == NULL) return NULL;
  struct grid_junction *j = *jp;
  eight = eight != 0;
  if (j->dirs == 0 || j->eight != eight) {
    j->eight = eight, j->measured = 0, j->built = 0;
    j->dirs = 0;
    for (unsigned d = 0; d < 8; d++) j->dirs |= (uint8_t)((eight || DX[d] == 0 || DY[d] == 0) << d);
  }
  return j;
}

/* ---- the graph ---- */

static inline int diagonal(unsigned d) { return DX[d] != 0 && DY[d] != 0; }

/* Whether directions p and q of a cell lead to cells next to each other
** (at 4 neighbours: never, for two of its 4 neighbours). */
static inline int beside(const struct grid_junction *j, unsigned p, unsigned q) {
  const int dx = abs(DX[p] - DX[q]), dy = abs(DY[p] - DY[q]);
  return j->eight ? dx <= 1 && dy <= 1 : dx + dy <= 1;
}

/* The graph's arrays: tags for n padded cells, nj junctions, ns slots; 0
** on ENOMEM. */
static int graph_arrays(struct grid_junction *j, uint32_t n, uint32_t nj, uint32_t ns) {
  if (n <= j->tag_cap && nj <= j->junction_cap && ns <= j->slot_cap) return 1;
  free_graph(j);
  j->tag = strata_calloc(n, sizeof *j->tag);
  j->jcell = strata_calloc(nj, 4), j->jmap = strata_calloc(nj, 4);
  j->jx = strata_calloc(nj, 4), j->jy = strata_calloc(nj, 4);
  j->tin = strata_calloc(nj, 4), j->tout = strata_calloc(nj, 4);
  j->scell = strata_calloc(ns, 4), j->schain = strata_calloc(ns, 4);
  j->sa = strata_calloc(ns, 4), j->sb = strata_calloc(ns, 4), j->smap = strata_calloc(ns, 4);
  if (!j->tag || !j->jcell || !j->scell || !j->schain || !j->sa || !j->sb || !j->smap ||
      !j->jmap || !j->jx || !j->jy || !j->tin || !j->tout) {
    free_graph(j);
    return 0;
  }
  j->tag_cap = n, j->junction_cap = nj, j->slot_cap = ns;
  return 1;
}

/* Skipped cells, kept neighbours, and the count of junctions before
** rings: the table's measure. 0 on ENOMEM. */
static int measure(struct grid_junction *j, const uint8_t *cls, uint32_t pw, uint32_t ph,
                   uint64_t serial) {
  if (j->measured == serial + 1 && j->pw == pw && j->ph == ph) return 1;
  j->measured = 0, j->built = 0;
  if (pw * ph > j->cell_cap) {
    strata_free(j->kept), strata_free(j->kmask);
    j->kept = strata_calloc(pw * ph, 1), j->kmask = strata_calloc(pw * ph, 1);
    j->cell_cap = j->kept && j->kmask ? pw * ph : 0;
    if (!j->cell_cap) return 0;
  }
  j->pw = pw, j->ph = ph;
  for (unsigned d = 0; d < 8; d++) j->off[d] = DY[d] * (int32_t)pw + DX[d];
  /* clique[m]: the neighbours in mask m are all next to each other */
  uint8_t clique[256];
  for (unsigned m = 0; m < 256; m++) {
    clique[m] = 1;
    for (unsigned p = 0; p < 8; p++)
      for (unsigned q = p + 1; q < 8; q++)
        if ((m >> p & 1) && (m >> q & 1) && !beside(j, p, q)) clique[m] = 0;
  }
  memset(j->kept, 0, (size_t)pw * ph);
  memset(j->kmask, 0, (size_t)pw * ph);
  j->passable = 0;
  for (uint32_t y = 1; y + 1 < ph; y++)
    for (uint32_t c = y * pw + 1; c < y * pw + pw - 1; c++) {
      if (!cls[c]) continue;
      unsigned m = 0;
      for (unsigned d = 0; d < 8; d++) m |= (unsigned)(cls[c + j->off[d]] != 0) << d;
      j->kept[c] = !clique[m & j->dirs];
      j->passable++;
    }
  j->candidates = 0, j->chained = 0;
  for (uint32_t y = 1; y + 1 < ph; y++)
    for (uint32_t c = y * pw + 1; c < y * pw + pw - 1; c++) {
      if (!j->kept[c]) continue;
      unsigned m = 0;
      for (unsigned d = 0; d < 8; d++) m |= (unsigned)j->kept[c + j->off[d]] << d;
      m &= j->dirs;
      j->kmask[c] = (uint8_t)m;
      if (__builtin_popcount(m) == 2) j->chained++;
      else j->candidates++;
    }
  j->measured = serial + 1;
  return 1;
}

/* Tags: junctions numbered, chain cells 0 until walked. */
static void classify(struct grid_junction *j) {
  const uint32_t n = j->pw * j->ph;
  j->njunc = 0;
  for (uint32_t c = 0; c < n; c++) {
    j->tag[c] = 0;
    if (!j->kept[c] || __builtin_popcount(j->kmask[c]) == 2) continue;
    j->jcell[j->njunc] = c;
    j->tag[c] = JFLAG | j->njunc++;
  }
}

/* A chain cell not yet in a chain. */
static inline int loose(const struct grid_junction *j, uint32_t c) {
  return j->tag[c] == 0 && __builtin_popcount(j->kmask[c]) == 2;
}

/* The chains from junction id through each of its loose neighbours; 0 on
** ENOMEM. */
static int walk_chains(struct grid_junction *j, uint32_t id) {
  const uint32_t from = j->jcell[id];
  for (unsigned d = 0; d < 8; d++) {
    if (!(j->kmask[from] >> d & 1) || !loose(j, from + j->off[d])) continue;
    if (j->nchain == j->chain_cap && !STRATA_GROW32(j->chain, j->chain_cap, j->nchain + 1)) return 0;
    const uint32_t k = j->nchain++;
    uint32_t prev = from, cur = from + j->off[d], a = !diagonal(d), b = diagonal(d);
    j->chain[k] = (jchain){j->nslot, 0, id, 0, 0, 0};
    for (;;) {
      const uint32_t s = j->nslot++;
      j->tag[cur] = s + 1;
      j->scell[s] = cur, j->schain[s] = k, j->sa[s] = a, j->sb[s] = b;
      unsigned m = j->kmask[cur], e = (unsigned)__builtin_ctz(m);
      if (cur + j->off[e] == prev) e = (unsigned)__builtin_ctz(m & (m - 1));
      const uint32_t next = cur + j->off[e];
      a += !diagonal(e), b += diagonal(e);
      if (j->tag[next] & JFLAG) {
        jchain *ch = &j->chain[k];
        ch->len = j->nslot - ch->first, ch->jb = j->tag[next] & ~JFLAG, ch->a = a, ch->b = b;
        break;
      }
      prev = cur, cur = next;
    }
  }
  return 1;
}

/* The edges of each junction, in the order of its neighbours: a step to
** each neighbour that is a junction, and each chain that starts or ends
** there and leads elsewhere; 0 on ENOMEM. */
static int link(struct grid_junction *j) {
  if (!STRATA_GROW32(j->eoff, j->eoff_cap, (size_t)j->njunc + 1)) return 0;
  uint32_t at = 0;
  for (uint32_t id = 0; id < j->njunc; id++) {
    const uint32_t c = j->jcell[id];
    j->eoff[id] = at;
    /* at most 8 more: grown as needed (the maze has 3 a junction) */
    if (at + 8 > j->edge_cap && !STRATA_GROW32(j->edge, j->edge_cap, (size_t)at + 8)) return 0;
    for (unsigned d = 0; d < 8; d++) {
      if (!(j->kmask[c] >> d & 1)) continue;
      const uint32_t t = j->tag[c + j->off[d]];
      if (t & JFLAG) {
        j->edge[at++] = (jedge){t & ~JFLAG, NONE, !diagonal(d), diagonal(d), NONE};
        continue;
      }
      const uint32_t s = t - 1;
      const jchain *ch = &j->chain[j->schain[s]];
      if (ch->ja == ch->jb) continue; /* a loop back here: never on an optimal route */
      if (s == ch->first && ch->ja == id)
        j->edge[at++] = (jedge){ch->jb, j->schain[s], ch->a, ch->b, NONE};
      else if (s == ch->first + ch->len - 1 && ch->jb == id)
        j->edge[at++] = (jedge){ch->ja, j->schain[s] | REV, ch->a, ch->b, NONE};
    }
  }
  j->eoff[j->njunc] = at;
  return 1;
}

/* Edge k of junction u goes back along edge back (which reached u). */
static inline int reverse(const struct grid_junction *j, uint32_t k, uint32_t back, uint32_t from) {
  const jedge *e = &j->edge[k], *b = &j->edge[back];
  return e->to == from && (e->chain == NONE ? b->chain == NONE : e->chain == (b->chain ^ REV));
}

/* The bridges of the junction graph (Tarjan's low links, depth first
** without recursion), each marked on both its edges with the junction
** below it, and each junction's interval of depth-first times: a search
** crosses a bridge only toward the goal's side (the maze of
** docs/benchmarks.md has no loops: its route meets a tenth of the junctions
** a search would otherwise settle). 0 on ENOMEM. */
static int bridges(struct grid_junction *j) {
  const uint32_t n = j->njunc;
  uint32_t *low = strata_calloc((size_t)n + 1, sizeof *low), *it = strata_calloc((size_t)n + 1, sizeof *it);
  uint32_t *pe = strata_calloc((size_t)n + 1, sizeof *pe), *stack = strata_calloc((size_t)n + 1, sizeof *stack);
  int ok = low && it && pe && stack;
  uint32_t timer = 0;
  if (ok) memset(j->tin, 0xff, (size_t)n * sizeof *j->tin);
  for (uint32_t r = 0; ok && r < n; r++) {
    if (j->tin[r] != NONE) continue;
    uint32_t sp = 0;
    j->tin[r] = low[r] = timer++, it[r] = j->eoff[r], pe[r] = NONE, stack[sp++] = r;
    while (sp) {
      const uint32_t u = stack[sp - 1];
      if (it[u] < j->eoff[u + 1]) {
        const uint32_t k = it[u]++, v = j->edge[k].to;
        if (pe[u] != NONE && reverse(j, k, pe[u], stack[sp - 2])) continue;
        if (j->tin[v] == NONE) {
          j->tin[v] = low[v] = timer++, it[v] = j->eoff[v], pe[v] = k, stack[sp++] = v;
        } else if (j->tin[v] < low[u]) {
          low[u] = j->tin[v];
        }
        continue;
      }
      j->tout[u] = timer, sp--;
      if (pe[u] == NONE) continue;
      const uint32_t p = stack[sp - 1];
      if (low[u] < low[p]) low[p] = low[u];
      if (low[u] <= j->tin[p]) continue;
      j->edge[pe[u]].cut = u;
      for (uint32_t k = j->eoff[u]; k < j->eoff[u + 1]; k++)
        if (reverse(j, k, pe[u], p)) j->edge[k].cut = u;
    }
  }
  strata_free(low), strata_free(it), strata_free(pe), strata_free(stack);
  return ok;
}

/* Builds the graph from cls unless built from this serial; 0 on ENOMEM. */
static int build(struct grid_junction *j, const uint8_t *cls, uint32_t pw, uint32_t ph,
                 uint64_t serial) {
  if (!measure(j, cls, pw, ph, serial)) return 0;
  if (j->built == j->measured) return 1;
  /* a ring of chain cells has at least three and gets one junction */
  if (!graph_arrays(j, pw * ph, j->candidates + j->chained / 3 + 1, j->chained + 1)) return 0;
  classify(j);
  j->nslot = 0, j->nchain = 0;
  for (uint32_t id = 0; id < j->njunc; id++)
    if (!walk_chains(j, id)) return 0;
  /* rings of chain cells with no junction: their first cell is one */
  for (uint32_t c = 0; c < pw * ph; c++)
    if (loose(j, c)) {
      j->jcell[j->njunc] = c;
      j->tag[c] = JFLAG | j->njunc;
      if (!walk_chains(j, j->njunc++)) return 0;
    }
  if (!link(j) || !bridges(j)) return 0;
  /* what the searches and routes read: map indices, junctions' x and y */
  for (uint32_t s = 0; s < j->nslot; s++)
    j->smap[s] = (j->scell[s] / pw - 1) * (pw - 2) + j->scell[s] % pw - 1;
  for (uint32_t id = 0; id < j->njunc; id++) {
    j->jy[id] = j->jcell[id] / pw, j->jx[id] = j->jcell[id] % pw;
    j->jmap[id] = (j->jy[id] - 1) * (pw - 2) + j->jx[id] - 1;
  }
  j->built = j->measured;
  return 1;
}

int gridjunction_graph_of(struct grid_junction **jp, const uint8_t *cls, uint32_t pw, uint32_t ph,
                          uint64_t serial, gridjunction_graph *g) {
  struct grid_junction *j = workspace(jp, 1);
  if (j == NULL || !build(j, cls, pw, ph, serial)) return 0;
  *g = (gridjunction_graph){j->njunc, j->nchain, j->tag, j->jcell, j->eoff, j->edge, j->chain,
                            j->scell, j->schain, j->sa, j->sb};
  return 1;
}

double gridjunction_share(struct grid_junction **jp, int eight, const uint8_t *cls, uint32_t pw,
                          uint32_t ph, uint64_t serial) {
  struct grid_junction *j = workspace(jp, eight);
  if (j == NULL || !measure(j, cls, pw, ph, serial)) return -1;
  return j->passable ? (double)j->candidates / (double)j->passable : 1;
}

/* ---- the search ---- */

static inline double dkey(const struct grid_junction *j, uint32_t a, uint32_t b) {
  return (double)a + j->diag * (double)b;
}

/* The ways from kept cell n (reached with ea, eb steps) to junctions. */
static unsigned attach_kept(const struct grid_junction *j, uint32_t n, uint32_t ea, uint32_t eb,
                            jatt *out) {
  const uint32_t t = j->tag[n];
  if (t & JFLAG) {
    out[0] = (jatt){t & ~JFLAG, n, 0, ea, eb, ea, eb};
    return 1;
  }
  const uint32_t s = t - 1;
  const jchain *ch = &j->chain[j->schain[s]];
  out[0] = (jatt){ch->ja, n, 0, ea + j->sa[s], eb + j->sb[s], ea, eb};
  out[1] = (jatt){ch->jb, n, 1, ea + ch->a - j->sa[s], eb + ch->b - j->sb[s], ea, eb};
  return 2;
}

/* The ways from cell c to junctions: from c when kept, else from each of
** its kept neighbours. */
static unsigned attach(const struct grid_junction *j, uint32_t c, jatt *out) {
  if (j->tag[c]) return attach_kept(j, c, 0, 0, out);
  unsigned k = 0;
  for (unsigned d = 0; d < 8; d++)
    if ((j->dirs >> d & 1) && j->tag[c + j->off[d]])
      k += attach_kept(j, c + j->off[d], !diagonal(d), diagonal(d), out + k);
  return k;
}

/* The route's cost when it meets no junction: 1 with *a, *b and the way
** in *how (NONE: one step; else start way << 8 | goal way), 0 when there
** is none. */
static int direct(const struct grid_junction *j, uint32_t sc, uint32_t gc, const jatt *sa,
                  unsigned ns, const jatt *ga, unsigned ng, uint32_t *a, uint32_t *b,
                  uint32_t *how) {
  int found = 0;
  for (unsigned d = 0; d < 8; d++)
    if ((j->dirs >> d & 1) && sc + j->off[d] == gc) {
      *a = !diagonal(d), *b = diagonal(d), *how = NONE;
      return 1;
    }
  for (unsigned p = 0; p < ns; p++)
    for (unsigned q = 0; q < ng; q++) {
      const uint32_t tn = j->tag[sa[p].n], tg = j->tag[ga[q].n];
      uint32_t da, db;
      if (sa[p].n == ga[q].n) {
        da = 0, db = 0;
      } else if (!(tn & JFLAG) && !(tg & JFLAG) && j->schain[tn - 1] == j->schain[tg - 1]) {
        const uint32_t x = tn - 1, y = tg - 1;
        da = x < y ? j->sa[y] - j->sa[x] : j->sa[x] - j->sa[y];
        db = x < y ? j->sb[y] - j->sb[x] : j->sb[x] - j->sb[y];
      } else {
        continue;
      }
      da += sa[p].ea + ga[q].ea, db += sa[p].eb + ga[q].eb;
      if (!found || dkey(j, da, db) < dkey(j, *a, *b)) *a = da, *b = db, *how = p << 8 | q, found = 1;
    }
  return found;
}

/* ---- the open list: a binary heap on f ---- */

static int heap_push(struct grid_junction *j, double f, uint32_t v) {
  if (j->len == j->heap_cap && !STRATA_GROW32(j->heap, j->heap_cap, (size_t)j->len + 1)) return 0;
  uint32_t i = j->len++;
  while (i > 0 && j->heap[(i - 1) / 2].f > f) j->heap[i] = j->heap[(i - 1) / 2], i = (i - 1) / 2;
  j->heap[i] = (jentry){f, v};
  return 1;
}

static jentry heap_pop(struct grid_junction *j) {
  const jentry top = j->heap[0], last = j->heap[--j->len];
  uint32_t i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= j->len) break;
    if (c + 1 < j->len && j->heap[c + 1].f < j->heap[c].f) c++;
    if (!(j->heap[c].f < last.f)) break;
    j->heap[i] = j->heap[c], i = c;
  }
  if (j->len) j->heap[i] = last;
  return top;
}

/* The search arrays for n nodes, stamps cleared when they wrap; 0 on ENOMEM. */
static int search_arrays(struct grid_junction *j, uint32_t n) {
  if (n > j->node_cap) {
    free_search(j);
    j->ga = strata_calloc(n, 4), j->gb = strata_calloc(n, 4), j->parent = strata_calloc(n, 4);
    j->via = strata_calloc(n, 4), j->stamp = strata_calloc(n, 4), j->gatt = strata_calloc(n, 4);
    if (!j->ga || !j->gb || !j->parent || !j->via || !j->stamp || !j->gatt) {
      free_search(j);
      return 0;
    }
    j->node_cap = n, j->gen = 0;
  }
  if (++j->gen == 0) {
    memset(j->stamp, 0, (size_t)j->node_cap * 4);
    memset(j->gatt, 0, (size_t)j->node_cap * 4);
    j->gen = 1;
  }
  return 1;
}

/* The search's view of one request. */
typedef struct query {
  uint32_t sc, gc, gx, gy; /* padded cells; the goal's coordinates */
  int astar;
  jatt sa[MAX_ATT], ga[MAX_ATT];
  unsigned ns, ng;
} query;

/* Whether an optimal route to the goal may take edge e: a bridge only
** toward a side with a junction the goal is reached from. */
static inline int toward_goal(const struct grid_junction *j, const query *q, const jedge *e) {
  if (e->cut == NONE) return 1;
  const uint32_t lo = j->tin[e->cut], hi = j->tout[e->cut];
  const int down = e->to == e->cut;
  for (unsigned p = 0; p < q->ng; p++) {
    const uint32_t t = j->tin[q->ga[p].junction];
    if ((t >= lo && t < hi) == down) return 1;
  }
  return 0;
}

/* The estimate from junction v (0 for the goal node, and for Dijkstra)
** added to g, exactly: whole counts first. Octile at 8 neighbours,
** Manhattan at 4. */
static inline double fkey(const struct grid_junction *j, const query *q, uint32_t v, uint32_t a,
                          uint32_t b) {
  if (!q->astar || v >= j->njunc) return dkey(j, a, b);
  const uint32_t x = j->jx[v], y = j->jy[v];
  const uint32_t dx = x > q->gx ? x - q->gx : q->gx - x, dy = y > q->gy ? y - q->gy : q->gy - y;
  if (!j->eight) return dkey(j, a + dx + dy, b);
  const uint32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return dkey(j, a + hi - lo, b + lo);
}

/* Records a, b for v if it improves on its g this search; 0 on ENOMEM. */
static inline int relax(struct grid_junction *j, const query *q, uint32_t v, uint32_t a,
                        uint32_t b, uint32_t parent, uint32_t via) {
  if (j->stamp[v] == j->gen && !(dkey(j, a, b) < dkey(j, j->ga[v], j->gb[v]))) return 1;
  j->stamp[v] = j->gen, j->ga[v] = a, j->gb[v] = b, j->parent[v] = parent, j->via[v] = via;
  return heap_push(j, fkey(j, q, v, a, b), v);
}

/* A* (or Dijkstra) from the start node to the goal node: 1 found, 0 not,
** -1 ENOMEM. */
static int search(struct grid_junction *j, query *q, uint64_t *expanded) {
  const uint32_t S = j->njunc, G = j->njunc + 1;
  uint64_t pops = 0;
  j->len = 0;
  j->stamp[S] = j->gen, j->ga[S] = 0, j->gb[S] = 0, j->parent[S] = NONE;
  uint32_t a, b, how;
  if (direct(j, q->sc, q->gc, q->sa, q->ns, q->ga, q->ng, &a, &b, &how) && !relax(j, q, G, a, b, S, how))
    return -1;
  for (unsigned p = 0; p < q->ns; p++)
    if (!relax(j, q, q->sa[p].junction, q->sa[p].a, q->sa[p].b, S, p)) return -1;
  /* the junctions with a way to the goal */
  for (unsigned p = 0; p < q->ng; p++) j->gatt[q->ga[p].junction] = j->gen;
  while (j->len) {
    const jentry e = heap_pop(j);
    const uint32_t u = e.v;
    if (e.f != fkey(j, q, u, j->ga[u], j->gb[u])) continue; /* stale */
    pops++;
    if (u == G) {
      *expanded = pops;
      return 1;
    }
    const uint32_t ua = j->ga[u], ub = j->gb[u];
    for (uint32_t k = j->eoff[u]; k < j->eoff[u + 1]; k++) {
      const jedge *ed = &j->edge[k];
      if (!toward_goal(j, q, ed)) continue;
      if (!relax(j, q, ed->to, ua + ed->a, ub + ed->b, u, k)) return -1;
    }
    for (unsigned p = 0; p < q->ng && j->gatt[u] == j->gen; p++)
      if (q->ga[p].junction == u && !relax(j, q, G, ua + q->ga[p].a, ub + q->ga[p].b, u, p))
        return -1;
  }
  *expanded = pops;
  return 0;
}

/* ---- the route ---- */

/* Appends padded cell c as a map index; 0 on ENOMEM. */
static inline int add(const struct grid_junction *j, strata_path *out, size_t *len, uint32_t c) {
  const uint32_t y = c / j->pw, x = c - y * j->pw;
  return grid_route_add(out, len, (y - 1) * (j->pw - 2) + (x - 1));
}

/* Appends the cells of slots from..to, both included, in that order. */
static int add_slots(const struct grid_junction *j, strata_path *out, size_t *len, uint32_t from,
                     uint32_t to) {
  const uint32_t n = (from < to ? to - from : from - to) + 1;
  if (*len + n > out->cap && !STRATA_GROW(out->nodes, out->cap, *len + n)) return 0;
  uint32_t *at = out->nodes + *len;
  if (from <= to) memcpy(at, j->smap + from, n * sizeof *at);
  else
    for (uint32_t k = 0; k < n; k++) at[k] = j->smap[from - k];
  *len += n;
  return 1;
}

/* The slot of the chain cell next to the junction at end `end` of the
** chain of slot s. */
static inline uint32_t end_slot(const struct grid_junction *j, uint32_t s, uint32_t end) {
  const jchain *ch = &j->chain[j->schain[s]];
  return end ? ch->first + ch->len - 1 : ch->first;
}

/* From the start along way w to its junction, the start excluded. */
static int add_way_out(const struct grid_junction *j, uint32_t sc, const jatt *w, strata_path *out,
                       size_t *len) {
  if (w->n != sc && !add(j, out, len, w->n)) return 0;
  const uint32_t t = j->tag[w->n];
  if (t & JFLAG) return 1;
  const uint32_t last = end_slot(j, t - 1, w->end);
  if (last != t - 1 && !add_slots(j, out, len, t - 1 + (last > t - 1 ? 1 : (uint32_t)-1), last))
    return 0;
  return add(j, out, len, j->jcell[w->junction]);
}

/* From way w's junction to the goal, the junction excluded. */
static int add_way_in(const struct grid_junction *j, uint32_t gc, const jatt *w, strata_path *out,
                      size_t *len) {
  const uint32_t t = j->tag[w->n];
  if (!(t & JFLAG) && !add_slots(j, out, len, end_slot(j, t - 1, w->end), t - 1)) return 0;
  return w->n == gc || add(j, out, len, gc);
}

/* A hop from node p to node v of the search, p excluded. */
static int add_hop(const struct grid_junction *j, const query *q, uint32_t p, uint32_t v,
                   strata_path *out, size_t *len) {
  const uint32_t S = j->njunc, G = j->njunc + 1, via = j->via[v];
  if (p == S && v == G) {
    if (via == NONE) return add(j, out, len, q->gc);
    const jatt *ws = &q->sa[via >> 8], *wg = &q->ga[via & 0xff];
    if (ws->n != q->sc && !add(j, out, len, ws->n)) return 0;
    if (ws->n != wg->n) {
      const uint32_t x = j->tag[ws->n] - 1, y = j->tag[wg->n] - 1;
      if (!add_slots(j, out, len, x < y ? x + 1 : x - 1, y)) return 0;
    }
    return wg->n == q->gc || add(j, out, len, q->gc);
  }
  if (p == S) return add_way_out(j, q->sc, &q->sa[via], out, len);
  if (v == G) return add_way_in(j, q->gc, &q->ga[via], out, len);
  const jedge *e = &j->edge[via];
  if (e->chain != NONE) {
    const jchain *ch = &j->chain[e->chain & ~REV];
    const uint32_t first = ch->first, last = ch->first + ch->len - 1;
    if (!add_slots(j, out, len, e->chain & REV ? last : first, e->chain & REV ? first : last))
      return 0;
  }
  return grid_route_add(out, len, j->jmap[v]);
}

int gridjunction_run(struct grid_junction **jp, int eight, double diag, const uint8_t *cls,
                     uint32_t pw, uint32_t ph, uint64_t serial, int astar, int sx, int sy, int gx,
                     int gy, double cell_cost, strata_path *out, uint64_t *expanded) {
  struct grid_junction *j = workspace(jp, eight);
  if (j == NULL || !build(j, cls, pw, ph, serial)) return -1;
  j->diag = diag;
  if (!search_arrays(j, j->njunc + 2)) return -1;
  query q;
  q.sc = (uint32_t)(sy + 1) * pw + (uint32_t)(sx + 1), q.gc = (uint32_t)(gy + 1) * pw + (uint32_t)(gx + 1);
  q.gx = (uint32_t)gx + 1, q.gy = (uint32_t)gy + 1, q.astar = astar;
  out->len = 0, out->cost = 0;
  *expanded = 0;
  if (!cls[q.sc] || !cls[q.gc]) return 0;
  size_t len = 0;
  if (q.sc == q.gc) {
    if (!add(j, out, &len, q.sc)) return -1;
    out->len = len;
    return 1;
  }
  q.ns = attach(j, q.sc, q.sa), q.ng = attach(j, q.gc, q.ga);
  int r = search(j, &q, expanded);
  if (r <= 0) return r;
  /* the nodes from the goal back, in the heap's room (it is no longer needed) */
  const uint32_t G = j->njunc + 1;
  uint32_t hops = 0;
  for (uint32_t v = G; v != NONE; v = j->parent[v]) {
    if (hops == j->heap_cap && !STRATA_GROW32(j->heap, j->heap_cap, (size_t)hops + 1)) return -1;
    j->heap[hops++].v = v;
  }
  if (!add(j, out, &len, q.sc)) return -1;
  for (uint32_t h = hops - 1; h > 0; h--)
    if (!add_hop(j, &q, j->heap[h].v, j->heap[h - 1].v, out, &len)) return -1;
  out->len = len;
  out->cost = cell_cost * dkey(j, j->ga[G], j->gb[G]);
  return 1;
}
