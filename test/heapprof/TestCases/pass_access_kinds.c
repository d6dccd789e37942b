// What one access is, for the kinds of access docs/compiler.md ("What is
// counted") lists: each kernel makes the accesses its comment says to a
// 256-byte object of its own (zeroed by calloc, which counts nothing), and
// the object's count is the number of them.  Loads, stores, atomicrmw and
// cmpxchg count 1 whatever their width (a 32-byte vector, an __int128, a
// long double) or kind (atomic, volatile); a bit-field assignment is a load
// and a store of its storage unit, and clang at -O0 loads it once more for
// "++"; an atomic operation no instruction can do -- on a 24-byte object,
// or on a member of a packed structure -- is a call to libatomic's generic
// functions, which the runtime defines and counts once by the range rule
// (a word each 8 bytes it touches), not also by what it copies, nor by the
// instruction the code generator made the call of; a structure assignment
// is a memcpy, counted by the same rule; an unaligned load or store counts 1, in the
// granule of its first byte even when it straddles two.
// REQUIRES: heapprof-driver
// DEFINE: %{sites} = site_vector site_int128 site_long_double site_c11 site_sync site_volatile site_bitfield_set site_bitfield_inc site_atomic24 site_misaligned site_copy_from site_copy_to site_straddle
// RUN: %clang_heapprof -O0 -g -Wno-atomic-alignment -Wno-address-of-packed-member %s -o %t0 -latomic
// RUN: rm -rf %t0.d && mkdir -p %t0.d && %env_heapprof_opts=profile_dir=%t0.d %run %t0 | FileCheck %s --check-prefix=GRANULES
// RUN: heapprof report --top 0 --format json %t0.d > %t0.json
// RUN: %python %S/../Run/Inputs/site-accesses.py %t0.json %{sites} | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clang_heapprof -O2 -g -Wno-atomic-alignment -Wno-address-of-packed-member %s -o %t2 -latomic
// RUN: rm -rf %t2.d && mkdir -p %t2.d && %env_heapprof_opts=profile_dir=%t2.d %run %t2 | FileCheck %s --check-prefix=GRANULES
// RUN: heapprof report --top 0 --format json %t2.d > %t2.json
// RUN: %python %S/../Run/Inputs/site-accesses.py %t2.json %{sites} | FileCheck %s --check-prefixes=CHECK,O2
// CHECK: site_vector allocs=1 bytes=256 frees=1 accesses=2
// CHECK: site_int128 allocs=1 bytes=256 frees=1 accesses=2
// CHECK: site_long_double allocs=1 bytes=256 frees=1 accesses=2
// CHECK: site_c11 allocs=1 bytes=256 frees=1 accesses=5
// CHECK: site_sync allocs=1 bytes=256 frees=1 accesses=4
// CHECK: site_volatile allocs=1 bytes=256 frees=1 accesses=4
// CHECK: site_bitfield_set allocs=1 bytes=256 frees=1 accesses=2
// O0:    site_bitfield_inc allocs=1 bytes=256 frees=1 accesses=3
// O2:    site_bitfield_inc allocs=1 bytes=256 frees=1 accesses=2
// CHECK: site_atomic24 allocs=1 bytes=256 frees=1 accesses=9
// CHECK: site_misaligned allocs=1 bytes=256 frees=1 accesses=6
// CHECK: site_copy_from allocs=1 bytes=256 frees=1 accesses=3
// CHECK: site_copy_to allocs=1 bytes=256 frees=1 accesses=3
// CHECK: site_straddle allocs=1 bytes=256 frees=1 accesses=2
// The straddling load (bytes 60..67 of a granule) and store (62..69) both
// count in the first granule:
// GRANULES: straddle: 2 0
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/shadow_counters.h"

#define SITE(name)                                                             \
  __attribute__((noinline)) static void *name(void) { return calloc(1, 256); }
SITE(site_vector)
SITE(site_int128)
SITE(site_long_double)
SITE(site_c11)
SITE(site_sync)
SITE(site_volatile)
SITE(site_bitfield_set)
SITE(site_bitfield_inc)
SITE(site_atomic24)
SITE(site_misaligned)
SITE(site_copy_from)
SITE(site_copy_to)
SITE(site_straddle)

#define KERNEL __attribute__((noinline)) static long
typedef int v8 __attribute__((vector_size(32)));
typedef long unaligned_long __attribute__((aligned(1)));
struct bits {
  unsigned a : 3, b : 5, c : 7;
};
struct big {
  long a, b, c;
};

// A 32-byte load and store: 2.
KERNEL vector(v8 *v) {
  v[1] = v[0] + 1;
  return 0;
}
// 16-byte loads and stores: 2 each.
KERNEL int128(__int128 *q) {
  q[1] = q[0] + 1;
  return 0;
}
KERNEL long_double(long double *l) {
  l[1] = l[0] * 2;
  return 0;
}
// atomicrmw, atomic store, atomic load, atomicrmw xchg, cmpxchg: 5.
KERNEL c11(_Atomic int *a) {
  atomic_fetch_add(a, 1);
  atomic_store(a + 1, 2);
  int x = atomic_load(a + 2);
  x += atomic_exchange(a + 3, 4);
  int expected = 0;
  atomic_compare_exchange_strong(a + 4, &expected, 1);
  return x;
}
// Two atomicrmw, a cmpxchg, an atomicrmw xchg: 4.
KERNEL sync(int *s) {
  __sync_fetch_and_add(s, 1);
  __sync_or_and_fetch(s + 1, 2);
  return __sync_val_compare_and_swap(s + 2, 0, 3) +
         __sync_lock_test_and_set(s + 3, 1);
}
// Two volatile stores and two volatile loads: 4.
KERNEL volatile_(volatile int *v) {
  v[0] = 1;
  v[0] = 2;
  return v[0] + v[0];
}
// Load the storage unit, set the bits, store it: 2.
KERNEL bitfield_set(struct bits *b) {
  b->b = 9;
  return 0;
}
// -O0: load for the value, load and store for the assignment: 3; -O2: 2.
KERNEL bitfield_inc(struct bits *b) {
  b->c++;
  return 0;
}
// __atomic_store, __atomic_load, __atomic_exchange of 24 bytes: one access
// of 3 words each (libatomic would have copied the object once for each of
// the first two and twice for the exchange: 12).
KERNEL atomic24(_Atomic struct big *p) {
  struct big v = {1, 2, 3};
  atomic_store(p, v);
  v = atomic_load(p);
  v = atomic_exchange(p, v);
  return v.b;
}
// A packed structure at byte 10: v is bytes 11-18 (words 1 and 2), w bytes
// 19-22 (word 2).  Atomic load of v: 2; store of w: 1; fetch_add of v: a
// loop of generic compare-exchanges, which runs once here, after a plain
// load the code generator adds: 2; compare-exchange of w: 1.  6 (before,
// each counted 1 as an instruction, and v's operations, which cross a
// 16-byte boundary and so took libatomic's lock, 2 words more for each
// memcpy and memcmp: 10).
struct __attribute__((packed)) pk {
  char c;
  long v;
  int w;
};
KERNEL misaligned(char *o) {
  struct pk *p = (struct pk *)(o + 10);
  long x = __atomic_load_n(&p->v, __ATOMIC_SEQ_CST);
  __atomic_store_n(&p->w, 5, __ATOMIC_SEQ_CST);
  x += __atomic_fetch_add(&p->v, 3, __ATOMIC_SEQ_CST);
  int e = 5;
  x += __atomic_compare_exchange_n(&p->w, &e, 7, 0, __ATOMIC_SEQ_CST,
                                   __ATOMIC_SEQ_CST);
  return x;
}
// A 24-byte structure assignment: a memcpy, 3 words read and 3 written.
__attribute__((noinline)) static void copy(struct big *to, struct big *from) {
  *to = *from;
}
// An 8-byte load at byte 60 of a granule and a store at byte 62: 2.
KERNEL straddle(char *u) {
  char *g = (char *)(((uintptr_t)u + 63) & ~(uintptr_t)63);
  *(unaligned_long *)(g + 62) = *(unaligned_long *)(g + 60) + 1;
  return 0;
}

NOINST static void show_straddle(char *u) {
  uintptr_t g = ((uintptr_t)u + 63) & ~(uintptr_t)63;
  printf("straddle: %lu %lu\n", (unsigned long)*counter(g),
         (unsigned long)*counter(g + 64));
}

#define RUN(site, kernel)                                                      \
  do {                                                                         \
    void *volatile p = site();                                                 \
    x += kernel(p);                                                            \
    free(p);                                                                   \
  } while (0)

int main(void) {
  long x = 0;
  RUN(site_vector, vector);
  RUN(site_int128, int128);
  RUN(site_long_double, long_double);
  RUN(site_c11, c11);
  RUN(site_sync, sync);
  RUN(site_volatile, volatile_);
  RUN(site_bitfield_set, bitfield_set);
  RUN(site_bitfield_inc, bitfield_inc);
  RUN(site_atomic24, atomic24);
  RUN(site_misaligned, misaligned);
  struct big *volatile from = site_copy_from(), *volatile to = site_copy_to();
  copy(to, from);
  free(from);
  free(to);
  char *volatile u = site_straddle();
  straddle(u);
  show_straddle(u);
  free(u);
  printf("%ld\n", x);
  return 0;
}
