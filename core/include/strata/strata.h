/*
** strata.h - the whole public C API of libstrata.
*/
#ifndef STRATA_H
#define STRATA_H

/* STRATA_VERSION, STRATA_VERSION_MAJOR, _MINOR, _PATCH: the headers' version,
** written by the build from project() (strata/version.h). */
#include "strata/api.h"
#include "strata/version.h"

/* The version of the library the program runs with ("0.1.0"), which may be
** newer than the STRATA_VERSION it was compiled against: a static string. */
STRATA_API const char *strata_version(void);

#include "strata/alloc.h"
#include "strata/error.h"
#include "strata/file.h"
#include "strata/layout.h"
#include "strata/path.h"
#include "strata/picture.h"
#include "strata/rng.h"
#include "strata/tilemap.h"
#include "strata/distmap.h"
#include "strata/tokens.h"
#include "strata/xygrid.h"
#include "strata/xymap.h"
#include "strata/value.h"
#include "strata/worldgen.h"
#include "strata/world.h"
#include "strata/room.h"
#include "strata/grid.h"
#include "strata/branch.h"
/* a world at work: areas, travel, events and time, with logic found by ID */
#include "strata/area.h"
#include "strata/clock.h"
#include "strata/event.h"
#include "strata/feature.h"
#include "strata/move.h"
#include "strata/registry.h"
#include "strata/resolver.h"
#include "strata/runtime.h"
#include "strata/travel.h"
#include "strata/unique.h"
#include "strata/noise.h"
#include "strata/turns.h"
#include "strata/json.h"

#endif
