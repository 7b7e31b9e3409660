/*
** registry.c - a resolver answering from tables the host fills by ID.
**
** Entries live in one array sorted by (type, id): a lookup is a binary
** search, and unique areas come out in the order of their IDs. Every
** definition is copied in, so nothing the caller passed must outlive the call.
*/
#include "strata/registry.h"
#include "strata/alloc.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

enum { T_LOGIC = 0, T_MAP = STRATA_LOGIC_COUNT, T_AREA, T_UNIQUE, T_EVENT, T_GENERATOR, T_HANDLER, T_ROOM_GENERATOR,
       T_BRANCH };

typedef struct entry {
  int type;
  char *id, *mod;
  strata_callable logic;          /* T_LOGIC + kind */
  strata_map_archetype map;       /* T_MAP */
  strata_area_archetype area;     /* T_AREA */
  strata_unique_def unique;      /* T_UNIQUE */
  strata_branch_def branch; /* T_BRANCH */
  /* what the copies own */
  strata_value v1, v2;
  char **strs;
  size_t nstrs;
  strata_floor_archetype *floors;
  const char **dirs;              /* branch.dirs */
} entry;

typedef struct arch_event {
  char *kind, *archetype, *event, *name, *mod;
  int64_t priority;
  strata_callable c;
} arch_event;

struct strata_registry {
  strata_resolver resolver;
  entry **entries;                /* sorted by (type, id) */
  size_t n, cap;
  size_t nuniques, nevents;
  arch_event *aevents;
  size_t naevents, aevents_cap;
};

static void entry_free(entry *e) {
  if (!e) return;
  strata_free(e->id);
  strata_free(e->mod);
  strata_value_clear(&e->v1);
  strata_value_clear(&e->v2);
  for (size_t i = 0; i < e->nstrs; i++) strata_free(e->strs[i]);
  strata_free(e->strs);
  strata_free(e->floors);
  strata_free((void *)e->area.types);
  strata_free((void *)e->map.keep_tags);
  strata_free(e->dirs);
  strata_free(e);
}

void strata_registry_free(strata_registry *reg) {
  if (!reg) return;
  for (size_t i = 0; i < reg->n; i++) entry_free(reg->entries[i]);
  strata_free(reg->entries);
  for (size_t i = 0; i < reg->naevents; i++) {
    arch_event *a = &reg->aevents[i];
    strata_free(a->kind); strata_free(a->archetype); strata_free(a->event); strata_free(a->name); strata_free(a->mod);
  }
  strata_free(reg->aevents);
  strata_free(reg);
}

/* ---- the sorted table ---- */

static int cmp(int type, const char *id, const entry *e) {
  if (type != e->type) return type < e->type ? -1 : 1;
  return strcmp(id, e->id);
}

/* The index of (type, id), or where it would go (*found 0). */
static size_t find(const strata_registry *reg, int type, const char *id, int *found) {
  size_t lo = 0, hi = reg->n;
  *found = 0;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = cmp(type, id, reg->entries[mid]);
    if (c == 0) { *found = 1; return mid; }
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

static const entry *get(const strata_registry *reg, int type, const char *id) {
  int found;
  size_t i = id ? find(reg, type, id, &found) : 0;
  return id && found ? reg->entries[i] : NULL;
}

/* Puts e in (replacing an entry with its type and id); e is the table's then, or freed. */
static strata_status put(strata_registry *reg, entry *e, strata_error *err) {
  int found;
  size_t i = find(reg, e->type, e->id, &found);
  if (found) {
    entry_free(reg->entries[i]);
    reg->entries[i] = e;
    return STRATA_OK;
  }
  if (!STRATA_GROW(reg->entries, reg->cap, reg->n + 1)) {
    entry_free(e);
    return strata_error_nomem(err, NULL);
  }
  memmove(reg->entries + i + 1, reg->entries + i, (reg->n - i) * sizeof *reg->entries);
  reg->entries[i] = e;
  reg->n++;
  if (e->type == T_UNIQUE) reg->nuniques++;
  if (e->type == T_EVENT) reg->nevents++;
  return STRATA_OK;
}

static entry *new_entry(int type, const char *id, const char *mod, strata_error *err) {
  entry *e = strata_calloc(1, sizeof *e);
  if (!e) { strata_error_nomem(err, NULL); return NULL; }
  e->type = type;
  if (!(e->id = strata_strdup(id)) || (mod && !(e->mod = strata_strdup(mod)))) {
    entry_free(e);
    strata_error_nomem(err, NULL);
    return NULL;
  }
  return e;
}

/* A string the entry owns (NULL stays NULL); 0 on ENOMEM. */
static int own(entry *e, const char *s, const char **out) {
  *out = NULL;
  if (!s) return 1;
  char **p = strata_realloc(e->strs, (e->nstrs + 1) * sizeof *p); /* a few an entry: one at a time */
  if (!p) return 0;
  e->strs = p;
  if (!(p[e->nstrs] = strata_strdup(s))) return 0;
  *out = p[e->nstrs++];
  return 1;
}

/* Copies of n strings, owned by e, in a new array (*out; NULL when n is 0). */
static int own_list(entry *e, const char *const *src, size_t n, const char *const **out) {
  *out = NULL;
  if (!n) return 1;
  const char **list = strata_calloc(n, sizeof *list);
  *out = list;
  int ok = list != NULL;
  for (size_t i = 0; ok && i < n; i++) ok = own(e, src[i], &list[i]);
  return ok;
}

static int own_value(strata_value *slot, const strata_value *v, const strata_value **out) {
  *out = NULL;
  if (!v) return 1;
  if (strata_value_copy(slot, v, NULL)) return 0;
  *out = slot;
  return 1;
}

/* ---- unknown IDs: the nearest known ones ---- */

static strata_status unknown(const strata_registry *reg, int type, const char *what,
                             const char *id, strata_error *err) {
  /* The kept three and the next ID ranked again: no allocation on this path. */
  const char *near[3] = { NULL, NULL, NULL }, *cand[4];
  size_t kept = 0;
  for (size_t i = 0; id && i < reg->n; i++) {
    if (reg->entries[i]->type != type) continue;
    memcpy(cand, near, sizeof near);
    cand[kept] = reg->entries[i]->id;
    kept = strata_nearest(id, cand, kept + 1, near, NULL, 3);
  }
  if (!near[0])
    return strata_error_set(err, STRATA_ENOTFOUND, "unknown %s '%s'", what, id ? id : "(null)");
  return strata_error_set(err, STRATA_ENOTFOUND, "unknown %s '%s' (nearest known: %s%s%s%s%s)", what,
                          id ? id : "(null)", near[0], near[1] ? ", " : "",
                          near[1] ? near[1] : "", near[2] ? ", " : "", near[2] ? near[2] : "");
}

/* ---- the resolver ---- */

/* The definition type a kind of logic belongs to. */
static int owner_type(strata_logic kind, const char **what) {
  switch (kind) {
  case STRATA_LOGIC_GENERATE_FLOOR: *what = "base.area_generator"; return T_GENERATOR;
  case STRATA_LOGIC_EVENT: *what = "event handler"; return T_LOGIC + STRATA_LOGIC_EVENT;
  case STRATA_LOGIC_HANDLER: *what = "base.handler"; return T_HANDLER;
  case STRATA_LOGIC_GENERATE_ROOM: *what = "base.room_generator"; return T_ROOM_GENERATOR;
  default: *what = "base.map_archetype"; return T_MAP;
  }
}

static strata_status r_resolve(void *host, strata_logic kind, const char *id, strata_callable *out,
                               strata_error *err) {
  const strata_registry *reg = host;
  const char *what;
  int owner = owner_type(kind, &what);
  memset(out, 0, sizeof *out);
  if ((unsigned)kind >= STRATA_LOGIC_COUNT) return strata_error_set(err, STRATA_EARG, "bad logic kind");
  const entry *e = get(reg, T_LOGIC + (int)kind, id);
  if (e) { *out = e->logic; return STRATA_OK; }
  if (!get(reg, owner, id)) return unknown(reg, owner, what, id, err);
  return STRATA_OK; /* a known definition without that function */
}

static strata_status r_map(void *host, const char *id, const strata_map_archetype **out,
                           strata_error *err) {
  const entry *e = get(host, T_MAP, id);
  if (!e) return unknown(host, T_MAP, "base.map_archetype", id, err);
  *out = &e->map;
  return STRATA_OK;
}

static strata_status r_area(void *host, const char *id, const strata_area_archetype **out,
                            strata_error *err) {
  const entry *e = get(host, T_AREA, id);
  if (!e) return unknown(host, T_AREA, "base.area_archetype", id, err);
  *out = &e->area;
  return STRATA_OK;
}

static strata_status r_unique(void *host, const char *id, const strata_unique_def **out,
                              strata_error *err) {
  const entry *e = get(host, T_UNIQUE, id);
  if (!e) return unknown(host, T_UNIQUE, "base.unique_area", id, err);
  *out = &e->unique;
  return STRATA_OK;
}

static strata_status r_branch(void *host, const char *id, const strata_branch_def **out,
                              strata_error *err) {
  const entry *e = get(host, T_BRANCH, id);
  if (!e) return unknown(host, T_BRANCH, "base.branch_archetype", id, err);
  *out = &e->branch;
  return STRATA_OK;
}

static const strata_unique_def *r_unique_at(void *host, size_t i) {
  const strata_registry *reg = host;
  if (i >= reg->nuniques) return NULL;
  int found;
  size_t first = find(reg, T_UNIQUE, "", &found); /* "" sorts before every ID */
  return &reg->entries[first + i]->unique;
}

static int r_archetype_event(void *host, const char *kind, const char *archetype,
                             const char *event, size_t i, strata_event_handler *out) {
  const strata_registry *reg = host;
  for (size_t k = 0; k < reg->naevents; k++) {
    const arch_event *a = &reg->aevents[k];
    if (strcmp(a->kind, kind) || strcmp(a->archetype, archetype) || strcmp(a->event, event)) continue;
    if (i-- > 0) continue;
    out->name = a->name;
    out->priority = a->priority;
    out->handler = a->c;
    return 1;
  }
  return 0;
}

static int r_event_declared(void *host, const char *event) {
  const strata_registry *reg = host;
  return reg->nevents == 0 || get(reg, T_EVENT, event) != NULL;
}

strata_registry *strata_registry_new(strata_error *err) {
  strata_registry *reg = strata_calloc(1, sizeof *reg);
  if (!reg) { strata_error_nomem(err, NULL); return NULL; }
  reg->resolver = (strata_resolver){ reg, r_resolve, r_map, r_area, r_unique, r_unique_at,
                                     r_archetype_event, r_event_declared, NULL, r_branch };
  return reg;
}

const strata_resolver *strata_registry_resolver(const strata_registry *reg) {
  return &reg->resolver;
}

/* ---- adding ---- */

static strata_status declare(strata_registry *reg, int type, const char *id, strata_error *err) {
  if (get(reg, type, id)) return STRATA_OK;
  entry *e = new_entry(type, id, NULL, err);
  if (!e) return STRATA_ENOMEM;
  if (type == T_MAP) e->map.id = e->id;
  return put(reg, e, err);
}

strata_status strata_registry_add_logic(strata_registry *reg, strata_logic kind, const char *id,
                                        strata_fn fn, void *data, const char *mod,
                                        strata_error *err) {
  if ((unsigned)kind >= STRATA_LOGIC_COUNT || !id || !*id || !fn)
    return strata_error_in(err, STRATA_EARG, "strata_registry_add_logic", "needs a kind, an ID and a function");
  const char *what;
  int owner = owner_type(kind, &what);
  strata_status st = STRATA_OK;
  if (kind != STRATA_LOGIC_EVENT) st = declare(reg, owner, id, err);
  if (st) return st;
  entry *e = new_entry(T_LOGIC + (int)kind, id, mod, err);
  if (!e) return STRATA_ENOMEM;
  e->logic = (strata_callable){ fn, data, e->mod };
  return put(reg, e, err);
}

strata_status strata_registry_add_map_archetype(strata_registry *reg,
                                                const strata_map_archetype *def,
                                                strata_error *err) {
  if (!def || !def->id || !*def->id)
    return strata_error_in(err, STRATA_EARG, "strata_registry_add_map_archetype", "needs an ID");
  entry *e = new_entry(T_MAP, def->id, def->mod, err);
  if (!e) return STRATA_ENOMEM;
  e->map = *def;
  e->map.id = e->id;
  e->map.mod = e->mod;
  e->map.keep_tags = NULL;
  if (!own_value(&e->v1, def->properties, &e->map.properties) ||
      !own_list(e, def->keep_tags, def->nkeep_tags, &e->map.keep_tags)) {
    entry_free(e);
    return strata_error_nomem(err, NULL);
  }
  return put(reg, e, err);
}

strata_status strata_registry_add_area_archetype(strata_registry *reg,
                                                 const strata_area_archetype *def,
                                                 strata_error *err) {
  if (!def || !def->id || !*def->id)
    return strata_error_in(err, STRATA_EARG, "strata_registry_add_area_archetype", "needs an ID");
  entry *e = new_entry(T_AREA, def->id, def->mod, err);
  if (!e) return STRATA_ENOMEM;
  e->area = *def;
  e->area.id = e->id;
  e->area.mod = e->mod;
  e->area.types = NULL;
  e->area.floors = NULL;
  int ok = own(e, def->generator, &e->area.generator) && own(e, def->image, &e->area.image) &&
           own_value(&e->v1, def->params, &e->area.params) &&
           own_value(&e->v2, def->meta, &e->area.meta);
  ok = ok && own_list(e, def->types, def->ntypes, &e->area.types);
  if (ok && def->nfloors) {
    e->floors = strata_calloc(def->nfloors, sizeof *e->floors);
    e->area.floors = e->floors;
    for (size_t i = 0; ok && e->floors && i < def->nfloors; i++) {
      e->floors[i].floor = def->floors[i].floor;
      ok = own(e, def->floors[i].map_archetype, &e->floors[i].map_archetype);
    }
    ok = ok && e->floors;
  }
  if (!ok) { entry_free(e); return strata_error_nomem(err, NULL); }
  return put(reg, e, err);
}

strata_status strata_registry_add_branch_archetype(strata_registry *reg,
                                                   const strata_branch_def *def,
                                                   strata_error *err) {
  if (!def || !def->id || !*def->id)
    return strata_error_in(err, STRATA_EARG, "strata_registry_add_branch_archetype", "needs an ID");
  entry *e = new_entry(T_BRANCH, def->id, def->mod, err);
  if (!e) return STRATA_ENOMEM;
  e->branch = *def;
  e->branch.id = e->id;
  e->branch.mod = e->mod;
  e->branch.dirs = NULL;
  int ok = own(e, def->room_generator, &e->branch.room_generator);
  if (ok && def->dirs && def->ndirs) {
    ok = (e->dirs = strata_calloc(def->ndirs, sizeof *e->dirs)) != NULL;
    for (size_t i = 0; ok && i < def->ndirs; i++) ok = own(e, def->dirs[i], &e->dirs[i]);
    e->branch.dirs = e->dirs;
  }
  if (!ok) { entry_free(e); return strata_error_nomem(err, NULL); }
  return put(reg, e, err);
}

strata_status strata_registry_add_unique_area(strata_registry *reg, const strata_unique_def *def,
                                              strata_error *err) {
  if (!def || !def->id || !*def->id || !def->area)
    return strata_error_in(err, STRATA_EARG, "strata_registry_add_unique_area", "needs an ID and an area archetype");
  entry *e = new_entry(T_UNIQUE, def->id, NULL, err);
  if (!e) return STRATA_ENOMEM;
  e->unique = *def;
  e->unique.id = e->id;
  if (!own(e, def->area, &e->unique.area) || !own(e, def->parent, &e->unique.parent)) {
    entry_free(e);
    return strata_error_nomem(err, NULL);
  }
  return put(reg, e, err);
}

strata_status strata_registry_add_event(strata_registry *reg, const char *event,
                                        strata_error *err) {
  if (!event || !*event) return strata_error_in(err, STRATA_EARG, "strata_registry_add_event", "needs an ID");
  return declare(reg, T_EVENT, event, err);
}

strata_status strata_registry_add_archetype_event(strata_registry *reg, const char *kind,
                                                  const char *archetype, const char *event,
                                                  const char *name, int64_t priority,
                                                  strata_fn fn, void *data, const char *mod,
                                                  strata_error *err) {
  if (!kind || !archetype || !event || !fn)
    return strata_error_in(err, STRATA_EARG, "strata_registry_add_archetype_event",
                           "needs a kind, an archetype, an event and a function");
  if (!STRATA_GROW(reg->aevents, reg->aevents_cap, reg->naevents + 1)) return strata_error_nomem(err, NULL);
  arch_event *a = &reg->aevents[reg->naevents];
  memset(a, 0, sizeof *a);
  a->kind = strata_strdup(kind);
  a->archetype = strata_strdup(archetype);
  a->event = strata_strdup(event);
  a->name = strata_strdup(name ? name : archetype);
  a->mod = strata_strdup(mod);
  if (!a->kind || !a->archetype || !a->event || !a->name || (mod && !a->mod)) {
    strata_free(a->kind); strata_free(a->archetype); strata_free(a->event); strata_free(a->name); strata_free(a->mod);
    return strata_error_nomem(err, NULL);
  }
  a->priority = priority;
  a->c = (strata_callable){ fn, data, a->mod };
  reg->naevents++;
  return STRATA_OK;
}
