// __heapprof_dump() checkpoints: an object live across dumps is counted
// (alloc_count, size) by the first dump that sees it and is only a
// continuation afterwards (its new accesses), so the dumps add up to the run
// with nothing counted twice.  Checkpoints are <dir>/heapprof.<exe>.<pid>.<seq>.txt,
// the exit profile <dir>/heapprof.<exe>.<pid>.txt.
// RUN: %clang_rt_heapprof -O0 -fno-builtin %s -o %t
// RUN: rm -rf %t.dir
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.dir/sub %run %t
// RUN: ls %t.dir/sub | FileCheck %s --check-prefix=FILES
// RUN: cat %t.dir/sub/heapprof.dump_checkpoint.c.tmp.*.1.txt | FileCheck %s --check-prefix=DUMP1
// RUN: cat %t.dir/sub/heapprof.dump_checkpoint.c.tmp.*.2.txt | FileCheck %s --check-prefix=DUMP2
// RUN: rm %t.dir/sub/heapprof.dump_checkpoint.c.tmp.*.1.txt %t.dir/sub/heapprof.dump_checkpoint.c.tmp.*.2.txt
// RUN: cat %t.dir/sub/heapprof.dump_checkpoint.c.tmp.*.txt | FileCheck %s --check-prefix=EXIT
//
// With log_path the names are <log_path>.<pid>.<seq>.txt and <log_path>.<pid>.txt.
// RUN: rm -rf %t.logdir && mkdir %t.logdir
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:log_path=%t.logdir/prof %run %t
// RUN: ls %t.logdir | FileCheck %s --check-prefix=LOGFILES
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char *keep(void) { return malloc(100); }
__attribute__((noinline)) char *temp(void) { return malloc(50); }
__attribute__((noinline)) char *late(void) { return malloc(30); }

int main(void) {
  char *volatile p = keep();
  memset(p, 1, 100); // 13 words
  char *volatile t = temp();
  free(t);
  if (__heapprof_dump() != 0)
    return 1;
  memset(p, 2, 16); // 2 words, after dump 1
  if (__heapprof_dump() != 0)
    return 1;
  memset(p, 3, 8); // 1 word, after dump 2
  free(p);
  char *volatile l = late();
  (void)l;
  return 0;
}
// FILES: heapprof.dump_checkpoint.c.tmp.[[PID:[0-9]+]].1.txt
// FILES-NEXT: heapprof.dump_checkpoint.c.tmp.[[PID]].2.txt
// FILES-NEXT: heapprof.dump_checkpoint.c.tmp.[[PID]].txt
// FILES-NOT: {{.}}

// LOGFILES: prof.[[PID:[0-9]+]].1.txt{{$}}
// LOGFILES-NEXT: prof.[[PID]].2.txt{{$}}
// LOGFILES-NEXT: prof.[[PID]].txt{{$}}
// LOGFILES-NOT: {{.}}

// DUMP1: HeapProf profile: {{.*}}dump_checkpoint.c.tmp pid {{[0-9]+}}, checkpoint, dump 1,
// DUMP1: Memory allocation stack id = [[KEEP:[0-9]+]]
// DUMP1-NEXT: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
// DUMP1-NEXT: access_count (ave/min/max): 13.00 / 13 / 13
// DUMP1: live at dump: 1, continued from earlier dumps: 0
// DUMP1: Memory allocation stack id = [[TEMP:[0-9]+]]
// DUMP1-NEXT: alloc_count 1, size (ave/min/max) 50.00 / 50 / 50
// DUMP1: live at dump: 0, continued from earlier dumps: 0
// DUMP1: Stack for id [[KEEP]]:
// DUMP1-NEXT: in keep
// DUMP1: Stack for id [[TEMP]]:
// DUMP1-NEXT: in temp
// DUMP1: Summary: 2 contexts, 2 allocations, 150 bytes, 13 accesses

// Only the continuation of the live object; temp was reported already.
// DUMP2: HeapProf profile: {{.*}} checkpoint, dump 2,
// DUMP2: Memory allocation stack id = [[KEEP:[0-9]+]]
// DUMP2-NEXT: alloc_count 0, size
// DUMP2: live at dump: 1, continued from earlier dumps: 1
// DUMP2-NOT: Memory allocation stack id
// DUMP2: Stack for id [[KEEP]]:
// DUMP2-NEXT: in keep
// DUMP2: Summary: 1 contexts, 0 allocations, 0 bytes, 2 accesses

// EXIT: HeapProf profile: {{.*}} exit, dump 0,
// EXIT: Memory allocation stack id = [[KEEP:[0-9]+]]
// EXIT-NEXT: alloc_count 0, size
// EXIT: live at dump: 0, continued from earlier dumps: 1
// EXIT: Memory allocation stack id = [[LATE:[0-9]+]]
// EXIT-NEXT: alloc_count 1, size (ave/min/max) 30.00 / 30 / 30
// EXIT: live at dump: 1, continued from earlier dumps: 0
// EXIT: Stack for id [[KEEP]]:
// EXIT-NEXT: in keep
// EXIT: Stack for id [[LATE]]:
// EXIT-NEXT: in late
// EXIT: Summary: 2 contexts, 1 allocations, 30 bytes, 1 accesses
