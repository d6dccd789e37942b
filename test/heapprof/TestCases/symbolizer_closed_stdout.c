// A program run with its stdout closed (>&-): heapprof's symbolizer
// socket, made at the first checkpoint, took descriptor 1, the lowest free
// one.  The program's later write(1, ...) then went to llvm-symbolizer and
// succeeded, where without heapprof it fails with EBADF; the symbolizer's
// answers to those lines spoiled the next batch, and the second
// checkpoint's stack came out as bare addresses.  The socket now never
// takes 0, 1 or 2.
// RUN: rm -rf %t.dir && %clang_rt_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir sh -c '%run %t 2>&1 >&-' | FileCheck %s
// CHECK: write to the closed stdout: -1 EBADF
// RUN: cat %t.dir/*.1.txt | FileCheck %s --check-prefix=ONE
// ONE: Stack for id
// ONE-NEXT: in first_site {{.*}}symbolizer_closed_stdout.c
// RUN: cat %t.dir/*.2.txt | FileCheck %s --check-prefix=TWO
// TWO: checkpoint, dump 2
// TWO: Stack for id
// TWO-NEXT: in second_site {{.*}}symbolizer_closed_stdout.c
#include <errno.h>
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static char *first_site(void) { return malloc(40); }
__attribute__((noinline)) static char *second_site(void) { return malloc(80); }

int main(void) {
  char *volatile p = first_site();
  p[0] = 1;
  free(p);
  __heapprof_dump(); /* starts the symbolizer */
  static const char lines[] = "0x1234\nsome output of the program\n";
  errno = 0;
  ssize_t r = write(1, lines, sizeof(lines) - 1);
  fprintf(stderr, "write to the closed stdout: %zd %s\n", r,
          errno == EBADF ? "EBADF" : "no error");
  p = second_site();
  p[0] = 1;
  free(p);
  __heapprof_dump();
  return 0;
}
