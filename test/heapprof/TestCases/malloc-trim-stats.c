// malloc_trim, malloc_stats and malloc_info act on the allocator that
// serves the program: heapprof's own (instrumented, and under heapprof
// run), glibc's under --allocator=system.  Under heapprof's they were
// glibc's, which trimmed nothing of heapprof's regions and printed glibc's
// empty arenas.
//
// The program writes 1000 chunks of 3000 bytes (blocks of the 3072-byte
// class, 2561 to 3072 with the header: nothing else of this program's is
// that size), then maps and frees three chunks of 8 MiB (each a mapping of
// its own, 8 MiB and a page), frees the 1000 and calls malloc_trim(0):
// every page the 1000 blocks overlap was resident before (mincore) and is
// not after, and malloc_trim says it released memory; called again at
// once, it releases nothing (no block came back in between).  A second free of
// one of them is still a double free, though its header went with its
// page.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %run %t trim 2>&1 | FileCheck %s
// RUN: not --crash %run %t double 2>&1 | FileCheck %s --check-prefix=DOUBLE
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.d && env -u LD_PRELOAD heapprof run -o %t.d -- %t.plain trim 2>&1 | FileCheck %s
// Under --allocator=system glibc's functions answer: glibc's own format
// (its max mmap fields count what its dynamic threshold made of the three).
// RUN: rm -rf %t.s && env -u LD_PRELOAD heapprof run -o %t.s --allocator=system -- %t.plain trim 2>&1 | FileCheck %s --check-prefix=SYS
// CHECK: resident before: all
// CHECK-NEXT: trim released memory
// CHECK-NEXT: again released nothing
// CHECK-NEXT: resident after: 0
// malloc_stats: the three mappings' high-water mark, 3 x (8 MiB + 4 KiB).
// CHECK-NEXT: Arena 0:
// CHECK-NEXT: system bytes     = {{ *[1-9][0-9]*}}
// CHECK-NEXT: in use bytes     = {{ *[1-9][0-9]*}}
// CHECK-NEXT: Total (incl. mmap):
// CHECK-NEXT: system bytes     = {{ *[1-9][0-9]*}}
// CHECK-NEXT: in use bytes     = {{ *[1-9][0-9]*}}
// CHECK-NEXT: max mmap regions =          3
// CHECK-NEXT: max mmap bytes   =   25178112
// malloc_info: the class's free blocks on the lists are whole 3072-byte
// blocks, at least the 1000; its totals are mallinfo2's ordblks.
// CHECK-NEXT: ordblks [[#ORD:]]
// CHECK-NEXT: <malloc version="1">
// CHECK-NEXT: <heap nr="0">
// CHECK-NEXT: <sizes>
// CHECK: <size from="2561" to="3072" total="{{[0-9]+}}" count="{{[0-9]+}}"/>
// CHECK: </sizes>
// CHECK-NEXT: <total type="fast" count="0" size="0"/>
// CHECK-NEXT: <total type="rest" count="[[#ORD]]" size="{{[0-9]+}}"/>
// CHECK: <total type="mmap" count="0" size="0"/>
// CHECK: </malloc>
// CHECK-NEXT: class count at least 1000, total count x 3072
// CHECK-NEXT: malloc_info(1) returns EINVAL
// SYS: resident before: all
// SYS: Arena 0:
// SYS: max mmap regions =
// SYS: <malloc version="1">
// SYS: malloc_info(1) returns EINVAL
// DOUBLE: freed [[P:0x[0-9a-f]+]]
// DOUBLE-NEXT: HeapProf: ERROR: double-free on address [[P]] (pc 0x{{[0-9a-f]+}}, free)
// DOUBLE: HeapProf: ABORTING
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { N = 1000, SIZE = 3000 };
static char *volatile blocks[N];

// Pages overlapping the N chunks (with their headers, 32 bytes below),
// and how many of them are resident (a page shared by two chunks counts
// once per chunk: the same on both sides).
static void resident(unsigned *pages, unsigned *in) {
  *pages = *in = 0;
  long pg = sysconf(_SC_PAGESIZE);
  for (int i = 0; i < N; i++) {
    uintptr_t b = ((uintptr_t)blocks[i] - 32) & ~(uintptr_t)(pg - 1);
    uintptr_t e = (uintptr_t)blocks[i] + SIZE;
    for (; b < e; b += pg) {
      unsigned char v = 0;
      if (mincore((void *)b, pg, &v) != 0)
        perror("mincore");
      ++*pages;
      *in += v & 1;
    }
  }
}

__attribute__((noinline)) void second_free(void *p) { free(p); }

int main(int argc, char **argv) {
  int twice = argc > 1 && !strcmp(argv[1], "double");
  for (int i = 0; i < N; i++) {
    blocks[i] = malloc(SIZE);
    memset(blocks[i], 1, SIZE);
  }
  unsigned pages, in;
  resident(&pages, &in);
  printf("resident before: %s\n", in == pages ? "all" : "not all");
  char *volatile big[3];
  for (int i = 0; i < 3; i++)
    big[i] = malloc(8 << 20);
  for (int i = 0; i < 3; i++)
    free(big[i]);
  for (int i = 0; i < N; i++)
    free(blocks[i]);
  int released = malloc_trim(0);
  // Nothing came back since: nothing more to give back.
  int again = malloc_trim(0);
  if (twice) {
    fprintf(stderr, "freed %p\n", (void *)blocks[N / 2]);
    second_free(blocks[N / 2]);
    return 0;
  }
  printf("trim %s\n", released ? "released memory" : "released nothing");
  printf("again %s\n", again ? "released memory" : "released nothing");
  resident(&pages, &in);
  printf("resident after: %u\n", in);
  fflush(stdout);
  malloc_stats();
  printf("ordblks %zu\n", mallinfo2().ordblks);
  malloc_info(0, stdout);
  // The class's count, read back from malloc_info's text.
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  malloc_info(0, mem);
  fclose(mem);
  const char *at = strstr(text, "to=\"3072\"");
  unsigned long count = 0, total = 0;
  if (at && strstr(at, "total=\"") && strstr(at, "count=\"")) {
    total = strtoul(strstr(at, "total=\"") + 7, NULL, 10);
    count = strtoul(strstr(at, "count=\"") + 7, NULL, 10);
  }
  printf("class count %s 1000, total %s\n", count >= N ? "at least" : "below",
         total == count * 3072 ? "count x 3072" : "wrong");
  free(text);
  // glibc's answer to options it does not know: EINVAL, as its value.
  if (malloc_info(1, stdout) == EINVAL)
    printf("malloc_info(1) returns EINVAL\n");
  return 0;
}
