/*
** test_xymap.c - the XY map parser and router from C, and a robustness run:
** thousands of random and mutated map strings must each parse or fail with
** a located message, never crash (this test also runs under ASan + UBSan).
*/
#include <stdlib.h>

#include "check.h"
#include "strata/strata.h"

static strata_xymap *parse(const char *text, strata_error *err) {
  return strata_xymap_parse(text, strlen(text), "t", NULL, 0, err);
}

static void test_basic(void) {
  strata_error err;
  const char *map =
    "+ 0 1 2\n"
    "\n"
    "2 #-#-#\n"
    "     /\n"
    "1 #-#\n"
    "  |  \\\n"
    "0 #---#\n"
    "\n"
    "+ 0 1 2\n";
  strata_xymap *m = parse(map, &err);
  CHECK(m != NULL);
  CHECK_EQ_INT(strata_xymap_node_count(m), 7);
  CHECK_EQ_INT(strata_xymap_node_at(m, 2, 2), 6);
  CHECK_EQ_INT(strata_xymap_node_at(m, 1, 0), -1);
  CHECK_EQ_INT(strata_xymap_node_at(m, 99, 0), -1);
  CHECK_EQ_INT(strata_xymap_exit_count(m, 0), 2);
  strata_xy_exit ex;
  strata_xymap_exit(m, 0, 1, &ex);
  CHECK_STR(ex.name, "e");
  CHECK_EQ_INT(ex.target, 1);
  CHECK_NEAR(ex.weight, 1, 0);
  CHECK_EQ_INT(ex.step_count, 3);
  strata_xy_route r;
  CHECK_EQ_INT(strata_xymap_shortest_path(m, 0, 6, &r, &err), STRATA_OK);
  CHECK_EQ_INT(r.hop_count, 3);
  CHECK_STR(r.names[0], "n");
  CHECK_STR(r.names[2], "ne");
  CHECK_EQ_INT(r.step_count, 7);
  CHECK_NEAR(r.steps[1].y, 0.5, 0);
  CHECK(r.steps[2].is_node);
  strata_xy_route_free(&r);
  CHECK_EQ_INT(strata_xymap_shortest_path(m, 0, 60, &r, &err), STRATA_EARG);
  char *text;
  size_t len;
  CHECK_EQ_INT(strata_xymap_display(m, &text, &len, &err), STRATA_OK);
  CHECK_STR(text, "#-#-#\n   / \n#-#  \n||  \\ \n#---#");
  strata_free(text);
  strata_xymap_free(m);
}

static void test_errors(void) {
  strata_error err;
  CHECK(parse("+ 0 1\n\n0 #-\n\n+ 0 1", &err) == NULL);
  CHECK_EQ_INT(err.status, STRATA_EPARSE);
  CHECK_EQ_INT(err.line, 3);
  CHECK_EQ_INT(err.column, 4);
  CHECK(err.has_coord && err.coord_x == 0.5 && err.coord_y == 0);
  CHECK_HAS(err.message, "points to empty space in the direction e!");
  CHECK(parse("no markers", &err) == NULL);
  CHECK(strata_xymap_parse(NULL, 0, "t", NULL, 0, &err) == NULL);
  /* A ring of routers leads the node's chains back to the node itself. */
  strata_xymap *ring = parse("+\n\n  o-o\n  | |\n  #-o\n\n+", &err);
  CHECK(ring != NULL);
  if (ring) {
    CHECK_EQ_INT(strata_xymap_exit_count(ring, 0), 2);
    strata_xy_exit ex;
    strata_xymap_exit(ring, 0, 0, &ex);
    CHECK_EQ_INT(ex.target, 0);
    CHECK_EQ_INT(ex.step_count, 7);
    strata_xymap_free(ring);
  }
  strata_xy_legend bad;
  strata_xy_legend_default(STRATA_XY_EW, ' ', &bad);
  CHECK(strata_xymap_parse("+\n\n  #\n\n+", 11, "t", &bad, 1, &err) == NULL);
  CHECK_HAS(err.message, "Map-legend key");
}

/* The reference's documented forms (issue 35): weights >= 1, arrows first,
** one-way teleports, and the builder's display with every marker. */
static void test_reference_forms(void) {
  strata_error err;
  strata_xy_legend light;
  strata_xy_legend_default(STRATA_XY_EW, '=', &light);
  light.default_weight = 0.5;
  CHECK(strata_xymap_parse("+\n\n  #=#\n\n+", 12, "t", &light, 1, &err) == NULL);
  CHECK_EQ_INT(err.line, 3);
  CHECK_EQ_INT(err.column, 4);
  CHECK_HAS(err.message, "must be >= 1");
  strata_xymap *m = parse("+\n\n  #>----#\n\n+", &err);
  CHECK(m != NULL);
  if (m) {
    CHECK_EQ_INT(strata_xymap_exit_count(m, 0), 1);
    CHECK_EQ_INT(strata_xymap_exit_count(m, 1), 0);
    strata_xymap_free(m);
  }
  m = parse("+\n\n  #-t t>#-T\n\n+", &err);
  CHECK(m != NULL);
  if (m) {
    CHECK_EQ_INT(strata_xymap_exit_count(m, 0), 1);
    CHECK_EQ_INT(strata_xymap_exit_count(m, 1), 1); /* east to the T, not back west */
    char *text;
    size_t len;
    CHECK_EQ_INT(strata_xymap_display(m, &text, &len, &err), STRATA_OK);
    CHECK_STR(text, "#-   >#- ");
    strata_free(text);
    CHECK_EQ_INT(strata_xymap_builder_display(m, &text, &len, &err), STRATA_OK);
    CHECK_STR(text, "#-t t>#-T");
    strata_free(text);
    strata_xymap_free(m);
  }
}

/* Random maps over the whole legend, and mutations of a valid one. */
static void test_robustness(void) {
  static const char symbols[] = "#IT|-/\\+xv^<>oudbit  Q\t";
  strata_rng r;
  strata_rng_seed(&r, 99);
  char buf[2048];
  int parsed = 0, failed = 0;
  for (int iter = 0; iter < 4000; iter++) {
    size_t n = 0;
    n += (size_t)snprintf(buf + n, sizeof buf - n, "+\n\n");
    int rows = (int)strata_rng_int(&r, 1, 9), cols = (int)strata_rng_int(&r, 1, 14);
    for (int y = 0; y < rows; y++) {
      buf[n++] = ' ';
      buf[n++] = ' ';
      for (int x = 0; x < cols; x++) {
        /* Nodes mostly on even positions, links between, noise sometimes. */
        char c;
        if (strata_rng_chance(&r, 0.05)) c = symbols[strata_rng_below(&r, sizeof symbols - 1)];
        else if (x % 2 == 0 && y % 2 == 0) c = strata_rng_chance(&r, 0.8) ? '#' : ' ';
        else c = "-|/\\+xo ud bt><v^i "[strata_rng_below(&r, 19)];
        buf[n++] = c;
      }
      buf[n++] = '\n';
    }
    n += (size_t)snprintf(buf + n, sizeof buf - n, "\n+");
    strata_error err;
    strata_xymap *m = strata_xymap_parse(buf, n, "fuzz", NULL, 0, &err);
    if (m == NULL) {
      failed++;
      CHECK(err.message[0] != '\0');
      continue;
    }
    parsed++;
    size_t count = strata_xymap_node_count(m);
    for (int k = 0; k < 5 && count > 1; k++) {
      strata_xy_route route;
      size_t a = (size_t)strata_rng_below(&r, count), b = (size_t)strata_rng_below(&r, count);
      CHECK_EQ_INT(strata_xymap_shortest_path(m, a, b, &route, &err), STRATA_OK);
      CHECK(route.hop_count == 0 || route.step_count >= route.hop_count + 1);
      strata_xy_route_free(&route);
    }
    char *text;
    size_t len;
    CHECK_EQ_INT(strata_xymap_display(m, &text, &len, &err), STRATA_OK);
    strata_free(text);
    strata_xymap_free(m);
  }
  /* Both outcomes must be common, or the generator tests nothing. */
  CHECK(parsed > 100);
  CHECK(failed > 100);
  printf("robustness: %d maps parsed, %d refused with a message\n", parsed, failed);
}

static void test_grid(void) {
  strata_error err;
  strata_xy_legend to_b, to_a;
  strata_xy_legend_default(STRATA_XY_TRANSITION, 'T', &to_b);
  to_b.has_target = 1, to_b.target_x = 0, to_b.target_y = 0;
  strcpy(to_b.target_z, "b");
  to_a = to_b;
  to_a.target_x = 1;
  strcpy(to_a.target_z, "a");
  const char *ta = "+ 0 1 2\n\n0 #-#-T\n\n+", *tb = "+ 0 1 2\n\n0 #-#-T\n\n+";
  strata_xymap *a = strata_xymap_parse(ta, strlen(ta), "a", &to_b, 1, &err);
  strata_xymap *b = strata_xymap_parse(tb, strlen(tb), "b", &to_a, 1, &err);
  strata_xygrid *g = strata_xygrid_new(&err);
  CHECK(a && b && g);
  CHECK_EQ_INT(strata_xygrid_add(g, a, &err), STRATA_OK);
  CHECK_EQ_INT(strata_xygrid_add(g, b, &err), STRATA_OK);
  CHECK_EQ_INT(strata_xygrid_add(g, a, &err), STRATA_EARG);
  CHECK(strata_xygrid_map(g, "b") == b);
  strata_xygrid_route r;
  CHECK_EQ_INT(strata_xygrid_shortest_path(g, "a", 0, 0, "b", 1, 0, &r, &err), STRATA_OK);
  CHECK_EQ_INT(r.hop_count, 3);
  CHECK_STR(r.steps[r.step_count - 1].z, "b");
  CHECK_NEAR(r.cost, 3, 0);
  strata_xygrid_route_free(&r);
  CHECK_EQ_INT(strata_xygrid_shortest_path(g, "a", 0, 0, "c", 1, 0, &r, &err), STRATA_ENOTFOUND);
  strata_xygrid_free(g);
  strata_xymap_free(a);
  strata_xymap_free(b);
}

int main(void) {
  test_basic();
  test_grid();
  test_errors();
  test_reference_forms();
  test_robustness();
  return check_summary("xymap");
}
