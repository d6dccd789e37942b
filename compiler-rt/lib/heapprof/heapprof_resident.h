/*===- heapprof_resident.h - pages nobody wrote, without reading them ----===
 *
 * Part of heapprof.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_RESIDENT_H
#define HEAPPROF_RESIDENT_H

/* Pages known to hold nothing the process wrote, found without reading
 * them (reading a page nobody wrote costs a fault, and on kernels without
 * a shared zero page a page of memory).  Without swap (sysinfo's
 * totalswap is 0: no page of the process is swapped out now), a page
 * mincore() shows not resident was never written since the process
 * began, or was given back by MADV_DONTNEED: an anonymous one reads as
 * zeros, a file's as the file (which holds no address of this run's
 * heap).  With swap, in a sandbox (a seccomp filter of the program's may
 * kill for mincore), or when a call fails, nothing is known.  A cursor
 * for one scan, asking mincore for HP_RESIDENT_PAGES pages at a time. */
#define HP_RESIDENT_PAGES 512u
typedef struct hp_resident {
  uptr lo, hi; /* the pages vec describes */
  int state;   /* 0: not asked yet, 1: vec valid, -1: unknown, read all */
  unsigned char vec[HP_RESIDENT_PAGES];
} hp_resident_t;
static inline void hp_resident_init(hp_resident_t *r) {
  r->lo = r->hi = 0;
  r->state = 0;
}
/* True when page pg (page-aligned, below map_end, the end of its
 * mapping) is known to be unwritten. */
bool hp_page_unwritten(hp_resident_t *r, uptr pg, uptr map_end);

#endif
