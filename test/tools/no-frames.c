// A stack without frames: the runtime's walk found none of the program's
// (here malloc is itself the start routine of three threads, so it is
// called from above each thread's first frame).  The report named the
// context "0x0", an address nobody called from; it is a marker now, in
// every output.  The threads allocate 100, 101 and 102 bytes; main frees
// the first and drops the others: 303 B in 3 objects, 2 of them (203 B)
// leaked.
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d > %t.txt
// RUN: FileCheck %s < %t.txt
// RUN: not grep -w 0x0 %t.txt
// RUN: heapprof flamegraph --weight leaked %t.d | FileCheck %s --check-prefix=FOLDED
// CHECK: 303 B in 3 objects (100 B to 102 B), 2 live (203 B)
// CHECK-NEXT: {{^ *}}[no frames: called from outside the program's code, or no memory to record them]{{$}}
// CHECK: == Memory leaks: unreachable at exit
// CHECK-NEXT: bytes
// CHECK-NEXT: 203 B {{.*}} 2 {{.*}} [no frames: called from outside the program's code, or no memory to record them]{{$}}
// CHECK-NOT: stack limit
// FOLDED: [no frames: called from outside the program's code, or no memory to record them] 203{{$}}
#include <pthread.h>
#include <stdlib.h>

int main(void) {
  pthread_t t[3];
  void *r[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, (void *(*)(void *))malloc,
                   (void *)(long)(100 + i));
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], &r[i]);
  free(r[0]);
  return 0;
}
