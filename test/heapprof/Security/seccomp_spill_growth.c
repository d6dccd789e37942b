// In the program's seccomp sandbox the runtime makes only the system calls
// a malloc or free makes (heapprof_sandbox.c).  A free that evicts a record
// from the HIB table appends it to the spill log, and a full log doubled by
// mremap: a filter that allows mmap and munmap but not mremap (as below;
// glibc's malloc and free never call it) killed the process with SIGSYS
// where it exits 0.  In the sandbox the log now grows by a copy (mmap,
// munmap).
//
// A table of one entry (hib_table_sets=1:hib_table_ways=1), and contexts
// from 10 levels of calls, each from one of two call sites
// (call_chains.h), to a leaf that allocates and frees 8 bytes.  Before the
// filter: 8 contexts (the chain given 0..7), one object of 8 bytes each,
// freed: the checkpoint written at the filter holds 8 objects, 64 bytes.
// After it: 1024 contexts (0..1023), so that some 1024
// - 64 (the thread's cache) - 1 (the table) = 959 records are evicted to a
// log that starts at 256 records (the checkpoint took the old one): it
// doubles twice.  The process prints "done" and exits 0; nothing after the
// filter is written, so the directory has the checkpoint alone.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:hib_table_sets=1:hib_table_ways=1 %run %t 2> %t.err | FileCheck %s --check-prefix=DONE
// RUN: ls %t.d | count 1
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=BEFORE
// Under heapprof run (the preloaded runtime):
// RUN: %clang_plain -O0 %s -o %t.plain
// RUN: rm -rf %t.r && env -u LD_PRELOAD HEAPPROF_OPTIONS=hib_table_sets=1:hib_table_ways=1 heapprof run -o %t.r -- %t.plain 2> %t.err2 | FileCheck %s --check-prefix=DONE
// RUN: ls %t.r | count 1
// RUN: heapprof report %t.r | FileCheck %s --check-prefix=BEFORE
//
// DONE: done
// BEFORE: allocations      8 objects, 64 bytes
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "Inputs/seccomp_filter.h"

#define CALL_CHAIN_BITS 10
#include "../Inputs/call_chains.h"

static void *volatile sink;

static void call_chain_leaf(unsigned bits) {
  (void)bits;
  sink = malloc(8);
  free(sink);
}

int main(void) {
  for (unsigned b = 0; b < 8; b++)
    call_chain(b);
  struct sock_filter f[] = {
      SECCOMP_LOAD_NR,
      FAIL(__NR_openat, EACCES), FAIL(__NR_open, EACCES),
      ALLOW(__NR_read), ALLOW(__NR_write), ALLOW(__NR_exit_group),
      ALLOW(__NR_exit), ALLOW(__NR_brk), ALLOW(__NR_mmap),
      ALLOW(__NR_munmap), ALLOW(__NR_madvise), ALLOW(__NR_futex),
      ALLOW(__NR_rt_sigprocmask), ALLOW(__NR_getpid), ALLOW(__NR_gettid),
      ALLOW(__NR_getrandom), ALLOW(__NR_close), ALLOW(__NR_fstat),
      ALLOW(__NR_newfstatat), ALLOW(__NR_clock_gettime),
      ALLOW(__NR_rt_sigaction), ALLOW(__NR_rt_sigreturn),
      ALLOW(__NR_sched_yield),
      SECCOMP_KILL_REST,
  };
  if (seccomp_install(f, sizeof(f) / sizeof(f[0])) != 0)
    return 2;
  for (unsigned b = 0; b < 1024; b++)
    call_chain(b);
  write(1, "done\n", 5);
  return 0;
}
