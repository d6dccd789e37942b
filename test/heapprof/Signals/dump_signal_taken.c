// A program that sets its own action for the dump signal takes it over (as
// Redis does with SIGUSR2): its handler runs as it would without heapprof,
// the signal writes no checkpoint, and heapprof says so once, when it
// happens, whether through sigaction or signal.  Restoring the action it
// saved makes the signal heapprof's again.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.dir && %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir:dump_signal=SIGUSR2 %run %t sigaction 2>&1 | FileCheck %s
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// RUN: rm -rf %t.dir && %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir:dump_signal=SIGUSR2 %run %t signal 2>&1 | FileCheck %s
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// A real-time dump signal is named by its number.
// RUN: rm -rf %t.dir && %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir:dump_signal=SIGRTMIN+3 %run %t rt end 2>&1 | FileCheck %s --check-prefix=RT
// Without dump_signal, the program's SIGUSR2 is none of heapprof's business.
// RUN: rm -rf %t.dir && %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir %run %t sigaction end 2>&1 | FileCheck %s --check-prefix=NONE
//
// CHECK: HeapProf: WARNING: dump_signal: the program set its own action for SIGUSR2, which replaces heapprof's: from now on that signal does what the program says and writes no checkpoint (choose a signal the program leaves alone, e.g. dump_signal=SIGRTMIN+3)
// CHECK-NOT: WARNING
// CHECK: the program's handler ran 2 times
// CHECK-NEXT: checkpoints while taken: 0
// CHECK-NEXT: checkpoints after restoring: 1
// The two signals the program handled wrote nothing: one checkpoint.
// FILES: heapprof.{{.*}}.1.txt
// FILES-NEXT: heapprof.{{.*}}.txt
// FILES-NOT: .2.txt
// RT: HeapProf: WARNING: dump_signal: the program set its own action for a real-time signal {{[0-9]+}}, which replaces heapprof's
// NONE-NOT: WARNING
// NONE: the program's handler ran 2 times
#include "Inputs/profiles.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t handled;
static void own(int sig) {
  (void)sig;
  handled++;
}

int main(int argc, char **argv) {
  int sig = !strcmp(argv[1], "rt") ? SIGRTMIN + 3 : SIGUSR2;
  char *volatile p = malloc(100);
  p[0] = 1;
  struct sigaction saved, sa;
  sigaction(sig, NULL, &saved);
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = own;
  for (int i = 0; i < 2; i++) { // the second time says nothing
    if (!strcmp(argv[1], "signal"))
      signal(sig, own);
    else
      sigaction(sig, &sa, NULL);
    raise(sig);
  }
  fprintf(stderr, "the program's handler ran %d times\n", (int)handled);
  fprintf(stderr, "checkpoints while taken: %d\n", finished_profiles(".1.txt"));
  if (argc > 2) // no restoring: "rt" and "none"
    return 0;
  sigaction(sig, &saved, NULL); // heapprof's handler again
  raise(sig);
  fprintf(stderr, "checkpoints after restoring: %d\n",
          wait_for_profiles(".1.txt", 1));
  free(p);
  return 0;
}
