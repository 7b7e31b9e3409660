/*
** test_version.c - the version a program compiles against (STRATA_VERSION,
** strata/version.h) and the one it runs with (strata_version()) are both
** project()'s in CMakeLists.txt, which the build writes into the header.
*/
#include <stdlib.h>

#include "check.h"
#include "strata/strata.h"

/* "X.Y.Z" from the `project(strata VERSION X.Y.Z` line of CMakeLists.txt. */
static int project_version(char *out, size_t size) {
  const char *src = getenv("STRATA_SOURCE_DIR");
  if (src == NULL) src = STRATA_SOURCE_DEFAULT;
  char path[4096];
  snprintf(path, sizeof path, "%s/CMakeLists.txt", src);
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  char line[512];
  int found = 0;
  while (!found && fgets(line, sizeof line, f)) {
    unsigned a, b, c;
    if (sscanf(line, "project(strata VERSION %u.%u.%u", &a, &b, &c) == 3) {
      snprintf(out, size, "%u.%u.%u", a, b, c);
      found = 1;
    }
  }
  fclose(f);
  return found;
}

int main(void) {
  char want[64];
  CHECK(project_version(want, sizeof want));
  CHECK_STR(strata_version(), want);
  CHECK_STR(STRATA_VERSION, want);
  char macros[64];
  snprintf(macros, sizeof macros, "%d.%d.%d", STRATA_VERSION_MAJOR, STRATA_VERSION_MINOR, STRATA_VERSION_PATCH);
  CHECK_STR(macros, want);
  return check_summary("version");
}
