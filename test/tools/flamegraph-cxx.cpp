// heapprof flamegraph on C++ names with spaces (demangled template
// arguments, operator names) and on an inlined allocation site.
//
//   main -> Maker<int, long>::make(): new char[48]     x2   96 bytes
//   main -> Call::operator()(int): new char[n], n=100   x1  100 bytes
//   main -> outer -> inl (always_inline): malloc(24)    x1   24 bytes
//
// With --full-names, spaces stay inside names (the count follows the LAST
// space); inl is marked _[i] and follows outer, the function it was
// inlined into.  By default the names are short (no template arguments,
// no parameters).
// (libstdc++'s own start-up allocation, its exception pool, is a stack
// without main and is not checked.)
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clangxx_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof flamegraph --full-names %t.dir > %t.folded
// RUN: FileCheck %s < %t.folded
// RUN: %python -c "import sys; d = dict((l.rsplit(' ', 1)[0], int(l.rsplit(' ', 1)[1])) for l in open(sys.argv[1]) if l.startswith('main;')); assert sum(d.values()) == 220, d; assert sorted(len(k.split(';')) for k in d) == [2, 2, 3], d" %t.folded
// RUN: heapprof flamegraph %t.dir | FileCheck %s --check-prefix=SHORT
// RUN: heapprof flamegraph --full-names --svg %t.dir > %t.svg
// RUN: %python -c "import sys, xml.etree.ElementTree as E; t = E.parse(sys.argv[1]); ns = '{http://www.w3.org/2000/svg}'; n = [g.find(ns + 'title').text for g in t.iter(ns + 'g') if g.get('class') == 'f']; assert any(x.startswith('Maker<int, long>::make() (96 bytes') for x in n), n" %t.svg
#include <stdlib.h>

template <typename T, typename U> struct Maker {
  __attribute__((noinline)) static char *make() { return new char[48]; }
};
struct Call {
  __attribute__((noinline)) char *operator()(int n) { return new char[n]; }
};
static inline __attribute__((always_inline)) void *inl() { return malloc(24); }
__attribute__((noinline)) static void *outer() { return inl(); }

char *volatile keep[4];

int main() {
  for (int i = 0; i < 2; i++)
    keep[i] = Maker<int, long>::make();
  keep[2] = Call()(100);
  keep[3] = static_cast<char *>(outer());
  return 0;
}

// CHECK: {{^}}main;Call::operator()(int) 100{{$}}
// CHECK-NEXT: {{^}}main;Maker<int, long>::make() 96{{$}}
// CHECK-NEXT: {{^}}main;outer();inl()_[i] 24{{$}}
// CHECK-NOT: {{.}}
// SHORT: {{^}}main;Call::operator() 100{{$}}
// SHORT-NEXT: {{^}}main;Maker::make 96{{$}}
// SHORT-NEXT: {{^}}main;outer;inl_[i] 24{{$}}
// SHORT-NOT: {{.}}
