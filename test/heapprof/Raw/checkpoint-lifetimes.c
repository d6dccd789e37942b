// Lifetimes over a series of checkpoints add up to one lifetime: each
// checkpoint ends a live object's piece at the coarse clock's end reading
// (hp_end_ms, at least the true time) and the next piece starts there.
// The next piece used to start at the reading itself, one clock tick
// (4 ms at HZ=250) before, so every checkpoint added a tick: 10 objects
// living about 110 ms under 100 checkpoints averaged 556 ms, longer than
// the process ran.  Each object lives from the start to the end here, so
// its lifetime is at most the time span plus two ticks (20 ms is room for
// ticks up to 10 ms).
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json %t.d | %python -c "import json, sys; r = json.load(sys.stdin); c = [c for c in r['contexts'] if c['allocs'] == 10 and c['bytes'] == 1000][0]; span = r['summary']['time_span_ms']; print('average within the span:', c['lifetime_ms'] / 10 <= span + 20, c['lifetime_ms'] / 10 >= 50)" | FileCheck %s
// CHECK: average within the span: True True
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <unistd.h>

void *volatile keep[10];
__attribute__((noinline)) void *mk(void) { return malloc(100); }

int main(void) {
  for (int i = 0; i < 10; i++)
    keep[i] = mk();
  for (int c = 0; c < 100; c++) {
    usleep(1000);
    __heapprof_dump();
  }
  for (int i = 0; i < 10; i++)
    free(keep[i]);
  return 0;
}
