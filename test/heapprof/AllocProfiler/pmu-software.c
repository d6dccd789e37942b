// pmu_events=1 reads the thread's performance counters around sampled
// allocator calls.  Where perf_event_open cannot count instructions (no
// hardware PMU, as in most virtual machines) the profile says so once and
// counts the software events; "probe" asks perf_event_open itself, so the
// expected note comes from the machine, not from heapprof.
// RUN: rm -rf %t.dir %t.off && mkdir -p %t.dir %t.off
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %run %t probe > %t.out
// RUN: %env_heapprof_opts=log_path=%t.dir/p:print_raw=1:print_text=0:pmu_events=1:pmu_sample_every=1 %run %t
// RUN: heapprof show %t.dir/p.*.2.profraw >> %t.out
// RUN: FileCheck %s < %t.out
// merge ORs the flags and adds the rows; the report shows the same.
// RUN: %run %t probe > %t.merged
// RUN: heapprof merge -o %t.dir/merged.profraw %t.dir/p.*.profraw
// RUN: heapprof show %t.dir/merged.profraw >> %t.merged
// RUN: heapprof report --format json %t.dir/p.*.profraw >> %t.merged
// RUN: FileCheck %s --check-prefix=MERGED < %t.merged
// Every large allocation writes its fresh header page: a fault each, at
// least 20.
// RUN: heapprof show %t.dir/p.*.2.profraw | awk '/malloc large new serial: samples=20 / { sub(/.* page_faults=/, ""); sub(/ .*/, ""); ok = $0 + 0 >= 20 } END { exit !ok }'
// One call in 4 of each kind: 1020 mallocs (the 4th, 8th, ... 20th are
// large: 5), 1020 frees (the first 20 large: 5).
// RUN: %env_heapprof_opts=log_path=%t.dir/q:print_raw=1:print_text=0:pmu_events=1:pmu_sample_every=4 %run %t
// RUN: heapprof show %t.dir/q.*.2.profraw | FileCheck %s --check-prefix=EVERY4
// Off (the default): no section 4.
// RUN: %env_heapprof_opts=log_path=%t.off/p:print_raw=1:print_text=0 %run %t
// RUN: heapprof show %t.off/p.*.2.profraw | FileCheck %s --check-prefix=OFF
#include <heapprof/heapprof_interface.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { N = 20, LARGE = 200000, SMALL = 1000 };

int main(int argc, char **argv) {
  if (argc > 1) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    printf("expect: %s\n", fd < 0 ? "no hardware counters (software events only)"
                                  : "hardware counters");
    printf("expect-json: %s\n", fd < 0 ? "false" : "true");
    return 0;
  }
  char *volatile p[N];
  __heapprof_dump(); // 1
  for (int i = 0; i < N; i++)
    p[i] = malloc(LARGE);
  for (int i = 0; i < N; i++)
    free(p[i]);
  for (int i = 0; i < SMALL; i++) {
    char *volatile s = malloc(50);
    free(s);
  }
  __heapprof_dump(); // 2
  return 0;
}
// CHECK: expect: [[NOTE:.*]]
// CHECK: PMU events: [[NOTE]]; counted:{{.*}} page_faults minor_faults major_faults context_switches task_clock_ns
// CHECK: malloc small reused serial: samples=999 page_faults=
// CHECK: malloc large new serial: samples=20 {{.*}}page_faults={{[1-9][0-9]*}}
// CHECK: free small - serial: samples=1000 {{.*}}page_faults=
// CHECK: free large - serial: samples=20 {{.*}}page_faults=
// EVERY4: malloc small reused serial: samples=250 {{.*}}page_faults=
// EVERY4: malloc large new serial: samples=5 {{.*}}page_faults=
// EVERY4: free small - serial: samples=250 {{.*}}page_faults=
// EVERY4: free large - serial: samples=5 {{.*}}page_faults=
// OFF: section tag 3
// OFF-NOT: section tag 4
// OFF-NOT: PMU
// MERGED: expect: [[NOTE:.*]]
// MERGED: expect-json: [[HW:true|false]]
// MERGED: PMU events: [[NOTE]]; counted:
// MERGED: malloc large new serial: samples=20 {{.*}}page_faults=
// MERGED: "pmu": {
// MERGED-NEXT: "hardware": [[HW]],
// MERGED-NEXT: "events": [
// MERGED: "page_faults",
// MERGED: "op": "malloc",
// MERGED: "size": "large",
// MERGED-NEXT: "block": "new",
// MERGED-NEXT: "phase": "serial",
// MERGED-NEXT: "samples": 20,
