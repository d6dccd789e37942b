// A library preloaded after heapprof's runtime that wraps sigaction and
// signal is called for the program's calls, as libc's would be. The JVM's
// signal chaining (LD_PRELOAD=libjsig.so java ...) is such a library: it
// keeps the JVM's SIGSEGV handler (null checks, safepoints, stack guard
// pages) in place when a native library installs its own, and has the
// JVM's handler call the library's for the faults that are not the JVM's.
// heapprof's interposed sigaction and signal called glibc's directly, so
// libjsig saw nothing: a JNI library's SIGSEGV handler replaced the JVM's,
// and took the next implicit null check (the java program died with the
// library's exit status, 42, where it ran to its end without heapprof run).
// Here Inputs/sigchain.c plays libjsig: the "VM" claims SIGSEGV and SIGBUS
// with a handler that opens a guard page and resumes (SIGSEGV) or counts
// (SIGBUS), then "native code" installs a handler that exits 42 for each,
// with sigaction and with signal. Then one fault in the PROT_NONE guard page
// and one raise(SIGBUS): the VM's handler takes both, 2 events, and the
// native handlers are kept aside by the chaining library.
// RUN: %clang_plain -O2 -shared -fPIC %S/Inputs/sigchain.c -o %t.chain.so -ldl
// RUN: %clang_plain -O0 %s -o %t -ldl
// RUN: env LD_PRELOAD=%t.chain.so %t | FileCheck %s
// RUN: rm -rf %t.d && env LD_PRELOAD=%t.chain.so heapprof run -o %t.d -- %t | FileCheck %s
// RUN: rm -rf %t.s && env LD_PRELOAD=%t.chain.so heapprof run --allocator=system -o %t.s -- %t | FileCheck %s
// RUN: ls %t.d %t.s | FileCheck %s --check-prefix=FILES
// CHECK: the VM's handler took 2 of 2 events; kept aside: SIGSEGV by sigaction, SIGBUS by signal
// FILES-COUNT-2: heapprof.preload-after-sigaction.c.tmp.{{[0-9]+}}.profraw
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char *guard;
static volatile sig_atomic_t events;

static void vm_handler(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  if (sig == SIGSEGV && (char *)si->si_addr >= guard &&
      (char *)si->si_addr < guard + 4096) {
    mprotect(guard, 4096, PROT_READ | PROT_WRITE); /* resume the access */
    events++;
    return;
  }
  if (sig == SIGBUS) {
    events++;
    return;
  }
  _exit(3);
}

static void native_handler(int sig) {
  static const char m[] = "the native handler took the signal\n";
  (void)sig;
  write(1, m, sizeof(m) - 1);
  _exit(42);
}

int main(void) {
  int (*claim)(int, const struct sigaction *) =
      (int (*)(int, const struct sigaction *))dlsym(RTLD_DEFAULT,
                                                    "sigchain_claim");
  const struct sigaction *(*saved)(int) =
      (const struct sigaction *(*)(int))dlsym(RTLD_DEFAULT, "sigchain_saved");
  if (!claim || !saved) {
    printf("no chaining library\n");
    return 1;
  }
  guard = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  struct sigaction vm;
  memset(&vm, 0, sizeof(vm));
  vm.sa_sigaction = vm_handler;
  vm.sa_flags = SA_SIGINFO;
  claim(SIGSEGV, &vm);
  claim(SIGBUS, &vm);
  /* The native library's handlers. */
  struct sigaction nat;
  memset(&nat, 0, sizeof(nat));
  nat.sa_handler = native_handler;
  sigaction(SIGSEGV, &nat, NULL);
  signal(SIGBUS, native_handler);
  char *volatile p = malloc(64);
  guard[10] = 1; /* the VM's guard page */
  raise(SIGBUS);
  free(p);
  printf("the VM's handler took %d of 2 events; kept aside: SIGSEGV by "
         "sigaction%s, SIGBUS by signal%s\n",
         (int)events,
         saved(SIGSEGV)->sa_handler == native_handler ? "" : " (no)",
         saved(SIGBUS)->sa_handler == native_handler ? "" : " (no)");
  return 0;
}
