// --allocator=system: an object allocated after the exit dump's fold went
// over its place in the side table, and freed before the dump's last
// write-back of the records, is in the exit profile as allocated and
// freed, as on heapprof's own allocator.  Before, the stripe's flag that
// said "the last fold went over it" made every later free of that stripe
// record nothing, and such an object was in the profile neither as freed
// nor as live.
//
// Deterministic: thread `holder` frees a 1 MiB object (a chunk glibc maps
// by itself) whose header page main made unreadable; the free faults in the
// middle of heapprof's free, after the entry left the table, and the
// SIGSEGV handler waits there.  The exit dump waits for that free before
// its last write-back (hp_thread_flush_hibs_settled, up to a second).  Main
// calls exit() once `holder` waits; `late` lets the dump's fold finish
// (200 ms), then allocates and frees 100 objects of 333 bytes, then lets
// `holder` go.  All 100 are allocated after the fold, in stripes it went
// over, and freed before the write-back:
// 100 objects of 333 bytes, all freed: 33,300 bytes, 0 kept.
//
// The other way round: an object the fold went over, live in the exit
// profile, freed past heapprof's free (glibc's __libc_free) in the same
// window, and its address handed out again (glibc's tcache: same size,
// same thread) through heapprof's malloc, which finds the entry still
// there and records the free it did not see.  That free must record no
// event (the entry's folded bit), as heapprof's own allocator's does for a
// chunk marked HP_CHUNK_LAST: the 555-byte object main kept is in the
// profile once, live (1 allocation, 555 bytes, 0 freed); the new one, made
// after the fold, is in none.  With the free recorded (the folded bit
// not read), the report had the object freed: 1 allocation, 1 freed, 0 B
// kept, where the program still held an object of 555 bytes.
// RUN: %clang_plain -O0 -g -pthread %s -o %t
// RUN: rm -rf %t.dir && env -u LD_PRELOAD heapprof run -o %t.dir --allocator=system -- %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.dir | FileCheck %s
// OUT: late: made 100 of 333 bytes
// OUT-NEXT: late: the kept object's address back
// CHECK: == Allocation bins
// CHECK: {{^ *333 +100 +32.5 KiB +100 +0 B }}
// CHECK: {{^ *555 +1 +555 B +0 +555 B }}
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define LATE 100
static char *volatile big;
static void *volatile kept;
void __libc_free(void *);
static void *volatile objs[LATE];
static int late_ready, go_free, waiting, go_late, released;

static void on_segv(int sig, siginfo_t *si, void *uc) {
  (void)sig;
  (void)uc;
  char *page = (char *)((uintptr_t)big & ~(uintptr_t)4095);
  if ((char *)si->si_addr < page || (char *)si->si_addr >= page + 4096)
    abort();
  __atomic_store_n(&waiting, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&released, __ATOMIC_ACQUIRE))
    sched_yield();
  mprotect(page, 4096, PROT_READ | PROT_WRITE);
}

static void *holder(void *arg) {
  while (!__atomic_load_n(&go_free, __ATOMIC_ACQUIRE))
    sched_yield();
  free(big);
  return arg;
}

static void *late(void *arg) {
  __atomic_store_n(&late_ready, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&go_late, __ATOMIC_ACQUIRE))
    sched_yield();
  struct timespec ts = {0, 200 * 1000 * 1000};
  nanosleep(&ts, NULL);
  int made = 0;
  for (int i = 0; i < LATE; i++, made++)
    objs[i] = malloc(333);
  for (int i = 0; i < LATE; i++)
    free(objs[i]);
  char line[64] = "late: made ";
  size_t n = strlen(line);
  line[n++] = (char)('0' + made / 100);
  line[n++] = (char)('0' + made / 10 % 10);
  line[n++] = (char)('0' + made % 10);
  memcpy(line + n, " of 333 bytes\n", 14);
  write(1, line, n + 14);
  void *was = kept;
  __libc_free(was);
  if (malloc(555) == was)
    write(1, "late: the kept object's address back\n", 37);
  __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
  return arg;
}

int main(void) {
  big = malloc(1 << 20);
  kept = malloc(555);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  pthread_t t1, t2;
  pthread_create(&t1, NULL, holder, NULL);
  pthread_create(&t2, NULL, late, NULL);
  // late's state is registered at its start, under the lock the dump's
  // wait holds: it must have started before.
  while (!__atomic_load_n(&late_ready, __ATOMIC_ACQUIRE))
    sched_yield();
  mprotect((void *)((uintptr_t)big & ~(uintptr_t)4095), 4096, PROT_NONE);
  __atomic_store_n(&go_free, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&waiting, __ATOMIC_ACQUIRE))
    sched_yield();
  __atomic_store_n(&go_late, 1, __ATOMIC_RELEASE);
  exit(0);
}
