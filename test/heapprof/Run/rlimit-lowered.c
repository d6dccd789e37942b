// A program that lowers its own data-size or address-space limit
// (setrlimit; Chromium's sandbox gives its renderers 4 GiB of data):
// Linux counts the runtime's ~19 TiB of reservations against both, so
// every mapping after it failed, heapprof's first (the stack depot's:
// "out-of-memory", SIGABRT), where without heapprof the program runs.
// Now the limits a program sets for itself are its own: heapprof adds its
// reservations to them, and the program reads back what it set.  Each
// expected line is what the program does natively under a 256 MiB limit:
// it reads 268435456 back, may raise its soft limit to its hard one, maps
// 64 MiB and mallocs 100 x 100 KiB (10,240,000 bytes, well inside), and
// is refused 512 MiB (over its limit: the limit still holds).
// RUN: %clang_plain -O0 %s -o %t
// RUN: %t data | FileCheck %s
// RUN: %t as | FileCheck %s
// RUN: rm -rf %t.d %t.a
// RUN: heapprof run -o %t.d -- %t data > %t.dout 2> %t.derr
// RUN: FileCheck %s < %t.dout
// RUN: heapprof run -o %t.a -- %t as > %t.aout 2> %t.aerr
// RUN: FileCheck %s < %t.aout
// CHECK: limit 268435456 268435456
// CHECK-NEXT: raise 0
// CHECK-NEXT: mmap ok
// CHECK-NEXT: malloc 100 of 100
// CHECK-NEXT: big refused
// CHECK-NEXT: prlimit 268435456 268435456
// Nothing said, and the exit profile is written, the 100 objects in it.
// RUN: not grep HeapProf %t.derr %t.aerr
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=REPORT
// RUN: heapprof report %t.a | FileCheck %s --check-prefix=REPORT
// REPORT: 9.8 MiB in 100 objects (100.0 KiB each), 0 live (0 B)
// REPORT-NEXT: main
//
// The same through prlimit with the program's own pid, not 0 (as-pid):
// its own limit too, raised the same way.  Passed to the kernel as it
// was, the 256 MiB left no room for heapprof's reservations.
// RUN: %t as-pid | FileCheck %s
// RUN: rm -rf %t.p
// RUN: heapprof run -o %t.p -- %t as-pid > %t.pout 2> %t.perr
// RUN: FileCheck %s < %t.pout
// RUN: not grep HeapProf %t.perr
// RUN: heapprof report %t.p | FileCheck %s --check-prefix=REPORT
//
// An exec gives the new image the program's soft limit, not the raised
// one: a child run after the limit reads 268435456 too.
// RUN: heapprof run -o %t.d -- %t data-exec | FileCheck %s --check-prefix=EXEC
// EXEC: child limit 268435456
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static void *volatile keep[100];

int main(int argc, char **argv) {
  struct rlimit g;
  if (!strcmp(argv[1], "child")) {
    getrlimit(RLIMIT_DATA, &g);
    printf("child limit %llu\n", (unsigned long long)g.rlim_cur);
    return 0;
  }
  int by_pid = !strcmp(argv[1], "as-pid");
  int res = !strcmp(argv[1], "as") || by_pid ? RLIMIT_AS : RLIMIT_DATA;
  struct rlimit r = {256ull << 20, 256ull << 20};
  if (by_pid ? prlimit(getpid(), res, &r, NULL) : setrlimit(res, &r)) {
    perror("setrlimit");
    return 1;
  }
  if (!strcmp(argv[1], "data-exec")) {
    execl(argv[0], argv[0], "child", (char *)NULL);
    perror("execl");
    return 1;
  }
  getrlimit(res, &g);
  printf("limit %llu %llu\n", (unsigned long long)g.rlim_cur,
         (unsigned long long)g.rlim_max);
  g.rlim_cur = g.rlim_max;
  printf("raise %d\n", setrlimit(res, &g));
  void *m = mmap(NULL, 64 << 20, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  printf("mmap %s\n", m == MAP_FAILED ? "refused" : "ok");
  int ok = 0;
  for (int i = 0; i < 100; i++)
    ok += (keep[i] = malloc(100 << 10)) != NULL;
  printf("malloc %d of 100\n", ok);
  for (int i = 0; i < 100; i++)
    free(keep[i]);
  void *big = mmap(NULL, 512 << 20, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  printf("big %s\n", big == MAP_FAILED ? "refused" : "mapped");
  struct rlimit p;
  prlimit(by_pid ? getpid() : 0, res, NULL, &p);
  printf("prlimit %llu %llu\n", (unsigned long long)p.rlim_cur,
         (unsigned long long)p.rlim_max);
  return 0;
}
