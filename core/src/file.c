/*
** file.c - files looked at before they are opened, and written whole or not
** at all (strata/file.h says what each promises).
*/
#include "strata/file.h"
#include "file_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* rename */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

const char *strata_file_kind(const char *path, int follow) {
  struct stat st;
  if ((follow ? stat(path, &st) : lstat(path, &st)) != 0) return NULL;
  return kind_of(st.st_mode);
}

strata_status strata_file_check_read(const char *path, const char *what, strata_error *err) {
  struct stat st;
  if (stat(path, &st) != 0 || access(path, R_OK) != 0)
    return strata_error_set(err, STRATA_EIO, "%s '%s': %s", what, path, strerror(errno));
  if (!S_ISREG(st.st_mode))
    return strata_error_set(err, STRATA_EIO, "%s '%s': it is %s, not a regular file", what, path,
                            kind_of(st.st_mode));
  return STRATA_OK;
}

strata_status strata_file_check_replace(const char *path, const char *what, strata_error *err) {
  struct stat st;
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT) return STRATA_OK;
    return strata_error_set(err, STRATA_EIO, "%s '%s': %s", what, path, strerror(errno));
  }
  if (!S_ISREG(st.st_mode))
    return strata_error_set(err, STRATA_EIO, "%s '%s': it is %s (only a regular file is replaced)",
                            what, path, kind_of(st.st_mode));
  return STRATA_OK;
}

/* Every byte to fd, through short writes and signals; 0, or -1 with errno. */
static int write_all(int fd, const char *p, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1; /* n == 0 does not happen for a regular file */
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

char *file_tmp_path(const char *path, strata_error *err) {
  size_t n = strlen(path);
  char *tmp = malloc(n + 5);
  if (!tmp) {
    strata_error_set(err, STRATA_ENOMEM, "out of memory");
    return NULL;
  }
  memcpy(tmp, path, n);
  memcpy(tmp + n, ".tmp", 5);
  return tmp;
}

strata_status strata_file_write(const char *path, const void *data, size_t len,
                                strata_error *err) {
  strata_status st = strata_file_check_replace(path, "cannot write", err);
  if (st) return st;
  char *tmp = file_tmp_path(path, err);
  if (!tmp) return STRATA_ENOMEM;
  unlink(tmp); /* a leftover of an interrupted write */
  /* O_EXCL: a link or a FIFO put at path.tmp meanwhile is not written through. */
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  int failed = fd < 0 || write_all(fd, data, len) != 0 || fsync(fd) != 0;
  int e = errno;
  if (fd >= 0 && close(fd) != 0 && !failed) failed = 1, e = errno;
  if (failed) {
    st = strata_error_set(err, STRATA_EIO, "cannot write '%s': %s", path, strerror(e));
  } else if ((st = strata_file_check_replace(path, "cannot write", err)) == STRATA_OK &&
             rename(tmp, path) != 0) {
    /* Checked again just before: what came to path while writing is not replaced either. */
    st = strata_error_set(err, STRATA_EIO, "cannot write '%s': %s", path, strerror(errno));
  }
  if (st && fd >= 0) unlink(tmp);
  free(tmp);
  return st;
}
