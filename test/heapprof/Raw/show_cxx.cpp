// llvm-profdata 19 reads heapprof's raw profile of a C++ program (operator
// new, new[], aligned and nothrow new), at -O0 and -O2, and agrees with
// heapprof's text profile of the same run.  Objects are reached through
// volatile pointers or volatile members so every access in the source is
// one instrumented access at both levels.
// REQUIRES: heapprof-driver
// RUN: %clangxx_heapprof -O0 %s -o %t.O0
// RUN: rm -rf %t.O0.dir
// RUN: %env_heapprof_opts=profile_dir=%t.O0.dir:print_raw=1:print_text=1 %run %t.O0
// RUN: llvm-profdata show --memory %t.O0.dir/*.profraw --profiled-binary %t.O0 > %t.O0.yaml
// RUN: %python %S/Inputs/raw_vs_text.py %t.O0 %t.O0.yaml %t.O0.dir/*.txt | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANGLED < %t.O0.yaml
//
// RUN: %clangxx_heapprof -O2 %s -o %t.O2
// RUN: rm -rf %t.O2.dir
// RUN: %env_heapprof_opts=profile_dir=%t.O2.dir:print_raw=1:print_text=1 %run %t.O2
// RUN: llvm-profdata show --memory %t.O2.dir/*.profraw --profiled-binary %t.O2 > %t.O2.yaml
// RUN: %python %S/Inputs/raw_vs_text.py %t.O2 %t.O2.yaml %t.O2.dir/*.txt | FileCheck %s
#include <new>

struct Node {
  long v;
  Node *next;
};

struct Obj {
  volatile int a[8];
  Obj() {
    for (int i = 0; i < 8; i++)
      a[i] = i;
  }
};

struct alignas(64) Big {
  long x[8];
};

__attribute__((noinline)) Node *make_node() { return new Node; }
__attribute__((noinline)) int *make_array() { return new int[25]; }
__attribute__((noinline)) Obj *make_obj() { return new Obj; }
__attribute__((noinline)) Big *make_big() { return new Big; }
__attribute__((noinline)) char *make_nothrow() {
  return new (std::nothrow) char[10];
}

int main() {
  // Four 16-byte nodes, each: 2 stores + 1 load = 3 accesses.
  long sum = 0;
#pragma clang loop unroll(disable)
  for (int i = 0; i < 4; i++) {
    Node *volatile n = make_node();
    n->v = i;
    n->next = nullptr;
    sum += n->v;
    delete n;
  }

  // 25 int stores + 5 loads into 100 bytes: 30.
  int *volatile a = make_array();
  for (int i = 0; i < 25; i++)
    a[i] = i;
  for (int i = 0; i < 5; i++)
    sum += a[i];
  delete[] a;

  // The constructor's 8 volatile stores + 2 loads into 32 bytes: 10.
  Obj *volatile o = make_obj();
  sum += o->a[0] + o->a[1];
  delete o;

  // operator new(size_t, align_val_t): one store into 64 bytes.
  Big *volatile b = make_big();
  b->x[0] = 1;
  delete b;

  // nothrow new[]: 10 byte stores into 10 bytes.
  char *volatile c = make_nothrow();
  for (int i = 0; i < 10; i++)
    c[i] = 'x';
  delete[] c;
  return sum == 6 + 10 + 1 ? 0 : 1;
}
// Density = accesses * 100 / size per object: array 30, big 1, node 3*100/16
// = 18 (x4 = 72), nothrow 100, obj 10*100/32 = 31.
// CHECK: site make_array()<main alloc_count=1 size=100/100/100 access=30/30/30 density=30/30/30
// CHECK-NEXT: site make_big()<main alloc_count=1 size=64/64/64 access=1/1/1 density=1/1/1
// CHECK-NEXT: site make_node()<main alloc_count=4 size=64/16/16 access=12/3/3 density=72/18/18
// CHECK-NEXT: site make_nothrow()<main alloc_count=1 size=10/10/10 access=10/10/10 density=100/100/100
// CHECK-NEXT: site make_obj()<main alloc_count=1 size=32/32/32 access=10/10/10 density=31/31/31
// CHECK-NEXT: compared 5 sites with the text profile: all equal

// llvm-profdata names C++ frames by their linkage names.
// MANGLED: SymbolName: _Z10make_arrayv
