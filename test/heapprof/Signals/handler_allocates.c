// A program's signal handler that calls the allocator, or __heapprof_dump,
// must not hang the process on the locks heapprof's own code on the same
// thread holds.
//
// 1. While a profile is written the writing thread holds the program's
// asynchronous signals: a 20 us timer whose handler mallocs and frees,
// against 40 checkpoints from main, used to hang in the first ones (the
// handler's free waiting for the HIB cache the dump was flushing). Every
// handler call is in the profile: one allocation each, and main makes none.
// RUN: rm -rf %t.d1 && %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d1 timeout 120 %run %t dumps > %t.out
// RUN: heapprof report %t.d1 >> %t.out
// RUN: FileCheck %s --check-prefix=DUMPS < %t.out
// DUMPS: checkpoints 40, handler calls [[#CALLS:]]
// DUMPS: allocations [[#CALLS]] objects, [[#mul(CALLS,24)]] bytes
//
// 2. A handler that calls __heapprof_dump() when the signal interrupted
// heapprof on the same thread (here a fault inside free's junk fill, on a
// page the program protected) gets -1 and a warning, not a hang; the exit
// profile is written as usual.
// RUN: rm -rf %t.d2 && %env_heapprof_opts=profile_dir=%t.d2:junk_fill=1 timeout 120 %run %t dump-in-free 2>&1 | FileCheck %s --check-prefix=INFREE
// INFREE: HeapProf: WARNING: __heapprof_dump() was called by a signal handler that interrupted heapprof on the same thread (an allocator call); no checkpoint, as for any such call
// INFREE-NEXT: __heapprof_dump() in the handler: -1
// INFREE-NEXT: freed
// RUN: ls %t.d2 | count 1
//
// 3. An error such a handler makes (a double free) is reported, and the
// program aborts without the profile, which would wait for those locks.
// RUN: rm -rf %t.d3 && %env_heapprof_opts=profile_dir=%t.d3:junk_fill=1 not --crash timeout 120 %run %t free-in-free 2>&1 | FileCheck %s --check-prefix=ERROR
// ERROR: HeapProf: ERROR: double-free
// ERROR: HeapProf: ABORTING
// ERROR-NEXT: HeapProf: the profile is not written: a signal handler made this call while the thread was inside heapprof
// RUN: not ls %t.d3
#include <heapprof/heapprof_interface.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

static volatile long calls;
static char *volatile sink;

static void on_alarm(int sig) {
  (void)sig;
  sink = malloc(24);
  sink[0] = 1;
  free(sink);
  calls++;
}

static char *guarded_page;
static char *freed;
static int in_free_mode;

static void on_segv(int sig, siginfo_t *si, void *uc) {
  (void)sig, (void)uc;
  char *page = (char *)((uintptr_t)si->si_addr & ~(uintptr_t)4095);
  if (page != guarded_page)
    abort();
  if (in_free_mode) {
    free(freed); /* freed already: a double free */
  } else {
    char line[64];
    int n = snprintf(line, sizeof(line),
                     "__heapprof_dump() in the handler: %d\n",
                     __heapprof_dump());
    write(2, line, (size_t)n);
  }
  mprotect(page, 4096, PROT_READ | PROT_WRITE);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "dumps")) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 20}, {0, 20}};
    setitimer(ITIMER_REAL, &it, NULL);
    int dumps = 0;
    for (; dumps < 40; dumps++)
      __heapprof_dump();
    struct itimerval off;
    memset(&off, 0, sizeof(off));
    setitimer(ITIMER_REAL, &off, NULL);
    char line[80];
    int n = snprintf(line, sizeof(line), "checkpoints %d, handler calls %ld\n",
                     dumps, calls);
    write(1, line, (size_t)n);
    return 0;
  }
  /* A chunk of 3 pages: its middle page is protected, so free's junk fill
   * faults there, inside heapprof. */
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  in_free_mode = argc > 1 && !strcmp(argv[1], "free-in-free");
  freed = malloc(100);
  free(freed);
  char *p = malloc(3 * 4096);
  memset(p, 1, 3 * 4096);
  guarded_page = (char *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095);
  mprotect(guarded_page, 4096, PROT_READ);
  free(p);
  write(2, "freed\n", 6);
  return 0;
}
