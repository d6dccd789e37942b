/*===- idle_latency.c - how long a release_idle_ms pass makes malloc wait --===
 *
 *   idle_latency MIB     MIB of 64-byte blocks (malloc(32) and heapprof's
 *                        32-byte header) written, then all freed but one in
 *                        1,024 (one a 64 KiB span); a second thread then
 *                        mallocs and frees 512 blocks of the same class
 *                        over and over for 4 s, timing each malloc
 *
 * Prints the worst malloc the second thread saw, in ms, and the resident
 * set (/proc/self/statm) before and after: with release_idle_ms on, the
 * passes that give the spans' free pages back run from the second
 * thread's refills and drains and hold the 64-byte class's lock.  Built
 * like the lit tests' %clang_rt_heapprof (the runtime, no instrumentation).
 *===----------------------------------------------------------------------===*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static volatile int stop;
static double worst;
static long mallocs;

static void *churn(void *arg) {
  (void)arg;
  void *p[512];
  while (!stop) {
    for (int i = 0; i < 512; i++) {
      double t0 = now_s();
      p[i] = malloc(32);
      double d = now_s() - t0;
      if (d > worst)
        worst = d;
      mallocs++;
    }
    for (int i = 0; i < 512; i++)
      free(p[i]);
  }
  return NULL;
}

static long rss_kb(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, res = 0;
  if (f && fscanf(f, "%ld %ld", &size, &res) != 2)
    res = 0;
  if (f)
    fclose(f);
  return res * (sysconf(_SC_PAGESIZE) / 1024);
}

int main(int argc, char **argv) {
  long mib = argc > 1 ? atol(argv[1]) : 1024;
  long n = mib * 1024 * 1024 / 64;
  char **v = malloc(n * sizeof(*v));
  if (!v)
    return 1;
  for (long i = 0; i < n; i++) {
    v[i] = malloc(32);
    memset(v[i], 1, 32);
  }
  for (long i = 0; i < n; i++)
    if (i % 1024 != 512)
      free(v[i]);
  long before = rss_kb();
  pthread_t th;
  pthread_create(&th, NULL, churn, NULL);
  sleep(4);
  stop = 1;
  pthread_join(th, NULL);
  printf("MiB=%ld rss_before_kb=%ld rss_after_kb=%ld worst_malloc_ms=%.2f "
         "mallocs=%ld\n",
         mib, before, rss_kb(), worst * 1e3, mallocs);
  return 0;
}
