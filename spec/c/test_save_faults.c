/* test_save_faults.c - saves that the system refuses: a full disk (a file
** size limit, RLIMIT_FSIZE), a read-only directory, a path that is a
** directory, a file another process holds locked. Each is an error from
** save naming the path and the cause; the file on disk is still the
** previous save, whole; the world stays dirty; once the cause is gone the
** next save writes everything that changed. An open waits for a save in
** progress elsewhere, and past its timeout says the file is busy. The last
** steps of a full save (the temporary's fsync, the rename over PATH) are made
** to fail on purpose (rename and fsync are wrapped: -Wl,--wrap, CMakeLists.txt):
** an error, each resource released once (test_save_faults_asan runs this
** under ASan), no temporary left. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "strata/world.h"
#include "world_dump.h"

static int same_as_file(strata_world *w, const char *p) {
  char *a = dump(w), *b = file_dump(p);
  int ok = b && !strcmp(a, b);
  free(a);
  free(b);
  return ok;
}

static int file_is(const char *p, const char *want) {
  char *b = file_dump(p);
  int ok = b && !strcmp(b, want);
  free(b);
  return ok;
}

static int exists(const char *p) { return access(p, F_OK) == 0; }

/* rename and fsync as the library calls them: while fail_rename (an errno)
** or fail_fsync (the how-many-th fsync from now, with errno fail_errno) is
** set, that call fails once, as a rename onto an immutable file (EPERM), a
** bind mount (EBUSY), or a delayed ENOSPC showing at fsync would. */
static int fail_rename, fail_fsync, fail_errno;
int __real_rename(const char *from, const char *to);
int __real_fsync(int fd);
int __wrap_rename(const char *from, const char *to);
int __wrap_fsync(int fd);
int __wrap_rename(const char *from, const char *to) {
  if (fail_rename) { errno = fail_rename; fail_rename = 0; return -1; }
  return __real_rename(from, to);
}
int __wrap_fsync(int fd) {
  if (fail_fsync && --fail_fsync == 0) { errno = fail_errno; return -1; }
  return __real_fsync(fd);
}

/* The names in dir, sorted, one a line: what a failed save must leave as it was. */
static char *listing(const char *dir) {
  struct dirent **names;
  int n = scandir(dir, &names, NULL, alphasort);
  size_t len = 1;
  for (int i = 0; i < n; i++) len += strlen(names[i]->d_name) + 1;
  char *s = calloc(1, len);
  for (int i = 0; i < n; i++) {
    strcat(strcat(s, names[i]->d_name), "\n");
    free(names[i]);
  }
  free(names);
  return s;
}

/* Objects with a kilobyte of properties each: n of them grow a save by n KB. */
static void grow(strata_world *w, int n) {
  char big[1024];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  for (int i = 0; i < n; i++) {
    uint64_t uid;
    strata_world_create(w, "thing", "base.rock", &uid, NULL);
    strata_value k, v;
    strata_value_string(&k, "note", 4, NULL);
    strata_value_string(&v, big, sizeof big - 1, NULL);
    strata_object_set(w, uid, &k, 1, &v, NULL);
    strata_value_clear(&k);
  }
}

static strata_world *make_world(void) {
  strata_world *w = strata_world_new(3, NULL);
  uint64_t m;
  strata_world_create_map(w, 20, 20, NULL, &m, NULL);
  strata_tilemap_clear(strata_world_tilemap(w, m), strata_tokens_intern(strata_world_tokens(w), "floor", 5, NULL), NULL);
  grow(w, 50);
  return w;
}

/* A file size limit just above the save: an incremental save that grows the
** file, and a full save to a new path, both fail; then both work. */
static void test_disk_full(const char *dir) {
  char path[600], fresh[600], tmp[700];
  snprintf(path, sizeof path, "%s/full.db", dir);
  snprintf(fresh, sizeof fresh, "%s/fresh.db", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp", fresh);
  strata_error err;
  strata_world *w = make_world();
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_OK);
  char *saved = dump(w);
  grow(w, 300); /* 300 KB more */
  char *now = dump(w);
  struct stat st;
  stat(path, &st);
  struct rlimit old, lim;
  getrlimit(RLIMIT_FSIZE, &old);
  lim = old;
  lim.rlim_cur = (rlim_t)st.st_size + 64 * 1024;
  signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails with EFBIG instead */
  CHECK_EQ_INT(setrlimit(RLIMIT_FSIZE, &lim), 0);
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_EIO);
  printf("disk full (incremental): %s\n", err.message);
  CHECK(strstr(err.message, path) != NULL && strstr(err.message, "full") != NULL);
  CHECK_EQ_INT(strata_world_save(w, fresh, NULL, 0, &err), STRATA_EIO);
  printf("disk full (new file): %s\n", err.message);
  CHECK(strstr(err.message, "full") != NULL);
  CHECK(!exists(fresh) && !exists(tmp));
  /* Nothing lost: the world is as it was, the file the previous save. */
  char *after = dump(w);
  CHECK_STR(after, now);
  free(after);
  setrlimit(RLIMIT_FSIZE, &old);
  CHECK(file_is(path, saved));
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_OK);
  CHECK(same_as_file(w, path));
  CHECK_EQ_INT(strata_world_save(w, fresh, NULL, 0, &err), STRATA_OK);
  CHECK(same_as_file(w, fresh));
  free(saved);
  free(now);
  strata_world_free(w);
  unlink(path);
  unlink(fresh);
}

/* Run as a user the directory's mode binds (root ignores it): a child that
** drops to nobody when the test runs as root. Returns the child's failures. */
static int read_only_dir_child(void) {
  char dir[] = "/tmp/strata_ro_XXXXXX", path[64], fresh[64];
  if (!mkdtemp(dir)) return 1;
  snprintf(path, sizeof path, "%s/w.db", dir);
  snprintf(fresh, sizeof fresh, "%s/new.db", dir);
  strata_error err;
  strata_world *w = make_world();
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_OK);
  char *saved = dump(w);
  grow(w, 5);
  CHECK_EQ_INT(chmod(dir, 0555), 0);
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_EIO);
  printf("read-only directory (incremental): %s\n", err.message);
  CHECK(strstr(err.message, "read-only") != NULL);
  CHECK_EQ_INT(strata_world_save(w, fresh, NULL, 0, &err), STRATA_EIO);
  printf("read-only directory (new file): %s\n", err.message);
  CHECK(!exists(fresh));
  CHECK(file_is(path, saved));
  CHECK_EQ_INT(chmod(dir, 0755), 0);
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_OK);
  CHECK(same_as_file(w, path));
  free(saved);
  strata_world_free(w);
  unlink(path);
  rmdir(dir);
  return check_failed;
}

static void test_read_only_dir(void) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) {
      perror("setuid");
      _exit(100);
    }
    check_failed = check_passed = 0; /* the child counts its own */
    int failed = read_only_dir_child();
    fflush(stdout);
    _exit(failed ? 1 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status)) fprintf(stderr, "read-only child: status %d\n", status);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_path_is_directory(const char *dir) {
  char path[600];
  snprintf(path, sizeof path, "%s/a_directory", dir);
  mkdir(path, 0755);
  strata_error err;
  strata_world *w = make_world();
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_EIO);
  printf("a directory: %s\n", err.message);
  CHECK(strstr(err.message, "is a directory") != NULL);
  strata_world *w2;
  strata_mod_version *mods;
  size_t n;
  CHECK_EQ_INT(strata_world_open(path, &w2, &mods, &n, &err), STRATA_EIO);
  CHECK(strstr(err.message, "is a directory") != NULL);
  /* The world's file is a directory now: the save says so, then works once it is gone. */
  char file[700];
  snprintf(file, sizeof file, "%s/w.db", dir);
  CHECK_EQ_INT(strata_world_save(w, file, NULL, 0, &err), STRATA_OK);
  grow(w, 2);
  unlink(file);
  mkdir(file, 0755);
  CHECK_EQ_INT(strata_world_save(w, file, NULL, 0, &err), STRATA_EIO);
  rmdir(file);
  CHECK_EQ_INT(strata_world_save(w, file, NULL, 0, &err), STRATA_OK);
  CHECK(same_as_file(w, file));
  rmdir(path);
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_OK);
  CHECK(same_as_file(w, path));
  strata_world_free(w);
  unlink(path);
  unlink(file);
}

/* A child holds the file's write lock (as a save does while it commits):
** for ms milliseconds, or (ms == 0) until the parent writes to *release.
** Returns its pid once it holds it. */
static pid_t hold_lock(const char *path, int ms, int *release) {
  int ready[2], go[2];
  if (pipe(ready) != 0 || pipe(go) != 0) return -1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    sqlite3 *db;
    char c;
    close(ready[0]);
    close(go[1]);
    if (sqlite3_open(path, &db) != SQLITE_OK || sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) != SQLITE_OK)
      _exit(1);
    if (write(ready[1], "x", 1) != 1) _exit(1);
    if (ms > 0) nanosleep(&(struct timespec){ ms / 1000, (long)(ms % 1000) * 1000000 }, NULL); /* usleep is not POSIX.1-2008 */
    else if (read(go[0], &c, 1) < 0) _exit(1);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(db);
    _exit(0);
  }
  close(ready[1]);
  close(go[0]);
  char c;
  if (read(ready[0], &c, 1) != 1) pid = -1;
  close(ready[0]);
  *release = go[1];
  return pid;
}

static void test_busy(const char *dir) {
  char path[600];
  snprintf(path, sizeof path, "%s/busy.db", dir);
  strata_error err;
  strata_world *w = make_world(), *w2;
  strata_mod_version *mods;
  size_t n;
  int status, release;
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_OK);
  /* A short save elsewhere: the open waits for it. */
  pid_t pid = hold_lock(path, 300, &release);
  CHECK(pid > 0);
  CHECK_EQ_INT(strata_world_open(path, &w2, &mods, &n, &err), STRATA_OK);
  if (pid > 0) waitpid(pid, &status, 0);
  close(release);
  strata_world_free(w2);
  strata_mod_versions_free(mods, n);
  /* A lock held past the timeout (until released below): open and save
  ** fail, clearly; the save works once the lock is gone. */
  grow(w, 3);
  pid = hold_lock(path, 0, &release);
  CHECK(pid > 0);
  CHECK_EQ_INT(strata_world_open(path, &w2, &mods, &n, &err), STRATA_EIO);
  printf("busy (open): %s\n", err.message);
  CHECK(strstr(err.message, "another process is saving it") != NULL);
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_EIO);
  printf("busy (save): %s\n", err.message);
  CHECK(strstr(err.message, "busy") != NULL);
  CHECK_EQ_INT(write(release, "x", 1), 1);
  close(release);
  if (pid > 0) waitpid(pid, &status, 0);
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_OK);
  CHECK(same_as_file(w, path));
  strata_world_free(w);
  unlink(path);
}

/* The last steps of a full save fail: onto a new path and over the previous
** save, the rename (EBUSY, EPERM) and the temporary's fsync (ENOSPC, EIO).
** Each is STRATA_EIO naming the path; the folder holds what it held; the
** world keeps its record, and the next save writes it all. */
static void test_last_step(const char *dir) {
  char sub[600], path[700], fresh[700];
  snprintf(sub, sizeof sub, "%s/last", dir);
  mkdir(sub, 0755);
  snprintf(path, sizeof path, "%s/w.db", sub);
  snprintf(fresh, sizeof fresh, "%s/fresh.db", sub);
  strata_error err;
  /* w saves to a new path, other (a world that never saved) over w's file */
  strata_world *w = make_world(), *other = make_world();
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_OK);
  char *saved = dump(w);
  const int renames[] = { EBUSY, EPERM }, syncs[] = { ENOSPC, EIO };
  for (int k = 0; k < 4; k++)
    for (int over = 0; over < 2; over++) {
      const char *to = over ? path : fresh;
      strata_world *saver = over ? other : w;
      grow(saver, 1);
      char *before = listing(sub);
      if (k < 2) fail_rename = renames[k];
      else fail_fsync = 1, fail_errno = syncs[k - 2];
      CHECK_EQ_INT(strata_world_save(saver, to, NULL, 0, &err), STRATA_EIO);
      printf("last step (%s, %s): %s\n", k < 2 ? "rename" : "fsync", over ? "over the save" : "new file",
             err.message);
      CHECK(strstr(err.message, to) != NULL && strstr(err.message, strerror(k < 2 ? renames[k] : syncs[k - 2])));
      fail_rename = fail_fsync = 0;
      char *after = listing(sub);
      CHECK_STR(after, before);
      free(before);
      free(after);
      CHECK(file_is(path, saved));
    }
  CHECK(!exists(fresh));
  CHECK_EQ_INT(strata_world_save(w, fresh, NULL, 0, &err), STRATA_OK);
  CHECK(same_as_file(w, fresh));
  CHECK_EQ_INT(strata_world_save(other, path, NULL, 0, &err), STRATA_OK);
  CHECK(same_as_file(other, path));
  free(saved);
  strata_world_free(w);
  strata_world_free(other);
  unlink(path);
  unlink(fresh);
  rmdir(sub);
}

int main(void) {
  char dir[] = "/tmp/strata_faults_XXXXXX";
  if (!mkdtemp(dir)) return 1;
  test_disk_full(dir);
  test_read_only_dir();
  test_path_is_directory(dir);
  test_busy(dir);
  test_last_step(dir);
  rmdir(dir);
  return check_summary("save_faults");
}
