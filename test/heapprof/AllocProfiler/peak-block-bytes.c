// The peak's allocator bytes are the blocks of the chunks live at the
// peak, not every block carved: the 1000 chunks of 64 bytes that the
// program allocated and freed before are carved blocks in a cache or on
// a free list then, not live ones.  The peak is site_b's 10 chunks of
// 1 MiB (the 64-byte chunks are gone by then), each mmap'd with one more
// page for its header: 10 x (1 MiB + 4 KiB) = 10,526,720 bytes of blocks,
// as in peak-phases.c, which has no small chunks.  Counting the free
// blocks too added the 64-byte class's carved bytes (at least 1000 x 96).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/peak_check.py %t.json peak_bytes=10485760 site_a=0,0 site_b=10,10485760 peak.block_bytes=10526720
#include <stdlib.h>

#define MiB (1 << 20)
__attribute__((noinline)) static char *site_a(void) { return malloc(64); }
__attribute__((noinline)) static char *site_b(void) { return malloc(MiB); }
static char *volatile a[1000], *volatile b[10];

int main(void) {
  for (int i = 0; i < 1000; i++)
    a[i] = site_a();
  for (int i = 0; i < 1000; i++)
    free(a[i]);
  for (int i = 0; i < 10; i++)
    b[i] = site_b();
  for (int i = 0; i < 10; i++)
    free(b[i]);
  return 0;
}
