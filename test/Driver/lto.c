// Link-time optimization: with full -flto and -flto=thin, through lld and
// through GNU ld's LLVMgold plugin, the pass instruments the pre-link
// bitcode once (the ThinLTO backend does not count a second time), the
// runtime is linked, and the counts are the program's.  The profile
// directory follows the same rules as without LTO: the link step's
// -fheapprof=DIR wins over the one compiled into the bitcode, and a link
// step without DIR keeps the bitcode's.
// REQUIRES: heapprof-driver
// RUN: rm -rf %t && mkdir -p %t/run
//
// RUN: heapprof-clang -O2 -flto -fuse-ld=lld -fheapprof %s -o %t/full-lld
// RUN: %env_heapprof_opts=log_path=stderr %run %t/full-lld 2>&1 | FileCheck %s
// RUN: heapprof-clang -O2 -flto=thin -fuse-ld=lld -fheapprof %s -o %t/thin-lld
// RUN: %env_heapprof_opts=log_path=stderr %run %t/thin-lld 2>&1 | FileCheck %s
// RUN: heapprof-clang -O2 -flto -fuse-ld=bfd -fheapprof %s -o %t/full-bfd
// RUN: %env_heapprof_opts=log_path=stderr %run %t/full-bfd 2>&1 | FileCheck %s
// RUN: heapprof-clang -O2 -flto=thin -fuse-ld=bfd -fheapprof %s -o %t/thin-bfd
// RUN: %env_heapprof_opts=log_path=stderr %run %t/thin-bfd 2>&1 | FileCheck %s
//
// Compiled and linked apart: the same counts.
// RUN: heapprof-clang -O2 -flto=thin -fheapprof=%t/compiledir -c %s -o %t/a.o
// RUN: heapprof-clang -O2 -flto=thin -fuse-ld=lld -fheapprof %t/a.o -o %t/apart
// RUN: %env_heapprof_opts=log_path=stderr %run %t/apart 2>&1 | FileCheck %s
//
// The profile directory: the bitcode's when the link step names none, the
// link step's when it does.
// RUN: cd %t/run && %t/apart
// RUN: ls %t/compiledir | grep -c '^heapprof\.apart\.[0-9]*\.profraw$' | grep -x 1
// RUN: heapprof-clang -O2 -flto=thin -fuse-ld=lld -fheapprof=%t/linkdir %t/a.o -o %t/linked
// RUN: cd %t/run && %t/linked
// RUN: ls %t/linkdir | grep -c '^heapprof\.linked\.[0-9]*\.profraw$' | grep -x 1
// RUN: ls %t/compiledir | not grep '^heapprof\.linked\.'
// RUN: ls %t/run | count 0
#include <stdlib.h>

__attribute__((noinline)) int *make_ints(void) { return malloc(10 * sizeof(int)); }
__attribute__((noinline)) char *make_chars(void) { return malloc(100); }

int main(void) {
  // 10 int stores + 10 int loads into a 40-byte chunk: 20.  The pointers
  // are volatile so that no optimisation, cross-module or not, deletes the
  // allocations or merges the accesses.
  int *volatile a = make_ints();
  for (int i = 0; i < 10; i++)
    a[i] = i;
  int sum = 0;
  for (int i = 0; i < 10; i++)
    sum += a[i];
  // 100 byte stores: 100.
  char *volatile c = make_chars();
  for (int i = 0; i < 100; i++)
    c[i] = (char)i;
  free(a);
  free(c);
  return sum == 45 ? 0 : 1;
}
// CHECK: Memory allocation stack id = [[INTS:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 40.00 / 40 / 40
// CHECK-NEXT: access_count (ave/min/max): 20.00 / 20 / 20
// CHECK: Memory allocation stack id = [[CHARS:[0-9]+]]
// CHECK-NEXT: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
// CHECK-NEXT: access_count (ave/min/max): 100.00 / 100 / 100
// CHECK: Stack for id [[INTS]]:
// CHECK-NEXT: in make_ints
// CHECK: Stack for id [[CHARS]]:
// CHECK-NEXT: in make_chars
// CHECK: Summary: 2 contexts, 2 allocations, 140 bytes, 120 accesses
