// A dying program dies even when its profile cannot be written.  The
// symbolizer used here never answers (it marks a file, then waits for the
// program to die), so a dump hangs in it while holding heapprof's lock.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d* %t.mark*
// The final profile hangs: the timer ends it after deadly_signal_timeout_s.
// RUN: env HANG_MARK=%t.mark1 HEAPPROF_OPTIONS=profile_dir=%t.d1:print_text=1:print_raw=0:symbolizer_path=%S/Inputs/hang-symbolizer.sh:deadly_signal_timeout_s=1 timeout 120 not --crash %run %t crash %t.mark1 2>&1 | FileCheck %s --check-prefix=FINAL
// FINAL: HeapProf: caught SIGSEGV; writing the profile before the program dies
// FINAL-NEXT: HeapProf: the profile was not written within 1 s; the program dies without it
// RUN: not ls %t.d1/*.txt
// A second deadly signal while the final profile is being written kills at
// once (the timer is far away).
// RUN: env HANG_MARK=%t.mark2 HEAPPROF_OPTIONS=profile_dir=%t.d2:print_text=1:print_raw=0:symbolizer_path=%S/Inputs/hang-symbolizer.sh:deadly_signal_timeout_s=3600 timeout 120 not --crash %run %t crash-twice %t.mark2 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: HeapProf: caught SIGSEGV; writing the profile before the program dies
// TWICE-NEXT: HeapProf: caught SIGABRT before the profile was written; the program dies without it
// A fault inside heapprof (here: inside free, whose junk fill meets a page
// the program protected, while the thread is in its HIB cache's section)
// cannot be deferred: no profile, death at once.  (The program's own
// handlers cannot run inside a dump: signals.c holds them there.)
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.d3:print_text=1:print_raw=0:junk_fill=1:deadly_signal_timeout_s=3600 timeout 120 not --crash %run %t fault-in-free %t.mark3 2>&1 | FileCheck %s --check-prefix=FAULT
// FAULT: HeapProf: caught SIGSEGV inside heapprof; the program dies without its profile
// FAULT-NOT: writing the profile
// A signal sent to a thread inside heapprof waits for it to leave, but
// never longer than deadly_signal_timeout_s.
// RUN: env HANG_MARK=%t.mark4 HEAPPROF_OPTIONS=profile_dir=%t.d4:print_text=1:print_raw=0:symbolizer_path=%S/Inputs/hang-symbolizer.sh:deadly_signal_timeout_s=1 timeout 120 not --crash %run %t abort-in-dump %t.mark4 2>&1 | FileCheck %s --check-prefix=DEFER
// DEFER: HeapProf: the profile was not written within 1 s; the program dies without it
// DEFER-NOT: writing the profile
// Each of these died of its signal, not of something else.
// RUN: env HEAPPROF_OPTIONS=dump_at_exit=0:symbolizer_path=%S/Inputs/hang-symbolizer.sh:print_text=1:print_raw=0:profile_dir=%t.d5:deadly_signal_timeout_s=1 %run %t status segv crash %t.mark5
// RUN: env HEAPPROF_OPTIONS=dump_at_exit=0:symbolizer_path=%S/Inputs/hang-symbolizer.sh:print_text=1:print_raw=0:profile_dir=%t.d5:deadly_signal_timeout_s=3600 %run %t status abrt crash-twice %t.mark6
// RUN: env HEAPPROF_OPTIONS=dump_at_exit=0:symbolizer_path=%S/Inputs/hang-symbolizer.sh:print_text=1:print_raw=0:profile_dir=%t.d5:junk_fill=1:deadly_signal_timeout_s=3600 %run %t status segv fault-in-free %t.mark7
// RUN: env HEAPPROF_OPTIONS=dump_at_exit=0:symbolizer_path=%S/Inputs/hang-symbolizer.sh:print_text=1:print_raw=0:profile_dir=%t.d5:deadly_signal_timeout_s=1 %run %t status abrt abort-in-dump %t.mark8
// The bound itself must be 1..3600 seconds.
// RUN: %env_heapprof_opts=deadly_signal_timeout_s=0 not %run %t 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: %env_heapprof_opts=deadly_signal_timeout_s=3601 not %run %t 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: HeapProf: ERROR: option 'deadly_signal_timeout_s' out of range in HEAPPROF_OPTIONS (see help=1)
#include <heapprof/heapprof_interface.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *mark;
static pthread_t main_thread;
static const char *what;

static void wait_for_mark(void) {
  while (access(mark, F_OK) != 0)
    usleep(1000);
}

static void *killer(void *arg) {
  wait_for_mark(); // the dump hangs in the symbolizer now
  if (!strcmp(what, "crash-twice"))
    kill(getpid(), SIGABRT);
  else
    pthread_kill(main_thread, SIGABRT);
  return arg;
}

int main(int argc, char **argv) {
  if (!strcmp(argv[1], "status")) {
    // status SIG MODE MARK: runs MODE in a child, checks how it died.
    int want = !strcmp(argv[2], "segv") ? SIGSEGV : SIGABRT;
    unlink(argv[4]);
    pid_t c = fork();
    if (c == 0) {
      setenv("HANG_MARK", argv[4], 1);
      freopen("/dev/null", "w", stderr);
      execl("/proc/self/exe", "prog", argv[3], argv[4], (char *)0);
      _exit(127);
    }
    int st;
    waitpid(c, &st, 0);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != want) {
      printf("wrong status %#x\n", st);
      return 1;
    }
    return 0;
  }
  what = argv[1];
  mark = argv[2];
  if (!strcmp(what, "fault-in-free")) {
    // A chunk of 3 pages whose middle page is read-only: free's junk fill
    // faults there.
    char *c = malloc(3 * 4096);
    memset(c, 1, 3 * 4096);
    mprotect((void *)(((uintptr_t)c + 4095) & ~(uintptr_t)4095), 4096,
             PROT_READ);
    free(c);
    return 0;
  }
  char pid[32]; // the symbolizer waits for this process to die
  snprintf(pid, sizeof(pid), "%d", (int)getpid());
  setenv("HANG_PID", pid, 1);
  char *volatile p = malloc(40);
  p[0] = 1;
  main_thread = pthread_self();
  pthread_t k;
  if (strcmp(what, "crash"))
    pthread_create(&k, 0, killer, 0);
  if (!strcmp(what, "crash") || !strcmp(what, "crash-twice"))
    *(volatile int *)8 = 1;
  __heapprof_dump(); // abort-in-dump: hangs here
  return 0;
}
