// A write past the end of a chunk that reaches the header of the chunk
// above it: freeing (or reallocating) that chunk is reported as a corrupt
// header, with the chunk below named as the likely cause and its
// allocation stack, instead of "not allocated by heapprof".  Two 40-byte
// chunks in one size class (96-byte blocks: 32 of header, 40 of user, 24
// of slack, so the lower chunk ends 24 bytes before the upper chunk's
// header); memset writes 40 + 24 + 8 bytes from the lower one, so the
// upper header's first 8 bytes become 0x41.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=print_raw=0 not %run %t free 2>&1 | FileCheck %s -DOP=free
// RUN: %env_heapprof_opts=print_raw=0 not %run %t realloc 2>&1 | FileCheck %s -DOP=realloc
// CHECK: HeapProf: ERROR: corrupt-chunk-header on address 0x{{[0-9a-f]+}} (pc 0x{{[0-9a-f]+}}, [[OP]]): the 32 bytes before it, the chunk's header, were overwritten (state byte 0x41, neither allocated nor freed); the chunk is left alone
// CHECK-NEXT: #0 {{.*}} in main {{.*}}corrupt_header.c:{{37|39}}:
// CHECK-NEXT: The chunk below it, 40 bytes at 0x{{[0-9a-f]+}}, ends 24 bytes before the header: a write past its end is the likely cause. It was allocated at:
// CHECK-NEXT: #0 {{.*}} in main {{.*}}corrupt_header.c:28:
// CHECK: HeapProf: ABORTING
// With halt_on_error=0 the program goes on, the upper chunk left alone.
// RUN: %env_heapprof_opts=print_raw=0:halt_on_error=0 %run %t free 2>&1 | FileCheck %s --check-prefix=GOON
// GOON: corrupt-chunk-header
// GOON: went on
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  char *x = malloc(40), *y = malloc(40);
  char *lower = x < y ? x : y, *upper = x < y ? y : x;
  if (upper - lower != 96) {
    fprintf(stderr, "not neighbours: %ld apart\n", (long)(upper - lower));
    return 3;
  }
  char *volatile w = lower; /* the overflow, 8 bytes into the header */
  memset(w, 0x41, 40 + 24 + 8);
  if (!strcmp(argv[1], "realloc"))
    upper = realloc(upper, 100);
  else
    free(upper);
  fprintf(stderr, "went on\n");
  return 0;
}
