// Instrumented C++ at -O2: a vector access counts 1 (at the granule of its
// first byte), new/new[] objects get their loads and stores.
// REQUIRES: heapprof-driver
// RUN: %clangxx_heapprof -O2 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1 %run %t 2>&1 | FileCheck %s
#include <cstdio>

typedef float v4 __attribute__((vector_size(16)));
struct Node {
  long a, b;
};

__attribute__((noinline)) v4 *make_vecs(int n) { return new v4[n]; }
__attribute__((noinline)) Node *make_node() { return new Node; }

int main() {
  // 8 vector stores and 8 vector loads of 16 bytes: 16 accesses.  The
  // pointer is re-read (volatile) before each, so none can be merged.
  v4 *volatile v = make_vecs(8);
  for (int i = 0; i < 8; i++)
    v[i] = (v4){1, 2, 3, (float)i};
  v4 sum = {0, 0, 0, 0};
  for (int i = 0; i < 8; i++)
    sum += v[i];
  delete[] v;
  // 2 stores + 2 loads.
  Node *volatile n = make_node();
  n->a = 1;
  n->b = 2;
  long x = n->a + n->b;
  delete n;
  std::printf("%g %ld\n", (double)sum[3], x);
  return 0;
}
// Terse form: MIB:<id>/<count>/<ave size>/<min>/<max>/<ave acc>/<min>/<max>/...
// Contexts come in stack id order: make_vecs's before make_node's.
// CHECK: MIB:[[V:[0-9]+]]/1/128.00/128/128/16.00/16/16/
// CHECK: MIB:[[N:[0-9]+]]/1/16.00/16/16/4.00/4/4/
// CHECK: Stack for id [[V]]:
// CHECK-NEXT: #0 {{.*}} in make_vecs
// CHECK: Stack for id [[N]]:
// CHECK-NEXT: #0 {{.*}} in make_node
// The program's own output comes last: stdout is flushed after the profile.
// CHECK: 28 3
