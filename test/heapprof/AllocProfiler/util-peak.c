// Heap utilization at the peak.  1024 objects of 64 bytes are allocated
// and every byte written, then all freed: the peak is the moment all 1024
// are live and touched (the tracker snapshots at the first free).  A
// 64-byte request and its 32-byte header take a 96-byte block; from a
// block at 96k the user bytes [96k+32, 96k+96) lie on two lines when k is
// even and on one line of their own when k is odd, and no two objects share
// a line.  Any 1024 consecutive fresh blocks are 512 even and 512 odd:
// 1536 touched lines holding 1024 x 64 = 65536 live bytes, a line
// utilization of 65536 / (64 x 1536) = 66.67%.  The program touches no
// other heap memory (libc's allocations are not instrumented).  The
// overhead's blocks and headers come from the same scan when it runs, and
// from a walk of their own with heap_utilization=0: 1024 blocks of 96
// bytes, 98304, of which 1024 headers of 32 bytes, 32768, either way.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | FileCheck %s --check-prefix=SHOW
// SHOW: overhead at the peak: requested_bytes=65536 block_bytes=98304 header_bytes=32768 {{.*}} touched_lines=1536 touched_line_live_bytes=65536 touched_pages={{[0-9]+}} touched_page_live_bytes=65536{{$}}
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=TEXT
// TEXT: line utilization {{ *}}66.7% {{ *}}live bytes on the 1536 touched lines
// RUN: heapprof report --format json %t.d | FileCheck %s --check-prefix=JSON
// JSON: "line_utilization": 0.6667
// With heap_utilization=0 nothing is scanned at the peak either.
// RUN: rm -rf %t.off && mkdir -p %t.off
// RUN: %env_heapprof_opts=profile_dir=%t.off:heap_utilization=0 %run %t
// RUN: heapprof show %t.off/*.profraw | FileCheck %s --check-prefix=OFF
// OFF: overhead at the peak: requested_bytes=65536 block_bytes=98304 header_bytes=32768 {{.*}} touched_lines=0 touched_line_live_bytes=0 touched_pages=0 touched_page_live_bytes=0{{$}}
#include <stdlib.h>

#define N 1024

static char *volatile objs[N];

int main(void) {
  for (int i = 0; i < N; i++)
    objs[i] = malloc(64);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < 64; j++)
      objs[i][j] = 1;
  for (int i = 0; i < N; i++)
    free(objs[i]);
  return 0;
}
