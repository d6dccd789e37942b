// The HIB table's spill log, grown at a memory limit the program set
// itself: with the address space full, the table's evictions found no
// room for the log, and heapprof aborted the program ("HeapProf: ERROR:
// out-of-memory: cannot map 0x18800 bytes for HIB spill log: the process
// reached the address-space limit ... the program set itself", SIGABRT),
// where natively it exits 0.  Now the records the log has no room for are
// merged into one context without frames (the stack depot's, for the
// same cause), said once, and the program goes on.
//
// The table is one entry (hib_table_sets=1, hib_table_ways=1), so every
// free from a context other than the last evicts.  The program allocates
// 20 blocks of 100 bytes from each of three call stacks (60 objects,
// 6,000 bytes), maps what its 256 MiB limit leaves (halving from 1 GiB to
// a page), frees the 60 blocks in a thread started before (and made
// known to heapprof by an allocation of its own, 1 byte), which then
// exits (its write-back cache of records goes to the table then), and
// unmaps 4 MiB it kept, so the exit profile has room: it is written, with
// the 60 objects and their 6,000 bytes, some of them in the context
// without frames.
// RUN: %clang_plain -O0 %s -o %t -lpthread
// RUN: %t as | FileCheck %s
// RUN: rm -rf %t.a && env HEAPPROF_OPTIONS=hib_table_sets=1:hib_table_ways=1 heapprof run -o %t.a -- %t as 2> %t.aerr | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN-AS < %t.aerr
// RUN: heapprof report %t.a | FileCheck %s --check-prefix=REPORT
// RUN: rm -rf %t.d && env HEAPPROF_OPTIONS=hib_table_sets=1:hib_table_ways=1 heapprof run -o %t.d -- %t data 2> %t.derr | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN-DATA < %t.derr
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=REPORT
// CHECK: filled
// CHECK-NEXT: freed
// CHECK-NEXT: done
// WARN-AS: HeapProf: WARNING: cannot map memory for the HIB spill log (the process reached the address-space limit (ulimit -v, RLIMIT_AS) the program set itself, 268435456 bytes (heapprof adds its reservations to it; its other memory counts)): records evicted from the HIB table are merged into one context without frames until it can
// WARN-AS-NOT: HeapProf
// WARN-DATA: HeapProf: WARNING: cannot map memory for the HIB spill log (the process reached the data-size limit (ulimit -d, RLIMIT_DATA) the program set itself, 268435456 bytes (heapprof adds its reservations to it; its other memory counts)): records evicted from the HIB table are merged into one context without frames until it can
// WARN-DATA-NOT: HeapProf
// The 60 blocks of 100 bytes, all freed (the size bins; the summary adds
// the 288 bytes of glibc's pthread_create, its thread's DTV, and the
// thread's byte), and those
// the log had no room for are in the context without frames.
// REPORT: Top contexts by bytes
// REPORT: {{^#[0-9]+ .* in [0-9]+ objects \(100 B each\), 0 live}}
// REPORT-NEXT: [no frames: called from outside the program's code, or no memory to record them]
// REPORT: Allocation bins
// REPORT: {{^ *100 +60 +6000 B +60 +0 B}}
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "Inputs/own_limit.h"

static void *volatile keep[60];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static sem_t ready;

static void *freer(void *arg) {
  /* The thread's heapprof state is made at its first allocation: before
   * the address space is full (else it shares one, said in a warning). */
  free(malloc(1));
  sem_post(&ready);
  pthread_mutex_lock(&mu); /* until the address space is full */
  for (int i = 0; i < 60; i++)
    free(keep[i]);
  pthread_mutex_unlock(&mu);
  return arg;
}
__attribute__((noinline)) static void *a(void) { return malloc(100); }
__attribute__((noinline)) static void *b(void) { return malloc(100); }
__attribute__((noinline)) static void *c(void) { return malloc(100); }

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0); /* no buffer: no malloc but ours */
  set_own_limit(argc, argv);
  for (int i = 0; i < 20; i++) {
    keep[3 * i] = a();
    keep[3 * i + 1] = b();
    keep[3 * i + 2] = c();
  }
  pthread_mutex_lock(&mu);
  pthread_t t;
  sem_init(&ready, 0, 0);
  pthread_create(&t, NULL, freer, NULL);
  sem_wait(&ready);
  void *room = mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  /* Private writable mappings count against both limits; never touched,
   * MAP_NORESERVE: address space, no memory. */
  for (size_t s = 1ull << 30; s >= 4096;)
    if (mmap(NULL, s, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
             0) == MAP_FAILED)
      s /= 2;
  printf("filled\n");
  pthread_mutex_unlock(&mu);
  pthread_join(t, NULL);
  printf("freed\n");
  munmap(room, 4 << 20);
  printf("done\n");
  return 0;
}
