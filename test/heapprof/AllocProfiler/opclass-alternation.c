// One call in cycle_sample_every of each operation kind is measured, on a
// tick per kind and thread: strict malloc/free alternation, and a rotation
// malloc, free, calloc, free, have every kind sampled (a shared allocating
// tick would give all of a period-2 rotation's samples to one kind).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=%t.dir/p:print_raw=1:print_text=0:cycle_sample_every=16 %run %t
// RUN: heapprof show %t.dir/p.*.2.profraw | FileCheck %s --check-prefix=ALT
// RUN: heapprof show %t.dir/p.*.3.profraw | FileCheck %s --check-prefix=ROT
// heapprof merge adds the dumps' sections up row by row:
// RUN: heapprof merge -o %t.dir/merged.profraw %t.dir/p.*.profraw
// RUN: heapprof show %t.dir/merged.profraw | FileCheck %s --check-prefix=MERGE
// The report adds up the same rows:
// RUN: heapprof report %t.dir/p.*.profraw | FileCheck %s --check-prefix=TEXT
// RUN: heapprof report --format json %t.dir/p.*.profraw | FileCheck %s --check-prefix=JSON
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

int main(void) {
  __heapprof_dump(); // 1: before the loops; the ticks restart from here
  // 100,000 pairs: the first malloc is this thread's first call (not
  // timed, but it is call 1, not 16).  6250 of each are measured.
  for (int i = 0; i < 100000; i++) {
    char *volatile p = malloc(40);
    free(p);
  }
  __heapprof_dump(); // 2
  // 50,000 rotations: 50,000 mallocs (3125 measured), 50,000 callocs
  // (3125), 100,000 frees (6250).
  for (int i = 0; i < 50000; i++) {
    char *volatile p = malloc(40);
    free(p);
    p = calloc(1, 40);
    free(p);
  }
  __heapprof_dump(); // 3
  return 0;
}
// The first malloc took a new block; the other 99,999 reused it.
// ALT:      malloc small new serial: count=1 sampled=0
// ALT-NEXT: malloc small reused serial: count=99999 sampled=6250
// ALT-NEXT: free small - serial: count=100000 sampled=6250
// ROT:      malloc small reused serial: count=50000 sampled=3125
// ROT-NEXT: calloc small reused serial: count=50000 sampled=3125
// ROT-NEXT: free small - serial: count=100000 sampled=6250
// MERGE:      malloc small new serial: count=1 sampled=0
// MERGE-NEXT: malloc small reused serial: count=149999 sampled=9375
// MERGE-NEXT: calloc small reused serial: count=50000 sampled=3125
// MERGE-NEXT: free small - serial: count=200000 sampled=12500
// TEXT:      == Allocator cost by operation class
// TEXT-NEXT: calls  %calls  sampled  mean cycles  median  %cycles  class
// TEXT-NEXT: 1  0.0%  0  -  -  -  malloc small new serial
// TEXT-NEXT: 149999  37.5%  9375  {{[0-9]+}}  2^{{[0-9]+}}  {{.*}}%  malloc small reused serial
// TEXT-NEXT: 50000  12.5%  3125  {{[0-9]+}}  2^{{[0-9]+}}  {{.*}}%  calloc small reused serial
// TEXT-NEXT: 200000  50.0%  12500  {{[0-9]+}}  2^{{[0-9]+}}  {{.*}}%  free small - serial
// JSON:      "op_classes": [
// JSON-NEXT:   {
// JSON-NEXT:     "op": "malloc",
// JSON-NEXT:     "size": "small",
// JSON-NEXT:     "block": "new",
// JSON-NEXT:     "phase": "serial",
// JSON-NEXT:     "class": 2,
// JSON-NEXT:     "count": 1,
// JSON-NEXT:     "sampled": 0,
// JSON:          "op": "free",
// JSON-NEXT:     "size": "small",
// JSON-NEXT:     "block": "none",
// JSON-NEXT:     "phase": "serial",
// JSON-NEXT:     "class": 60,
// JSON-NEXT:     "count": 200000,
// JSON-NEXT:     "sampled": 12500,
// The only system calls: init's 95 reservations, outside any call, and
// the first malloc's, which put the MiB of the region its span begins
// into core dumps (the reservations are not).
// JSON:      "syscalls": [
// JSON-NEXT:   {
// JSON-NEXT:     "syscall": "madvise",
// JSON-NEXT:     "op": "malloc",
// JSON-NEXT:     "size": "small",
// JSON-NEXT:     "block": "new",
// JSON-NEXT:     "phase": "serial",
// JSON-NEXT:     "count": 1,
// JSON-NEXT:     "bytes": 1048576,
// JSON:          "syscall": "mmap",
// JSON-NEXT:     "op": "none",
// JSON-NEXT:     "count": 95,
// JSON:      "pmu": null
