/*
** fuzz_save.c - libFuzzer target: any bytes as a save file (the seeds are
** real saves, spec/fuzz/corpus/save/, which libFuzzer mutates). Opening must
** end in a world or "cannot open", never a crash, a hang, a leak or memory
** out of proportion to the file; a world that opens must save and open again,
** both to a new file and (incrementally, a cell of a map changed) back into
** the file it came from.
**
** Built with STRATA_SAVE_FUZZING: row checksums are computed but a mismatch
** does not stop the open, so that mutations reach the value decoder, the
** tiles reader and the restore functions behind it (with checksums on, nearly
** every mutation ends at the first row). The damaged-save spec tests the
** loader as shipped (spec/damaged_saves_spec.lua).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "strata/world.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64], again[80];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!path[0]) {
    snprintf(path, sizeof path, "/tmp/strata-fuzz-save-%d.db", (int)getpid());
    snprintf(again, sizeof again, "%s.again", path);
  }
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  strata_world *w = NULL;
  strata_mod_version *mods = NULL;
  size_t n = 0;
  strata_error err;
  if (strata_world_open(path, &w, &mods, &n, &err) == STRATA_OK) {
    if (strata_world_save(w, again, mods, n, &err) != STRATA_OK) abort();
    strata_world *w2 = NULL;
    strata_mod_version *mods2 = NULL;
    size_t n2 = 0;
    if (strata_world_open(again, &w2, &mods2, &n2, &err) != STRATA_OK) abort();
    if (strata_world_count(w2) != strata_world_count(w) || n2 != n) abort();
    strata_world_free(w2);
    strata_mod_versions_free(mods2, n2);
    /* Back into the file it came from, changed: an incremental save into a
    ** hostile file. It may fail (a damaged page is an I/O error), but what
    ** it writes must open again, as this world. */
    strata_world_touch(w, 1, NULL);
    strata_world_set_time(w, strata_world_time(w) + 1, NULL);
    /* and a cell of the first map, whose chunk row is rewritten in place */
    for (strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid)) {
      strata_tilemap *m = strata_world_tilemap(w, o->uid);
      if (!m) continue;
      strata_token t = strata_tokens_intern(strata_world_tokens(w), "fuzzed", 6, NULL);
      if (t) strata_tilemap_set(m, strata_tilemap_width(m) - 1, strata_tilemap_height(m) / 2, t, NULL);
      break;
    }
    if (strata_world_save(w, path, mods, n, &err) == STRATA_OK) {
      if (strata_world_open(path, &w2, &mods2, &n2, &err) != STRATA_OK) abort();
      if (strata_world_count(w2) != strata_world_count(w) || n2 != n) abort();
      strata_world_free(w2);
      strata_mod_versions_free(mods2, n2);
    }
    strata_world_free(w);
    strata_mod_versions_free(mods, n);
    unlink(again);
  }
  unlink(path);
  return 0;
}
