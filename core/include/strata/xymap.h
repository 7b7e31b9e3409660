/*
** xymap.h - maps drawn as text in the XY map language (Evennia's XYZGrid):
** `#` nodes on even character positions joined by link characters.
**
** A map string is parsed into nodes (rooms) and directed, weighted edges
** (chains of links between two nodes). Coordinates: the character grid has
** x to the right and y upwards from the bottom-left corner of the map area;
** world coordinates are X = x/2, Y = y/2 (nodes sit where both are whole).
** Directions are named n, ne, e, se, s, sw, w, nw (+Y is north).
**
** A parse error fills strata_error with the message, the line and column of
** the offending character in the map string, and its map coordinate (X, Y).
** The map owns everything it returns pointers to; they live as long as it.
*/
#ifndef STRATA_XYMAP_H
#define STRATA_XYMAP_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_xy_kind {
  STRATA_XY_NODE = 0,      /* # */
  STRATA_XY_INTERRUPT_NODE,/* I: auto-walk stops on entering it */
  STRATA_XY_TRANSITION,    /* T: stands for a node on another map */
  STRATA_XY_NS,            /* | */
  STRATA_XY_EW,            /* - */
  STRATA_XY_NESW,          /* / */
  STRATA_XY_SENW,          /* \ */
  STRATA_XY_PLUS,          /* + */
  STRATA_XY_CROSS,         /* x */
  STRATA_XY_ONEWAY_S,      /* v */
  STRATA_XY_ONEWAY_N,      /* ^ */
  STRATA_XY_ONEWAY_E,      /* > */
  STRATA_XY_ONEWAY_W,      /* < */
  STRATA_XY_ROUTER,        /* o */
  STRATA_XY_UP,            /* u */
  STRATA_XY_DOWN,          /* d */
  STRATA_XY_BLOCKED,       /* b */
  STRATA_XY_INTERRUPT_LINK,/* i */
  STRATA_XY_TELEPORTER,    /* t */
  STRATA_XY_LINK,          /* a generic link with explicit directions */
  STRATA_XY_KIND_COUNT
} strata_xy_kind;

/* Direction indices, in the order links are traced (n, ne, e, se, s, sw, w, nw). */
enum { STRATA_XY_DIRECTIONS = 8 };
/* "n" -> 0 ... "nw" -> 7; -1 if not a direction name. */
STRATA_API int strata_xy_direction(const char *name);
STRATA_API const char *strata_xy_direction_name(int dir);
/* Kind from its name ("node", "ew", "oneway_s", "router", ...); -1 if unknown. */
STRATA_API int strata_xy_kind_parse(const char *name);
STRATA_API const char *strata_xy_kind_name(strata_xy_kind kind);

#define STRATA_XY_NAME_MAX 32

/* One legend entry: what a symbol means. Start from strata_xy_legend_default()
** for a kind and change what differs. */
typedef struct strata_xy_legend {
  char symbol;
  strata_xy_kind kind;
  char display[16];          /* "" = the kind's default display */
  double default_weight;     /* weight of crossing this link */
  double weights[STRATA_XY_DIRECTIONS]; /* by entry side; < 0 = default_weight */
  int8_t directions[STRATA_XY_DIRECTIONS]; /* STRATA_XY_LINK: entry side -> exit side, -1 none */
  char aliases[STRATA_XY_DIRECTIONS][STRATA_XY_NAME_MAX]; /* step names by direction; "" = the direction's */
  int interrupt;             /* auto-walk stops here */
  int average;               /* average the weights of a long chain ending in this link */
  int has_target;            /* STRATA_XY_TRANSITION: target node on another map */
  double target_x, target_y;
  char target_z[STRATA_XY_NAME_MAX * 2];
} strata_xy_legend;

/* The default entry for kind under symbol. */
STRATA_API void strata_xy_legend_default(strata_xy_kind kind, char symbol, strata_xy_legend *out);

typedef struct strata_xymap strata_xymap;

/* Parses text. extra (count entries, may be NULL) overrides or adds to the
** default legend, symbol by symbol. z names the map (used in messages and by
** multi-map grids). NULL and err filled on any error. */
STRATA_API strata_xymap *strata_xymap_parse(const char *text, size_t len, const char *z,
                                 const strata_xy_legend *extra, size_t count,
                                 strata_error *err);
STRATA_API void strata_xymap_free(strata_xymap *m); /* NULL is accepted */

STRATA_API const char *strata_xymap_z(const strata_xymap *m);
/* Largest node coordinates (max_X, max_Y). */
STRATA_API void strata_xymap_extent(const strata_xymap *m, int *max_x, int *max_y);

/* Nodes are numbered 0..count-1 in scan order (rows bottom-up, left to right). */
STRATA_API size_t strata_xymap_node_count(const strata_xymap *m);
/* The node at whole coordinates (X, Y), or -1. */
STRATA_API int64_t strata_xymap_node_at(const strata_xymap *m, int x, int y);

typedef struct strata_xy_node_info {
  int x, y;                  /* world coordinates */
  char symbol;
  strata_xy_kind kind;
  int interrupt;
  const strata_xy_legend *legend;
} strata_xy_node_info;
STRATA_API void strata_xymap_node(const strata_xymap *m, size_t node, strata_xy_node_info *out);

/* One exit out of a node: the first link's direction, its step name (alias
** applied), the node it leads to and the weight of the chain. */
typedef struct strata_xy_exit {
  int direction;
  const char *name;
  size_t target;
  double weight;
  size_t first_step, step_count; /* the chain's links: see strata_xymap_step */
} strata_xy_exit;
STRATA_API size_t strata_xymap_exit_count(const strata_xymap *m, size_t node);
STRATA_API void strata_xymap_exit(const strata_xymap *m, size_t node, size_t i, strata_xy_exit *out);

/* A cell of a route: a node or a link, with its world coordinates. */
typedef struct strata_xy_step {
  double x, y;
  char symbol;
  int is_node;
  int interrupt;
} strata_xy_step;
STRATA_API void strata_xymap_step(const strata_xymap *m, size_t index, strata_xy_step *out);

/* A shortest route. names[i] is the step name of hop i; steps are the cells
** walked (start node, links, node, ..., goal), both owned by the route. */
typedef struct strata_xy_route {
  const char **names;
  size_t hop_count;
  strata_xy_step *steps;
  size_t step_count;
  double cost;
} strata_xy_route;

/* Shortest route from node a to node b. Blocked links are never used; no
** route (or a == b) gives hop_count == 0. Ties between equally short routes
** are broken as Evennia breaks them: each node's predecessor is, among its
** optimal predecessors, the one nearest the start, then the one with the
** highest node index. Free the route with strata_xy_route_free. */
STRATA_API strata_status strata_xymap_shortest_path(const strata_xymap *m, size_t a, size_t b,
                                         strata_xy_route *out, strata_error *err);
STRATA_API void strata_xy_route_free(strata_xy_route *r);

/* The map as players see it: rows top-down joined by '\n', markers hidden,
** `|` written as the markup escape `||`. *out is the caller's: strata_free it. */
STRATA_API strata_status strata_xymap_display(const strata_xymap *m, char **out, size_t *len,
                                   strata_error *err);

/* The map as its builder drew it: every cell by its own legend symbol, the
** markers players never see (T, t, b, i, I, transitions) included; `|` as
** `||`, rows as strata_xymap_display's. *out is the caller's: strata_free it. */
STRATA_API strata_status strata_xymap_builder_display(const strata_xymap *m, char **out, size_t *len,
                                           strata_error *err);

typedef enum strata_xy_view_mode {
  STRATA_XY_VIEW_NODES = 0, /* what is reachable within dist steps */
  STRATA_XY_VIEW_SCAN       /* every character within dist characters */
} strata_xy_view_mode;

typedef struct strata_xy_view {
  int x, y;                  /* the centre, world coordinates */
  int dist;                  /* steps (nodes mode) or characters (scan); < 0: the whole map */
  strata_xy_view_mode mode;
  const char *character;     /* drawn at the centre; NULL or "" draws the map there */
  int has_target;            /* mark the route to (target_x, target_y) */
  int target_x, target_y;
  const char *target_style;  /* "{display_symbol}" replaced by the cell; NULL: "|y{display_symbol}|n" */
  int max_w, max_h;          /* crop around the centre; <= 0: no crop that way */
  int builder;               /* every cell by its own symbol (strata_xymap_builder_display) */
} strata_xy_view;

/* The part of the map around (x, y), as Evennia's get_visual_range draws it:
** rows top-down joined by '\n'. In nodes mode, everything reachable within
** dist steps (each node visited once: no blow-up with distance) inside its
** bounding box; in scan mode, the square of dist characters around the
** centre. No node at the centre (or dist == 0) gives just the character.
** *out is the caller's: strata_free it. A centre outside the map is STRATA_EARG. */
STRATA_API strata_status strata_xymap_visual_range(const strata_xymap *m, const strata_xy_view *view,
                                        char **out, size_t *len, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
