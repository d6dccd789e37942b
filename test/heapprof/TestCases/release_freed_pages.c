// release_freed_pages=1 (phkmalloc's H): pages that only hold free blocks go
// back to the kernel.  3000 chunks of 64 KiB (187.5 MiB, 80 KiB blocks) are
// written and freed: resident memory must drop by at least half of what was
// freed (the thread cache keeps 3 blocks of that class; the rest is
// released in batches).  200000 chunks of 64 bytes (96-byte blocks, 18 MiB)
// likewise, where pages are shared by 42 blocks and only wholly free ones
// go.  Memory handed out again after the release is correct, and the
// counters say what happened.  Without the flag freed memory stays resident
// (heapprof's default, and phkmalloc's).
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=release_freed_pages=1:print_stats=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ON,STATS-ON
// RUN: %env_heapprof_opts=release_freed_pages=1:profiling=0 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ON
// RUN: %env_heapprof_opts=print_stats=1:log_path=%t.prof %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,OFF,STATS-OFF
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "Inputs/resident.h"

static void phase(const char *name, size_t n, size_t size) {
  char **v = calloc(n, sizeof(char *)); // 24 KB or 1.6 MB: stays resident
  for (size_t i = 0; i < n; i++) {
    v[i] = malloc(size);
    memset(v[i], (int)(i & 0x7f) + 1, size);
  }
  long before = resident_kib();
  for (size_t i = 0; i < n; i++)
    free(v[i]);
  long after = resident_kib();
  long freed_kb = (long)(n * size / 1024);
  fprintf(stderr, "%s: rss dropped by %s half of the %ld KiB freed\n", name,
          before - after >= freed_kb / 2 ? "at least" : "less than", freed_kb);
  // Allocated again (from released and unreleased blocks): each chunk
  // holds what is written into it, and nothing spills into a neighbour.
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    v[i] = malloc(size);
    memset(v[i], (int)(i % 251) + 1, size);
  }
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < size; k += 997)
      bad += v[i][k] != (char)((int)(i % 251) + 1);
  fprintf(stderr, "%s: reused chunks %s\n", name, bad ? "CORRUPT" : "intact");
  for (size_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

int main(void) {
  phase("64 KiB", 3000, 64 * 1024);
  // ON: 64 KiB: rss dropped by at least half of the 192000 KiB freed
  // OFF: 64 KiB: rss dropped by less than half of the 192000 KiB freed
  // CHECK: 64 KiB: reused chunks intact
  phase("64 B", 200000, 64);
  // ON: 64 B: rss dropped by at least half of the 12500 KiB freed
  // OFF: 64 B: rss dropped by less than half of the 12500 KiB freed
  // CHECK: 64 B: reused chunks intact
  return 0;
}
// STATS-ON: release_passes {{[1-9][0-9]*}} release_freed_pages passes
// STATS-ON-NEXT: pages_released {{[1-9][0-9]*}} 4 KiB pages
// STATS-OFF: release_passes 0 release_freed_pages passes
// STATS-OFF-NEXT: pages_released 0 4 KiB pages
