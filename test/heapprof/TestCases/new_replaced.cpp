// A program that replaces operator new and delete (here only the two basic
// forms, counting their calls) links with heapprof-clang++ -- heapprof's
// forms are weak, where strong ones made the link fail with "multiple
// definition of operator new" -- and its operators see exactly the calls
// they see without heapprof: heapprof's other forms stand aside for the
// C++ library's, which call the program's basic ones as the standard says.
//   new W x3, new W[5] x2 (new[] calls new), new (nothrow) W x4 (calls new):
//   9 calls of the program's new; delete (sized), delete[] and the nothrow
//   objects' deletes: 9 calls of its delete.  Aligned new, which the
//   program does not replace, is the C++ library's (not counted), as is its
//   delete.
// No alloc-dealloc mismatch is reported: heapprof's delete never sees a
// block the program's new made.  The program's objects come from malloc in
// its operator new, which heapprof profiles: 3 x 204 + 2 x 1020 + 4 x 204
// = 3468 bytes in 9 objects there.
// RUN: %clangxx_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.dir && %env_heapprof_opts=profile_dir=%t.dir:verbosity=1 %run %t 2>&1 | FileCheck %s
// RUN: heapprof report --format json --top 0 %t.dir | %python %S/Inputs/new_replaced_sites.py | FileCheck %s --check-prefix=SITES
// The same without instrumentation, under heapprof run, and sampled:
// RUN: %clangxx_plain -O0 -g %s -o %t-plain
// RUN: %t-plain | FileCheck %s --check-prefix=PLAIN
// RUN: rm -rf %t.run && heapprof run -o %t.run -- %t-plain 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: rm -rf %t.run && %env_heapprof_opts=sample_bytes=1 heapprof run -o %t.run -- %t-plain 2>&1 | FileCheck %s --check-prefix=PLAIN
// CHECK: HeapProf: the program replaces operator new or delete: heapprof's forms call the C++ library's
// CHECK-NOT: mismatch
// CHECK: new 9, delete 9, aligned ok
// CHECK-NOT: mismatch
// PLAIN-NOT: mismatch
// PLAIN: new 9, delete 9, aligned ok
// PLAIN-NOT: mismatch
// SITES: operator new: 9 objects, 3468 bytes
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>

static int news, deletes;

void *operator new(std::size_t n) {
  news++;
  if (void *p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
void operator delete(void *p) noexcept {
  if (p)
    deletes++;
  std::free(p);
}

struct W {
  char b[204];
};
struct alignas(256) A {
  char b[300];
};

int main() {
  W *one[3], *many[2], *nt[4];
  for (W *&w : one)
    w = new W;
  for (W *&w : many)
    w = new W[5];
  for (W *&w : nt)
    w = new (std::nothrow) W;
  A *a = new A;
  bool aligned = reinterpret_cast<std::uintptr_t>(a) % 256 == 0;
  delete a;
  for (W *w : one)
    delete w;
  for (W *w : many)
    delete[] w;
  for (W *w : nt)
    delete w;
  std::printf("new %d, delete %d, aligned %s\n", news, deletes,
              aligned ? "ok" : "WRONG");
  return 0;
}
