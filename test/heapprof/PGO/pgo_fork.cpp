// PGO from a process that forks.  The cold object is allocated before the
// fork and lives about 1.1 s in the parent; the child inherits a copy and
// exits with it live, so the child's profile carries it as a continuation
// (alloc_count 0: the parent counted the allocation).  heapprof merge adds
// the two processes into one profile, where the continuation joins its
// object: 1 object, over 1 s, cold.  Given as separate inputs, llvm-profdata
// 19 keeps the child's entry on its own, divides by its alloc_count of 0,
// and calls it not cold; the site then comes out not cold (pgo.md says to
// merge with heapprof merge first).
// REQUIRES: heapprof-driver
// RUN: %clangxx_heapprof -O2 %s -o %t.instr
// RUN: rm -rf %t.dir
// RUN: %env_heapprof_opts=profile_dir=%t.dir:print_raw=1:print_text=0 %run %t.instr
// RUN: ls %t.dir/*.profraw | wc -l | FileCheck %s --check-prefix=FILES
// RUN: heapprof merge -o %t.all.profraw %t.dir
// RUN: llvm-profdata show --memory %t.all.profraw --profiled-binary %t.instr | FileCheck %s --check-prefix=SHOW
// RUN: llvm-profdata merge %t.all.profraw --profiled-binary %t.instr -o %t.memprofdata
// RUN: %clangxx_plain -O2 -gline-tables-only -fdebug-info-for-profiling \
// RUN:   -I%heapprof_include_dir -fmemory-profile-use=%t.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 -mllvm -optimize-hot-cold-new \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s
//
// The two files given to llvm-profdata as separate inputs.
// RUN: llvm-profdata merge %t.dir/*.profraw --profiled-binary %t.instr -o %t.split.memprofdata
// RUN: %clangxx_plain -O2 -gline-tables-only -fdebug-info-for-profiling \
// RUN:   -I%heapprof_include_dir -fmemory-profile-use=%t.split.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 -mllvm -optimize-hot-cold-new \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SPLIT
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) char *make_cold(unsigned long n) { return new char[n]; }

int main() {
  char *volatile c = make_cold(4096);
  c[0] = 1;
  pid_t pid = fork();
  if (pid < 0)
    return 1;
  if (pid == 0) {
    usleep(100 * 1000);
    return 0; // exits with its copy live
  }
  usleep(1100 * 1000);
  int st;
  if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
    return 1;
  delete[] c;
  return 0;
}
// Two processes, two files.
// FILES: 2
// One record: the child's continuation folded into its object.
// SHOW: NumMibInfo: 1
// SHOW: SymbolName: _Z9make_coldm
// SHOW: AllocCount: 1
// SHOW: TotalLifetime: {{1[1-9][0-9][0-9]|[2-9][0-9][0-9][0-9]}}

// CHECK-LABEL: define {{.*}} @_Z9make_coldm(
// CHECK: call {{.*}}ptr @_Znam12__hot_cold_t(i64 %{{.*}}, i8 1)

// SPLIT-LABEL: define {{.*}} @_Z9make_coldm(
// SPLIT: call {{.*}} @_Znam(i64
