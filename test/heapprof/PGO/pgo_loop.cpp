// The PGO loop end to end (docs/pgo.md): build with heapprof, run with
// print_raw=1, index the raw profile with llvm-profdata 19, and compile again
// with -fmemory-profile-use: clang marks the profiled operator new[] calls
// hot, cold and notcold, and with -optimize-hot-cold-new calls heapprof's
// __hot_cold_t operator new, which puts the cold object in a cold region.
//
// make_hot's object is touched 10000 times in well under a millisecond:
// lifetime access density far above the hot threshold.  make_cold's lives
// 1.2 s with one access; with -memprof-ave-lifetime-cold-threshold=1 (in
// seconds; the default, 200 s, is longer than a test should sleep) it is
// cold.  make_warm's lives briefly with one access: neither.
// REQUIRES: heapprof-driver
// RUN: %clangxx_heapprof -O2 %s -o %t.instr
// RUN: rm -rf %t.dir
// RUN: %env_heapprof_opts=profile_dir=%t.dir:print_raw=1:print_text=0 %run %t.instr
// RUN: llvm-profdata merge %t.dir/*.profraw --profiled-binary %t.instr -o %t.memprofdata
//
// The use compile needs line tables with linkage names (-gline-tables-only
// -fdebug-info-for-profiling, or -g) to match the profile's frames.
// RUN: %clangxx_plain -O2 -gline-tables-only -fdebug-info-for-profiling \
// RUN:   -fmemory-profile-use=%t.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ATTR
// RUN: %clangxx_plain -O2 -gline-tables-only -fdebug-info-for-profiling \
// RUN:   -fmemory-profile-use=%t.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 -mllvm -optimize-hot-cold-new \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s --check-prefix=HINT
//
// Default thresholds: 1.2 s is far from the 200 s cold lifetime.
// RUN: %clangxx_plain -O2 -gline-tables-only -fdebug-info-for-profiling \
// RUN:   -fmemory-profile-use=%t.memprofdata -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
//
// Without debug info nothing matches.
// RUN: %clangxx_plain -O2 -fmemory-profile-use=%t.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=NODEBUG
//
// The optimised program links against heapprof's hot/cold operator new and
// its one cold allocation lands in a cold region (argument: skip the sleep).
// RUN: %clangxx_heapprof -O2 -fmemory-profile-use=%t.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 -mllvm -optimize-hot-cold-new \
// RUN:   %s -o %t.use
// RUN: llvm-nm %t.use | FileCheck %s --check-prefix=SYMS
// RUN: rm -rf %t.use.dir
// RUN: %env_heapprof_opts=profile_dir=%t.use.dir:print_raw=0:print_text=1:print_stats=1 %run %t.use quick 2>&1 | FileCheck %s --check-prefix=STATS
#include <unistd.h>

__attribute__((noinline)) char *make_hot(unsigned long n) { return new char[n]; }
__attribute__((noinline)) char *make_cold(unsigned long n) { return new char[n]; }
__attribute__((noinline)) char *make_warm(unsigned long n) { return new char[n]; }

int main(int argc, char **argv) {
  char *volatile h = make_hot(64);
  for (int r = 0; r < 10000; r++)
    h[r % 64] = (char)r;
  delete[] h;

  char *volatile c = make_cold(4096);
  c[0] = 1;
  if (argc < 2)
    usleep(1200 * 1000);
  delete[] c;

  char *volatile w = make_warm(64);
  w[0] = 1;
  delete[] w;
  return 0;
}
// ATTR-LABEL: define {{.*}} @_Z8make_hotm(
// ATTR: call {{.*}} @_Znam(i64 {{.*}}) #[[HOT:[0-9]+]]
// ATTR-LABEL: define {{.*}} @_Z9make_coldm(
// ATTR: call {{.*}} @_Znam(i64 {{.*}}) #[[COLD:[0-9]+]]
// ATTR-LABEL: define {{.*}} @_Z9make_warmm(
// ATTR: call {{.*}} @_Znam(i64 {{.*}}) #[[WARM:[0-9]+]]
// ATTR-DAG: attributes #[[HOT]] = { {{.*}}"memprof"="hot"
// ATTR-DAG: attributes #[[COLD]] = { {{.*}}"memprof"="cold"
// ATTR-DAG: attributes #[[WARM]] = { {{.*}}"memprof"="notcold"

// Hints: hot 254 (i8 -2), cold 1; notcold keeps the plain operator.
// HINT-LABEL: define {{.*}} @_Z8make_hotm(
// HINT: call {{.*}}ptr @_Znam12__hot_cold_t(i64 %{{.*}}, i8 -2)
// HINT-LABEL: define {{.*}} @_Z9make_coldm(
// HINT: call {{.*}}ptr @_Znam12__hot_cold_t(i64 %{{.*}}, i8 1)
// HINT-LABEL: define {{.*}} @_Z9make_warmm(
// HINT: call {{.*}} @_Znam(i64

// DEFAULT-LABEL: define {{.*}} @_Z9make_coldm(
// DEFAULT: call {{.*}} @_Znam(i64 {{.*}}) #[[C:[0-9]+]]
// DEFAULT: attributes #[[C]] = { {{.*}}"memprof"="notcold"
// DEFAULT-NOT: "memprof"="cold"

// NODEBUG-NOT: memprof

// SYMS: {{[TW]}} _Znam12__hot_cold_t

// STATS: cold_allocs 1 allocations served from cold regions
