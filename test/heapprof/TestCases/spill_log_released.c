// The spill log's pages go back to the kernel once a dump has taken its
// records. A table of one entry (hib_table_sets=1:hib_table_ways=1) and
// 8192 contexts (16 x 16 x 32 call paths, one object each): all but the
// table's one entry and the thread's 64 cached ones are evicted, at least
// 8192 - 65 = 8127 records of 392 bytes, 3.0 MiB of log. Around a
// checkpoint the resident set then falls by about that much; before, the
// log stayed resident and the dump's own stack added to it (it fell by
// nothing). The test asks for 1 MiB of the 1.5.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d:hib_table_sets=1:hib_table_ways=1:dump_at_exit=0:print_stats=1 %run %t 2>&1 | FileCheck %s
// CHECK: hib_evictions {{ *(81[3-9][0-9]|8[2-9][0-9][0-9]) }}HIB table entries evicted
// CHECK: released: yes
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "Inputs/resident.h"

typedef void (*fn_t)(int);

__attribute__((noinline)) static void leaf(void) {
  void *volatile p = malloc(100);
  free(p);
}

#define L3(k) __attribute__((noinline)) static void l3_##k(int x) { (void)x; leaf(); }
#define L2(j) __attribute__((noinline)) static void l2_##j(int x) { l3[x & 31](x >> 5); }
#define L1(i) __attribute__((noinline)) static void l1_##i(int x) { l2[x & 15](x >> 4); }
#define EACH(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)
#define EACH32(M) EACH(M) M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) M(29) M(30) M(31)
#define NAME3(k) l3_##k,
#define NAME2(j) l2_##j,
#define NAME1(i) l1_##i,

EACH32(L3)
static fn_t l3[32] = {EACH32(NAME3)};
EACH(L2)
static fn_t l2[16] = {EACH(NAME2)};
EACH(L1)
static fn_t l1[16] = {EACH(NAME1)};

int main(void) {
  if (__heapprof_dump() != 0)
    return 1;
  for (int x = 0; x < 8192; x++)
    l1[x & 15](x >> 4);
  long before = resident_kib();
  if (__heapprof_dump() != 0)
    return 1;
  long after = resident_kib();
  fprintf(stderr, "fell by %ld KiB\n", before - after);
  fprintf(stderr, "released: %s\n", before - after >= 2048 ? "yes" : "no");
  return 0;
}
