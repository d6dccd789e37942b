/*===- heapprof_resident.c - pages nobody wrote, without reading them ----===
 *
 * Part of heapprof.  See heapprof_resident.h.  The shadow's scans (counters
 * nobody wrote) and the leak check at exit (memory of a large object the
 * program never touched) skip such pages.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <sys/mman.h>
#include <sys/sysinfo.h>

bool hp_page_unwritten(hp_resident_t *r, uptr pg, uptr map_end) {
  if (r->state < 0 || hp_in_sandbox() || pg >= map_end)
    return false;
  if (pg < r->lo || pg >= r->hi) {
    if (!r->state) {
      struct sysinfo si;
      if (sysinfo(&si) != 0 || si.totalswap) {
        r->state = -1;
        return false;
      }
      r->state = 1;
    }
    uptr hi = HP_MIN(map_end, pg + (uptr)HP_RESIDENT_PAGES * HP_PAGE_SIZE);
    if (mincore((void *)pg, hi - pg, r->vec) != 0) {
      r->state = -1;
      return false;
    }
    r->lo = pg;
    r->hi = hi;
  }
  return !(r->vec[(pg - r->lo) / HP_PAGE_SIZE] & 1);
}
