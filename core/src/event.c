/*
** event.c - events: global handlers, archetype events and persisted
** subscriptions merged into one chain per emit, each handler run in a
** savepoint of its own, failures undone and reported.
**
** The chain is gathered whole before the first handler runs (a handler that
** subscribes or cancels changes the next emit, not this one), so each link
** owns copies of what it needs from the runtime and the world.
*/
#include "runtime_internal.h"
#include "strata/alloc.h"
#include "util.h"

#include <stdlib.h>

/* ---- global handlers ---- */

strata_status strata_event_on(strata_runtime *rt, const char *event, const char *name,
                              int64_t priority, const char *handler, strata_error *err) {
  if (!event || !*event || !name || !*name || !handler || !*handler)
    return strata_error_in(err, STRATA_EARG, "strata_event_on",
                           "needs an event, a name and a handler ID");
  char *e = strata_strdup(event), *n = strata_strdup(name), *h = strata_strdup(handler);
  if (!e || !n || !h) { strata_free(e); strata_free(n); strata_free(h); return strata_error_nomem(err, NULL); }
  for (size_t i = 0; i < rt->nhandlers; i++) {
    global_handler *g = &rt->handlers[i];
    if (strcmp(g->event, event) == 0 && strcmp(g->name, name) == 0) {
      strata_free(g->event); strata_free(g->name); strata_free(g->handler);
      g->event = e; g->name = n; g->handler = h;
      g->priority = priority;
      return STRATA_OK;
    }
  }
  if (!STRATA_GROW(rt->handlers, rt->handlers_cap, rt->nhandlers + 1)) {
    strata_free(e); strata_free(n); strata_free(h);
    return strata_error_nomem(err, NULL);
  }
  rt->handlers[rt->nhandlers++] = (global_handler){ e, n, h, priority };
  return STRATA_OK;
}

size_t strata_event_off(strata_runtime *rt, const char *name) {
  size_t j = 0, gone = 0;
  for (size_t i = 0; i < rt->nhandlers; i++) {
    global_handler *g = &rt->handlers[i];
    if (name && strcmp(g->name, name) == 0) {
      strata_free(g->event); strata_free(g->name); strata_free(g->handler);
      gone++;
    } else {
      rt->handlers[j++] = *g;
    }
  }
  rt->nhandlers = j;
  return gone;
}

/* ---- the chain ---- */

typedef struct link {
  char *name;                 /* orders the chain, names the handler in reports */
  int64_t priority;
  strata_logic kind;          /* EVENT: a global or archetype handler; HANDLER: a subscription */
  char *id;                   /* what the call is resolved by / reports as its ID */
  strata_callable c;          /* archetype handlers come resolved */
  int resolved;
  uint64_t subscription;
  strata_value args;          /* a subscription's args, copied */
} link;

typedef struct chain {
  link *links;
  size_t n, cap;
} chain;

static void chain_free(chain *ch) {
  for (size_t i = 0; i < ch->n; i++) {
    strata_free(ch->links[i].name);
    strata_free(ch->links[i].id);
    strata_value_clear(&ch->links[i].args);
  }
  strata_free(ch->links);
}

static link *chain_add(chain *ch, const char *name, int64_t priority, strata_logic kind,
                       const char *id, strata_error *err) {
  if (!STRATA_GROW(ch->links, ch->cap, ch->n + 1)) { strata_error_nomem(err, NULL); return NULL; }
  link *l = &ch->links[ch->n];
  memset(l, 0, sizeof *l);
  l->priority = priority;
  l->kind = kind;
  if (!(l->name = strata_strdup(name)) || !(l->id = strata_strdup(id))) {
    strata_free(l->name);
    strata_error_nomem(err, NULL);
    return NULL;
  }
  ch->n++;
  return l;
}

static strata_status gather(strata_runtime *rt, uint64_t source, const char *event, chain *ch,
                            strata_error *err) {
  for (size_t i = 0; i < rt->nhandlers; i++) {
    const global_handler *g = &rt->handlers[i];
    if (strcmp(g->event, event) == 0 &&
        !chain_add(ch, g->name, g->priority, STRATA_LOGIC_EVENT, g->handler, err))
      return STRATA_ENOMEM;
  }
  if (!source) return STRATA_OK;
  strata_object *o = strata_world_object(rt->w, source);
  if (o && o->archetype && rt->res.archetype_event) {
    strata_event_handler h;
    for (size_t i = 0; rt->res.archetype_event(rt->res.host, o->kind, o->archetype, event, i, &h);
         i++) {
      link *l = chain_add(ch, h.name ? h.name : o->archetype, h.priority, STRATA_LOGIC_EVENT,
                          o->archetype, err);
      if (!l) return STRATA_ENOMEM;
      l->c = h.handler;
      l->resolved = 1;
    }
  }
  size_t n = strata_world_subscription_count(rt->w);
  for (size_t i = 0; i < n; i++) {
    const strata_subscription *s = strata_world_subscription_at(rt->w, i);
    if (s->object != source || strcmp(s->event, event) != 0) continue;
    link *l = chain_add(ch, s->handler, s->priority, STRATA_LOGIC_HANDLER, s->handler, err);
    if (!l) return STRATA_ENOMEM;
    l->subscription = s->uid;
    strata_status st = strata_value_copy(&l->args, &s->args, err);
    if (st) return st;
  }
  return STRATA_OK;
}

static int before(const link *a, const link *b) {
  if (a->priority != b->priority) return a->priority < b->priority;
  return strcmp(a->name, b->name) < 0;
}

/* Insertion sort: stable (ties keep the order globals, archetype, subscriptions)
** and chains are short. */
static void sort_chain(chain *ch) {
  for (size_t i = 1; i < ch->n; i++) {
    link l = ch->links[i];
    size_t j = i;
    while (j > 0 && before(&l, &ch->links[j - 1])) {
      ch->links[j] = ch->links[j - 1];
      j--;
    }
    ch->links[j] = l;
  }
}

static int is_stop(const strata_value *v) {
  return v->type == STRATA_VSTRING && strcmp(v->u.str.s, "stop") == 0;
}

/* Runs one link in a savepoint; its answer goes into *result. Returns
** STRATA_OK, or the handler's failure (undone) with err filled. */
static strata_status run_link(strata_runtime *rt, link *l, uint64_t source, const char *event,
                              const strata_value *params, strata_value *result, int *stop,
                              strata_error *err) {
  strata_status st = STRATA_OK;
  if (!l->resolved) {
    st = rt_resolve(rt, l->kind, l->id, &l->c, err);
    if (!st && !l->c.fn)
      st = strata_error_set(err, STRATA_ENOTFOUND, "%s '%s' has no function",
                            l->kind == STRATA_LOGIC_HANDLER ? "base.handler" : "event handler", l->id);
    l->resolved = 1;
    if (st) return st;
  }
  strata_call call;
  rt_call_init(&call, rt, l->kind, l->id);
  call.source = source;
  call.event = event;
  call.params = params;
  call.args = l->subscription ? &l->args : NULL;
  call.result = result;
  st = rt_call_atomic(rt, &l->c, &call, l->name, err);
  if (!st) {
    if (is_stop(&call.ret)) *stop = 1;
    else if (call.ret.type != STRATA_VNIL) {
      strata_value_clear(result);
      *result = call.ret;
      call.ret = strata_value_nil();
    }
    if (call.stop) *stop = 1;
  }
  strata_value_clear(&call.ret);
  return st;
}

static strata_status emit_chain(strata_runtime *rt, uint64_t source, const char *event,
                                const strata_value *params, const strata_value *dflt,
                                strata_value *result, strata_failures *also, strata_error *err) {
  chain ch = { NULL, 0, 0 };
  strata_failures failures = { NULL, 0, 0 };
  strata_value res = strata_value_nil();
  strata_status st = gather(rt, source, event, &ch, err);
  if (!st && dflt) st = strata_value_copy(&res, dflt, err);
  if (st) { chain_free(&ch); return st; }
  sort_chain(&ch);
  int stop = 0;
  for (size_t i = 0; i < ch.n && !stop; i++) {
    strata_error herr;
    strata_error_clear(&herr);
    link *l = &ch.links[i];
    if (run_link(rt, l, source, event, params, &res, &stop, &herr) == STRATA_OK) continue;
    if (herr.status == STRATA_ENOMEM && !herr.message[0]) strata_error_nomem(&herr, NULL);
    failures_push(&failures, 0, l->subscription, event, l->name, l->c.mod, strata_runtime_failure_text(rt, &herr));
  }
  chain_free(&ch);
  event_report(rt, &failures);
  for (size_t i = 0; also && i < failures.n; i++) {
    const strata_failure *x = &failures.items[i];
    if (failures_push(also, 0, x->subscription, x->event, x->handler, x->mod, x->message)) {
      strata_failures_clear(&failures);
      strata_value_clear(&res);
      return strata_error_nomem(err, NULL);
    }
  }
  strata_failures_clear(&failures);
  if (result) *result = res;
  else strata_value_clear(&res);
  return STRATA_OK;
}

strata_status event_emit(strata_runtime *rt, uint64_t source, const char *event,
                         const strata_value *params, const strata_value *dflt,
                         strata_value *result, strata_error *err) {
  return emit_chain(rt, source, event, params, dflt, result, NULL, err);
}

strata_status event_emit_into(strata_runtime *rt, uint64_t source, const char *event,
                              const strata_value *params, strata_failures *also, strata_error *err) {
  return emit_chain(rt, source, event, params, NULL, NULL, also, err);
}

/* The events the core emits itself: declared by definition. */
static int core_event(const char *event) {
  static const char *const core[] = { "base.map_entered", "base.map_left", "base.before_travel",
                                      "base.floor_generated", "base.handler_failed",
                                      "base.object_created", "base.object_deleted",
                                      "base.before_move", "base.moved", "base.branch_message",
                                      "base.turn_started" };
  for (size_t i = 0; i < sizeof core / sizeof *core; i++)
    if (strcmp(event, core[i]) == 0) return 1;
  return 0;
}

strata_status strata_emit(strata_runtime *rt, uint64_t source, const char *event,
                          const strata_value *params, const strata_value *dflt,
                          strata_value *result, strata_error *err) {
  if (result) *result = strata_value_nil();
  if (!event || !*event) return strata_error_in(err, STRATA_EARG, "strata_emit", "no event");
  if (!core_event(event) && rt->res.event_declared &&
      !rt->res.event_declared(rt->res.host, event))
    return strata_error_in(err, STRATA_ENOTFOUND, "strata_emit", "unknown base.event '%s'", event);
  if (source && !strata_world_object(rt->w, source))
    return strata_error_refuse(err, STRATA_ENOTFOUND, "strata_emit", STRATA_REFUSED_DELETED, source,
                               "no object #%llu (deleted or never created)", (unsigned long long)source);
  return event_emit(rt, source, event, params, dflt, result, err);
}

/* ---- failures ---- */

strata_status failures_push(strata_failures *f, uint64_t timer, uint64_t subscription,
                            const char *event, const char *handler, const char *mod,
                            const char *message) {
  if (!f) return STRATA_OK;
  if (!STRATA_GROW(f->items, f->cap, f->n + 1)) return STRATA_ENOMEM;
  strata_failure *x = &f->items[f->n];
  x->timer = timer;
  x->subscription = subscription;
  x->event = strata_strdup(event);
  x->handler = strata_strdup(handler);
  x->mod = strata_strdup(mod);
  x->message = strata_strdup(message ? message : "");
  x->has_dropped = 0;
  x->dropped = 0;
  if ((event && !x->event) || (handler && !x->handler) || (mod && !x->mod) || !x->message) {
    strata_free(x->event); strata_free(x->handler); strata_free(x->mod); strata_free(x->message);
    return STRATA_ENOMEM;
  }
  f->n++;
  return STRATA_OK;
}

void event_report(strata_runtime *rt, const strata_failures *f) {
  if (!f || f->n == 0 || rt->reporting) return;
  rt->reporting = 1;
  for (size_t i = 0; i < f->n; i++) {
    const strata_failure *x = &f->items[i];
    strata_value p = strata_value_nil();
    if (strata_value_table(&p, NULL)) break;
    strata_status st = STRATA_OK;
    if (x->timer) st = params_int(&p, "timer", (int64_t)x->timer, NULL);
    if (!st && x->subscription) st = params_int(&p, "subscription", (int64_t)x->subscription, NULL);
    if (!st) st = params_str(&p, "event", x->event, NULL);
    if (!st) st = params_str(&p, "handler", x->handler, NULL);
    if (!st) st = params_str(&p, "mod", x->mod, NULL);
    if (!st) st = params_str(&p, "message", x->message, NULL);
    if (!st && x->has_dropped) {
      strata_value k = K("dropped"), v = strata_value_float(x->dropped);
      st = strata_vtable_set(p.u.t, &k, &v, NULL);
    }
    if (!st) event_emit(rt, 0, "base.handler_failed", &p, NULL, NULL, NULL);
    strata_value_clear(&p);
  }
  rt->reporting = 0;
}
