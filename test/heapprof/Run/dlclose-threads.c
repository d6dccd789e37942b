// Four threads load, use and unload two libraries 300 times each, at the
// same time: the dlclose wrapper neither deadlocks nor loses a count.  Each
// use allocates one block in lib_site and frees it: 33 bytes in libA, 44
// in libB, each thread alternating, so 600 of each: lib_site has 1200
// blocks, 46200 bytes.  (Which library's lib_site a block is charged to
// can be wrong here: a library another thread maps between a dlclose and
// its reservation takes the place -- docs/design.md, "Modules dlclose
// unloaded"; the function is the same name in both.)
// REQUIRES: heapprof-driver
// RUN: %clang_plain -O0 -g -shared -fPIC -DLIB_A %s -o %t-a.so
// RUN: %clang_plain -O0 -g -shared -fPIC -DLIB_B %s -o %t-b.so
// RUN: %clang_heapprof -O1 -g %s -o %t -lpthread
// RUN: %clang_plain -O1 -g %s -o %t-plain -lpthread
// RUN: rm -rf %t.d && mkdir -p %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t %t-a.so %t-b.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.d > %t.json
// RUN: %python %S/Inputs/site-accesses.py %t.json lib_site | FileCheck %s
// RUN: rm -rf %t.run && env -u LD_PRELOAD heapprof run -o %t.run -- %t-plain %t-a.so %t-b.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.run > %t.rjson
// RUN: %python %S/Inputs/site-accesses.py %t.rjson lib_site | FileCheck %s
// RUN: rm -rf %t.sys && env -u LD_PRELOAD heapprof run --allocator=system -o %t.sys -- %t-plain %t-a.so %t-b.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.sys > %t.sjson
// RUN: %python %S/Inputs/site-accesses.py %t.sjson lib_site | FileCheck %s
// OUT: done
// CHECK: lib_site allocs=1200 bytes=46200 frees=1200
#include <stdlib.h>

#if defined(LIB_A)
void *lib_site(void) { return malloc(33); }
#elif defined(LIB_B)
void *lib_site(void) { return malloc(44); }
#else
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static const char *libs[2];

static void *run(void *arg) {
  long k = (long)arg;
  for (int i = 0; i < 300; i++) {
    void *h = dlopen(libs[(i + k) & 1], RTLD_NOW);
    if (!h) {
      fprintf(stderr, "%s\n", dlerror());
      exit(1);
    }
    free(((void *(*)(void))dlsym(h, "lib_site"))());
    if (dlclose(h))
      exit(2);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 3;
  libs[0] = argv[1];
  libs[1] = argv[2];
  pthread_t t[4];
  for (long i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, run, (void *)i);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  puts("done");
  return 0;
}
#endif
