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
// With --follow-exec nothing is preloaded (it would go into every program
// below): each program's runtime finds the allocator that program links
// (allocator=auto), the first one's and those a script runs alike.  They
// had run on heapprof's allocator, and died of an invalid free.
// RUN: rm -rf %t.fe && heapprof run --follow-exec -o %t.fe -- %t 2> %t.fe.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=FOLLOW --input-file=%t.fe.err -DPROG=%t
// FOLLOW: heapprof: note: '[[PROG]]' runs on an allocator of its own, {{.*}}/libjemalloc.so.2: profiled on it, as every program followed is on the allocator it links (--allocator=heapprof runs them on heapprof's)
// RUN: heapprof report --top 0 %t.fe | FileCheck %s
// A program that links none gets heapprof's allocator and no note.
// RUN: %clang_plain -O0 -g -DNONE %s -o %t.none
// RUN: heapprof run -o %t.d -- %t.none 2>&1 | count 0
// A script under --follow-exec: the program that links jemalloc runs on it,
// the one that links none and the shell on heapprof's.
// RUN: rm -rf %t.fs && heapprof run --follow-exec -o %t.fs -- sh -c '%t; %t.none' | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 %t.fs | FileCheck %s --check-prefix=SCRIPT
// SCRIPT: allocator{{ +}}several: the profiles were taken on different allocators
// RUN: heapprof report --top 0 %t.fs/heapprof.linked-allocator.c.tmp.[0-9]*.profraw | FileCheck %s
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
