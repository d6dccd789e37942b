// __heapprof_register_root_region and __heapprof_unregister_root_region
// take the regions' lock.  Both keep 100,000 one-byte regions registered
// beside their work, and take back and register again one of them after
// each step, so the lock is taken all the time.  (When the regions were a
// list searched from its end, each such call read the whole list.)
//
//   threads  32 threads each keep 200 objects of 204 bytes whose only
//            pointers are in 8-byte regions they register, and take back
//            and register again one of the first regions after each: all
//            6400 registrations are made, no leak.  The lock was tried for
//            a bounded time and given up without a word under contention:
//            31 of the 6400 were not registered (31 leaks, no message).
//   handler  main takes back and registers again one of the first regions
//            in a loop; a timer's handler, every 10 ms, registers the next
//            of 5 regions, each holding the only pointer to an object of
//            204 bytes.  A handler that interrupted main inside the lock
//            cannot take it (main holds it until the handler returns): that
//            call says so and registers nothing, so the objects that leak
//            are as many as the warnings, at least one, and the program
//            goes on (exit 0).  It had registered nothing without a word.
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.threads && %env_heapprof_opts=profile_dir=%t.threads %run %t threads 2> %t.threads.err
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.threads.err
// RUN: heapprof show %t.threads | FileCheck %s --check-prefix=NONE
// RUN: rm -rf %t.handler && %env_heapprof_opts=profile_dir=%t.handler %run %t handler 2> %t.handler.err
// RUN: heapprof show %t.handler > %t.handler.txt
// RUN: sh -c 'n=$(grep -c "^HeapProf: WARNING: __heapprof_register_root_region(0x[0-9a-f]*, 8): called by a signal handler that interrupted heapprof on this thread; not registered$" "$0"); echo "warnings $n"; [ "$n" -ge 1 ] && grep -q " direct_objects=$n direct_bytes=$((n * 204)) " "$1"' %t.handler.err %t.handler.txt
// QUIET-NOT: HeapProf
// NONE: leaks: {{.*}} direct_objects=0 direct_bytes=0 indirect_objects=0
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <heapprof/heapprof_interface.h>

#define THREADS 32
#define EACH 200
#define BASE 100000
#define HANDLED 5

static char base[BASE];
static void **slots;

__attribute__((noinline)) static void *widget(void) { return malloc(204); }

// Clears the stack below main's frame, where the calls left the objects'
// addresses.
__attribute__((noinline)) static void scrub(void) {
  volatile char junk[65536];
  memset((char *)junk, 0, sizeof(junk));
}

// Takes back the k-th region of base and registers it again.
static void again(int k) {
  __heapprof_unregister_root_region(&base[k], 1);
  __heapprof_register_root_region(&base[k], 1);
}

static void *thread_main(void *arg) {
  long t = (long)arg;
  for (int i = 0; i < EACH; i++) {
    void **slot = &slots[t * EACH + i];
    *slot = widget();
    __heapprof_register_root_region(slot, 8);
    again((int)(t * EACH + i));
  }
  return NULL;
}

static volatile int handled;

static void on_alarm(int sig) {
  (void)sig;
  if (handled < HANDLED) {
    __heapprof_register_root_region(&slots[handled], 8);
    handled++;
  }
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "";
  slots = mmap(NULL, THREADS * EACH * sizeof(void *), PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (slots == MAP_FAILED)
    return 2;
  for (int k = 0; k < BASE; k++)
    __heapprof_register_root_region(&base[k], 1);
  if (!strcmp(m, "threads")) {
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
      pthread_create(&th[t], NULL, thread_main, (void *)t);
    for (int t = 0; t < THREADS; t++)
      pthread_join(th[t], NULL);
  } else {
    for (int k = 0; k < HANDLED; k++)
      slots[k] = widget();
    signal(SIGALRM, on_alarm);
    struct itimerval every = {{0, 10000}, {0, 10000}}, off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &every, NULL);
    for (int i = 0; handled < HANDLED; i++)
      again(i % 1000);
    setitimer(ITIMER_REAL, &off, NULL);
  }
  scrub();
  return 0;
}
