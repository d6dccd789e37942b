// heapprof report on C++: operator new's call site is frame 0, names are
// demangled, and delete counts as a free.  Names are shown without template
// arguments and parameters; --full-names shows them whole.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clangxx_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir:detect_leaks=0 %run %t
// RUN: heapprof report --sort allocs %t.dir | FileCheck %s
// RUN: heapprof report --sort allocs --full-names %t.dir | FileCheck %s --check-prefix=FULL
// pprof gets both: the short name to show, the whole one as system_name
// (-raw prints it in s=0(...)).
// RUN: heapprof pprof -o %t.pb.gz %t.dir
// RUN: go tool pprof -raw %t.pb.gz 2>/dev/null | FileCheck %s --check-prefix=PPROF
// PPROF: shop::Factory::make {{.*}}report-cxx.cpp:{{[0-9]+}} s=0(shop::Factory<Gadget>::make())
struct Gadget {
  char data[48];
};

namespace shop {
template <typename T> struct Factory {
  __attribute__((noinline)) static T *make() { return new T; }
};
} // namespace shop

Gadget *volatile kept[3];

int main() {
  for (int i = 0; i < 10; i++) {
    Gadget *volatile g = shop::Factory<Gadget>::make();
    if (i < 3)
      kept[i] = g;
    else
      delete g;
  }
  return 0;
}

// (libstdc++ also allocates its exception emergency pool at start-up: one
// more context, from inside libstdc++.)  The leak table is the live one
// (detect_leaks=0): kept[] reaches the three gadgets kept.
// CHECK: == Top contexts by allocs
// CHECK-NEXT: #1 {{.*}} 480 B in 10 objects (48 B each), 3 live (144 B)
// CHECK-NEXT: shop::Factory::make {{.*}}report-cxx.cpp:20
// CHECK-NEXT: main {{.*}}report-cxx.cpp:28
// CHECK: == Memory leaks
// CHECK: 144 B {{.*}} 3 shop::Factory::make ({{.*}}report-cxx.cpp:20:{{[0-9]+}}) <- main
// CHECK: == Direct allocation
// CHECK: 480 B 144 B 10 0% 100% 0% 0% shop::Factory::make
// FULL: == Top contexts by allocs
// FULL-NEXT: #1 {{.*}} 480 B in 10 objects (48 B each), 3 live (144 B)
// FULL-NEXT: shop::Factory<Gadget>::make() {{.*}}report-cxx.cpp:20
// FULL: == Memory leaks
// FULL: 144 B {{.*}} 3 shop::Factory<Gadget>::make() ({{.*}}report-cxx.cpp:20:{{[0-9]+}}) <- main
