// Profiles of several programs read together, one of them since deleted
// (a build's test program, autoconf's conftest, which wrote its profile
// into the same directory): the report warns about it, leaves its frames
// unsymbolized and reads the others.  The whole report failed with
// "cannot open" for the deleted program.  One program alone that is gone
// stays an error (report-errors.test).  The kept program makes 30 objects
// of 100 bytes in keeper_alloc, the deleted one 7 of 50 in gone_alloc.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g -DKEEP %s -o %t.keep
// RUN: %clang_heapprof -O0 -g %s -o %t.gone
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t.keep
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t.gone
// RUN: rm %t.gone
// RUN: heapprof report %t.d 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN -DGONE=%t.gone < %t.err
// WARN: heapprof: warning: [[GONE]]: cannot open: No such file or directory (a profiled program; pass --binary if it moved); its frames are not symbolized
// CHECK: heapprof report: 2 processes, 2 files
// CHECK: allocations 37 objects, 3350 bytes
// CHECK: == Top contexts by bytes
// CHECK-NEXT: #1 {{.*}} 3000 B in 30 objects (100 B each)
// CHECK-NEXT: keeper_alloc
// CHECK: #2 {{.*}} 350 B in 7 objects (50 B each)
// CHECK-NEXT: report-deleted-program.c.tmp.gone+0x
// The same for the other commands, which load profiles the same way.
// RUN: heapprof flamegraph %t.d 2>/dev/null | FileCheck %s --check-prefix=FOLDED
// FOLDED-DAG: keeper_alloc 3000
// FOLDED-DAG: report-deleted-program.c.tmp.gone+0x{{[0-9a-f]+}} 350
#include <stdlib.h>

void *kept[30];

#ifdef KEEP
__attribute__((noinline)) static void *keeper_alloc(void) { return malloc(100); }
#define N 30
#define ALLOC keeper_alloc
#else
__attribute__((noinline)) static void *gone_alloc(void) { return malloc(50); }
#define N 7
#define ALLOC gone_alloc
#endif

int main(void) {
  for (int i = 0; i < N; i++)
    kept[i] = ALLOC();
  return 0;
}
