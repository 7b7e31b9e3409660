/* file_internal.h - what file.c shares with the core's other writers (save.c). */
#ifndef STRATA_FILE_INTERNAL_H
#define STRATA_FILE_INTERNAL_H

#include "strata/error.h"

/* "<path>.tmp", the name a write goes to before it is renamed over path:
** malloc'd (the caller frees it), or NULL with err set (out of memory). */
char *file_tmp_path(const char *path, strata_error *err);

#endif
