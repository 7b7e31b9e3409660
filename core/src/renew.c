/*
** renew.c - restock, renew and spawn: due times kept in the map
** (sys.restock_due, sys.renew_due) from its archetype's intervals, applied
** when due with the number of intervals elapsed. A renewal makes the map's
** geometry anew from its floor's generator, keeping what the archetype
** keeps, then runs on_renew.
**
** Only the player's map has a stored timer (base.map_renew, sys.renew_timer)
** that applies them as they fall due; any other map catches up when it is
** entered, so a world with a thousand maps runs one timer, not a thousand.
** Spawns fall at the multiples of spawn.every of world time, so the timer
** carries the next one in its arguments and no due is stored: they happen
** only while the player is there, as the map's crowding is seen then.
*/
#include "runtime_internal.h"
#include "strata/alloc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const what_names[2] = { "restock", "renew" };

/* what: 0 restock, 1 renew, 2 spawn. A spawn tick is a timer's run: no
** shorter than a timer's shortest period (the base schema refuses it; from
** C, a shorter one spawns at generation only). */
static double every_of(const strata_map_archetype *a, int what) {
  double e = !a ? 0 : what == 0 ? a->restock_every : what == 1 ? a->renew_every : a->spawn_every;
  return e >= (what == 2 ? STRATA_TIMER_MIN_EVERY : 0) && e > 0 && isfinite(e) ? e : 0;
}

/* A map hook's call: the map's area and floor in it. */
static void map_call(strata_runtime *rt, strata_call *call, strata_logic kind, uint64_t map) {
  rt_call_init(call, rt, kind, NULL);
  call->area = strata_map_area(rt, map, &call->floor);
  call->has_floor = call->area != 0;
  call->depth = call->floor;
}

/* What a renewal keeps of the old map: the player, actors unless
** keep.actors is false, objects with a keep tag, entrances (they lead to
** areas that outlive the geometry) and the core's bookkeeping. */
static int kept(const strata_runtime *rt, const strata_object *o, const strata_map_archetype *a) {
  if (o->uid == strata_player(rt) || strata_kind_is_bookkeeping(o->kind)) return 1;
  if (strcmp(o->kind, "actor") == 0 && !a->renew_drops_actors) return 1;
  if (strata_feature_type_of(rt, o->uid) == STRATA_FEATURE_ENTRANCE) return 1;
  for (size_t i = 0; o->tags.type == STRATA_VTABLE && i < a->nkeep_tags; i++)
    if (strata_vtable_get_str(o->tags.u.t, a->keep_tags[i])) return 1;
  return 0;
}

/* The objects on map, in a strata_malloc'd array (*out, *n). */
static strata_status on_map(strata_runtime *rt, uint64_t map, uint64_t **out, size_t *n, strata_error *err) {
  *n = strata_world_objects_on(rt->w, map, NULL, NULL, 0);
  *out = NULL;
  if (*n && !(*out = strata_malloc(*n * sizeof **out))) return strata_error_nomem(err, NULL);
  if (*n) strata_world_objects_on(rt->w, map, NULL, *out, *n);
  return STRATA_OK;
}

/* The cells of src into dst, in place (views of dst stay valid), token by
** name where the two tables differ. A map keeps its size: a generator that
** makes another is refused. */
static strata_status copy_cells(strata_runtime *rt, uint64_t map, strata_tilemap *dst,
                                const strata_tilemap *src, strata_error *err) {
  int w = strata_tilemap_width(src), h = strata_tilemap_height(src);
  char b[48];
  if (w != strata_tilemap_width(dst) || h != strata_tilemap_height(dst))
    return strata_error_set(err, STRATA_EARG, "renewing %s: its generator made a %dx%d map for a %dx%d one",
                            rt_label(rt, map, b), w, h, strata_tilemap_width(dst), strata_tilemap_height(dst));
  strata_tokens *dt = strata_tilemap_tokens(dst);
  const strata_tokens *tt = strata_tilemap_tokens(src);
  strata_status st = STRATA_OK;
  strata_token small[16], *stack = small;
  size_t cap = 16;
  for (int y = 0; y < h && !st; y++)
    for (int x = 0; x < w && !st; x++) {
      size_t n = strata_tilemap_stack(src, x, y, NULL, 0);
      if (n > cap) {
        strata_token *more = strata_malloc(n * sizeof *more);
        if (!more) { st = strata_error_nomem(err, NULL); break; }
        if (stack != small) strata_free(stack);
        stack = more;
        cap = n;
      }
      strata_tilemap_stack(src, x, y, stack, cap);
      st = strata_tilemap_reset(dst, x, y, 0, err);
      for (size_t i = 0; i < n && !st; i++) {
        strata_token t = stack[i];
        size_t len;
        const char *name = dt == tt ? NULL : strata_tokens_name(tt, t, &len);
        if (name && !(t = strata_tokens_intern(dt, name, len, err))) st = err && err->status ? err->status : STRATA_ENOMEM;
        if (!st) st = strata_tilemap_set(dst, x, y, t, err);
      }
    }
  if (stack != small) strata_free(stack);
  return st;
}

/* The new geometry into map: made's tiles and objects; what the old one had
** and the archetype does not keep is deleted, then made itself. */
static strata_status transplant(strata_runtime *rt, uint64_t map, uint64_t made,
                                const strata_map_archetype *a, strata_error *err) {
  /* touched first: the cells are edited in place, and a rollback puts them back */
  strata_status st = strata_world_touch(rt->w, map, err);
  if (!st) st = copy_cells(rt, map, strata_world_tilemap(rt->w, map), strata_world_tilemap(rt->w, made), err);
  if (st) return st;
  uint64_t *on;
  size_t n;
  if ((st = on_map(rt, map, &on, &n, err))) return st;
  for (size_t i = 0; i < n && !st; i++)
    if (!kept(rt, strata_world_object(rt->w, on[i]), a)) st = strata_world_delete(rt->w, on[i], err);
  strata_free(on);
  on = NULL;
  if (!st) st = on_map(rt, made, &on, &n, err);
  for (size_t i = 0; i < n && !st; i++) {
    const strata_object *o = strata_world_object(rt->w, on[i]);
    st = strata_object_set_position(rt->w, on[i], map, o->x, o->y, err);
  }
  strata_free(on);
  return st ? st : strata_world_delete(rt->w, made, err);
}

/* The objects a renewal keeps (its bookkeeping aside), as they were before
** it: each must still exist after the generator and after on_renew, or the
** renewal is refused. Kinds are the world's interned names: they outlive a
** deletion, for the message. */
typedef struct keeper {
  uint64_t uid;
  const char *kind;
} keeper;

static strata_status keepers(strata_runtime *rt, uint64_t map, const strata_map_archetype *a, keeper **out,
                             size_t *n, strata_error *err) {
  uint64_t *on;
  size_t k;
  strata_status st = on_map(rt, map, &on, &k, err);
  *out = NULL;
  *n = 0;
  if (st || !k) return st;
  if (!(*out = strata_malloc(k * sizeof **out))) st = strata_error_nomem(err, NULL);
  for (size_t i = 0; i < k && !st; i++) {
    const strata_object *o = strata_world_object(rt->w, on[i]);
    if (!strata_kind_is_bookkeeping(o->kind) && kept(rt, o, a)) (*out)[(*n)++] = (keeper){ o->uid, o->kind };
  }
  strata_free(on);
  return st;
}

/* A kept object that by (the generator, on_renew) deleted: the refusal. */
static strata_status check_kept(strata_runtime *rt, const char *renewing, const keeper *ks, size_t n,
                                const char *by, strata_error *err) {
  for (size_t i = 0; i < n; i++)
    if (!strata_world_object(rt->w, ks[i].uid))
      return strata_error_set(err, STRATA_ESTATE, "%s: %s deleted %s#%llu, which the renewal keeps", renewing, by,
                              ks[i].kind, (unsigned long long)ks[i].uid);
  return STRATA_OK;
}

/* A renewal's geometry, inside the renewal's savepoint: the floor's
** generator makes a new map at the floor (freed for it), whose tiles and
** objects go into this one, which takes the floor back. The generator must
** make that map (a map older than the renewal would be emptied into this one
** and deleted: another floor, a hand-made map, this very one) and keep the
** kept. A map of no area has no generator to renew it from; regenerate =
** false keeps the geometry. */
static strata_status regenerate(strata_runtime *rt, uint64_t map, const strata_map_archetype *a,
                                const keeper *ks, size_t nks, strata_error *err) {
  int64_t n;
  uint64_t area = strata_map_area(rt, map, &n);
  if (a->renew_keeps_geometry || !rt_object(rt, area, NULL) || area_floor_uid(rt, area, n) != map)
    return STRATA_OK;
  char renewing[160], who[FLOOR_WHO], b[48], c[48];
  snprintf(renewing, sizeof renewing, "renewing %s (floor %lld of %s)", rt_label(rt, map, b), (long long)n,
           rt_label(rt, area, c));
  uint64_t made = 0, first = strata_world_next_uid(rt->w);
  strata_status st = area_set_floor(rt, area, n, 0, err);
  if (!st) st = floor_make(rt, area, n, &made, who, err);
  if (!st && made < first)
    st = strata_error_set(err, STRATA_EARG, "%s: %s returned %s, a map made before the renewal: it must make a new one "
                          "(world:create_map, strata_map_create)", renewing, who, rt_label(rt, made, b));
  if (!st) st = check_kept(rt, renewing, ks, nks, who, err);
  if (!st) st = area_set_floor(rt, area, n, map, err);
  if (!st) st = transplant(rt, map, made, a, err);
  return st;
}

/* A renewal, in one savepoint: the geometry anew, then on_renew; when either
** fails or deletes what the renewal keeps, nothing of it stays. */
static strata_status renew(strata_runtime *rt, uint64_t map, const strata_map_archetype *a, strata_call *call,
                           const char *key, strata_error *err) {
  keeper *ks;
  size_t n;
  strata_status st = keepers(rt, map, a, &ks, &n, err);
  if (st) return st;
  const char *arch = strata_world_object(rt->w, map)->archetype; /* interned: outlives a change */
  char renewing[64], by[300], b[48];
  snprintf(renewing, sizeof renewing, "renewing %s", rt_label(rt, map, b));
  snprintf(by, sizeof by, "on_renew of map archetype '%s'", arch ? arch : "");
  if (!(st = rt_begin(rt, err))) {
    st = regenerate(rt, map, a, ks, n, err);
    if (!st) st = rt_map_hook(rt, map, call->kind, call, key, err);
    if (!st) st = check_kept(rt, renewing, ks, n, by, err);
    st = rt_end(rt, st);
  }
  strata_free(ks);
  return st;
}

/* The dues counted from now: set from the archetype's intervals, or cleared. */
strata_status renew_init(strata_runtime *rt, uint64_t map, strata_error *err) {
  const strata_map_archetype *a = map_archetype_of(rt, map);
  double now = strata_world_time(rt->w);
  strata_status st = STRATA_OK;
  for (int what = 0; what < 2 && !st; what++) {
    double every = every_of(a, what);
    double due = now + every;
    st = map_set_due(rt, map, what, every > 0 ? &due : NULL, err);
  }
  return st;
}

/* Renew, then restock, when due: on_renew / on_restock with call->steps =
** the intervals elapsed, and the due moved past now. */
strata_status renew_apply(strata_runtime *rt, uint64_t map, strata_error *err) {
  const strata_map_archetype *a = map_archetype_of(rt, map);
  if (!a) return STRATA_OK;
  double now = strata_world_time(rt->w);
  for (int what = 1; what >= 0; what--) {
    double every = every_of(a, what), due;
    if (!(every > 0) || !map_due(rt, map, what, &due) || !(now >= due)) continue;
    int64_t steps = (int64_t)floor((now - due) / every) + 1;
    double next = due + (double)steps * every;
    strata_status st = map_set_due(rt, map, what, &next, err);
    if (st) return st;
    strata_call call;
    map_call(rt, &call, what == 0 ? STRATA_LOGIC_ON_RESTOCK : STRATA_LOGIC_ON_RENEW, map);
    call.steps = steps;
    char key[64];
    snprintf(key, sizeof key, "map#%llu %s", (unsigned long long)map, what_names[what]);
    /* the stream is made only when there is a hook to draw from it */
    st = what == 1 ? renew(rt, map, a, &call, key, err) : rt_map_hook(rt, map, call.kind, &call, key, err);
    if (st) return st;
  }
  return STRATA_OK;
}

/* Whether max actors stand on map: counted up to max only, and not at all
** without a limit, so that a tick costs what it spawns, not the crowd. */
static int crowded(const strata_runtime *rt, uint64_t map, int64_t max) {
  if (max == INT64_MAX) return 0;
  int64_t n = 0;
  for (uint64_t u = strata_world_next_on(rt->w, map, 0); u && n < max; u = strata_world_next_on(rt->w, map, u))
    n += strcmp(strata_world_get(rt->w, u)->kind, "actor") == 0;
  return n >= max;
}

/* A spawn tick: on_spawn, when fewer than spawn.max actors are on the map,
** drawing from the stream "map#<uid> spawn". */
static strata_status spawn(strata_runtime *rt, uint64_t map, strata_error *err) {
  const strata_map_archetype *a = map_archetype_of(rt, map);
  if (!every_of(a, 2) || crowded(rt, map, a->spawn_max)) return STRATA_OK;
  strata_call call;
  map_call(rt, &call, STRATA_LOGIC_ON_SPAWN, map);
  char key[64];
  snprintf(key, sizeof key, "map#%llu spawn", (unsigned long long)map);
  return rt_map_hook(rt, map, STRATA_LOGIC_ON_SPAWN, &call, key, err);
}

/* Spawn ticks are whole numbers: tick k falls at k * every, computed the one
** way here, so a tick is counted once however it is reached (no sum of
** periods drifting from it). The first tick after now; 0 past the exact
** range of a double. */
static int64_t next_tick(double now, double every) {
  double q = floor(now / every);
  if (!(q >= 0 && q < 9e15)) return 0;
  int64_t k = (int64_t)q + 1;
  while (k > 1 && (double)(k - 1) * every > now) k--;
  while ((double)k * every <= now) k++;
  return k;
}

strata_status renew_cancel_timer(strata_runtime *rt, uint64_t map, strata_error *err) {
  uint64_t t = map_renew_timer(rt, map);
  if (!t) return STRATA_OK;
  strata_world_cancel(rt->w, t, NULL); /* gone already: nothing to cancel */
  return map_set_renew_timer(rt, map, 0, err);
}

strata_status renew_schedule_timer(strata_runtime *rt, uint64_t map, strata_error *err) {
  strata_status st = renew_cancel_timer(rt, map, err);
  if (st) return st;
  double every = every_of(map_archetype_of(rt, map), 2), now = strata_world_time(rt->w);
  int64_t tick = every ? next_tick(now, every) : 0;
  double due = INFINITY, d, at = tick ? (double)tick * every : INFINITY;
  for (int what = 0; what < 2; what++)
    if (map_due(rt, map, what, &d)) due = fmin(due, d);
  if (!isfinite(fmin(due, at))) return STRATA_OK;
  /* the args carry the tick, a whole number: its time is tick * every */
  strata_value args, k = K("map"), v = strata_value_int((int64_t)map);
  strata_value sk = K("spawn"), sv = strata_value_int(tick);
  if ((st = strata_value_table(&args, err))) return st;
  uint64_t timer;
  if (!(st = strata_vtable_set(args.u.t, &k, &v, err)) && at <= due)
    st = strata_vtable_set(args.u.t, &sk, &sv, err);
  if (!st) st = strata_world_schedule(rt->w, fmax(now, fmin(due, at)), 0, "base.map_renew", &args, &timer, err);
  strata_value_clear(&args);
  if (!st) st = map_set_renew_timer(rt, map, timer, err);
  return st;
}

/* base.map_renew fell due: apply, spawn if this was a spawn's time, and
** while the player is still there, schedule the next. */
static strata_status renew_fired(strata_runtime *rt, uint64_t map, const strata_value *args,
                                 strata_error *err) {
  if (!rt_object(rt, map, "map")) return STRATA_OK;
  strata_status st = map_set_renew_timer(rt, map, 0, err);
  if (!st) st = renew_apply(rt, map, err);
  const strata_value *at = args && args->type == STRATA_VTABLE ? strata_vtable_get_str(args->u.t, "spawn") : NULL;
  double t, every = every_of(map_archetype_of(rt, map), 2);
  /* a tick; a time in a timer saved before ticks were whole numbers */
  if (at && at->type == STRATA_VINT) t = every ? (double)at->u.i * every : INFINITY;
  else if (!at || !value_num(at, &t)) t = INFINITY;
  if (!st && strata_world_time(rt->w) >= t && strata_current_map(rt) == map) st = spawn(rt, map, err);
  if (!st && strata_current_map(rt) == map) st = renew_schedule_timer(rt, map, err);
  return st;
}

strata_status renew_timer_fired(strata_runtime *rt, const strata_value *args, strata_error *err) {
  return renew_fired(rt, args_uid(args, "map"), args, err);
}

strata_status strata_map_renew(strata_runtime *rt, uint64_t map, strata_error *err) {
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  return rt_end(rt, renew_fired(rt, map, NULL, err));
}
