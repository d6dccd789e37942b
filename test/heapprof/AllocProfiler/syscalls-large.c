// Every system call of heapprof's allocator is counted, with its length,
// and charged to the operation class of the call that made it.  N large
// allocations make exactly N mmaps (and their frees N munmaps) and nothing
// else; the first large chunk of the process also maps the registry of
// large chunks.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=%t.dir/p:print_raw=1:print_text=0 %run %t
// RUN: heapprof show %t.dir/p.*.1.profraw | FileCheck %s --check-prefix=INIT
// RUN: heapprof report %t.dir | FileCheck %s --check-prefix=INITREPORT
// The init checkpoint alone has system calls but no allocator call yet:
// the report says so and still shows them.
// RUN: heapprof report %t.dir/p.*.1.profraw | FileCheck %s --check-prefix=NOCALLS
// NOCALLS: == Allocator cost by operation class
// NOCALLS-NEXT: (the profile lacks op classes (section 2): no allocator call was counted
// NOCALLS: == Allocator system calls
// NOCALLS: {{^ *}}95 {{.*}} mmap {{ *}}outside any call
// RUN: heapprof show %t.dir/p.*.2.profraw | FileCheck %s --check-prefix=FIRST
// RUN: heapprof show %t.dir/p.*.3.profraw | FileCheck %s --check-prefix=LARGE
// RUN: heapprof report --format json %t.dir/p.*.3.profraw | FileCheck %s --check-prefix=JSON
// alloc_syscalls=0 writes no section 3.
// RUN: rm -rf %t.off && mkdir -p %t.off
// RUN: %env_heapprof_opts=log_path=%t.off/p:print_raw=1:print_text=0:alloc_syscalls=0 %run %t
// RUN: heapprof show %t.off/p.*.3.profraw | FileCheck %s --check-prefix=OFF
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

enum { N = 10, SIZE = 200000 };

int main(void) {
  __heapprof_dump(); // 1: init
  char *volatile first = malloc(SIZE);
  free(first);
  __heapprof_dump(); // 2: the first large chunk
  char *volatile p[N];
  for (int i = 0; i < N; i++)
    p[i] = malloc(SIZE);
  for (int i = 0; i < N; i++)
    p[i][0] = 1; // small ones: no system call
  for (int i = 0; i < N; i++) {
    char *volatile s = malloc(100);
    free(s);
  }
  for (int i = 0; i < N; i++)
    free(p[i]);
  __heapprof_dump(); // 3
  return 0;
}
// At init the primary reserves its space (one mmap) and a free list for
// each of its 94 regions (47 size classes and their cold twins): 95, all
// outside any allocator call.
// INIT: system calls: 1 rows
// INIT-NEXT: mmap by outside any call: count=95 bytes={{[0-9]+}} cycles=
// The report of the run says what those terabytes are.
// INITREPORT: == Allocator system calls
// INITREPORT-NEXT: calls {{.*}} caused by
// INITREPORT: {{^ *}}95 {{ *[0-9.]+}} TiB {{.*}} mmap {{ *}}outside any call
// INITREPORT-NEXT: (outside any call: mostly heapprof's allocator reserving its address space at start, MAP_NORESERVE: address space, not memory)
//
// A large chunk of 200,000 bytes maps its header page and the rounded-up
// rest: 4096 + 200000 rounded up to pages = 50 pages = 204800 bytes; the
// registry's first table is 1024 pointers, 8192 bytes.
// FIRST: system calls: 2 rows
// FIRST-NEXT: mmap by malloc large new serial: count=2 bytes=212992 cycles=
// FIRST-NEXT: munmap by free large - serial: count=1 bytes=204800 cycles=
//
// The 100-byte blocks' first span puts its MiB of the region into core
// dumps (the region, reserved at init, is not): one madvise.
// LARGE: system calls: 3 rows
// LARGE-NEXT: madvise by malloc small new serial: count=1 bytes=1048576 cycles=
// LARGE-NEXT: mmap by malloc large new serial: count=10 bytes=2048000 cycles=
// LARGE-NEXT: munmap by free large - serial: count=10 bytes=2048000 cycles=
//
// JSON:      "syscalls": [
// JSON:          "syscall": "mmap",
// JSON-NEXT:     "op": "malloc",
// JSON-NEXT:     "size": "large",
// JSON-NEXT:     "block": "new",
// JSON-NEXT:     "phase": "serial",
// JSON-NEXT:     "count": 10,
// JSON-NEXT:     "bytes": 2048000,
//
// OFF: section tag 2
// OFF-NOT: section tag 3
