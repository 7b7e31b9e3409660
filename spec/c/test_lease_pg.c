/*
** test_lease_pg.c - leases in PostgreSQL (strata/lease.h) against the
** fixture pg_server's throw-away server: two clients contend for a scope; an
** expiry lets the second take it with a higher fence, and the first's renew
** then reports it lost; a check with the old fence fails; a child process
** that holds a lease and is killed (SIGKILL) keeps it until its expiry, not
** after; a client whose connection is terminated gets one clear error; the
** hand-over queue's lag per destination (rows queued with SQL).
** Expiry never comes by waiting: a ttl of 0, or an expiry set in the past
** through SQL (the database's clock decides, in both). Exit 77 (skipped)
** without libpq or without a server.
*/
#include <stdio.h>
#include <stdlib.h>

#ifndef STRATA_HAVE_LIBPQ
int main(void) {
  puts("skipped: built without libpq (Debian: libpq-dev; STRATA_WITH_POSTGRES)");
  return 77;
}
#else
#include <libpq-fe.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "pg_server.h"
#include "strata/lease.h"

#define SCHEMA "strata_leasetest_c"
static char uri[600];

/* Sets scope's expiry a second in the past, as if its ttl had run out. */
static int expire(PGconn *c, const char *scope) {
  char text[256];
  snprintf(text, sizeof text, "UPDATE " SCHEMA ".leases SET expires_at = now() - interval '1 second' WHERE scope = '%s'",
           scope);
  return pg_sql(c, text);
}

static strata_lease_client *open_client(const char *label, double ttl) {
  strata_error err;
  strata_lease_client *c = strata_lease_open(uri, label, ttl, &err);
  if (c == NULL) fprintf(stderr, "strata_lease_open(%s): %s\n", label, err.message);
  return c;
}

static void contend(PGconn *admin, strata_lease_client *a, strata_lease_client *b) {
  strata_lease_info ia, ib;
  strata_error err;
  CHECK_EQ_INT(strata_lease_acquire(a, "area:1", &ia, &err), STRATA_OK);
  CHECK(ia.mine && !ia.expired && ia.fence >= 1);
  CHECK(strcmp(ia.holder, strata_lease_holder(a)) == 0);
  CHECK_EQ_INT(strata_lease_acquire(b, "area:1", &ib, &err), STRATA_OK);
  CHECK(!ib.mine && !ib.expired);
  CHECK(strcmp(ib.holder, strata_lease_holder(a)) == 0);
  CHECK(ib.remaining > 0 && ib.fence == ia.fence && ib.until[0] != '\0');
  /* acquiring again what one holds renews it, its fence kept */
  strata_lease_info again;
  CHECK_EQ_INT(strata_lease_acquire(a, "area:1", &again, &err), STRATA_OK);
  CHECK(again.mine && again.fence == ia.fence);
  CHECK_EQ_INT(strata_lease_check(a, "area:1", ia.fence, &err), STRATA_OK);

  /* the expiry passes: b takes it with a higher fence */
  CHECK(expire(admin, "area:1"));
  CHECK_EQ_INT(strata_lease_acquire(b, "area:1", &ib, &err), STRATA_OK);
  CHECK(ib.mine && ib.fence == ia.fence + 1);
  CHECK(strcmp(ib.holder, strata_lease_holder(b)) == 0);

  /* a's renew reports it lost, to whom */
  strata_lease_info lost[2];
  size_t n = 99;
  CHECK_EQ_INT(strata_lease_renew(a, lost, 2, &n, &err), STRATA_ESTATE);
  CHECK_EQ_INT(n, 1);
  CHECK(strcmp(lost[0].scope, "area:1") == 0 && strcmp(lost[0].holder, strata_lease_holder(b)) == 0);
  CHECK(strstr(err.message, "lost area:1") != NULL && strstr(err.message, strata_lease_holder(b)) != NULL);
  CHECK(err.function != NULL && strcmp(err.function, "strata_lease_renew") == 0);
  /* ... once: it is no longer a's */
  CHECK_EQ_INT(strata_lease_renew(a, NULL, 0, &n, &err), STRATA_OK);
  CHECK_EQ_INT(n, 0);
  CHECK_EQ_INT(strata_lease_renew(b, NULL, 0, &n, &err), STRATA_OK);

  /* a late write of a is refused by its old fence */
  CHECK_EQ_INT(strata_lease_check(a, "area:1", ia.fence, &err), STRATA_ESTATE);
  CHECK(strstr(err.message, "fence") != NULL && strstr(err.message, strata_lease_holder(b)) != NULL);
  CHECK_EQ_INT(strata_lease_check(b, "area:1", ib.fence, &err), STRATA_OK);

  /* release: only by its holder; the next grant's fence goes on from it */
  CHECK_EQ_INT(strata_lease_release(a, "area:1", &err), STRATA_ESTATE);
  CHECK(strstr(err.message, "not held") != NULL);
  CHECK_EQ_INT(strata_lease_release(b, "area:1", &err), STRATA_OK);
  CHECK_EQ_INT(strata_lease_check(b, "area:1", ib.fence, &err), STRATA_ESTATE);
  CHECK_EQ_INT(strata_lease_acquire(a, "area:1", &ia, &err), STRATA_OK);
  CHECK(ia.mine && ia.fence == ib.fence + 1);
}

/* A ttl of 0: granted and expired at once, so anyone takes it. */
static void ttl_zero(strata_lease_client *b) {
  strata_lease_client *z = open_client("zero", 0);
  CHECK(z != NULL);
  if (z == NULL) return;
  strata_lease_info iz, ib;
  strata_error err;
  CHECK_EQ_INT(strata_lease_acquire(z, "map:45", &iz, &err), STRATA_OK);
  CHECK(iz.expired && iz.remaining <= 0);
  CHECK_EQ_INT(strata_lease_acquire(b, "map:45", &ib, &err), STRATA_OK);
  CHECK(ib.mine && ib.fence == iz.fence + 1);
  strata_lease_close(z);
}

/* A child acquires branch:6 and is killed: nobody takes the lease before its
** expiry (30 s, set in the past by SQL below), b does after. */
static void killed_child(PGconn *admin, strata_lease_client *b) {
  int fds[2];
  CHECK(pipe(fds) == 0);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    strata_lease_client *c = open_client("child", 30);
    strata_lease_info info;
    long long fence = c != NULL && strata_lease_acquire(c, "branch:6", &info, NULL) == STRATA_OK && info.mine
      ? (long long)info.fence : -1;
    if (write(fds[1], &fence, sizeof fence) != sizeof fence) _exit(1);
    for (;;) pause(); /* until killed */
  }
  close(fds[1]);
  long long fence = -1;
  CHECK(read(fds[0], &fence, sizeof fence) == sizeof fence && fence >= 1);
  close(fds[0]);
  kill(pid, SIGKILL);
  int status;
  CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status));

  strata_lease_info ib;
  strata_error err;
  CHECK_EQ_INT(strata_lease_acquire(b, "branch:6", &ib, &err), STRATA_OK);
  CHECK(!ib.mine && ib.fence == fence && strstr(ib.holder, "child@") == ib.holder);
  CHECK(expire(admin, "branch:6"));
  CHECK_EQ_INT(strata_lease_acquire(b, "branch:6", &ib, &err), STRATA_OK);
  CHECK(ib.mine && ib.fence == fence + 1);
}

static int count_each(void *ud, const strata_lease_info *l) {
  int *n = ud;
  (*n)++;
  if (strcmp(l->scope, "branch:6") == 0) CHECK(l->mine && !l->expired);
  return 0;
}

/* The lag per destination: what was queued (inserted here with SQL, ages
** set by the database's clock), by scope; none on a world with no row; a
** walk stopped by its callback; more destinations than one read holds. */
typedef struct lag_seen {
  int n, stop_at;
  strata_lease_handover_info first[3];
} lag_seen;

static int lag_each(void *ud, const strata_lease_handover_info *h) {
  lag_seen *s = ud;
  if (s->n < 3) s->first[s->n] = *h;
  return ++s->n == s->stop_at;
}

static void handovers(PGconn *admin) {
  strata_lease_client *h = open_client("lag", 30);
  CHECK(h != NULL);
  if (h == NULL) return;
  strata_error err;
  lag_seen seen = { 0, 0, { { "", 0, 0 } } };
  CHECK_EQ_INT(strata_lease_handovers(h, lag_each, &seen, &err), STRATA_OK);
  CHECK_EQ_INT(seen.n, 0);
  CHECK(pg_sql(admin, "INSERT INTO " SCHEMA ".handovers (uid, from_scope, to_scope, fence, queued_at) VALUES"
                      " (1, 'area:1', 'area:2', 1, now() - interval '5 seconds'), (2, 'area:1', 'area:2', 1, now()),"
                      " (3, 'area:2', 'area:1', 4, now() - interval '1 second')"));
  CHECK_EQ_INT(strata_lease_handovers(h, lag_each, &seen, &err), STRATA_OK);
  CHECK_EQ_INT(seen.n, 2);
  CHECK(strcmp(seen.first[0].scope, "area:1") == 0 && seen.first[0].queued == 1 && seen.first[0].oldest >= 1);
  CHECK(strcmp(seen.first[1].scope, "area:2") == 0 && seen.first[1].queued == 2 && seen.first[1].oldest >= 5);
  seen = (lag_seen){ 0, 1, { { "", 0, 0 } } };
  CHECK_EQ_INT(strata_lease_handovers(h, lag_each, &seen, &err), STRATA_OK);
  CHECK_EQ_INT(seen.n, 1);
  CHECK(pg_sql(admin, "INSERT INTO " SCHEMA ".handovers (uid, from_scope, to_scope, fence)"
                      " SELECT 100 + i, 'area:1', 'map:' || i, 1 FROM generate_series(1000, 1299) AS i"));
  seen = (lag_seen){ 0, 0, { { "", 0, 0 } } };
  CHECK_EQ_INT(strata_lease_handovers(h, lag_each, &seen, &err), STRATA_OK);
  CHECK_EQ_INT(seen.n, 302);
  CHECK(pg_sql(admin, "DELETE FROM " SCHEMA ".handovers"));
  strata_lease_close(h);
}

/* The connection terminated by the server: one line naming what failed,
** then the same for every later call. */
static void terminated(PGconn *admin) {
  strata_lease_client *v = open_client("victim", 30);
  CHECK(v != NULL);
  if (v == NULL) return;
  strata_lease_info info;
  strata_error err;
  CHECK_EQ_INT(strata_lease_acquire(v, "area:9", &info, &err), STRATA_OK);
  CHECK(pg_sql(admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'strata lease victim'"));
  CHECK_EQ_INT(strata_lease_renew(v, NULL, 0, NULL, &err), STRATA_EIO);
  CHECK(strstr(err.message, "connection lost") != NULL && strchr(err.message, '\n') == NULL);
  CHECK(err.function != NULL && strcmp(err.function, "strata_lease_renew") == 0);
  CHECK_EQ_INT(strata_lease_acquire(v, "area:10", &info, &err), STRATA_EIO);
  CHECK(strstr(err.message, "connection lost") != NULL && strchr(err.message, '\n') == NULL);
  CHECK(err.function != NULL && strcmp(err.function, "strata_lease_acquire") == 0);
  CHECK_EQ_INT(strata_lease_handovers(v, lag_each, NULL, &err), STRATA_EIO);
  CHECK(strstr(err.message, "connection lost") != NULL && strchr(err.message, '\n') == NULL);
  CHECK(err.function != NULL && strcmp(err.function, "strata_lease_handovers") == 0);
  strata_lease_close(v);
}

static void bad_arguments(void) {
  strata_error err;
  CHECK(strata_lease_open(uri, "", 30, &err) == NULL && err.status == STRATA_EARG);
  CHECK(strata_lease_open(uri, "a@b", 30, &err) == NULL && err.status == STRATA_EARG);
  CHECK(strata_lease_open(uri, "a", -1, &err) == NULL && err.status == STRATA_EARG);
  CHECK(strata_lease_open("postgresql:///strata?world=x&host=/nowhere/at/all", "a", 1, &err) == NULL);
  CHECK(err.status == STRATA_EIO && strchr(err.message, '\n') == NULL);
  CHECK(strata_lease_open("world.db", "a", 1, &err) == NULL && err.status == STRATA_EARG);
}

int main(void) {
  char server[512];
  if (!server_uri(server, sizeof server)) {
    puts("skipped: no server (no STRATA_PG_URI, no URI file: PostgreSQL not installed?)");
    return 77;
  }
  snprintf(uri, sizeof uri, "%s%sworld=leasetest_c", server, strchr(server, '?') ? "&" : "?");
  PGconn *admin = PQconnectdb(server);
  if (PQstatus(admin) != CONNECTION_OK) {
    fprintf(stderr, "%s: %s", server, PQerrorMessage(admin));
    PQfinish(admin);
    return 1;
  }
  CHECK(pg_sql(admin, "DROP SCHEMA IF EXISTS " SCHEMA " CASCADE"));
  strata_lease_client *a = open_client("a", 30), *b = open_client("b", 30);
  CHECK(a != NULL && b != NULL);
  if (a != NULL && b != NULL) {
    CHECK(strcmp(strata_lease_holder(a), strata_lease_holder(b)) != 0);
    contend(admin, a, b);
    ttl_zero(b);
    killed_child(admin, b);
    int n = 0;
    strata_error err;
    CHECK_EQ_INT(strata_lease_list(b, count_each, &n, &err), STRATA_OK);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(strata_lease_release_all(b, &err), STRATA_OK);
    CHECK_EQ_INT(strata_lease_check(b, "branch:6", 1, &err), STRATA_ESTATE);
    handovers(admin);
    terminated(admin);
    bad_arguments();
  }
  strata_lease_close(a);
  strata_lease_close(b);
  CHECK(pg_sql(admin, "DROP SCHEMA " SCHEMA " CASCADE"));
  PQfinish(admin);
  return check_summary("lease_pg");
}
#endif
