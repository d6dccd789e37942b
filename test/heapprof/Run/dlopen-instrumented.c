// An uninstrumented program under heapprof run loads a library built with
// -fheapprof: the preloaded runtime serves the library's counters, and the
// accesses the library makes are counted, on heapprof's allocator and on
// glibc's.  Until the library's constructor runs nothing can write a
// counter and the free path leaves the counters alone (heapprof_shadow.h,
// hp_shadow_in_use): that must lose nothing once it has run.
//
// The program allocates 3 blocks of 48 bytes at site_early and frees one
// before loading the library (no accesses: none is instrumented code's),
// then the library stores 10 times into each of the other two (20
// accesses, counted for site_early), and allocates 4 blocks of 40 bytes of
// its own (lib_site), storing 5 times into each (20 accesses).
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 -g -shared -fPIC -DLIB %s -o %t.so
// RUN: %clang_plain -O0 -g %s -o %t -ldl
// RUN: rm -rf %t.dir && env -u LD_PRELOAD heapprof run -o %t.dir -- %t %t.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.dir > %t.json
// RUN: %python %S/Inputs/site-accesses.py %t.json site_early lib_site | FileCheck %s
// RUN: rm -rf %t.dir2 && env -u LD_PRELOAD heapprof run -o %t.dir2 --allocator=system -- %t %t.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.dir2 > %t.json2
// RUN: %python %S/Inputs/site-accesses.py %t.json2 site_early lib_site | FileCheck %s
// OUT: done
// CHECK: site_early allocs=3 bytes=144 frees=3 accesses=20
// CHECK: lib_site allocs=4 bytes=160 frees=4 accesses=20
#include <stdlib.h>

#ifdef LIB
__attribute__((noinline)) void *lib_site(void) { return malloc(40); }

void lib_work(long **early, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 10; j++)
      early[i][j % 6] = j;
  for (int i = 0; i < 4; i++) {
    long *volatile p = lib_site();
    for (int j = 0; j < 5; j++)
      p[j] = j;
    free(p);
  }
}
#else
#include <dlfcn.h>
#include <stdio.h>

__attribute__((noinline)) static void *site_early(void) { return malloc(48); }

int main(int argc, char **argv) {
  long *early[3];
  for (int i = 0; i < 3; i++)
    early[i] = site_early();
  early[0][0] = 1; /* uninstrumented: not counted */
  free(early[0]);
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  void (*work)(long **, int) = (void (*)(long **, int))dlsym(h, "lib_work");
  work(early + 1, 2);
  free(early[1]);
  free(early[2]);
  puts("done");
  return 0;
}
#endif
