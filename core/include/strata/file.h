/*
** file.h - the files strata reads and writes: world saves, worldgen
** templates, the pictures and templates the `strata` command writes.
**
** A path is looked at before it is opened. Reading takes a regular file
** (links followed): a FIFO would block the read, a device would never end.
** Writing goes to a temporary file of its own beside PATH (PATH.XXXXXX.tmp,
** made with O_EXCL), each write and the close checked, flushed to disk, then
** renamed over PATH, under an advisory lock on PATH-lock (writers of one
** path take turns; the lock file is removed after), which must be nothing or a regular
** file (links not followed): at any instant PATH holds the old file or the
** new one; a failed write (a full disk, the file size limit) leaves no
** partial file; a FIFO, a device, a directory or a symbolic link at PATH is
** refused rather than replaced by a file.
*/
#ifndef STRATA_FILE_H
#define STRATA_FILE_H

#include "strata/error.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What is at path, in words for a message: "a regular file", "a directory",
** "a FIFO", "a character device", "a block device", "a socket", or (with
** follow 0) "a symbolic link"; NULL when nothing is there or it cannot be
** looked at (errno says why). follow: look through symbolic links. */
STRATA_API const char *strata_file_kind(const char *path, int follow);

/* STRATA_OK when path names a regular file that can be read (links
** followed); else STRATA_EIO with "<what> '<path>': <why>", e.g.
** "cannot open 'x.db': it is a FIFO, not a regular file". */
STRATA_API strata_status strata_file_check_read(const char *path, const char *what,
                                                strata_error *err);

/* The whole of the regular file at path (strata_file_check_read first), of
** at most max bytes: *text (strata_malloc'd, NUL-terminated: one byte more
** than *len) and *len. At most max + 1 bytes are ever read, whatever the
** file's size claims (it may grow while read), so a huge or sparse file
** costs nothing. Errors: STRATA_ELIMIT "<what> '<path>': it is larger than
** <max> bytes (<why>)" (why: what the limit is for, e.g. "the most a
** worldgen conf file may hold"); STRATA_ENOMEM "out of memory reading
** '<path>'"; STRATA_EIO as strata_file_check_read, or "<what> '<path>': <why>"
** when a read fails. */
STRATA_API strata_status strata_file_read(const char *path, size_t max, const char *what,
                                          const char *why, char **text, size_t *len,
                                          strata_error *err);

/* STRATA_OK when nothing is at path, or a regular file is (links not
** followed): what a write may replace. Else STRATA_EIO with "<what> '<path>':
** it is a symbolic link (only a regular file is replaced)" and the like. */
STRATA_API strata_status strata_file_check_replace(const char *path, const char *what,
                                                   strata_error *err);

/* Writes len bytes to path through a temporary, as above. Errors (STRATA_EIO)
** say "cannot write '<path>': <why>"; path is then as it was, and the
** temporary is gone. */
STRATA_API strata_status strata_file_write(const char *path, const void *data, size_t len,
                                           strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
