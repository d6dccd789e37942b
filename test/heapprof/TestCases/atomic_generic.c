// libatomic's generic entry points (__atomic_load, __atomic_store,
// __atomic_exchange, __atomic_compare_exchange), which the runtime defines
// (heapprof_atomic.c): what each operation does, that it stays atomic
// against other threads, and that each counts one access of its object by
// the range rule (a word each 8 bytes it touches).  The program links
// without -latomic: the runtime's definitions serve.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O2 -g -Wno-atomic-alignment -Wno-address-of-packed-member %s -o %t -lpthread
// RUN: rm -rf %t.d && mkdir -p %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.d > %t.json
// RUN: %python %S/../Run/Inputs/site-accesses.py %t.json site_lockfree site_locked | FileCheck %s
// The same program on libatomic itself does the same:
// RUN: %clang_plain -O2 -g -Wno-atomic-alignment -Wno-address-of-packed-member %s -o %t-plain -lpthread -latomic
// RUN: %t-plain | FileCheck %s --check-prefix=OUT
//
// site_lockfree: 5 operations on objects of 1, 2, 4 and 8 bytes (a word
// each) and of 16 bytes (2 words) at byte 16 of a block: 5 * 4 + 5 * 2.
// CHECK: site_lockfree allocs=1 bytes=256 frees=1 accesses=30
// site_locked: 5 operations on a 24-byte object at byte 3 (bytes 3-26:
// words 0-3): 5 * 4.
// CHECK: site_locked allocs=1 bytes=256 frees=1 accesses=20
// site_torn: 100000 stores and 100000 loads of a 24-byte _Atomic
// structure from two threads, none of them torn (their counts are not
// checked: two threads' updates of one counter can lose one,
// docs/compiler.md).
// site_counter: fetch_add on a packed member across a 16-byte boundary,
// from two threads: a loop of compare-exchanges (their number depends on
// the race), under the runtime's lock; none of the 100000 is lost.
// OUT: lockfree ok
// OUT: locked ok
// OUT: torn 0 of 100000
// OUT: counter 100000
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gen_load(size_t n, void *obj, void *ret, int order) __asm__("__atomic_load");
void gen_store(size_t n, void *obj, void *val, int order) __asm__("__atomic_store");
void gen_exchange(size_t n, void *obj, void *val, void *ret, int order) __asm__("__atomic_exchange");
bool gen_cas(size_t n, void *obj, void *expected, void *desired, int success,
             int failure) __asm__("__atomic_compare_exchange");

#define SITE(name, size)                                                       \
  __attribute__((noinline)) static void *name(void) { return calloc(1, size); }
SITE(site_lockfree, 256)
SITE(site_locked, 256)
SITE(site_torn, 24)
SITE(site_counter, 64)

static int failed;
#define EXPECT(c)                                                              \
  do {                                                                         \
    if (!(c)) {                                                                \
      printf("failed: %s (line %d)\n", #c, __LINE__);                          \
      failed = 1;                                                              \
    }                                                                          \
  } while (0)

// Store, load, exchange, a compare-exchange that fails and one that
// succeeds, on the n bytes at obj; every check reads the caller's buffers
// (on the stack), never obj itself, so that only the 5 operations count.
static void five(size_t n, char *obj, bool alias) {
  unsigned char a[32], b[32], c[32], d[32];
  for (size_t i = 0; i < n; i++) {
    a[i] = (unsigned char)(i + 1);
    b[i] = (unsigned char)(0x80 + i);
  }
  gen_store(n, obj, a, __ATOMIC_SEQ_CST);
  gen_load(n, obj, c, __ATOMIC_SEQ_CST);
  EXPECT(!memcmp(c, a, n));
  if (alias) { // the value in and the old value out in one buffer
    memcpy(d, b, n);
    gen_exchange(n, obj, d, d, __ATOMIC_SEQ_CST);
    EXPECT(!memcmp(d, a, n));
  } else {
    gen_exchange(n, obj, b, d, __ATOMIC_SEQ_CST);
    EXPECT(!memcmp(d, a, n));
  }
  // obj holds b: expecting a fails and gives b.
  memcpy(c, a, n);
  EXPECT(!gen_cas(n, obj, c, a, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
  EXPECT(!memcmp(c, b, n));
  // Expecting b succeeds: obj holds a, and c is unchanged.
  EXPECT(gen_cas(n, obj, c, a, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
  EXPECT(!memcmp(c, b, n));
}

struct big {
  long a, b, c;
};
static _Atomic struct big *torn_obj;
enum { N = 100000 };

static void *writer(void *arg) {
  for (long i = 1; i <= N; i++) {
    struct big v = {i, i, i};
    __c11_atomic_store(torn_obj, v, __ATOMIC_SEQ_CST);
  }
  return 0;
}

struct __attribute__((packed)) pk {
  char pad[13];
  long v; // bytes 13-20: across the boundary at 16
};
static struct pk *counter_obj;

static void *adder(void *arg) {
  for (int i = 0; i < N / 2; i++)
    __atomic_fetch_add(&counter_obj->v, 1, __ATOMIC_SEQ_CST);
  return 0;
}

int main(void) {
  char *lf = site_lockfree();
  for (size_t n = 1; n <= 16; n *= 2)
    five(n, lf + 16, false);
  free(lf);
  puts(failed ? "lockfree FAILED" : "lockfree ok");

  failed = 0;
  char *lk = site_locked();
  five(24, lk + 3, true);
  free(lk);
  puts(failed ? "locked FAILED" : "locked ok");

  torn_obj = site_torn();
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  long torn = 0;
  for (int i = 0; i < N; i++) {
    struct big v = __c11_atomic_load(torn_obj, __ATOMIC_SEQ_CST);
    torn += v.a != v.b || v.b != v.c;
  }
  pthread_join(t, 0);
  free((void *)torn_obj);
  printf("torn %ld of %d\n", torn, N);

  counter_obj = site_counter();
  pthread_t u[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&u[i], 0, adder, 0);
  for (int i = 0; i < 2; i++)
    pthread_join(u[i], 0);
  long total = __atomic_load_n(&counter_obj->v, __ATOMIC_SEQ_CST);
  free(counter_obj);
  printf("counter %ld\n", total);
  return 0;
}
