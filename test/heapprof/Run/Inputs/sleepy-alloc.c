// An "allocator library" for allocator-descheduled.c: glibc's allocator
// under its own names (all but malloc from glibc_rest.h), except that a
// malloc of exactly 777 bytes sleeps first, as an allocator blocking on a
// lock would: the calling thread loses the CPU inside the call.  A 2 ms sleep need not switch (a virtual CPU
// stalled by its host past the timer's expiry before the thread reaches
// the scheduler returns without one), so the call sleeps again until the
// kernel's count of the thread's context switches has moved.
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "glibc_rest.h"
#include <stddef.h>
#include <sys/resource.h>
#include <time.h>

static long switches(void) {
  struct rusage ru;
  getrusage(RUSAGE_THREAD, &ru);
  return ru.ru_nvcsw + ru.ru_nivcsw;
}

void *malloc(size_t n) {
  if (n == 777) {
    struct timespec ts = {0, 2000000};
    long before = switches();
    do
      nanosleep(&ts, NULL);
    while (switches() == before);
  }
  return __libc_malloc(n);
}
