// PGO from a run with __heapprof_dump() checkpoints.  The cold object lives
// across the checkpoint: dump 1 counts it (0.6 s so far), the exit dump adds
// a continuation (alloc_count 0, the other 0.6 s).  Concatenating the dumps
// of one process into one raw file lets llvm-profdata fold them by stack id
// (upstream writes its dumps to one file the same way): 1 object, 1.2 s,
// cold.  Given as separate inputs, llvm-profdata 19 keeps two alloc-site
// entries and judges each on its own: the 0.6 s half is not cold.
// REQUIRES: heapprof-driver
// RUN: %clangxx_heapprof -O2 %s -o %t.instr
// RUN: rm -rf %t.dir
// RUN: %env_heapprof_opts=profile_dir=%t.dir:print_raw=1:print_text=0 %run %t.instr
// RUN: cat %t.dir/heapprof.pgo_checkpoints.cpp.tmp.instr.*.1.profraw > %t.all.profraw
// RUN: rm %t.dir/heapprof.pgo_checkpoints.cpp.tmp.instr.*.1.profraw
// RUN: cat %t.dir/heapprof.pgo_checkpoints.cpp.tmp.instr.*.profraw >> %t.all.profraw
// RUN: llvm-profdata show --memory %t.all.profraw --profiled-binary %t.instr | FileCheck %s --check-prefix=SHOW
// RUN: llvm-profdata merge %t.all.profraw --profiled-binary %t.instr -o %t.memprofdata
// RUN: %clangxx_plain -O2 -gline-tables-only -fdebug-info-for-profiling \
// RUN:   -I%heapprof_include_dir -fmemory-profile-use=%t.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 -mllvm -optimize-hot-cold-new \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s
//
// A second run, its two files given to merge as separate inputs.
// RUN: rm -rf %t.dir2
// RUN: %env_heapprof_opts=profile_dir=%t.dir2:print_raw=1:print_text=0 %run %t.instr
// RUN: llvm-profdata merge %t.dir2/*.profraw --profiled-binary %t.instr -o %t.split.memprofdata
// RUN: %clangxx_plain -O2 -gline-tables-only -fdebug-info-for-profiling \
// RUN:   -I%heapprof_include_dir -fmemory-profile-use=%t.split.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 -mllvm -optimize-hot-cold-new \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SPLIT
#include <heapprof/heapprof_interface.h>
#include <unistd.h>

__attribute__((noinline)) char *make_cold(unsigned long n) { return new char[n]; }

int main() {
  char *volatile c = make_cold(4096);
  c[0] = 1;
  usleep(600 * 1000);
  if (__heapprof_dump() != 0)
    return 1;
  usleep(600 * 1000);
  delete[] c;
  return 0;
}
// Two dumps, one record: the continuation folded into its object.
// SHOW: NumMibInfo: 1
// SHOW: SymbolName: _Z9make_coldm
// SHOW: AllocCount: 1
// SHOW: TotalLifetime: {{1[2-9][0-9][0-9]|[2-9][0-9][0-9][0-9]}}

// CHECK-LABEL: define {{.*}} @_Z9make_coldm(
// CHECK: call {{.*}}ptr @_Znam12__hot_cold_t(i64 %{{.*}}, i8 1)

// SPLIT-LABEL: define {{.*}} @_Z9make_coldm(
// SPLIT: call {{.*}} @_Znam(i64
