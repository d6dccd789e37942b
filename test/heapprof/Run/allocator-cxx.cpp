// operator new and delete under --allocator: heapprof's operator new calls
// the wrapped allocator and keeps the C++ contract (new_handler loop,
// std::bad_alloc, nothrow NULL).  6 x new of a 48-byte struct, 4 x new
// int[25] (100 bytes), all deleted.  tcmalloc defines its own operator new;
// heapprof's preempts it and calls tcmalloc's (nothrow) one.
// RUN: %clangxx_plain -O0 -g %s -o %t
// RUN: rm -rf %t.dir && env -u LD_PRELOAD heapprof run -o %t.dir --allocator=system -- %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 %t.dir | FileCheck %s
// RUN: %if tcmalloc %{ rm -rf %t.tc && env -u LD_PRELOAD heapprof run -o %t.tc --allocator=%libtcmalloc -- %t 2>/dev/null | FileCheck %s --check-prefix=OUT %}
// RUN: %if tcmalloc %{ heapprof report --top 0 %t.tc | FileCheck %s %}
// A library that defines operator new and delete gets its own called (new
// and new[] in their nothrow forms, heapprof keeping the new_handler loop
// and the throw): 6 new + the 2 failing ones, 4 new[], 6 delete, 4 delete[].
// RUN: %clang_plain -shared -fPIC %S/Inputs/counting-alloc.c -o %t.alloc.so
// RUN: rm -rf %t.ca && env -u LD_PRELOAD HEAPPROF_OPTIONS=verbosity=1 heapprof run -o %t.ca --allocator=%t.alloc.so -- %t 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: heapprof report --top 0 %t.ca | FileCheck %s
// COUNT: profiling the malloc of {{.*}}.alloc.so and its operator new/delete
// COUNT: counting-alloc: new 8 new[] 4 delete 6 delete[] 4
// OUT: bad_alloc
// OUT: nothrow null
// CHECK: == Direct allocation
// CHECK-DAG: {{^ *[0-9.]+% +400 B +0 B +4 .* site_arr$}}
// CHECK-DAG: {{^ *[0-9.]+% +288 B +0 B +6 .* site_new$}}
#include <cstdio>
#include <new>

struct W {
  char b[48];
};
__attribute__((noinline)) W *site_new() { return new W; }
__attribute__((noinline)) int *site_arr() { return new int[25]; }

int main() {
  W *volatile w[6];
  for (int i = 0; i < 6; i++)
    w[i] = site_new();
  for (int i = 0; i < 6; i++)
    delete w[i];
  for (int i = 0; i < 4; i++) {
    int *volatile a = site_arr();
    delete[] a;
  }
  try {
    void *volatile p = ::operator new((size_t)1 << 62);
    (void)p;
  } catch (std::bad_alloc &) {
    puts("bad_alloc");
  }
  void *volatile q = ::operator new((size_t)1 << 62, std::nothrow);
  printf("nothrow %s\n", q ? "non-null" : "null");
  return 0;
}
