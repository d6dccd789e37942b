// A library opened by a relative path (dlopen("./librel.so")) is recorded
// by its file's absolute path, from the kernel's map: the name the loader
// keeps is relative to the directory the program was in, useless to a
// report run elsewhere and wrong once the program changes directory. Here
// the program opens both libraries from their directory, keeps A loaded
// and dlcloses B (section 11 remembers it), then moves to / and exits; the
// report, run from another directory, finds both files and symbolizes
// their frames: 2 blocks of 40 bytes from a_site, 3 of 24 from b_site.
// REQUIRES: heapprof-driver
// RUN: rm -rf %t.lib %t.prof && mkdir -p %t.lib
// RUN: %clang_heapprof -O0 -g -shared -fPIC -DLIB_A %s -o %t.lib/librel-a.so
// RUN: %clang_heapprof -O0 -g -shared -fPIC -DLIB_B %s -o %t.lib/librel-b.so
// RUN: %clang_heapprof -O0 -g %s -o %t -ldl
// RUN: cd %t.lib && %env_heapprof_opts=profile_dir=%t.prof %run %t
// RUN: cd %S && heapprof report --top 0 %t.prof | FileCheck %s -DLIB=%t.lib
// RUN: heapprof show %t.prof/*.profraw | FileCheck %s --check-prefix=SHOW -DLIB=%t.lib
// The same program not rebuilt, under heapprof run:
// RUN: %clang_plain -O0 -g %s -o %t.plain -ldl
// RUN: rm -rf %t.run && cd %t.lib && heapprof run -o %t.run -- %t.plain
// RUN: cd %S && heapprof report --top 0 %t.run | FileCheck %s -DLIB=%t.lib
// CHECK-NOT: warning
// CHECK: modules{{ +}}{{[0-9]+}} libraries (1 unloaded before the end), listed in Modules
// CHECK: 80 B in 2 objects
// CHECK-NEXT: a_site
// CHECK: 72 B in 3 objects
// CHECK-NEXT: b_site
// CHECK: == Modules: the libraries the program mapped
// CHECK: {{^}}[[LIB]]/librel-a.so (build id
// CHECK: {{^}}[[LIB]]/librel-b.so (build id {{[0-9a-f]+}}), unloaded at
// SHOW: [[LIB]]/librel-a.so
// SHOW: unloaded at {{[0-9]+}} ms: [[LIB]]/librel-b.so
#include <stdlib.h>
#if defined(LIB_A) || defined(LIB_B)
#ifdef LIB_A
#define SITE a_site
#define SIZE 40
#else
#define SITE b_site
#define SIZE 24
#endif
__attribute__((noinline)) void *SITE(void) { return malloc(SIZE); }
void run(int n) {
  for (int i = 0; i < n; i++)
    free(SITE());
}
#else
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>
static void use(const char *path, int n, int close_it) {
  void *h = dlopen(path, RTLD_NOW);
  if (!h) {
    fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
    exit(1);
  }
  ((void (*)(int))dlsym(h, "run"))(n);
  if (close_it)
    dlclose(h);
}
int main(void) {
  use("./librel-a.so", 2, 0);
  use("./librel-b.so", 3, 1);
  if (chdir("/"))
    return 1;
  return 0;
}
#endif
