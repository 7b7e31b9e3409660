/*
** test_handover_pg.c - the hand-over queue (core/src/handover.h) against the
** fixture pg_server's throw-away server: a committed send is notified and
** taken once; a rolled-back send is neither notified nor queued; two takers
** in open transactions never take one row (SKIP LOCKED); a taker that rolls
** back, or a taker or sender killed (SIGKILL) in its transaction, leaves the
** queue as before it; 1,000 rows taken in batches by two takers, each once.
** Nothing waits on the clock for a verdict: a notification is waited for
** with a bound far out of reach, and a dead client's rollback is waited for
** by a lock that the server frees only then. Exit 77 (skipped) without libpq
** or without a server.
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
#include "handover.h"
#include "pg_server.h"

#define SCHEMA "strata_handovertest_c"
#define FAR_MS 60000 /* a notification's bound: never reached unless one is lost */
static char server[512];

/* The first value of the query text, as a number (-1 when it failed). */
static long long value(PGconn *c, const char *text) {
  PGresult *r = PQexec(c, text);
  long long v = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : -1;
  PQclear(r);
  return v;
}

static PGconn *connect_to(void) {
  PGconn *c = PQconnectdb(server);
  if (PQstatus(c) != CONNECTION_OK) fprintf(stderr, "%s: %s", server, PQerrorMessage(c));
  return c;
}

static int send1(PGconn *c, uint64_t uid, const char *to) {
  strata_error err;
  strata_status st = handover_send(c, SCHEMA, uid, "area:1", to, 7, &err);
  if (st != STRATA_OK) fprintf(stderr, "handover_send %llu: %s\n", (unsigned long long)uid, err.message);
  return st == STRATA_OK;
}

/* Takes up to max toward "area:2" on c; the count taken (-1: an error). */
static long take(PGconn *c, size_t max, handover_item *out) {
  static const char *const scopes[] = { "area:2", "area:3" };
  strata_error err;
  size_t n = 0;
  if (handover_take(c, SCHEMA, scopes, 2, max, out, &n, &err) != STRATA_OK) {
    fprintf(stderr, "handover_take: %s\n", err.message);
    return -1;
  }
  return (long)n;
}

static int queued(PGconn *c) { return (int)value(c, "SELECT count(*) FROM " SCHEMA ".handovers"); }

/* Send, commit: the listener is told, one take has it, the next nothing. */
static void committed(PGconn *sender, PGconn *listener, PGconn *taker) {
  strata_error err;
  char scope[STRATA_LEASE_SCOPE_MAX];
  int notified = 0;
  CHECK(pg_sql(sender, "BEGIN") && send1(sender, 101, "area:2") && pg_sql(sender, "COMMIT"));
  CHECK_EQ_INT(handover_wait(listener, FAR_MS, scope, &notified, &err), STRATA_OK);
  CHECK(notified && strcmp(scope, "area:2") == 0);
  handover_item items[4];
  CHECK(pg_sql(taker, "BEGIN"));
  CHECK_EQ_INT(take(taker, 4, items), 1);
  CHECK(items[0].uid == 101 && items[0].fence == 7);
  CHECK(strcmp(items[0].from, "area:1") == 0 && strcmp(items[0].to, "area:2") == 0);
  CHECK(pg_sql(taker, "COMMIT"));
  CHECK(pg_sql(taker, "BEGIN"));
  CHECK_EQ_INT(take(taker, 4, items), 0);
  CHECK(pg_sql(taker, "COMMIT"));
  /* a uid already queued: an error naming it, the transaction still usable */
  CHECK(pg_sql(sender, "BEGIN") && send1(sender, 102, "area:2"));
  CHECK_EQ_INT(handover_send(sender, SCHEMA, 102, "area:1", "area:3", 7, &err), STRATA_ESTATE);
  CHECK(strstr(err.message, "102") != NULL && strcmp(err.function, "handover_send") == 0);
  CHECK(pg_sql(sender, "COMMIT"));
  CHECK_EQ_INT(handover_wait(listener, FAR_MS, scope, &notified, &err), STRATA_OK);
  CHECK(notified && strcmp(scope, "area:2") == 0);
  CHECK(pg_sql(taker, "BEGIN"));
  CHECK_EQ_INT(take(taker, 4, items), 1);
  CHECK(pg_sql(taker, "COMMIT"));
  CHECK_EQ_INT(handover_send(sender, SCHEMA, 0, "area:1", "area:3", 7, &err), STRATA_EARG);
  CHECK_EQ_INT(handover_send(sender, SCHEMA, 5, "area:1", "", 7, &err), STRATA_EARG);
}

/* Send, roll back: nothing queued, and no notification before a later,
** committed marker's (notifications arrive in commit order). */
static void rolled_back(PGconn *sender, PGconn *listener) {
  strata_error err;
  char scope[STRATA_LEASE_SCOPE_MAX];
  int notified = 0;
  CHECK(pg_sql(sender, "BEGIN") && send1(sender, 201, "area:3") && pg_sql(sender, "ROLLBACK"));
  CHECK_EQ_INT(queued(sender), 0);
  CHECK(pg_sql(sender, "NOTIFY " SCHEMA "_handover, 'marker'"));
  CHECK_EQ_INT(handover_wait(listener, FAR_MS, scope, &notified, &err), STRATA_OK);
  CHECK(notified && strcmp(scope, "marker") == 0);
  CHECK_EQ_INT(handover_wait(listener, 0, scope, &notified, &err), STRATA_OK);
  CHECK(!notified);
}

/* Two takers in open transactions: each row to one of them; a rollback
** leaves a row for the next. */
static void two_takers(PGconn *sender, PGconn *a, PGconn *b) {
  handover_item ia[4], ib[4];
  CHECK(pg_sql(sender, "BEGIN") && send1(sender, 301, "area:2") && send1(sender, 302, "area:3") && pg_sql(sender, "COMMIT"));
  CHECK(pg_sql(a, "BEGIN") && pg_sql(b, "BEGIN"));
  CHECK_EQ_INT(take(a, 1, ia), 1);
  CHECK_EQ_INT(take(b, 4, ib), 1);
  CHECK(ia[0].uid == 301 && ib[0].uid == 302); /* queue order, the first skipped by b */
  CHECK(pg_sql(a, "ROLLBACK") && pg_sql(b, "COMMIT"));
  CHECK(pg_sql(b, "BEGIN"));
  CHECK_EQ_INT(take(b, 4, ib), 1);
  CHECK(ib[0].uid == 301);
  CHECK(pg_sql(b, "COMMIT"));
  CHECK_EQ_INT(queued(sender), 0);
}

/* A child on its own connection: BEGIN, then sends uid (send) or takes
** (else), says so on the pipe, and waits to be killed. */
static pid_t child_in_transaction(int send, uint64_t uid) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    PGconn *c = PQconnectdb(server);
    handover_item items[8];
    int ok = PQstatus(c) == CONNECTION_OK && pg_sql(c, "BEGIN") && (send ? send1(c, uid, "area:2") : take(c, 8, items) > 0);
    char byte = ok ? 'y' : 'n';
    if (write(fds[1], &byte, 1) != 1) _exit(1);
    for (;;) pause();
  }
  close(fds[1]);
  char byte = 'n';
  if (pid < 0 || read(fds[0], &byte, 1) != 1 || byte != 'y') {
    if (pid > 0) kill(pid, SIGKILL), waitpid(pid, NULL, 0);
    pid = -1;
  }
  close(fds[0]);
  return pid;
}

static void killed(PGconn *sender, PGconn *admin, PGconn *taker) {
  handover_item items[8];
  CHECK(pg_sql(sender, "BEGIN") && send1(sender, 401, "area:2") && send1(sender, 402, "area:2") && pg_sql(sender, "COMMIT"));
  pid_t pid = child_in_transaction(0, 0);
  CHECK(pid > 0);
  if (pid > 0) {
    CHECK(pg_sql(taker, "BEGIN"));
    CHECK_EQ_INT(take(taker, 8, items), 0); /* the child holds both */
    CHECK(pg_sql(taker, "ROLLBACK"));
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
  }
  /* waits for the server to roll the dead taker back: its locks go then */
  CHECK(pg_sql(admin, "BEGIN") && pg_sql(admin, "SELECT uid FROM " SCHEMA ".handovers FOR UPDATE") && pg_sql(admin, "ROLLBACK"));
  CHECK(pg_sql(taker, "BEGIN"));
  CHECK_EQ_INT(take(taker, 8, items), 2);
  CHECK(items[0].uid == 401 && items[1].uid == 402);
  CHECK(pg_sql(taker, "COMMIT"));

  pid = child_in_transaction(1, 501);
  CHECK(pid > 0);
  if (pid > 0) kill(pid, SIGKILL), waitpid(pid, NULL, 0);
  CHECK_EQ_INT(queued(admin), 0);
  /* the same uid sent again waits for the dead sender's rollback, then goes */
  CHECK(pg_sql(sender, "BEGIN") && send1(sender, 501, "area:2") && pg_sql(sender, "ROLLBACK"));
  CHECK_EQ_INT(queued(admin), 0);
}

/* 1,000 rows from one sender, taken by two takers in batches of 64, their
** transactions open side by side: every uid exactly once. */
static void thousand(PGconn *sender, PGconn *a, PGconn *b) {
  enum { N = 1000, BATCH = 64 };
  static int seen[N + 1];
  int ok = pg_sql(sender, "BEGIN");
  for (uint64_t uid = 1; uid <= N && ok; uid++) ok = send1(sender, 1000 + uid, uid % 2 ? "area:2" : "area:3");
  CHECK(ok && pg_sql(sender, "COMMIT"));
  handover_item ia[BATCH], ib[BATCH];
  long na = 1, nb = 1, total = 0, twice = 0;
  while ((na > 0 || nb > 0) && total <= N) {
    CHECK(pg_sql(a, "BEGIN") && pg_sql(b, "BEGIN"));
    na = take(a, BATCH, ia);
    nb = take(b, BATCH, ib);
    CHECK(pg_sql(a, "COMMIT") && pg_sql(b, "COMMIT"));
    for (long i = 0; i < na; i++) twice += seen[ia[i].uid - 1000]++ > 0;
    for (long i = 0; i < nb; i++) twice += seen[ib[i].uid - 1000]++ > 0;
    total += (na > 0 ? na : 0) + (nb > 0 ? nb : 0);
  }
  CHECK_EQ_INT(total, N);
  CHECK_EQ_INT(twice, 0);
  CHECK_EQ_INT(queued(sender), 0);
}

static void lag(PGconn *sender) {
  strata_error err;
  CHECK(pg_sql(sender, "BEGIN") && send1(sender, 601, "area:3") && send1(sender, 602, "area:2") &&
        send1(sender, 603, "area:3") && pg_sql(sender, "COMMIT"));
  handover_lag_row rows[4];
  size_t n = 0;
  CHECK_EQ_INT(handover_lag(sender, SCHEMA, rows, 4, &n, &err), STRATA_OK);
  CHECK_EQ_INT(n, 2);
  CHECK(strcmp(rows[0].to, "area:2") == 0 && rows[0].count == 1 && rows[0].oldest >= 0);
  CHECK(strcmp(rows[1].to, "area:3") == 0 && rows[1].count == 2 && rows[1].oldest >= 0);
  CHECK(pg_sql(sender, "DELETE FROM " SCHEMA ".handovers"));
}

/* The listener's connection terminated: the wait says so, one line. */
static void lost(PGconn *admin, PGconn *listener) {
  strata_error err;
  char scope[STRATA_LEASE_SCOPE_MAX];
  int notified = 0;
  char text[200];
  snprintf(text, sizeof text, "SELECT pg_terminate_backend(%d)", PQbackendPID(listener));
  CHECK(pg_sql(admin, text));
  /* the notifications still unread come first, then the error */
  strata_status st = STRATA_OK;
  for (int i = 0; i < 100 && st == STRATA_OK; i++) st = handover_wait(listener, FAR_MS, scope, &notified, &err);
  CHECK_EQ_INT(st, STRATA_EIO);
  CHECK(st == STRATA_EIO && strcmp(err.function, "handover_wait") == 0 && strchr(err.message, '\n') == NULL);
  CHECK(st == STRATA_EIO && strstr(err.message, "connection lost") != NULL);
}

int main(void) {
  if (!server_uri(server, sizeof server)) {
    puts("skipped: no server (no STRATA_PG_URI, no URI file: PostgreSQL not installed?)");
    return 77;
  }
  PGconn *admin = connect_to(), *sender = connect_to(), *listener = connect_to(), *a = connect_to(),
         *b = connect_to();
  strata_error err;
  if (PQstatus(admin) == CONNECTION_OK && PQstatus(b) == CONNECTION_OK) {
    CHECK(pg_sql(admin, "DROP SCHEMA IF EXISTS " SCHEMA " CASCADE"));
    CHECK_EQ_INT(handover_create(admin, SCHEMA, &err), STRATA_OK);
    CHECK_EQ_INT(handover_create(sender, SCHEMA, &err), STRATA_OK); /* again: nothing to do */
    CHECK_EQ_INT(handover_listen(listener, SCHEMA, &err), STRATA_OK);
    committed(sender, listener, a);
    rolled_back(sender, listener);
    two_takers(sender, a, b);
    killed(sender, admin, a);
    thousand(sender, a, b);
    lag(sender);
    lost(admin, listener);
    CHECK(pg_sql(admin, "DROP SCHEMA " SCHEMA " CASCADE"));
  } else {
    CHECK(0);
  }
  PQfinish(admin), PQfinish(sender), PQfinish(listener), PQfinish(a), PQfinish(b);
  return check_summary("handover_pg");
}
#endif
