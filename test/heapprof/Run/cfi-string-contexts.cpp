// std::string buffers are grown inside libstdc++.so (no frame pointers): the
// walk steps over its frames with their CFI, so the contexts reach the
// callers in main, and llvm-profdata keeps them (with frame pointers alone
// the stack ended in libstdc++ and llvm-profdata dropped it: "no entries in
// callstack map after symbolization").
// REQUIRES: heapprof-driver
// RUN: rm -rf %t.dir
// RUN: %clangxx_heapprof -O2 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t | FileCheck %s --check-prefix=OUT
// OUT: 3000
// RUN: llvm-profdata-19 show --memory %t.dir/*.profraw --profiled-binary %t > %t.show 2>&1
// RUN: FileCheck %s < %t.show
// RUN: not grep "no entries in callstack map" %t.show
// The string(100, 'a') buffer: 101 bytes, 10 times, from the string
// constructor (inlined into grow_fill) in main.
// CHECK: SymbolName: _ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEC2IS3_EEmcRKS3_
// CHECK-NEXT: LineOffset:
// CHECK: SymbolName: _Z9grow_fillB5cxx11i
// CHECK: SymbolName: main
// CHECK: AllocCount: 10
// CHECK: TotalSize: 1010
// push_back's growth 15 -> 30 -> 60 -> 120 -> 240 characters: 4 buffers per
// string (31, 61, 121, 241 bytes), 40 in all, 4540 bytes.
// CHECK: SymbolName: _ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9push_backEc
// CHECK: SymbolName: _Z9grow_pushRNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE
// CHECK: SymbolName: main
// CHECK: AllocCount: 40
// CHECK: TotalSize: 4540
#include <cstdio>
#include <string>

__attribute__((noinline)) std::string *grow_fill(int n) {
  return new std::string(n, 'a');
}
__attribute__((noinline)) void grow_push(std::string &s) {
  for (int i = 0; i < 200; i++)
    s.push_back('x');
}
int main() {
  volatile unsigned long t = 0;
  for (int i = 0; i < 10; i++) {
    std::string *a = grow_fill(100);
    std::string b;
    grow_push(b);
    t += a->size() + b.size();
    delete a;
  }
  printf("%lu\n", (unsigned long)t);
}
