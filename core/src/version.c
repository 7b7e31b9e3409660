/*
** version.c - the library's version at run time (strata.h), as the build
** wrote it from project() into strata/version.h.
*/
#include "strata/strata.h"

const char *strata_version(void) { return STRATA_VERSION; }
