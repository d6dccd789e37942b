// A profile from heapprof run (a program not rebuilt) has no access counts,
// so llvm-profdata sees every context as untouched: access density 0.  Fed
// to clang's hot/cold classification (docs/pgo.md), any context whose
// objects live at least the cold lifetime (200 s by default) is classed
// cold, however busy it was.  make_busy's object is written 12 million
// times over its 1.2 s: the -fheapprof build's profile classes it hot
// (12e6 accesses / 4096 bytes / 1.2 s = about 2400 per byte per second,
// above the hot threshold of 1000), heapprof run's classes it cold
// (density 0, lifetime over 1 s, the test's cold lifetime as in
// pgo_loop.cpp).  docs/pgo.md and docs/run.md say to take hot/cold hints
// from a -fheapprof build only.
//
// The plain build keeps sibling calls off, as heapprof-clang does: with
// them make_busy jumps to operator new[] and leaves no frame, and the
// profile's context, main alone, matches no call in the source.
// REQUIRES: heapprof-driver
// RUN: %clangxx_heapprof -O2 %s -o %t.instr
// RUN: %clangxx_plain -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls %s -o %t.plain
// RUN: rm -rf %t.built %t.run
// RUN: %env_heapprof_opts=profile_dir=%t.built:print_text=0 %run %t.instr
// RUN: env -u LD_PRELOAD heapprof run -o %t.run -- %t.plain
// RUN: llvm-profdata merge %t.built/*.profraw --profiled-binary %t.instr -o %t.built.memprofdata
// RUN: llvm-profdata merge %t.run/*.profraw --profiled-binary %t.plain -o %t.run.memprofdata
// RUN: %clangxx_plain -O2 -gline-tables-only -fdebug-info-for-profiling \
// RUN:   -fmemory-profile-use=%t.built.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s --check-prefix=BUILT
// RUN: %clangxx_plain -O2 -gline-tables-only -fdebug-info-for-profiling \
// RUN:   -fmemory-profile-use=%t.run.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s --check-prefix=PRELOADED
#include <unistd.h>

__attribute__((noinline)) char *make_busy(unsigned long n) {
  return new char[n];
}

int main() {
  char *volatile b = make_busy(4096);
  for (int t = 0; t < 12; t++) {
    for (int r = 0; r < 1000000; r++)
      b[r % 4096] = (char)r;
    usleep(100 * 1000);
  }
  delete[] b;
  return 0;
}
// BUILT-LABEL: define {{.*}} @_Z9make_busym(
// BUILT: call {{.*}} @_Znam(i64 {{.*}}) #[[A:[0-9]+]]
// BUILT: attributes #[[A]] = { {{.*}}"memprof"="hot"
// PRELOADED-LABEL: define {{.*}} @_Z9make_busym(
// PRELOADED: call {{.*}} @_Znam(i64 {{.*}}) #[[A:[0-9]+]]
// PRELOADED: attributes #[[A]] = { {{.*}}"memprof"="cold"
