/*
** test_embed.c - libstrata_lua (strata/lua.h) seen by a C host: the state
** and its errors, Lua worlds from C, the host's logic asked before the
** mods', and the sandbox still holding for mods run from C (memory strata
** allocates in C counts against a mod's limit; a loop that never ends stops).
** Run from the build tree: strata_lua_new finds the source tree's Lua files.
*/
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strata/lua.h>
#include <strata/strata.h>

#include "check.h"

static const char *mods_dir(void) {
  static char buf[4096];
  const char *src = getenv("STRATA_SOURCE_DIR");
  snprintf(buf, sizeof buf, "%s/spec/embed/mods", src ? src : STRATA_SOURCE_DEFAULT);
  return buf;
}

static int contains(const char *s, const char *part) { return s && strstr(s, part) != NULL; }

static void test_state(void) {
  strata_error err;
  strata_lua_options bad = {.lua_dir = "/nonexistent/strata-lua"};
  CHECK(strata_lua_new(&bad, &err) == NULL);
  CHECK_EQ_INT(err.status, STRATA_EIO);
  CHECK(contains(err.message, "/nonexistent/strata-lua"));

  lua_State *L = strata_lua_new(NULL, &err);
  CHECK(L != NULL);
  if (!L) return;
  CHECK_EQ_INT(lua_gettop(L), 0);
  CHECK_EQ_INT(luaL_dostring(L, "return require('strata').version"), LUA_OK);
  CHECK(lua_isstring(L, -1));
  lua_settop(L, 0);

  /* Bad input: an error naming what, the stack as it was. */
  const char *unknown[] = {"base", "nosuch"};
  CHECK_EQ_INT(strata_lua_world_new(L, 1, unknown, 2, mods_dir(), &err), STRATA_EARG);
  CHECK(contains(err.message, "nosuch"));
  CHECK_EQ_INT(lua_gettop(L), 0);
  CHECK_EQ_INT(strata_lua_world_open(L, "/nonexistent/world.db", NULL, &err), STRATA_EARG);
  CHECK(contains(err.message, "/nonexistent/world.db"));
  CHECK_EQ_INT(strata_lua_world_open(L, NULL, NULL, &err), STRATA_EARG);
  CHECK_EQ_INT(lua_gettop(L), 0);
  strata_world *w = NULL;
  strata_runtime *rt = NULL;
  lua_pushinteger(L, 3);
  CHECK_EQ_INT(strata_lua_world(L, -1, &w, &rt, &err), STRATA_EARG);
  CHECK(contains(err.message, "not a strata world"));
  lua_newtable(L);
  CHECK_EQ_INT(strata_lua_world(L, -1, &w, &rt, &err), STRATA_EARG);
  CHECK(contains(err.message, "not a strata world made by the host"));
  CHECK(w == NULL && rt == NULL);
  CHECK_EQ_INT(strata_lua_world_set_host(L, -1, NULL, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_lua_world_save(L, -1, "x.db", &err), STRATA_EIO);
  CHECK_EQ_INT(lua_gettop(L), 2);
  lua_close(L);
}

static strata_status gen_host(strata_call *c, void *data, strata_error *err) {
  int *calls = data;
  uint64_t m;
  (*calls)++;
  if (strata_map_create(c->rt, 2, 2, NULL, &m, err)) return err->status;
  if (strata_area_add_floor(c->rt, c->area, m, c->floor, err)) return err->status;
  c->made = m;
  return STRATA_OK;
}

static void test_world(void) {
  strata_error err;
  lua_State *L = strata_lua_new(NULL, &err);
  CHECK(L != NULL);
  if (!L) return;
  /* Small budgets, set by the host as a Lua host sets them. */
  CHECK_EQ_INT(luaL_dostring(L, "local m = require('strata').mods m.budget_ms = 100 m.memory_kb = 16 * 1024"),
               LUA_OK);
  const char *mods[] = {"base", "hog"};
  CHECK_EQ_INT(strata_lua_world_new(L, 5, mods, 2, mods_dir(), &err), STRATA_OK);
  strata_world *w = NULL;
  strata_runtime *rt = NULL;
  CHECK_EQ_INT(strata_lua_world(L, -1, &w, &rt, &err), STRATA_OK);
  CHECK(w != NULL && rt != NULL && strata_runtime_world(rt) == w);
  if (!w || !rt) { lua_close(L); return; }

  /* The mods' logic, run from C. */
  uint64_t area, map;
  CHECK_EQ_INT(strata_area_create(rt, "hog.small", NULL, &area, &err), STRATA_OK);
  CHECK_EQ_INT(strata_area_floor(rt, area, 1, &map, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_width(strata_world_tilemap(w, map)), 4);

  /* Hostile mods stay in the sandbox: 9M cells of C memory pass a 16 MB
  ** limit (counted because the library's malloc is wrapped); the loop stops. */
  size_t before = strata_world_count(w);
  CHECK_EQ_INT(strata_area_create(rt, "hog.big", NULL, &area, &err), STRATA_OK);
  CHECK(strata_area_floor(rt, area, 1, &map, &err) != STRATA_OK);
  CHECK(contains(err.message, "memory"));
  CHECK_EQ_INT(strata_area_floor_map(rt, area, 1), 0);
  CHECK_EQ_INT(strata_world_count(w), before + 1); /* the area, nothing of the floor */
  uint64_t spin;
  CHECK_EQ_INT(strata_area_create(rt, "hog.spin", NULL, &spin, &err), STRATA_OK);
  CHECK(strata_area_floor(rt, spin, 1, &map, &err) != STRATA_OK);
  CHECK(contains(err.message, "budget exceeded"));

  /* The host's C logic first: hog.big is the host's now, then the mod's again. */
  int calls = 0;
  strata_registry *reg = strata_registry_new(&err);
  CHECK_EQ_INT(strata_registry_add_logic(reg, STRATA_LOGIC_GENERATE_FLOOR, "hog.big", gen_host, &calls,
                                         "host", &err), STRATA_OK);
  CHECK_EQ_INT(strata_lua_world_set_host(L, -1, strata_registry_resolver(reg), &err), STRATA_OK);
  CHECK_EQ_INT(strata_area_floor(rt, area, 1, &map, &err), STRATA_OK);
  CHECK_EQ_INT(calls, 1);
  CHECK_EQ_INT(strata_tilemap_width(strata_world_tilemap(w, map)), 2);
  CHECK_EQ_INT(strata_area_floor(rt, area, 2, &map, &err) != STRATA_OK, 0); /* still the host's */
  CHECK_EQ_INT(calls, 2);
  CHECK_EQ_INT(strata_lua_world_set_host(L, -1, NULL, &err), STRATA_OK);
  strata_registry_free(reg);
  CHECK(strata_area_floor(rt, area, 3, &map, &err) != STRATA_OK); /* the mod's, too big */
  CHECK(contains(err.message, "memory"));
  CHECK_EQ_INT(calls, 2);
  lua_close(L);
}

/* A walk a C world stored (strata_walk, no Lua anywhere) goes on in the same
** world opened from Lua: the plan is the world's, its steps the core's. */
static void test_walk_from_c(void) {
  strata_error err;
  char path[] = "/tmp/strata_embed_walk_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  strata_world *w = strata_world_new(4, &err);
  strata_registry *reg = strata_registry_new(&err);
  strata_runtime *rt = strata_runtime_new(w, strata_registry_resolver(reg), &err);
  uint64_t map, hero;
  CHECK(strata_world_create_map(w, 10, 4, NULL, &map, &err) == STRATA_OK);
  CHECK(strata_tilemap_clear(strata_world_tilemap(w, map), strata_tokens_intern(strata_world_tokens(w), "floor", 5, &err),
                             &err) == STRATA_OK);
  CHECK(strata_world_create(w, "actor", NULL, &hero, &err) == STRATA_OK);
  CHECK(strata_object_set_position(w, hero, map, 0, 0, &err) == STRATA_OK);
  CHECK(strata_set_player(rt, hero, &err) == STRATA_OK);
  CHECK(strata_walk(rt, hero, 9, 3, 1, &err) == STRATA_OK);
  CHECK(strata_advance(rt, 2, NULL, &err) == STRATA_OK);
  CHECK(strata_world_get(w, hero)->x == 2);
  /* its timer is base's base.walk_step: the save names base among its mods */
  strata_mod_version base = {"base", "0.1.0"};
  CHECK(strata_world_save(w, path, &base, 1, &err) == STRATA_OK);
  strata_runtime_free(rt);
  strata_world_free(w);
  strata_registry_free(reg);

  lua_State *L = strata_lua_new(NULL, &err);
  CHECK(L != NULL);
  if (!L) return;
  strata_status opened = strata_lua_world_open(L, path, NULL, &err);
  unlink(path);
  CHECK_EQ_INT(opened, STRATA_OK);
  if (opened) {
    fprintf(stderr, "open: %s\n", err.message);
    lua_close(L);
    return;
  }
  lua_setglobal(L, "W");
  CHECK_EQ_INT(luaL_dostring(L, "local h = W:player() local p = W:walk_plan(h) local before = p.state "
                                "W:advance(20) return before, p.state, h.x, h.y"), LUA_OK);
  CHECK(contains(lua_tostring(L, 1), "walking"));
  CHECK(contains(lua_tostring(L, 2), "arrived"));
  CHECK_EQ_INT(lua_tointeger(L, 3), 9);
  CHECK_EQ_INT(lua_tointeger(L, 4), 3);
  lua_close(L);
}

int main(void) {
  test_state();
  test_world();
  test_walk_from_c();
  return check_summary("embed");
}
