// mlockall(MCL_FUTURE) in a -fheapprof program whose own memory limit had
// no room for the checkpoints' baselines (16 TiB of address space, which
// mlockall reserves first, so as not to lock them): the program started
// under a 21 TiB limit (heapprof's ~19 TiB of reservations fit, the
// baselines do not) and lowered it to 256 MiB.  heapprof aborted it in
// mlockall ("HeapProf: ERROR: out-of-memory: cannot map 0x100000000000
// bytes for checkpoint baseline shadow: the process reached the
// address-space limit ... the program set itself", which blamed the
// program's budget for heapprof's 16 TiB).  Natively mlockall returns 0
// and the program runs on; now so it does under heapprof, and its
// checkpoint is not written (__heapprof_dump() -1), with the warning that
// names the baselines (Run/limit-reached-message.c has it for a checkpoint
// without mlockall).  The exit profile is written: the last needs no
// baseline.  21 TiB = 21 x 2^40 bytes: ulimit -v 22548578304 (KiB).
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && sh -c 'ulimit -v 22548578304 && env HEAPPROF_OPTIONS=profile_dir=%t.d %t' > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=WARN < %t.err
// RUN: ls %t.d | FileCheck %s --check-prefix=FILES
// CHECK: mlockall 0
// CHECK-NEXT: malloc ok
// CHECK-NEXT: checkpoint -1
// CHECK-NEXT: done
// WARN: HeapProf: WARNING: checkpoint 1 (checkpoint) not written: a mapping was refused: the address-space limit (ulimit -v, RLIMIT_AS) the program set itself is 268435456 bytes, and heapprof added its reservations to it but not the checkpoints' baseline (16 TiB of address space), which could not be reserved when the limit was set
// WARN-NOT: HeapProf
// FILES: {{^heapprof\..*\.[0-9]+\.profraw$}}
// FILES-NOT: profraw
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>

int __heapprof_dump(void);

static void *volatile keep;

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  struct rlimit r = {256ull << 20, 256ull << 20};
  if (setrlimit(RLIMIT_AS, &r)) {
    perror("setrlimit");
    return 1;
  }
  printf("mlockall %d\n", mlockall(MCL_FUTURE));
  keep = malloc(100);
  printf("malloc %s\n", keep ? "ok" : "failed");
  printf("checkpoint %d\n", __heapprof_dump());
  printf("done\n");
  return 0;
}
