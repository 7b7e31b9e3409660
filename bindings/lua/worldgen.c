/*
** worldgen.c - strata.core.worldgen: world templates for Lua.
**
** A template crosses into Lua as plain tables (docs/worldgen.md):
** t.floors[z].tiles[y][x] are tile names, points carry both spellings, and
** everything is 1-based, as in the template file. Going back (format, write,
** render), the tables are read into a C template and checked by the core
** (strata_worldgen_validate), so a template edited in Lua obeys the same
** rules as one read from a file. C templates in flight live in a boxed
** userdata, so a Lua error half-way frees them through __gc.
*/
#include <stdlib.h>
#include <string.h>

#include "lstrata.h"

#define BOX_MT "strata.worldgen_box"

typedef struct box { strata_worldgen *t; } box;

static int box_gc(lua_State *L) {
  box *b = lstrata_checkudata(L, 1, BOX_MT);
  strata_worldgen_free(b->t);
  b->t = NULL;
  return 0;
}

static box *push_box(lua_State *L) {
  box *b = lua_newuserdatauv(L, sizeof *b, 0);
  b->t = NULL;
  luaL_setmetatable(L, BOX_MT);
  return b;
}

/* ---- options ---------------------------------------------------------------------- */

static const char *const GEN_KEYS[] = {"dims", "rand", "conf", "conf_text", "seed", "room_variance",
                                       "path_alg", "post_check", "log", NULL};

/* An integer field of the table at t (index i or name), or 0 with *ok unset. */
static lua_Integer int_at(lua_State *L, int t, int i, const char *name, int *ok) {
  int type = lua_geti(L, t, i);
  if (type == LUA_TNIL) {
    lua_pop(L, 1);
    lua_getfield(L, t, name);
  }
  int isint = 0;
  lua_Integer v = lua_tointegerx(L, -1, &isint);
  lua_pop(L, 1);
  if (!isint) *ok = 0;
  return v;
}

static int clamp_int(lua_Integer v) {
  return v < -0x7fffffff ? -0x7fffffff : v > 0x7fffffff ? 0x7fffffff : (int)v;
}

/* dims = { x, y, z } (or { x =, y =, z = }) */
static void check_dims(lua_State *L, int opts, strata_worldgen_options *o) {
  int type = lua_getfield(L, opts, "dims");
  if (type != LUA_TTABLE) lstrata_error(L, "dims must be three integers { x, y, z }, got %s", luaL_typename(L, -1));
  int t = lua_gettop(L), ok = 1;
  lua_Integer n = luaL_len(L, t);
  lua_Integer v[3];
  v[0] = int_at(L, t, 1, "x", &ok);
  v[1] = int_at(L, t, 2, "y", &ok);
  v[2] = int_at(L, t, 3, "z", &ok);
  if (!ok || (n != 0 && n != 3)) {
    if (n == 3 || n == 0) lstrata_error(L, "dims must be three integers { x, y, z }");
    lstrata_error(L, "dims must be three integers { x, y, z }, got %d value%s", (int)n, n == 1 ? "" : "s");
  }
  o->dim_x = clamp_int(v[0]), o->dim_y = clamp_int(v[1]), o->dim_z = clamp_int(v[2]);
  lua_pop(L, 1);
}

typedef struct log_state {
  lua_State *L;
  int fn;      /* stack index of the Lua function */
  int failed;  /* its error is on the top of the stack */
} log_state;

static int call_log(void *ud, int level, int floor, const char *message) {
  log_state *s = ud;
  lua_State *L = s->L;
  lua_pushvalue(L, s->fn);
  lua_pushstring(L, level <= 1 ? "info" : "debug");
  lua_pushstring(L, message);
  lua_pushinteger(L, floor);
  if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
    s->failed = 1;
    return 1;
  }
  return 0;
}

/* Reads the options table at index 1 into o (and the log function into s):
** the defaults, then the conf file's (conf: its path; conf_text: its text, a
** mod's own or standard input, named "conf_text" in messages), then the
** table's own. */
static void check_gen_options(lua_State *L, strata_worldgen_options *o, log_state *s) {
  lstrata_check_options(L, 1, GEN_KEYS, 0);
  strata_worldgen_options_init(o);
  const char *conf = lstrata_opt_string(L, 1, "conf", NULL);
  const char *text = lstrata_opt_string(L, 1, "conf_text", NULL);
  if (conf && text) lstrata_error(L, "give conf (a path) or conf_text (the text), not both");
  strata_error err;
  if (conf && strata_worldgen_conf_read(conf, o, &err)) lstrata_error(L, "%s", err.message);
  if (text) {
    lstrata_rawfield(L, 1, "conf_text"); /* its length: the text may hold a NUL, which the parser refuses */
    size_t len = lua_rawlen(L, -1);
    lua_pop(L, 1);
    if (strata_worldgen_conf_parse(text, len, "conf_text", o, &err)) lstrata_error(L, "%s", err.message);
  }
  int has_dims = lua_getfield(L, 1, "dims") != LUA_TNIL, rand = lstrata_opt_bool(L, 1, "rand", -1);
  lua_pop(L, 1);
  if (has_dims && rand == 1) lstrata_error(L, "rand = true draws the dims: give dims or rand, not both");
  if (has_dims) check_dims(L, 1, o), o->rand = 0;
  if (rand >= 0) o->rand = rand;
  o->seed = (int64_t)lstrata_opt_int(L, 1, "seed", o->seed);
  lua_Integer rv = lstrata_opt_int(L, 1, "room_variance", o->room_variance);
  if (rv < 3) lstrata_error(L, "room_variance must be at least 3 (the smallest room side), got %d", clamp_int(rv));
  o->room_variance = clamp_int(rv);
  const char *alg = lstrata_opt_string(L, 1, "path_alg", strata_path_algorithm_name(o->path_alg));
  if (!strata_path_algorithm_parse(alg, &o->path_alg))
    lstrata_error(L, "path_alg must be \"astar\", \"greedy\", \"bfs\" or \"dijkstra\", got \"%s\"", alg);
  o->post_check = lstrata_opt_bool(L, 1, "post_check", o->post_check);
  s->L = L, s->fn = 0, s->failed = 0;
  if (lua_getfield(L, 1, "log") != LUA_TNIL) {
    if (lua_type(L, -1) != LUA_TFUNCTION) lstrata_error(L, "log must be a function(level, message, floor), got %s", luaL_typename(L, -1));
    s->fn = lua_gettop(L);
    o->log = call_log, o->log_ud = s;
  } else {
    lua_pop(L, 1);
  }
}

/* Raises the core's error, or the log function's own. */
static int fail_with(lua_State *L, const log_state *s, const strata_error *err) {
  if (s && s->failed) return lua_error(L);
  lua_pushstring(L, err->message[0] ? err->message : strata_status_name(err->status));
  return lua_error(L);
}

/* ---- C templates to Lua tables ------------------------------------------------------ */

/* Pushes { x, y [, z], x =, y = [, z =] }. */
static void push_point(lua_State *L, int x, int y, int z) {
  lua_createtable(L, z ? 3 : 2, z ? 3 : 2);
  lua_pushinteger(L, x), lua_rawseti(L, -2, 1);
  lua_pushinteger(L, y), lua_rawseti(L, -2, 2);
  lua_pushinteger(L, x), lua_setfield(L, -2, "x");
  lua_pushinteger(L, y), lua_setfield(L, -2, "y");
  if (z) {
    lua_pushinteger(L, z), lua_rawseti(L, -2, 3);
    lua_pushinteger(L, z), lua_setfield(L, -2, "z");
  }
}

/* Pushes the floor table; names is the stack index of a table of the tile names. */
static void push_floor(lua_State *L, const strata_worldgen_floor *f, int w, int h, int names) {
  lua_createtable(L, 0, 7);
  lua_createtable(L, h, 0);
  for (int y = 0; y < h; y++) {
    const unsigned char *row = f->tiles + (size_t)y * (size_t)w;
    lua_createtable(L, w, 0);
    for (int x = 0; x < w; x++) {
      lua_rawgeti(L, names, row[x] + 1);
      lua_rawseti(L, -2, x + 1);
    }
    lua_rawseti(L, -2, y + 1);
  }
  lua_setfield(L, -2, "tiles");
  if (f->start.x) push_point(L, f->start.x, f->start.y, 0), lua_setfield(L, -2, "start");
  if (f->exit.x) push_point(L, f->exit.x, f->exit.y, 0), lua_setfield(L, -2, "exit");
  if (f->ascent.x) push_point(L, f->ascent.x, f->ascent.y, 0), lua_setfield(L, -2, "ascent");
  if (f->descent.x) push_point(L, f->descent.x, f->descent.y, 0), lua_setfield(L, -2, "descent");
  lua_createtable(L, (int)f->room_count, 0);
  for (size_t i = 0; i < f->room_count; i++) {
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, f->rooms[i].x), lua_setfield(L, -2, "x");
    lua_pushinteger(L, f->rooms[i].y), lua_setfield(L, -2, "y");
    lua_pushinteger(L, f->rooms[i].w), lua_setfield(L, -2, "w");
    lua_pushinteger(L, f->rooms[i].h), lua_setfield(L, -2, "h");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_setfield(L, -2, "rooms");
  lua_pushinteger(L, f->attempts);
  lua_setfield(L, -2, "attempts");
}

static int push_names(lua_State *L) {
  lua_createtable(L, STRATA_WG_TILE_KINDS, 0);
  for (int i = 0; i < STRATA_WG_TILE_KINDS; i++) {
    lua_pushstring(L, strata_worldgen_tile_name(i));
    lua_rawseti(L, -2, i + 1);
  }
  return lua_gettop(L);
}

static void push_template(lua_State *L, const strata_worldgen *t) {
  int names = push_names(L);
  lua_createtable(L, 0, 9);
  push_point(L, t->dim_x, t->dim_y, t->dim_z);
  lua_setfield(L, -2, "dims");
  lua_pushinteger(L, (lua_Integer)t->seed), lua_setfield(L, -2, "seed");
  lua_pushinteger(L, t->room_variance), lua_setfield(L, -2, "room_variance");
  lua_pushstring(L, strata_path_algorithm_name(t->path_alg)), lua_setfield(L, -2, "path_alg");
  lua_pushboolean(L, t->post_check), lua_setfield(L, -2, "post_check");
  const strata_worldgen_floor *first = &t->floors[0], *last = &t->floors[t->dim_z - 1];
  push_point(L, first->start.x, first->start.y, 1), lua_setfield(L, -2, "start");
  push_point(L, last->exit.x, last->exit.y, t->dim_z), lua_setfield(L, -2, "exit");
  lua_createtable(L, t->dim_z, 0);
  for (int z = 0; z < t->dim_z; z++) {
    push_floor(L, &t->floors[z], t->dim_x, t->dim_y, names);
    lua_rawseti(L, -2, z + 1);
  }
  lua_setfield(L, -2, "floors");
  lua_remove(L, names);
}

/* ---- Lua tables to C templates ------------------------------------------------------ */

/* A field of the table at t that must be an integer; path names it in errors. */
static int need_int(lua_State *L, int t, const char *key, const char *path) {
  lua_getfield(L, t, key);
  int isint = 0;
  lua_Integer v = lua_tointegerx(L, -1, &isint);
  if (!isint) lstrata_error(L, "template %s.%s must be an integer, got %s", path, key, luaL_typename(L, -1));
  lua_pop(L, 1);
  return clamp_int(v);
}

/* The point at t[key] (nil gives {0, 0}); its third coordinate, if any, into *z. */
static strata_worldgen_point opt_point(lua_State *L, int t, const char *key, const char *path, int *z) {
  strata_worldgen_point p = {0, 0};
  int type = lua_getfield(L, t, key);
  if (type == LUA_TNIL) {
    lua_pop(L, 1);
    return p;
  }
  if (type != LUA_TTABLE) lstrata_error(L, "template %s.%s must be a point { x, y }, got %s", path, key, luaL_typename(L, -1));
  int ok = 1, pt = lua_gettop(L);
  p.x = clamp_int(int_at(L, pt, 1, "x", &ok));
  p.y = clamp_int(int_at(L, pt, 2, "y", &ok));
  if (!ok || p.x == 0 || p.y == 0) lstrata_error(L, "template %s.%s must be a point { x, y } of integers from 1", path, key);
  if (z) {
    int zok = 1;
    lua_Integer zz = int_at(L, pt, 3, "z", &zok);
    *z = zok ? clamp_int(zz) : -1;
  }
  lua_pop(L, 1);
  return p;
}

static void read_floor(lua_State *L, int ft, strata_worldgen *t, int z, int names) {
  strata_worldgen_floor *f = &t->floors[z - 1];
  char path[32];
  snprintf(path, sizeof path, "floors[%d]", z);
  f->ascent = opt_point(L, ft, "ascent", path, NULL);
  f->descent = opt_point(L, ft, "descent", path, NULL);
  lua_getfield(L, ft, "attempts");
  if (!lua_isnil(L, -1)) {
    lua_pop(L, 1);
    f->attempts = need_int(L, ft, "attempts", path);
  } else {
    lua_pop(L, 1);
  }
  if (lua_getfield(L, ft, "tiles") != LUA_TTABLE)
    lstrata_error(L, "template %s.tiles must be a table of %d rows, got %s", path, t->dim_y, luaL_typename(L, -1));
  int rows = lua_gettop(L);
  if (luaL_len(L, rows) != t->dim_y)
    lstrata_error(L, "template %s.tiles has %d rows, dims say %d", path, (int)luaL_len(L, rows), t->dim_y);
  for (int y = 1; y <= t->dim_y; y++) {
    if (lua_rawgeti(L, rows, y) != LUA_TTABLE || luaL_len(L, -1) != t->dim_x)
      lstrata_error(L, "template %s.tiles[%d] must be a row of %d tile names", path, y, t->dim_x);
    unsigned char *row = f->tiles + (size_t)(y - 1) * (size_t)t->dim_x;
    for (int x = 1; x <= t->dim_x; x++) {
      lua_rawgeti(L, -1, x);
      /* The names table maps each name to its tile number. */
      if (lua_type(L, -1) != LUA_TSTRING || lua_rawget(L, names) != LUA_TNUMBER) {
        lua_pop(L, 1);
        lua_rawgeti(L, -1, x);
        lstrata_error(L, "template %s.tiles[%d][%d]: %s is not a tile (wall, hallway, room, start, exit, ascent, descent)",
                   path, y, x, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1));
      }
      row[x - 1] = (unsigned char)lua_tointeger(L, -1);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  int type = lua_getfield(L, ft, "rooms");
  if (type != LUA_TNIL) {
    if (type != LUA_TTABLE) lstrata_error(L, "template %s.rooms must be a list of { x =, y =, w =, h = }", path);
    int rt = lua_gettop(L);
    lua_Integer n = luaL_len(L, rt);
    for (lua_Integer i = 1; i <= n; i++) {
      if (lua_rawgeti(L, rt, i) != LUA_TTABLE)
        lstrata_error(L, "template %s.rooms[%d] must be { x =, y =, w =, h = }", path, (int)i);
      char rpath[48];
      snprintf(rpath, sizeof rpath, "%s.rooms[%d]", path, (int)i);
      int r = lua_gettop(L);
      strata_worldgen_room room = {need_int(L, r, "x", rpath), need_int(L, r, "y", rpath),
                                   need_int(L, r, "w", rpath), need_int(L, r, "h", rpath)};
      strata_error err;
      if (strata_worldgen_add_room(f, room, &err) != STRATA_OK) lstrata_raise(L, NULL, &err);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

/* The template at index arg as a C template in a box pushed on the stack. */
static strata_worldgen *check_template(lua_State *L, int arg) {
  arg = lua_absindex(L, arg);
  lstrata_checktype(L, arg, LUA_TTABLE);
  box *b = push_box(L);
  strata_worldgen_options o;
  if (lua_getfield(L, arg, "dims") != LUA_TTABLE) lstrata_error(L, "template dims must be { x, y, z }");
  lua_pop(L, 1);
  check_dims(L, arg, &o);
  strata_error err;
  strata_worldgen *t = b->t = strata_worldgen_new(o.dim_x, o.dim_y, o.dim_z, &err);
  if (t == NULL) lstrata_raise(L, "template", &err);
  t->seed = (int64_t)lstrata_opt_int(L, arg, "seed", 0);
  t->room_variance = (int)lstrata_opt_int(L, arg, "room_variance", STRATA_WORLDGEN_ROOM_VARIANCE);
  const char *alg = lstrata_opt_string(L, arg, "path_alg", "astar");
  if (!strata_path_algorithm_parse(alg, &t->path_alg))
    lstrata_error(L, "template path_alg must be \"astar\", \"greedy\", \"bfs\" or \"dijkstra\", got \"%s\"", alg);
  t->post_check = lstrata_opt_bool(L, arg, "post_check", 1);
  int sz = 0, ez = 0;
  t->floors[0].start = opt_point(L, arg, "start", "", &sz);
  t->floors[t->dim_z - 1].exit = opt_point(L, arg, "exit", "", &ez);
  if (sz > 0 && sz != 1) lstrata_error(L, "template start is on floor %d; it must be on floor 1", sz);
  if (ez > 0 && ez != t->dim_z) lstrata_error(L, "template exit is on floor %d; it must be on the last, %d", ez, t->dim_z);
  if (lua_getfield(L, arg, "floors") != LUA_TTABLE)
    lstrata_error(L, "template floors must be a list of %d floors, got %s", t->dim_z, luaL_typename(L, -1));
  int floors = lua_gettop(L);
  /* tile name -> number, for reading rows */
  lua_createtable(L, 0, STRATA_WG_TILE_KINDS);
  int names = lua_gettop(L);
  for (int i = 0; i < STRATA_WG_TILE_KINDS; i++) {
    lua_pushinteger(L, i);
    lua_setfield(L, names, strata_worldgen_tile_name(i));
  }
  for (int z = 1; z <= t->dim_z; z++) {
    if (lua_rawgeti(L, floors, z) != LUA_TTABLE) lstrata_error(L, "template floors[%d] must be a floor table", z);
    read_floor(L, lua_gettop(L), t, z, names);
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  if (strata_worldgen_validate(t, &err) != STRATA_OK) lstrata_raise(L, "template", &err);
  return t;
}

/* ---- the functions -------------------------------------------------------------- */

/* generate(opts) -> template */
static int wg_generate(lua_State *L) {
  strata_worldgen_options o;
  log_state s;
  check_gen_options(L, &o, &s);
  box *b = push_box(L);
  strata_error err;
  if (strata_worldgen_generate(&o, &b->t, &err) != STRATA_OK) return fail_with(L, &s, &err);
  push_template(L, b->t);
  return 1;
}

/* floor(opts, z) -> the floor table of floor z */
static int wg_floor(lua_State *L) {
  strata_worldgen_options o;
  log_state s;
  int z = lstrata_check_int(L, 2);
  lua_settop(L, 1);
  check_gen_options(L, &o, &s);
  box *b = push_box(L);
  strata_error err;
  /* A one-cell template only to own the floor while it is turned into a table. */
  strata_worldgen *t = b->t = strata_worldgen_new(1, 1, 1, &err);
  if (t == NULL) return fail_with(L, NULL, &err);
  strata_worldgen_floor_clear(&t->floors[0]);
  strata_worldgen_resolve(&o); /* (its dims size the table) */
  if (strata_worldgen_make_floor(&o, z, &t->floors[0], &err) != STRATA_OK) return fail_with(L, &s, &err);
  int names = push_names(L);
  push_floor(L, &t->floors[0], o.dim_x, o.dim_y, names);
  return 1;
}

/* options(opts) -> the options generate(opts) works with: the conf file's
** under the table's, rand's dims drawn (no log) */
static int wg_options(lua_State *L) {
  strata_worldgen_options o;
  log_state s;
  check_gen_options(L, &o, &s);
  strata_worldgen_resolve(&o);
  lua_createtable(L, 0, 5);
  push_point(L, o.dim_x, o.dim_y, o.dim_z);
  lua_setfield(L, -2, "dims");
  lua_pushinteger(L, (lua_Integer)o.seed), lua_setfield(L, -2, "seed");
  lua_pushinteger(L, o.room_variance), lua_setfield(L, -2, "room_variance");
  lua_pushstring(L, strata_path_algorithm_name(o.path_alg)), lua_setfield(L, -2, "path_alg");
  lua_pushboolean(L, o.post_check), lua_setfield(L, -2, "post_check");
  return 1;
}

/* format(t) -> the text of the template file */
static int wg_format(lua_State *L) {
  strata_worldgen *t = check_template(L, 1);
  char *text;
  size_t len;
  strata_error err;
  if (strata_worldgen_format(t, &text, &len, &err) != STRATA_OK) return lstrata_raise(L, NULL, &err);
  lua_pushlstring(L, text, len);
  strata_free(text);
  return 1;
}

/* write(t, path) */
static int wg_write(lua_State *L) {
  const char *path = lstrata_checkstring(L, 2);
  strata_worldgen *t = check_template(L, 1);
  strata_error err;
  if (strata_worldgen_write(t, path, &err) != STRATA_OK) return fail_with(L, NULL, &err);
  return 0;
}

/* parse(text [, name]) -> template */
static int wg_parse(lua_State *L) {
  size_t len;
  const char *text = lstrata_checklstring(L, 1, &len);
  const char *name = lstrata_optstring(L, 2, "template");
  box *b = push_box(L);
  strata_error err;
  if (strata_worldgen_parse(text, len, name, &b->t, &err) != STRATA_OK) return fail_with(L, NULL, &err);
  push_template(L, b->t);
  return 1;
}

/* read(path) -> template */
static int wg_read(lua_State *L) {
  const char *path = lstrata_checkstring(L, 1);
  box *b = push_box(L);
  strata_error err;
  if (strata_worldgen_read(path, &b->t, &err) != STRATA_OK) return fail_with(L, NULL, &err);
  push_template(L, b->t);
  return 1;
}

/* validate(t) -> t, or an error saying what breaks the rules */
static int wg_validate(lua_State *L) {
  check_template(L, 1);
  lua_settop(L, 1);
  return 1;
}

/* render(t [, { color = false }]) -> text */
static int wg_render(lua_State *L) {
  static const char *const keys[] = {"color", NULL};
  lstrata_check_options(L, 2, keys, 1);
  int color = lua_istable(L, 2) ? lstrata_opt_bool(L, 2, "color", 0) : 0;
  strata_worldgen *t = check_template(L, 1);
  char *text;
  size_t len;
  strata_error err;
  if (strata_worldgen_render(t, color, &text, &len, &err) != STRATA_OK) return lstrata_raise(L, NULL, &err);
  lua_pushlstring(L, text, len);
  strata_free(text);
  return 1;
}

void lstrata_open_worldgen(lua_State *L) {
  static const luaL_Reg box_meta[] = {{"__gc", box_gc}, {NULL, NULL}};
  static const luaL_Reg no_methods[] = {{NULL, NULL}};
  static const luaL_Reg funcs[] = {{"generate", wg_generate}, {"floor", wg_floor}, {"options", wg_options},
                                   {"format", wg_format},     {"parse", wg_parse},
                                   {"write", wg_write},       {"read", wg_read},
                                   {"render", wg_render},     {"validate", wg_validate},
                                   {NULL, NULL}};
  lstrata_register_type(L, BOX_MT, NULL, box_meta, no_methods);
  lstrata_add_functions(L, "worldgen", 0, funcs);
}
