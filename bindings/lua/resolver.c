/*
** resolver.c - the resolver of a Lua world's runtime: finds logic and
** definitions by ID in the world's data registry, through a Lua function
** (the dispatcher, lua/strata/runtime.lua), and runs mod code in the
** sandbox.
**
** The core asks; the dispatcher answers. Every question runs on a thread of
** the runtime's own, under lua_pcall: a Lua error never unwinds through the
** core (which would leave its savepoints open), it becomes a strata_error.
** That thread carries no budget hook, so host bookkeeping (savepoints) still
** runs after a mod spent its budget; mod code itself always runs under
** mods.call. Definitions are converted to the core's structs once per ID and
** kept until lstrata_runtime_drop_cache (a mod reload); so are callables,
** per (kind, ID).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lrng.h"
#include "lruntime.h"
#include "lworld.h"

const char lstrata_runtimes = 'r';

void lstrata_runtime_table(lua_State *L, const lruntime *lr) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lstrata_runtimes);
  lua_rawgetp(L, -1, lr);
  lua_remove(L, -2);
}

/* Pushes field i of the runtime's table on T. */
#define PUSH_FIELD(lr, i) (lstrata_runtime_table((lr)->T, (lr)), lua_rawgeti((lr)->T, -1, (i)), lua_remove((lr)->T, -2))

struct callable_entry {
  callable_entry *next;
  int kind;                       /* strata_logic, or -1: an archetype event */
  char *id;                       /* resolve: the ID; events: kind \n archetype \n event \n i */
  char *mod;
  char *name;                     /* archetype events */
  int64_t priority;
  int slot;                       /* the function at [T_SLOTS][slot]; 0: none */
};

struct map_def {
  map_def *next;
  strata_map_archetype d;
  strata_value properties;
  char **keep_tags;
};

struct area_def {
  area_def *next;
  strata_area_archetype d;
  char **types;
  strata_floor_archetype *floors;
  strata_value params, meta;
};

struct unique_entry {
  unique_entry *next;
  strata_unique_def d;
};

struct branch_def {
  branch_def *next;
  strata_branch_def d;
  char **dirs;
};

/* ---- the cache ---- */

static void free_map_def(map_def *m) {
  strata_free((char *)m->d.id);
  strata_free((char *)m->d.mod);
  strata_value_clear(&m->properties);
  for (size_t i = 0; i < m->d.nkeep_tags; i++) strata_free(m->keep_tags[i]);
  strata_free(m->keep_tags);
  strata_free(m);
}

static void free_area_def(area_def *a) {
  for (size_t i = 0; i < a->d.ntypes; i++) strata_free(a->types[i]);
  strata_free(a->types);
  for (size_t i = 0; i < a->d.nfloors; i++) strata_free((char *)a->floors[i].map_archetype);
  strata_free(a->floors);
  strata_free((char *)a->d.id);
  strata_free((char *)a->d.mod);
  strata_free((char *)a->d.generator);
  strata_free((char *)a->d.image);
  strata_value_clear(&a->params);
  strata_value_clear(&a->meta);
  strata_free(a);
}

static void free_unique(unique_entry *u) {
  strata_free((char *)u->d.id);
  strata_free((char *)u->d.area);
  strata_free((char *)u->d.parent);
  strata_free(u);
}

static void free_branch_def(branch_def *b) {
  for (size_t i = 0; i < b->d.ndirs; i++) strata_free(b->dirs[i]);
  strata_free(b->dirs);
  strata_free((char *)b->d.id);
  strata_free((char *)b->d.mod);
  strata_free((char *)b->d.room_generator);
  strata_free(b);
}

void lstrata_runtime_drop_cache(lruntime *lr) {
  for (callable_entry *c = lr->callables, *n; c; c = n) {
    n = c->next;
    strata_free(c->id);
    strata_free(c->mod);
    strata_free(c->name);
    strata_free(c);
  }
  lr->callables = NULL;
  for (map_def *m = lr->maps, *n; m; m = n) { n = m->next; free_map_def(m); }
  lr->maps = NULL;
  for (area_def *a = lr->areas, *n; a; a = n) { n = a->next; free_area_def(a); }
  lr->areas = NULL;
  for (unique_entry *u = lr->uniques, *n; u; u = n) { n = u->next; free_unique(u); }
  lr->uniques = NULL;
  for (branch_def *b = lr->branches, *n; b; b = n) { n = b->next; free_branch_def(b); }
  lr->branches = NULL;
  strata_free(lr->order);
  lr->order = NULL;
  lr->norder = 0;
  lr->order_known = 0;
  if (lr->T) {
    lstrata_runtime_table(lr->T, lr);
    if (lua_istable(lr->T, -1)) {
      lua_newtable(lr->T);
      lua_rawseti(lr->T, -2, T_SLOTS);
    }
    lua_pop(lr->T, 1);
  }
  lr->nslots = 0;
}

/* ---- asking the dispatcher ---- */

/* Pushes the dispatcher and op on T: the caller pushes the arguments. T may
** be busy in a call below, with only its own frame's room: every entry from
** the core makes room first (ROOM). */
#define ROOM(lr) lua_checkstack((lr)->T, 40)
static void ask(lruntime *lr, const char *op) {
  PUSH_FIELD(lr, T_DISPATCH);
  lua_pushstring(lr->T, op);
}

/* Runs the question with nargs arguments (after op) for nres results. A Lua
** error becomes ESTATE (ENOMEM for Lua's memory error) with its message. */
static strata_status answer(lruntime *lr, int nargs, int nres, strata_error *err) {
  lua_State *T = lr->T;
  if (lua_pcall(T, nargs + 1, nres, 0) != LUA_OK) {
    const char *msg = lua_tostring(T, -1);
    strata_status st = lua_type(T, -1) == LUA_TSTRING && strcmp(msg, "not enough memory") == 0
                         ? STRATA_ENOMEM : STRATA_ESTATE;
    strata_error_set(err, st, "%s", msg ? msg : "error in the Lua host");
    lua_pop(T, 1);
    return st;
  }
  return STRATA_OK;
}

/* The answer `nil, message` at the top (2 values): ENOTFOUND with the message. */
static strata_status not_found(lua_State *T, strata_error *err) {
  const char *msg = lua_tostring(T, -1);
  strata_error_set(err, STRATA_ENOTFOUND, "%s", msg ? msg : "unknown ID");
  lua_pop(T, 2);
  return STRATA_ENOTFOUND;
}

/* ---- conversions in protected mode ---- */

typedef struct conv_job {
  strata_world *w;
  const char *label;
  strata_value *out;
} conv_job;

/* (job, value) */
static int conv_protected(lua_State *L) {
  conv_job *j = lua_touserdata(L, 1);
  lstrata_check_value(L, j->w, 2, j->label, j->out);
  return 0;
}

/* Converts the value at idx of T (absolute) into *out; a value that cannot
** be stored fails with the conversion's message. */
static strata_status to_value(lruntime *lr, int idx, const char *label, strata_value *out,
                              strata_error *err) {
  lua_State *T = lr->T;
  conv_job j = { lr->w, label, out };
  *out = strata_value_nil();
  idx = lua_absindex(T, idx);
  lua_pushcfunction(T, conv_protected);
  lua_pushlightuserdata(T, &j);
  lua_pushvalue(T, idx);
  if (lua_pcall(T, 2, 0, 0) != LUA_OK) {
    strata_value_clear(out);
    strata_error_set(err, STRATA_EARG, "%s", lua_tostring(T, -1) ? lua_tostring(T, -1) : label);
    lua_pop(T, 1);
    return STRATA_EARG;
  }
  return STRATA_OK;
}

static int field_int(lua_State *T, int t, const char *k, int64_t *out) {
  int isint = 0;
  lua_getfield(T, t, k);
  lua_Integer v = lua_tointegerx(T, -1, &isint);
  lua_pop(T, 1);
  if (isint) *out = v;
  return isint;
}

static int field_bool(lua_State *T, int t, const char *k) {
  lua_getfield(T, t, k);
  int v = lua_toboolean(T, -1);
  lua_pop(T, 1);
  return v;
}

static double field_num(lua_State *T, int t, const char *k) {
  lua_getfield(T, t, k);
  double v = lua_type(T, -1) == LUA_TNUMBER ? lua_tonumber(T, -1) : 0;
  lua_pop(T, 1);
  return v;
}

/* Copies of the strings of the list field k into *out (strata_calloc'd),
** *n of them; what is not a string is skipped. */
static strata_status field_strs(lua_State *T, int t, const char *k, char ***out, size_t *n,
                                strata_error *err) {
  strata_status st = STRATA_OK;
  lua_getfield(T, t, k);
  size_t len = lua_istable(T, -1) ? lua_rawlen(T, -1) : 0;
  if (len && !(*out = strata_calloc(len, sizeof **out))) st = strata_error_nomem(err, NULL);
  for (size_t i = 0; !st && i < len; i++) {
    lua_rawgeti(T, -1, (lua_Integer)i + 1);
    if (lua_type(T, -1) == LUA_TSTRING) {
      if (!((*out)[*n] = strata_strdup(lua_tostring(T, -1)))) st = strata_error_nomem(err, NULL);
      else (*n)++;
    }
    lua_pop(T, 1);
  }
  lua_pop(T, 1);
  return st;
}

/* A copy of the string field k (NULL when absent); *fail set when out of memory. */
static char *field_str(lua_State *T, int t, const char *k, int *fail) {
  lua_getfield(T, t, k);
  char *s = lua_type(T, -1) == LUA_TSTRING ? strata_strdup(lua_tostring(T, -1)) : NULL;
  if (lua_type(T, -1) == LUA_TSTRING && !s) *fail = 1;
  lua_pop(T, 1);
  return s;
}

/* The table field k converted (nil when absent). */
static strata_status field_value(lruntime *lr, int t, const char *k, const char *label,
                                 strata_value *out, const strata_value **ptr, strata_error *err) {
  lua_State *T = lr->T;
  *out = strata_value_nil();
  lua_getfield(T, t, k);
  strata_status st = STRATA_OK;
  if (!lua_isnil(T, -1)) st = to_value(lr, lua_gettop(T), label, out, err);
  lua_pop(T, 1);
  if (!st && out->type != STRATA_VNIL) *ptr = out;
  return st;
}

/* ---- the resolver ---- */

static strata_status call_fn(strata_call *call, void *data, strata_error *err);

static callable_entry *find_callable(lruntime *lr, int kind, const char *id) {
  for (callable_entry *c = lr->callables; c; c = c->next)
    if (c->kind == kind && strcmp(c->id, id) == 0) return c;
  return NULL;
}

/* Keeps the function at the top of T (popped) in a new slot. */
static int keep_fn(lruntime *lr) {
  lr->nslots++;
  PUSH_FIELD(lr, T_SLOTS);
  lua_insert(lr->T, -2);
  lua_rawseti(lr->T, -2, lr->nslots);
  lua_pop(lr->T, 1);
  return lr->nslots;
}

static strata_status r_resolve(void *host, strata_logic kind, const char *id, strata_callable *out,
                               strata_error *err) {
  lruntime *lr = host;
  lua_State *T = lr->T;
  if (lr->first && lr->first->resolve) {
    strata_status st = lr->first->resolve(lr->first->host, kind, id, out, err);
    if (st != STRATA_ENOTFOUND) return st;
  }
  if (!ROOM(lr)) return strata_error_nomem(err, NULL);
  callable_entry *c = find_callable(lr, (int)kind, id);
  if (!c) {
    ask(lr, "resolve");
    lua_pushinteger(T, kind);
    lua_pushstring(T, id);
    strata_status st = answer(lr, 2, 2, err);
    if (st) return st;
    if (lua_isnil(T, -2)) return not_found(T, err);
    if (!(c = strata_calloc(1, sizeof *c)) || !(c->id = strata_strdup(id))) {
      strata_free(c);
      lua_pop(T, 2);
      return strata_error_nomem(err, NULL);
    }
    c->kind = (int)kind;
    if (lua_type(T, -1) == LUA_TSTRING && !(c->mod = strata_strdup(lua_tostring(T, -1)))) {
      strata_free(c->id);
      strata_free(c);
      lua_pop(T, 2);
      return strata_error_nomem(err, NULL);
    }
    lua_pop(T, 1);
    if (lua_isfunction(T, -1)) c->slot = keep_fn(lr);
    else lua_pop(T, 1);
    c->next = lr->callables;
    lr->callables = c;
  }
  if (c->slot) {
    out->fn = call_fn;
    out->data = c;
    out->mod = c->mod;
  }
  return STRATA_OK;
}

/* Asks the dispatcher for the definition `what` of id: on STRATA_OK its
** table is on top of the thread's stack. */
static strata_status ask_definition(lruntime *lr, const char *what, const char *id,
                                    strata_error *err) {
  lua_State *T = lr->T;
  if (!ROOM(lr)) return strata_error_nomem(err, NULL);
  ask(lr, what);
  lua_pushstring(T, id);
  strata_status st = answer(lr, 1, 2, err);
  if (st) return st;
  if (lua_isnil(T, -2)) return not_found(T, err);
  lua_pop(T, 1);
  return STRATA_OK;
}

static strata_status r_map_archetype(void *host, const char *id, const strata_map_archetype **out,
                                     strata_error *err) {
  lruntime *lr = host;
  lua_State *T = lr->T;
  for (map_def *m = lr->maps; m; m = m->next)
    if (strcmp(m->d.id, id) == 0) { *out = &m->d; return STRATA_OK; }
  strata_status st = ask_definition(lr, "map_archetype", id, err);
  if (st) return st;
  int t = lua_gettop(T), fail = 0;
  map_def *m = strata_calloc(1, sizeof *m);
  if (!m) { lua_pop(T, 1); return strata_error_nomem(err, NULL); }
  m->d.id = strata_strdup(id);
  m->d.mod = field_str(T, t, "mod", &fail);
  if (!m->d.id || fail) st = strata_error_nomem(err, NULL);
  m->d.restock_every = field_num(T, t, "restock_every");
  m->d.renew_every = field_num(T, t, "renew_every");
  m->d.has_starting_pos = field_int(T, t, "start_x", &m->d.start_x) &&
                          field_int(T, t, "start_y", &m->d.start_y);
  m->d.spawn_every = field_num(T, t, "spawn_every");
  if (!field_int(T, t, "spawn_max", &m->d.spawn_max)) m->d.spawn_max = 0;
  m->d.renew_keeps_geometry = field_bool(T, t, "renew_keeps_geometry");
  m->d.renew_drops_actors = field_bool(T, t, "renew_drops_actors");
  if (!st) st = field_strs(T, t, "keep_tags", &m->keep_tags, &m->d.nkeep_tags, err);
  m->d.keep_tags = (const char *const *)m->keep_tags;
  char label[320];
  snprintf(label, sizeof label, "map archetype '%.256s' properties", id);
  if (!st) st = field_value(lr, t, "properties", label, &m->properties,
                            &m->d.properties, err);
  lua_pop(T, 1);
  if (st) { free_map_def(m); return st; }
  m->next = lr->maps;
  lr->maps = m;
  *out = &m->d;
  return STRATA_OK;
}

static strata_status r_area_archetype(void *host, const char *id, const strata_area_archetype **out,
                                      strata_error *err) {
  lruntime *lr = host;
  lua_State *T = lr->T;
  for (area_def *a = lr->areas; a; a = a->next)
    if (strcmp(a->d.id, id) == 0) { *out = &a->d; return STRATA_OK; }
  strata_status st = ask_definition(lr, "area_archetype", id, err);
  if (st) return st;
  int t = lua_gettop(T), fail = 0;
  area_def *a = strata_calloc(1, sizeof *a);
  if (!a) { lua_pop(T, 1); return strata_error_nomem(err, NULL); }
  a->d.id = strata_strdup(id);
  a->d.mod = field_str(T, t, "mod", &fail);
  a->d.generator = field_str(T, t, "generator", &fail);
  a->d.image = field_str(T, t, "image", &fail);
  a->d.has_starting_floor = field_int(T, t, "starting_floor", &a->d.starting_floor);
  a->d.has_deepest_floor = field_int(T, t, "deepest_floor", &a->d.deepest_floor);
  if (!a->d.id || fail) st = strata_error_nomem(err, NULL);
  /* types = { "town", ... } */
  if (!st) st = field_strs(T, t, "types", &a->types, &a->d.ntypes, err);
  a->d.types = (const char *const *)a->types;
  size_t n;
  /* floors = { { n, map archetype }, ... } */
  lua_getfield(T, t, "floors");
  n = lua_istable(T, -1) ? lua_rawlen(T, -1) : 0;
  if (!st && n && !(a->floors = strata_calloc(n, sizeof *a->floors))) st = strata_error_nomem(err, NULL);
  for (size_t i = 0; !st && i < n; i++) {
    lua_rawgeti(T, -1, (lua_Integer)i + 1);
    int64_t fl;
    if (lua_istable(T, -1) && field_int(T, lua_gettop(T), "n", &fl)) {
      char *ma = field_str(T, lua_gettop(T), "map_archetype", &fail);
      if (fail) st = strata_error_nomem(err, NULL);
      else if (ma) {
        a->floors[a->d.nfloors].floor = fl;
        a->floors[a->d.nfloors++].map_archetype = ma;
      }
    }
    lua_pop(T, 1);
  }
  lua_pop(T, 1);
  a->d.floors = a->floors;
  char label[320];
  snprintf(label, sizeof label, "area archetype '%.256s' params", id);
  if (!st) st = field_value(lr, t, "params", label, &a->params, &a->d.params, err);
  snprintf(label, sizeof label, "area archetype '%.256s' meta", id);
  if (!st) st = field_value(lr, t, "meta", label, &a->meta, &a->d.meta, err);
  lua_pop(T, 1);
  if (st) { free_area_def(a); return st; }
  a->next = lr->areas;
  lr->areas = a;
  *out = &a->d;
  return STRATA_OK;
}

/* A branch archetype: { mod =, dirs = { ... }, max_unexplored =, max_new =,
** room_generator =, max_idle =, reset_every =, reset_chance = }, checked by
** the dispatcher. */
static strata_status r_branch_archetype(void *host, const char *id, const strata_branch_def **out,
                                        strata_error *err) {
  lruntime *lr = host;
  lua_State *T = lr->T;
  for (branch_def *b = lr->branches; b; b = b->next)
    if (strcmp(b->d.id, id) == 0) { *out = &b->d; return STRATA_OK; }
  strata_status st = ask_definition(lr, "branch_archetype", id, err);
  if (st) return st;
  int t = lua_gettop(T), fail = 0;
  branch_def *b = strata_calloc(1, sizeof *b);
  if (!b) { lua_pop(T, 1); return strata_error_nomem(err, NULL); }
  b->d.id = strata_strdup(id);
  b->d.mod = field_str(T, t, "mod", &fail);
  b->d.room_generator = field_str(T, t, "room_generator", &fail);
  field_int(T, t, "max_unexplored", &b->d.max_unexplored);
  field_int(T, t, "max_new", &b->d.max_new);
  b->d.max_idle = field_num(T, t, "max_idle");
  b->d.reset_every = field_num(T, t, "reset_every");
  b->d.reset_chance = field_num(T, t, "reset_chance");
  if (!b->d.id || fail) st = strata_error_nomem(err, NULL);
  lua_getfield(T, t, "dirs");
  size_t n = lua_istable(T, -1) ? lua_rawlen(T, -1) : 0;
  if (!st && n && !(b->dirs = strata_calloc(n, sizeof *b->dirs))) st = strata_error_nomem(err, NULL);
  for (size_t i = 0; !st && i < n; i++) {
    lua_rawgeti(T, -1, (lua_Integer)i + 1);
    if (lua_type(T, -1) == LUA_TSTRING) {
      if (!(b->dirs[b->d.ndirs] = strata_strdup(lua_tostring(T, -1)))) st = strata_error_nomem(err, NULL);
      else b->d.ndirs++;
    }
    lua_pop(T, 1);
  }
  lua_pop(T, 2);
  b->d.dirs = b->d.ndirs ? (const char *const *)b->dirs : NULL;
  if (st) { free_branch_def(b); return st; }
  b->next = lr->branches;
  lr->branches = b;
  *out = &b->d;
  return STRATA_OK;
}

/* The definition table at the top of T (popped) as a cached unique area. */
static const strata_unique_def *keep_unique(lruntime *lr, const char *id, strata_error *err) {
  lua_State *T = lr->T;
  int t = lua_gettop(T), fail = 0;
  unique_entry *u = strata_calloc(1, sizeof *u);
  if (!u) { lua_pop(T, 1); strata_error_nomem(err, NULL); return NULL; }
  u->d.id = strata_strdup(id);
  u->d.area = field_str(T, t, "area", &fail);
  u->d.parent = field_str(T, t, "parent", &fail);
  u->d.has_on_floor = field_int(T, t, "on_floor", &u->d.on_floor);
  u->d.has_at = field_int(T, t, "at_x", &u->d.at_x) && field_int(T, t, "at_y", &u->d.at_y);
  u->d.has_starting_floor = field_int(T, t, "starting_floor", &u->d.starting_floor);
  lua_getfield(T, t, "eager");
  u->d.eager = lua_toboolean(T, -1);
  lua_pop(T, 2);
  if (!u->d.id || fail) { free_unique(u); strata_error_nomem(err, NULL); return NULL; }
  u->next = lr->uniques;
  lr->uniques = u;
  return &u->d;
}

static strata_status r_unique_area(void *host, const char *id, const strata_unique_def **out,
                                   strata_error *err) {
  lruntime *lr = host;
  for (unique_entry *u = lr->uniques; u; u = u->next)
    if (strcmp(u->d.id, id) == 0) { *out = &u->d; return STRATA_OK; }
  strata_status st = ask_definition(lr, "unique_area", id, err);
  if (st) return st;
  *out = keep_unique(lr, id, err);
  return *out ? STRATA_OK : STRATA_ENOMEM;
}

/* The registry's order of unique areas, asked once per cache. */
static const strata_unique_def *r_unique_at(void *host, size_t i) {
  lruntime *lr = host;
  lua_State *T = lr->T;
  if (!lr->order_known) {
    strata_error err;
    if (!ROOM(lr)) return NULL;
    ask(lr, "unique_list");
    if (answer(lr, 0, 1, &err)) return NULL;
    size_t n = lua_istable(T, -1) ? lua_rawlen(T, -1) : 0;
    const strata_unique_def **order = n ? strata_calloc(n, sizeof *order) : NULL;
    if (n && !order) { lua_pop(T, 1); return NULL; }
    size_t k = 0;
    for (size_t j = 0; j < n; j++) {
      lua_rawgeti(T, -1, (lua_Integer)j + 1);
      const char *id = lua_tostring(T, -1);
      const strata_unique_def *d = NULL;
      if (id && r_unique_area(lr, id, &d, &err) == STRATA_OK) order[k++] = d;
      lua_pop(T, 1);
    }
    lua_pop(T, 1);
    lr->order = order;
    lr->norder = k;
    lr->order_known = 1;
  }
  return i < lr->norder ? lr->order[i] : NULL;
}

static int r_archetype_event(void *host, const char *kind, const char *archetype, const char *event,
                             size_t i, strata_event_handler *out) {
  lruntime *lr = host;
  lua_State *T = lr->T;
  char key[512];
  int len = snprintf(key, sizeof key, "%s\n%s\n%s\n%zu", kind, archetype, event, i);
  if (len < 0 || (size_t)len >= sizeof key) return 0;
  callable_entry *c = find_callable(lr, -1, key);
  if (!c) {
    strata_error err;
    if (!ROOM(lr)) return 0;
    ask(lr, "archetype_event");
    lua_pushstring(T, kind);
    lua_pushstring(T, archetype);
    lua_pushstring(T, event);
    lua_pushinteger(T, (lua_Integer)i + 1);
    if (answer(lr, 4, 4, &err)) return 0;
    if (lua_isnil(T, -4)) { lua_pop(T, 4); return 0; }
    if (!(c = strata_calloc(1, sizeof *c))) { lua_pop(T, 4); return 0; }
    c->kind = -1;
    c->id = strata_strdup(key);
    c->name = strata_strdup(lua_tostring(T, -4));
    c->priority = lua_tointeger(T, -3);
    c->mod = lua_type(T, -1) == LUA_TSTRING ? strata_strdup(lua_tostring(T, -1)) : NULL;
    lua_pop(T, 1);
    if (!c->id || !c->name) {
      strata_free(c->id); strata_free(c->name); strata_free(c->mod); strata_free(c);
      lua_pop(T, 3);
      return 0;
    }
    if (lua_isfunction(T, -1)) c->slot = keep_fn(lr);
    else lua_pop(T, 1);
    lua_pop(T, 2);
    c->next = lr->callables;
    lr->callables = c;
  }
  out->name = c->name;
  out->priority = c->priority;
  out->handler.fn = c->slot ? call_fn : NULL;
  out->handler.data = c;
  out->handler.mod = c->mod;
  return 1;
}

static int r_event_declared(void *host, const char *event) {
  lruntime *lr = host;
  strata_error err;
  if (!ROOM(lr)) return 0;
  ask(lr, "event_declared");
  lua_pushstring(lr->T, event);
  if (answer(lr, 1, 1, &err)) return 0;
  int yes = lua_toboolean(lr->T, -1);
  lua_pop(lr->T, 1);
  return yes;
}

/* The Lua side keeps no journal: a rollback only tells it to drop the tile
** map views it caches of objects the rollback removed (a missed one is still
** safe: a view checks its map on every use). */
static void r_savepoint(void *host, strata_savepoint_op op) {
  lruntime *lr = host;
  strata_error err;
  if (op != STRATA_SAVEPOINT_ROLLBACK || !ROOM(lr)) return;
  ask(lr, "rolled_back");
  answer(lr, 0, 0, &err); /* nothing to report */
}

/* ---- calls ---- */

static void set_uid(lua_State *T, const char *k, uint64_t uid) {
  if (!uid) return;
  lua_pushinteger(T, (lua_Integer)uid);
  lua_setfield(T, -2, k);
}

static void set_value(lua_State *T, int state, const char *k, const strata_value *v) {
  if (!v || v->type == STRATA_VNIL) return;
  lstrata_push_value(T, state, v);
  lua_setfield(T, -2, k);
}

/* Runs call->kind of the cached callable `data` through the dispatcher:
** dispatch("call", kind, fn, info) -> true, a, b | false, message. */
static strata_status call_fn(strata_call *call, void *data, strata_error *err) {
  callable_entry *c = data;
  lua_State *T = NULL;
  lruntime *lr = NULL;
  /* the runtime: the resolver's host */
  lr = strata_runtime_resolver(call->rt)->host;
  T = lr->T;
  int base = lua_gettop(T);
  if (!lua_checkstack(T, 48)) return strata_error_nomem(err, NULL);
  PUSH_FIELD(lr, T_STATE); /* base + 1: for references in values */
  int state = base + 1;
  ask(lr, "call");
  lua_pushinteger(T, call->kind);
  PUSH_FIELD(lr, T_SLOTS);
  lua_rawgeti(T, -1, c->slot);
  lua_remove(T, -2);
  lua_createtable(T, 0, 12);
  if (call->id) { lua_pushstring(T, call->id); lua_setfield(T, -2, "id"); }
  if (c->kind == -1) { lua_pushstring(T, c->name); lua_setfield(T, -2, "name"); }
  if (c->mod) { lua_pushstring(T, c->mod); lua_setfield(T, -2, "mod"); }
  set_uid(T, "source", call->source);
  set_uid(T, "area", call->area);
  if (call->has_floor) {
    lua_pushinteger(T, call->floor);
    lua_setfield(T, -2, "floor");
  }
  set_uid(T, "map", call->map);
  set_uid(T, "actor", call->actor);
  set_uid(T, "from", call->from);
  set_uid(T, "to", call->to);
  set_uid(T, "timer", call->timer);
  if (call->steps) { lua_pushinteger(T, call->steps); lua_setfield(T, -2, "steps"); }
  if (call->timer) { lua_pushnumber(T, call->time); lua_setfield(T, -2, "time"); }
  if (call->kind == STRATA_LOGIC_GENERATE_ROOM) { /* the room's cell and depth */
    lua_pushinteger(T, call->x);
    lua_setfield(T, -2, "x");
    lua_pushinteger(T, call->y);
    lua_setfield(T, -2, "y");
    lua_pushinteger(T, call->depth);
    lua_setfield(T, -2, "depth");
  }
  if (call->event) { lua_pushstring(T, call->event); lua_setfield(T, -2, "event"); }
  set_value(T, state, "params", call->params);
  set_value(T, state, "args", call->args);
  set_value(T, state, "result", call->result);
  if (call->rng) { /* a view: the generator is lent to the world under its key */
    lstrata_push_stream(T, state, call->rng_key);
    lua_setfield(T, -2, "rng");
  }
  strata_status st = answer(lr, 3, 3, err);
  if (st) { lua_settop(T, base); return st; }
  if (!lua_toboolean(T, -3)) {
    size_t len = 0;
    const char *msg = lua_tolstring(T, -2, &len);
    strata_error_set(err, STRATA_ESTATE, "%s", msg ? msg : "failed");
    /* a message the error cuts goes whole to the core (strata_runtime_failure_text) */
    if (msg && len >= sizeof err->message) call->message = strata_strndup(msg, len);
    lua_settop(T, base);
    return STRATA_ESTATE;
  }
  switch (call->kind) {
  case STRATA_LOGIC_GENERATE_FLOOR:
  case STRATA_LOGIC_GENERATE:
    call->made = (uint64_t)lua_tointeger(T, -2);
    break;
  case STRATA_LOGIC_STARTING_POS:
    if (lua_isinteger(T, -2) && lua_isinteger(T, -1)) {
      call->has_pos = 1;
      call->x = lua_tointeger(T, -2);
      call->y = lua_tointeger(T, -1);
    }
    break;
  case STRATA_LOGIC_GENERATE_ROOM: { /* the spec as a value: the core checks its keys */
    char label[320];
    snprintf(label, sizeof label, "room generator '%.256s': the spec", call->id ? call->id : "?");
    st = to_value(lr, lua_gettop(T) - 1, label, &call->ret, err);
    break;
  }
  case STRATA_LOGIC_EVENT:
  case STRATA_LOGIC_HANDLER:
    if (call->event) {
      call->stop = lua_toboolean(T, -1);
      if (!lua_isnil(T, -2)) st = to_value(lr, lua_gettop(T) - 1, "an event handler's result", &call->ret, err);
    }
    break;
  default:
    break;
  }
  lua_settop(T, base);
  return st;
}

strata_resolver lstrata_lua_resolver(lruntime *lr) {
  strata_resolver r = { lr, r_resolve, r_map_archetype, r_area_archetype, r_unique_area,
                        r_unique_at, r_archetype_event, r_event_declared, r_savepoint,
                        r_branch_archetype };
  return r;
}
