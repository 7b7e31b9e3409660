/*
** xymap.c - parsing the XY map language: markers, the character grid, the
** legend, and tracing link chains out of every node into weighted exits.
** The rules (and the messages) follow Evennia's XYZGrid, as docs/xy-maps.md
** ("The rules") states them.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prefault.h"
#include "strata/alloc.h"
#include "xymap_internal.h"
#include "util.h"

static const int DX[XY_SIDES] = {0, 1, 1, 1, 0, -1, -1, -1, 0};
static const int DY[XY_SIDES] = {1, 1, 0, -1, -1, -1, 0, 1, 0};
static const char *const DIR_NAMES[XY_SIDES] = {"n", "ne", "e", "se", "s", "sw", "w", "nw",
                                                "teleport"};

static int reverse_dir(int d) { return d == XY_TELEPORT ? XY_TELEPORT : (d + 4) % 8; }

int strata_xy_direction(const char *name) {
  for (int d = 0; d < STRATA_XY_DIRECTIONS; d++)
    if (strcmp(name, DIR_NAMES[d]) == 0) return d;
  return -1;
}

const char *strata_xy_direction_name(int dir) {
  return dir >= 0 && dir < XY_SIDES ? DIR_NAMES[dir] : "?";
}

/* Names used by the Lua legend, and Evennia's class names used in messages. */
static const char *const KIND_NAMES[STRATA_XY_KIND_COUNT] = {
  "node", "interrupt_node", "transition", "ns", "ew", "nesw", "senw", "plus", "cross",
  "oneway_s", "oneway_n", "oneway_e", "oneway_w", "router", "up", "down", "blocked",
  "interrupt_link", "teleporter", "link"};
static const char *const CLASS_NAMES[STRATA_XY_KIND_COUNT] = {
  "BasicMapNode", "InterruptMapNode", "MapTransitionNode", "NSMapLink", "EWMapLink",
  "NESWMapLink", "SENWMapLink", "PlusMapLink", "CrossMapLink", "NSOneWayMapLink",
  "SNOneWayMapLink", "EWOneWayMapLink", "WEOneWayMapLink", "RouterMapLink", "UpMapLink",
  "DownMapLink", "BlockedMapLink", "InterruptMapLink", "TeleporterMapLink", "MapLink"};
static const char DEFAULT_SYMBOLS[STRATA_XY_KIND_COUNT] = {
  '#', 'I', 'T', '|', '-', '/', '\\', '+', 'x', 'v', '^', '>', '<', 'o', 'u', 'd', 'b', 'i', 't',
  0};

int strata_xy_kind_parse(const char *name) {
  for (int k = 0; k < STRATA_XY_KIND_COUNT; k++)
    if (strcmp(name, KIND_NAMES[k]) == 0) return k;
  return -1;
}

const char *strata_xy_kind_name(strata_xy_kind kind) {
  return (unsigned)kind < STRATA_XY_KIND_COUNT ? KIND_NAMES[kind] : "?";
}

static int is_node_kind(strata_xy_kind k) {
  return k == STRATA_XY_NODE || k == STRATA_XY_INTERRUPT_NODE || k == STRATA_XY_TRANSITION;
}

/* Routers and smart links count as connected from any side. */
static int is_multilink(strata_xy_kind k) {
  return k == STRATA_XY_ROUTER || k == STRATA_XY_UP || k == STRATA_XY_DOWN ||
         k == STRATA_XY_BLOCKED || k == STRATA_XY_INTERRUPT_LINK;
}

void strata_xy_legend_default(strata_xy_kind kind, char symbol, strata_xy_legend *out) {
  memset(out, 0, sizeof *out);
  out->symbol = symbol;
  out->kind = kind;
  out->default_weight = kind == STRATA_XY_BLOCKED ? XY_BIGVAL : 1;
  for (int d = 0; d < STRATA_XY_DIRECTIONS; d++) {
    out->weights[d] = -1;
    out->directions[d] = -1;
  }
  out->average = 1;
  out->interrupt = kind == STRATA_XY_INTERRUPT_NODE || kind == STRATA_XY_INTERRUPT_LINK;
  if (kind == STRATA_XY_UP || kind == STRATA_XY_DOWN)
    for (int d = 0; d < STRATA_XY_DIRECTIONS; d++)
      strcpy(out->aliases[d], kind == STRATA_XY_UP ? "u" : "d");
}

/* ---- errors -------------------------------------------------------------------- */

/* "<Class> '<symbol>' at XYZ=(X,Y,Z) " followed by the message, with the
** component's line, column and coordinate. */
static int comp_error(strata_xymap *m, const xy_comp *c, strata_error *err, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 4, 5)))
#endif
  ;
static int comp_error(strata_xymap *m, const xy_comp *c, strata_error *err, const char *fmt, ...) {
  if (err == NULL) return 0;
  const strata_xy_legend *lg = xy_legend_of(m, c);
  char what[STRATA_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  strata_error_at(err, STRATA_EPARSE, m->row0_line - c->gy, c->gx + m->mx + 3,
                  "%s '%c' at XYZ=(%g,%g,%s) %s",
                  CLASS_NAMES[lg->kind], lg->symbol, c->gx / 2.0, c->gy / 2.0, m->z, what);
  err->has_coord = 1;
  err->coord_x = c->gx / 2.0;
  err->coord_y = c->gy / 2.0;
  return 0;
}

/* ---- link directions ------------------------------------------------------------- */

/* Sets entry -> exit pairs written as "0>4 4>0" (direction indices). */
static void set_plain(int8_t dirs[XY_SIDES], const char *pairs) {
  for (const char *p = pairs; p[0] && p[1] == '>' && p[2]; p += 3) {
    dirs[p[0] - '0'] = (int8_t)(p[2] - '0');
    if (p[3] != ' ') break;
    p++;
  }
}

/* Does link n join the side facing its neighbour in direction d of it (entered
** there, or leaving there: an arrow pointing away counts)? */
static int touches_side(const xy_comp *n, int side) {
  for (int e = 0; e < XY_SIDES; e++)
    if (n->dirs[e] == side) return 1;
  return n->dirs[side] >= 0;
}

/* Does the neighbour of comp in direction d connect back? (Evennia's test:
** a node, a multilink, or a link that leads somewhere when entered from d.)
** With facing, a link counts when it joins the side facing comp, an arrow
** pointing away included (Evennia judges it from the far side). */
static int linked_neighbor(strata_xymap *m, const xy_comp *c, int d, int facing, int *is_node,
                           strata_error *err, int *failed) {
  int32_t n = xy_cell(m, c->gx + DX[d], c->gy + DY[d]);
  *is_node = 0;
  if (n < 0) return 0;
  const xy_comp *nc = &m->comps[n];
  strata_xy_kind k = xy_legend_of(m, nc)->kind;
  if (is_node_kind(k)) {
    *is_node = 1;
    return 1;
  }
  if (is_multilink(k)) return 1;
  if (!xy_link_directions(m, (uint32_t)n, err)) {
    *failed = 1;
    return 0;
  }
  return facing ? touches_side(nc, reverse_dir(d)) : nc->dirs[d] >= 0;
}

/* The sides of smart link c that a neighbour links to (nb), those holding a
** node among them (nodes); 0 on an error. A teleporter is judged by Evennia's
** test and again by the sides facing it: the reference's one-way teleport
** `#-t t>#` hides its link behind an arrow pointing away, which that test
** cannot see, and "only a single link (or node) may connect to the teleport
** link": a second link either test finds makes it ambiguous (refused). */
static int smart_neighbors(strata_xymap *m, const xy_comp *c, int teleporter, int nb[8], int *nbn, int nodes[8],
                           int *nodesn, strata_error *err) {
  int failed = 0;
  for (int facing = 0; facing < 1 + teleporter; facing++)
    for (int d = 0; d < 8; d++) {
      int is_node, known = 0;
      for (int i = 0; i < *nbn; i++) known |= nb[i] == d;
      if (!known && linked_neighbor(m, c, d, facing, &is_node, err, &failed)) {
        nb[(*nbn)++] = d;
        if (is_node) nodes[(*nodesn)++] = d;
      }
      if (failed) return 0;
    }
  return 1;
}

int xy_link_directions(strata_xymap *m, uint32_t ci, strata_error *err) {
  xy_comp *c = &m->comps[ci];
  if (c->dirs_state == 2) return 1;
  if (c->dirs_state == 1) return 1; /* being computed further up: treat as known so far */
  c->dirs_state = 1;
  const strata_xy_legend *lg = xy_legend_of(m, c);
  int8_t *dirs = c->dirs;
  for (int i = 0; i < XY_SIDES; i++) dirs[i] = -1;
  int nb[8], nbn = 0, nodes[8], nodesn = 0;
  switch (lg->kind) {
    case STRATA_XY_NS: set_plain(dirs, "0>4 4>0"); break;
    case STRATA_XY_EW: set_plain(dirs, "2>6 6>2"); break;
    case STRATA_XY_NESW: set_plain(dirs, "1>5 5>1"); break;
    case STRATA_XY_SENW: set_plain(dirs, "3>7 7>3"); break;
    case STRATA_XY_PLUS: set_plain(dirs, "0>4 4>0 2>6 6>2"); break;
    case STRATA_XY_CROSS: set_plain(dirs, "1>5 5>1 3>7 7>3"); break;
    case STRATA_XY_ONEWAY_S: set_plain(dirs, "0>4"); break;
    case STRATA_XY_ONEWAY_N: set_plain(dirs, "4>0"); break;
    case STRATA_XY_ONEWAY_E: set_plain(dirs, "6>2"); break;
    case STRATA_XY_ONEWAY_W: set_plain(dirs, "2>6"); break;
    case STRATA_XY_LINK:
      for (int d = 0; d < 8; d++) dirs[d] = lg->directions[d];
      break;
    case STRATA_XY_ROUTER:
    case STRATA_XY_UP:
    case STRATA_XY_DOWN:
    case STRATA_XY_BLOCKED:
    case STRATA_XY_INTERRUPT_LINK:
    case STRATA_XY_TELEPORTER:
      if (!smart_neighbors(m, c, lg->kind == STRATA_XY_TELEPORTER, nb, &nbn, nodes, &nodesn, err)) return 0;
      break;
    default:
      break; /* nodes have no directions */
  }
  char list[64] = "";
  for (int i = 0; i < nbn; i++) {
    if (i) strcat(list, ", ");
    strcat(list, DIR_NAMES[nb[i]]);
  }
  if (lg->kind == STRATA_XY_ROUTER) {
    int used[8] = {0};
    static const int pairs[4][2] = {{0, 4}, {2, 6}, {1, 5}, {7, 3}};
    int have[8] = {0};
    for (int i = 0; i < nbn; i++) have[nb[i]] = 1;
    for (int p = 0; p < 4; p++)
      if (have[pairs[p][0]] && have[pairs[p][1]]) {
        dirs[pairs[p][0]] = (int8_t)pairs[p][1];
        dirs[pairs[p][1]] = (int8_t)pairs[p][0];
        used[pairs[p][0]] = used[pairs[p][1]] = 1;
      }
    int rest[8], restn = 0;
    char restlist[64] = "";
    for (int i = 0; i < nbn; i++)
      if (!used[nb[i]]) {
        if (restn) strcat(restlist, ", ");
        strcat(restlist, DIR_NAMES[nb[i]]);
        rest[restn++] = nb[i];
      }
    if (restn == 2) {
      dirs[rest[0]] = (int8_t)rest[1];
      dirs[rest[1]] = (int8_t)rest[0];
    } else if (restn != 0) {
      return comp_error(m, c, err, "cannot determine how to connect in/out directions %s.",
                        restlist);
    }
  } else if (lg->kind == STRATA_XY_UP || lg->kind == STRATA_XY_DOWN ||
             lg->kind == STRATA_XY_BLOCKED || lg->kind == STRATA_XY_INTERRUPT_LINK) {
    if (nodesn == 2) {
      for (int i = 0; i < 2; i++) dirs[nodes[i]] = (int8_t)reverse_dir(nodes[i]);
    } else if (nbn - nodesn == 1) {
      for (int i = 0; i < nbn; i++) dirs[nb[i]] = (int8_t)reverse_dir(nb[i]);
    } else {
      return comp_error(m, c, err,
                        "must have exactly two connections - either directly to two nodes or "
                        "to one link and one node on opposite sides (found: %s).",
                        nbn ? list : "none");
    }
  } else if (lg->kind == STRATA_XY_TELEPORTER) {
    if (nbn != 1)
      return comp_error(m, c, err, "must have exactly one link connected to it (found: %s).", nbn ? list : "none");
    if (nodesn == 1)
      return comp_error(m, c, err, "can only connect to a Link. Found a node in direction %s.",
                        DIR_NAMES[nb[0]]);
    dirs[nb[0]] = XY_TELEPORT;
    dirs[XY_TELEPORT] = (int8_t)nb[0];
    int32_t partner = -1, matches = 0;
    for (size_t i = 0; i < m->comp_count; i++)
      if (i != ci && m->legend[m->comps[i].legend].symbol == lg->symbol) {
        partner = (int32_t)i;
        matches++;
      }
    if (matches == 0) return comp_error(m, c, err, "found no matching teleporter to link to.");
    if (matches > 1)
      return comp_error(m, c, err,
                        "found too many matching teleporters (must be exactly one more): %d.",
                        (int)matches);
    /* An entry is a pair of uint32_t. */
    if (!strata_grow(&m->teleports, &m->teleport_cap, m->teleport_count + 1, 2 * sizeof *m->teleports)) {
      strata_error_nomem(err, "pairing teleporters");
      return 0;
    }
    m->teleports[2 * m->teleport_count] = ci;
    m->teleports[2 * m->teleport_count++ + 1] = (uint32_t)partner;
  }
  c->dirs_state = 2;
  return 1;
}

/* ---- parsing ----------------------------------------------------------------------- */

typedef struct text_line {
  const char *start;
  size_t len;
} text_line;

static int add_step(strata_xymap *m, uint32_t comp) {
  if (!STRATA_GROW(m->steps, m->step_cap, m->step_count + 1)) return 0;
  m->steps[m->step_count++] = comp;
  return 1;
}

static double link_weight(const strata_xy_legend *lg, int side) {
  if (side < 8 && lg->weights[side] >= 0) return lg->weights[side];
  return lg->default_weight;
}

const char *xy_chain_name(const strata_xymap *m, uint32_t c) {
  const xy_chain *ch = &m->chains[c];
  const strata_xy_legend *lg = xy_legend_of(m, &m->comps[m->steps[xy_chain_first(m, c)]]);
  return lg->aliases[ch->direction][0] ? lg->aliases[ch->direction] : DIR_NAMES[ch->direction];
}

int32_t xy_partner(const strata_xymap *m, uint32_t ci) {
  for (size_t i = 0; i < m->teleport_count; i++)
    if (m->teleports[2 * i] == ci) return (int32_t)m->teleports[2 * i + 1];
  return -1;
}

/* Follows the chain leaving node comp `from` in direction d. Returns 1 and
** fills *chain when it reaches a node, 0 when nothing leaves that way, -1 on
** a parse error (err filled) and -2 when out of memory. */
static int trace(strata_xymap *m, uint32_t from, int d, xy_chain *chain, strata_error *err) {
  const xy_comp *fc = &m->comps[from];
  int32_t pos = xy_cell(m, fc->gx + DX[d], fc->gy + DY[d]);
  if (pos < 0) return 0;
  int start = reverse_dir(d);
  double weight = 0;
  uint32_t count = 0;
  int blocked = 0;
  const strata_xy_legend *last = NULL;
  for (;;) {
    xy_comp *c = &m->comps[pos];
    const strata_xy_legend *lg = xy_legend_of(m, c);
    if (!xy_link_directions(m, (uint32_t)pos, err)) return -1;
    int end = c->dirs[start];
    if (end < 0) {
      if (count == 0) return 0;
      /* A link that leads out of the side the chain enters by is an arrow
      ** pointing back (`#>----#` seen from the right): the chain is one-way
      ** the other way, and nothing leaves this node here. */
      if (touches_side(c, start)) {
        m->step_count -= count;
        return 0;
      }
      comp_error(m, c, err,
                 "was connected to from the direction %s, but is not set up to link in that "
                 "direction.", DIR_NAMES[start]);
      return -1;
    }
    weight += link_weight(lg, start);
    blocked |= lg->kind == STRATA_XY_BLOCKED;
    last = lg;
    if (!add_step(m, (uint32_t)pos)) return -2;
    if (++count > m->comp_count) {
      comp_error(m, c, err, "is part of a chain of links that loops back on itself.");
      return -1;
    }
    if (count > XY_CHAIN_MAX) {
      comp_error(m, c, err, "ends a chain of more than %d links (the most one chain may have).",
                 XY_CHAIN_MAX);
      return -1;
    }
    int32_t next;
    if (end == XY_TELEPORT) {
      next = xy_partner(m, (uint32_t)pos);
    } else {
      next = xy_cell(m, c->gx + DX[end], c->gy + DY[end]);
      if (next < 0) {
        comp_error(m, c, err, "points to empty space in the direction %s!", DIR_NAMES[end]);
        return -1;
      }
    }
    if (m->comps[next].node >= 0) {
      chain->target = (uint32_t)m->comps[next].node;
      chain->direction = (int8_t)d;
      chain->flags = blocked ? XY_CHAIN_BLOCKED : 0;
      chain->weight = last->average ? weight / count : weight;
      chain->steps = (uint16_t)count;
      return 1;
    }
    start = reverse_dir(end);
    pos = next;
  }
}

static strata_status parse_error(strata_error *err, int line, int column, double x, double y,
                                 int has_coord, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 7, 8)))
#endif
  ;
static strata_status parse_error(strata_error *err, int line, int column, double x, double y,
                                 int has_coord, const char *fmt, ...) {
  if (err == NULL) return STRATA_EPARSE;
  va_list ap;
  va_start(ap, fmt);
  strata_error_setv(err, STRATA_EPARSE, fmt, ap);
  va_end(ap);
  err->line = line;
  err->column = column;
  err->has_coord = has_coord;
  err->coord_x = x;
  err->coord_y = y;
  return STRATA_EPARSE;
}

static int build_legend(strata_xymap *m, const strata_xy_legend *extra, size_t count,
                        strata_error *err) {
  m->legend = strata_malloc((STRATA_XY_KIND_COUNT + count) * sizeof *m->legend);
  if (m->legend == NULL) return strata_error_nomem(err, NULL), 0;
  for (int i = 0; i < 256; i++) m->by_symbol[i] = -1;
  for (int k = 0; k < STRATA_XY_KIND_COUNT; k++) {
    if (!DEFAULT_SYMBOLS[k]) continue;
    strata_xy_legend_default((strata_xy_kind)k, DEFAULT_SYMBOLS[k], &m->legend[m->legend_count]);
    m->by_symbol[(unsigned char)DEFAULT_SYMBOLS[k]] = (int16_t)m->legend_count++;
  }
  for (size_t i = 0; i < count; i++) {
    const strata_xy_legend *e = &extra[i];
    if (e->symbol == ' ' || e->symbol == '\n' || e->symbol == 0 || (unsigned)e->kind >= STRATA_XY_KIND_COUNT) {
      strata_error_set(err, STRATA_EARG, "Map-legend key '%c' is invalid: a legend key must be "
                       "one visible character and its kind a known one", e->symbol ? e->symbol : '?');
      return 0;
    }
    int16_t at = m->by_symbol[(unsigned char)e->symbol];
    if (at < 0) at = (int16_t)m->legend_count++;
    m->legend[at] = *e;
    m->by_symbol[(unsigned char)e->symbol] = at;
  }
  return 1;
}

/* Splits text into lines (a trailing '\r' is dropped from each). */
static text_line *split_lines(const char *text, size_t len, size_t *count) {
  size_t n = 1;
  for (size_t i = 0; i < len; i++) n += text[i] == '\n';
  text_line *lines = strata_malloc(n * sizeof *lines);
  if (lines == NULL) return NULL;
  size_t k = 0, begin = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i == len || text[i] == '\n') {
      size_t l = i - begin;
      if (l > 0 && text[begin + l - 1] == '\r') l--;
      lines[k++] = (text_line){text + begin, l};
      begin = i + 1;
    }
  }
  *count = k;
  return lines;
}

static int first_plus(const text_line *l) {
  const char *p = memchr(l->start, '+', l->len);
  return p ? (int)(p - l->start) : -1;
}

/* Marks the chains that carry edges and indexes them by target. */
static int build_edges(strata_xymap *m) {
  m->node_in = strata_calloc(m->node_count + 2, sizeof *m->node_in);
  if (m->node_in == NULL) return 0;
  size_t usable = 0;
  m->max_int_weight = 1;
  for (size_t n = 0; n < m->node_count; n++) {
    for (uint32_t c = m->node_chains[n]; c < m->node_chains[n + 1]; c++) {
      xy_chain *ch = &m->chains[c];
      int last = 1;
      for (uint32_t k = c + 1; k < m->node_chains[n + 1]; k++) last &= m->chains[k].target != ch->target;
      if (!last) continue;
      ch->flags |= XY_CHAIN_EDGE;
      if ((ch->flags & XY_CHAIN_BLOCKED) || !(ch->weight < XY_BIGVAL / 1e6)) continue;
      ch->flags |= XY_CHAIN_USABLE;
      usable++;
      m->node_in[ch->target + 1]++;
      /* Whole-number weights (the default 1 included) let routes use a bucket queue. */
      double w = ch->weight;
      if (w != floor(w) || w < 1 || w > 1024) m->max_int_weight = 0;
      else if (m->max_int_weight && w > m->max_int_weight) m->max_int_weight = (uint32_t)w;
    }
  }
  for (size_t n = 0; n < m->node_count; n++) m->node_in[n + 1] += m->node_in[n];
  m->in_chains = strata_malloc((usable ? usable : 1) * sizeof *m->in_chains);
  uint32_t *fill = strata_calloc(m->node_count + 1, sizeof *fill);
  if (m->in_chains == NULL || fill == NULL) return strata_free(fill), 0;
  for (uint32_t c = 0; c < m->chain_count; c++) {
    uint32_t to = m->chains[c].target;
    if (m->chains[c].flags & XY_CHAIN_USABLE) m->in_chains[m->node_in[to] + fill[to]++] = c;
  }
  strata_free(fill);
  return 1;
}

/* Gives back what the growing arrays over-allocated. */
static void shrink(void **p, size_t count, size_t size) {
  void *q = strata_realloc(*p, (count ? count : 1) * size);
  if (q != NULL) *p = q;
}

/* The grid of a map string: its lines, the rows of the grid among them
** (row_first .. row_last, top-down) and its size in characters. */
typedef struct xy_grid {
  text_line *lines;
  long row_first, row_last;
  int width, height;
} xy_grid;

/* strata_xymap_parse's steps return 1 done, 0 failed (err set), -1 out of
** memory. */

/* Finds the grid between the corner markers ('+') of text. */
static int find_grid(strata_xymap *m, const char *text, size_t len, xy_grid *g, strata_error *err) {
  if (text == NULL || len == 0) {
    strata_error_set(err, STRATA_EPARSE, "the map string is empty");
    return 0;
  }
  size_t pluses = 0;
  for (size_t i = 0; i < len; i++) pluses += text[i] == '+';
  if (pluses < 2) {
    strata_error_set(err, STRATA_EPARSE,
                     "The mapstring must have at least two '+' symbols marking the upper- and "
                     "bottom-left corners of the grid.");
    return 0;
  }
  size_t nlines;
  text_line *lines = g->lines = split_lines(text, len, &nlines);
  if (lines == NULL) return -1;
  size_t top = 0;
  while (first_plus(&lines[top]) < 0) top++;
  int mx = first_plus(&lines[top]);
  size_t bottom = nlines - 1;
  for (size_t i = top + 1; i < nlines; i++)
    if (first_plus(&lines[i]) == mx) {
      bottom = i;
      break;
    }
  if (bottom == top) {
    parse_error(err, (int)top + 1, mx + 1, 0, 0, 0,
                "No bottom-left corner-marker ('+') found below the top one.");
    return 0;
  }
  /* The grid: rows top+2 .. bottom-2, columns from mx + 2 on. */
  g->row_first = (long)top + 2, g->row_last = (long)bottom - 2;
  m->mx = mx;
  m->row0_line = (int)g->row_last + 1;
  g->height = g->row_last >= g->row_first ? (int)(g->row_last - g->row_first + 1) : 0;
  g->width = 0;
  for (long r = g->row_first; r <= g->row_last; r++) {
    long w = (long)lines[r].len - (mx + 2);
    if (w > g->width) g->width = (int)w;
  }
  if (g->width > XY_SIDE_MAX || g->height > XY_SIDE_MAX ||
      (size_t)g->width * (size_t)(g->height ? g->height : 1) > (size_t)1 << 28) {
    strata_error_set(err, STRATA_ELIMIT, "the map is too large (%dx%d characters)", g->width,
                     g->height);
    return 0;
  }
  return 1;
}

/* A link's weights must be at least 1 (the reference: "This value must be
** >= 1"): a lighter link would make a long detour the cheaper route and
** breaks the averaging of long chains. Checked where the link is drawn, so
** the error has its place; a legend entry never drawn is not checked. */
static int check_weights(strata_xymap *m, const xy_comp *c, strata_error *err) {
  const strata_xy_legend *lg = xy_legend_of(m, c);
  if (!(lg->default_weight >= 1))
    return comp_error(m, c, err, "has weight %g: link weights must be >= 1.", lg->default_weight);
  for (int d = 0; d < STRATA_XY_DIRECTIONS; d++)
    if (lg->weights[d] >= 0 && !(lg->weights[d] >= 1))
      return comp_error(m, c, err, "has weight %g from the %s side: link weights must be >= 1.",
                        lg->weights[d], DIR_NAMES[d]);
  return 1;
}

/* Reads the grid's characters into m->comps, in scan order: rows bottom-up,
** each left to right; sets the map's size. */
static int read_components(strata_xymap *m, const xy_grid *g, strata_error *err) {
  const int mx = m->mx;
  /* Counted first so that the array is allocated once: growing it by
  ** doubling copied and page-faulted the whole array again and again,
  ** which was most of the parse time of a large map. */
  size_t cap = 1;
  for (long r = g->row_first; r <= g->row_last; r++)
    for (size_t i = (size_t)mx + 2; i < g->lines[r].len; i++) cap += g->lines[r].start[i] != ' ';
  m->comps = strata_malloc(cap * sizeof *m->comps);
  if (m->comps == NULL) return -1;
  strata_prefault(m->comps, cap * sizeof *m->comps);
  int max_x = -1, max_y = -1;
  for (int gy = 0; gy < g->height; gy++) {
    long r = g->row_last - gy;
    const text_line *l = &g->lines[r];
    for (int gx = 0; (size_t)(gx + mx + 2) < l->len; gx++) {
      unsigned char ch = (unsigned char)l->start[gx + mx + 2];
      if (ch == ' ') continue;
      int line_no = (int)r + 1, col = gx + mx + 3;
      int16_t lg = m->by_symbol[ch];
      if (lg < 0) {
        parse_error(err, line_no, col, gx / 2.0, gy / 2.0, 1,
                    "Symbol '%c' on XY=(%g,%g) is not found in LEGEND.", ch, gx / 2.0, gy / 2.0);
        return 0;
      }
      int node = is_node_kind(m->legend[lg].kind);
      if (node && (gx % 2 || gy % 2)) {
        parse_error(err, line_no, col, gx / 2.0, gy / 2.0, 1,
                    "Symbol '%c' on XY=(%g,%g) marks a MapNode but is located between integer "
                    "(X,Y) positions (only Links can be placed between coordinates)!",
                    ch, gx / 2.0, gy / 2.0);
        return 0;
      }
      if (!STRATA_GROW(m->comps, cap, m->comp_count + 1)) return -1;
      xy_comp *c = &m->comps[m->comp_count++];
      memset(c, 0, sizeof *c);
      c->gx = (uint16_t)gx, c->gy = (uint16_t)gy;
      c->legend = (uint16_t)lg;
      if (!node && !check_weights(m, c, err)) return 0;
      c->node = node ? (int32_t)m->node_count++ : -1;
      if (gx > max_x) max_x = gx;
      if (gy > max_y) max_y = gy;
      if (node) {
        if (gx / 2 > m->max_X) m->max_X = gx / 2;
        if (gy / 2 > m->max_Y) m->max_Y = gy / 2;
      }
    }
  }
  m->width = max_x + 1;
  m->height = max_y + 1;
  return 1;
}

/* Indexes the components by cell and the nodes by number. 0 out of memory. */
static int index_components(strata_xymap *m) {
  m->cell = strata_malloc(((size_t)m->width * (size_t)m->height + 1) * sizeof *m->cell);
  m->nodes = strata_malloc((m->node_count + 1) * sizeof *m->nodes);
  m->node_chains = strata_calloc(m->node_count + 1, sizeof *m->node_chains);
  m->node_steps = strata_calloc(m->node_count + 1, sizeof *m->node_steps);
  if (!m->cell || !m->nodes || !m->node_chains || !m->node_steps) return 0;
  strata_prefault(m->cell, (size_t)m->width * (size_t)m->height * sizeof *m->cell);
  for (size_t i = 0; i < (size_t)m->width * (size_t)m->height; i++) m->cell[i] = -1;
  for (size_t i = 0; i < m->comp_count; i++) {
    xy_comp *c = &m->comps[i];
    m->cell[(size_t)c->gy * (size_t)m->width + (size_t)c->gx] = (int32_t)i;
    if (c->node >= 0) m->nodes[c->node] = (uint32_t)i;
  }
  return 1;
}

/* Traces node n's chains into m->chains (room for *chain_cap of them),
** in n, ne, e, ... order; their names must differ, and a transition has at
** most one. */
static int trace_node(strata_xymap *m, size_t n, size_t *chain_cap, strata_error *err) {
  m->node_chains[n] = (uint32_t)m->chain_count;
  m->node_steps[n] = (uint32_t)m->step_count;
  const xy_comp *nc = &m->comps[m->nodes[n]];
  /* The names of this node's chains so far: the binary search behind
  ** xy_chain_name needs node_chains complete, which it is not yet. */
  const char *names[8];
  int named = 0;
  for (int d = 0; d < 8; d++) {
    xy_chain ch;
    int r = trace(m, m->nodes[n], d, &ch, err);
    if (r == -2) return -1;
    if (r < 0) return 0;
    if (r == 0) continue;
    /* The new chain's links are the last ch.steps entries of steps. */
    const strata_xy_legend *flg = xy_legend_of(m, &m->comps[m->steps[m->step_count - ch.steps]]);
    const char *name = flg->aliases[d][0] ? flg->aliases[d] : DIR_NAMES[d];
    for (int k = 0; k < named; k++)
      if (strcmp(names[k], name) == 0) {
        comp_error(m, nc, err,
                   "has more than one outgoing direction '%s'. All directions out of a node "
                   "must be unique.", name);
        return 0;
      }
    if (!STRATA_GROW(m->chains, *chain_cap, m->chain_count + 1)) return -1;
    m->chains[m->chain_count++] = ch;
    names[named++] = name;
  }
  if (xy_legend_of(m, nc)->kind == STRATA_XY_TRANSITION && m->chain_count - m->node_chains[n] > 1) {
    comp_error(m, nc, err, "may have at most one link connecting to it.");
    return 0;
  }
  return 1;
}

/* Traces every node's chains, in node order. */
static int trace_chains(strata_xymap *m, strata_error *err) {
  /* A chain starts on an occupied neighbour, so counting those bounds the
  ** chains; two steps per link (one walk from each end) is the usual count,
  ** and crossings walked four times add a little (an eighth is ample). */
  size_t chain_cap = 1;
  for (size_t n = 0; n < m->node_count; n++)
    for (int d = 0; d < 8; d++)
      chain_cap += xy_cell(m, m->comps[m->nodes[n]].gx + DX[d], m->comps[m->nodes[n]].gy + DY[d]) >= 0;
  m->chains = strata_malloc(chain_cap * sizeof *m->chains);
  size_t links = m->comp_count - m->node_count;
  m->step_cap = 2 * links + links / 8 + 64;
  m->steps = strata_malloc(m->step_cap * sizeof *m->steps);
  if (m->chains == NULL || m->steps == NULL) return -1;
  strata_prefault(m->chains, chain_cap * sizeof *m->chains);
  strata_prefault(m->steps, m->step_cap * sizeof *m->steps);
  for (size_t n = 0; n < m->node_count; n++) {
    int r = trace_node(m, n, &chain_cap, err);
    if (r != 1) return r;
  }
  m->node_chains[m->node_count] = (uint32_t)m->chain_count;
  return 1;
}

strata_xymap *strata_xymap_parse(const char *text, size_t len, const char *z,
                                 const strata_xy_legend *extra, size_t count,
                                 strata_error *err) {
  strata_xymap *m = strata_calloc(1, sizeof *m);
  xy_grid g = {0};
  int r = m != NULL ? 1 : -1;
  if (r == 1) {
    snprintf(m->z, sizeof m->z, "%s", z ? z : "");
    r = build_legend(m, extra, count, err); /* its error set, out of memory too */
  }
  if (r == 1) r = find_grid(m, text, len, &g, err);
  if (r == 1) r = read_components(m, &g, err);
  if (r == 1) r = index_components(m) ? 1 : -1;
  if (r == 1) r = trace_chains(m, err);
  if (r == 1) r = build_edges(m) ? 1 : -1;
  strata_free(g.lines);
  if (r != 1) {
    if (r < 0) strata_error_nomem(err, "parsing a map");
    strata_xymap_free(m);
    return NULL;
  }
  shrink((void **)&m->comps, m->comp_count, sizeof *m->comps);
  shrink((void **)&m->chains, m->chain_count, sizeof *m->chains);
  shrink((void **)&m->steps, m->step_count, sizeof *m->steps);
  m->step_cap = m->step_count;
  return m;
}

void strata_xymap_free(strata_xymap *m) {
  if (m == NULL) return;
  strata_free(m->cell);
  strata_free(m->comps);
  strata_free(m->nodes);
  strata_free(m->legend);
  strata_free(m->chains);
  strata_free(m->node_chains);
  strata_free(m->steps);
  strata_free(m->node_steps);
  strata_free(m->teleports);
  strata_free(m->in_chains);
  strata_free(m->node_in);
  strata_free(m);
}

/* ---- queries ------------------------------------------------------------------------ */

const char *strata_xymap_z(const strata_xymap *m) { return m->z; }

void strata_xymap_extent(const strata_xymap *m, int *max_x, int *max_y) {
  *max_x = m->max_X;
  *max_y = m->max_Y;
}

size_t strata_xymap_node_count(const strata_xymap *m) { return m->node_count; }

int64_t strata_xymap_node_at(const strata_xymap *m, int x, int y) {
  if (x < 0 || y < 0 || x > (INT32_MAX - 1) / 2 || y > (INT32_MAX - 1) / 2) return -1;
  int32_t c = xy_cell(m, 2 * x, 2 * y);
  return c >= 0 ? m->comps[c].node : -1;
}

void strata_xymap_node(const strata_xymap *m, size_t node, strata_xy_node_info *out) {
  const xy_comp *c = &m->comps[m->nodes[node]];
  const strata_xy_legend *lg = xy_legend_of(m, c);
  out->x = c->gx / 2;
  out->y = c->gy / 2;
  out->symbol = lg->symbol;
  out->kind = lg->kind;
  out->interrupt = lg->interrupt;
  out->legend = lg;
}

size_t strata_xymap_exit_count(const strata_xymap *m, size_t node) {
  return m->node_chains[node + 1] - m->node_chains[node];
}

void strata_xymap_exit(const strata_xymap *m, size_t node, size_t i, strata_xy_exit *out) {
  size_t c = m->node_chains[node] + i;
  const xy_chain *ch = &m->chains[c];
  out->direction = ch->direction;
  out->name = xy_chain_name(m, (uint32_t)c);
  out->target = ch->target;
  out->weight = ch->weight;
  out->first_step = xy_chain_first(m, (uint32_t)c);
  out->step_count = xy_chain_steps(m, c);
}

void strata_xymap_step(const strata_xymap *m, size_t index, strata_xy_step *out) {
  const xy_comp *c = &m->comps[m->steps[index]];
  const strata_xy_legend *lg = xy_legend_of(m, c);
  out->x = c->gx / 2.0;
  out->y = c->gy / 2.0;
  out->symbol = lg->symbol;
  out->is_node = 0;
  out->interrupt = lg->interrupt;
}
