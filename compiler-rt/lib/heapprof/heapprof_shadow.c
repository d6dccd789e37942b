/*===- heapprof_shadow.c - access-count shadow memory -------------------===
 *
 * Part of heapprof.  See heapprof_shadow.h for the mapping.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <sys/mman.h>

/* Written once by hp_shadow_init (init); read by instrumented code. */
HP_INTERFACE uintptr_t __heapprof_shadow_memory_dynamic_address;

/* Clearing more counters than this (bytes of shadow) gives the pages back
 * with MADV_DONTNEED instead of writing zeros. */
#define CLEAR_BY_MADVISE_BYTES (64u * 1024)

void hp_shadow_init(void) {
  if (__heapprof_shadow_memory_dynamic_address)
    return;
  void *p = hp_mmap_noreserve(HP_SHADOW_SIZE, "shadow memory");
  madvise(p, HP_SHADOW_SIZE, MADV_NOHUGEPAGE);
  __heapprof_shadow_memory_dynamic_address = (uptr)p;
}

void hp_shadow_clear(uptr beg, uptr end) {
  if (end <= beg || end > HP_USER_SPACE_END)
    return;
  uptr s = (uptr)hp_shadow_counter(beg);
  uptr e = (uptr)hp_shadow_counter(end - 1) + sizeof(u64);
  if (e - s >= CLEAR_BY_MADVISE_BYTES) {
    uptr ps = HP_ROUND_UP(s, HP_PAGE_SIZE), pe = HP_ROUND_DOWN(e, HP_PAGE_SIZE);
    hp_memset((void *)s, 0, ps - s);
    madvise((void *)ps, pe - ps, MADV_DONTNEED);
    hp_memset((void *)pe, 0, e - pe);
    return;
  }
  u64 *c = (u64 *)s;
  for (uptr n = (e - s) / 8; n; n--)
    *c++ = 0;
}

void hp_shadow_scan(uptr beg, uptr size, hp_shadow_scan_t *out) {
  hp_shadow_scan_t r = {0, 0, 0, 0, 0};
  if (!size)
    size = 1;
  if (beg + size > HP_USER_SPACE_END) {
    *out = r;
    return;
  }
  uptr g = HP_ROUND_DOWN(beg, HP_GRANULE_SIZE);
  uptr end = beg + size;
  const u64 *c = hp_shadow_counter(g);
  uptr cur_page = (uptr)-1;
  bool page_touched = false;
  for (; g < end; g += HP_GRANULE_SIZE, c++) {
    uptr page = g / HP_PAGE_SIZE;
    if (page != cur_page) {
      if (page_touched)
        r.touched_pages++;
      r.pages++;
      cur_page = page;
      page_touched = false;
    }
    u64 v = *c;
    r.granules++;
    if (v) {
      r.accesses += v;
      r.touched_granules++;
      page_touched = true;
    }
  }
  if (page_touched)
    r.touched_pages++;
  *out = r;
}

void hp_shadow_record_range(uptr p, uptr n) {
  if (!n || !__heapprof_shadow_memory_dynamic_address ||
      p + n > HP_USER_SPACE_END || p + n < p)
    return;
  uptr first = p / HP_RANGE_WORD, last = (p + n - 1) / HP_RANGE_WORD;
  const uptr per_granule = HP_GRANULE_SIZE / HP_RANGE_WORD;
  for (uptr g = first / per_granule; g <= last / per_granule; g++) {
    uptr lo = HP_MAX(first, g * per_granule);
    uptr hi = HP_MIN(last, g * per_granule + per_granule - 1);
    *hp_shadow_counter(g * HP_GRANULE_SIZE) += hi - lo + 1;
  }
}
