// Heap utilization over large chunks, at the last dump and at a peak taken
// by that dump.  100 chunks of 200000 bytes are allocated and every byte
// written, and all stay live to the end.  A request this big has a mapping
// of its own (more than the primary's 128 KiB blocks) whose user bytes
// begin on a page boundary, so each chunk spans 200000 / 64 = 3125 lines,
// all touched, and 49 pages (48 whole and 3392 bytes of the 49th), all
// touched: 312500 lines and 4900 pages holding 20000000 live bytes, a line
// utilization of 100% and a page utilization of 20000000 / (4900 x 4096) =
// 99.649%.  Nothing is freed, so the peak is taken by the exit's dump, and
// it must read the counters before that dump clears them.  (Two faults
// this checks: the large chunks were once counted in the order of their
// table, not of their addresses, so most of their lines went uncounted and
// utilization read 890%; and the peak measured at a dump read the counters
// the dump had just cleared, so it saw no touched line.)
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | FileCheck %s --check-prefix=SHOW
// SHOW: overhead at the peak: requested_bytes=20000000 {{.*}} touched_lines=312500 touched_line_live_bytes=20000000 touched_pages=4900 touched_page_live_bytes=20000000{{$}}
// SHOW: heap utilization: lines=312500 touched_lines=312500 touched_line_live_bytes=20000000 pages=4900 touched_pages=4900 touched_page_live_bytes=20000000 live_bytes=20000000 live_chunks=100{{$}}
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=TEXT
// TEXT: == Heap utilization at the last dump
// TEXT: cache lines {{ *}}100.00% {{ *}}312500 {{ *}}312500 {{ *}}20000000
// TEXT-NEXT: pages {{ *}}99.65% {{ *}}4900 {{ *}}4900 {{ *}}20000000
// TEXT: line utilization {{ *}}100.0% {{ *}}live bytes on the 312500 touched lines
// TEXT-NEXT: page utilization {{ *}}99.6% {{ *}}live bytes on the 4900 touched pages
#include <stdlib.h>
#include <string.h>

#define N 100
#define SIZE 200000

static char *volatile objs[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    objs[i] = malloc(SIZE);
    memset(objs[i], 1, SIZE);
  }
  return 0;
}
