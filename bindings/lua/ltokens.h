/* ltokens.h - token tables as seen by the other binding files. */
#ifndef LTOKENS_H
#define LTOKENS_H

#include "lstrata.h"

strata_tokens *lstrata_check_tokens(lua_State *L, int arg);
/* Pushes a userdata holding a new reference to t. */
void lstrata_push_tokens(lua_State *L, strata_tokens *t);
/* This Lua state's default table (used by maps not given their own). */
strata_tokens *lstrata_default_tokens(lua_State *L);
/* Reads a traits table at arg, starting from base (or the name's defaults). */
void lstrata_check_traits(lua_State *L, int arg, const char *name, size_t len,
                          const strata_token_traits *base, strata_token_traits *out);
/* Defines the token named at name_arg with the traits table at traits_arg. */
void lstrata_define_token(lua_State *L, strata_tokens *t, int name_arg, int traits_arg);
void lstrata_push_traits(lua_State *L, const strata_token_traits *tr);

#endif
