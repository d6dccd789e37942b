// A realloc that moves a chunk is one operation: the program holds the old
// bytes or the new ones, never both, so the peak counts only one of them.
// grow() doubles a buffer from 16 bytes to 64 KiB by realloc (the moves
// cross size classes; a large chunk may also grow by remapping in place),
// then frees it: the heap's top is the last size, 65536 bytes in 1 object,
// under grow's realloc.  Before, a move counted the old chunk until after
// the copy, and the peak was 98304 bytes in 2 objects (the 32 KiB chunk
// and the 64 KiB one).  The same on glibc's allocator (allocator=system),
// which had it right.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/peak_check.py %t.json peak_bytes=65536 grow=1,65536 peak.objects=1
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:allocator=system %run %t
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/peak_check.py %t.json peak_bytes=65536 grow=1,65536 peak.objects=1
#include <stdlib.h>

__attribute__((noinline)) static char *grow(char *p, size_t n) {
  return realloc(p, n);
}

int main(void) {
  char *p = NULL;
  for (size_t n = 16; n <= 65536; n *= 2) {
    char *q = grow(p, n);
    if (!q)
      return 1;
    q[n - 1] = 1;
    p = q;
  }
  free(p);
  return 0;
}
