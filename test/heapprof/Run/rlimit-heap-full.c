// A memory limit the program sets itself holds for its heap (heapprof's
// allocator carves its blocks out of reservations the kernel counted once,
// so a 256 MiB limit refused no malloc the primary served: 200,000 blocks
// of 4,000 bytes, 800 MB, were all given).  Now a ballast mapping as large
// as the spans made stands for them (heapprof_rlimit.c).  Each expected
// line is what the program does natively under the limit:
//  - 4,000-byte blocks until malloc fails: between 128 MiB and 256 MiB of
//    them (heapprof's per-block overhead and its own memory count against
//    the limit, so fewer than glibc's; half the budget at the least), and
//    the failure is ENOMEM;
//  - at the limit a 1 MiB block (a mapping of its own) is refused too;
//  - every other block freed, 65,536 allocations of 4,000 bytes from as
//    many call stacks all succeed, in the freed blocks.  heapprof's stack
//    depot has no room for their stacks: it aborted the program ("cannot
//    map 0x100000 bytes for stack depot ... run with ulimit -v unlimited",
//    advice that cannot help, the limit being the program's); they are now
//    counted without frames, said once.
// RUN: %clang_plain -O0 -fno-omit-frame-pointer %s -o %t
// RUN: %t as | FileCheck %s
// RUN: %t data | FileCheck %s
// RUN: rm -rf %t.a %t.d
// RUN: env HEAPPROF_OPTIONS=fold_recursion=0 heapprof run -o %t.a -- %t as > %t.aout 2> %t.aerr
// RUN: FileCheck %s < %t.aout
// RUN: FileCheck %s --check-prefix=WARN < %t.aerr
// RUN: env HEAPPROF_OPTIONS=fold_recursion=0 heapprof run -o %t.d -- %t data > %t.dout 2> %t.derr
// RUN: FileCheck %s < %t.dout
// RUN: FileCheck %s --check-prefix=WARN < %t.derr
// CHECK: filled within the budget: yes
// CHECK-NEXT: errno ENOMEM: yes
// CHECK-NEXT: large refused: yes
// CHECK-NEXT: fresh 65536 of 65536
// WARN: HeapProf: WARNING: cannot map memory for the stack depot (the process reached the {{address-space|data-size}} limit ({{.*}}) the program set itself, 268435456 bytes {{.*}}): allocations from call stacks not seen before are counted without their frames, in one context, until it can
// WARN-NOT: HeapProf
//
// The exit profile is written (the ballast goes before it: the program's
// budget ends with it), and has every allocation the program made: the
// count it printed, the ones without frames among them.
// RUN: sh -c 'grep "^mallocs" %t.aout | sed "s/mallocs/allocations/" > %t.acount'
// RUN: heapprof report %t.a > %t.arep
// RUN: sh -c 'grep -E "^allocations +[0-9]+ objects" %t.arep | sed -E "s/ +/ /; s/ objects.*//" | diff - %t.acount'
// RUN: FileCheck %s --check-prefix=REPORT < %t.arep
// REPORT: [no frames: called from outside the program's code, or no memory to record them]
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "Inputs/own_limit.h"

#define MAX_BLOCKS 200000
static void *blocks[MAX_BLOCKS];
static long mallocs;
static int fresh_ok;

__attribute__((noinline)) static void leaf(void) {
  void *p = malloc(4000);
  if (p) {
    mallocs++;
    fresh_ok++;
    free(p);
  }
}

// 2^16 paths through a and b, each its own call stack (with recursion
// folding off: the RUN lines set fold_recursion=0).
static void walk(unsigned bits, int depth);
__attribute__((noinline)) static void a(unsigned bits, int depth) {
  walk(bits >> 1, depth - 1);
  __asm__ volatile("");
}
__attribute__((noinline)) static void b(unsigned bits, int depth) {
  walk(bits >> 1, depth - 1);
  __asm__ volatile("");
}
__attribute__((noinline)) static void walk(unsigned bits, int depth) {
  if (!depth)
    leaf();
  else if (bits & 1)
    a(bits, depth);
  else
    b(bits, depth);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0); /* no buffer: no malloc but ours */
  set_own_limit(argc, argv);
  long n = 0;
  errno = 0;
  while (n < MAX_BLOCKS && (blocks[n] = malloc(4000)))
    n++;
  int err = errno;
  mallocs = n;
  printf("filled within the budget: %s\n",
         n * 4000 >= (128l << 20) && n * 4000 <= (256l << 20) ? "yes" : "no");
  printf("errno ENOMEM: %s\n", err == ENOMEM ? "yes" : "no");
  void *large = malloc(1 << 20);
  printf("large refused: %s\n", large ? "no" : "yes");
  if (large)
    mallocs++;
  for (long i = 0; i < n; i += 2)
    free(blocks[i]);
  for (unsigned s = 0; s < 65536; s++)
    walk(s, 16);
  printf("fresh %d of 65536\n", fresh_ok);
  printf("mallocs %ld\n", mallocs);
  return 0;
}
