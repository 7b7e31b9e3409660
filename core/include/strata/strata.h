/*
** strata.h - the whole public C API of libstrata.
*/
#ifndef STRATA_H
#define STRATA_H

#define STRATA_VERSION_MAJOR 0
#define STRATA_VERSION_MINOR 1
#define STRATA_VERSION_PATCH 0
#define STRATA_VERSION "0.1.0"

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

#endif
