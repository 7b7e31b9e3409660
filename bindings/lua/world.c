/*
** world.c - the world's state as seen from Lua: a "strata.world_state"
** userdata over strata_world. The handles, registry and events of
** lua/strata/world.lua sit on top of it.
**
** Conversion Lua -> strata_value is where the serializability rule is
** enforced: functions, coroutines, foreign userdata, cyclic tables and
** tables with metatables other than handles are refused with the key path.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lguard.h"
#include "lstrata.h"
#include "ltilemap.h"
#include "ltokens.h"
#include "lworld.h"

#define WORLD_MT "strata.world_state"

typedef struct lworld {
  strata_world *w; /* NULL once closed */
  int served;      /* owned by a serve handle (uservalue 2), which frees it: never freed here */
} lworld;

static strata_world *check_world(lua_State *L, int arg) {
  lworld *lw = lstrata_checkudata(L, arg, WORLD_MT);
  if (!lw->w) lstrata_argerror(L, arg, lw->served ? LSTRATA_WORLD_CLOSED : "world is closed");
  return lw->w;
}

strata_world *const *lstrata_world_slot(lua_State *L, int idx) {
  lworld *lw = luaL_testudata(L, idx, WORLD_MT);
  return lw ? &lw->w : NULL;
}

strata_world *lstrata_check_world(lua_State *L, int arg) { return check_world(L, arg); }

strata_world *lstrata_to_world(lua_State *L, int idx) {
  lworld *lw = luaL_testudata(L, idx, WORLD_MT);
  return lw ? lw->w : NULL;
}

static uint64_t check_uid(lua_State *L, int arg) {
  lua_Integer u = lstrata_checkinteger(L, arg);
  lstrata_argcheck(L, u > 0, arg, "uid must be positive");
  return (uint64_t)u;
}

static void push_world(lua_State *L, strata_world *w) {
  lworld *lw = lua_newuserdatauv(L, sizeof *lw, 2);
  lw->w = w;
  lw->served = 0;
  luaL_setmetatable(L, WORLD_MT);
}

void lstrata_push_served_world(lua_State *L, strata_world *w, int owner) {
  owner = lua_absindex(L, owner);
  push_world(L, w);
  ((lworld *)lua_touserdata(L, -1))->served = 1;
  lua_pushvalue(L, owner);
  lua_setiuservalue(L, -2, 2);
}

void lstrata_world_gone(lua_State *L, int idx) {
  lworld *lw = luaL_testudata(L, idx, WORLD_MT);
  if (lw) lw->w = NULL;
}

/* ---- Lua -> value ---------------------------------------------------------- */

typedef struct conv {
  lua_State *L;
  strata_world *w;
  int seen;           /* stack index of a table of tables being converted */
} conv;

/* Raises "<label><path>: <why>". The path is kept as a Lua string on the stack. */
static int conv_error(lua_State *L, int path, const char *why) {
  /* No position: the Lua caller adds the one of the offending assignment. */
  lua_pushfstring(L, "%s: %s", lua_tostring(L, path), why);
  return lua_error(L);
}

static void push_child_path(lua_State *L, int path, int key) {
  if (lua_type(L, key) == LUA_TSTRING) lua_pushfstring(L, "%s.%s", lua_tostring(L, path), lua_tostring(L, key));
  else lua_pushfstring(L, "%s[%I]", lua_tostring(L, path), (LUAI_UACINT)lua_tointeger(L, key));
}

static void to_value(conv *c, int idx, int path, strata_value *out, int depth);

/* The Lua types that state may hold besides plain data, registered by
** strata.world (types()): handles (stored as references) and persistent-table
** proxies (copied). A value is one of them when its metatable *is* the
** registered one: nothing a table can put in its own metatable counts. */
static const char HANDLE_MT = 'h', HANDLE_UID = 'u', PROXY_MT = 'p', PROXY_SNAPSHOT = 's';
/* strata's metatables (strata.private's `protected`): their objects cross
** the border as themselves (they hold no fields a mod could fill). */
static const char PROTECTED = 'P';

static int registered_type(lua_State *L, int idx, const void *key) {
  if (!lua_getmetatable(L, idx)) return 0;
  lua_rawgetp(L, LUA_REGISTRYINDEX, key);
  int same = !lua_isnil(L, -1) && lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same;
}

/* Whether the table registered as `key` holds the metatable at idx_mt as a key. */
static int in_registered_set(lua_State *L, int idx_mt, const void *key) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) != LUA_TTABLE) { lua_pop(L, 1); return 0; }
  lua_pushvalue(L, idx_mt);
  int in = lua_rawget(L, -2) != LUA_TNIL;
  lua_pop(L, 2);
  return in;
}

/* Whether the metatable of the value at idx is a key of the table
** registered as `key` (handles have one metatable a kind). */
static int registered_kind(lua_State *L, int idx, const void *key) {
  if (!lua_getmetatable(L, idx)) return 0;
  int in = in_registered_set(L, lua_gettop(L), key);
  lua_pop(L, 1);
  return in;
}

/* Calls the registered function `key` on the value at idx; leaves its nres results. */
static void call_registered(lua_State *L, int idx, const void *key, int nres) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, key);
  lua_pushvalue(L, idx);
  lua_call(L, 1, nres);
}

/* The uid of the handle at idx (0: none) and its world (NULL: gone), by
** strata.handle's registered function. */
static lua_Integer handle_uid(lua_State *L, int idx, strata_world **world) {
  call_registered(L, idx, &HANDLE_UID, 2);
  int isint = 0;
  lua_Integer u = lua_tointegerx(L, -2, &isint);
  *world = lstrata_to_world(L, -1);
  lua_pop(L, 2);
  return isint ? u : 0;
}

static void out_of_memory(lua_State *L, strata_error *err) {
  lstrata_raise(L, NULL, err);
}

/* The words of the core's refusal (strata_value_check_depth), at the key path. */
static int too_deep(lua_State *L, int path) {
  return conv_error(L, path, lua_pushfstring(L, "tables nested deeper than %d levels (the limit of a saved value)",
                                             STRATA_VALUE_MAX_DEPTH));
}

static void table_to_value(conv *c, int idx, int path, strata_value *out, int depth) {
  lua_State *L = c->L;
  strata_error err;
  /* Each level holds about ten slots (key, value, path, holder, ...): a
  ** table 20 deep overran the stack Lua guarantees a C function. */
  if (!lua_checkstack(L, 16)) conv_error(L, path, "stack overflow");
  lua_pushvalue(L, idx);
  if (lua_rawget(L, c->seen) != LUA_TNIL)
    conv_error(L, path, "cannot store a cyclic table (a table that contains itself)");
  lua_pop(L, 1);
  lua_pushvalue(L, idx);
  lua_pushboolean(L, 1);
  lua_rawset(L, c->seen);
  /* The result lives in a to-be-closed userdata so that an error mid-way frees it. */
  strata_value *tv = lua_newuserdatauv(L, sizeof *tv, 0);
  *tv = strata_value_nil();
  int holder = lua_gettop(L);
  luaL_getmetatable(L, "strata.value_holder");
  lua_setmetatable(L, holder);
  if (strata_value_table(tv, &err)) out_of_memory(L, &err);
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    int key = lua_gettop(L) - 1, val = key + 1;
    strata_value k = strata_value_nil(), v = strata_value_nil();
    if (depth + 1 > STRATA_VALUE_MAX_DEPTH) too_deep(L, path); /* its keys and values are one deeper */
    if (lua_type(L, key) == LUA_TSTRING) {
      size_t len;
      const char *s = lua_tolstring(L, key, &len);
      if (strata_value_string(&k, s, len, &err)) out_of_memory(L, &err);
    } else if (lua_isinteger(L, key)) {
      k = strata_value_int(lua_tointeger(L, key));
    } else {
      /* Two statements: the order of a call's arguments is unspecified in C. */
      lua_pushfstring(L, "%s[%s]", lua_tostring(L, path), luaL_tolstring(L, key, NULL));
      int bad = lua_gettop(L);
      conv_error(L, bad, lua_pushfstring(L, "table keys must be strings or integers, got %s",
                                         lua_isnumber(L, key) ? "a float" : luaL_typename(L, key)));
    }
    /* Keep k owned by the table before converting v (which may raise). */
    strata_value placeholder = strata_value_bool(0);
    if (strata_vtable_set(tv->u.t, &k, &placeholder, &err)) { strata_value_clear(&k); out_of_memory(L, &err); }
    push_child_path(L, path, key);
    to_value(c, val, lua_gettop(L), &v, depth + 1);
    lua_pop(L, 1);
    if (v.type == STRATA_VNIL) v = strata_value_bool(0); /* unreachable: next never yields nil */
    strata_vtable_set(tv->u.t, &k, &v, &err); /* replaces in place: cannot fail */
    strata_value_clear(&k);
    lua_pop(L, 1);
  }
  *out = *tv;
  *tv = strata_value_nil();
  lua_pop(L, 1); /* holder */
  lua_pushvalue(L, idx);
  lua_pushnil(L);
  lua_rawset(L, c->seen);
}

static void to_value(conv *c, int idx, int path, strata_value *out, int depth) {
  lua_State *L = c->L;
  strata_error err;
  idx = lua_absindex(L, idx);
  if (depth > STRATA_VALUE_MAX_DEPTH) too_deep(L, path);
  switch (lua_type(L, idx)) {
  case LUA_TNIL: *out = strata_value_nil(); return;
  case LUA_TBOOLEAN: *out = strata_value_bool(lua_toboolean(L, idx)); return;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) *out = strata_value_int(lua_tointeger(L, idx));
    else *out = strata_value_float(lua_tonumber(L, idx));
    return;
  case LUA_TSTRING: {
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    if (strata_value_string(out, s, len, &err)) out_of_memory(L, &err);
    return;
  }
  case LUA_TTABLE:
    if (lua_getmetatable(L, idx)) {
      lua_pop(L, 1);
      if (registered_kind(L, idx, &HANDLE_MT)) {
        strata_world *of;
        lua_Integer u = handle_uid(L, idx, &of);
        /* a uid alone would name whatever object has it in this world */
        if (of != c->w) conv_error(L, path, "cannot store a handle of another world");
        if (u <= 0 || !strata_world_object(c->w, (uint64_t)u))
          conv_error(L, path, "cannot store a handle to a deleted object");
        *out = strata_value_ref((uint64_t)u);
        return;
      }
      if (registered_type(L, idx, &PROXY_MT)) {
        /* A persistent table stored elsewhere: copy what it holds now. */
        call_registered(L, idx, &PROXY_SNAPSHOT, 1);
        if (lua_type(L, -1) != LUA_TTABLE || lua_getmetatable(L, -1))
          conv_error(L, path, "a persistent table that is gone cannot be stored");
        table_to_value(c, lua_gettop(L), path, out, depth);
        lua_pop(L, 1);
        return;
      }
      conv_error(L, path, "cannot store a table with a metatable (state holds plain data)");
    }
    table_to_value(c, idx, path, out, depth);
    return;
  case LUA_TFUNCTION:
    conv_error(L, path, "cannot store a function; register it with data:add and store its ID");
    return;
  case LUA_TTHREAD:
    conv_error(L, path, "cannot store a coroutine; state holds only data and IDs");
    return;
  default:
    conv_error(L, path, lua_pushfstring(L, "cannot store a %s; state holds only data, handles and IDs",
                                        luaL_typename(L, idx)));
  }
}

/* Converts the value at idx, to be set `level` keys deep; label names
** where it goes ("actor#2 state.x"). */
static void check_value_at(lua_State *L, strata_world *w, int idx, const char *label, strata_value *out,
                           int level) {
  idx = lua_absindex(L, idx);
  conv c = { L, w, 0 };
  lstrata_checkstack(L, 8, label);
  lua_newtable(L);
  c.seen = lua_gettop(L);
  lua_pushstring(L, label);
  to_value(&c, idx, lua_gettop(L), out, level);
  lua_pop(L, 2);
}

void lstrata_check_value(lua_State *L, strata_world *w, int idx, const char *label, strata_value *out) {
  check_value_at(L, w, idx, label, out, 0);
}

static int holder_gc(lua_State *L) {
  strata_value *v = lua_touserdata(L, 1);
  strata_value_clear(v);
  return 0;
}

/* ---- the border: what comes back from mod code ------------------------------- */
/* Whatever mod code hands the host (a callback's results, a patched entry, a
** schema) is copied here, while the callback's budget is open, so that the
** host never keeps a mod's table: raw reads only (lua_next), so no __index,
** __pairs, __len or __eq of the mod's runs; the copy has no metatable. What
** crosses as itself: nil, booleans, numbers, strings, strata's own objects
** (handles, persistent tables, world views: their metatables are strata's,
** registered by world_state.types) and strata's userdata (streams, maps);
** functions only where the copy is a definition. A table with a metatable of
** its own is copied raw, or refused for a definition (`strict`). */
#define BORDER_MAX_ENTRIES ((lua_Integer)1 << 22)

typedef struct border {
  lua_State *L;
  const char *what, *label;  /* "<what>: <label><path>: why" */
  int functions, strict;
  strata_world *w;           /* handles must be this world's (NULL: any world's) */
  int seen;                  /* tables being copied (a cycle is refused) */
  lua_Integer entries;
  int keys[STRATA_VALUE_MAX_DEPTH + 2]; /* stack index of the key at each level */
} border;

static int border_error(border *b, int depth, const char *why) {
  lua_State *L = b->L;
  lua_checkstack(L, depth + 4);
  int base = lua_gettop(L);
  lua_pushstring(L, b->what);
  int named = *b->label != '\0'; /* "what: label.k[2]: why", or "what: k[2]: why" */
  if (named) lua_pushfstring(L, ": %s", b->label);
  for (int i = 0; i < depth; i++) {
    int k = b->keys[i];
    const char *sep = named ? "" : ": ";
    if (lua_type(L, k) == LUA_TSTRING) lua_pushfstring(L, "%s%s", named ? "." : ": ", lua_tostring(L, k));
    else if (lua_isinteger(L, k)) lua_pushfstring(L, "%s[%I]", sep, (LUAI_UACINT)lua_tointeger(L, k));
    else if (lua_type(L, k) == LUA_TNUMBER) lua_pushfstring(L, "%s[%f]", sep, lua_tonumber(L, k));
    else lua_pushfstring(L, "%s[%s]", sep, luaL_typename(L, k));
    named = 1;
  }
  lua_pushfstring(L, ": %s", why);
  lua_concat(L, lua_gettop(L) - base);
  return lua_error(L);
}

static int strata_userdata(lua_State *L, int idx) {
  if (!lua_getmetatable(L, idx)) return 0;
  lua_pushliteral(L, "__metatable");
  lua_rawget(L, -2);
  const char *name = lua_tostring(L, -1);
  int mine = name && strncmp(name, "strata.", 7) == 0; /* (mods cannot make userdata) */
  lua_pop(L, 2);
  return mine;
}

static void border_copy(border *b, int idx, int depth);

static void border_table(border *b, int idx, int depth) {
  lua_State *L = b->L;
  if (lua_getmetatable(L, idx)) {
    int strata = in_registered_set(L, lua_gettop(L), &PROTECTED) || registered_kind(L, idx, &HANDLE_MT) ||
                 registered_type(L, idx, &PROXY_MT);
    lua_pop(L, 1);
    if (strata) {
      strata_world *of;
      if (b->w && registered_kind(L, idx, &HANDLE_MT) && (handle_uid(L, idx, &of), of != b->w))
        border_error(b, depth, "a handle of another world");
      lua_pushvalue(L, idx);
      return;
    }
    if (b->strict)
      border_error(b, depth, b->functions ? "holds a table with a metatable: definitions hold plain data, functions and strata's values"
                                          : "holds a table with a metatable: only plain data, handles and IDs cross to the host");
  }
  if (depth > STRATA_VALUE_MAX_DEPTH)
    border_error(b, depth, lua_pushfstring(L, "tables nested deeper than %d levels", STRATA_VALUE_MAX_DEPTH));
  if (!lua_checkstack(L, 8)) border_error(b, depth, "stack overflow");
  lua_pushvalue(L, idx);
  if (lua_rawget(L, b->seen) != LUA_TNIL) border_error(b, depth, "a table that contains itself");
  lua_pop(L, 1);
  lua_pushvalue(L, idx);
  lua_pushboolean(L, 1);
  lua_rawset(L, b->seen);
  lua_newtable(L);
  int out = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) { /* raw: no __pairs */
    int key = lua_gettop(L) - 1;
    b->keys[depth] = key;
    if (++b->entries > BORDER_MAX_ENTRIES)
      border_error(b, depth + 1, lua_pushfstring(L, "more than %I entries", (LUAI_UACINT)BORDER_MAX_ENTRIES));
    if ((b->entries & 1023) == 0) lstrata_guard_charge(L, 1024); /* a big copy stops with the budget */
    int kt = lua_type(L, key);
    if (kt != LUA_TSTRING && kt != LUA_TNUMBER && kt != LUA_TBOOLEAN)
      border_error(b, depth + 1, lua_pushfstring(L, "a %s as a key (keys are strings, numbers or booleans)",
                                                 luaL_typename(L, key)));
    border_copy(b, key + 1, depth + 1);
    lua_pushvalue(L, key);
    lua_insert(L, -2);
    lua_rawset(L, out);
    lua_pop(L, 1);
  }
  lua_pushvalue(L, idx);
  lua_pushnil(L);
  lua_rawset(L, b->seen);
}

/* Pushes the copy of the value at idx (absolute). */
static void border_copy(border *b, int idx, int depth) {
  lua_State *L = b->L;
  switch (lua_type(L, idx)) {
  case LUA_TNIL: case LUA_TBOOLEAN: case LUA_TNUMBER: case LUA_TSTRING:
    lua_pushvalue(L, idx);
    return;
  case LUA_TTABLE:
    border_table(b, idx, depth);
    return;
  case LUA_TFUNCTION:
    if (b->functions) { lua_pushvalue(L, idx); return; }
    border_error(b, depth, "a function cannot cross to the host (only data, handles and IDs)");
    return;
  case LUA_TUSERDATA:
    if (strata_userdata(L, idx)) { lua_pushvalue(L, idx); return; }
    break;
  default:
    break;
  }
  border_error(b, depth, lua_pushfstring(L, "a %s cannot cross to the host (only data, handles and IDs)",
                                         luaL_typename(L, idx)));
}

/* Replaces the n values from `first` by their copies; flags: "f" functions
** cross (definitions), "m" a table with a metatable of its own is refused
** instead of copied raw. Errors read "<what>: <label><key path>: <why>"
** (with "#n" after the label for the n-th of several values). */
static void border_values(lua_State *L, int first, int n, const char *what, const char *label, const char *flags,
                          strata_world *w) {
  border b;
  memset(&b, 0, sizeof b);
  b.L = L;
  b.w = w;
  b.what = what;
  b.functions = strchr(flags, 'f') != NULL;
  b.strict = strchr(flags, 'm') != NULL;
  lstrata_checkstack(L, 8, what);
  lua_newtable(L);
  b.seen = lua_gettop(L);
  for (int i = 0; i < n; i++) {
    b.label = n > 1 ? lua_pushfstring(L, "%s#%d", label, i + 1) : lua_pushstring(L, label);
    border_copy(&b, first + i, 0);
    lua_replace(L, first + i);
    lua_pop(L, 1); /* the label */
  }
  lua_pop(L, 1); /* seen */
}

/* world_state.border(what, label, flags, ...) -> a copy of each value after flags. */
static int w_border(lua_State *L) {
  const char *what = lstrata_checkstring(L, 1), *label = lstrata_checkstring(L, 2);
  const char *flags = lstrata_checkstring(L, 3);
  int n = lua_gettop(L) - 3;
  border_values(L, 4, n, what, label, flags, NULL);
  return n;
}

/* world_state.crossing(what, flags, state | false, fn, ...) -> copies of
** fn(...)'s results (labelled "result"; flags as border's, and "d": none,
** the results dropped; with a world's state, a handle of another world is
** refused): the body of every guarded call (strata.mods), so that the copy
** is made on the callback's thread under its budget. In C, so that an error
** a mod raises at a level past its own function gets no position inside strata. */
static int crossing_done(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  const char *flags = lua_tostring(L, 2);
  if (strchr(flags, 'd')) return 0;
  int n = lua_gettop(L) - 3;
  border_values(L, 4, n, lua_tostring(L, 1), "result", flags, lstrata_to_world(L, 3));
  return n;
}

static int w_crossing(lua_State *L) {
  lstrata_checkstring(L, 1);
  lstrata_checkstring(L, 2);
  lstrata_checktype(L, 4, LUA_TFUNCTION);
  lua_callk(L, lua_gettop(L) - 4, LUA_MULTRET, 0, crossing_done); /* (a yield is the guard's to refuse) */
  return crossing_done(L, LUA_OK, 0);
}

/* ---- value -> Lua ---------------------------------------------------------- */

void lstrata_push_value(lua_State *L, int world_idx, const strata_value *v) {
  switch (v->type) {
  case STRATA_VNIL: lua_pushnil(L); return;
  case STRATA_VBOOL: lua_pushboolean(L, v->u.b); return;
  case STRATA_VINT: lua_pushinteger(L, v->u.i); return;
  case STRATA_VFLOAT: lua_pushnumber(L, v->u.f); return;
  case STRATA_VSTRING: lua_pushlstring(L, v->u.str.s, v->u.str.len); return;
  case STRATA_VREF:
    /* The Lua side turns uids into handles: uservalue 1 is its function. */
    lua_getiuservalue(L, world_idx, 1);
    if (lua_isfunction(L, -1)) {
      lua_pushinteger(L, (lua_Integer)v->u.ref);
      lua_call(L, 1, 1);
    } else {
      lua_pop(L, 1);
      lua_pushinteger(L, (lua_Integer)v->u.ref);
    }
    return;
  case STRATA_VTABLE:
    lstrata_checkstack(L, 4, "a stored table");
    lua_createtable(L, 0, (int)v->u.t->n);
    for (size_t i = 0; i < v->u.t->n; i++) {
      lstrata_push_value(L, world_idx, &v->u.t->keys[i]);
      lstrata_push_value(L, world_idx, &v->u.t->vals[i]);
      lua_rawset(L, -3);
    }
    return;
  }
}

/* The path given as arguments from..top, converted to key values. */
static size_t check_path(lua_State *L, int from, strata_value *keys, size_t max) {
  int top = lua_gettop(L);
  size_t n = 0;
  for (int i = from; i <= top; i++) {
    lstrata_argcheck(L, n < max, i, "path too long");
    if (lua_type(L, i) == LUA_TSTRING) {
      size_t len;
      const char *s = lua_tolstring(L, i, &len);
      keys[n] = strata_value_nil();
      keys[n].type = STRATA_VSTRING;
      keys[n].u.str.s = (char *)s; /* borrowed: lives on the Lua stack */
      keys[n].u.str.len = len;
    } else if (lua_isinteger(L, i)) {
      keys[n] = strata_value_int(lua_tointeger(L, i));
    } else {
      lstrata_argerror(L, i, "keys must be strings or integers");
    }
    n++;
  }
  return n;
}

/* ---- functions --------------------------------------------------------------- */

static int raise_err(lua_State *L, strata_error *err) { return lstrata_raise(L, NULL, err); }

static int w_new(lua_State *L) {
  lua_Integer seed = lstrata_checkinteger(L, 1);
  strata_error err;
  strata_world *w = strata_world_new((uint64_t)seed, &err);
  if (!w) return raise_err(L, &err);
  push_world(L, w);
  return 1;
}

static int w_gc(lua_State *L) {
  lworld *lw = lstrata_checkudata(L, 1, WORLD_MT);
  if (!lw->served) strata_world_free(lw->w);
  lw->w = NULL;
  return 0;
}

static int w_set_ref_maker(lua_State *L) {
  check_world(L, 1);
  lstrata_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_setiuservalue(L, 1, 1);
  return 0;
}

/* closed() -> whether the world is gone: its serve handle closed it, or the
** collector finalized the state while a weak table still lists its world. */
static int w_closed(lua_State *L) {
  lua_pushboolean(L, ((lworld *)lstrata_checkudata(L, 1, WORLD_MT))->w == NULL);
  return 1;
}

static int w_seed(lua_State *L) { lua_pushinteger(L, (lua_Integer)strata_world_seed(check_world(L, 1))); return 1; }
static int w_time(lua_State *L) { lua_pushnumber(L, strata_world_time(check_world(L, 1))); return 1; }
static int w_next_uid(lua_State *L) { lua_pushinteger(L, (lua_Integer)strata_world_next_uid(check_world(L, 1))); return 1; }
static int w_count(lua_State *L) { lua_pushinteger(L, (lua_Integer)strata_world_count(check_world(L, 1))); return 1; }

/* kind_edits(kind): strata_world_kind_edits (as an integer: it wraps only after 2^63 edits) */
static int w_kind_edits(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)strata_world_kind_edits(check_world(L, 1), lstrata_checkstring(L, 2)));
  return 1;
}

static int w_set_time(lua_State *L) {
  strata_error err;
  if (strata_world_set_time(check_world(L, 1), lstrata_checknumber(L, 2), &err)) return raise_err(L, &err);
  return 0;
}

static int w_create(lua_State *L) {
  strata_world *w = check_world(L, 1);
  const char *kind = lstrata_checkstring(L, 2);
  const char *arch = lstrata_optstring(L, 3, NULL);
  strata_error err;
  uint64_t uid;
  if (strata_world_create(w, kind, arch, &uid, &err)) return raise_err(L, &err);
  lua_pushinteger(L, (lua_Integer)uid);
  return 1;
}

/* info(uid) -> kind, archetype, map, x, y  (nil when no such object) */
static int w_info(lua_State *L) {
  strata_object *o = strata_world_object(check_world(L, 1), check_uid(L, 2));
  if (!o) return 0;
  lua_pushstring(L, o->kind);
  if (o->archetype) lua_pushstring(L, o->archetype); else lua_pushnil(L);
  if (!o->has_pos) return 2;
  lua_pushinteger(L, (lua_Integer)o->map);
  lua_pushinteger(L, o->x);
  lua_pushinteger(L, o->y);
  return 5;
}

static int w_delete(lua_State *L) {
  strata_error err;
  if (strata_world_delete(check_world(L, 1), check_uid(L, 2), &err)) return raise_err(L, &err);
  return 0;
}

/* set_archetype(uid, id | nil) */
static int w_set_archetype(lua_State *L) {
  strata_error err;
  if (strata_object_set_archetype(check_world(L, 1), check_uid(L, 2), lstrata_optstring(L, 3, NULL),
                                  &err))
    return raise_err(L, &err);
  return 0;
}

static int w_set_position(lua_State *L) {
  strata_error err;
  if (strata_object_set_position(check_world(L, 1), check_uid(L, 2), check_uid(L, 3),
                                 lstrata_checkinteger(L, 4), lstrata_checkinteger(L, 5), &err))
    return raise_err(L, &err);
  return 0;
}

/* get(uid, key...) -> value; for a table: nil, true (the caller makes a proxy) */
static int w_get(lua_State *L) {
  strata_world *w = check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  strata_value keys[STRATA_VALUE_MAX_DEPTH];
  size_t n = check_path(L, 3, keys, STRATA_VALUE_MAX_DEPTH);
  if (!strata_world_object(w, uid)) return lstrata_error(L, "no object #%I (deleted or never created)", (LUAI_UACINT)uid);
  const strata_value *v = strata_object_get(w, uid, keys, n);
  if (!v) { lua_pushnil(L); return 1; }
  if (v->type == STRATA_VTABLE) { lua_pushnil(L); lua_pushboolean(L, 1); return 2; }
  lstrata_push_value(L, 1, v);
  return 1;
}

/* snapshot(uid, key...) -> a deep copy as plain Lua tables */
static int w_snapshot(lua_State *L) {
  strata_world *w = check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  strata_value keys[STRATA_VALUE_MAX_DEPTH];
  size_t n = check_path(L, 3, keys, STRATA_VALUE_MAX_DEPTH);
  const strata_value *v = strata_object_get(w, uid, keys, n);
  if (!v) lua_pushnil(L); else lstrata_push_value(L, 1, v);
  return 1;
}

/* keys(uid, key...) -> list of keys of the table there */
static int w_keys(lua_State *L) {
  strata_world *w = check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  strata_value keys[STRATA_VALUE_MAX_DEPTH];
  size_t n = check_path(L, 3, keys, STRATA_VALUE_MAX_DEPTH);
  const strata_value *v = strata_object_get(w, uid, keys, n);
  lua_newtable(L);
  if (v && v->type == STRATA_VTABLE)
    for (size_t i = 0; i < v->u.t->n; i++) {
      lstrata_push_value(L, 1, &v->u.t->keys[i]);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
  return 1;
}

/* set(uid, label, value, key...): label names the path for errors */
static int w_set(lua_State *L) {
  strata_world *w = check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  const char *label = lstrata_checkstring(L, 3);
  strata_value keys[STRATA_VALUE_MAX_DEPTH];
  size_t n = check_path(L, 5, keys, STRATA_VALUE_MAX_DEPTH);
  if (!strata_world_object(w, uid)) return lstrata_error(L, "%s: object #%I was deleted", label, (LUAI_UACINT)uid);
  strata_value v;
  check_value_at(L, w, 4, label, &v, (int)n);
  strata_error err;
  if (strata_object_set(w, uid, keys, n, &v, &err)) {
    strata_value_clear(&v);
    return lstrata_error(L, "%s: %s", label, err.message);
  }
  return 0;
}

static int w_schedule(lua_State *L) {
  strata_world *w = check_world(L, 1);
  double due = lstrata_checknumber(L, 2), every = lstrata_checknumber(L, 3);
  const char *handler = lstrata_checkstring(L, 4);
  const char *label = lstrata_optstring(L, 6, "timer args");
  strata_value args;
  lstrata_check_value(L, w, 5, label, &args);
  strata_error err;
  uint64_t uid;
  strata_status st = strata_world_schedule(w, due, every, handler, &args, &uid, &err);
  strata_value_clear(&args);
  if (st) return raise_err(L, &err);
  lua_pushinteger(L, (lua_Integer)uid);
  return 1;
}

static int w_cancel(lua_State *L) {
  strata_error err;
  lua_pushboolean(L, strata_world_cancel(check_world(L, 1), check_uid(L, 2), &err) == STRATA_OK);
  return 1;
}

/* timers() -> list of { uid, due, every, handler } */
static int w_timers(lua_State *L) {
  strata_world *w = check_world(L, 1);
  size_t n = strata_world_timer_count(w);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    const strata_timer *t = strata_world_timer_at(w, i);
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, (lua_Integer)t->uid); lua_setfield(L, -2, "uid");
    lua_pushnumber(L, t->due); lua_setfield(L, -2, "due");
    lua_pushnumber(L, t->every); lua_setfield(L, -2, "every");
    lua_pushstring(L, t->handler); lua_setfield(L, -2, "handler");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* next_due() -> the due time of the earliest timer, or nil: the core's
** schedule read as it is (turns, walks and branch timers are timers too). */
static int w_next_due(lua_State *L) {
  const strata_timer *t = strata_world_next_due(check_world(L, 1), HUGE_VAL);
  if (t) lua_pushnumber(L, t->due);
  else lua_pushnil(L);
  return 1;
}

static int w_subscribe(lua_State *L) {
  strata_world *w = check_world(L, 1);
  uint64_t obj = check_uid(L, 2);
  const char *event = lstrata_checkstring(L, 3), *handler = lstrata_checkstring(L, 4);
  lua_Integer prio = lstrata_checkinteger(L, 6);
  const char *label = lstrata_optstring(L, 7, "subscription args");
  strata_value args;
  lstrata_check_value(L, w, 5, label, &args);
  strata_error err;
  uint64_t uid;
  strata_status st = strata_world_subscribe(w, obj, event, handler, &args, prio, &uid, &err);
  strata_value_clear(&args);
  if (st) return raise_err(L, &err);
  lua_pushinteger(L, (lua_Integer)uid);
  return 1;
}

static int w_unsubscribe(lua_State *L) {
  strata_error err;
  lua_pushboolean(L, strata_world_unsubscribe(check_world(L, 1), check_uid(L, 2), &err) == STRATA_OK);
  return 1;
}

/* subscriptions([object]) -> list of { uid, object, event, handler, args, priority } */
static int w_subscriptions(lua_State *L) {
  strata_world *w = check_world(L, 1);
  lua_Integer only = lstrata_optinteger(L, 2, 0);
  size_t n = strata_world_subscription_count(w);
  lua_newtable(L);
  int k = 0;
  for (size_t i = 0; i < n; i++) {
    const strata_subscription *s = strata_world_subscription_at(w, i);
    if (only && s->object != (uint64_t)only) continue;
    lua_createtable(L, 0, 6);
    lua_pushinteger(L, (lua_Integer)s->uid); lua_setfield(L, -2, "uid");
    lua_pushinteger(L, (lua_Integer)s->object); lua_setfield(L, -2, "object");
    lua_pushstring(L, s->event); lua_setfield(L, -2, "event");
    lua_pushstring(L, s->handler); lua_setfield(L, -2, "handler");
    lstrata_push_value(L, 1, &s->args); lua_setfield(L, -2, "args");
    lua_pushinteger(L, s->priority); lua_setfield(L, -2, "priority");
    lua_rawseti(L, -2, ++k);
  }
  return 1;
}

/* objects() -> list of { uid, kind, archetype } for every live object */
/* objects_on(map_uid [, kind]) -> { uid, ... }: the objects positioned on a
** map, in uid order (the world's index by map). */
static int w_objects_on(lua_State *L) {
  strata_world *w = check_world(L, 1);
  uint64_t map = check_uid(L, 2);
  const char *kind = lstrata_optstring(L, 3, NULL);
  lua_newtable(L);
  int k = 0;
  for (uint64_t u = strata_world_next_on(w, map, 0); u; u = strata_world_next_on(w, map, u))
    if (!kind || strcmp(strata_world_get(w, u)->kind, kind) == 0) {
      lua_pushinteger(L, (lua_Integer)u);
      lua_rawseti(L, -2, ++k);
    }
  return 1;
}

/* objects([kind]) -> { { uid =, kind =, archetype = }, ... } in uid order: the
** objects of kind (all with nil), never the world's bookkeeping (the core's
** answer: strata_kind_is_bookkeeping). Of one kind, from its first (the
** world's index by kind). */
static int w_objects(lua_State *L) {
  strata_world *w = check_world(L, 1);
  const char *kind = lstrata_optstring(L, 2, NULL);
  lua_createtable(L, kind ? 0 : (int)strata_world_count(w), 0);
  if (kind && strata_kind_is_bookkeeping(kind)) return 1;
  uint64_t first = kind ? strata_world_first_of_kind(w, kind) : 0;
  if (kind && !first) return 1;
  int k = 0;
  for (strata_object *o = first ? strata_world_object(w, first) : strata_world_next_object(w, 0); o;
       o = strata_world_next_object(w, o->uid)) {
    if (kind ? strcmp(o->kind, kind) != 0 : strata_kind_is_bookkeeping(o->kind)) continue;
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, (lua_Integer)o->uid); lua_setfield(L, -2, "uid");
    lua_pushstring(L, o->kind); lua_setfield(L, -2, "kind");
    if (o->archetype) { lua_pushstring(L, o->archetype); lua_setfield(L, -2, "archetype"); }
    lua_rawseti(L, -2, ++k);
  }
  return 1;
}

static int w_stream(lua_State *L) {
  strata_world *w = check_world(L, 1);
  const char *key = lstrata_checkstring(L, 2);
  strata_rng r;
  strata_error err;
  if (strata_world_stream(w, key, &r, &err)) return raise_err(L, &err);
  char s[STRATA_RNG_STATE_CHARS];
  strata_rng_format(&r, s);
  lua_pushstring(L, s);
  return 1;
}

static int w_set_stream(lua_State *L) {
  strata_world *w = check_world(L, 1);
  const char *key = lstrata_checkstring(L, 2);
  size_t len;
  const char *state = lstrata_checklstring(L, 3, &len);
  strata_rng r;
  lstrata_argcheck(L, strata_rng_parse(&r, state, len), 3, "not a generator state");
  strata_error err;
  if (strata_world_set_stream(w, key, &r, &err)) return raise_err(L, &err);
  return 0;
}

strata_mod_version *lstrata_check_mods(lua_State *L, int arg, size_t *n) {
  lstrata_checktype(L, arg, LUA_TTABLE);
  lua_Integer len = luaL_len(L, arg);
  lstrata_argcheck(L, len >= 0 && len < 100000, arg, "too many mods");
  strata_mod_version *mods = lua_newuserdatauv(L, sizeof *mods * (size_t)(len ? len : 1), 0);
  for (lua_Integer i = 1; i <= len; i++) {
    lua_rawgeti(L, arg, i);
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    mods[i - 1].id = (char *)lstrata_checkstring(L, -2);
    mods[i - 1].version = (char *)lstrata_checkstring(L, -1);
    lua_pop(L, 3);
  }
  *n = (size_t)len;
  return mods;
}

void lstrata_push_mods(lua_State *L, strata_mod_version *mods, size_t n) {
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_createtable(L, 2, 0);
    lua_pushstring(L, mods[i].id); lua_rawseti(L, -2, 1);
    lua_pushstring(L, mods[i].version); lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  strata_mod_versions_free(mods, n);
}

/* Pushes the state of w and its mod list (freed here), as open gives them. */
static int push_opened(lua_State *L, strata_world *w, strata_mod_version *mods, size_t n) {
  push_world(L, w);
  lstrata_push_mods(L, mods, n);
  return 2;
}

/* save(path, { {id, version}, ... }, overwrite) */
static int w_save(lua_State *L) {
  strata_world *w = check_world(L, 1);
  const char *path = lstrata_checkstring(L, 2);
  size_t n;
  strata_mod_version *mods = lstrata_check_mods(L, 3, &n);
  strata_save_options opt = { lua_toboolean(L, 4) };
  strata_error err;
  if (strata_world_save_with(w, path, mods, n, &opt, &err)) return raise_err(L, &err);
  return 0;
}

/* open(path) -> state, { {id, version}, ... } */
static int w_open(lua_State *L) {
  const char *path = lstrata_checkstring(L, 1);
  strata_world *w;
  strata_mod_version *mods;
  size_t n;
  strata_error err;
  if (strata_world_open(path, &w, &mods, &n, &err)) return raise_err(L, &err);
  return push_opened(L, w, mods, n);
}

/* to_json({ {id, version}, ... }) -> text (strata_world_to_json) */
static int w_to_json(lua_State *L) {
  strata_world *w = check_world(L, 1);
  size_t n;
  strata_mod_version *mods = lstrata_check_mods(L, 2, &n);
  strata_buffer b = { 0 };
  strata_error err;
  if (strata_world_to_json(w, mods, n, &b, &err)) return raise_err(L, &err);
  /* (the host's call, under no mod's memory limit: pushing fails only when the process is out of memory) */
  lua_pushlstring(L, b.data ? (const char *)b.data : "", b.len);
  strata_buffer_free(&b);
  return 1;
}

/* from_json(text) -> state, { {id, version}, ... } (strata_world_from_json) */
static int w_from_json(lua_State *L) {
  size_t len;
  const char *text = lstrata_checklstring(L, 1, &len);
  strata_world *w;
  strata_mod_version *mods;
  size_t n;
  strata_error err;
  if (strata_world_from_json(text, len, &w, &mods, &n, &err)) return raise_err(L, &err);
  return push_opened(L, w, mods, n);
}

/* Records the first use of id in t: t[id] = { type_id or false, where }. */
static void note_id(lua_State *L, int t, const char *id, const char *type_id, const char *where) {
  if (lua_getfield(L, t, id) != LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  lua_pop(L, 1);
  lua_createtable(L, 2, 0);
  if (type_id) lua_pushstring(L, type_id); else lua_pushboolean(L, 0);
  lua_rawseti(L, -2, 1);
  lua_pushstring(L, where);
  lua_rawseti(L, -2, 2);
  lua_setfield(L, t, id);
}

/* used_ids() -> { [id] = { type or false, "where it is first used" } }, one
** entry per distinct ID, so that checking a large world costs one lookup per
** distinct ID rather than one Lua table per object. */
static int w_used_ids(lua_State *L) {
  strata_world *w = check_world(L, 1);
  lua_newtable(L);
  int t = lua_gettop(L);
  char where[160];
  for (strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid)) {
    if (!o->archetype) continue;
    lua_getfield(L, t, o->archetype);
    int seen = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (seen) continue;
    snprintf(where, sizeof where, "archetype of %.60s#%llu", o->kind, (unsigned long long)o->uid);
    note_id(L, t, o->archetype, NULL, where);
  }
  for (size_t i = 0; i < strata_world_timer_count(w); i++) {
    const strata_timer *tm = strata_world_timer_at(w, i);
    snprintf(where, sizeof where, "handler of timer #%llu", (unsigned long long)tm->uid);
    note_id(L, t, tm->handler, "base.handler", where);
  }
  for (size_t i = 0; i < strata_world_subscription_count(w); i++) {
    const strata_subscription *u = strata_world_subscription_at(w, i);
    snprintf(where, sizeof where, "event of subscription #%llu on #%llu", (unsigned long long)u->uid,
             (unsigned long long)u->object);
    note_id(L, t, u->event, "base.event", where);
    snprintf(where, sizeof where, "handler of subscription #%llu on #%llu", (unsigned long long)u->uid,
             (unsigned long long)u->object);
    note_id(L, t, u->handler, "base.handler", where);
  }
  return 1;
}

/* create_map(width, height, archetype) -> uid: a "map" object owning a tile
** map on the world's token table */
static int w_create_map(lua_State *L) {
  strata_world *w = check_world(L, 1);
  int width = lstrata_check_int(L, 2), height = lstrata_check_int(L, 3);
  const char *arch = lstrata_optstring(L, 4, NULL);
  strata_error err;
  uint64_t uid;
  if (strata_world_create_map(w, width, height, arch, &uid, &err)) return raise_err(L, &err);
  lua_pushinteger(L, (lua_Integer)uid);
  return 1;
}

/* tokens() -> the world's token table (a strata.tokens), shared by its maps */
static int w_tokens(lua_State *L) {
  lstrata_push_tokens(L, strata_world_tokens(check_world(L, 1)));
  return 1;
}

/* tilemap(uid) -> a tile map view that the world owns, or nil. Views are made
** per call and not kept, so none outlives a deleted map. */
static int w_tilemap(lua_State *L) {
  strata_world *w = check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  strata_tilemap *m = strata_world_tilemap(w, uid);
  if (!m) return 0;
  lstrata_push_world_tilemap(L, m, uid, 1);
  return 1;
}

/* tags(uid) -> sorted list of tag strings */
static int w_tags(lua_State *L) {
  strata_object *o = strata_world_object(check_world(L, 1), check_uid(L, 2));
  if (!o) return lstrata_error(L, "no object #%I", (LUAI_UACINT)lstrata_checkinteger(L, 2));
  lua_newtable(L);
  for (size_t i = 0; o->tags.type == STRATA_VTABLE && i < o->tags.u.t->n; i++) {
    lstrata_push_value(L, 1, &o->tags.u.t->keys[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_getglobal(L, "table");
  lua_getfield(L, -1, "sort");
  lua_pushvalue(L, -3);
  lua_call(L, 1, 0);
  lua_pop(L, 1);
  return 1;
}

/* set_tag(uid, name, on): tags are kept as a set { [name] = true } */
static int w_set_tag(lua_State *L) {
  strata_world *w = check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  size_t len;
  const char *name = lstrata_checklstring(L, 3, &len);
  lstrata_argcheck(L, len > 0, 3, "a tag must be a non-empty string");
  if (!strata_world_object(w, uid)) return lstrata_error(L, "no object #%I", (LUAI_UACINT)uid);
  strata_error err;
  if (strata_object_set_tag(w, uid, name, len, lua_toboolean(L, 4), &err)) return raise_err(L, &err);
  return 0;
}

static int w_has_tag(lua_State *L) {
  strata_object *o = strata_world_object(check_world(L, 1), check_uid(L, 2));
  const char *name = lstrata_checkstring(L, 3);
  lua_pushboolean(L, o && o->tags.type == STRATA_VTABLE && strata_vtable_get_str(o->tags.u.t, name) != NULL);
  return 1;
}

/* ---- savepoints ---- */

/* begin(): opens a savepoint (they nest) */
static int w_begin(lua_State *L) {
  strata_error err;
  if (strata_world_begin(check_world(L, 1), &err)) return raise_err(L, &err);
  return 0;
}

/* commit() / rollback(): close the innermost savepoint; raise when none is open */
static int w_commit(lua_State *L) {
  if (strata_world_commit(check_world(L, 1))) return lstrata_error(L, "commit: no savepoint is open");
  return 0;
}

static int w_rollback(lua_State *L) {
  if (strata_world_rollback(check_world(L, 1))) return lstrata_error(L, "rollback: no savepoint is open");
  return 0;
}

static int w_depth(lua_State *L) {
  lua_pushinteger(L, strata_world_depth(check_world(L, 1)));
  return 1;
}

/* touch(uid): before editing the object's tile map through a tilemap view,
** so that a rollback restores it. The core journals it once per savepoint;
** outside one nothing happens (the edit marks the map for the next save). */
static int w_touch(lua_State *L) {
  strata_world *w = check_world(L, 1);
  uint64_t uid = check_uid(L, 2);
  strata_error err;
  if (!strata_world_depth(w) && strata_world_object(w, uid)) return 0; /* nothing to journal */
  if (strata_world_touch(w, uid, &err)) return raise_err(L, &err);
  return 0;
}

/* check(value, label): raises as a store would, without storing */
static int w_check(lua_State *L) {
  strata_world *w = check_world(L, 1);
  strata_value v;
  lstrata_check_value(L, w, 2, lstrata_checkstring(L, 3), &v);
  strata_value_clear(&v);
  return 0;
}

/* world_state.types(handle_mts, uid_of, proxy_mt, snapshot_of, protected):
** the Lua types of strata.world that state may hold (see registered_type);
** handle_mts: the handles' metatables as keys (registered_kind); uid_of(h)
** -> uid, the state of h's world; protected: strata's metatables (keys),
** whose objects cross the border as themselves. */
static int w_types(lua_State *L) {
  lstrata_checktype(L, 1, LUA_TTABLE);
  lstrata_checktype(L, 2, LUA_TFUNCTION);
  lstrata_checktype(L, 3, LUA_TTABLE);
  lstrata_checktype(L, 4, LUA_TFUNCTION);
  lstrata_checktype(L, 5, LUA_TTABLE);
  const void *keys[] = { &HANDLE_MT, &HANDLE_UID, &PROXY_MT, &PROXY_SNAPSHOT, &PROTECTED };
  for (int i = 0; i < 5; i++) {
    lua_pushvalue(L, i + 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, keys[i]);
  }
  return 0;
}

static const luaL_Reg world_methods[] = {
  { "set_ref_maker", w_set_ref_maker }, { "closed", w_closed }, { "seed", w_seed }, { "time", w_time },
  { "set_time", w_set_time }, { "next_uid", w_next_uid }, { "count", w_count }, { "kind_edits", w_kind_edits },
  { "create", w_create }, { "info", w_info }, { "delete", w_delete },
  { "set_position", w_set_position }, { "set_archetype", w_set_archetype }, { "get", w_get }, { "snapshot", w_snapshot },
  { "keys", w_keys }, { "set", w_set }, { "schedule", w_schedule }, { "cancel", w_cancel },
  { "timers", w_timers }, { "next_due", w_next_due },
  { "subscribe", w_subscribe }, { "unsubscribe", w_unsubscribe },
  { "subscriptions", w_subscriptions }, { "objects", w_objects }, { "objects_on", w_objects_on }, { "stream", w_stream },
  { "set_stream", w_set_stream }, { "used_ids", w_used_ids }, { "create_map", w_create_map }, { "tokens", w_tokens }, { "tilemap", w_tilemap }, { "tags", w_tags }, { "set_tag", w_set_tag }, { "has_tag", w_has_tag }, { "save", w_save }, { "to_json", w_to_json }, { "check", w_check },
  { "begin", w_begin }, { "commit", w_commit }, { "rollback", w_rollback }, { "depth", w_depth },
  { "touch", w_touch },
  { NULL, NULL } };

void lstrata_open_world(lua_State *L) {
  luaL_newmetatable(L, "strata.value_holder");
  lua_pushcfunction(L, holder_gc);
  lua_setfield(L, -2, "__gc");
  lstrata_protect_metatable(L, "strata.value_holder");
  lua_pop(L, 1);
  luaL_newmetatable(L, WORLD_MT);
  luaL_newlib(L, world_methods);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, w_gc);
  lua_setfield(L, -2, "__gc");
  lstrata_protect_metatable(L, WORLD_MT);
  lua_pop(L, 1);
  static const luaL_Reg funcs[] = {{"new", w_new}, {"open", w_open}, {"from_json", w_from_json}, {"types", w_types}, {"border", w_border}, {"crossing", w_crossing}, {NULL, NULL}};
  lstrata_add_functions(L, "world_state", 0, funcs);
}
