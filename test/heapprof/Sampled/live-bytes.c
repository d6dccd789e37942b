// Sampled mode weighs the live counts like the others: an object still
// live at exit counts W objects and W times its size in live bytes, with
// the one integer weight W it drew when it was sampled (heapprof_sample.c,
// hp_sample_weigh).  1000 objects of 100 bytes, all live at exit, nothing
// else allocated: with sample_bytes=4096 each is sampled with p = 1 -
// exp(-100/4096) = 0.0241 and weighs 41 or 42 (1/p = 41.46).  Whatever was
// sampled, the estimate of live bytes is exactly 100 per live object
// (unweighted, live_bytes said 100 per sampled object while live_objects
// counted W each: about 2.4 bytes per object), and some object is live
// (a seed that samples none of the 1000 has odds (1 - p)^1000 < 1e-10).
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:sample_bytes=4096:sample_seed=3 %run %t
// RUN: heapprof report --format json %t.d | %python -c "import json,sys; s=json.load(sys.stdin)['summary']; print('live objects', 'none' if not s['live_objects'] else 'some', 'bytes per object', s['live_bytes'] / max(s['live_objects'], 1))" | FileCheck %s
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:sample_bytes=4096:sample_seed=11 %run %t
// RUN: heapprof report --format json %t.d | %python -c "import json,sys; s=json.load(sys.stdin)['summary']; print('live objects', 'none' if not s['live_objects'] else 'some', 'bytes per object', s['live_bytes'] / max(s['live_objects'], 1))" | FileCheck %s
// CHECK: live objects some bytes per object 100.0{{$}}
#include <stdlib.h>

static void *volatile keep[1000];

int main(void) {
  for (int i = 0; i < 1000; i++)
    keep[i] = malloc(100);
  return 0;
}
