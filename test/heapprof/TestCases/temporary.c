// Temporary allocations (heaptrack's: freed before their thread allocated
// anything else), per context, on heapprof's allocator, under heapprof run
// on glibc's, and not in sampled mode, which sees only sampled objects.
//   churn:   100 x malloc then free               100 of 100 temporary
//   lifo:    10 kept, freed newest first            1 of 10 (the newest)
//   fifo:    10 kept, freed oldest first            1 of 10 (the newest too:
//            frees in between do not matter, only allocations)
//   first:   malloc(16), then realloc'd             0 of 1 (realloc frees it)
//   grown:   realloc(p, 4096), then freed at once   1 of 1 (a new chunk)
//   handoff: malloc on a thread, freed on another   0 of 1
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d %t.run %t.sampled && mkdir -p %t.d %t.sampled
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --format json --top 0 %t.d | %python %S/Inputs/temporary_sites.py | FileCheck %s
// RUN: heapprof report --format json %t.d | %python -c "import json,sys; print('summary', json.load(sys.stdin)['summary']['temporary'])" | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: summary 103
// CHECK: churn allocs=100 temporary=100
// CHECK-NEXT: lifo allocs=10 temporary=1
// CHECK-NEXT: fifo allocs=10 temporary=1
// CHECK-NEXT: first allocs=1 temporary=0
// CHECK-NEXT: grown allocs=1 temporary=1
// CHECK-NEXT: handoff allocs=1 temporary=0
// The text report: the summary's total, the sort, the measures' column.
// RUN: heapprof report --sort temporary %t.d | FileCheck %s --check-prefix=TEXT
// TEXT: temporary 103 objects ({{[0-9.]+}}% of the allocations): freed before their thread allocated again
// TEXT: == Top contexts by temporary
// TEXT-NEXT: #1 {{.*}} 100 temporary, 3200 B in 100 objects
// TEXT: #2 {{.*}} 1 temporary,
// TEXT: #3 {{.*}} 1 temporary,
// TEXT: #4 {{.*}} 1 temporary,
// TEXT-NOT: #5
// TEXT: lifetime ms  temporary  migrated
// TEXT-NEXT: #1 {{.*}} 100.0%
// Under heapprof run on glibc's malloc: the same counts.
// RUN: env -u LD_PRELOAD heapprof run -o %t.run --allocator=system -- %t
// RUN: heapprof report --format json --top 0 %t.run | %python %S/Inputs/temporary_sites.py | FileCheck %s
// Sampled mode: unknown, not 0.
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.sampled:sample_bytes=1 %run %t
// RUN: heapprof report --format json --top 0 %t.sampled | %python %S/Inputs/temporary_sites.py | FileCheck %s --check-prefix=SAMPLED
// SAMPLED: churn allocs={{[0-9]+}} temporary=None
// SAMPLED: missing {{.*}}'temporary'
// RUN: not heapprof flamegraph --weight temporary %t.sampled 2>&1 | FileCheck %s --check-prefix=FLAMELACKS
// FLAMELACKS: heapprof: error: {{.*}}: the profile does not record temporary allocations (field temporary)
// (The pprof export leaves their sample type out: tools/pprof-sampled.test.)
// RUN: heapprof report --sort temporary %t.sampled | FileCheck %s --check-prefix=SORTLACKS
// SORTLACKS: == Top contexts by temporary
// SORTLACKS-NEXT: (the profile lacks temporary: sampled mode sees only the sampled allocations)
#include <pthread.h>
#include <stdlib.h>

static char *volatile kept[10], *volatile passed;

__attribute__((noinline)) static char *churn(void) { return malloc(32); }
__attribute__((noinline)) static char *lifo(void) { return malloc(48); }
__attribute__((noinline)) static char *fifo(void) { return malloc(64); }
__attribute__((noinline)) static char *first(void) { return malloc(16); }
__attribute__((noinline)) static char *grown(char *p) {
  return realloc(p, 4096);
}
__attribute__((noinline)) static char *handoff(void) { return malloc(80); }

static void *make(void *arg) {
  (void)arg;
  passed = handoff();
  return NULL;
}

int main(void) {
  for (int i = 0; i < 100; i++)
    free(churn());
  for (int i = 0; i < 10; i++)
    kept[i] = lifo();
  for (int i = 9; i >= 0; i--)
    free(kept[i]);
  for (int i = 0; i < 10; i++)
    kept[i] = fifo();
  for (int i = 0; i < 10; i++)
    free(kept[i]);
  free(grown(first()));
  pthread_t t;
  pthread_create(&t, NULL, make, NULL);
  pthread_join(t, NULL);
  free(passed);
  return 0;
}
