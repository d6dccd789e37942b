// The peak of a multi-threaded program.  Four threads each allocate
// 4 x 1 MiB at site W and wait at a barrier (Inputs/threads_at_top.h);
// then the main thread frees one chunk of its own (W's 16 chunks and
// main's 2 x 1 MiB at site M are live: the top, 18 MiB), and only then
// does everyone free.  The snapshot at that first free sees every thread's
// chunks: W 16 objects, M 2.  Each thread's requests reach the shared
// total in its own steps (heapprof_peak.h); the snapshot itself walks the
// chunks, so the per-context numbers are exact when, as here, nothing
// frees while it walks.
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/peak_check.py %t.json site_w=16,16777216 site_m=2,2097152
// glibc allocates a few hundred bytes per thread for itself (its TLS
// vector): the peak is 18 MiB and that.
// RUN: %python -c "import json,sys; p=json.load(open(sys.argv[1]))['peak']; assert 18874368 < p['bytes'] < 18874368 + 4096 and 18 < p['objects'] <= 18 + 2 * 4, p" %t.json
#include <stdlib.h>

#define MiB (1 << 20)
enum { THREADS = 4, EACH = 4 };
__attribute__((noinline)) static char *site_w(void) { return malloc(MiB); }
__attribute__((noinline)) static char *site_m(void) { return malloc(MiB); }
#include "Inputs/threads_at_top.h"

static void *worker(void *arg) {
  char *volatile mine[EACH];
  for (int i = 0; i < EACH; i++)
    mine[i] = site_w();
  wait_for_top();
  for (int i = 0; i < EACH; i++)
    free(mine[i]);
  return arg;
}

int main(void) {
  run_to_top(worker, site_m, NULL);
  return 0;
}
