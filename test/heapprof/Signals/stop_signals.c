// SIGINT (handle_int=1, default) and, with handle_term=1, SIGTERM, SIGQUIT
// and SIGHUP write the profile and then kill the program as before: the
// status stays "killed by the signal".  A program's own handler replaces
// heapprof's (it runs as before, heapprof writes nothing on the signal); a
// signal the program inherited ignored stays ignored.  quick_exit writes the
// profile like exit.  Each case runs in a child; the parent prints how it
// ended.  5 objects of 33 bytes are live in each.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d*
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t int none print_text=1:profile_dir=%t.d1 2>&1 | FileCheck %s --check-prefix=INT
// INT: HeapProf: caught SIGINT; writing the profile before the program dies
// INT: child: killed by signal 2
// RUN: cat %t.d1/*.txt | FileCheck %s --check-prefix=PROF-INT
// PROF-INT: HeapProf profile: {{.*}}, SIGINT, dump 0
// PROF-INT: alloc_count 5, size (ave/min/max) 33.00 / 33 / 33
// The program's own handler runs; heapprof writes no profile on SIGINT (the
// handler exits, so the exit profile is written).
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t int own print_text=1:profile_dir=%t.d2 2>&1 | FileCheck %s --check-prefix=OWN
// OWN-NOT: caught SIGINT
// OWN: own SIGINT handler ran
// OWN: child: exited with 3
// RUN: cat %t.d2/*.txt | FileCheck %s --check-prefix=PROF-OWN
// PROF-OWN: HeapProf profile: {{.*}}, exit, dump 0
// handle_int=0: killed by SIGINT, no profile.
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t int none print_text=1:profile_dir=%t.d3:handle_int=0 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: HeapProf
// OFF: child: killed by signal 2
// RUN: not ls %t.d3
// Inherited ignored (as `nohup` or a background job get it): still ignored,
// the program carries on to its normal exit.
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t int ignored print_text=1:profile_dir=%t.d4 2>&1 | FileCheck %s --check-prefix=IGN
// IGN-NOT: caught SIGINT
// IGN: child: exited with 0
// RUN: cat %t.d4/*.txt | FileCheck %s --check-prefix=PROF-OWN
// SIGTERM, SIGQUIT, SIGHUP: nothing by default, the profile with handle_term=1.
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t term none print_text=1:profile_dir=%t.d5 2>&1 | FileCheck %s --check-prefix=TERM-OFF
// TERM-OFF-NOT: HeapProf
// TERM-OFF: child: killed by signal 15
// RUN: not ls %t.d5
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t term none print_text=1:profile_dir=%t.d6:handle_term=1 2>&1 | FileCheck %s --check-prefix=TERM
// TERM: HeapProf: caught SIGTERM; writing the profile before the program dies
// TERM: child: killed by signal 15
// RUN: cat %t.d6/*.txt | FileCheck %s --check-prefix=PROF-TERM
// PROF-TERM: HeapProf profile: {{.*}}, SIGTERM, dump 0
// PROF-TERM: alloc_count 5, size (ave/min/max) 33.00 / 33 / 33
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t quit none print_text=1:profile_dir=%t.d7:handle_term=1 2>&1 | FileCheck %s --check-prefix=QUIT
// QUIT: HeapProf: caught SIGQUIT; writing the profile before the program dies
// QUIT: child: killed by signal 3
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t hup none print_text=1:profile_dir=%t.d8:handle_term=1 2>&1 | FileCheck %s --check-prefix=HUP
// HUP: HeapProf: caught SIGHUP; writing the profile before the program dies
// HUP: child: killed by signal 1
// With dump_signal=SIGHUP the signal is a checkpoint request, not a death.
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t hup none print_text=1:profile_dir=%t.d9:handle_term=1:dump_signal=SIGHUP 2>&1 | FileCheck %s --check-prefix=HUP-DUMP
// HUP-DUMP-NOT: caught SIGHUP
// HUP-DUMP: child: exited with 0
// RUN: ls %t.d9 | FileCheck %s --check-prefix=HUP-FILES
// HUP-FILES: heapprof.{{.*}}.1.txt
// HUP-FILES-NEXT: heapprof.{{.*}}[[#]].txt
// quick_exit: the profile, after the program's at_quick_exit handlers.
// RUN: %env_heapprof_opts=dump_at_exit=0 %run %t quick_exit none print_text=1:profile_dir=%t.d10 2>&1 | FileCheck %s --check-prefix=QUICK
// QUICK: own at_quick_exit handler ran
// QUICK: child: exited with 4
// RUN: cat %t.d10/*.txt | FileCheck %s --check-prefix=PROF-QUICK
// PROF-QUICK: HeapProf profile: {{.*}}, quick_exit, dump 0
// PROF-QUICK: alloc_count 5, size (ave/min/max) 33.00 / 33 / 33
// SIGINT on another thread while the exit profile is being written (the
// symbolizer takes a second): the exit profile is finished first.  Then
// the exiting thread's _exit and the signal race: the status is either.
// RUN: rm -f %t.mark && env HANG_MARK=%t.mark %env_heapprof_opts=dump_at_exit=0 %run %t int-at-exit none print_text=1:profile_dir=%t.d11:symbolizer_path=%S/Inputs/slow-symbolizer.sh 2>&1 | FileCheck %s --check-prefix=AT-EXIT
// AT-EXIT-NOT: caught SIGINT
// AT-EXIT: child: {{killed by signal 2|exited with 0}}
// RUN: cat %t.d11/*.txt | FileCheck %s --check-prefix=PROF-AT-EXIT
// PROF-AT-EXIT: HeapProf profile: {{.*}}, exit, dump 0
// PROF-AT-EXIT: alloc_count 5, size (ave/min/max) 33.00 / 33 / 33
#include "Inputs/profiles.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void own(int sig) {
  (void)sig;
  printf("own SIGINT handler ran\n");
  exit(3);
}

static void quick(void) {
  printf("own at_quick_exit handler ran\n");
  fflush(stdout);
}

// Waits (bounded) for the dump thread's checkpoint.
static void wait_checkpoint(void) { wait_for_profiles(".1.txt", 1); }

// Waits until the exit profile is in the symbolizer, then sends SIGINT to
// this thread (not the one writing).
static void *interrupt_exit(void *arg) {
  while (access(getenv("HANG_MARK"), F_OK) != 0)
    usleep(1000);
  raise(SIGINT);
  return arg;
}

static int child(const char *what, const char *how) {
  if (!strcmp(how, "own"))
    signal(SIGINT, own);
  void *volatile keep[5];
  for (int i = 0; i < 5; i++)
    keep[i] = malloc(33);
  if (!strcmp(what, "int-at-exit")) {
    pthread_t t;
    pthread_create(&t, 0, interrupt_exit, 0);
    return 0;
  }
  if (!strcmp(what, "quick_exit")) {
    at_quick_exit(quick);
    quick_exit(4);
  }
  int sig = !strcmp(what, "int")    ? SIGINT
            : !strcmp(what, "term") ? SIGTERM
            : !strcmp(what, "quit") ? SIGQUIT
                                    : SIGHUP;
  raise(sig);
  if (strstr(getenv("HEAPPROF_OPTIONS"), "dump_signal"))
    wait_checkpoint();
  return 0;
}

int main(int argc, char **argv) {
  if (!strcmp(argv[1], "child"))
    return child(argv[2], argv[3]);
  // WHAT HOW OPTIONS: run the child with those options and report its end.
  pid_t c = fork();
  if (c == 0) {
    // The dispositions a program starts with (lit itself runs tests with
    // SIGINT ignored); an ignored one is kept across exec, as shells do.
    signal(SIGINT, !strcmp(argv[2], "ignored") ? SIG_IGN : SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    char opts[4096];
    snprintf(opts, sizeof(opts), "print_raw=0:%s", argv[3]);
    setenv("HEAPPROF_OPTIONS", opts, 1);
    execl("/proc/self/exe", "prog", "child", argv[1], argv[2], (char *)0);
    _exit(127);
  }
  int st;
  waitpid(c, &st, 0);
  if (WIFSIGNALED(st))
    printf("child: killed by signal %d\n", WTERMSIG(st));
  else
    printf("child: exited with %d\n", WEXITSTATUS(st));
  return 0;
}
