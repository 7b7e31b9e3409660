/* file_internal.h - what file.c shares with the core's other writers (save.c):
** the lock a write of a path holds, and its temporary file.
**
** A write of PATH: file_lock (PATH-lock, an advisory flock, so that two
** writers of one path, in any processes, take turns), file_tmp_create (a new
** PATH.XXXXXX.tmp of its own), then file_tmp_commit (flushed, renamed over
** PATH) or file_tmp_discard, and file_unlock. */
#ifndef STRATA_FILE_INTERNAL_H
#define STRATA_FILE_INTERNAL_H

#include "strata/error.h"

#include <stdint.h>

/* How long a writer waits for another one's turn to end. */
#define FILE_LOCK_WAIT_MS 2000

typedef struct file_lock_t {
  int fd;      /* -1: not held */
  char *path;  /* "<path>-lock" */
} file_lock_t;

/* Takes the lock of path, waiting up to wait_ms for another holder (then
** STRATA_EIO "<what> '<path>': another process is saving it (still busy
** after N ms)"). Holding it, the temporaries of writers of path that were
** killed are removed. The lock file is removed by file_unlock. */
strata_status file_lock(const char *path, const char *what, int wait_ms, file_lock_t *lk,
                        strata_error *err);
void file_unlock(file_lock_t *lk);

/* A new empty file "<path>.XXXXXX.tmp" (a name no other writer has, made
** with O_EXCL, mode 0666 less the umask): its fd, *tmp its name (strata_malloc'd);
** -1 with err set ("<what> '<path>': ..."). */
int file_tmp_create(const char *path, const char *what, char **tmp, strata_error *err);

/* The temporary in place: fsync(fd), close, path checked again
** (strata_file_check_replace), renamed over path, the folder flushed. On
** any failure STRATA_EIO "<what> '<path>': <why>" and the temporary is
** removed. Either way fd is closed and tmp freed. */
strata_status file_tmp_commit(int fd, char *tmp, const char *path, const char *what, strata_error *err);

/* The temporary given up: closed (fd -1: already), removed, freed. */
void file_tmp_discard(int fd, char *tmp);

/* 64 random bits, never 0 (the system's generator; without entropy, the
** clock, the process id and a counter mixed). */
uint64_t file_random64(void);

#endif
