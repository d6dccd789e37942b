// The live tables under concurrent cross-thread frees and snapshots.
// Phase 1 (synchronised, exact; Inputs/threads_at_top.h): four threads
// each allocate 1000 x 256 B at site W and wait; main holds 2 x 64 KiB at
// site M and frees one: the snapshot at that free is the top, W 4000
// objects / 1024000 bytes and M 2 / 131072.  Phase 2 (racing): each thread
// frees its neighbour's 1000 chunks (its table's W entry goes to -1000,
// the neighbour's stays at +1000), then churns a ring of 64 x 256 B at
// site C, while main dumps three checkpoints, each a snapshot that adds up
// the tables as they change.  Phase 2's heap stays under 64 KiB + 64 KiB +
// the W chunks not yet freed, always below the top, so the peak stays
// phase 1's, exactly.
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/peak_check.py %t.json site_w=4000,1024000 site_m=2,131072 site_c=0,0
// glibc allocates a few hundred bytes per thread for itself.
// RUN: %python -c "import json,sys; p=json.load(open(sys.argv[1]))['peak']; assert 1155072 <= p['bytes'] < 1155072 + 4096, p" %t.json
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

enum { THREADS = 4, EACH = 1000, RING = 64, ROUNDS = 20000 };
__attribute__((noinline)) static char *site_w(void) { return malloc(256); }
__attribute__((noinline)) static char *site_m(void) { return malloc(64 << 10); }
__attribute__((noinline)) static char *site_c(void) { return malloc(256); }
static char *volatile w[THREADS][EACH];
#include "Inputs/threads_at_top.h"

static void *worker(void *arg) {
  int me = (int)(long)arg;
  for (int i = 0; i < EACH; i++)
    w[me][i] = site_w();
  wait_for_top();
  int next = (me + 1) % THREADS;
  for (int i = 0; i < EACH; i++)
    free(w[next][i]); // a chunk another thread allocated
  char *ring[RING] = {0};
  for (int r = 0; r < ROUNDS; r++) {
    free(ring[r % RING]);
    ring[r % RING] = site_c();
    ring[r % RING][0] = (char)r;
  }
  for (int i = 0; i < RING; i++)
    free(ring[i]);
  return NULL;
}

static void dump_three(void) {
  for (int d = 0; d < 3; d++)
    __heapprof_dump();
}

int main(void) {
  run_to_top(worker, site_m, dump_three);
  return 0;
}
