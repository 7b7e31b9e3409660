/* tilemap.c - token stacks per cell: edits, queries, rendering. */
#include "tilemap_internal.h"
#include "strata/alloc.h"
#include "strata/fov.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_XY(m, x, y, err)                                                              \
  do {                                                                                      \
    if (!strata_tilemap_contains((m), (x), (y)))                                            \
      return strata_error_set((err), STRATA_EARG, "cell (%d, %d) is outside the %dx%d map", \
                              (x), (y), (m)->width, (m)->height);                           \
  } while (0)

/* Map identities (strata_tilemap.id): the one counter of the process. A
** search object's caches name the map they were built from by its id and
** revision; an address could be reused by the next map, with the same
** revision, after the first is freed. */
static atomic_uint_fast64_t next_map_id = 1;

static uint64_t new_map_id(void) {
  return (uint64_t)atomic_fetch_add_explicit(&next_map_id, 1, memory_order_relaxed);
}

strata_tilemap *strata_tilemap_new(int width, int height, strata_tokens *tokens,
                                   strata_error *err) {
  if (width < 1 || height < 1 || width > STRATA_TILEMAP_SIDE_MAX ||
      height > STRATA_TILEMAP_SIDE_MAX ||
      (uint64_t)width * (uint64_t)height > STRATA_TILEMAP_CELLS_MAX) {
    strata_error_set(err, STRATA_EARG,
                     "map size %dx%d is out of range (each side 1..%d, at most %u cells)",
                     width, height, STRATA_TILEMAP_SIDE_MAX, STRATA_TILEMAP_CELLS_MAX);
    return NULL;
  }
  strata_tilemap *m = strata_calloc(1, sizeof *m);
  if (m == NULL) goto nomem;
  m->width = width;
  m->height = height;
  m->id = new_map_id();
  m->cells = strata_calloc((size_t)width * (size_t)height, sizeof *m->cells);
  if (m->cells == NULL) goto nomem;
  m->chunk_cols = ((uint32_t)width + TILEMAP_CHUNK - 1) >> TILEMAP_CHUNK_SHIFT;
  m->chunk_rows = ((uint32_t)height + TILEMAP_CHUNK - 1) >> TILEMAP_CHUNK_SHIFT;
  m->chunk_rev = strata_calloc((size_t)m->chunk_cols * m->chunk_rows, sizeof *m->chunk_rev);
  if (m->chunk_rev == NULL) goto nomem;
  if (tokens != NULL) {
    strata_tokens_retain(tokens);
    m->tokens = tokens;
  } else if ((m->tokens = strata_tokens_new(err)) == NULL) {
    strata_tilemap_free(m);
    return NULL;
  } else {
    m->private_tokens = 1;
  }
  return m;
nomem:
  strata_tilemap_free(m);
  strata_error_nomem(err, "creating a %dx%d map", width, height);
  return NULL;
}

static void release_stacks(strata_tilemap *m) {
  for (uint32_t i = 0; i < m->stack_count; i++)
    if (m->stacks[i].cap != SMALL_STACK) strata_free(m->stacks[i].items);
  strata_free(m->stacks);
  strata_free(m->free_stacks);
  m->stacks = NULL;
  m->free_stacks = NULL;
  m->stack_count = m->stack_cap = m->free_count = 0;
  while (m->chunks) {
    small_chunk *next = m->chunks->next;
    strata_free(m->chunks);
    m->chunks = next;
  }
  m->small_free = NULL;
  m->small_left = 0;
}

void strata_tilemap_free(strata_tilemap *m) {
  if (m == NULL) return;
  release_stacks(m);
  strata_free(m->cells);
  strata_free(m->chunk_rev);
  strata_grid_search_free(m->search);
  strata_fov_free(m->fov);
  strata_tokens_release(m->tokens);
  uidmap_free(&m->occ);
  strata_free(m);
}

int strata_tilemap_occupied(const strata_tilemap *m, int x, int y) {
  if (m == NULL || !strata_tilemap_contains(m, x, y)) return 0;
  return tilemap_occupied_at(m, (uint32_t)y * (uint32_t)m->width + (uint32_t)x);
}

int strata_tilemap_width(const strata_tilemap *m) { return m->width; }
int strata_tilemap_height(const strata_tilemap *m) { return m->height; }
strata_tokens *strata_tilemap_tokens(const strata_tilemap *m) { return m->tokens; }
uint64_t strata_tilemap_revision(const strata_tilemap *m) { return m->revision; }

int strata_tilemap_contains(const strata_tilemap *m, int x, int y) {
  return x >= 0 && y >= 0 && x < m->width && y < m->height;
}

int strata_tilemap_has_private_tokens(const strata_tilemap *m) { return m->private_tokens; }

strata_status strata_tilemap_own_tokens(strata_tilemap *m, strata_error *err) {
  if (m->private_tokens) return STRATA_OK;
  strata_tokens *copy = strata_tokens_clone(m->tokens, err);
  if (copy == NULL) return STRATA_ENOMEM;
  strata_tokens_release(m->tokens);
  m->tokens = copy;
  m->private_tokens = 1; /* search caches see another table, and rebuild */
  return STRATA_OK;
}

static strata_status check_token(const strata_tilemap *m, strata_token t, strata_error *err) {
  if (t == 0 || t > strata_tokens_count(m->tokens))
    return strata_error_set(err, STRATA_EARG, "token id %u is not in this map's token table", t);
  return STRATA_OK;
}

/* ---- side stacks ---------------------------------------------------------------- */

/* A block of SMALL_STACK tokens; NULL on ENOMEM. Chunks double from 128
** blocks (2 KB) to 1024, so a small map holds one. */
static strata_token *small_take(strata_tilemap *m) {
  strata_token *b = tilemap_small_take_fast(m);
  if (b != NULL) return b;
  size_t blocks = m->chunks ? m->chunks->blocks * 2 : 128;
  if (blocks > 1024) blocks = 1024;
  small_chunk *c = strata_malloc(sizeof *c + blocks * SMALL_STACK * sizeof(strata_token));
  if (c == NULL) return NULL;
  c->next = m->chunks, c->blocks = blocks;
  m->chunks = c, m->small_left = blocks;
  return tilemap_small_take_fast(m);
}

static void small_give(strata_tilemap *m, strata_token *b) {
  memcpy(b, &m->small_free, sizeof m->small_free);
  m->small_free = b;
}

static void items_free(strata_tilemap *m, side_stack *st) {
  if (st->cap == SMALL_STACK) small_give(m, st->items);
  else strata_free(st->items);
}

/* Takes a free side stack able to hold SMALL_STACK tokens; returns its
** index or -1. */
static int64_t stack_alloc(strata_tilemap *m) {
  uint32_t cap = SMALL_STACK;
  strata_token *items = small_take(m);
  if (items == NULL) return -1;
  uint32_t idx;
  if (m->free_count > 0) {
    idx = m->free_stacks[--m->free_count];
  } else {
    if (m->stack_count == m->stack_cap) { /* two arrays of one 32-bit capacity: not strata_grow */
      uint32_t ncap = m->stack_cap ? m->stack_cap * 2 : 256; /* 5 KB: a small layout's stacks at once */
      side_stack *s = strata_realloc(m->stacks, (size_t)ncap * sizeof *s);
      if (s == NULL) { small_give(m, items); return -1; }
      m->stacks = s;
      uint32_t *f = strata_realloc(m->free_stacks, (size_t)ncap * sizeof *f);
      if (f == NULL) { small_give(m, items); return -1; }
      m->free_stacks = f;
      m->stack_cap = ncap;
    }
    idx = m->stack_count++;
  }
  m->stacks[idx] = (side_stack){0, cap, items};
  return idx;
}

static void stack_release(strata_tilemap *m, uint32_t idx) {
  items_free(m, &m->stacks[idx]);
  m->stacks[idx] = (side_stack){0, 0, NULL};
  m->free_stacks[m->free_count++] = idx;
}

/* Room for one more token in the stack; 0 on ENOMEM (stack unchanged). */
static int stack_reserve(strata_tilemap *m, side_stack *st) {
  if (st->len < st->cap) return 1;
  uint32_t ncap = st->cap * 2;
  strata_token *items;
  if (st->cap == SMALL_STACK) { /* out of its block */
    items = strata_malloc((size_t)ncap * sizeof *items);
    if (items == NULL) return 0;
    memcpy(items, st->items, st->len * sizeof *items);
    small_give(m, st->items);
  } else {
    items = strata_realloc(st->items, (size_t)ncap * sizeof *items);
  }
  if (items == NULL) return 0;
  st->items = items;
  st->cap = ncap;
  return 1;
}

void tilemap_touch_rect(strata_tilemap *m, int x0, int y0, int x1, int y1) {
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > m->width) x1 = m->width;
  if (y1 > m->height) y1 = m->height;
  if (x0 >= x1 || y0 >= y1) return;
  for (uint32_t cy = (uint32_t)y0 >> TILEMAP_CHUNK_SHIFT; cy <= (uint32_t)(y1 - 1) >> TILEMAP_CHUNK_SHIFT; cy++)
    for (uint32_t cx = (uint32_t)x0 >> TILEMAP_CHUNK_SHIFT; cx <= (uint32_t)(x1 - 1) >> TILEMAP_CHUNK_SHIFT; cx++)
      m->chunk_rev[cy * m->chunk_cols + cx] = m->revision + 1;
}

void tilemap_cell_reset(strata_tilemap *m, uint32_t i, strata_token t) {
  uint32_t v = m->cells[i];
  if (v & CELL_STACK) stack_release(m, v & ~CELL_STACK);
  m->cells[i] = t;
}

/* Adds t on top (front == 0) or at the bottom (front != 0) of cell i, which
** holds a token already: the cases tilemap_cell_add does not finish inline
** (it handles empty cells itself). */
strata_status tilemap_cell_push(strata_tilemap *m, uint32_t i, strata_token t, int front,
                                strata_error *err) {
  uint32_t v = m->cells[i];
  if ((v & CELL_STACK) == 0) {
    int64_t idx = stack_alloc(m);
    if (idx < 0) goto nomem;
    side_stack *st = &m->stacks[idx];
    st->items[0] = front ? t : v;
    st->items[1] = front ? v : t;
    st->len = 2;
    m->cells[i] = CELL_STACK | (uint32_t)idx;
    return STRATA_OK;
  }
  side_stack *st = &m->stacks[v & ~CELL_STACK];
  if (!stack_reserve(m, st)) goto nomem;
  if (front) {
    memmove(st->items + 1, st->items, st->len * sizeof *st->items);
    st->items[0] = t;
  } else {
    st->items[st->len] = t;
  }
  st->len++;
  return STRATA_OK;
nomem:
  return strata_error_nomem(err, "adding a token to cell (%u, %u)",
                          i % (uint32_t)m->width, i / (uint32_t)m->width);
}

int tilemap_cell_remove_first(strata_tilemap *m, uint32_t i, strata_token t) {
  uint32_t v = m->cells[i];
  if (v == t) {
    m->cells[i] = 0;
    return 1;
  }
  if ((v & CELL_STACK) == 0) return 0;
  side_stack *st = &m->stacks[v & ~CELL_STACK];
  uint32_t k = 0;
  while (k < st->len && st->items[k] != t) k++;
  if (k == st->len) return 0;
  for (st->len--; k < st->len; k++) st->items[k] = st->items[k + 1]; /* short: no memmove call */
  /* Collapse back to the in-place form so that one-token cells stay cheap. */
  if (st->len <= 1) tilemap_cell_reset(m, i, st->len == 1 ? st->items[0] : 0);
  return 1;
}

/* ---- copies --------------------------------------------------------------------- */

strata_tilemap *strata_tilemap_clone(const strata_tilemap *m, strata_error *err) {
  size_t n = (size_t)m->width * (size_t)m->height;
  strata_tilemap *c = strata_calloc(1, sizeof *c);
  if (c == NULL) goto nomem;
  c->width = m->width;
  c->height = m->height;
  c->revision = m->revision;
  c->id = new_map_id();
  c->origin = m->id;
  c->tiles_in = m->tiles_in, c->saved_id = m->saved_id, c->saved_rev = m->saved_rev;
  c->cells = strata_malloc(n * sizeof *c->cells);
  if (c->cells == NULL) goto nomem;
  memcpy(c->cells, m->cells, n * sizeof *c->cells);
  size_t nchunks = (size_t)m->chunk_cols * m->chunk_rows;
  c->chunk_cols = m->chunk_cols, c->chunk_rows = m->chunk_rows;
  c->chunk_rev = strata_malloc(nchunks * sizeof *c->chunk_rev);
  if (c->chunk_rev == NULL) goto nomem;
  memcpy(c->chunk_rev, m->chunk_rev, nchunks * sizeof *c->chunk_rev);
  if (m->private_tokens) {
    if ((c->tokens = strata_tokens_clone(m->tokens, err)) == NULL) goto fail;
    c->private_tokens = 1;
  } else {
    strata_tokens_retain(m->tokens);
    c->tokens = m->tokens;
  }
  if (m->stack_cap > 0) {
    /* Stacks keep their indices (the cells name them); the small ones move
    ** into one chunk holding them all. */
    c->stacks = strata_malloc((size_t)m->stack_cap * sizeof *c->stacks);
    c->free_stacks = strata_malloc((size_t)m->stack_cap * sizeof *c->free_stacks);
    if (c->stacks == NULL || c->free_stacks == NULL) goto nomem;
    c->stack_cap = m->stack_cap;
    memcpy(c->free_stacks, m->free_stacks, (size_t)m->free_count * sizeof *c->free_stacks);
    c->free_count = m->free_count;
    size_t small = 0;
    for (uint32_t i = 0; i < m->stack_count; i++) small += m->stacks[i].cap == SMALL_STACK;
    strata_token *block = NULL;
    if (small > 0) {
      small_chunk *ch = strata_malloc(sizeof *ch + small * SMALL_STACK * sizeof(strata_token));
      if (ch == NULL) goto nomem;
      ch->next = NULL, ch->blocks = small;
      c->chunks = ch; /* small_left stays 0: every block is handed out below */
      block = ch->items;
    }
    for (uint32_t i = 0; i < m->stack_count; i++) {
      side_stack st = m->stacks[i];
      if (st.cap == SMALL_STACK) {
        memcpy(block, st.items, st.len * sizeof *block);
        st.items = block;
        block += SMALL_STACK;
      } else if (st.cap > 0) {
        strata_token *items = strata_malloc((size_t)st.cap * sizeof *items);
        if (items == NULL) goto nomem;
        memcpy(items, st.items, st.len * sizeof *items);
        st.items = items;
      }
      c->stacks[i] = st;
      c->stack_count = i + 1; /* what strata_tilemap_free releases, should a later one fail */
    }
  }
  return c;
nomem:
  strata_error_nomem(err, "copying a %dx%d map", m->width, m->height);
fail:
  strata_tilemap_free(c);
  return NULL;
}

void tilemap_restore(strata_tilemap *m, strata_tilemap *from) {
  strata_tilemap now = *m;
  strata_grid_search *theirs = from->search;
  strata_fov *their_fov = from->fov;
  uint64_t revision = now.revision > from->revision ? now.revision : from->revision;
  *m = *from; /* the contents */
  /* m keeps its search object (and its identity, below, when from copies
  ** it); the revision moves past both, so that what the search cached for
  ** either contents is stale */
  m->revision = revision + 1;
  m->origin = 0;
  if (from->origin == now.id) {
    /* A copy of this very map: a chunk edited since the copy was made
    ** (stamped past the copy's revision) now holds the copy's cells, which
    ** a save made in between may not have: it is stamped as edited now. The
    ** others hold what they held. */
    for (size_t c = 0; c < (size_t)m->chunk_cols * m->chunk_rows; c++)
      if (now.chunk_rev[c] > from->revision) m->chunk_rev[c] = m->revision;
    m->id = now.id;
  } else {
    /* Another map's contents (the object was given this map after the copy
    ** was made): to saves and caches, another map. */
    m->id = new_map_id();
  }
  m->search = now.search, m->fov = now.fov;
  /* the actors on it are the holder's too (the world undoes their moves) */
  m->occ = now.occ, m->occ_lost = now.occ_lost, m->searching = now.searching;
  m->tiles_in = now.tiles_in, m->saved_id = now.saved_id, m->saved_rev = now.saved_rev; /* the holder's */
  *from = now; /* the discarded contents, freed below */
  from->occ = (uidmap){0};
  from->search = theirs, from->fov = their_fov;
  strata_tilemap_free(from);
}

/* ---- edits ---------------------------------------------------------------------- */

static uint32_t index_of(const strata_tilemap *m, int x, int y) {
  return (uint32_t)y * (uint32_t)m->width + (uint32_t)x;
}

strata_status strata_tilemap_set(strata_tilemap *m, int x, int y, strata_token t,
                                 strata_error *err) {
  CHECK_XY(m, x, y, err);
  if (check_token(m, t, err)) return STRATA_EARG;
  tilemap_touch_xy(m, x, y);
  strata_status st = tilemap_cell_add(m, index_of(m, x, y), t, 0, err);
  if (st == STRATA_OK) m->revision++;
  return st;
}

strata_status strata_tilemap_add_front(strata_tilemap *m, int x, int y, strata_token t,
                                       strata_error *err) {
  CHECK_XY(m, x, y, err);
  if (check_token(m, t, err)) return STRATA_EARG;
  tilemap_touch_xy(m, x, y);
  strata_status st = tilemap_cell_add(m, index_of(m, x, y), t, 1, err);
  if (st == STRATA_OK) m->revision++;
  return st;
}

strata_status strata_tilemap_remove(strata_tilemap *m, int x, int y, strata_token t,
                                    int *removed, strata_error *err) {
  CHECK_XY(m, x, y, err);
  uint32_t i = index_of(m, x, y);
  uint32_t v = m->cells[i];
  int n = 0;
  if (t != 0 && v == t) {
    tilemap_touch_xy(m, x, y);
    m->cells[i] = 0;
    n = 1;
  } else if (t != 0 && (v & CELL_STACK)) {
    side_stack *st = &m->stacks[v & ~CELL_STACK];
    uint32_t keep = 0;
    for (uint32_t k = 0; k < st->len; k++)
      if (st->items[k] != t) st->items[keep++] = st->items[k];
    n = (int)(st->len - keep);
    st->len = keep;
    if (n > 0) tilemap_touch_xy(m, x, y);
    /* Collapse back to the in-place form so that one-token cells stay cheap. */
    if (keep <= 1) tilemap_cell_reset(m, i, keep == 1 ? st->items[0] : 0);
  }
  if (n > 0) m->revision++;
  if (removed) *removed = n;
  return STRATA_OK;
}

strata_status strata_tilemap_reset(strata_tilemap *m, int x, int y, strata_token t,
                                   strata_error *err) {
  CHECK_XY(m, x, y, err);
  if (t != 0 && check_token(m, t, err)) return STRATA_EARG;
  tilemap_touch_xy(m, x, y);
  tilemap_cell_reset(m, index_of(m, x, y), t);
  m->revision++;
  return STRATA_OK;
}

strata_status strata_tilemap_clear(strata_tilemap *m, strata_token t, strata_error *err) {
  if (t != 0 && check_token(m, t, err)) return STRATA_EARG;
  release_stacks(m);
  size_t n = (size_t)m->width * (size_t)m->height;
  for (size_t i = 0; i < n; i++) m->cells[i] = t;
  tilemap_touch_rect(m, 0, 0, m->width, m->height);
  m->revision++;
  return STRATA_OK;
}

strata_status strata_tilemap_fill_rect(strata_tilemap *m, int x, int y, int w, int h,
                                       strata_token t, int push, strata_error *err) {
  if (t != 0 && check_token(m, t, err)) return STRATA_EARG;
  if (push && t == 0) return strata_error_set(err, STRATA_EARG, "cannot push token 0");
  int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
  int64_t x1 = (int64_t)x + w, y1 = (int64_t)y + h;
  if (x1 > m->width) x1 = m->width;
  if (y1 > m->height) y1 = m->height;
  if (x0 < x1 && y0 < y1) tilemap_touch_rect(m, x0, y0, (int)x1, (int)y1);
  for (int cy = y0; cy < y1; cy++) {
    for (int cx = x0; cx < x1; cx++) {
      uint32_t i = index_of(m, cx, cy);
      if (!push) {
        tilemap_cell_reset(m, i, t);
      } else if (tilemap_cell_add(m, i, t, 0, err) != STRATA_OK) {
        m->revision++; /* earlier cells were changed */
        return STRATA_ENOMEM;
      }
    }
  }
  m->revision++;
  return STRATA_OK;
}

/* ---- queries -------------------------------------------------------------------- */

size_t strata_tilemap_stack(const strata_tilemap *m, int x, int y, strata_token *out,
                            size_t cap) {
  if (!strata_tilemap_contains(m, x, y)) return 0;
  uint32_t v = m->cells[index_of(m, x, y)];
  if (v == 0) return 0;
  if ((v & CELL_STACK) == 0) {
    if (cap > 0) out[0] = v;
    return 1;
  }
  const side_stack *st = &m->stacks[v & ~CELL_STACK];
  for (size_t k = 0; k < st->len && k < cap; k++) out[k] = st->items[k];
  return st->len;
}

strata_token strata_tilemap_top(const strata_tilemap *m, int x, int y) {
  if (!strata_tilemap_contains(m, x, y)) return 0;
  uint32_t v = m->cells[index_of(m, x, y)];
  if ((v & CELL_STACK) == 0) return v;
  const side_stack *st = &m->stacks[v & ~CELL_STACK];
  return st->items[st->len - 1];
}

int strata_tilemap_has(const strata_tilemap *m, int x, int y, strata_token t) {
  if (t == 0 || !strata_tilemap_contains(m, x, y)) return 0;
  uint32_t v = m->cells[index_of(m, x, y)];
  if ((v & CELL_STACK) == 0) return v == t;
  const side_stack *st = &m->stacks[v & ~CELL_STACK];
  for (uint32_t k = 0; k < st->len; k++)
    if (st->items[k] == t) return 1;
  return 0;
}

int strata_tilemap_passable(const strata_tilemap *m, int x, int y) {
  return strata_tilemap_cost(m, x, y) > 0;
}

double strata_tilemap_cost(const strata_tilemap *m, int x, int y) {
  if (!strata_tilemap_contains(m, x, y)) return 0;
  uint32_t v = m->cells[index_of(m, x, y)];
  uint32_t n = 1;
  const strata_token *items = &v;
  if (v == 0) return 0;
  if (v & CELL_STACK) {
    items = m->stacks[v & ~CELL_STACK].items;
    n = m->stacks[v & ~CELL_STACK].len;
  }
  double worst = 0;
  for (uint32_t k = 0; k < n; k++) {
    const strata_token_traits *tr = strata_tokens_traits(m->tokens, items[k]);
    if (!tr->passable) return 0;
    if (tr->cost > worst) worst = tr->cost;
  }
  return worst;
}

size_t strata_tilemap_memory(const strata_tilemap *m) {
  size_t bytes = sizeof *m + (size_t)m->width * (size_t)m->height * sizeof *m->cells;
  bytes += (size_t)m->stack_cap * (sizeof *m->stacks + sizeof *m->free_stacks);
  bytes += (size_t)m->chunk_cols * m->chunk_rows * sizeof *m->chunk_rev;
  for (uint32_t i = 0; i < m->stack_count; i++)
    if (m->stacks[i].cap != SMALL_STACK) bytes += (size_t)m->stacks[i].cap * sizeof(strata_token);
  for (const small_chunk *c = m->chunks; c; c = c->next)
    bytes += sizeof *c + c->blocks * SMALL_STACK * sizeof(strata_token);
  if (m->search) bytes += strata_grid_search_memory(m->search);
  if (m->fov) bytes += strata_fov_memory(m->fov);
  return bytes;
}

/* ---- rendering ------------------------------------------------------------------ */

strata_status strata_tilemap_render(const strata_tilemap *m, const strata_render_options *opt,
                                    char **out, size_t *len, strata_error *err) {
  static const strata_render_options no_options = {NULL, NULL, NULL, 0};
  if (opt == NULL) opt = &no_options;
  const strata_path *overlay = opt->overlay;
  const char *overlay_glyph = opt->overlay_glyph ? opt->overlay_glyph : "*";
  size_t cells = (size_t)m->width * (size_t)m->height;
  unsigned char *marked = NULL;
  size_t overlay_len = strlen(overlay_glyph);
  if (overlay != NULL && overlay->len > 0) {
    marked = strata_calloc((cells + 7) / 8, 1);
    if (marked == NULL) goto nomem;
    for (size_t k = 0; k < overlay->len; k++) {
      uint32_t i = overlay->nodes[k];
      if (i >= cells) {
        strata_free(marked);
        return strata_error_set(err, STRATA_EARG, "path cell index %u is outside the map", i);
      }
      marked[i / 8] |= (unsigned char)(1u << (i % 8));
    }
  }
  /* First pass sizes the text exactly; glyphs may be several UTF-8 bytes. */
  size_t total = (size_t)m->height; /* newlines */
  for (int pass = 0; pass < 2; pass++) {
    char *buf = NULL, *p = NULL;
    if (pass == 1) {
      buf = p = strata_malloc(total + 1);
      if (buf == NULL) goto nomem;
    }
    for (int y = 0; y < m->height; y++) {
      for (int x = 0; x < m->width; x++) {
        uint32_t i = index_of(m, x, y);
        const char *g;
        size_t gl;
        if (marked && (marked[i / 8] >> (i % 8)) & 1) {
          g = overlay_glyph;
          gl = overlay_len;
        } else {
          strata_token t = strata_tilemap_top(m, x, y);
          g = t == 0 ? " "
              : (t < opt->glyph_count && opt->glyphs[t]) ? opt->glyphs[t]
              : strata_tokens_traits(m->tokens, t)->glyph;
          gl = strlen(g);
          if (gl == 0) g = " ", gl = 1;
        }
        if (pass == 0) {
          total += gl;
        } else {
          memcpy(p, g, gl);
          p += gl;
        }
      }
      if (pass == 1) *p++ = '\n';
    }
    if (pass == 1) {
      *p = '\0';
      *out = buf;
      if (len) *len = total;
    }
  }
  strata_free(marked);
  return STRATA_OK;
nomem:
  strata_free(marked);
  return strata_error_nomem(err, "rendering a %dx%d map", m->width,
                          m->height);
}
