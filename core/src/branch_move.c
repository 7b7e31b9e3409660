/*
** branch_move.c - branches as actors go through them (move.h, branch.h):
** the rules of their exits, the first crossing that makes a branch and its
** rooms, the timers of a branch (idle collapse, start exit resets) and its
** collapse.
**
** A branch archetype is the host's definition (the resolver's
** branch_archetype), read when a branch is made and each time one of its
** timers runs, so that a reloaded definition holds from then on.
*/
#include "runtime_internal.h"
#include "strata/alloc.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "strata/branch.h"
#include "strata/room.h"

static const char *const default_dirs[] = { "north", "east", "south", "west" };

/* What a player is told (base.branch_message), in the reference's words; a
** game that wants its own words answers the event by its kind. */
static const struct { const char *kind, *text; } messages[] = {
  { "blocked", "The path forwards is blocked!" },
  { "not_clear", "You can't get through this way yet!" },
  { "team_up", "You sense that if you want to team up, you must all pick the same path from here ... "
               "or you'll quickly get separated." },
  { "collapse", "After a long time of silence, the room suddenly rumbles and then collapses! All turns dark ..."
                "\n\nThen you realize you are back where you started." },
  { "stumble", "Suddenly someone stumbles out of a dark exit, covered in dust!" } };
enum { SAY_BLOCKED, SAY_NOT_CLEAR, SAY_TEAM_UP, SAY_COLLAPSE, SAY_STUMBLE };

/* base.branch_message on source: { actor =, room =, kind =, text = }. */
static strata_status say(strata_runtime *rt, uint64_t source, uint64_t actor, uint64_t room, int which,
                         strata_error *err) {
  strata_value p;
  strata_status st = strata_value_table(&p, err);
  if (st) return st;
  st = params_ref(&p, "actor", actor, err);
  if (!st) st = params_ref(&p, "room", room, err);
  if (!st) st = params_str(&p, "kind", messages[which].kind, err);
  if (!st) st = params_str(&p, "text", messages[which].text, err);
  if (!st) st = event_emit(rt, source, "base.branch_message", &p, NULL, NULL, err);
  strata_value_clear(&p);
  return st;
}

/* A hub: a room with a start exit. */
static int is_hub(const strata_world *w, uint64_t room) {
  size_t n = strata_room_exit_count(w, room);
  for (size_t i = 0; i < n; i++)
    if (strata_branch_start_archetype(w, strata_room_exit_at(w, room, i))) return 1;
  return 0;
}

strata_status branch_arrived(strata_runtime *rt, uint64_t actor, strata_error *err) {
  uint64_t room = strata_room_of(rt->w, actor);
  if (!room) return STRATA_OK;
  if (strata_branch_of(rt->w, room))
    return strata_branch_room_clear(rt->w, room) ? STRATA_OK : say(rt, actor, actor, room, SAY_BLOCKED, err);
  return is_hub(rt->w, room) ? say(rt, actor, actor, room, SAY_TEAM_UP, err) : STRATA_OK;
}

static strata_status archetype(strata_runtime *rt, const char *id, const strata_branch_def **out,
                               strata_error *err) {
  if (!rt->res.branch_archetype)
    return strata_error_set(err, STRATA_ENOTFOUND, "unknown base.branch_archetype '%s'", id);
  strata_status st = rt->res.branch_archetype(rt->res.host, id, out, err);
  if (st) return st;
  const strata_branch_def *a = *out;
  if (a->max_idle < 0 || !isfinite(a->max_idle))
    return strata_error_set(err, STRATA_EARG, "branch archetype '%s': max_idle must be a number > 0, got %g", id, a->max_idle);
  if (a->reset_every < 0 || !isfinite(a->reset_every))
    return strata_error_set(err, STRATA_EARG, "branch archetype '%s': start_exit_reset.every must be a number > 0, got %g",
                            id, a->reset_every);
  if (!(a->reset_chance >= 0 && a->reset_chance <= 1))
    return strata_error_set(err, STRATA_EARG, "branch archetype '%s': start_exit_reset.chance must be between 0 and 1, got %g",
                            id, a->reset_chance);
  return STRATA_OK;
}

/* A repeating timer of the branch: `handler` with args { branch =, exit = }. */
static strata_status branch_timer(strata_runtime *rt, const char *handler, double every, uint64_t b, uint64_t exit,
                                  uint64_t *timer, strata_error *err) {
  strata_value args;
  strata_status st = strata_value_table(&args, err);
  if (st) return st;
  if (exit) st = params_ref(&args, "exit", exit, err);
  if (!st) st = params_ref(&args, "branch", b, err);
  if (!st) st = strata_world_schedule(rt->w, strata_world_time(rt->w) + every, every, handler, &args, timer, err);
  strata_value_clear(&args);
  return st;
}

/* A new branch of archetype `id` through the start exit e of hub, with its timers. */
static strata_status new_branch(strata_runtime *rt, uint64_t hub, uint64_t e, const char *id, uint64_t *b,
                                strata_error *err) {
  const strata_branch_def *a;
  strata_status st = archetype(rt, id, &a, err);
  if (st) return st;
  strata_branch_rules r = { id, a->dirs ? a->dirs : default_dirs, a->dirs ? a->ndirs : 4,
                            a->max_unexplored ? a->max_unexplored : 4, a->max_new ? a->max_new : 2,
                            a->room_generator };
  double idle = a->max_idle, reset = a->reset_every; /* (a may not outlive a call into the host) */
  if ((st = strata_branch_create(rt->w, &r, hub, b, err))) return st;
  strata_value timers, resets, k = K("resets");
  if ((st = strata_value_table(&timers, err))) return st;
  if (!(st = strata_value_table(&resets, err)) && (st = strata_vtable_set(timers.u.t, &k, &resets, err)))
    strata_value_clear(&resets);
  uint64_t t;
  if (!st && idle > 0 && !(st = branch_timer(rt, "base.branch_idle", idle, *b, 0, &t, err))) {
    strata_value ki = K("idle"), v = strata_value_int((int64_t)t);
    st = strata_vtable_set(timers.u.t, &ki, &v, err);
  }
  if (!st && reset > 0 && !(st = branch_timer(rt, "base.branch_reset", reset, *b, e, &t, err))) {
    strata_value k1 = strata_value_int(1), v = strata_value_int((int64_t)t);
    st = strata_vtable_set(strata_vtable_get_str(timers.u.t, "resets")->u.t, &k1, &v, err);
  }
  if (!st) return record_put(rt->w, *b, SYS_RECORD_BRANCH_TIMERS, NULL, &timers, err);
  strata_value_clear(&timers);
  return st;
}

/* The first crossing of e: the branch (through a start exit), its room, the
** move; a refused move undoes the rest (a savepoint of its own). */
static strata_status first_crossing(strata_runtime *rt, uint64_t actor, uint64_t here, uint64_t e,
                                    const char *start, uint64_t b, strata_move_outcome *out, strata_error *err) {
  uint64_t room = 0;
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  if (start) st = new_branch(rt, here, e, start, &b, err);
  if (!st) st = strata_branch_generate(rt, b, e, &room, err);
  if (!st) st = move_enter(rt, actor, here, room, e, out, err);
  if (!st && out->refusal) {
    rt_end(rt, STRATA_ESTATE); /* refused: nothing made */
    return STRATA_OK;
  }
  if (!st) st = strata_branch_acted(rt->w, b, err);
  return rt_end(rt, st);
}

strata_status branch_go(strata_runtime *rt, uint64_t actor, uint64_t here, uint64_t e, int *handled,
                        strata_move_outcome *out, strata_error *err) {
  strata_world *w = rt->w;
  const char *s = strata_branch_start_archetype(w, e);
  uint64_t hb = strata_branch_of(w, here);
  *handled = s || hb;
  if (!*handled) return STRATA_OK;
  /* copied: making the branch changes the values it points into */
  char start[256];
  if (s && strlen(s) >= sizeof start)
    return strata_error_in(err, STRATA_EARG, "strata_go", "branch archetype ID too long");
  if (s) memcpy(start, s, strlen(s) + 1);
  strata_status st = STRATA_OK;
  if (hb && (st = strata_branch_acted(w, hb, err))) return st; /* moving is acting, even refused */
  if (!strata_branch_may_cross(w, e)) {
    move_refuse(out, STRATA_MOVE_NOT_CLEAR, "the way is blocked: this room is not clear yet");
    return say(rt, actor, actor, here, SAY_NOT_CLEAR, err);
  }
  uint64_t to = strata_exit_to(w, e);
  if (!to) return first_crossing(rt, actor, here, e, s ? start : NULL, hb, out, err);
  if ((st = move_enter(rt, actor, here, to, e, out, err)) || out->refusal) return st;
  uint64_t tb = strata_branch_of(w, to);
  return tb ? strata_branch_acted(w, tb, err) : STRATA_OK;
}

/* ---- collapse and the timers ---- */

static void cancel_timers(strata_runtime *rt, uint64_t b) {
  strata_value ki = K("idle"), kr = K("resets");
  uint64_t idle = value_uid(record_get(rt->w, b, SYS_RECORD_BRANCH_TIMERS, &ki));
  if (idle) strata_world_cancel(rt->w, idle, NULL); /* gone already: nothing to cancel */
  const strata_value *resets = record_get(rt->w, b, SYS_RECORD_BRANCH_TIMERS, &kr);
  for (size_t i = 0; resets && resets->type == STRATA_VTABLE && i < resets->u.t->n; i++) {
    const strata_value *v = &resets->u.t->vals[i];
    if (v->type == STRATA_VINT && v->u.i > 0) strata_world_cancel(rt->w, (uint64_t)v->u.i, NULL);
  }
}

static strata_status collapse(strata_runtime *rt, uint64_t b, strata_error *err) {
  strata_world *w = rt->w;
  uint64_t hub = strata_branch_hub(w, b);
  size_t n = strata_branch_members(w, b, NULL, 0);
  uint64_t *members = strata_malloc((n ? n : 1) * sizeof *members);
  if (!members) return strata_error_nomem(err, NULL);
  n = strata_branch_members(w, b, members, n);
  strata_status st = STRATA_OK;
  for (size_t i = 0; i < n && !st; i++) {
    strata_move_outcome out;
    move_refuse(&out, STRATA_MOVE_OK, "");
    st = move_enter(rt, members[i], strata_room_of(w, members[i]), hub, 0, &out, err);
    char m[48];
    if (!st && out.refusal)
      st = strata_error_set(err, STRATA_ESTATE, "branch#%" PRIu64 " cannot collapse: %s refused to leave (%s)", b,
                            rt_label(rt, members[i], m), out.reason);
    if (!st) st = say(rt, members[i], members[i], hub, SAY_COLLAPSE, err);
    if (!st) st = say(rt, hub, members[i], hub, SAY_STUMBLE, err);
  }
  strata_free(members);
  if (st) return st;
  cancel_timers(rt, b);
  return strata_branch_delete(w, b, err);
}

strata_status strata_branch_collapse(strata_runtime *rt, uint64_t b, strata_error *err) {
  if (!strata_is_branch(rt->w, b))
    return strata_error_in(err, STRATA_ENOTFOUND, "strata_branch_collapse", "#%" PRIu64 " is no live branch", b);
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  return rt_end(rt, collapse(rt, b, err));
}

/* base.branch_idle: collapses the branch when no member acted for max_idle. */
strata_status branch_idle_fired(strata_call *call, void *data, strata_error *err) {
  (void)data;
  strata_runtime *rt = call->rt;
  uint64_t b = args_uid(call->args, "branch");
  if (!strata_is_branch(rt->w, b)) return STRATA_OK;
  const strata_branch_def *a;
  strata_status st = archetype(rt, strata_branch_archetype(rt->w, b), &a, err);
  if (st) return st;
  double idle = a->max_idle;
  if (idle > 0 && strata_world_time(rt->w) - strata_branch_last_act(rt->w, b) >= idle) return collapse(rt, b, err);
  return STRATA_OK;
}

/* base.branch_reset: with the archetype's chance, unbinds the start exit from
** the branch, so that the next one through makes a new branch; the timer
** ends with it, or when the exit leads elsewhere already. */
strata_status branch_reset_fired(strata_call *call, void *data, strata_error *err) {
  (void)data;
  strata_runtime *rt = call->rt;
  strata_world *w = rt->w;
  uint64_t e = args_uid(call->args, "exit"), b = args_uid(call->args, "branch");
  uint64_t to = strata_is_exit(w, e) ? strata_exit_to(w, e) : 0;
  if (!(strata_is_branch(w, b) && to && strata_branch_of(w, to) == b)) {
    if (call->timer) strata_world_cancel(w, call->timer, NULL);
    return STRATA_OK;
  }
  const strata_branch_def *a;
  strata_status st = archetype(rt, strata_branch_archetype(w, b), &a, err);
  if (st) return st;
  double chance = a->reset_every > 0 ? a->reset_chance : 1;
  char key[64];
  snprintf(key, sizeof key, "branch#%" PRIu64 " reset", b);
  strata_rng r;
  if ((st = strata_world_stream(w, key, &r, err))) return st;
  int hit = strata_rng_chance(&r, chance);
  if ((st = strata_world_set_stream(w, key, &r, err))) return st;
  if (!hit) return STRATA_OK;
  if ((st = strata_exit_set_to(w, e, 0, err))) return st;
  if (call->timer) strata_world_cancel(w, call->timer, NULL);
  return STRATA_OK;
}
