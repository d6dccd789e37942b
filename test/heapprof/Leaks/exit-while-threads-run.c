// A profile taken at exit while other threads still allocate and free:
// the records and the leak check must describe the same objects.  The
// exit dump folds the live chunks one by one while the threads go on, and
// the leak check runs after it (after the symbolizer's work too), on the
// heap as it then is.  It counted and judged whatever was live by then:
// the objects the threads allocated after the walk, in no record (with
// four workers: 164,260 objects examined and 164,222 unreachable where the
// profile had 54,561 live; contexts with more unreachable objects than
// live ones), and not those they freed since (22,620 examined of 22,622).  Now the check judges the dump's
// objects only (the chunks its walk folded: HP_CHUNK_REPORTED, in the
// side table's entry under allocator=system): the objects examined are the
// profile's live objects, each context's leaked objects are some of its
// live ones, and one freed since the walk counts as reachable.
//
// Two workers loop: malloc(48) and free it, replace one of 8 objects of
// 80 bytes a global array holds, and worker 0 allocates 24 bytes into a
// global slot whose previous object becomes unreachable (a leak), 200,000
// times.  main waits until each has made 5000 turns, then ends with
// exit(), _exit() or a return from main while they run.  The counts vary
// from run to run; what must hold does not (Inputs/exit_consistency.py,
// over `heapprof show`).
// RUN: %clang_heapprof -O1 -pthread %s -o %t
// RUN: rm -rf %t.d*
// RUN: %env_heapprof_opts=profile_dir=%t.d1 %run %t exit
// RUN: heapprof show %t.d1/*.profraw > %t.exit
// RUN: %env_heapprof_opts=profile_dir=%t.d2 %run %t _exit
// RUN: heapprof show %t.d2/*.profraw > %t._exit
// RUN: %env_heapprof_opts=profile_dir=%t.d3 %run %t return
// RUN: heapprof show %t.d3/*.profraw > %t.return
// On glibc's allocator (the side table's entries):
// RUN: %env_heapprof_opts=profile_dir=%t.d4:allocator=system %run %t exit
// RUN: heapprof show %t.d4/*.profraw > %t.system
// RUN: %python %S/Inputs/exit_consistency.py %t.exit %t._exit %t.return %t.system | FileCheck %s
// CHECK-LABEL: {{^}}exit
// CHECK-NEXT: leak check: yes
// CHECK-NEXT: examined == live: yes
// CHECK-NEXT: contexts with more leaked than live: 0
// CHECK-NEXT: records with more live than allocated: 0
// CHECK-LABEL: {{^}}_exit
// CHECK-NEXT: leak check: yes
// CHECK-NEXT: examined == live: yes
// CHECK-NEXT: contexts with more leaked than live: 0
// CHECK-NEXT: records with more live than allocated: 0
// CHECK-LABEL: {{^}}return
// CHECK-NEXT: leak check: yes
// CHECK-NEXT: examined == live: yes
// CHECK-NEXT: contexts with more leaked than live: 0
// CHECK-NEXT: records with more live than allocated: 0
// CHECK-LABEL: {{^}}system
// CHECK-NEXT: leak check: yes
// CHECK-NEXT: examined == live: yes
// CHECK-NEXT: contexts with more leaked than live: 0
// CHECK-NEXT: records with more live than allocated: 0
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T 2
static long turns[T];
static void *volatile ring[T][8];
static void *volatile leak_slot;

__attribute__((noinline)) static void *pair_obj(void) { return malloc(48); }
__attribute__((noinline)) static void *ring_obj(void) { return malloc(80); }
__attribute__((noinline)) static void *leak_obj(void) { return malloc(24); }

static void *worker(void *arg) {
  long t = (long)arg;
  for (long i = 0;; i++) {
    free(pair_obj());
    free(ring[t][i & 7]);
    ring[t][i & 7] = ring_obj();
    if (t == 0 && i < 200000)
      leak_slot = leak_obj(); /* the previous one is unreachable */
    __atomic_store_n(&turns[t], i, __ATOMIC_RELAXED);
  }
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t th;
  for (long t = 0; t < T; t++)
    pthread_create(&th, NULL, worker, (void *)t);
  for (int t = 0; t < T; t++)
    while (__atomic_load_n(&turns[t], __ATOMIC_RELAXED) < 5000)
      ;
  const char *how = argc > 1 ? argv[1] : "exit";
  if (!strcmp(how, "_exit"))
    _exit(0);
  if (!strcmp(how, "return"))
    return 0;
  exit(0);
}
