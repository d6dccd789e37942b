// --allocator=system with dlopen and a signal handler that allocates: a
// library loaded at run time binds to the runtime's malloc like the rest
// (5 blocks of 333 bytes from its function, freed by the program), and a
// handler run by raise() allocates and frees 4 blocks of 444 bytes.
// RUN: %clang_plain -shared -fPIC -DLIB %s -o %t.so
// RUN: %clang_plain -O0 -g %s -o %t -ldl
// RUN: rm -rf %t.dir && env -u LD_PRELOAD heapprof run -o %t.dir --allocator=system -- %t %t.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.dir | FileCheck %s
// OUT: done
// CHECK: == Allocation bins
// CHECK-DAG: {{^ *333 +5 +1665 B +5 +0 B }}
// CHECK-DAG: {{^ *444 +4 +1776 B +4 +0 B }}
#include <stdlib.h>

#ifdef LIB
void lib_alloc(void **out, int n) {
  for (int i = 0; i < n; i++)
    out[i] = malloc(333);
}
#else
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>

static void handler(int sig) {
  for (int i = 0; i < 4; i++) {
    void *volatile p = malloc(444);
    free(p);
  }
}

int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h)
    return 1;
  void (*f)(void **, int) = (void (*)(void **, int))dlsym(h, "lib_alloc");
  void *blocks[5];
  f(blocks, 5);
  for (int i = 0; i < 5; i++)
    free(blocks[i]);
  dlclose(h);
  signal(SIGUSR1, handler);
  raise(SIGUSR1);
  puts("done");
  return 0;
}
#endif
