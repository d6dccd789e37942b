// A crash with core dumps on (ulimit -c unlimited) wrote every page of
// heapprof's reservations into the core: a sparse file of 20 TB and six
// minutes of the kernel's time for a program of 2 MB.  The reservations
// are marked MADV_DONTDUMP; the spans of the allocator's regions the
// program's objects live in are marked back (MADV_DODUMP), so the core
// still holds the heap.  Checked on the process's map: no mapping of 1
// GiB or more (every such one is a reservation) is dumped, the mappings
// holding a 64-byte object (a region's span) and a 1 MiB one (a mapping of
// its own) are.
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: %clang_plain -O1 -g %s -o %t-plain
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run -o %t.r -- %t-plain | FileCheck %s
// CHECK: dumped mappings of 1 GiB or more: 0
// CHECK-NEXT: 64-byte object dumped: yes
// CHECK-NEXT: 1 MiB object dumped: yes
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* For the mapping holding addr (or, addr 0, every mapping of 1 GiB or
 * more): whether its VmFlags lack "dd" (dumped); counts them. */
static int dumped(unsigned long addr) {
  FILE *f = fopen("/proc/self/smaps", "r");
  char line[1024];
  unsigned long lo = 0, hi = 0;
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long a, b;
    if (line[0] != ' ' && sscanf(line, "%lx-%lx ", &a, &b) == 2 &&
        strchr(line, '-')) {
      lo = a;
      hi = b;
      continue;
    }
    if (strncmp(line, "VmFlags:", 8))
      continue;
    int in = addr ? addr >= lo && addr < hi : hi - lo >= (1ul << 30);
    if (in && !strstr(line, " dd"))
      n++;
  }
  fclose(f);
  return n;
}

int main(void) {
  char *small = malloc(64), *big = malloc(1 << 20);
  memset(small, 1, 64);
  memset(big, 2, 1 << 20);
  printf("dumped mappings of 1 GiB or more: %d\n", dumped(0));
  printf("64-byte object dumped: %s\n",
         dumped((unsigned long)small) ? "yes" : "no");
  printf("1 MiB object dumped: %s\n", dumped((unsigned long)big) ? "yes" : "no");
  free(small);
  free(big);
  return 0;
}
