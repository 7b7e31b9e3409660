/* ltilemap.h - tile maps as seen by the other binding files. */
#ifndef LTILEMAP_H
#define LTILEMAP_H

#include "lstrata.h"
#include "strata/world.h"

#define TILEMAP_MT "strata.tilemap"

typedef struct lstrata_tilemap {
  strata_tilemap *map; /* NULL once closed */
  int owned;           /* freed by __gc/__close; 0 when another object owns the map */
  strata_path path;    /* reused by find_path */
  strata_world *const *world; /* for a world's map: where its state (uservalue 1) keeps the owner, NULL once
                               ** closed (a served world's, lworld.h) ... */
  uint64_t uid;        /* ... and the object; the view works while it owns map */
  int searching;       /* find_path with a cost function runs: close refuses */
} lstrata_tilemap;

/* The map at arg; raises if it is not a tile map or was closed. */
strata_tilemap *lstrata_check_tilemap(lua_State *L, int arg);
/* Pushes a userdata for m. With owned != 0 the userdata frees m when collected. */
void lstrata_push_tilemap(lua_State *L, strata_tilemap *m, int owned);
/* Pushes a view of the map of object uid, owned by world w, whose userdata is
** at world_index: the view keeps it alive and refuses to work once the
** object no longer owns m (deleted) or the world was closed, instead of
** touching freed memory. */
void lstrata_push_world_tilemap(lua_State *L, strata_tilemap *m, uint64_t uid, int world_index);
/* The token id for the string at arg in m's table, interning it; raises on a
** bad name. */
strata_token lstrata_check_token(lua_State *L, strata_tilemap *m, int arg);

/* Reads a path at arg, a path value (find_path's) or a table of points
** ({ {x, y}, ... }), into out (reused), each point checked to lie on m;
** raises otherwise. */
void lstrata_check_path(lua_State *L, int arg, strata_tilemap *m, strata_path *out);

/* Option occupied of the options table at t ("ignore", "block" or a cost
** >= 0 added), as find_path and distance_map take it; raises naming the
** known values otherwise. */
void lstrata_opt_occupied(lua_State *L, int t, strata_grid_occupied *mode, double *cost);

#endif
