// A program linked without a build id (-Wl,--build-id=none; clang does so
// unless configured otherwise) and rebuilt after its run: the tools have
// no build id to compare, and took the new file for the profiled one,
// naming every frame from the wrong code without a word (a program of
// three sites, replaced by another one, read as one context in "_end").
// The executable segments the profile
// records must be the file's; the rebuilt file's are not, which is the
// error a build id mismatch gives.  The program makes 5000 objects of 204
// bytes at one site: 1020000 bytes.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g -Wl,--build-id=none %s -o %t
// RUN: cp %t %t.orig
// RUN: %env_heapprof_opts=profile_dir=%t.d:detect_leaks=0 %run %t
// The file as it ran: read as before.
// RUN: heapprof report %t.d | FileCheck %s
// CHECK: program {{.*}} (build id none)
// CHECK: == Top contexts by bytes
// CHECK-NEXT: #1 100.0% 996.1 KiB in 5000 objects (204 B each)
// CHECK-NEXT: make_widget {{.*}}report-rebuilt-no-build-id.c:[[#@LINE+30]]
// RUN: heapprof flamegraph --weight allocs %t.d | FileCheck %s --check-prefix=FOLDED
// FOLDED: main;make_widget 5000
//
// Rebuilt with more code before make_widget: an error, in every command
// that symbolizes, naming the segment that moved.
// RUN: %clang_heapprof -O0 -g -Wl,--build-id=none -DREBUILT %s -o %t
// RUN: not heapprof report %t.d 2>&1 | FileCheck %s --check-prefix=REBUILT -DPROG=%t
// RUN: not heapprof flamegraph %t.d 2>&1 | FileCheck %s --check-prefix=REBUILT -DPROG=%t
// RUN: not heapprof pprof -o %t.pb.gz %t.d 2>&1 | FileCheck %s --check-prefix=REBUILT -DPROG=%t
// RUN: not heapprof html -o %t.html %t.d 2>&1 | FileCheck %s --check-prefix=REBUILT -DPROG=%t
// RUN: not heapprof diff %t.d %t.d 2>&1 | FileCheck %s --check-prefix=REBUILT -DPROG=%t
// REBUILT: heapprof: error: [[PROG]]: has no build id, and its code is not where the profiled one's was: the profile has an executable segment at 0x{{[0-9a-f]+}}-0x{{[0-9a-f]+}}, the file 0x{{[0-9a-f]+}}-0x{{[0-9a-f]+}} (rebuilt since? pass --binary with the profiled program)
// REBUILT-NOT: make_widget
//
// --binary with the file that ran names the frames again.
// RUN: heapprof report --binary %t.orig %t.d | FileCheck %s
#include <stdlib.h>

void *volatile sink;

#ifdef REBUILT
__attribute__((noinline)) int added(int x) {
  volatile int a[64];
  for (int i = 0; i < 64; i++)
    a[i] = x * i + 3;
  return a[x & 63] + a[(x + 7) & 63];
}
#endif

__attribute__((noinline)) void *make_widget(void) { return malloc(204); }

int main(void) {
  for (int i = 0; i < 5000; i++)
    sink = make_widget();
  return 0;
}
