/* consumer.c - the README's C walk: a game linking an installed libstrata.
** A world, its token table, a map with a wall, a route around it drawn on
** the map, then a save and a second look at the saved world. */
#include <stdio.h>
#include <stdlib.h>
#include <strata/strata.h>

static int fail(const strata_error *err) {
  fprintf(stderr, "strata: %s\n", err->message);
  return 1;
}

/* Sets name's traits in the world's table: every map of the world uses them. */
static int define(strata_tokens *tokens, const char *name, size_t len, int passable, char glyph,
                  strata_error *err) {
  strata_token_traits t;
  strata_tokens_default_traits(name, len, &t);
  t.passable = passable;
  t.glyph[0] = glyph;
  return strata_tokens_define(tokens, name, len, &t, err) != STRATA_OK;
}

int main(int argc, char **argv) {
  const char *file = argc > 1 ? argv[1] : "game.db";
  strata_error err;
  strata_world *w = strata_world_new(42, &err);
  if (!w) return fail(&err);
  strata_tokens *tokens = strata_world_tokens(w);
  if (define(tokens, "floor", 5, 1, '.', &err) || define(tokens, "wall", 4, 0, '#', &err))
    return fail(&err);

  uint64_t uid;
  if (strata_world_create_map(w, 20, 5, NULL, &uid, &err)) return fail(&err);
  strata_tilemap *map = strata_world_tilemap(w, uid); /* owned by the map object */
  strata_tilemap_clear(map, strata_tokens_intern(tokens, "floor", 5, &err), &err);
  strata_tilemap_fill_rect(map, 10, 0, 1, 4, strata_tokens_intern(tokens, "wall", 4, &err), 0, &err);

  strata_grid_options opt;
  strata_grid_options_init(&opt);
  opt.connectivity = 8;
  strata_path path;
  strata_path_init(&path);
  if (strata_tilemap_find_path(map, 0, 0, 19, 0, &opt, &path, &err)) return fail(&err);
  strata_render_options draw = {.overlay = &path};
  char *text;
  size_t len;
  if (strata_tilemap_render(map, &draw, &text, &len, &err)) return fail(&err);
  printf("%s%zu cells, cost %.2f\n", text, path.len, path.cost);
  strata_free(text);
  strata_path_free(&path);

  if (strata_world_save(w, file, NULL, 0, &err)) return fail(&err);
  strata_world_free(w);
  strata_mod_version *mods;
  size_t nmods;
  if (strata_world_open(file, &w, &mods, &nmods, &err)) return fail(&err);
  printf("reopened: %zu object(s), map %dx%d\n", strata_world_count(w),
         strata_tilemap_width(strata_world_tilemap(w, uid)),
         strata_tilemap_height(strata_world_tilemap(w, uid)));
  strata_mod_versions_free(mods, nmods);
  strata_world_free(w);
  /* the library run with, and the headers compiled with */
  printf("strata %s (headers %s)\n", strata_version(), STRATA_VERSION);
  return 0;
}
