// A short-lived object is as hot as its accesses per byte say.  Each of the
// 100 scratch buffers is 4096 bytes, written byte by byte twice (8192
// accesses, 2 a byte) and freed at once: it lives some microseconds.
// clang 19 divides by max(lifetime_ms, 1), so its lifetime access density
// is 2 * 1000 = 2000 accesses per byte per second, above the hot threshold
// of 1000: hot (upstream MemProf's profile of this program says hot too).
//
// heapprof's clock reads an end a tick late (4 ms: lifetimes are never
// short), and the density divided by that lifetime: 2 * 1000 / 4 = 500,
// and the site came out notcold.  The density now divides by the lifetime
// without that tick (heapprof_hib.h, hp_density_lifetime), while the
// lifetime field keeps it.
// REQUIRES: heapprof-driver
// RUN: %clangxx_heapprof -O2 %s -o %t.instr
// RUN: rm -rf %t.dir
// RUN: %env_heapprof_opts=profile_dir=%t.dir:print_raw=1:print_text=0 %run %t.instr
// RUN: llvm-profdata show --memory %t.dir/*.profraw --profiled-binary %t.instr | FileCheck %s --check-prefix=SHOW
// RUN: llvm-profdata merge %t.dir/*.profraw --profiled-binary %t.instr -o %t.memprofdata
// RUN: %clangxx_plain -O2 -gline-tables-only -fdebug-info-for-profiling \
// RUN:   -fmemory-profile-use=%t.memprofdata -S -emit-llvm %s -o - | FileCheck %s
__attribute__((noinline)) char *make_scratch(unsigned long n) {
  return new char[n];
}

int main() {
  for (int k = 0; k < 100; k++) {
    char *p = make_scratch(4096);
    volatile char *v = p;
    for (int pass = 0; pass < 2; pass++)
      for (int i = 0; i < 4096; i++)
        v[i] = (char)(i + pass);
    delete[] p;
  }
  return 0;
}
// SHOW: SymbolName: _Z12make_scratchm
// SHOW: AllocCount: 100
// SHOW-NEXT: TotalAccessCount: 819200

// CHECK-LABEL: define {{.*}} @_Z12make_scratchm(
// CHECK: call {{.*}} @_Znam(i64 {{.*}}) #[[A:[0-9]+]]
// CHECK: attributes #[[A]] = { {{.*}}"memprof"="hot"
