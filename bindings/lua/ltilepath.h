/* ltilepath.h - tile map paths as Lua values (tilepath.c). */
#ifndef LTILEPATH_H
#define LTILEPATH_H

#include "lstrata.h"

#define TILEPATH_MT "strata.path"

/* Pushes a path value holding a copy of p's cells (indices into a map of
** the given width and height) and its cost. */
void lstrata_push_tilepath(lua_State *L, const strata_path *p, int width, int height);
/* Reads the path at arg, a path value or a table of points ({ {x, y}, ... }),
** into out as cell indices of a width x height map (out is grown as needed).
** Raises when a point is not one or lies outside the map; what names the
** argument in that error ("option 'path'"). */
void lstrata_check_tilepath(lua_State *L, int arg, int width, int height, strata_path *out,
                            const char *what);

#endif
