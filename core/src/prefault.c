/*
** prefault.c - see prefault.h.
**
** Why: the first write to each new page of memory traps into the kernel.
** On the virtual machines games and their servers often run on, a trap
** costs far more than on bare metal: on the Debian VM strata is measured on,
** a plain memset of 4 MB of new memory takes 11-17 ms, and 3.5 ms when the
** pages are asked for first with MADV_POPULATE_WRITE. A parsed 20,000-node
** XY map holds about 3.7 MB, so its first parse was mostly page faults.
*/
/* madvise (and MADV_POPULATE_WRITE) is a BSD/Linux call, not POSIX: glibc
** declares it with the default (BSD and SVID) extensions only. */
#define _DEFAULT_SOURCE
#include "prefault.h"

#include <stdint.h>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels answer EINVAL */
#endif
#endif

/* The page-aligned [*first, *end) inside p[0 .. bytes), pages of `page` bytes. */
static int inner_pages(void *p, size_t bytes, uintptr_t page, uintptr_t *first, uintptr_t *end) {
  *first = ((uintptr_t)p + page - 1) & ~(page - 1);
  *end = ((uintptr_t)p + bytes) & ~(page - 1);
  return *end > *first;
}

/* Below this an array is likely carved from pages malloc touched already. */
#define PREFAULT_MIN ((size_t)256 * 1024)

void strata_prefault(void *p, size_t bytes) {
#if defined(__linux__)
  if (p == NULL || bytes < PREFAULT_MIN) return;
  long size = sysconf(_SC_PAGESIZE);
  const uintptr_t page = size > 0 ? (uintptr_t)size : 4096;
  uintptr_t first, end;
  if (inner_pages(p, bytes, page, &first, &end)) (void)madvise((void *)first, end - first, MADV_POPULATE_WRITE);
#else
  (void)p, (void)bytes;
#endif
}

void strata_hugepages(void *p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  uintptr_t first, end;
  if (p && inner_pages(p, bytes, (uintptr_t)2 << 20, &first, &end))
    (void)madvise((void *)first, end - first, MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}
