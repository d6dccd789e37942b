// _exit from a signal handler before the runtime's init: the runtime's
// _exit looked up the next definition with dlsym at the call, and dlsym is
// not async-signal-safe (it takes the loader's lock and may allocate: a
// handler that interrupted malloc or the loader could hang).  Now the
// exec family's and _exit's next definitions are looked up when a handler
// is installed (sigaction, signal), before any handler of the program's
// can run, so the handler's _exit makes no lookup.
//
// Preloaded after heapprof's runtime: a library whose constructor, run
// before the runtime's init (glibc runs the last preloaded object's
// constructors first: preload-before-init.c), installs a SIGUSR1 handler
// with sigaction and raises the signal; the handler writes "handler" and
// calls _exit(9); and before it a library that wraps dlsym, writing
// "lookup NAME" for each look-up (the runtime's calls of dlsym bind to
// it).  The look-up of _exit comes before the handler runs, none after it
// (before the fix: "lookup _exit" after "handler"), and the process ends
// with status 9.  Only in the program called "victim".
// REQUIRES: heapprof-driver
// RUN: %clang_plain -O2 -shared -fPIC -DWATCH %s -o %t.watch.so -ldl
// RUN: %clang_plain -O2 -shared -fPIC -DEARLY %s -o %t.early.so
// RUN: rm -rf %t.d && mkdir %t.d && %clang_plain -O0 %s -o %t.d/victim
// RUN: sh -c 'LD_PRELOAD=%t.watch.so:%t.early.so heapprof run -o %t.o -- %t.d/victim 2>%t.err; echo "status $?"' | FileCheck %s --check-prefix=STATUS
// RUN: FileCheck %s < %t.err
// STATUS: status 9
// CHECK: lookup _exit
// CHECK: handler
// CHECK-NOT: lookup
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void say(const char *a, const char *b) {
  write(2, a, strlen(a));
  write(2, b, strlen(b));
  write(2, "\n", 1);
}

#if defined(WATCH)
void *dlsym(void *handle, const char *name) {
  static void *(*real)(void *, const char *);
  if (!real)
    real = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym",
                                                   "GLIBC_2.34");
  if (!real)
    real = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym",
                                                   "GLIBC_2.2.5");
  if (!strcmp(program_invocation_short_name, "victim"))
    say("lookup ", name);
  return real(handle, name);
}
#elif defined(EARLY)
static void on_usr1(int sig) {
  (void)sig;
  say("handler", "");
  _exit(9);
}

__attribute__((constructor)) static void early(void) {
  if (strcmp(program_invocation_short_name, "victim"))
    return;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_usr1;
  sigaction(SIGUSR1, &sa, NULL);
  raise(SIGUSR1);
}
#else
int main(void) { return 0; }
#endif
