// mallinfo2 and mallinfo describe the allocator that serves the program:
// heapprof's own (instrumented, and under heapprof run), glibc's under
// --allocator=system.  Under heapprof's they read zeros before (glibc's
// unused arenas).  The program reads them around 100 mallocs of 1000
// bytes, one of 1 MiB, and their frees, and checks what any allocator's
// books must show: the 100 blocks hold at least their 100,000 bytes in
// uordblks and at most twice that (a block is the request, its header, its
// size class's rounding); the 1 MiB chunk is one more hblks of at least
// 1 MiB in hblkhd (over glibc's mmap threshold: mapped as heapprof's large
// chunks are); freeing gives the same back; arena = uordblks + fordblks;
// mallinfo's int fields are mallinfo2's.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.d && env -u LD_PRELOAD heapprof run -o %t.d -- %t.plain | FileCheck %s
// glibc's books count the chunks its thread cache keeps as in use, so
// its uordblks does not give all 100 blocks back at their free.
// RUN: rm -rf %t.s && env -u LD_PRELOAD heapprof run -o %t.s --allocator=system -- %t.plain | FileCheck %s --check-prefix=SYS
// CHECK: blocks ok
// CHECK-NEXT: large ok
// CHECK-NEXT: freed ok
// CHECK-NEXT: books ok
// CHECK-NEXT: mallinfo ok
// SYS: blocks ok
// SYS-NEXT: large ok
// SYS: books ok
// SYS-NEXT: mallinfo ok
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

static void *volatile keep[100];

static const char *verdict(int ok) { return ok ? "ok" : "WRONG"; }

int main(void) {
  struct mallinfo2 m0 = mallinfo2();
  for (int i = 0; i < 100; i++)
    keep[i] = malloc(1000);
  struct mallinfo2 m1 = mallinfo2();
  void *volatile big = malloc(1 << 20);
  struct mallinfo2 m2 = mallinfo2();
  for (int i = 0; i < 100; i++)
    free(keep[i]);
  struct mallinfo2 m3 = mallinfo2();
  free(big);
  struct mallinfo2 m4 = mallinfo2();
  struct mallinfo i4 = mallinfo();
  size_t grew = m1.uordblks - m0.uordblks, shrank = m2.uordblks - m3.uordblks;
  printf("blocks %s (%zu bytes)\n",
         verdict(m1.uordblks >= m0.uordblks && grew >= 100000 && grew <= 200000),
         grew);
  printf("large %s\n", verdict(m2.hblks == m1.hblks + 1 &&
                               m2.hblkhd >= m1.hblkhd + (1 << 20)));
  printf("freed %s (%zu bytes)\n",
         verdict(m2.uordblks >= m3.uordblks && shrank >= 100000 &&
                 shrank <= 200000 && m4.hblks == m1.hblks &&
                 m4.hblkhd == m1.hblkhd),
         shrank);
  printf("books %s\n", verdict(m1.arena == m1.uordblks + m1.fordblks &&
                               m4.arena == m4.uordblks + m4.fordblks));
  printf("mallinfo %s\n", verdict((size_t)i4.arena == m4.arena &&
                                  (size_t)i4.uordblks == m4.uordblks &&
                                  (size_t)i4.hblks == m4.hblks));
  return 0;
}
