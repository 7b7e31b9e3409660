/* prefault.h - asking the kernel for a large new array's pages in one call,
** or for huge ones. */
#ifndef STRATA_PREFAULT_H
#define STRATA_PREFAULT_H

#include <stddef.h>

/* Maps the pages of p[0 .. bytes) that a caller is about to write all of,
** in one system call instead of one page fault per page. A hint only: it
** does nothing for small arrays, off Linux, or where the kernel does not
** know the request (before 5.14), and the memory stays the caller's. */
void strata_prefault(void *p, size_t bytes);

/* Asks the kernel to back the 2 MB-aligned stretch inside p[0 .. bytes)
** with huge pages (MADV_HUGEPAGE: a kernel whose transparent huge pages
** are in madvise mode gives them only when asked): an array read at
** random then misses the TLB less. A hint only, as strata_prefault. */
void strata_hugepages(void *p, size_t bytes);

#endif
