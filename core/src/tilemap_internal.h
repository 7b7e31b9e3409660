/* tilemap_internal.h - the tile map's representation, shared with the
** search engines (gridengine.c) and the layout interpreter. */
#ifndef STRATA_TILEMAP_INTERNAL_H
#define STRATA_TILEMAP_INTERNAL_H

#include <string.h>

#include "strata/tilemap.h"
#include "uidset.h"

/* A cell word: 0 = empty; a token id when CELL_STACK is clear; otherwise the
** index of a side stack. Token ids stay below 2^24 (STRATA_TOKENS_MAX). */
#define CELL_STACK 0x80000000u

typedef struct side_stack {
  uint32_t len, cap; /* cap == 0 marks a free slot (index kept in the free list) */
  strata_token *items; /* bottom first; with cap == SMALL_STACK, a block of the map's chunks */
} side_stack;

/* Stacks start with room for SMALL_STACK tokens, in blocks carved from
** chunks the map owns (and reused through a free list): maps made by
** layouts turn most cells into stacks, and one malloc per cell cost more
** than the rest of the edit. */
#define SMALL_STACK 4u
typedef struct small_chunk {
  struct small_chunk *next;
  size_t blocks;
  strata_token items[]; /* blocks * SMALL_STACK */
} small_chunk;

struct strata_tilemap {
  int width, height;
  uint32_t *cells;
  strata_tokens *tokens;
  int private_tokens;        /* tokens is this map's own table (see strata_tilemap_own_tokens) */
  side_stack *stacks;
  uint32_t stack_count, stack_cap;
  uint32_t *free_stacks;
  uint32_t free_count;
  small_chunk *chunks;       /* newest first */
  strata_token *small_free;  /* freed blocks, each holding the next one's address */
  size_t small_left;         /* blocks not yet handed out in chunks (the newest) */
  uint64_t revision;
  /* Names this map among all maps of the process, for the caches of search
  ** objects (with revision): never reused, unlike the map's address. */
  uint64_t id;
  strata_grid_search *search; /* strata_tilemap_find_path's, made on its first call */
  struct strata_fov *fov;     /* strata_tilemap_fov's, made on its first call */
  /* Save chunks (save.c writes a map as TILEMAP_CHUNK-sided squares, one row
  ** each; nothing to do with the small_chunk blocks above): per chunk, the
  ** revision its last edit made (revision + 1 at the time), so that a save
  ** which recorded revision R writes exactly the chunks stamped past R. */
  uint64_t *chunk_rev;
  uint32_t chunk_cols, chunk_rows;
  uint64_t origin; /* a clone's: the id of the map it copies (tilemap_restore) */
  /* The state of the object holding this map, kept here rather than in
  ** every object's record (world_internal.h): the serial of the savepoint
  ** that saved its tiles (world_txn.c), and the map the save file holds for
  ** it, as the map's id at a revision. Tiles whose map differs are written
  ** by the next save, whoever edited them and however (see save.c). A clone
  ** copies them (its id differs: written whole); tilemap_restore keeps m's. */
  uint64_t tiles_in, saved_id, saved_rev;
  /* The cells actors stand on (strata_tilemap_occupied): cell index + 1 ->
  ** how many, kept by the world that holds the map (world_bymap.c), derived
  ** from its actors' positions: never saved, never copied by a clone, kept
  ** by tilemap_restore. occ_lost: an addition found no memory (the count is
  ** unknown until the world counts again). */
  uidmap occ;
  int occ_lost;
  /* Searches with a cost callback running on this map: the world refuses
  ** to delete the map or replace its tiles meanwhile (the callback could). */
  int searching;
};

/* The side of a save chunk in cells, a power of two (docs/saves.md says why 64). */
#ifndef TILEMAP_CHUNK_SHIFT
#define TILEMAP_CHUNK_SHIFT 6
#endif
#define TILEMAP_CHUNK (1u << TILEMAP_CHUNK_SHIFT)

/* Stamps the chunk of cell (x, y) as edited: every path that changes cells
** does this or tilemap_touch_rect (the public edits in tilemap.c; a layout
** run stamps the whole map once, rather than per cell, which cost layouts
** 5-8 %). The stamp is the revision the edit ends with: callers move
** m->revision on once after their edits. */
static inline void tilemap_touch_xy(strata_tilemap *m, int x, int y) {
  m->chunk_rev[((uint32_t)y >> TILEMAP_CHUNK_SHIFT) * m->chunk_cols + ((uint32_t)x >> TILEMAP_CHUNK_SHIFT)] =
    m->revision + 1;
}
/* The same for every chunk the cells [x0, x1) x [y0, y1) touch (clipped). */
void tilemap_touch_rect(strata_tilemap *m, int x0, int y0, int x1, int y1);

/* Rollback of a world savepoint (world.c): m takes over the contents of
** from (a clone of m made earlier), keeping its own address, because callers
** hold strata_tilemap pointers. m's previous contents and the struct from
** are freed. m keeps its search object, and its revision moves past both, so
** that nothing built for the discarded contents is taken as current. The
** chunks edited since the copy are stamped anew; a copy of another map (the
** object was given m after the copy was made) gives m a new identity. */
void tilemap_restore(strata_tilemap *m, strata_tilemap *from);

/* Edits of cell index i for callers that checked i and t themselves (the
** layout interpreter): they leave m->revision and the chunk stamps
** (tilemap_touch_xy) to the caller. Adding a token
** goes through tilemap_cell_add (below); tilemap_cell_push is its slow
** path, for a cell that holds a token already. */
strata_status tilemap_cell_push(strata_tilemap *m, uint32_t i, strata_token t, int front,
                                strata_error *err);
void tilemap_cell_reset(strata_tilemap *m, uint32_t i, strata_token t);

/* A block of SMALL_STACK tokens from the free list or the newest chunk, or
** NULL when that needs a new chunk (tilemap.c's small_take makes one). */
static inline strata_token *tilemap_small_take_fast(strata_tilemap *m) {
  strata_token *b = m->small_free;
  if (b != NULL) {
    memcpy(&m->small_free, b, sizeof m->small_free);
    return b;
  }
  if (m->small_left == 0) return NULL;
  m->small_left--;
  return m->chunks->items + (m->chunks->blocks - m->small_left - 1) * SMALL_STACK;
}

/* tilemap_cell_push with its common cases inline: an empty cell, a stack
** with room, a one-token cell becoming a stack when a slot and a block are
** at hand. */
static inline strata_status tilemap_cell_add(strata_tilemap *m, uint32_t i, strata_token t, int front,
                                             strata_error *err) {
  uint32_t v = m->cells[i];
  if (v == 0) {
    m->cells[i] = t;
    return STRATA_OK;
  }
  if ((v & CELL_STACK) == 0) {
    strata_token *b;
    if ((m->free_count > 0 || m->stack_count < m->stack_cap) && (b = tilemap_small_take_fast(m)) != NULL) {
      uint32_t idx = m->free_count > 0 ? m->free_stacks[--m->free_count] : m->stack_count++;
      b[0] = front ? t : v, b[1] = front ? v : t;
      m->stacks[idx] = (side_stack){2, SMALL_STACK, b};
      m->cells[i] = CELL_STACK | idx;
      return STRATA_OK;
    }
  } else {
    side_stack *st = &m->stacks[v & ~CELL_STACK];
    if (st->len < st->cap) {
      if (front) {
        for (uint32_t k = st->len; k > 0; k--) st->items[k] = st->items[k - 1];
        st->items[0] = t;
      } else {
        st->items[st->len] = t;
      }
      st->len++;
      return STRATA_OK;
    }
  }
  return tilemap_cell_push(m, i, t, front, err);
}
/* Removes the lowest t of cell i; 1 if there was one. */
int tilemap_cell_remove_first(strata_tilemap *m, uint32_t i, strata_token t);

/* Actors on cell index i (no bounds check); -1 when the count is lost. */
static inline int tilemap_occupied_at(const strata_tilemap *m, uint32_t i) {
  if (m->occ_lost) return -1;
  if (m->occ.n == 0) return 0;
  const size_t *k = uidmap_get(&m->occ, (uint64_t)i + 1);
  return k ? (int)*k : 0;
}

/* Cost of entering cell index i, given each token id's cost (0: impassable). */
static inline double tilemap_cell_cost(const strata_tilemap *m, const double *cost, uint32_t i) {
  uint32_t v = m->cells[i];
  if ((v & CELL_STACK) == 0) return cost[v];
  const side_stack *st = &m->stacks[v & ~CELL_STACK];
  double worst = 0;
  for (uint32_t k = 0; k < st->len; k++) {
    double c = cost[st->items[k]];
    if (c == 0) return 0;
    if (c > worst) worst = c;
  }
  return worst;
}

#endif
