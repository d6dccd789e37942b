// A program that links an allocator of its own (jemalloc here, as
// Debian's redis-server does) runs on it under heapprof run, profiled
// there as --allocator=PATH would, and heapprof run says so. Replacing it
// with heapprof's allocator breaks a program that uses the allocator's own
// API: free() of a pointer from jemalloc's mallocx meets a pointer
// heapprof never handed out (kept under --allocator=heapprof, which aborts
// on it). The program: 1,000 times a malloc(100) freed with sdallocx, and
// a mallocx(200) freed with free; its 1,000 mallocs are profiled, and 999
// of their frees found when jemalloc hands the address out again
// (Run/free-behind-back.c).
// REQUIRES: jemalloc
// RUN: %clang_plain -O0 -g %s -o %t %libjemalloc
// RUN: rm -rf %t.d %t.h && heapprof run -o %t.d -- %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.out
// RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.err -DPROG=%t
// RUN: heapprof report --top 0 %t.d | FileCheck %s
// RUN: not --crash heapprof run --allocator=heapprof -o %t.h -- %t 2>&1 | FileCheck %s --check-prefix=MINE
// --follow-exec detects nothing (the allocator would be preloaded into
// every program below), and says what that means.
// RUN: rm -rf %t.fe && not --crash heapprof run --follow-exec -o %t.fe -- %t 2>&1 | FileCheck %s --check-prefix=FOLLOW -DPROG=%t
// FOLLOW: heapprof: warning: '[[PROG]]' runs on an allocator of its own, [[LIB:.*/libjemalloc.so.2]]: with --follow-exec it runs on heapprof's instead (--allocator=[[LIB]] keeps it, for every program followed)
// FOLLOW: HeapProf: ERROR: invalid-free
// A program that links none gets heapprof's allocator and no note.
// RUN: %clang_plain -O0 -g -DNONE %s -o %t.none
// RUN: heapprof run -o %t.d -- %t.none 2>&1 | count 0
// An allocator the caller preloads is the program's own too.
// RUN: rm -rf %t.p && env LD_PRELOAD=%libjemalloc heapprof run -o %t.p -- %t.none 2>&1 | FileCheck %s --check-prefix=PRELOADED -DPROG=%t.none
// PRELOADED: heapprof: note: '[[PROG]]' runs on an allocator of its own, {{.*}}/libjemalloc.so.2: profiled on it
// OUT: ok
// NOTE: heapprof: note: '[[PROG]]' runs on an allocator of its own, {{.*}}/libjemalloc.so.2: profiled on it (--allocator=heapprof runs it on heapprof's)
// CHECK: allocator{{ +}}{{.*}}/libjemalloc.so.2, profiled as it ran (allocator=PATH)
// CHECK: == Allocation bins: by requested size
// CHECK: {{^ +}}100{{ +}}1000{{ +}}97.7 KiB{{ +}}999{{ +}}100 B
// CHECK: == Modules: the libraries the program mapped
// CHECK: {{^}}{{.*}}/libjemalloc.so.2 (build id
// MINE: HeapProf: ERROR: invalid-free on address {{.*}}: not allocated by heapprof
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef NONE
void *mallocx(size_t size, int flags);
void sdallocx(void *ptr, size_t size, int flags);
#endif

__attribute__((noinline)) void *block(void) { return malloc(100); }

int main(void) {
#ifndef NONE
  for (int i = 0; i < 1000; i++) {
    char *p = block();
    memset(p, 1, 100);
    sdallocx(p, 100, 0);
    char *q = mallocx(200, 0);
    memset(q, 2, 200);
    free(q);
  }
  puts("ok");
#else
  free(block());
#endif
  return 0;
}
