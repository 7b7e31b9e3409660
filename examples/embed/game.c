/*
** game.c - the cellar: a small C game embedding strata (docs/embedding.md).
**
** The same scripted game runs twice: first on a world whose logic is all
** C (a strata_registry: the cellar's floor generator and an event handler,
** registered by ID), then on a world made by Lua mods (the `cellar` mod in
** mods/, loaded through strata_lua_new's state), where the C handler is
** still the host's and the floors come from the mod. Each run creates the
** cellar area, puts a hero on its first floor, plays scripted turns (moves,
** a wall in the way, the stairs down), advancing time each turn, saves,
** opens the save again and plays one more turn. Every step is the core's
** strata_move, so the C callbacks see base.before_move and base.moved.
**
** The C world then goes down the well: rooms spawned from an XY map (grid
** exits), a C handler refusing one move, a start exit into a dungeon branch
** whose rooms a C room generator makes, and a walk stored in the world
** that goes on after the save is opened again.
**
**   cellar [MODS_DIR [SAVE_DIR]]   (defaults: ./mods and .)
*/
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strata/lua.h>
#include <strata/strata.h>

#define TRY(x) do { strata_status st_ = (x); if (st_) return st_; } while (0)

/* What the game keeps of one run. */
typedef struct game {
  strata_world *w;
  strata_runtime *rt;
  uint64_t hero;
  int events;          /* base.map_entered seen by the C callback */
  int moves;           /* base.moved seen */
  int refuse;          /* how many of the next moves base.before_move refuses */
} game;

/* ---- the host's logic, registered by ID ---- */

/* "game.entered": a global handler of base.map_entered (strata_event_on). */
static strata_status on_entered(strata_call *c, void *data, strata_error *err) {
  (void)err;
  game *g = data;
  int64_t floor = 0;
  strata_map_area(c->rt, c->source, &floor);
  g->events++;
  printf("  [C callback] %s: floor %lld\n", c->event, (long long)floor);
  return STRATA_OK;
}

/* "game.before_move": a handler answering false refuses the move. */
static strata_status before_move(strata_call *c, void *data, strata_error *err) {
  (void)err;
  game *g = data;
  if (g->refuse > 0) {
    g->refuse--;
    c->ret = strata_value_bool(0);
    printf("  [C callback] %s: refused\n", c->event);
  }
  return STRATA_OK;
}

/* "game.moved": counts; between rooms, says where. */
static strata_status moved(strata_call *c, void *data, strata_error *err) {
  (void)err;
  game *g = data;
  g->moves++;
  const strata_value *to = strata_vtable_get_str(c->params->u.t, "to");
  if (to && to->type == STRATA_VREF) printf("  [C callback] %s: into %s\n", c->event, strata_room_name(g->w, to->u.ref));
  return STRATA_OK;
}

/* "game.cave": the well's branch rooms, named by their depth. */
static strata_status gen_cave(strata_call *c, void *data, strata_error *err) {
  (void)data;
  char name[32];
  snprintf(name, sizeof name, "Cave, depth %lld", (long long)c->depth);
  strata_value k, v;
  TRY(strata_value_table(&c->ret, err));
  TRY(strata_value_string(&k, "name", 4, err));
  if (strata_value_string(&v, name, strlen(name), err)) { strata_value_clear(&k); return STRATA_ENOMEM; }
  strata_status st = strata_vtable_set(c->ret.u.t, &k, &v, err);
  strata_value_clear(&k);
  if (st) strata_value_clear(&v);
  return st;
}

static strata_token tok(strata_world *w, const char *name) {
  return strata_tokens_intern(strata_world_tokens(w), name, strlen(name), NULL);
}

/* "cellar.cellar" as an area generator: what mods/cellar/init.lua draws. */
static strata_status gen_cellar(strata_call *c, void *data, strata_error *err) {
  (void)data;
  uint64_t m;
  TRY(strata_map_create(c->rt, 12, 5, NULL, &m, err));
  strata_tilemap *tm = strata_world_tilemap(c->world, m);
  TRY(strata_tilemap_clear(tm, tok(c->world, "wall"), err));
  TRY(strata_tilemap_fill_rect(tm, 1, 1, 10, 3, tok(c->world, "floor"), 0, err));
  TRY(strata_tilemap_reset(tm, 4, 2, tok(c->world, "wall"), err));
  TRY(strata_area_add_floor(c->rt, c->area, m, c->floor, err));
  if (c->floor > 1) TRY(strata_stairs_create(c->rt, m, 1, 2, -1, NULL, err));
  int64_t deepest;
  if (strata_area_deepest_floor(c->rt, c->area, &deepest) && c->floor < deepest)
    TRY(strata_stairs_create(c->rt, m, 10, 2, 1, NULL, err));
  c->made = m;
  return STRATA_OK;
}

/* ---- reading the world ---- */

/* The stairs on the hero's cell, or 0. */
static uint64_t stairs_here(const game *g) {
  const strata_object *h = strata_world_get(g->w, g->hero);
  uint64_t found[16];
  size_t n = strata_map_objects(g->rt, h->map, NULL, found, 16);
  for (size_t i = 0; i < n && i < 16; i++) {
    const strata_object *o = strata_world_get(g->w, found[i]);
    if (strata_feature_type_of(g->rt, found[i]) == STRATA_FEATURE_STAIRS && o->has_pos &&
        o->x == h->x && o->y == h->y)
      return found[i];
  }
  return 0;
}

/* Draws the player's map from its cells: # blocks, . floor, < > stairs, @ the hero. */
static void draw(const game *g) {
  uint64_t map = strata_current_map(g->rt);
  const strata_tilemap *tm = strata_world_tilemap(g->w, map);
  const strata_object *h = strata_world_get(g->w, strata_player(g->rt));
  char row[64];
  for (int y = 0; y < strata_tilemap_height(tm); y++) {
    int x = 0;
    for (; x < strata_tilemap_width(tm) && x < 63; x++)
      row[x] = strata_tilemap_passable(tm, x, y) ? '.' : '#';
    row[x] = '\0';
    uint64_t found[16];
    size_t n = strata_map_objects(g->rt, map, NULL, found, 16);
    for (size_t i = 0; i < n && i < 16; i++) {
      const strata_object *o = strata_world_get(g->w, found[i]);
      if (o->has_pos && o->y == y && o->x < x && strata_feature_type_of(g->rt, found[i]) == STRATA_FEATURE_STAIRS)
        row[o->x] = strata_feature_floor_delta(g->rt, found[i]) > 0 ? '>' : '<';
    }
    if (h && h->has_pos && h->map == map && h->y == y && h->x < x) row[h->x] = '@';
    printf("  %s\n", row);
  }
}

static void where(const game *g, const char *what) {
  const strata_object *h = strata_world_get(g->w, g->hero);
  int64_t floor = 0;
  strata_current_area(g->rt, &floor);
  printf("%s: floor %lld at (%lld, %lld), time %g\n", what, (long long)floor, (long long)h->x,
         (long long)h->y, strata_world_time(g->w));
}

/* ---- playing ---- */

/* One turn: a key of the script (h j k l: a step west, south, north, east;
** >: the stairs here), then a second of world time. */
static strata_status turn(game *g, int n, char key, strata_error *err) {
  const strata_object *h = strata_world_get(g->w, g->hero);
  int64_t x = h->x, y = h->y;
  const char *what = "waits";
  if (key == '>') {
    uint64_t stairs = stairs_here(g), reached = 0;
    if (!stairs) what = "finds no stairs here";
    else {
      TRY(strata_travel(g->rt, g->hero, stairs, NULL, &reached, err));
      what = "takes the stairs";
    }
  } else {
    int dx = key == 'l' ? 1 : key == 'h' ? -1 : 0, dy = key == 'j' ? 1 : key == 'k' ? -1 : 0;
    strata_move_outcome out;
    TRY(strata_move(g->rt, g->hero, x + dx, y + dy, &out, err));
    if (out.refusal == STRATA_MOVE_OK) what = dx > 0 ? "east" : dx < 0 ? "west" : dy > 0 ? "south" : "north";
    else what = out.refusal == STRATA_MOVE_BLOCKED ? "bumps into a wall" : out.reason;
  }
  TRY(strata_advance(g->rt, 1.0, NULL, err));
  char label[64];
  snprintf(label, sizeof label, "turn %d (%c) %s", n, key, what);
  where(g, label);
  return STRATA_OK;
}

/* The cellar's first floor, the hero on it, the turns of script. */
static strata_status play(game *g, const char *script, strata_error *err) {
  uint64_t area, first, reached;
  TRY(strata_area_create(g->rt, "cellar.cellar", NULL, &area, err));
  TRY(strata_area_floor(g->rt, area, 1, &first, err));
  TRY(strata_world_create(g->w, "actor", NULL, &g->hero, err));
  TRY(strata_set_player(g->rt, g->hero, err));
  strata_travel_opts at = {.has_xy = 1, .x = 2, .y = 2};
  TRY(strata_travel(g->rt, g->hero, first, &at, &reached, err));
  where(g, "start");
  draw(g);
  for (int i = 0; script[i]; i++) TRY(turn(g, i + 1, script[i], err));
  draw(g);
  return STRATA_OK;
}

static const char *SCRIPT = "llklllljlll>l";

static int fail(const char *what, const strata_error *err) {
  fprintf(stderr, "cellar: %s: %s\n", what, err->message);
  return 1;
}

/* The registry of the host's logic. For the C world it also defines the
** cellar; for the Lua world the mod does. */
static strata_registry *host_logic(game *g, int with_cellar, strata_error *err) {
  strata_registry *reg = strata_registry_new(err);
  if (!reg) return NULL;
  strata_status st = strata_registry_add_logic(reg, STRATA_LOGIC_EVENT, "game.entered", on_entered, g,
                                               "game", err);
  if (!st) st = strata_registry_add_logic(reg, STRATA_LOGIC_EVENT, "game.before_move", before_move, g, "game", err);
  if (!st) st = strata_registry_add_logic(reg, STRATA_LOGIC_EVENT, "game.moved", moved, g, "game", err);
  if (!st && with_cellar) {
    st = strata_registry_add_logic(reg, STRATA_LOGIC_GENERATE_FLOOR, "cellar.cellar", gen_cellar, NULL,
                                   "game", err);
    strata_area_archetype cellar = {.id = "cellar.cellar", .generator = "cellar.cellar",
                                    .has_deepest_floor = 1, .deepest_floor = 2};
    if (!st) st = strata_registry_add_area_archetype(reg, &cellar, err);
    /* the well's branches: rooms from gen_cave, collapsing after 30 s without a move */
    static const char *const dirs[] = { "north", "east", "west" };
    strata_branch_def depths = {.id = "game.depths", .dirs = dirs, .ndirs = 3, .room_generator = "game.cave",
                                .max_idle = 30};
    if (!st) st = strata_registry_add_logic(reg, STRATA_LOGIC_GENERATE_ROOM, "game.cave", gen_cave, NULL, "game", err);
    if (!st) st = strata_registry_add_branch_archetype(reg, &depths, err);
  }
  if (st) {
    strata_registry_free(reg);
    return NULL;
  }
  return reg;
}

/* The host's global handlers, on a runtime (they are the runtime's, not the world's). */
static strata_status listen(game *g, strata_error *err) {
  TRY(strata_event_on(g->rt, "base.map_entered", "game", 0, "game.entered", err));
  TRY(strata_event_on(g->rt, "base.before_move", "game", 0, "game.before_move", err));
  return strata_event_on(g->rt, "base.moved", "game", 0, "game.moved", err);
}

/* ---- down the well: rooms, grid and branch exits, a stored walk (C world only) ---- */

static const char *WELL = "+ 0 1 2\n\n1 #-#\n  | |\n0 #-#\n\n+ 0 1 2\n";

static strata_status go(game *g, uint64_t who, const char *dir, strata_error *err) {
  strata_move_outcome out;
  TRY(strata_go(g->rt, who, dir, &out, err));
  if (out.refusal) printf("go %s: %s\n", dir, out.reason);
  else printf("go %s: in %s\n", dir, strata_room_name(g->w, strata_room_of(g->w, who)));
  return STRATA_OK;
}

static strata_status well(game *g, strata_error *err) {
  printf("== down the well\n");
  strata_xymap *xy = strata_xymap_parse(WELL, strlen(WELL), "well", NULL, 0, err);
  if (!xy) return err->status;
  /* room names by coordinate (grid.h's prototypes; any other room keeps the default) */
  strata_grid_proto names[] = {{0, 0, STRATA_GRID_ROOM, 0, 0, "The bottom of the well", NULL, NULL},
                               {1, 0, STRATA_GRID_ROOM, 0, 0, "A ledge", NULL, NULL},
                               {0, 1, STRATA_GRID_ROOM, 0, 0, "A crack", NULL, NULL},
                               {1, 1, STRATA_GRID_ROOM, 0, 0, "Below the well's mouth", NULL, NULL}};
  strata_grid_map gm = {xy, names, 4, NULL, 0};
  strata_grid_counts counts;
  strata_status st = strata_grid_spawn(g->w, &gm, 1, NULL, &counts, err);
  strata_xymap_free(xy);
  if (st) return st;
  printf("spawned %zu rooms and %zu exits\n", counts.created.rooms, counts.created.exits);
  uint64_t climber, start, bottom = strata_grid_room(g->w, "well", 0, 0), top = strata_grid_room(g->w, "well", 1, 1);
  TRY(strata_world_create(g->w, "actor", NULL, &climber, err));
  TRY(strata_room_put(g->w, climber, bottom, err));
  TRY(go(g, climber, "east", err));
  g->refuse = 1;
  TRY(go(g, climber, "north", err));   /* a C handler says no */
  TRY(go(g, climber, "north", err));
  TRY(go(g, climber, "up", err));      /* no such way */
  /* the top room opens into a branch: its rooms are made as they are first entered */
  TRY(strata_branch_make_start(g->w, top, "north", "game.depths", &start, err));
  TRY(go(g, climber, "north", err));
  uint64_t room = strata_room_of(g->w, climber);
  printf("branch#%llu: %lld room(s)\n", (unsigned long long)strata_branch_of(g->w, room),
         (long long)strata_branch_room_count(g->w, strata_branch_of(g->w, room)));
  TRY(strata_advance(g->rt, 31, NULL, err)); /* idle: the branch collapses, the climber back on top */
  printf("after 31 s: the climber is in %s, the branch %s\n", strata_room_name(g->w, strata_room_of(g->w, climber)),
         strata_is_branch(g->w, strata_branch_of(g->w, room)) ? "stays" : "is gone");
  return STRATA_OK;
}

/* A walk of the hero to the far end of floor 2, a step a second: stored in the world. */
static strata_status walk(game *g, strata_error *err) {
  TRY(strata_walk(g->rt, g->hero, 9, 3, 1, err));
  TRY(strata_advance(g->rt, 3, NULL, err));
  where(g, "walking");
  return STRATA_OK;
}

/* ---- the C world ---- */

static int run_c(const char *file) {
  strata_error err;
  game g = {0};
  printf("== the cellar in C\n");
  strata_registry *reg = host_logic(&g, 1, &err);
  if (!reg) return fail("registry", &err);
  int bad = 1;
  if (!(g.w = strata_world_new(7, &err))) goto out;
  /* Tile traits are the world's: a C game defines them (mods use base.token). */
  strata_token_traits t;
  strata_tokens_default_traits("wall", 4, &t);
  t.passable = 0;
  if (strata_tokens_define(strata_world_tokens(g.w), "wall", 4, &t, &err)) goto out;
  if (!(g.rt = strata_runtime_new(g.w, strata_registry_resolver(reg), &err))) goto out;
  if (listen(&g, &err)) goto out;
  if (play(&g, SCRIPT, &err)) goto out;
  if (well(&g, &err) || walk(&g, &err)) goto out;
  if (strata_world_save(g.w, file, NULL, 0, &err)) goto out;
  printf("saved; events seen: %d, moves: %d\n", g.events, g.moves);

  /* Open the save: a new world and runtime; the handler is the runtime's, so again. */
  strata_runtime_free(g.rt);
  strata_world_free(g.w);
  g.rt = NULL;
  strata_mod_version *mods;
  size_t nmods;
  if (strata_world_open(file, &g.w, &mods, &nmods, &err)) { g.w = NULL; goto out; }
  strata_mod_versions_free(mods, nmods);
  if (!(g.rt = strata_runtime_new(g.w, strata_registry_resolver(reg), &err))) goto out;
  if (listen(&g, &err)) goto out;
  g.hero = strata_player(g.rt);
  where(&g, "reopened");
  if (strata_advance(g.rt, 10, NULL, &err)) goto out; /* the stored walk goes on */
  printf("the walk: %s\n", strata_walk_state_name(strata_walk_state_of(g.rt, g.hero)));
  where(&g, "walked");
  if (turn(&g, 1, 'h', &err)) goto out;
  bad = 0;
out:
  if (bad) fail("C world", &err);
  strata_runtime_free(g.rt);
  strata_world_free(g.w);
  strata_registry_free(reg);
  return bad;
}

/* ---- the Lua world: the same game, the cellar from a Lua mod ---- */

/* Reads the mod's own bookkeeping: props.visits of the current map. */
static long long visits(const game *g) {
  strata_value path[2];
  strata_value_string(&path[0], "props", 5, NULL);
  strata_value_string(&path[1], "visits", 6, NULL);
  const strata_value *v = strata_object_get(g->w, strata_current_map(g->rt), path, 2);
  strata_value_clear(&path[0]);
  strata_value_clear(&path[1]);
  return v && v->type == STRATA_VINT ? (long long)v->u.i : -1;
}

/* The Lua world at the top: its C parts, the host's logic first, our handler on. */
static strata_status attach(lua_State *L, game *g, const strata_registry *reg, strata_error *err) {
  TRY(strata_lua_world(L, -1, &g->w, &g->rt, err));
  TRY(strata_lua_world_set_host(L, -1, strata_registry_resolver(reg), err));
  return listen(g, err);
}

static int run_lua(const char *mods_dir, const char *file) {
  strata_error err;
  game g = {0};
  printf("== the cellar from a Lua mod\n");
  strata_registry *reg = host_logic(&g, 0, &err);
  if (!reg) return fail("registry", &err);
  lua_State *L = strata_lua_new(NULL, &err); /* the one call */
  if (!L) {
    strata_registry_free(reg);
    return fail("Lua", &err);
  }
  int bad = 1;
  const char *mods[] = {"base", "cellar"};
  if (strata_lua_world_new(L, 7, mods, 2, mods_dir, &err)) goto out;
  if (attach(L, &g, reg, &err)) goto out;
  if (play(&g, SCRIPT, &err)) goto out;
  printf("the mod counted %lld visit(s) of this floor\n", visits(&g));
  if (strata_lua_world_save(L, -1, file, &err)) goto out;
  printf("saved; events seen: %d, moves: %d\n", g.events, g.moves);

  lua_pop(L, 1); /* the world goes with the next collection */
  lua_gc(L, LUA_GCCOLLECT);
  g.w = NULL;
  g.rt = NULL;
  if (strata_lua_world_open(L, file, mods_dir, &err)) goto out;
  if (attach(L, &g, reg, &err)) goto out;
  g.hero = strata_player(g.rt);
  where(&g, "reopened");
  if (turn(&g, 1, 'h', &err)) goto out;
  bad = 0;
out:
  if (bad) fail("Lua world", &err);
  lua_close(L); /* frees the world, and with it g.w and g.rt */
  strata_registry_free(reg);
  return bad;
}

int main(int argc, char **argv) {
  const char *mods_dir = argc > 1 ? argv[1] : "mods";
  const char *dir = argc > 2 ? argv[2] : ".";
  char c_file[4096], lua_file[4096];
  snprintf(c_file, sizeof c_file, "%s/cellar-c.db", dir);
  snprintf(lua_file, sizeof lua_file, "%s/cellar-lua.db", dir);
  remove(c_file);
  remove(lua_file);
  if (run_c(c_file)) return 1;
  return run_lua(mods_dir, lua_file);
}
