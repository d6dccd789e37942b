// junk_fill=1 (phkmalloc's J): a new chunk holds 0xd0 in every byte, not
// zeros and not its block's previous contents; a freed chunk holds 0xdf;
// calloc still returns zeros and realloc keeps the contents (the bytes it
// adds are junk).  The fills are the runtime's writes, not the program's:
// the chunk's profile counts only the program's accesses.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=junk_fill=1:log_path=stderr %run %t 2>&1 | FileCheck %s
// Without the flag the reused block still shows what the program left there.
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s --check-prefix=OFF
#include <heapprof/heapprof_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Counts the bytes of [p, p + n) equal to b, reading through volatile.
static size_t count_bytes(const volatile unsigned char *p, size_t n, int b) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    k += p[i] == (unsigned char)b;
  return k;
}

__attribute__((noinline)) char *site_counted(void) { return malloc(100); }

int main(void) {
  // A fresh block (its memory was zero before).
  unsigned char *volatile p = malloc(200);
  fprintf(stderr, "fresh: %zu of 200 are 0xd0\n", count_bytes(p, 200, 0xd0));
  // CHECK: fresh: 200 of 200 are 0xd0
  memset(p, 'A', 200);
  // Freed: the block stays in this thread's cache, nothing reuses it before
  // the read (a read of freed memory, on purpose; the address goes through
  // a uintptr_t so the compiler sees no use after free).
  uintptr_t addr;
  memcpy(&addr, (const void *)&p, sizeof(addr));
  free(p);
  fprintf(stderr, "freed: %zu of 200 are 0xdf\n",
          count_bytes((const volatile unsigned char *)addr, 200, 0xdf));
  // CHECK: freed: 200 of 200 are 0xdf
  // Reused: the same block again (the cache is last in, first out).
  unsigned char *volatile q = malloc(200);
  fprintf(stderr, "reused: %s, %zu of 200 are 0xd0, %zu are 'A'\n",
          (uintptr_t)q == addr ? "same block" : "other block",
          count_bytes(q, 200, 0xd0), count_bytes(q, 200, 'A'));
  // CHECK: reused: same block, 200 of 200 are 0xd0, 0 are 'A'
  // OFF: reused: same block, 0 of 200 are 0xd0, 200 are 'A'
  memset(q, 'B', 200);
  free(q);
  // calloc: zeros, even in a block that held 'B' and then junk.
  unsigned char *volatile z = calloc(200, 1);
  fprintf(stderr, "calloc: %s, %zu of 200 are 0\n",
          (uintptr_t)z == addr ? "same block" : "other block",
          count_bytes(z, 200, 0));
  // CHECK: calloc: same block, 200 of 200 are 0
  free(z);
  // realloc: the old bytes survive, the new ones are junk -- in place
  // (40 -> 60 bytes, one size class) and moving (60 -> 1000).
  unsigned char *volatile r = malloc(40);
  memset(r, 'C', 40);
  unsigned char *volatile r2 = realloc(r, 60);
  fprintf(stderr, "realloc 60: %zu 'C', %zu 0xd0\n", count_bytes(r2, 40, 'C'),
          count_bytes(r2 + 40, 20, 0xd0));
  // CHECK: realloc 60: 40 'C', 20 0xd0
  unsigned char *volatile r3 = realloc(r2, 1000);
  fprintf(stderr, "realloc 1000: %zu 'C', %zu 0xd0\n",
          count_bytes(r3, 40, 'C'), count_bytes(r3 + 40, 960, 0xd0));
  // CHECK: realloc 1000: 40 'C', 960 0xd0
  free(r3);
  // Exact counts: 3 accesses to a junk-filled chunk are 3, not 3 plus the
  // fill's 13 words at allocation and 13 at free.
  char *volatile c = site_counted();
  for (int i = 0; i < 3; i++)
    __heapprof_record_access(c + i);
  free(c);
  return 0;
}
// site_counted's is the only 100-byte chunk.
// CHECK-LABEL: HeapProf profile:
// CHECK: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
// CHECK-NEXT: access_count (ave/min/max): 3.00 / 3 / 3
