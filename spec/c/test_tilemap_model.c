/*
** test_tilemap_model.c - random edits checked against a plain model.
**
** Thousands of random set / add_front / remove / reset / clear / fill_rect
** calls, some with bad arguments, on a small map; after each, every cell's
** stack must equal the model's, and a refused call must change nothing.
** Under ASan this also shakes out the side-stack bookkeeping.
*/
#include <stdlib.h>

#include "check.h"
#include "strata/strata.h"

#define W 7
#define H 5
#define DEPTH 64

typedef struct model {
  strata_token cell[W * H][DEPTH];
  int len[W * H];
} model;

static void model_push(model *md, int i, strata_token t, int front) {
  if (md->len[i] == DEPTH) return; /* the generator below never gets this deep */
  if (front) {
    memmove(&md->cell[i][1], &md->cell[i][0], (size_t)md->len[i] * sizeof(strata_token));
    md->cell[i][0] = t;
  } else {
    md->cell[i][md->len[i]] = t;
  }
  md->len[i]++;
}

static int same(const strata_tilemap *m, const model *md) {
  strata_token buf[DEPTH + 1];
  for (int i = 0; i < W * H; i++) {
    size_t n = strata_tilemap_stack(m, i % W, i / W, buf, DEPTH + 1);
    if ((int)n != md->len[i]) return 0;
    for (size_t k = 0; k < n; k++)
      if (buf[k] != md->cell[i][k]) return 0;
    if (strata_tilemap_top(m, i % W, i / W) != (n ? buf[n - 1] : 0)) return 0;
  }
  return 1;
}

int main(void) {
  strata_rng r;
  strata_rng_seed(&r, 2026);
  strata_error err;
  strata_tilemap *m = strata_tilemap_new(W, H, NULL, &err);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token ids[5];
  const char *names[5] = {"a", "b", "c", "d", "e"};
  for (int k = 0; k < 5; k++) ids[k] = strata_tokens_intern(t, names[k], 1, NULL);
  static model md;
  int mismatches = 0, refused_changed = 0;
  for (int step = 0; step < 20000; step++) {
    int op = (int)strata_rng_below(&r, 100);
    int x = (int)strata_rng_int(&r, -1, W), y = (int)strata_rng_int(&r, -1, H);
    int inside = x >= 0 && y >= 0 && x < W && y < H;
    int i = inside ? y * W + x : -1;
    strata_token tok = ids[strata_rng_below(&r, 5)];
    if (strata_rng_chance(&r, 0.02)) tok = 999; /* not in the table */
    int valid_tok = tok != 999;
    strata_status st;
    if (op < 35) {
      int front = op < 10;
      if (inside && md.len[i] >= DEPTH - 1) continue;
      st = front ? strata_tilemap_add_front(m, x, y, tok, &err)
                 : strata_tilemap_set(m, x, y, tok, &err);
      if (inside && valid_tok) {
        CHECK_EQ_INT(st, STRATA_OK);
        model_push(&md, i, tok, front);
      } else {
        CHECK_EQ_INT(st, STRATA_EARG);
      }
    } else if (op < 60) {
      int removed = -1;
      st = strata_tilemap_remove(m, x, y, tok, &removed, &err);
      if (inside) {
        int keep = 0, n = 0;
        for (int k = 0; k < md.len[i]; k++) {
          if (md.cell[i][k] == tok) n++;
          else md.cell[i][keep++] = md.cell[i][k];
        }
        md.len[i] = keep;
        CHECK_EQ_INT(st, STRATA_OK);
        CHECK_EQ_INT(removed, n);
      } else {
        CHECK_EQ_INT(st, STRATA_EARG);
      }
    } else if (op < 80) {
      strata_token rt = strata_rng_chance(&r, 0.2) ? 0 : tok;
      st = strata_tilemap_reset(m, x, y, rt, &err);
      if (inside && (rt == 0 || valid_tok)) {
        CHECK_EQ_INT(st, STRATA_OK);
        md.len[i] = 0;
        if (rt) model_push(&md, i, rt, 0);
      } else {
        CHECK_EQ_INT(st, STRATA_EARG);
      }
    } else if (op < 97) {
      int rx = (int)strata_rng_int(&r, -3, W), ry = (int)strata_rng_int(&r, -3, H);
      int rw = (int)strata_rng_int(&r, 0, 5), rh = (int)strata_rng_int(&r, 0, 4);
      int push = (int)strata_rng_below(&r, 2);
      st = strata_tilemap_fill_rect(m, rx, ry, rw, rh, tok, push, &err);
      if (!valid_tok) {
        CHECK_EQ_INT(st, STRATA_EARG);
      } else {
        CHECK_EQ_INT(st, STRATA_OK);
        for (int cy = ry; cy < ry + rh; cy++)
          for (int cx = rx; cx < rx + rw; cx++) {
            if (cx < 0 || cy < 0 || cx >= W || cy >= H) continue;
            int j = cy * W + cx;
            if (!push) md.len[j] = 0;
            model_push(&md, j, tok, 0);
          }
      }
    } else {
      st = strata_tilemap_clear(m, valid_tok ? tok : 0, &err);
      CHECK_EQ_INT(st, STRATA_OK);
      for (int j = 0; j < W * H; j++) {
        md.len[j] = 0;
        if (valid_tok) model_push(&md, j, tok, 0);
      }
    }
    if (!same(m, &md)) {
      mismatches++;
      if (st != STRATA_OK) refused_changed++;
      break;
    }
  }
  CHECK_EQ_INT(mismatches, 0);
  CHECK_EQ_INT(refused_changed, 0);
  strata_tilemap_free(m);
  return check_summary("tilemap_model");
}
