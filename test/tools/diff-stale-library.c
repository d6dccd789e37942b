// A library rebuilt since the profile was taken: its frames cannot be
// symbolized, and heapprof says so once per module and command, also when
// diff reads the profile three times (BASE, NEW, and BASE with NEW, as a
// checkpoint and the exit of one process are). The frames stay as
// library+offset: the checkpoint's 2 blocks of 48 bytes from the library
// (one call site in main), then 3 more at exit from another.
// RUN: rm -rf %t.lib %t.prof %t.base && mkdir -p %t.lib %t.base
// RUN: %clang_heapprof -O0 -g -shared -fPIC -DLIB %s -o %t.lib/libstale.so
// RUN: %clang_heapprof -O0 -g %s -o %t %t.lib/libstale.so -Wl,-rpath,%t.lib
// RUN: %env_heapprof_opts=profile_dir=%t.prof %run %t
// RUN: mv %t.prof/*.1.profraw %t.base/
// RUN: %clang_heapprof -O0 -g -shared -fPIC -DLIB -DREBUILT %s -o %t.lib/libstale.so
// RUN: heapprof diff %t.base %t.prof 2> %t.err | FileCheck %s
// RUN: grep -c "libstale.so: build id [0-9a-f]* is not the profiled one, [0-9a-f]*; its frames are not symbolized" %t.err | FileCheck %s --check-prefix=ONCE
// ONCE: 1
// RUN: not grep -v "libstale.so: build id" %t.err
// CHECK: changed contexts: 1 new, 0 gone, 0 grew, 0 shrank, 0 changed otherwise; 1 unchanged
// CHECK: #1{{ +}}new{{ +}}bytes +144 B (0 B -> 144 B), allocs +3
// CHECK-NEXT: libstale.so+0x
// CHECK-NEXT: main
#include <stdlib.h>
#ifdef LIB
__attribute__((noinline)) void *lib_block(void) {
#ifdef REBUILT
  volatile int pad = 1;
  (void)pad;
#endif
  return malloc(48);
}
#else
#include <heapprof/heapprof_interface.h>
void *lib_block(void);
void *volatile keep[5];
int main(void) {
  for (int i = 0; i < 2; i++)
    keep[i] = lib_block();
  __heapprof_dump();
  for (int i = 2; i < 5; i++)
    keep[i] = lib_block();
  return 0;
}
#endif
