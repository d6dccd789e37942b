// print_terse=1: no header line, one line per context, 16 numeric fields
// (upstream MemProf's terse form plus live-at-dump),
// MIB:id/count/ave size/min size/max size/ave acc/min acc/max acc/ave life/
//     min life/max life/migrated/overlaps/same alloc cpu/same dealloc cpu/
//     live at dump,
// then the stacks as usual.  An average over no objects is 0.00.
// RUN: %clang_rt_heapprof -O0 -fno-builtin %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1 %run %t 2>&1 | FileCheck %s
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char *make48(void) { return malloc(48); }
__attribute__((noinline)) char *make_sized(size_t n) { return malloc(n); }
__attribute__((noinline)) char *make_kept(void) { return malloc(32); }
__attribute__((noinline)) char *make_early(void) { return malloc(24); }

static char *volatile kept[4];
static char *volatile early;

int main(void) {
  // One 24-byte object (3 words) live across the checkpoint, then 3 more
  // words after it.
  early = make_early();
  memset(early, 0, 24);
  __heapprof_dump();
  memset(early, 1, 24);
  // 3 x 48 bytes, memset of 48 = 6 words each.
  for (int i = 0; i < 3; i++) {
    char *p = make48();
    memset(p, 0, 48);
    free(p);
  }
  // 16 and 80 bytes: 2 and 10 words.
  for (size_t n = 16; n <= 80; n += 64) {
    char *p = make_sized(n);
    memset(p, 0, n);
    free(p);
  }
  // 4 x 32 bytes (4 words each), one freed: 3 live when the profile is
  // written at exit.
  for (int i = 0; i < 4; i++) {
    kept[i] = make_kept();
    memset(kept[i], 0, 32);
  }
  free(kept[0]);
  return 0;
}
// The checkpoint: the early object, counted and live.
// CHECK: HeapProf profile: {{.*}}, checkpoint, dump 1,
// CHECK-NOT: Recorded MIBs
// CHECK-NOT: alloc_count
// CHECK: MIB:[[E:[0-9]+]]/1/24.00/24/24/3.00/3/3/{{[0-9]+\.[0-9][0-9]/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+}}/1{{$}}
// CHECK-NOT: MIB:
// CHECK: Stack for id [[E]]:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in make_early {{.*}}print_terse.c
// CHECK: Summary: 1 contexts, 1 allocations, 24 bytes, 3 accesses

// At exit: the early object again with count 0 (the checkpoint counted it):
// its averages are 0.00, its 3 new accesses show in min/max, and it is live.
// CHECK: HeapProf profile: {{.*}}, exit, dump 0,
// CHECK-NOT: alloc_count
// CHECK-DAG: MIB:[[E]]/0/0.00/24/24/0.00/3/3/0.00/{{[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+}}/1{{$}}
// CHECK-DAG: MIB:[[A:[0-9]+]]/3/48.00/48/48/6.00/6/6/{{[0-9]+\.[0-9][0-9]/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+}}/0{{$}}
// CHECK-DAG: MIB:[[B:[0-9]+]]/2/48.00/16/80/6.00/2/10/{{[0-9]+\.[0-9][0-9]/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+}}/0{{$}}
// CHECK-DAG: MIB:[[K:[0-9]+]]/4/32.00/32/32/4.00/4/4/{{[0-9]+\.[0-9][0-9]/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+/[0-9]+}}/3{{$}}
// No line has anything but numbers between its slashes.
// CHECK-NOT: {{^MIB:.*n/a}}
// CHECK-DAG: Stack for id [[A]]:{{[[:space:]]+}}#0 0x{{[0-9a-f]+}} in make48 {{.*}}print_terse.c
// CHECK-DAG: Stack for id [[B]]:{{[[:space:]]+}}#0 0x{{[0-9a-f]+}} in make_sized {{.*}}print_terse.c
// CHECK-DAG: Stack for id [[K]]:{{[[:space:]]+}}#0 0x{{[0-9a-f]+}} in make_kept {{.*}}print_terse.c
// CHECK-DAG: Stack for id [[E]]:{{[[:space:]]+}}#0 0x{{[0-9a-f]+}} in make_early {{.*}}print_terse.c
// CHECK-NOT: alloc_count
// 3*48 + 16 + 80 + 4*32 = 368 bytes; 18 + 12 + 16 + 3 = 49 accesses.
// CHECK: Summary: 4 contexts, 9 allocations, 368 bytes, 49 accesses
