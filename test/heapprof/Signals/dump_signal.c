// dump_signal=SIGUSR2: each signal writes a checkpoint (seq 1, 2, ...) from
// heapprof's dump thread; the exit profile follows.
// RUN: rm -rf %t.dir && %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=print_raw=0:profile_dir=%t.dir:dump_signal=SIGUSR2:print_text=1 %run %t
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// FILES: heapprof.{{.*}}.[[PID:[0-9]+]].1.txt
// FILES-NEXT: heapprof.{{.*}}.[[PID]].2.txt
// FILES-NEXT: heapprof.{{.*}}.[[PID]].txt
// The object is live at the first checkpoint (counted there), a
// continuation at the second, freed before exit (a continuation again).
// RUN: mv %t.dir/*.1.txt %t.one && mv %t.dir/*.2.txt %t.two
// RUN: FileCheck %s --check-prefix=ONE < %t.one
// ONE: HeapProf profile: {{.*}} checkpoint, dump 1
// ONE: alloc_count 1, size (ave/min/max) 48.00 / 48 / 48
// ONE-NEXT: access_count (ave/min/max): 3.00 / 3 / 3
// ONE: live at dump: 1, continued from earlier dumps: 0
// RUN: FileCheck %s --check-prefix=TWO < %t.two
// TWO: checkpoint, dump 2
// TWO: alloc_count 0, size (ave/min/max) n/a / 48 / 48
// TWO-NEXT: access_count (ave/min/max): n/a / 1 / 1
// TWO: live at dump: 1, continued from earlier dumps: 1
// Only the 5 stores after the second checkpoint count at exit.
// RUN: cat %t.dir/*.txt | FileCheck %s --check-prefix=EXIT
// EXIT: exit, dump 0
// EXIT: alloc_count 0, size (ave/min/max) n/a / 48 / 48
// EXIT-NEXT: access_count (ave/min/max): n/a / 5 / 5
// EXIT: live at dump: 0, continued from earlier dumps: 1
// Invalid values name the option.
// RUN: %env_heapprof_opts=dump_signal=SIGNOPE not %run %t 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: HeapProf: ERROR: invalid value 'SIGNOPE' for option 'dump_signal'
#include "Inputs/profiles.h"
#include <signal.h>
#include <stdlib.h>

int main(void) {
  char *volatile p = malloc(48);
  p[0] = 1; p[8] = 2; p[16] = 3;            // 3 stores
  raise(SIGUSR2);
  wait_for_profiles(".txt", 1); // the dump thread's checkpoint
  p[0] = 4;                                 // 1 store
  raise(SIGUSR2);
  wait_for_profiles(".txt", 2);
  for (int i = 0; i < 5; i++) p[i * 8] = 5; // 5 stores
  free(p);
  return 0;
}
