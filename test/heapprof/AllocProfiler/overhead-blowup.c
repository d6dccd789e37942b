// Memory blowup at the peak: memory one thread freed that another could
// not reuse.  Thread T allocates 64 chunks of 1000 bytes (the 1280-byte
// class: 1032 bytes need 1024 + 256) and frees them: all 64 stay in T's
// cache (a cache of that class holds 64 blocks), where only T can reuse
// them.  While T waits, main allocates 80 chunks of the same size -- new
// blocks, T's are out of its reach -- and frees one: the snapshot at that
// top (80000 bytes) finds T's 64 freed blocks cached: blowup 64 x 1280 =
// 81920 bytes.  main's own cached blocks are fresh (never used), not
// freed memory.  Run single-threaded (ONE=1: main does both), the same
// blocks are main's to reuse: no blowup.  With T allocating and freeing 96
// (N96=1; main then allocates 120, so that its top, 120000 bytes, is still
// the peak), T's cache drains 32 of them back to its spans on the 65th free
// and keeps the last 64.  T made the region's refills 1-3 (32 blocks each)
// and then waits.  A live thread's spans are its own (thread_spans) until
// it has made none of the region's last 16 refills: main's refills 4-19
// find free blocks only in T's spans and carve 4 new blocks each (64);
// refill 20 takes T's 32 free blocks over; refill 21 finds no free block
// anywhere and carves 32.  At main's top only T's 64 cached blocks are
// out of its reach: blowup 64 x 1280 = 81920 bytes, and the region carved
// 96 + 64 + 32 = 192 blocks (without the takeover main would have carved 4
// at each of 30 refills: 216).  The first run carved 64 + 3 x 32 = 160, and
// both carve the same for the rest (the thread's start allocates in other
// classes), so primary_carved differs by 32 x 1280 = 40960 bytes.
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d %t.one && mkdir -p %t.d %t.one
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: env ONE=1 HEAPPROF_OPTIONS=profile_dir=%t.one %run %t
// RUN: heapprof report --format json %t.d > %t.json
// RUN: heapprof report --format json %t.one > %t.one.json
// RUN: %python %S/Inputs/peak_check.py %t.json site_main=80,80000 site_t=0,0
// RUN: %python -c "import json,sys; o=json.load(open(sys.argv[1]))['peak']['overhead']; assert o['blowup'] == 81920 and o['threads'] == 2, o" %t.json
// RUN: %python -c "import json,sys; o=json.load(open(sys.argv[1]))['peak']['overhead']; assert o['blowup'] == 0 and o['threads'] == 1, o" %t.one.json
// RUN: heapprof report %t.d | FileCheck %s
// RUN: rm -rf %t.96 && mkdir -p %t.96
// RUN: env N96=1 HEAPPROF_OPTIONS=profile_dir=%t.96 %run %t
// RUN: heapprof report --format json %t.96 > %t.96.json
// RUN: %python %S/Inputs/peak_check.py %t.96.json site_main=120,120000 site_t=0,0
// RUN: %python -c "import json,sys; o=json.load(open(sys.argv[1]))['peak']['overhead']; assert o['blowup'] == 81920 and o['threads'] == 2, o" %t.96.json
// RUN: %python -c "import json,sys; c=[json.load(open(f))['peak']['overhead']['raw']['primary_carved'] for f in sys.argv[1:]]; assert c[1] - c[0] == 40960, c" %t.json %t.96.json
// CHECK: memory blowup                  81920 bytes (80.0 KiB)
#include <pthread.h>
#include <stdlib.h>

enum { N = 96, M = 120 };
static int n_t = 64, m_main = 80;
__attribute__((noinline)) static char *site_t(void) { return malloc(1000); }
__attribute__((noinline)) static char *site_main(void) { return malloc(1000); }
static pthread_barrier_t freed, done;

static void t_phase(void) {
  char *volatile p[N];
  for (int i = 0; i < n_t; i++)
    p[i] = site_t();
  for (int i = 0; i < n_t; i++)
    free(p[i]);
}

static void *thread_t(void *arg) {
  t_phase();
  pthread_barrier_wait(&freed);
  pthread_barrier_wait(&done);
  return arg;
}

int main(void) {
  pthread_t t;
  int one = getenv("ONE") != NULL;
  if (getenv("N96")) {
    n_t = 96;
    m_main = 120;
  }
  pthread_barrier_init(&freed, NULL, 2);
  pthread_barrier_init(&done, NULL, 2);
  if (one)
    t_phase();
  else
    pthread_create(&t, NULL, thread_t, NULL);
  if (!one)
    pthread_barrier_wait(&freed);
  char *volatile q[M];
  for (int i = 0; i < m_main; i++)
    q[i] = site_main();
  free(q[0]); // the top
  if (!one) {
    pthread_barrier_wait(&done);
    pthread_join(t, NULL);
  }
  for (int i = 1; i < m_main; i++)
    free(q[i]);
  return 0;
}
