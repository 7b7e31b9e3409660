/* tilemap.c - strata.tilemap: tile maps, their cells, paths and rendering. */
#include <stdlib.h>
#include <string.h>

#include "ltilemap.h"
#include "ltilepath.h"
#include "ltokens.h"
#include "lworld.h"

static lstrata_tilemap *check_ud(lua_State *L, int arg) {
  return lstrata_checkudata(L, arg, TILEMAP_MT);
}

/* A view of a world's map checks on every use that the world still owns it. */
static int view_alive(const lstrata_tilemap *ud) {
  return ud->map != NULL && (ud->world == NULL || strata_world_tilemap(*ud->world, ud->uid) == ud->map);
}

strata_tilemap *lstrata_check_tilemap(lua_State *L, int arg) {
  lstrata_tilemap *ud = check_ud(L, arg);
  if (ud->map == NULL) lstrata_argerror(L, arg, "the map was closed");
  if (ud->world && *ud->world == NULL) lstrata_argerror(L, arg, LSTRATA_WORLD_CLOSED);
  if (!view_alive(ud)) lstrata_argerror(L, arg, "the map was deleted");
  return ud->map;
}

void lstrata_push_tilemap(lua_State *L, strata_tilemap *m, int owned) {
  lstrata_tilemap *ud = lua_newuserdatauv(L, sizeof *ud, 1);
  ud->map = m;
  ud->owned = owned;
  ud->world = NULL;
  ud->uid = 0;
  ud->searching = 0;
  strata_path_init(&ud->path);
  luaL_setmetatable(L, TILEMAP_MT);
}

void lstrata_push_world_tilemap(lua_State *L, strata_tilemap *m, uint64_t uid, int world_index) {
  world_index = lua_absindex(L, world_index);
  lstrata_push_tilemap(L, m, 0);
  lstrata_tilemap *ud = lua_touserdata(L, -1);
  ud->world = lstrata_world_slot(L, world_index);
  ud->uid = uid;
  lua_pushvalue(L, world_index);
  lua_setiuservalue(L, -2, 1);
}

/* The map of an edit at arg: a world's map is touched first when a savepoint
** is open (strata_world_touch), so that its rollback undoes the edit. The
** binding does it, not each Lua caller of an edit. */
static strata_tilemap *check_edit(lua_State *L, int arg) {
  strata_tilemap *m = lstrata_check_tilemap(L, arg);
  const lstrata_tilemap *ud = lua_touserdata(L, arg);
  strata_error err;
  if (ud->world && strata_world_depth(*ud->world) && strata_world_touch(*ud->world, ud->uid, &err))
    lstrata_raise(L, NULL, &err);
  return m;
}

strata_token lstrata_check_token(lua_State *L, strata_tilemap *m, int arg) {
  size_t len;
  const char *name = lstrata_checklstring(L, arg, &len);
  strata_error err;
  strata_token t = strata_tokens_intern(strata_tilemap_tokens(m), name, len, &err);
  if (t == 0) lstrata_argerror(L, arg, err.message);
  return t;
}

/* A token name that may be absent: returns 0 then, and for names never seen
** (nothing can hold them). */
static strata_token find_token(lua_State *L, strata_tilemap *m, int arg) {
  size_t len;
  const char *name = lstrata_checklstring(L, arg, &len);
  return strata_tokens_find(strata_tilemap_tokens(m), name, len);
}

/* Checks x, y at arg, arg+1 and that they lie on the map. */
static void check_cell(lua_State *L, strata_tilemap *m, int arg, int *x, int *y) {
  *x = lstrata_check_int(L, arg);
  *y = lstrata_check_int(L, arg + 1);
  if (!strata_tilemap_contains(m, *x, *y))
    lstrata_argerror(L, arg, lua_pushfstring(L, "cell (%d, %d) is outside the %dx%d map", *x, *y,
                                             strata_tilemap_width(m), strata_tilemap_height(m)));
}

static int check_status(lua_State *L, strata_status st, const strata_error *err) {
  if (st != STRATA_OK) lstrata_raise(L, NULL, err);
  return 0;
}

/* strata.tilemap.new{ width =, height =, fill =, tokens = } */
static int tilemap_new(lua_State *L) {
  static const char *const known[] = {"width", "height", "fill", "tokens", NULL};
  lstrata_check_options(L, 1, known, 0);
  lua_Integer w = lstrata_opt_int(L, 1, "width", -1), h = lstrata_opt_int(L, 1, "height", -1);
  if (w < 1 || h < 1 || w > STRATA_TILEMAP_SIDE_MAX || h > STRATA_TILEMAP_SIDE_MAX)
    return lstrata_argerror(L, 1, lua_pushfstring(L, "width and height must be integers in 1..%d",
                                                  STRATA_TILEMAP_SIDE_MAX));
  const char *fill = lstrata_opt_string(L, 1, "fill", NULL);
  strata_tokens *tokens = lstrata_default_tokens(L);
  int private_defs = 0;
  if (lua_getfield(L, 1, "tokens") == LUA_TUSERDATA) {
    tokens = lstrata_check_tokens(L, -1);
  } else if (lua_type(L, -1) == LUA_TTABLE) {
    private_defs = 1; /* a copy of the defaults plus these definitions */
  } else if (!lua_isnil(L, -1)) {
    return lstrata_argerror(L, 1, "option 'tokens' must be a token table or a table of traits");
  }
  strata_error err;
  strata_tilemap *m = strata_tilemap_new((int)w, (int)h, tokens, &err);
  if (m == NULL) return lstrata_raise(L, "tilemap.new", &err);
  lstrata_push_tilemap(L, m, 1); /* owns m from here: errors below cannot leak it */
  int map_index = lua_gettop(L);
  if (private_defs) {
    if (strata_tilemap_own_tokens(m, &err) != STRATA_OK) return lstrata_raise(L, NULL, &err);
    int defs = map_index - 1;
    lua_pushnil(L);
    while (lua_next(L, defs) != 0) {
      if (lua_type(L, -2) != LUA_TSTRING)
        return lstrata_argerror(L, 1, "keys of option 'tokens' must be token names");
      lstrata_define_token(L, strata_tilemap_tokens(m), lua_gettop(L) - 1, lua_gettop(L));
      lua_pop(L, 1);
    }
  }
  if (fill) {
    strata_token t = strata_tokens_intern(strata_tilemap_tokens(m), fill, strlen(fill), &err);
    if (t == 0) return lstrata_argerror(L, 1, err.message);
    strata_tilemap_clear(m, t, &err);
  }
  lua_pushvalue(L, map_index);
  return 1;
}

static int tilemap_set(lua_State *L) {
  strata_tilemap *m = check_edit(L, 1);
  int x, y;
  check_cell(L, m, 2, &x, &y);
  strata_error err;
  check_status(L, strata_tilemap_set(m, x, y, lstrata_check_token(L, m, 4), &err), &err);
  lua_settop(L, 1);
  return 1;
}

static int tilemap_add_front(lua_State *L) {
  strata_tilemap *m = check_edit(L, 1);
  int x, y;
  check_cell(L, m, 2, &x, &y);
  strata_error err;
  check_status(L, strata_tilemap_add_front(m, x, y, lstrata_check_token(L, m, 4), &err), &err);
  lua_settop(L, 1);
  return 1;
}

/* m:remove(x, y, token) -> number of occurrences removed */
static int tilemap_remove(lua_State *L) {
  strata_tilemap *m = check_edit(L, 1);
  int x, y, removed = 0;
  check_cell(L, m, 2, &x, &y);
  strata_token t = find_token(L, m, 4);
  strata_error err;
  check_status(L, strata_tilemap_remove(m, x, y, t, &removed, &err), &err);
  lua_pushinteger(L, removed);
  return 1;
}

/* m:reset(x, y [, token]): empties the cell, then sets token if given. */
static int tilemap_reset(lua_State *L) {
  strata_tilemap *m = check_edit(L, 1);
  int x, y;
  check_cell(L, m, 2, &x, &y);
  strata_token t = lua_isnoneornil(L, 4) ? 0 : lstrata_check_token(L, m, 4);
  strata_error err;
  check_status(L, strata_tilemap_reset(m, x, y, t, &err), &err);
  lua_settop(L, 1);
  return 1;
}

/* m:clear([token]): every cell holds only token (or nothing). */
static int tilemap_clear(lua_State *L) {
  strata_tilemap *m = check_edit(L, 1);
  strata_token t = lua_isnoneornil(L, 2) ? 0 : lstrata_check_token(L, m, 2);
  strata_error err;
  check_status(L, strata_tilemap_clear(m, t, &err), &err);
  lua_settop(L, 1);
  return 1;
}

/* m:fill(x, y, w, h, token [, { push = true }]): a rectangle (clipped to the
** map) reset to token, or token pushed on each cell. One call, no per-cell
** crossing of the Lua/C boundary. */
static int tilemap_fill(lua_State *L) {
  static const char *const known[] = {"push", NULL};
  strata_tilemap *m = check_edit(L, 1);
  int x = lstrata_check_int(L, 2), y = lstrata_check_int(L, 3);
  int w = lstrata_check_int(L, 4), h = lstrata_check_int(L, 5);
  strata_token t = lua_isnil(L, 6) ? 0 : lstrata_check_token(L, m, 6);
  lstrata_check_options(L, 7, known, 1);
  int push = lua_istable(L, 7) ? lstrata_opt_bool(L, 7, "push", 0) : 0;
  if (w < 0 || h < 0) return lstrata_argerror(L, w < 0 ? 4 : 5, "size must not be negative");
  strata_error err;
  check_status(L, strata_tilemap_fill_rect(m, x, y, w, h, t, push, &err), &err);
  lua_settop(L, 1);
  return 1;
}

/* m:tokens(x, y) -> array of token names, bottom first */
static int tilemap_tokens(lua_State *L) {
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  int x, y;
  check_cell(L, m, 2, &x, &y);
  strata_token small[16];
  strata_token *buf = small;
  size_t n = strata_tilemap_stack(m, x, y, small, 16);
  if (n > 16) {
    buf = lua_newuserdatauv(L, n * sizeof *buf, 0);
    strata_tilemap_stack(m, x, y, buf, n);
  }
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    size_t len;
    const char *name = strata_tokens_name(strata_tilemap_tokens(m), buf[i], &len);
    lua_pushlstring(L, name, len);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* m:top(x, y) -> name of the top token, or nil */
static int tilemap_top(lua_State *L) {
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  int x, y;
  check_cell(L, m, 2, &x, &y);
  strata_token t = strata_tilemap_top(m, x, y);
  if (t == 0) return 0;
  lua_pushstring(L, strata_tokens_name(strata_tilemap_tokens(m), t, NULL));
  return 1;
}

static int tilemap_has(lua_State *L) {
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  int x, y;
  check_cell(L, m, 2, &x, &y);
  lua_pushboolean(L, strata_tilemap_has(m, x, y, find_token(L, m, 4)));
  return 1;
}

static int tilemap_passable(lua_State *L) {
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  int x, y;
  check_cell(L, m, 2, &x, &y);
  lua_pushboolean(L, strata_tilemap_passable(m, x, y));
  return 1;
}

/* m:cost(x, y) -> cost of entering the cell, or nil when impassable */
static int tilemap_cost(lua_State *L) {
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  int x, y;
  check_cell(L, m, 2, &x, &y);
  double c = strata_tilemap_cost(m, x, y);
  if (c <= 0) return 0;
  lua_pushnumber(L, c);
  return 1;
}

/* m:occupied(x, y) -> whether an actor stands on the cell (a world's map:
** the core keeps the count; maps of no world hold no actors). */
static int tilemap_occupied(lua_State *L) {
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  int x, y;
  check_cell(L, m, 2, &x, &y);
  int n = strata_tilemap_occupied(m, x, y);
  if (n < 0) return lstrata_error(L, "the count of the actors on this map was lost (out of memory)");
  lua_pushboolean(L, n > 0);
  return 1;
}

/* m:define_token(name, traits): traits for this map only (the map takes a
** private copy of its token table the first time; the map, not this view,
** remembers that, so every view of a world's map sees the same table). */
static int tilemap_define_token(lua_State *L) {
  strata_tilemap *m = check_edit(L, 1);
  strata_error err;
  if (strata_tilemap_own_tokens(m, &err) != STRATA_OK) return lstrata_raise(L, NULL, &err);
  lstrata_define_token(L, strata_tilemap_tokens(m), 2, 3);
  lua_settop(L, 1);
  return 1;
}

/* A cost function of a search (option 'cost'), called from the core
** (strata_grid_cost_fn) under lua_pcall, so no Lua error unwinds through
** the search: a failure is kept (its message on the stack's top) and the
** search stopped with a negative answer. Under a mod's callback it runs
** under the mod's budget as any of its code; only a number crosses back. */
typedef struct lua_cost {
  lua_State *L;
  int fn;           /* stack index of the function */
  int failed;       /* the reason is on the top of the stack */
} lua_cost;

static double call_cost(void *data, int x, int y, double cost) {
  lua_cost *c = data;
  lua_State *L = c->L;
  lua_pushvalue(L, c->fn);
  lua_pushinteger(L, x);
  lua_pushinteger(L, y);
  if (cost > 0) lua_pushnumber(L, cost);
  else lua_pushnil(L);
  if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (msg) lua_pushfstring(L, "option 'cost' raised at (%d, %d): %s", x, y, msg);
    else lua_pushfstring(L, "option 'cost' raised a %s value at (%d, %d)", luaL_typename(L, -1), x, y);
    c->failed = 1;
    return -1;
  }
  int t = lua_type(L, -1);
  if (t == LUA_TNIL || (t == LUA_TBOOLEAN && !lua_toboolean(L, -1))) {
    lua_pop(L, 1);
    return STRATA_GRID_BLOCKED;
  }
  double a = t == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
  if (t == LUA_TNUMBER && a > 0 && a <= 1e300) {
    lua_pop(L, 1);
    return a;
  }
  if (a != a) lua_pushliteral(L, "option 'cost' answered nan"); /* not "-nan" */
  else if (t == LUA_TNUMBER) lua_pushfstring(L, "option 'cost' answered %f", a);
  else lua_pushfstring(L, "option 'cost' answered a %s", lua_typename(L, t));
  lua_pushfstring(L, "%s at (%d, %d): a cost is a number > 0 and finite, false or nil blocks the cell",
                  lua_tostring(L, -1), x, y);
  c->failed = 1;
  return -1;
}

/* Options cost, cost_min and occupied of find_path's table at t. */
static void check_search_extras(lua_State *L, int t, strata_grid_options *o, lua_cost *c) {
  if (lstrata_rawfield(L, t, "cost") != LUA_TNIL) {
    if (!lua_isfunction(L, -1))
      lstrata_argerror(L, t, "option 'cost' must be a function(x, y, cost) -> cost | false");
    c->fn = lua_gettop(L); /* stays on the stack for the search */
    o->cost = call_cost;
    o->cost_data = c;
  } else {
    lua_pop(L, 1);
  }
  o->cost_min = lstrata_opt_number(L, t, "cost_min", 0);
  if (!(o->cost_min >= 0) || o->cost_min > 1e300)
    lstrata_argerror(L, t, "option 'cost_min' must be a number >= 0");
  lstrata_opt_occupied(L, t, &o->occupied, &o->occupied_cost);
}

void lstrata_opt_occupied(lua_State *L, int t, strata_grid_occupied *out, double *cost) {
  int type = lstrata_rawfield(L, t, "occupied"); /* raw, as the keys were checked */
  const char *mode = type == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  double penalty = type == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
  if (mode && strcmp(mode, "block") == 0) *out = STRATA_OCCUPIED_BLOCK;
  else if (type == LUA_TNUMBER && penalty >= 0 && penalty <= 1e300)
    *out = STRATA_OCCUPIED_COST, *cost = penalty;
  else if (type != LUA_TNIL && !(mode && strcmp(mode, "ignore") == 0))
    lstrata_argerror(L, t, "option 'occupied' must be \"block\", \"ignore\" or a cost >= 0 added "
                           "for each cell an actor holds");
  lua_pop(L, 1);
}

/* m:find_path(from, to [, { algorithm =, connectivity =, diagonal_cost =, threads = }])
** -> path (a strata.path value: tilepath.c), cost | nil, reason when there is none.
** Searches with the map's own search object (strata_tilemap_find_path): one
** per map, shared by every view of it, as a Lua state runs one call at a time. */
static int tilemap_find_path(lua_State *L) {
  static const char *const known[] = {"algorithm", "connectivity", "diagonal_cost", "threads",
                                      "cost", "cost_min", "occupied", NULL};
  lstrata_tilemap *ud = check_ud(L, 1);
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  lua_Integer x1, y1, x2, y2;
  lstrata_check_point(L, 2, &x1, &y1);
  lstrata_check_point(L, 3, &x2, &y2);
  lstrata_check_options(L, 4, known, 1);
  strata_grid_options o;
  strata_grid_options_init(&o);
  lua_cost cost = {L, 0, 0};
  if (lua_istable(L, 4)) {
    const char *alg = lstrata_opt_string(L, 4, "algorithm", "astar");
    if (!strata_path_algorithm_parse(alg, &o.algorithm))
      return lstrata_argerror(L, 4, lua_pushfstring(L, "unknown algorithm '%s' (known: astar, "
                                                    "dijkstra, bfs, greedy)", alg));
    lua_Integer conn = lstrata_opt_int(L, 4, "connectivity", 4);
    if (conn != 4 && conn != 8) return lstrata_argerror(L, 4, "connectivity must be 4 or 8");
    o.connectivity = (int)conn;
    o.diagonal_cost = lstrata_opt_number(L, 4, "diagonal_cost", o.diagonal_cost);
    /* deprecated, no effect (docs/lua-api.md): still checked, so that a script passing it runs */
    lua_Integer threads = lstrata_opt_int(L, 4, "threads", o.threads);
    if (threads != 1 && threads != 2) return lstrata_argerror(L, 4, "threads must be 1 or 2");
    o.threads = (int)threads;
    check_search_extras(L, 4, &o, &cost);
  }
  int w = strata_tilemap_width(m), h = strata_tilemap_height(m);
  if (x1 < 0 || y1 < 0 || x1 >= w || y1 >= h)
    return lstrata_argerror(L, 2, lua_pushfstring(L, "start (%d, %d) is outside the %dx%d map",
                                                  (int)x1, (int)y1, w, h));
  if (x2 < 0 || y2 < 0 || x2 >= w || y2 >= h)
    return lstrata_argerror(L, 3, lua_pushfstring(L, "goal (%d, %d) is outside the %dx%d map",
                                                  (int)x2, (int)y2, w, h));
  strata_error err;
  lstrata_checkstack(L, 8, "a cost function");
  ud->searching++; /* close refuses meanwhile: the cost function may try */
  strata_status st = strata_tilemap_find_path(m, (int)x1, (int)y1, (int)x2, (int)y2, &o, &ud->path,
                                              &err);
  ud->searching--;
  if (cost.failed) return lstrata_error(L, "%s", lua_tostring(L, -1));
  if (st != STRATA_OK) return lstrata_raise(L, "find_path", &err);
  if (ud->path.len == 0) {
    lua_pushnil(L);
    lua_pushfstring(L, "no path from (%d, %d) to (%d, %d)", (int)x1, (int)y1, (int)x2, (int)y2);
    return 2;
  }
  lstrata_push_tilepath(L, &ud->path, w, h);
  lua_pushnumber(L, ud->path.cost);
  return 2;
}

/* Reads a path (a path value or a table of points) into cell indices of m. */
void lstrata_check_path(lua_State *L, int arg, strata_tilemap *m, strata_path *out) {
  lstrata_check_tilepath(L, arg, strata_tilemap_width(m), strata_tilemap_height(m), out,
                         "option 'path'");
}

/* m:render{ path =, path_glyph = "*", glyphs = { [token] = glyph } } -> string */
static int tilemap_render(lua_State *L) {
  static const char *const known[] = {"path", "path_glyph", "glyphs", NULL};
  lstrata_tilemap *ud = check_ud(L, 1);
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  lstrata_check_options(L, 2, known, 1);
  strata_render_options ro = {NULL, NULL, NULL, 0};
  if (lua_istable(L, 2)) {
    ro.overlay_glyph = lstrata_opt_string(L, 2, "path_glyph", NULL);
    if (lua_getfield(L, 2, "path") != LUA_TNIL) {
      lstrata_check_path(L, -1, m, &ud->path);
      ro.overlay = &ud->path;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 2, "glyphs") != LUA_TNIL) {
      if (!lua_istable(L, -1)) return lstrata_argerror(L, 2, "option 'glyphs' must be a table");
      strata_tokens *t = strata_tilemap_tokens(m);
      size_t count = strata_tokens_count(t) + 1;
      const char **glyphs = lua_newuserdatauv(L, count * sizeof *glyphs, 0);
      memset(glyphs, 0, count * sizeof *glyphs);
      lua_pushnil(L);
      while (lua_next(L, -3) != 0) {
        if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
          return lstrata_argerror(L, 2, "option 'glyphs' maps token names to glyph strings");
        size_t len;
        const char *name = lua_tolstring(L, -2, &len);
        strata_token id = strata_tokens_find(t, name, len);
        if (id != 0) glyphs[id] = lua_tostring(L, -1); /* kept alive by the glyphs table */
        lua_pop(L, 1);
      }
      ro.glyphs = glyphs;
      ro.glyph_count = count;
    }
  }
  char *text;
  size_t len;
  strata_error err;
  if (strata_tilemap_render(m, &ro, &text, &len, &err) != STRATA_OK)
    return lstrata_raise(L, "render", &err);
  lua_pushlstring(L, text, len);
  strata_free(text);
  return 1;
}

static int tilemap_index(lua_State *L) {
  lstrata_tilemap *ud = check_ud(L, 1);
  const char *key = lstrata_checkstring(L, 2);
  if (!view_alive(ud) && (strcmp(key, "width") == 0 || strcmp(key, "height") == 0 ||
                          strcmp(key, "token_table") == 0)) {
    lua_pushnil(L);
  } else if (ud->map != NULL && strcmp(key, "width") == 0) {
    lua_pushinteger(L, strata_tilemap_width(ud->map));
  } else if (ud->map != NULL && strcmp(key, "height") == 0) {
    lua_pushinteger(L, strata_tilemap_height(ud->map));
  } else if (ud->map != NULL && strcmp(key, "token_table") == 0) {
    lstrata_push_tokens(L, strata_tilemap_tokens(ud->map));
  } else {
    luaL_getmetafield(L, 1, "methods");
    lua_getfield(L, -1, key);
  }
  return 1;
}

static int tilemap_close(lua_State *L) {
  lstrata_tilemap *ud = check_ud(L, 1);
  if (ud->searching) return lstrata_error(L, "the map is being searched (a cost function cannot close it)");
  if (ud->owned) strata_tilemap_free(ud->map);
  ud->map = NULL;
  strata_path_free(&ud->path);
  return 0;
}

static int tilemap_tostring(lua_State *L) {
  lstrata_tilemap *ud = check_ud(L, 1);
  if (ud->map == NULL) lua_pushliteral(L, "strata.tilemap (closed)");
  else if (!view_alive(ud)) lua_pushliteral(L, "strata.tilemap (deleted)");
  else lua_pushfstring(L, "strata.tilemap %dx%d", strata_tilemap_width(ud->map),
                       strata_tilemap_height(ud->map));
  return 1;
}

void lstrata_open_tilemap(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"set", tilemap_set}, {"add_front", tilemap_add_front}, {"remove", tilemap_remove},
    {"reset", tilemap_reset}, {"clear", tilemap_clear}, {"fill", tilemap_fill},
    {"tokens", tilemap_tokens}, {"top", tilemap_top}, {"has", tilemap_has},
    {"passable", tilemap_passable}, {"cost", tilemap_cost}, {"occupied", tilemap_occupied},
    {"define_token", tilemap_define_token}, {"find_path", tilemap_find_path},
    {"render", tilemap_render}, {"close", tilemap_close}, {NULL, NULL}};
  static const luaL_Reg meta[] = {
    {"__index", tilemap_index}, {"__gc", tilemap_close}, {"__close", tilemap_close},
    {"__tostring", tilemap_tostring}, {NULL, NULL}};
  static const luaL_Reg funcs[] = {{"new", tilemap_new}, {NULL, NULL}};
  lstrata_register_type(L, TILEMAP_MT, "map", meta, methods);
  lstrata_add_functions(L, "tilemap", 1, funcs);
  /* The sizes the core takes, for checks made before any map exists (base.layout's size). */
  lua_getfield(L, -1, "tilemap");
  lua_pushinteger(L, STRATA_TILEMAP_SIDE_MAX);
  lua_setfield(L, -2, "max_side");
  lua_pushinteger(L, STRATA_TILEMAP_CELLS_MAX);
  lua_setfield(L, -2, "max_cells");
  lua_pop(L, 1);
}
