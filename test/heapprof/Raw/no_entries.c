// A raw profile whose allocations all have stacks without a frame in the
// binary, or that has no allocation at all, is still written, but
// llvm-profdata 19 drops every such record and then refuses the file:
// "no entries in callstack map after symbolization".  That is the reader's
// behaviour (upstream's own runtime gets the same), not a broken profile.
// REQUIRES: heapprof-driver
//
// No allocation at all: a raw file with no records.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.dir
// RUN: %env_heapprof_opts=profile_dir=%t.dir:print_raw=1:print_text=1 %run %t
// RUN: FileCheck %s --check-prefix=TEXT0 < %t.dir/heapprof.no_entries.c.tmp.*.txt
// RUN: not llvm-profdata show --memory %t.dir/*.profraw --profiled-binary %t 2>&1 | FileCheck %s
//
// C++: the only allocation is libstdc++'s exception emergency pool, made by
// its static constructor before main; the text profile shows it, but its
// stack is all libstdc++ and ld.so.
// RUN: %clangxx_heapprof -O0 -x c++ %s -o %t.cxx
// RUN: rm -rf %t.cxx.dir
// RUN: %env_heapprof_opts=profile_dir=%t.cxx.dir:print_raw=1:print_text=1 %run %t.cxx
// RUN: FileCheck %s --check-prefix=TEXT1 < %t.cxx.dir/heapprof.no_entries.c.tmp.cxx.*.txt
// RUN: not llvm-profdata show --memory %t.cxx.dir/*.profraw --profiled-binary %t.cxx 2>&1 | FileCheck %s
// RUN: not llvm-profdata merge %t.cxx.dir/*.profraw --profiled-binary %t.cxx -o %t.memprofdata 2>&1 | FileCheck %s
int main(void) { return 0; }
// CHECK: no entries in callstack map after symbolization
// TEXT0: Summary: 0 contexts, 0 allocations
// TEXT1: Memory allocation stack id = 1
// TEXT1-NEXT: alloc_count 1
// TEXT1: Summary: 1 contexts, 1 allocations
