/* lschema.h - the runtime's bookkeeping getters (schema.c), installed
** among the "strata.runtime" methods by runtime.c. */
#ifndef LSCHEMA_H
#define LSCHEMA_H

#include <lauxlib.h>

extern const luaL_Reg lstrata_schema_methods[];

#endif
