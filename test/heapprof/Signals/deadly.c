// handle_segv / handle_abort (both on by default): the profile is written,
// then the signal takes its previous action, so the exit status is the
// signal's.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d1 && %env_heapprof_opts=print_raw=0:profile_dir=%t.d1:print_text=1 not --crash %run %t segv 2>&1 | FileCheck %s --check-prefix=SEGV
// SEGV: HeapProf: caught SIGSEGV; writing the profile before the program dies
// RUN: cat %t.d1/*.txt | FileCheck %s --check-prefix=PROF-SEGV
// PROF-SEGV: HeapProf profile: {{.*}}, SIGSEGV, dump 0
// PROF-SEGV: alloc_count 1, size (ave/min/max) 77.00 / 77 / 77
// PROF-SEGV: live at dump: 1
// RUN: rm -rf %t.d2 && %env_heapprof_opts=print_raw=0:profile_dir=%t.d2:print_text=1 not --crash %run %t abort 2>&1 | FileCheck %s --check-prefix=ABRT
// ABRT: HeapProf: caught SIGABRT; writing the profile before the program dies
// RUN: cat %t.d2/*.txt | FileCheck %s --check-prefix=PROF-ABRT
// PROF-ABRT: HeapProf profile: {{.*}}, SIGABRT, dump 0
// PROF-ABRT: alloc_count 1, size (ave/min/max) 77.00 / 77 / 77
// Turned off: no message, no profile, still the same death.
// RUN: rm -rf %t.d3 && %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d3:handle_segv=0:handle_abort=0 not --crash %run %t segv 2>&1 | FileCheck %s --check-prefix=OFF --allow-empty
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d3:handle_segv=0:handle_abort=0 not --crash %run %t abort 2>&1 | FileCheck %s --check-prefix=OFF --allow-empty
// OFF-NOT: HeapProf
// RUN: not ls %t.d3
// A program's own handler still runs (after heapprof's dump).
// RUN: rm -rf %t.d4 && %env_heapprof_opts=print_raw=0:profile_dir=%t.d4:print_text=1 %run %t own 2>&1 | FileCheck %s --check-prefix=OWN
// OWN: own handler ran
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void own(int sig) {
  (void)sig;
  printf("own handler ran\n");
  fflush(stdout);
  _exit(0);
}

int main(int argc, char **argv) {
  char *volatile p = malloc(77);
  p[0] = 1;
  if (!strcmp(argv[1], "segv"))
    *(volatile int *)8 = 1;
  if (!strcmp(argv[1], "abort"))
    abort();
  if (!strcmp(argv[1], "own")) {
    signal(SIGSEGV, own); // replaces heapprof's handler: the program decides
    *(volatile int *)8 = 1;
  }
  return 0;
}
