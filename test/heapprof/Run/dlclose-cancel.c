// dlclose is no cancellation point, and heapprof's wrapper must not make it
// one: its read of /proc/self/maps (read and open are cancellation points)
// acted on a pending cancel, so the thread ended inside dlclose and the
// library stayed loaded.  Here a thread with a cancel pending unloads a
// library: it must come out of dlclose with the library gone, and be
// cancelled at its next cancellation point.
// REQUIRES: heapprof-driver
// RUN: %clang_plain -O0 -g -shared -fPIC -DLIB %s -o %t-lib.so
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread -ldl
// RUN: %clang_plain -O0 -g %s -o %t-plain -lpthread -ldl
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t %t-lib.so | FileCheck %s
// RUN: rm -rf %t.run && env -u LD_PRELOAD heapprof run -o %t.run -- %t-plain %t-lib.so | FileCheck %s
// CHECK: dlclose returned 0; loaded after: no
// CHECK-NEXT: cancelled at the next cancellation point
#if defined(LIB)
int lib_value(void) { return 7; }
#else
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *lib;
static volatile int cancel_sent;
static char line[128];

static void *unloader(void *arg) {
  void *h = dlopen(lib, RTLD_NOW);
  if (!h)
    return arg;
  while (!cancel_sent) /* no cancellation point in this loop */
    ;
  int r = dlclose(h);
  void *again = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
  snprintf(line, sizeof(line), "dlclose returned %d; loaded after: %s\n", r,
           again ? "yes" : "no");
  pthread_testcancel();
  strcpy(line, "not cancelled\n");
  return arg;
}

int main(int argc, char **argv) {
  lib = argv[1];
  pthread_t t;
  pthread_create(&t, NULL, unloader, NULL);
  usleep(100000);
  pthread_cancel(t);
  cancel_sent = 1;
  void *ret;
  pthread_join(t, &ret);
  fputs(line[0] ? line : "the thread ended inside dlclose\n", stdout);
  puts(ret == PTHREAD_CANCELED ? "cancelled at the next cancellation point"
                               : "not cancelled");
  return 0;
}
#endif
