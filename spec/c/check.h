/*
** check.h - the C unit tests' whole framework: CHECK records a failure and
** goes on; main() ends with check_summary(), which prints a count and
** returns the exit status.
*/
#ifndef STRATA_CHECK_H
#define STRATA_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      check_passed++;                                                          \
    } else {                                                                   \
      check_failed++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                          \
  do {                                                                              \
    long long va_ = (long long)(a), vb_ = (long long)(b);                           \
    if (va_ == vb_) {                                                               \
      check_passed++;                                                               \
    } else {                                                                        \
      check_failed++;                                                               \
      fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, \
              va_, vb_);                                                            \
    }                                                                               \
  } while (0)

#define CHECK_NEAR(a, b, eps)                                                         \
  do {                                                                                \
    double va_ = (a), vb_ = (b);                                                      \
    if (fabs(va_ - vb_) <= (eps)) {                                                   \
      check_passed++;                                                                 \
    } else {                                                                          \
      check_failed++;                                                                 \
      fprintf(stderr, "%s:%d: %s == %.9g, expected %.9g\n", __FILE__, __LINE__, #a, va_, \
              vb_);                                                                   \
    }                                                                                 \
  } while (0)

#define CHECK_STR(a, b)                                                                \
  do {                                                                                 \
    const char *va_ = (a), *vb_ = (b);                                                 \
    if (va_ != NULL && vb_ != NULL && strcmp(va_, vb_) == 0) {                         \
      check_passed++;                                                                  \
    } else {                                                                           \
      check_failed++;                                                                  \
      fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, \
              va_ ? va_ : "(null)", vb_ ? vb_ : "(null)");                             \
    }                                                                                  \
  } while (0)

/* A substring check for error messages. */
#define CHECK_HAS(haystack, needle) CHECK(strstr((haystack), (needle)) != NULL)

static inline int check_summary(const char *suite) {
  printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
  return check_failed == 0 ? 0 : 1;
}

#endif
