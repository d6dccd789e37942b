// operator new / new[] contexts are counted like malloc's, sizes as requested.
// (The terse form puts id and counts on one line: libstdc++ allocates its
// own emergency pool first, so the blocks of interest are not the first.)
// RUN: %clangxx_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1 %run %t 2>&1 | FileCheck %s
#include <new>

struct Obj {
  long a, b, c; // 24 bytes
};

__attribute__((noinline)) Obj *make_obj() { return new Obj(); }
__attribute__((noinline)) int *make_array(int n) { return new int[n]; }

int main() {
  for (int i = 0; i < 4; i++)
    delete make_obj();
  for (int n = 5; n <= 25; n += 20)
    delete[] make_array(n); // 20 and 100 bytes
  return 0;
}
// MIB:id/count/ave size/min size/max size/...
// CHECK: MIB:[[OBJ:[0-9]+]]/4/24.00/24/24/
// CHECK-NEXT: MIB:[[ARR:[0-9]+]]/2/60.00/20/100/
// CHECK-NOT: MIB:
// CHECK: Stack for id [[OBJ]]:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in make_obj{{(\(\))?}} {{.*}}alloc_counts_cxx.cpp:12
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}alloc_counts_cxx.cpp:17
// CHECK: Stack for id [[ARR]]:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in make_array{{(\(int\))?}} {{.*}}alloc_counts_cxx.cpp:13
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}alloc_counts_cxx.cpp:19
