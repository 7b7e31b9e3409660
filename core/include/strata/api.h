/*
** api.h - STRATA_API marks the functions libstrata exports.
**
** The library is built with -fvisibility=hidden: only declarations marked
** STRATA_API (those of the public headers, all named strata_*) are visible
** to programs linking the shared library; the internal functions shared
** between the library's files are not.
*/
#ifndef STRATA_API_H
#define STRATA_API_H

#ifndef STRATA_API
#if defined(__GNUC__)
#define STRATA_API __attribute__((visibility("default")))
#else
#define STRATA_API
#endif
#endif

#endif
