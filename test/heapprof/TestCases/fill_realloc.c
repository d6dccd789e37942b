// The bytes a new chunk gets with junk_fill=1 (0xd0, phkmalloc's J) and
// zero_fill=1 (0, phkmalloc's Z), in the calls that must not just fill the
// whole chunk: a reused block (calloc under junk_fill still returns zeros;
// malloc under zero_fill returns zeros although the block held data), and
// realloc, which keeps the old bytes and fills only the ones it adds: in
// place (40 -> 60 bytes, one size class), growing again in place into slack
// that held data (60 -> 50 -> 64), moving (64 -> 1000), and a large chunk
// resized by mremap (300000 -> 200000 -> 400000).  With both
// flags, zero wins.  The program is told which fill byte to expect.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=junk_fill=1:log_path=%t.prof %run %t junk 2>&1 | FileCheck %s --check-prefixes=CHECK,JUNK
// RUN: %env_heapprof_opts=zero_fill=1:log_path=%t.prof %run %t zero 2>&1 | FileCheck %s --check-prefixes=CHECK,ZERO
// RUN: %env_heapprof_opts=zero_fill=1:junk_fill=1:log_path=%t.prof %run %t zero 2>&1 | FileCheck %s --check-prefixes=CHECK,ZERO
#include "Inputs/count_bytes.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int zero = argc > 1 && !strcmp(argv[1], "zero");
  int fill = zero ? 0 : 0xd0;
  fprintf(stderr, "fill 0x%02x\n", fill);
  // JUNK: fill 0xd0
  // ZERO: fill 0x00

  unsigned char *volatile p = malloc(300);
  memset(p, 'A', 300);
  free(p);
  unsigned char *volatile q = zero ? malloc(300) : calloc(300, 1);
  fprintf(stderr, "reused by %s: %s, %zu of 300 are 0\n",
          zero ? "malloc" : "calloc", q == p ? "same block" : "other block",
          count_bytes(q, 300, 0));
  // JUNK: reused by calloc: same block, 300 of 300 are 0
  // ZERO: reused by malloc: same block, 300 of 300 are 0
  free(q);

  unsigned char *volatile r = malloc(40);
  memset(r, 'C', 40);
  unsigned char *volatile r2 = realloc(r, 60);
  fprintf(stderr, "realloc 60: %s, %zu 'C', %zu fill\n",
          r2 == r ? "in place" : "moved", count_bytes(r2, 40, 'C'),
          count_bytes(r2 + 40, 20, fill));
  // CHECK: realloc 60: in place, 40 'C', 20 fill
  // The block's slack held 'D' before the realloc grew into it again.
  memset(r2, 'D', 60);
  unsigned char *volatile r3 = realloc(r2, 50);
  unsigned char *volatile r4 = realloc(r3, 64);
  fprintf(stderr, "regrow 64: %s, %zu 'D', %zu fill\n",
          r4 == r2 ? "in place" : "moved", count_bytes(r4, 50, 'D'),
          count_bytes(r4 + 50, 14, fill));
  // CHECK: regrow 64: in place, 50 'D', 14 fill
  unsigned char *volatile r5 = realloc(r4, 1000);
  fprintf(stderr, "realloc 1000: %s, %zu 'D', %zu fill\n",
          r5 == r4 ? "in place" : "moved", count_bytes(r5, 50, 'D'),
          count_bytes(r5 + 50, 950, fill));
  // CHECK: realloc 1000: moved, 50 'D', 950 fill
  free(r5);
  // A large chunk shrunk by mremap keeps 'E' in the slack of its last page
  // (200000 bytes end 704 bytes into one); regrown by mremap, that slack
  // and the fresh pages get the fill.
  unsigned char *volatile g = malloc(300000);
  memset(g, 'E', 300000);
  unsigned char *volatile g2 = realloc(g, 200000);
  unsigned char *volatile g3 = realloc(g2, 400000);
  fprintf(stderr, "large regrow 400000: %zu 'E', %zu fill\n",
          count_bytes(g3, 200000, 'E'), count_bytes(g3 + 200000, 200000, fill));
  // CHECK: large regrow 400000: 200000 'E', 200000 fill
  free(g3);
  return 0;
}
