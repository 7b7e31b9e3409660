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

/* Asks for transparent huge pages (2 MB) for the whole huge pages inside
** p[0 .. bytes), which no one has touched yet: a big world's records then sit
** on few pages, and a call that reads a dozen of them far apart misses the
** TLB less. A hint as above: nothing off Linux or where the kernel's THP are
** off (they are taken in its "madvise" and "always" modes). */
void strata_hugepages(void *p, size_t bytes);

#endif
