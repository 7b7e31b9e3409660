/*
** file.c - files looked at before they are opened, and written whole or not
** at all (strata/file.h says what each promises).
*/
#include "strata/file.h"
#include "strata/alloc.h"
#include "file_internal.h"
#include "strata/rng.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* rename */
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
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

strata_status strata_file_read(const char *path, size_t max, const char *what, const char *why,
                              char **text, size_t *len, strata_error *err) {
  strata_status st = strata_file_check_read(path, what, err);
  if (st) return st;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return strata_error_set(err, STRATA_EIO, "%s '%s': %s", what, path, strerror(errno));
  /* The buffer grows as bytes arrive (st_size may lie: a file being written,
  ** or replaced by a FIFO after the check), never past max + 1. */
  size_t cap = 0, n = 0;
  char *buf = NULL;
  for (;;) {
    if (n == cap) {
      size_t want = cap ? cap * 2 : 4096;
      if (want > max + 1 || want < cap) want = max + 1;
      char *grown = strata_realloc(buf, want + 1);
      if (grown == NULL) {
        strata_free(buf);
        close(fd);
        return strata_error_nomem(err, "reading '%s'", path);
      }
      buf = grown, cap = want;
    }
    ssize_t got = read(fd, buf + n, cap - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      int e = errno;
      strata_free(buf);
      close(fd);
      return strata_error_set(err, STRATA_EIO, "%s '%s': %s", what, path, strerror(e));
    }
    if (got == 0) break;
    n += (size_t)got;
    if (n > max) {
      strata_free(buf);
      close(fd);
      return strata_error_set(err, STRATA_ELIMIT, "%s '%s': it is larger than %zu bytes (%s)", what,
                              path, max, why);
    }
  }
  close(fd);
  buf[n] = 0;
  *text = buf;
  if (len) *len = n;
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

uint64_t file_random64(void) {
  uint64_t v = 0;
  if (getrandom(&v, sizeof v, GRND_NONBLOCK) == (ssize_t)sizeof v && v) return v;
  /* No entropy yet (early boot): the clock, the process and a counter,
  ** mixed (strata_hash64); unique enough for names and generations. */
  static uint64_t counter;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  v = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 40 ^ ++counter << 20;
  return strata_hash64(v, NULL, 0) | 1;
}

/* path with suffix appended, strata_malloc'd; NULL with err set. */
static char *with_suffix(const char *path, const char *suffix, strata_error *err) {
  size_t n = strlen(path), k = strlen(suffix);
  char *s = strata_malloc(n + k + 1);
  if (!s) {
    strata_error_nomem(err, NULL);
    return NULL;
  }
  memcpy(s, path, n);
  memcpy(s + n, suffix, k + 1);
  return s;
}

/* The temporaries are "<name>.XXXXXX.tmp" (X: letters and digits). */
#define TMP_RANDOM 6
static const char tmp_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

static int is_tmp_of(const char *entry, const char *base) {
  size_t n = strlen(base);
  if (strncmp(entry, base, n) || entry[n] != '.' || strlen(entry + n + 1) != TMP_RANDOM + 4 ||
      strcmp(entry + n + 1 + TMP_RANDOM, ".tmp"))
    return 0;
  for (int i = 0; i < TMP_RANDOM; i++)
    if (!strchr(tmp_chars, entry[n + 1 + i]) || !entry[n + 1 + i]) return 0;
  return 1;
}

/* Under the lock no live writer of path has a temporary: what is there was
** left by one that was killed, and goes. */
static void remove_leftovers(const char *path) {
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  char *dir = slash ? strata_strndup(path, (size_t)(slash - path) + 1) : strata_strdup(".");
  DIR *d = dir ? opendir(dir) : NULL;
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    if (!is_tmp_of(e->d_name, base)) continue;
    unlinkat(dirfd(d), e->d_name, 0);
  }
  if (d) closedir(d);
  strata_free(dir);
}

/* Why a file could not be made, in the words write_error (save.c) uses. */
static strata_status create_error(strata_error *err, const char *what, const char *path, int e) {
  if (e == EACCES || e == EROFS)
    return strata_error_set(err, STRATA_EIO, "%s '%s': the file or its directory is read-only (%s)", what, path,
                            strerror(e));
  return strata_error_set(err, STRATA_EIO, "%s '%s': %s", what, path, strerror(e));
}

strata_status file_lock(const char *path, const char *what, int wait_ms, file_lock_t *lk,
                        strata_error *err) {
  lk->fd = -1;
  if (!(lk->path = with_suffix(path, "-lock", err))) return STRATA_ENOMEM;
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    int fd = open(lk->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
      strata_status st = create_error(err, what, path, errno);
      strata_free(lk->path);
      lk->path = NULL;
      return st;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      /* The holder before removed the lock file as it let go: this one
      ** counts only while it is still the one at its name. */
      struct stat held, named;
      if (fstat(fd, &held) == 0 && lstat(lk->path, &named) == 0 && held.st_dev == named.st_dev &&
          held.st_ino == named.st_ino) {
        lk->fd = fd;
        remove_leftovers(path);
        return STRATA_OK;
      }
      close(fd);
      continue;
    }
    int e = errno;
    close(fd);
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long ms = (long long)(now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
    if (e != EWOULDBLOCK || ms >= wait_ms) {
      strata_free(lk->path);
      lk->path = NULL;
      if (e != EWOULDBLOCK) return strata_error_set(err, STRATA_EIO, "%s '%s': cannot lock it: %s", what, path, strerror(e));
      return strata_error_set(err, STRATA_EIO, "%s '%s': another process is saving it (still busy after %d ms)",
                              what, path, wait_ms);
    }
    struct timespec pause = { 0, 5 * 1000000 };
    nanosleep(&pause, NULL);
  }
}

void file_unlock(file_lock_t *lk) {
  if (lk->fd >= 0) {
    unlink(lk->path); /* while held: see file_lock */
    close(lk->fd);
  }
  lk->fd = -1;
  strata_free(lk->path);
  lk->path = NULL;
}

int file_tmp_create(const char *path, const char *what, char **tmp, strata_error *err) {
  size_t n = strlen(path);
  *tmp = NULL;
  char *name = with_suffix(path, ".XXXXXX.tmp", err);
  if (!name) return -1;
  for (int tries = 0; tries < 100; tries++) {
    uint64_t r = file_random64();
    for (int i = 0; i < TMP_RANDOM; i++, r /= sizeof tmp_chars - 1) name[n + 1 + i] = tmp_chars[r % (sizeof tmp_chars - 1)];
    /* O_EXCL: a name no one else uses, and a link put there is not written through. */
    int fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      *tmp = name;
      return fd;
    }
    if (errno != EEXIST) break;
  }
  create_error(err, what, path, errno);
  strata_free(name);
  return -1;
}

strata_status file_tmp_commit(int fd, char *tmp, const char *path, const char *what, strata_error *err) {
  strata_status st = STRATA_OK;
  int failed = fsync(fd) != 0, e = errno;
  if (close(fd) != 0 && !failed) failed = 1, e = errno;
  if (failed) {
    st = strata_error_set(err, STRATA_EIO, "%s '%s': %s", what, path, strerror(e));
  } else if ((st = strata_file_check_replace(path, what, err)) == STRATA_OK && rename(tmp, path) != 0) {
    /* Checked again just before: what came to path while writing is not replaced either. */
    st = strata_error_set(err, STRATA_EIO, "%s '%s': %s", what, path, strerror(errno));
  }
  if (st) {
    unlink(tmp);
  } else {
    /* The rename itself made durable (a directory that cannot be flushed,
    ** as on some network file systems, keeps the rename unflushed). */
    char *slash = strrchr(tmp, '/');
    if (slash) *slash = '\0';
    int dfd = open(slash ? (*tmp ? tmp : "/") : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      fsync(dfd);
      close(dfd);
    }
  }
  strata_free(tmp);
  return st;
}

void file_tmp_discard(int fd, char *tmp) {
  if (fd >= 0) close(fd);
  if (tmp) unlink(tmp);
  strata_free(tmp);
}

strata_status strata_file_write(const char *path, const void *data, size_t len,
                                strata_error *err) {
  strata_status st = strata_file_check_replace(path, "cannot write", err);
  if (st) return st;
  file_lock_t lk;
  if ((st = file_lock(path, "cannot write", FILE_LOCK_WAIT_MS, &lk, err))) return st;
  char *tmp;
  int fd = file_tmp_create(path, "cannot write", &tmp, err);
  if (fd < 0) {
    st = err ? err->status : STRATA_EIO; /* (out of memory, or the file could not be made) */
  } else if (write_all(fd, data, len) != 0) {
    st = strata_error_set(err, STRATA_EIO, "cannot write '%s': %s", path, strerror(errno));
    file_tmp_discard(fd, tmp);
  } else {
    st = file_tmp_commit(fd, tmp, path, "cannot write", err);
  }
  file_unlock(&lk);
  return st;
}
