/*
** grid.c - spawning XY maps into a world as rooms and exits, reconciling
** with what an earlier spawn made (grid.h).
**
** A spawn scans the world once to index the grid rooms by (map, X, Y),
** then works map by map: rooms whose node is gone are deleted (with their
** exits, found in one more scan), rooms are made or brought up to date,
** then exits, once every room exists, so that an exit into a transition
** finds the room on the other map. Nothing is written where nothing
** differs, so an unchanged respawn costs the scan and the comparisons.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "room_internal.h"
#include "runtime_internal.h"
#include "world_internal.h"
#include "strata/alloc.h"
#include "strata/grid.h"
#include "util.h"

#define DEFAULT_ROOM_NAME "An empty room"

/* The object's sys table, and a table in it. */
static const strata_vtable *sys_of(const strata_world *w, uint64_t uid) {
  strata_value path[1] = { room_key("sys") };
  const strata_value *v = strata_object_get(w, uid, path, 1);
  return v && v->type == STRATA_VTABLE ? v->u.t : NULL;
}

static const strata_vtable *sub_table(const strata_vtable *t, const char *k) {
  const strata_value *v = t ? strata_vtable_get_str(t, k) : NULL;
  return v && v->type == STRATA_VTABLE ? v->u.t : NULL;
}

/* ---- an object's place on the grid: sys.place = "X Y I TAG Z" ----
** One string, so that a respawn compares a whole place with one strcmp: I is
** 1 for an interrupt, TAG the room's symbol or the exit's direction, Z the
** map's Z, last because it may hold spaces. */

static const char *grid_str(const strata_world *w, uint64_t uid) {
  strata_value path[2] = { room_key("sys"), room_key("place") };
  const strata_value *v = strata_object_get(w, uid, path, 2);
  return v && v->type == STRATA_VSTRING ? v->u.str.s : NULL;
}

/* A decimal integer and the space after it (strtol's cost, twice a room,
** was a respawn's tenth); 0: none, or out of range. */
static int parse_int(const char **s, long *out) {
  const char *p = *s;
  int neg = *p == '-';
  p += neg || *p == '+';
  long v = 0;
  const char *digits = p;
  for (; *p >= '0' && *p <= '9'; p++) {
    v = v * 10 + (*p - '0');
    if (v > (long)INT_MAX + 1) return 0;
  }
  if (p == digits || *p != ' ') return 0;
  *out = neg ? -v : v;
  *s = p + 1;
  return 1;
}

static int parse_place(const char *s, int *x, int *y, int *interrupt, char tag[4], const char **z) {
  long v[3];
  for (int i = 0; i < 3; i++)
    if (!parse_int(&s, &v[i]) || v[i] < INT_MIN + 1 || v[i] > INT_MAX) return 0;
  size_t n = strcspn(s, " ");
  if (n == 0 || n > 3 || s[n] != ' ') return 0;
  if (x) *x = (int)v[0];
  if (y) *y = (int)v[1];
  if (interrupt) *interrupt = v[2] != 0;
  if (tag) memcpy(tag, s, n), tag[n] = 0;
  if (z) *z = s + n + 1;
  return 1;
}

static char *put_int(char *p, int v) {
  char tmp[12];
  size_t n = 0;
  unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
  do tmp[n++] = (char)('0' + u % 10); while (u /= 10);
  if (v < 0) *p++ = '-';
  while (n) *p++ = tmp[--n];
  return p;
}

/* The place string of (x, y, z) into buf (cap bytes) or a strata_malloc'd one when
** longer; NULL on ENOMEM. Free it when it is not buf. (Not snprintf: a
** respawn formats one for every room and exit it compares.) */
static char *format_place(char *buf, size_t cap, int x, int y, int interrupt, const char *tag, const char *z) {
  size_t tl = strlen(tag), zl = strlen(z), need = 2 * 11 + 5 + tl + zl + 1;
  char *out = need <= cap ? buf : strata_malloc(need);
  if (!out) return NULL;
  char *p = put_int(out, x);
  *p++ = ' ';
  p = put_int(p, y);
  *p++ = ' ';
  *p++ = interrupt ? '1' : '0';
  *p++ = ' ';
  memcpy(p, tag, tl);
  p += tl;
  *p++ = ' ';
  memcpy(p, z, zl + 1);
  return out;
}

int strata_grid_pos(const strata_world *w, uint64_t uid, int *x, int *y, const char **z, char tag[4],
                    int *interrupt) {
  const strata_object *o = strata_world_get(w, uid);
  if (!o || (strcmp(o->kind, "room") && strcmp(o->kind, "exit"))) return 0;
  const char *s = grid_str(w, uid);
  return s && parse_place(s, x, y, interrupt, tag, z);
}

/* The grid room at (x, y, z) by a scan of the world: what the index holds,
** and the answer when it cannot be made (out of memory). */
static uint64_t grid_room_scan(const strata_world *w, const char *z, int x, int y) {
  for (const strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid)) {
    int gx, gy;
    const char *gz;
    if (!strcmp(o->kind, "room") && strata_grid_pos(w, o->uid, &gx, &gy, &gz, NULL, NULL) && gx == x
        && gy == y && !strcmp(gz, z))
      return o->uid;
  }
  return 0;
}

/* ---- the grid rooms by place (strata_grid_room) ----
** Built by one scan of the world on the first lookup after a room was made,
** deleted, moved or edited (world_kind_edits of rooms), so that a lookup is
** a probe, and never older than the world: a rollback or an edit from C
** changes the count too. The first room by uid wins a place, as the scan
** found it. Open addressing over (map, X, Y), at most half full. */
typedef struct room_slot {
  uint64_t uid; /* 0: empty */
  int x, y;
  size_t zi;    /* the map's name: z[zi] */
} room_slot;

struct grid_room_index {
  uint64_t edits;  /* world_kind_edits of rooms + 1 it holds for; 0: none */
  char **z;        /* the maps' names, copied */
  size_t nz, zcap;
  room_slot *slot;
  size_t cap;      /* a power of two */
};

void grid_room_index_free(strata_world *w) {
  struct grid_room_index *g = w->grid_rooms;
  if (!g) return;
  for (size_t i = 0; i < g->nz; i++) strata_free(g->z[i]);
  strata_free(g->z);
  strata_free(g->slot);
  strata_free(g);
  w->grid_rooms = NULL;
}

static size_t place_hash(size_t zi, int x, int y) {
  uint64_t h = ((uint64_t)zi * 0x9E3779B97F4A7C15u) ^ ((uint64_t)(uint32_t)x << 32 | (uint32_t)y);
  h ^= h >> 29, h *= 0xBF58476D1CE4E5B9u, h ^= h >> 32;
  return (size_t)h;
}

/* The slot of (zi, x, y): its room, or the empty one where it would go. */
static room_slot *place_slot(const struct grid_room_index *g, size_t zi, int x, int y) {
  for (size_t i = place_hash(zi, x, y) & (g->cap - 1);; i = (i + 1) & (g->cap - 1)) {
    room_slot *s = &g->slot[i];
    if (!s->uid || (s->zi == zi && s->x == x && s->y == y)) return s;
  }
}

/* The index of map name z among g's, added when add is set; -1: none. */
static ptrdiff_t place_map(struct grid_room_index *g, const char *z, int add) {
  for (size_t i = 0; i < g->nz; i++)
    if (!strcmp(g->z[i], z)) return (ptrdiff_t)i;
  if (!add || !STRATA_GROW(g->z, g->zcap, g->nz + 1) || !(g->z[g->nz] = strata_strdup(z))) return -1;
  return (ptrdiff_t)g->nz++;
}

/* g made again from the world's rooms; 0: out of memory (g left empty). */
static int index_places(const strata_world *w, struct grid_room_index *g) {
  for (size_t i = 0; i < g->nz; i++) strata_free(g->z[i]);
  g->nz = 0, g->edits = 0;
  size_t need = 16;
  while (need < 2 * world_kind_count(w, "room") + 2) need *= 2;
  if (need != g->cap) {
    strata_free(g->slot);
    g->cap = 0;
    if (!(g->slot = strata_calloc(need, sizeof *g->slot))) return 0;
    g->cap = need;
  } else {
    memset(g->slot, 0, g->cap * sizeof *g->slot);
  }
  for (const strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid)) {
    int x, y;
    const char *z;
    if (strcmp(o->kind, "room") || !strata_grid_pos(w, o->uid, &x, &y, &z, NULL, NULL)) continue;
    ptrdiff_t zi = place_map(g, z, 1);
    if (zi < 0) return 0;
    room_slot *s = place_slot(g, (size_t)zi, x, y);
    if (!s->uid) *s = (room_slot){ o->uid, x, y, (size_t)zi };
  }
  g->edits = world_kind_edits(w, "room") + 1;
  return 1;
}

uint64_t strata_grid_room(const strata_world *cw, const char *z, int x, int y) {
  strata_world *w = (strata_world *)cw; /* the index is a cache, not state */
  struct grid_room_index *g = w->grid_rooms;
  if (!g && !(g = w->grid_rooms = strata_calloc(1, sizeof *g))) return grid_room_scan(cw, z, x, y);
  if (g->edits != world_kind_edits(w, "room") + 1 && !index_places(w, g)) return grid_room_scan(cw, z, x, y);
  ptrdiff_t zi = place_map(g, z, 0);
  return zi < 0 ? 0 : place_slot(g, (size_t)zi, x, y)->uid;
}

strata_status strata_grid_teleport(strata_runtime *rt, uint64_t actor, int x, int y, const char *z,
                                   strata_move_outcome *out, strata_error *err) {
  const strata_world *w = strata_runtime_world(rt);
  strata_status st = move_check_actor(rt, actor, "strata_grid_teleport", err);
  if (st) return st;
  if (!z && !strata_grid_pos(w, strata_room_of(w, actor), NULL, NULL, &z, NULL, NULL))
    return strata_error_in(err, STRATA_EARG, "strata_grid_teleport", "%s#%llu is in no grid room: give a z",
                           strata_world_get(w, actor) ? strata_world_get(w, actor)->kind : "object",
                           (unsigned long long)actor);
  uint64_t room = strata_grid_room(w, z, x, y);
  if (room) return strata_move_to_room(rt, actor, room, 0, out, err);
  out->refusal = STRATA_MOVE_OFF_MAP;
  snprintf(out->reason, sizeof out->reason, "no grid room at (%d, %d, %s)", x, y, z);
  return STRATA_OK;
}

/* ---- the index of grid rooms ----
** By map node: rooms[base[map] + node] (a respawn looks up each room and
** the room each exit leads to: an array read, not a probe of a table three
** megabytes wide). Rooms standing where their map has no node, or a
** transition (gone since the last spawn), are in a small table by (map,
** X, Y), open addressing. */

typedef struct gslot {
  uint64_t uid;   /* 0: empty or deleted (zi < 0) */
  int zi, x, y;
} gslot;

typedef struct spawn {
  strata_world *w;
  const strata_grid_map *maps;
  size_t n;
  const strata_grid_filter *f;
  strata_grid_counts *c;
  strata_error *err;
  size_t *base;        /* the first node of each map in rooms; n + 1 entries */
  uint64_t *rooms;     /* the room of each node, 0: none */
  unsigned char *fresh; /* by node: made by this spawn, packed without its exits (spawn_rooms) */
  gslot *slots;        /* the rooms at no node */
  size_t cap;          /* a power of two, at least twice what is put in; 0: none */
  uint64_t *doomed;    /* rooms to delete, sorted before use */
  size_t ndoomed, doomed_cap;
} spawn;

static size_t slot_of(const spawn *s, int zi, int x, int y) {
  uint64_t h = (uint64_t)(uint32_t)x * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)y * 0xC2B2AE3D27D4EB4Full
             ^ (uint64_t)(uint32_t)zi * 0x165667B19E3779F9ull;
  h ^= h >> 31;
  size_t i = (size_t)h & (s->cap - 1);
  /* Deleted slots (uid 0, zi -1) keep the probe going. */
  while ((s->slots[i].uid || s->slots[i].zi < 0)
         && !(s->slots[i].uid && s->slots[i].zi == zi && s->slots[i].x == x && s->slots[i].y == y))
    i = (i + 1) & (s->cap - 1);
  return i;
}

/* The node of map zi at (x, y) that a room stands for; -1: none, or a transition. */
static int64_t room_node(const spawn *s, int zi, int x, int y) {
  const strata_xymap *m = s->maps[zi].map;
  int64_t node = strata_xymap_node_at(m, x, y);
  strata_xy_node_info nd;
  if (node >= 0) strata_xymap_node(m, (size_t)node, &nd);
  return node >= 0 && nd.kind != STRATA_XY_TRANSITION ? node : -1;
}

static uint64_t lookup(const spawn *s, int zi, int x, int y) {
  if (zi < 0) return 0;
  int64_t node = room_node(s, zi, x, y);
  if (node >= 0) return s->rooms[s->base[zi] + (size_t)node];
  return s->cap ? s->slots[slot_of(s, zi, x, y)].uid : 0;
}

static int map_of(const spawn *s, const char *z) {
  for (size_t i = 0; i < s->n; i++)
    if (!strcmp(strata_xymap_z(s->maps[i].map), z)) return (int)i;
  return -1;
}

static int selected_map(const spawn *s, size_t zi) {
  return !s->f || !s->f->z || !strcmp(s->f->z, strata_xymap_z(s->maps[zi].map));
}

static int selected_xy(const spawn *s, int x, int y) {
  return !s->f || ((s->f->x == STRATA_GRID_ANY || s->f->x == x) && (s->f->y == STRATA_GRID_ANY || s->f->y == y));
}

static strata_status doom(spawn *s, uint64_t uid) {
  if (!STRATA_GROW(s->doomed, s->doomed_cap, s->ndoomed + 1)) return strata_error_nomem(s->err, NULL);
  s->doomed[s->ndoomed++] = uid;
  return STRATA_OK;
}

static int cmp_uid(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int is_doomed(const spawn *s, uint64_t uid) {
  return uid && s->ndoomed && bsearch(&uid, s->doomed, s->ndoomed, sizeof uid, cmp_uid) != NULL;
}

/* The table of the rooms at no node (found in uid order); a second room on
** one spot is doomed. */
static strata_status index_orphans(spawn *s, const gslot *orphans, size_t n) {
  if (!n) return STRATA_OK;
  s->cap = 16;
  while (s->cap < n * 2) s->cap *= 2;
  if (!(s->slots = strata_calloc(s->cap, sizeof *s->slots))) return strata_error_nomem(s->err, NULL);
  for (size_t i = 0; i < n; i++) {
    const gslot *g = &orphans[i];
    size_t at = slot_of(s, g->zi, g->x, g->y);
    if (!s->slots[at].uid) s->slots[at] = *g;
    else if (selected_map(s, (size_t)g->zi) && selected_xy(s, g->x, g->y) && doom(s, g->uid)) return STRATA_ENOMEM;
  }
  return STRATA_OK;
}

/* Indexes the grid rooms of the maps; a second room on one spot is doomed. */
static strata_status index_rooms(spawn *s) {
  if (!(s->base = strata_malloc((s->n + 1) * sizeof *s->base))) return strata_error_nomem(s->err, NULL);
  size_t total = 0;
  for (size_t i = 0; i < s->n; i++) s->base[i] = total, total += strata_xymap_node_count(s->maps[i].map);
  s->base[s->n] = total;
  s->rooms = strata_calloc(total + 1, sizeof *s->rooms);
  s->fresh = strata_calloc(total + 1, 1);
  if (!s->rooms || !s->fresh) return strata_error_nomem(s->err, NULL);
  gslot *orphans = NULL;
  size_t norphans = 0, orphans_cap = 0;
  strata_status st = STRATA_OK;
  for (const strata_object *o = strata_world_next_object(s->w, 0); o && !st; o = strata_world_next_object(s->w, o->uid)) {
    int x, y;
    const char *z, *place;
    if (strcmp(o->kind, "room") || !(place = room_str(sys_of(s->w, o->uid), "place"))
        || !parse_place(place, &x, &y, NULL, NULL, &z))
      continue;
    int zi = map_of(s, z);
    if (zi < 0) continue;
    int64_t node = room_node(s, zi, x, y);
    uint64_t *at = node >= 0 ? &s->rooms[s->base[zi] + (size_t)node] : NULL;
    if (at && !*at) *at = o->uid;
    else if (at) st = selected_map(s, (size_t)zi) && selected_xy(s, x, y) ? doom(s, o->uid) : STRATA_OK;
    else if (STRATA_GROW(orphans, orphans_cap, norphans + 1)) orphans[norphans++] = (gslot){ o->uid, zi, x, y };
    else st = strata_error_nomem(s->err, NULL);
  }
  if (!st) st = index_orphans(s, orphans, norphans);
  strata_free(orphans);
  return st;
}

/* ---- deleting ---- */

/* Deletes the doomed rooms, every exit out of them and the grid exits into
** them; refused while anything stands in one of them. */
static strata_status delete_doomed(spawn *s) {
  if (!s->ndoomed) return STRATA_OK;
  qsort(s->doomed, s->ndoomed, sizeof *s->doomed, cmp_uid);
  strata_world *w = s->w;
  for (const strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid)) {
    uint64_t in = strata_room_of(w, o->uid);
    if (is_doomed(s, in))
      return strata_error_set(s->err, STRATA_ESTATE, "room#%llu cannot be deleted: %s#%llu stands in it",
                              (unsigned long long)in, o->kind, (unsigned long long)o->uid);
  }
  strata_status st;
  for (const strata_object *o = strata_world_next_object(w, 0); o;) {
    uint64_t uid = o->uid;
    o = strata_world_next_object(w, uid);
    if (!strata_is_exit(w, uid)) continue;
    int grid = strata_grid_pos(w, uid, NULL, NULL, NULL, NULL, NULL);
    if (is_doomed(s, strata_exit_from(w, uid)) || (grid && is_doomed(s, strata_exit_to(w, uid)))) {
      if ((st = strata_exit_delete(w, uid, s->err))) return st;
      s->c->deleted.exits++;
    }
  }
  for (size_t i = 0; i < s->ndoomed; i++) {
    if ((st = strata_world_delete(w, s->doomed[i], s->err))) return st;
    s->c->deleted.rooms++;
  }
  for (size_t i = 0; i < s->cap; i++)
    if (is_doomed(s, s->slots[i].uid)) s->slots[i] = (gslot){ 0, -1, 0, 0 };
  for (size_t i = 0; s->base && i < s->base[s->n]; i++)
    if (is_doomed(s, s->rooms[i])) s->rooms[i] = 0;
  s->ndoomed = 0;
  return STRATA_OK;
}

/* ---- prototypes and names ---- */

const strata_grid_proto *strata_grid_find_proto(const strata_grid_map *gm, int x, int y, int dir, char symbol) {
  const strata_grid_proto *best = NULL;
  int best_tier = INT_MAX, best_score = -1;
  for (size_t i = 0; i < gm->nprotos; i++) {
    const strata_grid_proto *p = &gm->protos[i];
    if ((dir == STRATA_GRID_ROOM) != (p->dir == STRATA_GRID_ROOM)) continue;
    if ((p->x != STRATA_GRID_ANY && p->x != x) || (p->y != STRATA_GRID_ANY && p->y != y)) continue;
    if (dir != STRATA_GRID_ROOM && p->dir != STRATA_GRID_ANY && p->dir != dir) continue;
    if (p->symbol && p->symbol != symbol) continue;
    int score = (p->x != STRATA_GRID_ANY) + (p->y != STRATA_GRID_ANY)
              + (dir != STRATA_GRID_ROOM && p->dir != STRATA_GRID_ANY);
    if (p->tier < best_tier || (p->tier == best_tier && score > best_score))
      best = p, best_tier = p->tier, best_score = score;
  }
  return best;
}

static const char *const DEFAULT_NAMES[STRATA_XY_DIRECTIONS][3] = {
  { "north", "n", NULL }, { "northeast", "ne", "north-east" }, { "east", "e", NULL },
  { "southeast", "se", "south-east" }, { "south", "s", NULL }, { "southwest", "sw", "south-west" },
  { "west", "w", NULL }, { "northwest", "nw", "north-west" } };
static const char *const UP[] = { "up", "u" }, *const DOWN[] = { "down", "d" };

/* An exit as the map wants it. */
typedef struct want_exit {
  int dir, interrupt;
  uint64_t to;
  const char *name, *desc;
  const strata_value *props; /* NULL: none */
  const char *names[9]; /* the aliases */
  size_t nnames;
  int std;                  /* the aliases are DEFAULT_ALIASES[std]; -1: others */
} want_exit;

static void exit_names(const strata_grid_map *gm, const strata_xy_exit *e, want_exit *out) {
  strata_xy_step first;
  strata_xymap_step(gm->map, e->first_step, &first);
  const char *const *names = NULL;
  size_t n = 0;
  for (size_t i = 0; i < gm->naliases; i++)
    if (gm->aliases[i].symbol == first.symbol && gm->aliases[i].dir == e->direction && gm->aliases[i].n > 0) {
      names = gm->aliases[i].names, n = gm->aliases[i].n;
      break;
    }
  if (!names && !strcmp(e->name, "u")) names = UP, n = 2;
  if (!names && !strcmp(e->name, "d")) names = DOWN, n = 2;
  if (!names) {
    names = DEFAULT_NAMES[e->direction];
    n = names[2] ? 3 : 2;
  }
  out->name = names[0];
  out->nnames = 0;
  out->std = names == UP ? STRATA_XY_DIRECTIONS : names == DOWN ? STRATA_XY_DIRECTIONS + 1
           : names == DEFAULT_NAMES[e->direction] ? e->direction : -1;
  int has_step = !strcmp(names[0], e->name);
  for (size_t i = 1; i < n && out->nnames < 8; i++) {
    out->names[out->nnames++] = names[i];
    if (!strcmp(names[i], e->name)) has_step = 1;
  }
  /* The step name that routes give (a legend alias) moves the walker too. */
  if (!has_step) out->names[out->nnames++] = e->name, out->std = -1;
}

/* ---- packed rooms and exits (world_internal.h) ----
** What a spawn makes of a new room and its exits, laid out in one block
** each: the tables strata_room_create and strata_exit_create make, with
** what the spawn adds (sys.place, the room's stamp), key for key in the same
** order (spec/c/test_grid_packed.c holds a hash of a spawned world's dump).
** Keys are these static arrays; the default aliases are shared tables. */
#define KEY(s) { STRATA_VSTRING, { .str = { (char *)(s), sizeof(s) - 1 } } }
#define IKEY(n) { STRATA_VINT, { .i = (n) } }
static const strata_value K_PROPS[] = { KEY("sys"), KEY("props") };
static const strata_value K_ROOM_SYS[] = { KEY("room"), KEY("place"), KEY("stamp") };
static const strata_value K_ROOM_SYS_PKEYS[] = { KEY("room"), KEY("place"), KEY("pkeys"), KEY("stamp") };
static const strata_value K_ROOM[] = { KEY("name"), KEY("desc"), KEY("exits") };
static const strata_value K_EXIT_SYS[] = { KEY("exit"), KEY("place"), KEY("pkeys") };
static const strata_value K_EXIT[] = { KEY("from"), KEY("to"), KEY("name"), KEY("desc"), KEY("aliases") };
static const strata_value K_EXIT_NO_TO[] = { KEY("from"), KEY("name"), KEY("desc"), KEY("aliases") };
static const strata_value K_LIST[] = { IKEY(1), IKEY(2), IKEY(3), IKEY(4), IKEY(5), IKEY(6), IKEY(7), IKEY(8), IKEY(9) };

/* DEFAULT_NAMES[d] (then UP, DOWN) past their first: the aliases of most exits. */
static const strata_value ALIAS_VALS[][2] = {
  { KEY("n") }, { KEY("ne"), KEY("north-east") }, { KEY("e") }, { KEY("se"), KEY("south-east") },
  { KEY("s") }, { KEY("sw"), KEY("south-west") }, { KEY("w") }, { KEY("nw"), KEY("north-west") },
  { KEY("u") }, { KEY("d") } };
#define ALIASES(i, n) { n, n, (strata_value *)K_LIST, (strata_value *)ALIAS_VALS[i], NULL, 0 }
static const strata_vtable DEFAULT_ALIASES[] = { ALIASES(0, 1), ALIASES(1, 2), ALIASES(2, 1), ALIASES(3, 2),
  ALIASES(4, 1), ALIASES(5, 2), ALIASES(6, 1), ALIASES(7, 2), ALIASES(8, 1), ALIASES(9, 1) };

static strata_value pack_str(value_pack *p, const char *s) { return value_pack_string(p, s, strlen(s)); }

static strata_value pack_aliases(value_pack *p, const want_exit *want) {
  if (want->std >= 0) {
    strata_value v = strata_value_nil();
    v.type = STRATA_VTABLE;
    v.u.t = (strata_vtable *)&DEFAULT_ALIASES[want->std]; /* read only, as a packed tree is */
    return v;
  }
  strata_value list = value_pack_table(p, K_LIST, want->nnames);
  strata_vtable *t = list.u.t;
  for (size_t i = 0; i < want->nnames; i++) t->vals[i] = pack_str(p, want->names[i]);
  return list;
}

/* The root: sys, and props.props when a prototype gives props; then sys.pkeys
** (apply_props: the prototype's keys, each true; the same array of keys). */
static strata_vtable *pack_root(value_pack *p, const strata_value *props, strata_value *out) {
  *out = value_pack_table(p, K_PROPS, props ? 2 : 1);
  return out->u.t;
}

static void pack_props(value_pack *p, const strata_value *props, strata_vtable *root, strata_vtable *sys, size_t at) {
  if (!props) return;
  size_t n = props->u.t->n;
  strata_value copy = value_pack_copy(p, props);
  strata_value pkeys = value_pack_table(p, copy.u.t->keys, n);
  for (size_t i = 0; i < n; i++) pkeys.u.t->vals[i] = strata_value_bool(1);
  root->vals[1] = copy;
  sys->vals[at] = pkeys;
}

/* Tables are made from the root down (the root at the block's start) and
** filled through their own pointers (while measuring, each is the scratch). */
typedef struct exit_pack {
  uint64_t from;
  const want_exit *want;
  const char *place;
} exit_pack;

static void pack_exit(const void *ctx, value_pack *p, strata_value *out) {
  const exit_pack *e = ctx;
  const want_exit *want = e->want;
  strata_vtable *pt = pack_root(p, want->props, out);
  strata_value sys = value_pack_table(p, K_EXIT_SYS, want->props ? 3 : 2);
  strata_vtable *st = sys.u.t;
  strata_value rec = value_pack_table(p, want->to ? K_EXIT : K_EXIT_NO_TO, want->to ? 5 : 4);
  strata_vtable *rt = rec.u.t;
  size_t i = 0;
  rt->vals[i++] = strata_value_ref(e->from);
  if (want->to) rt->vals[i++] = strata_value_ref(want->to);
  rt->vals[i++] = pack_str(p, want->name);
  rt->vals[i++] = pack_str(p, want->desc);
  rt->vals[i] = pack_aliases(p, want);
  st->vals[0] = rec;
  st->vals[1] = pack_str(p, e->place);
  pt->vals[0] = sys;
  pack_props(p, want->props, pt, st, 2);
}

/* A room without its exits (full 0), or with them and its stamp. */
typedef struct room_pack {
  const char *name, *desc, *place;
  const strata_value *props; /* the prototype's (value_packable), or NULL */
  const uint64_t *exits; /* NULL: zeros (measuring) */
  size_t n;
  int64_t stamp;
  int full;
} room_pack;

static void pack_room(const void *ctx, value_pack *p, strata_value *out) {
  const room_pack *r = ctx;
  strata_vtable *pt = pack_root(p, r->props, out);
  strata_value sys = value_pack_table(p, r->props ? K_ROOM_SYS_PKEYS : K_ROOM_SYS, 2 + !!r->props + !!r->full);
  strata_vtable *st = sys.u.t;
  strata_value rec = value_pack_table(p, K_ROOM, 3), list = value_pack_table(p, K_LIST, r->full ? r->n : 0);
  strata_vtable *rt = rec.u.t, *lt = list.u.t;
  for (size_t i = 0; r->full && i < r->n; i++) lt->vals[i] = strata_value_ref(r->exits ? r->exits[i] : 0);
  rt->vals[0] = pack_str(p, r->name);
  rt->vals[1] = pack_str(p, r->desc);
  rt->vals[2] = list;
  st->vals[0] = rec;
  st->vals[1] = pack_str(p, r->place);
  if (r->full) st->vals[2 + !!r->props] = strata_value_int(r->stamp);
  pt->vals[0] = sys;
  pack_props(p, r->props, pt, st, 2);
}

/* The name and description a room of the map gets. */
static const strata_grid_proto *room_want(const strata_grid_map *gm, const strata_xy_node_info *nd,
                                          const char **name, const char **desc) {
  const strata_grid_proto *p = strata_grid_find_proto(gm, nd->x, nd->y, STRATA_GRID_ROOM, nd->symbol);
  *name = p && p->name && *p->name ? p->name : DEFAULT_ROOM_NAME;
  *desc = p && p->desc ? p->desc : "";
  return p;
}

/* ---- writing only what differs ---- */

static int same_str(const char *a, const char *b) { return a && b && !strcmp(a, b); }

static strata_status set_grid(spawn *s, uint64_t uid, int x, int y, const char *z, const char *tag,
                              int interrupt) {
  char buf[256];
  char *place = format_place(buf, sizeof buf, x, y, interrupt, tag, z);
  if (!place) return strata_error_nomem(s->err, NULL);
  strata_value v;
  strata_status st = strata_value_string(&v, place, strlen(place), s->err);
  if (place != buf) strata_free(place);
  if (!st && (st = room_set(s->w, uid, "place", NULL, &v, s->err))) strata_value_clear(&v);
  return st;
}

/* 1: the stored place differs (or is missing), 0: the same, -1: ENOMEM. */
static int grid_differs(const strata_vtable *sys, int x, int y, const char *z, const char *tag, int interrupt) {
  const char *have = room_str(sys, "place");
  if (!have) return 1;
  char buf[256];
  char *place = format_place(buf, sizeof buf, x, y, interrupt, tag, z);
  if (!place) return -1;
  int differs = strcmp(have, place) != 0;
  if (place != buf) strata_free(place);
  return differs;
}

/* ---- props: what prototypes set under an object's "props" ----
** sys.pkeys holds the keys that came from prototypes (key -> true): a
** respawn removes such a key when the prototype no longer gives it, and
** never touches a key the game set itself unless the prototype gives it.
** One entry of sys, so it saves and reopens with the object. */

static const strata_vtable *props_table(const strata_world *w, uint64_t uid) {
  strata_value path[1] = { room_key("props") };
  const strata_value *v = strata_object_get(w, uid, path, 1);
  return v && v->type == STRATA_VTABLE ? v->u.t : NULL;
}

/* A prototype's props when it gives any (an empty table gives none). */
static const strata_value *proto_props(const strata_grid_proto *p) {
  return p && p->props && p->props->type == STRATA_VTABLE && p->props->u.t->n ? p->props : NULL;
}

/* 1 when the object's props or its sys.pkeys are not as want (a table or
** NULL) makes them. No props and no pkeys: one lookup in sys. */
static int props_differ(const strata_world *w, uint64_t uid, const strata_vtable *sys, const strata_value *want) {
  const strata_vtable *pk = sub_table(sys, "pkeys");
  size_t n = want ? want->u.t->n : 0;
  if (!pk && !n) return 0;
  if (!pk || pk->n != n) return 1;
  const strata_vtable *have = props_table(w, uid);
  for (size_t i = 0; i < n; i++) {
    const strata_value *k = &want->u.t->keys[i], *v = have ? strata_vtable_get(have, k) : NULL;
    if (!strata_vtable_get(pk, k) || !v || !strata_value_equal(v, &want->u.t->vals[i])) return 1;
  }
  return 0;
}

/* Sets props[k] (v copied; NULL removes it), making the props table when missing. */
static strata_status set_prop(spawn *s, uint64_t uid, const strata_value *k, const strata_value *v) {
  strata_value val = strata_value_nil(), path[2] = { room_key("props"), *k };
  strata_status st;
  if (!props_table(s->w, uid)) {
    if (!v) return STRATA_OK;
    strata_value t;
    if ((st = strata_value_table(&t, s->err))) return st;
    if ((st = strata_object_set(s->w, uid, path, 1, &t, s->err))) {
      strata_value_clear(&t);
      return st;
    }
  }
  if (v && (st = strata_value_copy(&val, v, s->err))) return st;
  if ((st = strata_object_set(s->w, uid, path, 2, &val, s->err))) strata_value_clear(&val);
  return st;
}

/* Brings the object's props and sys.pkeys to what want gives. */
static strata_status apply_props(spawn *s, uint64_t uid, const strata_value *want) {
  const strata_vtable *want_t = want ? want->u.t : NULL;
  size_t n = want_t ? want_t->n : 0;
  strata_value old = strata_value_nil(), keys = strata_value_nil();
  strata_status st = STRATA_OK;
  /* A copy of the old key list: the writes below may move what sys holds. */
  const strata_vtable *pk = sub_table(sys_of(s->w, uid), "pkeys");
  if (pk) {
    strata_value pv = { .type = STRATA_VTABLE, .u.t = (strata_vtable *)pk };
    if ((st = strata_value_copy(&old, &pv, s->err))) return st;
  }
  for (size_t i = 0; old.type == STRATA_VTABLE && i < old.u.t->n; i++) {
    const strata_value *k = &old.u.t->keys[i];
    if ((!want_t || !strata_vtable_get(want_t, k)) && (st = set_prop(s, uid, k, NULL))) goto done;
  }
  for (size_t i = 0; i < n; i++) {
    const strata_vtable *have = props_table(s->w, uid);
    const strata_value *v = have ? strata_vtable_get(have, &want_t->keys[i]) : NULL;
    if (!(v && strata_value_equal(v, &want_t->vals[i])) && (st = set_prop(s, uid, &want_t->keys[i], &want_t->vals[i])))
      goto done;
  }
  if (n) {
    if ((st = strata_value_table(&keys, s->err))) goto done;
    for (size_t i = 0; i < n; i++) {
      strata_value yes = strata_value_bool(1);
      if ((st = strata_vtable_set(keys.u.t, &want_t->keys[i], &yes, s->err))) goto done;
    }
  }
  /* nil removes sys.pkeys: an object without prototype props carries nothing. */
  if (n || pk) st = room_set(s->w, uid, "pkeys", NULL, &keys, s->err);
done:
  strata_value_clear(&keys);
  strata_value_clear(&old);
  return st;
}

/* ---- rooms ---- */

static strata_status new_room(spawn *s, const strata_xy_node_info *nd, const char *z, const char *name,
                              const char *desc, const strata_value *props, uint64_t *uid) {
  char symbol[2] = { nd->symbol, 0 };
  strata_status st;
  if ((st = strata_room_create(s->w, name, desc, uid, s->err))
      || (st = set_grid(s, *uid, nd->x, nd->y, z, symbol, nd->interrupt)))
    return st;
  return props ? apply_props(s, *uid, props) : STRATA_OK;
}

/* A room packed without its exits, with room after its record for them
** (spawn_exits packs it again there, once they exist). */
static strata_status new_packed_room(spawn *s, const strata_grid_map *gm, size_t node, const strata_xy_node_info *nd,
                                     const char *z, const char *name, const char *desc, const strata_value *props,
                                     uint64_t *uid) {
  char buf[256], symbol[2] = { nd->symbol, 0 };
  char *place = format_place(buf, sizeof buf, nd->x, nd->y, nd->interrupt, symbol, z);
  if (!place) return strata_error_nomem(s->err, NULL);
  room_pack rp = { name, desc, place, props, NULL, strata_xymap_exit_count(gm->map, node), 0, 1 };
  size_t full = rp.n <= STRATA_XY_DIRECTIONS ? world_pack_size(pack_room, &rp) : 0;
  rp.full = 0;
  strata_status st = world_create_packed(s->w, "room", pack_room, &rp, full, uid, s->err);
  if (place != buf) strata_free(place);
  return st;
}

static strata_status spawn_rooms(spawn *s, size_t zi) {
  const strata_grid_map *gm = &s->maps[zi];
  const char *z = strata_xymap_z(gm->map);
  size_t nn = strata_xymap_node_count(gm->map);
  strata_status st;
  for (size_t i = 0; i < nn; i++) {
    strata_xy_node_info nd;
    strata_xymap_node(gm->map, i, &nd);
    if (nd.kind == STRATA_XY_TRANSITION || !selected_xy(s, nd.x, nd.y)) continue;
    const char *name, *desc;
    const strata_value *props = proto_props(room_want(gm, &nd, &name, &desc));
    char symbol[2] = { nd.symbol, 0 };
    uint64_t uid = s->rooms[s->base[zi] + i];
    if (!uid) {
      int packed = !props || value_packable(props);
      if ((st = packed ? new_packed_room(s, gm, i, &nd, z, name, desc, props, &uid)
                       : new_room(s, &nd, z, name, desc, props, &uid)))
        return st;
      s->rooms[s->base[zi] + i] = uid;
      s->fresh[s->base[zi] + i] = (unsigned char)packed;
      s->c->created.rooms++;
      continue;
    }
    /* Read once: the comparisons cost lookups, the writes (rare) do not matter. */
    const strata_vtable *sys = sys_of(s->w, uid), *rec = sub_table(sys, "room");
    int name_differs = !same_str(room_str(rec, "name"), name), desc_differs = !same_str(room_str(rec, "desc"), desc);
    int grid_changed = grid_differs(sys, nd.x, nd.y, z, symbol, nd.interrupt);
    if (grid_changed < 0) return strata_error_nomem(s->err, NULL);
    int props_changed = props_differ(s->w, uid, sys, props);
    int changed = 0;
    if (name_differs) {
      if ((st = strata_room_set_name(s->w, uid, name, s->err))) return st;
      changed = 1;
    }
    if (desc_differs) {
      if ((st = strata_room_set_desc(s->w, uid, desc, s->err))) return st;
      changed = 1;
    }
    if (grid_changed) {
      if ((st = set_grid(s, uid, nd.x, nd.y, z, symbol, nd.interrupt))) return st;
      changed = 1;
    }
    if (props_changed) {
      if ((st = apply_props(s, uid, props))) return st;
      changed = 1;
    }
    s->c->updated.rooms += (size_t)changed;
  }
  return STRATA_OK;
}

/* ---- exits ---- */

/* The room an exit along e arrives in: a transition's target on its map. */
static uint64_t exit_target(const spawn *s, const strata_grid_map *gm, size_t zi, const strata_xy_exit *e) {
  strata_xy_node_info to;
  strata_xymap_node(gm->map, e->target, &to);
  if (to.kind != STRATA_XY_TRANSITION) return s->rooms[s->base[zi] + e->target];
  const strata_xy_legend *lg = to.legend;
  if (!lg || !lg->has_target) return 0;
  double tx = lg->target_x, ty = lg->target_y;
  if (tx != (int)tx || ty != (int)ty) return 0;
  return lookup(s, map_of(s, lg->target_z[0] ? lg->target_z : strata_xymap_z(gm->map)), (int)tx, (int)ty);
}

static int aliases_differ(const strata_vtable *aliases, const want_exit *want) {
  if (!aliases || aliases->n != want->nnames) return 1;
  for (size_t i = 0; i < want->nnames; i++)
    if (aliases->vals[i].type != STRATA_VSTRING || strcmp(aliases->vals[i].u.str.s, want->names[i])) return 1;
  return 0;
}


/* An exit record's fields, read in one pass over its keys. */
typedef struct exit_view {
  uint64_t to;
  const char *name, *desc;
  const strata_vtable *aliases;
} exit_view;

static void read_exit(const strata_vtable *rec, exit_view *v) {
  memset(v, 0, sizeof *v);
  /* Keys told apart by length and value type first: each key's bytes are
  ** one more cache miss, and a respawn reads every exit of the map. */
  for (size_t i = 0; rec && i < rec->n; i++) {
    const strata_value *k = &rec->keys[i], *x = &rec->vals[i];
    if (k->type != STRATA_VSTRING) continue;
    size_t len = k->u.str.len;
    if (len == 2 && x->type == STRATA_VREF && !memcmp(k->u.str.s, "to", 2)) v->to = x->u.ref;
    else if (len == 7 && x->type == STRATA_VTABLE && !memcmp(k->u.str.s, "aliases", 7)) v->aliases = x->u.t;
    else if (len == 4 && x->type == STRATA_VSTRING) {
      if (!memcmp(k->u.str.s, "name", 4)) v->name = x->u.str.s;
      else if (!memcmp(k->u.str.s, "desc", 4)) v->desc = x->u.str.s;
    }
  }
}

/* sys: the exit's sys table as read before (NULL for a new exit). */
static strata_status sync_exit(spawn *s, uint64_t room, uint64_t exit, const strata_vtable *sys, int x, int y,
                               const char *z, const want_exit *want) {
  strata_world *w = s->w;
  strata_status st;
  const char *dir = strata_xy_direction_name(want->dir);
  if (!exit) {
    if ((st = strata_exit_create(w, room, want->to, want->name, want->desc, &exit, s->err))
        || (st = strata_exit_set_aliases(w, exit, want->names, want->nnames, s->err))
        || (st = set_grid(s, exit, x, y, z, dir, want->interrupt))
        || (want->props && (st = apply_props(s, exit, want->props))))
      return st;
    s->c->created.exits++;
    return STRATA_OK;
  }
  /* Everything compared on the record as it is, before any write, reading
  ** it in one pass: a respawn does this for every exit of the map. want->to
  ** is 0 or a room of the index (alive), so equal refs need no more check. */
  exit_view v;
  read_exit(sub_table(sys, "exit"), &v);
  int to_differs = v.to != want->to;
  int name_differs = !same_str(v.name, want->name);
  int desc_differs = !same_str(v.desc, want->desc);
  int aliases_changed = aliases_differ(v.aliases, want);
  int grid_changed = grid_differs(sys, x, y, z, dir, want->interrupt);
  if (grid_changed < 0) return strata_error_nomem(s->err, NULL);
  int props_changed = props_differ(w, exit, sys, want->props);
  int changed = 0;
  if (to_differs) {
    if ((st = strata_exit_set_to(w, exit, want->to, s->err))) return st;
    changed = 1;
  }
  if (name_differs) {
    if ((st = strata_exit_set_name(w, exit, want->name, s->err))) return st;
    changed = 1;
  }
  if (desc_differs) {
    if ((st = strata_exit_set_desc(w, exit, want->desc, s->err))) return st;
    changed = 1;
  }
  if (aliases_changed) {
    if ((st = strata_exit_set_aliases(w, exit, want->names, want->nnames, s->err))) return st;
    changed = 1;
  }
  if (grid_changed) {
    if ((st = set_grid(s, exit, x, y, z, dir, want->interrupt))) return st;
    changed = 1;
  }
  if (props_changed) {
    if ((st = apply_props(s, exit, want->props))) return st;
    changed = 1;
  }
  s->c->updated.exits += (size_t)changed;
  return STRATA_OK;
}

/* ---- a room's stamp: a fingerprint of its exits as the last spawn left them ----
** FNV-1a over what the map wants of each exit and the length of the room's
** exit list. exit.c drops the stamp of a room whenever one of its exits is
** made, changed or deleted (room.h), so a stamp that matches says the exits
** are as this spawn would make them: a respawn then reads the room alone,
** not each of its exits. */

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

static uint64_t fnv_str(uint64_t h, const char *s) { return fnv(h, s, strlen(s) + 1); }

static uint64_t want_hash(uint64_t h, const want_exit *want) {
  int64_t f[3] = { want->dir, want->interrupt, (int64_t)want->to };
  h = fnv(h, f, sizeof f);
  h = fnv_str(fnv_str(h, want->name), want->desc);
  for (size_t i = 0; i < want->nnames; i++) h = fnv_str(h, want->names[i]);
  /* Only whether there are props: exits with props are compared each time
  ** (a game may change one of their keys without touching the exit record). */
  if (want->props) h = fnv(h, "p", 1);
  return h;
}

static int64_t stamp_of(const strata_vtable *sys) {
  const strata_value *v = sys ? strata_vtable_get_str(sys, "stamp") : NULL;
  return v && v->type == STRATA_VINT ? v->u.i : 0;
}

/* The stamp for a room whose exit list has n entries; never 0 (no stamp). */
static int64_t final_stamp(uint64_t h, size_t n) {
  uint64_t len = n;
  h = fnv(h, &len, sizeof len);
  return (int64_t)(h ? h : 1);
}

/* The exits of the node as the map wants them. */
static size_t wanted_exits(const spawn *s, size_t zi, size_t node, const strata_xy_node_info *nd, want_exit *out) {
  const strata_grid_map *gm = &s->maps[zi];
  size_t nx = strata_xymap_exit_count(gm->map, node);
  for (size_t k = 0; k < nx; k++) {
    strata_xy_exit e;
    strata_xymap_exit(gm->map, node, k, &e);
    want_exit *want = &out[k];
    *want = (want_exit){ .dir = e.direction, .to = exit_target(s, gm, zi, &e) };
    exit_names(gm, &e, want);
    for (size_t j = 0; j < e.step_count && !want->interrupt; j++) {
      strata_xy_step step;
      strata_xymap_step(gm->map, e.first_step + j, &step);
      want->interrupt = !step.is_node && step.interrupt;
    }
    strata_xy_step first;
    strata_xymap_step(gm->map, e.first_step, &first);
    const strata_grid_proto *p = strata_grid_find_proto(gm, nd->x, nd->y, e.direction, first.symbol);
    if (p && p->name && *p->name) want->name = p->name;
    want->desc = p && p->desc ? p->desc : "";
    want->props = proto_props(p);
  }
  return nx;
}

/* A matching stamp, and every listed exit still an object. */
static int stamp_holds(const spawn *s, const strata_vtable *sys, uint64_t h) {
  const strata_vtable *list = sub_table(sub_table(sys, "room"), "exits");
  size_t n = list ? list->n : 0;
  if (stamp_of(sys) != final_stamp(h, n)) return 0;
  for (size_t k = 0; k < n; k++)
    if (list->vals[k].type != STRATA_VREF || !world_rec(s->w, list->vals[k].u.ref)) return 0; /* (its slot: the record unread) */
  return 1;
}

/* The exits of a room this spawn made, each packed, then the room packed
** with them and its stamp: what sync_exit and the stamp would write. */
static strata_status pack_exits(spawn *s, size_t zi, const strata_xy_node_info *nd, uint64_t room,
                                const want_exit *wants, size_t nx, uint64_t h) {
  const char *z = strata_xymap_z(s->maps[zi].map);
  uint64_t uids[STRATA_XY_DIRECTIONS];
  char buf[256];
  strata_status st = STRATA_OK;
  for (size_t k = 0; k < nx && !st; k++) {
    char *place = format_place(buf, sizeof buf, nd->x, nd->y, wants[k].interrupt,
                               strata_xy_direction_name(wants[k].dir), z);
    if (!place) return strata_error_nomem(s->err, NULL);
    exit_pack e = { room, &wants[k], place };
    st = world_create_packed(s->w, "exit", pack_exit, &e, 0, &uids[k], s->err);
    if (place != buf) strata_free(place);
    s->c->created.exits += !st;
  }
  const char *name, *desc;
  char symbol[2] = { nd->symbol, 0 };
  const strata_value *props = proto_props(room_want(&s->maps[zi], nd, &name, &desc));
  char *place = st ? NULL : format_place(buf, sizeof buf, nd->x, nd->y, nd->interrupt, symbol, z);
  if (!st && !place) st = strata_error_nomem(s->err, NULL);
  if (st) return st;
  room_pack rp = { name, desc, place, props, uids, nx, final_stamp(h, nx), 1 };
  st = world_repack(s->w, room, pack_room, &rp, s->err);
  if (place != buf) strata_free(place);
  return st;
}

static strata_status spawn_exits(spawn *s, size_t zi) {
  const strata_grid_map *gm = &s->maps[zi];
  const char *z = strata_xymap_z(gm->map);
  size_t nn = strata_xymap_node_count(gm->map);
  strata_status st;
  for (size_t i = 0; i < nn; i++) {
    strata_xy_node_info nd;
    strata_xymap_node(gm->map, i, &nd);
    if (nd.kind == STRATA_XY_TRANSITION || !selected_xy(s, nd.x, nd.y)) continue;
    uint64_t room = s->rooms[s->base[zi] + i];
    want_exit wants[STRATA_XY_DIRECTIONS];
    size_t nx = wanted_exits(s, zi, i, &nd, wants);
    uint64_t h = 0xcbf29ce484222325ull;
    int props = 0, packable = 1;
    for (size_t k = 0; k < nx; k++) {
      h = want_hash(h, &wants[k]);
      props |= wants[k].props != NULL;
      packable &= !wants[k].props || value_packable(wants[k].props);
    }
    if (packable && s->fresh[s->base[zi] + i]) {
      if ((st = pack_exits(s, zi, &nd, room, wants, nx, h))) return st;
      continue;
    }
    if (!props && stamp_holds(s, sys_of(s->w, room), h)) continue;
    /* The grid exits the room has, by map direction (a second one is doomed). */
    uint64_t have[STRATA_XY_DIRECTIONS] = { 0 }, extra[64];
    const strata_vtable *have_sys[STRATA_XY_DIRECTIONS] = { NULL };
    size_t nextra = 0;
    const strata_vtable *list = sub_table(sub_table(sys_of(s->w, room), "room"), "exits");
    for (size_t k = 0; list && k < list->n; k++) {
      uint64_t e = list->vals[k].type == STRATA_VREF ? list->vals[k].u.ref : 0;
      const strata_vtable *esys = sys_of(s->w, e);
      const char *place = room_str(esys, "place");
      char dir[4];
      if (!place || !parse_place(place, NULL, NULL, NULL, dir, NULL)) continue;
      int d = strata_xy_direction(dir);
      if (d >= 0 && !have[d]) have[d] = e, have_sys[d] = esys;
      else if (nextra < 64) extra[nextra++] = e;
    }
    uint64_t used[STRATA_XY_DIRECTIONS] = { 0 };
    for (size_t k = 0; k < nx; k++) {
      int d = wants[k].dir;
      if ((st = sync_exit(s, room, have[d], have_sys[d], nd.x, nd.y, z, &wants[k]))) return st;
      used[d] = 1;
    }
    for (int d = 0; d < STRATA_XY_DIRECTIONS; d++)
      if (have[d] && !used[d] && nextra < 64) extra[nextra++] = have[d];
    for (size_t k = 0; k < nextra; k++) {
      if ((st = strata_exit_delete(s->w, extra[k], s->err))) return st;
      s->c->deleted.exits++;
    }
    /* Written only when it differs: exits with props come here on every respawn. */
    int64_t stamp = final_stamp(h, strata_room_exit_count(s->w, room));
    strata_value v = strata_value_int(stamp);
    if (stamp_of(sys_of(s->w, room)) != stamp && (st = room_set(s->w, room, "stamp", NULL, &v, s->err))) return st;
  }
  return STRATA_OK;
}

/* ---- the whole spawn ---- */

static strata_status run_spawn(spawn *s) {
  strata_status st;
  for (size_t i = 0; i < s->n; i++)
    for (size_t j = 0; j < i; j++)
      if (!strcmp(strata_xymap_z(s->maps[i].map), strata_xymap_z(s->maps[j].map)))
        return strata_error_set(s->err, STRATA_EARG, "two grid maps have the Z '%s'", strata_xymap_z(s->maps[i].map));
  for (size_t i = 0; i < s->n; i++)
    for (size_t j = 0; j < s->maps[i].nprotos; j++) {
      const strata_value *v = s->maps[i].protos[j].props;
      if (v && v->type != STRATA_VTABLE)
        return strata_error_set(s->err, STRATA_EARG, "grid map '%s' prototype %zu: props must be a table",
                                strata_xymap_z(s->maps[i].map), j + 1);
    }
  if ((st = index_rooms(s))) return st;
  /* Rooms whose node is gone (or is a transition now). */
  for (size_t i = 0; i < s->cap; i++) {
    const gslot *g = &s->slots[i];
    if (g->uid && selected_map(s, (size_t)g->zi) && selected_xy(s, g->x, g->y) && (st = doom(s, g->uid))) return st;
  }
  if ((st = delete_doomed(s))) return st;
  for (size_t i = 0; i < s->n; i++)
    if (selected_map(s, i) && (st = spawn_rooms(s, i))) return st;
  for (size_t i = 0; i < s->n; i++)
    if (selected_map(s, i) && (st = spawn_exits(s, i))) return st;
  return STRATA_OK;
}

static strata_status in_savepoint(spawn *s) {
  strata_status st = strata_world_begin(s->w, s->err);
  if (st) return st;
  st = run_spawn(s);
  if (st) strata_world_rollback(s->w);
  else strata_world_commit(s->w);
  strata_free(s->base);
  strata_free(s->rooms);
  strata_free(s->fresh);
  strata_free(s->slots);
  strata_free(s->doomed);
  return st;
}

strata_status strata_grid_spawn(strata_world *w, const strata_grid_map *maps, size_t n,
                                const strata_grid_filter *filter, strata_grid_counts *counts,
                                strata_error *err) {
  strata_grid_counts c = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
  spawn s = { .w = w, .maps = maps, .n = n, .f = filter, .c = &c, .err = err };
  strata_status st = in_savepoint(&s);
  if (counts) *counts = st ? (strata_grid_counts){ { 0, 0 }, { 0, 0 }, { 0, 0 } } : c;
  return st;
}

/* Deleting a map: its rooms are doomed without any map to spawn. */
static strata_status run_delete(spawn *s, const char *z) {
  for (const strata_object *o = strata_world_next_object(s->w, 0); o; o = strata_world_next_object(s->w, o->uid)) {
    const char *gz;
    strata_status st;
    if (!strcmp(o->kind, "room") && strata_grid_pos(s->w, o->uid, NULL, NULL, &gz, NULL, NULL) && !strcmp(gz, z)
        && (st = doom(s, o->uid)))
      return st;
  }
  /* What stands there goes home first (delete_doomed refuses what is left). */
  uint64_t home = strata_grid_home(s->w);
  qsort(s->doomed, s->ndoomed, sizeof *s->doomed, cmp_uid);
  if (home && is_doomed(s, home))
    return strata_error_set(s->err, STRATA_ESTATE, "the grid's home room#%llu is on map '%s' itself",
                            (unsigned long long)home, z);
  for (const strata_object *o = strata_world_next_object(s->w, 0); home && o; o = strata_world_next_object(s->w, o->uid)) {
    strata_status st;
    if (is_doomed(s, strata_room_of(s->w, o->uid)) && (st = strata_room_put(s->w, o->uid, home, s->err))) return st;
  }
  return delete_doomed(s);
}

strata_status strata_grid_delete(strata_world *w, const char *z, strata_grid_counts *counts, strata_error *err) {
  strata_grid_counts c = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
  spawn s = { .w = w, .c = &c, .err = err };
  if (!z) return strata_error_set(err, STRATA_EARG, "a map's Z is needed");
  strata_status st = strata_world_begin(w, err);
  if (st) return st;
  st = run_delete(&s, z);
  if (st) strata_world_rollback(w);
  else strata_world_commit(w);
  strata_free(s.doomed);
  if (counts) *counts = st ? (strata_grid_counts){ { 0, 0 }, { 0, 0 }, { 0, 0 } } : c;
  return st;
}
