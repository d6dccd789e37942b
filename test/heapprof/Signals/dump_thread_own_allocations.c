// What the runtime allocates through malloc for itself is not the
// program's: glibc's pthread_create callocs the vector of TLS blocks of
// the dump_signal thread heapprof starts (288 bytes), and the runtime's
// dlopen of libc.so.6 (to call glibc's unshare) allocates 40 bytes.  Both
// showed in the profile as live objects of the program's.  The program
// makes 1001 allocations of 40 bytes (40040 bytes) and frees them all,
// writing with write(2) so that stdio allocates no buffer: its profile has
// 1001 objects, none live, on heapprof's allocator, glibc's, in sampled
// mode with every byte sampled, and under heapprof run.
// RUN: rm -rf %t.d1 %t.d2 %t.d3 %t.r1 %t.r2
// RUN: %clang_heapprof -O1 %s -o %t
// RUN: %env_heapprof_opts=dump_signal=SIGUSR2:profile_dir=%t.d1 %run %t
// RUN: heapprof report --top 0 %t.d1 | FileCheck %s
// RUN: %env_heapprof_opts=dump_signal=SIGUSR2:allocator=system:profile_dir=%t.d2 %run %t
// RUN: heapprof report --top 0 %t.d2 | FileCheck %s
// RUN: %env_heapprof_opts=dump_signal=SIGUSR2:sample_bytes=1:profile_dir=%t.d3 %run %t
// RUN: heapprof report --top 0 %t.d3 | FileCheck %s
// RUN: %clang_plain -O1 %s -o %t.plain
// RUN: env HEAPPROF_OPTIONS=dump_signal=SIGUSR2 heapprof run -o %t.r1 -- %t.plain
// RUN: heapprof report --top 0 %t.r1 | FileCheck %s
// RUN: env HEAPPROF_OPTIONS=dump_signal=SIGUSR2 heapprof run --allocator=system -o %t.r2 -- %t.plain
// RUN: heapprof report --top 0 %t.r2 | FileCheck %s
// CHECK: == Summary
// CHECK: allocations 1001 objects, 40040 bytes
// CHECK-NEXT: frees 1001 objects
// CHECK-NEXT: live at the end 0 objects, 0 bytes
// CHECK-NOT: pthread_create
// CHECK-NOT: hp_glibc_sym
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
  void *v[1001];
  for (int i = 0; i < 1001; i++)
    v[i] = malloc(40);
  raise(SIGUSR2); // a checkpoint, written by the dump thread
  usleep(100000);
  // Refused (EINVAL: the dump thread) or allowed; either way heapprof
  // looks glibc's unshare up, stops its thread and starts it again.
  unshare(CLONE_NEWUSER);
  for (int i = 0; i < 1001; i++)
    free(v[i]);
  write(1, "done\n", 5);
  return 0;
}
