// dump_signal accepts SIGUSR1, SIGUSR2, SIGHUP, SIGPROF and the real-time
// signals, by name or number; it refuses, naming the option and the reason,
// signals that report a crash, ask the program to stop, cannot be caught, or
// that the kernel or the C library send for their own purpose.  The refused
// ones exit before main with status 1.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=dump_signal=SIGKILL not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGKILL --match-full-lines
// RSIGKILL: HeapProf: ERROR: invalid value 'SIGKILL' for option 'dump_signal': SIGKILL cannot be caught; expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=9 not %run %t 2>&1 | FileCheck %s --check-prefix=R9 --match-full-lines
// R9: HeapProf: ERROR: invalid value '9' for option 'dump_signal': SIGKILL cannot be caught; expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=KILL not %run %t 2>&1 | FileCheck %s --check-prefix=RKILL --match-full-lines
// RKILL: HeapProf: ERROR: invalid value 'KILL' for option 'dump_signal': SIGKILL cannot be caught; expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGSTOP not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGSTOP --match-full-lines
// RSIGSTOP: HeapProf: ERROR: invalid value 'SIGSTOP' for option 'dump_signal': SIGSTOP cannot be caught; expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=19 not %run %t 2>&1 | FileCheck %s --check-prefix=R19 --match-full-lines
// R19: HeapProf: ERROR: invalid value '19' for option 'dump_signal': SIGSTOP cannot be caught; expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGSEGV not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGSEGV --match-full-lines
// RSIGSEGV: HeapProf: ERROR: invalid value 'SIGSEGV' for option 'dump_signal': SIGSEGV reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=11 not %run %t 2>&1 | FileCheck %s --check-prefix=R11 --match-full-lines
// R11: HeapProf: ERROR: invalid value '11' for option 'dump_signal': SIGSEGV reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGBUS not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGBUS --match-full-lines
// RSIGBUS: HeapProf: ERROR: invalid value 'SIGBUS' for option 'dump_signal': SIGBUS reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=7 not %run %t 2>&1 | FileCheck %s --check-prefix=R7 --match-full-lines
// R7: HeapProf: ERROR: invalid value '7' for option 'dump_signal': SIGBUS reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGFPE not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGFPE --match-full-lines
// RSIGFPE: HeapProf: ERROR: invalid value 'SIGFPE' for option 'dump_signal': SIGFPE reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=8 not %run %t 2>&1 | FileCheck %s --check-prefix=R8 --match-full-lines
// R8: HeapProf: ERROR: invalid value '8' for option 'dump_signal': SIGFPE reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGILL not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGILL --match-full-lines
// RSIGILL: HeapProf: ERROR: invalid value 'SIGILL' for option 'dump_signal': SIGILL reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=4 not %run %t 2>&1 | FileCheck %s --check-prefix=R4 --match-full-lines
// R4: HeapProf: ERROR: invalid value '4' for option 'dump_signal': SIGILL reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGABRT not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGABRT --match-full-lines
// RSIGABRT: HeapProf: ERROR: invalid value 'SIGABRT' for option 'dump_signal': SIGABRT reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=6 not %run %t 2>&1 | FileCheck %s --check-prefix=R6 --match-full-lines
// R6: HeapProf: ERROR: invalid value '6' for option 'dump_signal': SIGABRT reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGTRAP not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGTRAP --match-full-lines
// RSIGTRAP: HeapProf: ERROR: invalid value 'SIGTRAP' for option 'dump_signal': SIGTRAP reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=5 not %run %t 2>&1 | FileCheck %s --check-prefix=R5 --match-full-lines
// R5: HeapProf: ERROR: invalid value '5' for option 'dump_signal': SIGTRAP reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGSYS not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGSYS --match-full-lines
// RSIGSYS: HeapProf: ERROR: invalid value 'SIGSYS' for option 'dump_signal': SIGSYS reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=31 not %run %t 2>&1 | FileCheck %s --check-prefix=R31 --match-full-lines
// R31: HeapProf: ERROR: invalid value '31' for option 'dump_signal': SIGSYS reports a crash and the program must die of it (handle_segv and handle_abort write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGINT not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGINT --match-full-lines
// RSIGINT: HeapProf: ERROR: invalid value 'SIGINT' for option 'dump_signal': SIGINT asks the program to stop (handle_int and handle_term write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=2 not %run %t 2>&1 | FileCheck %s --check-prefix=R2 --match-full-lines
// R2: HeapProf: ERROR: invalid value '2' for option 'dump_signal': SIGINT asks the program to stop (handle_int and handle_term write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGTERM not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGTERM --match-full-lines
// RSIGTERM: HeapProf: ERROR: invalid value 'SIGTERM' for option 'dump_signal': SIGTERM asks the program to stop (handle_int and handle_term write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=15 not %run %t 2>&1 | FileCheck %s --check-prefix=R15 --match-full-lines
// R15: HeapProf: ERROR: invalid value '15' for option 'dump_signal': SIGTERM asks the program to stop (handle_int and handle_term write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGQUIT not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGQUIT --match-full-lines
// RSIGQUIT: HeapProf: ERROR: invalid value 'SIGQUIT' for option 'dump_signal': SIGQUIT asks the program to stop (handle_int and handle_term write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=3 not %run %t 2>&1 | FileCheck %s --check-prefix=R3 --match-full-lines
// R3: HeapProf: ERROR: invalid value '3' for option 'dump_signal': SIGQUIT asks the program to stop (handle_int and handle_term write the profile then); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGCHLD not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGCHLD --match-full-lines
// RSIGCHLD: HeapProf: ERROR: invalid value 'SIGCHLD' for option 'dump_signal': SIGCHLD has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=17 not %run %t 2>&1 | FileCheck %s --check-prefix=R17 --match-full-lines
// R17: HeapProf: ERROR: invalid value '17' for option 'dump_signal': SIGCHLD has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGPIPE not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGPIPE --match-full-lines
// RSIGPIPE: HeapProf: ERROR: invalid value 'SIGPIPE' for option 'dump_signal': SIGPIPE has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=13 not %run %t 2>&1 | FileCheck %s --check-prefix=R13 --match-full-lines
// R13: HeapProf: ERROR: invalid value '13' for option 'dump_signal': SIGPIPE has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGALRM not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGALRM --match-full-lines
// RSIGALRM: HeapProf: ERROR: invalid value 'SIGALRM' for option 'dump_signal': SIGALRM has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=14 not %run %t 2>&1 | FileCheck %s --check-prefix=R14 --match-full-lines
// R14: HeapProf: ERROR: invalid value '14' for option 'dump_signal': SIGALRM has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGCONT not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGCONT --match-full-lines
// RSIGCONT: HeapProf: ERROR: invalid value 'SIGCONT' for option 'dump_signal': SIGCONT has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=18 not %run %t 2>&1 | FileCheck %s --check-prefix=R18 --match-full-lines
// R18: HeapProf: ERROR: invalid value '18' for option 'dump_signal': SIGCONT has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGTSTP not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGTSTP --match-full-lines
// RSIGTSTP: HeapProf: ERROR: invalid value 'SIGTSTP' for option 'dump_signal': SIGTSTP has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=20 not %run %t 2>&1 | FileCheck %s --check-prefix=R20 --match-full-lines
// R20: HeapProf: ERROR: invalid value '20' for option 'dump_signal': SIGTSTP has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=SIGWINCH not %run %t 2>&1 | FileCheck %s --check-prefix=RSIGWINCH --match-full-lines
// RSIGWINCH: HeapProf: ERROR: invalid value 'SIGWINCH' for option 'dump_signal': SIGWINCH has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=28 not %run %t 2>&1 | FileCheck %s --check-prefix=R28 --match-full-lines
// R28: HeapProf: ERROR: invalid value '28' for option 'dump_signal': SIGWINCH has a meaning of its own (the kernel or the C library sends it); expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=32 not %run %t 2>&1 | FileCheck %s --check-prefix=R32 --match-full-lines
// R32: HeapProf: ERROR: invalid value '32' for option 'dump_signal': signal 32 is reserved by the C library's threads; expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=33 not %run %t 2>&1 | FileCheck %s --check-prefix=R33 --match-full-lines
// R33: HeapProf: ERROR: invalid value '33' for option 'dump_signal': signal 33 is reserved by the C library's threads; expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// RUN: %env_heapprof_opts=dump_signal=0x not %run %t 2>&1 | FileCheck %s --check-prefix=NOTSIG -DV=0x
// RUN: %env_heapprof_opts=dump_signal=SIGNOPE not %run %t 2>&1 | FileCheck %s --check-prefix=NOTSIG -DV=SIGNOPE
// RUN: %env_heapprof_opts=dump_signal=65 not %run %t 2>&1 | FileCheck %s --check-prefix=NOTSIG -DV=65
// RUN: %env_heapprof_opts=dump_signal=0 not %run %t 2>&1 | FileCheck %s --check-prefix=NOTSIG -DV=0
// RUN: %env_heapprof_opts=dump_signal=-1 not %run %t 2>&1 | FileCheck %s --check-prefix=NOTSIG -DV=-1
// RUN: %env_heapprof_opts=dump_signal=SIGRTMIN+31 not %run %t 2>&1 | FileCheck %s --check-prefix=NOTSIG -DV=SIGRTMIN+31
// RUN: %env_heapprof_opts=dump_signal=SIGRTMAX-31 not %run %t 2>&1 | FileCheck %s --check-prefix=NOTSIG -DV=SIGRTMAX-31
// RUN: %env_heapprof_opts=dump_signal=SIGRTMIN-1 not %run %t 2>&1 | FileCheck %s --check-prefix=NOTSIG -DV=SIGRTMIN-1
// RUN: %env_heapprof_opts=dump_signal=RTMIN+x not %run %t 2>&1 | FileCheck %s --check-prefix=NOTSIG -DV=RTMIN+x
// NOTSIG: HeapProf: ERROR: invalid value '[[V]]' for option 'dump_signal': not a signal; expected SIGUSR1, SIGUSR2, SIGHUP, SIGPROF or SIGRTMIN+n, by name or number
// Accepted: each writes one checkpoint when the program raises it (argv[1]
// is the number the program raises: SIGUSR1 10, SIGUSR2 12, SIGHUP 1,
// SIGPROF 27; "rtmin+N" / "rtmax" for the real-time ones).
// RUN: rm -rf %t.a0 && %env_heapprof_opts=dump_signal=SIGUSR1:profile_dir=%t.a0 %run %t 10 && ls %t.a0 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a1 && %env_heapprof_opts=dump_signal=USR1:profile_dir=%t.a1 %run %t 10 && ls %t.a1 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a2 && %env_heapprof_opts=dump_signal=10:profile_dir=%t.a2 %run %t 10 && ls %t.a2 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a3 && %env_heapprof_opts=dump_signal=SIGUSR2:profile_dir=%t.a3 %run %t 12 && ls %t.a3 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a4 && %env_heapprof_opts=dump_signal=SIGHUP:profile_dir=%t.a4 %run %t 1 && ls %t.a4 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a5 && %env_heapprof_opts=dump_signal=1:profile_dir=%t.a5 %run %t 1 && ls %t.a5 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a6 && %env_heapprof_opts=dump_signal=SIGPROF:profile_dir=%t.a6 %run %t 27 && ls %t.a6 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a7 && %env_heapprof_opts=dump_signal=SIGRTMIN:profile_dir=%t.a7 %run %t rtmin+0 && ls %t.a7 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a8 && %env_heapprof_opts=dump_signal=SIGRTMIN+2:profile_dir=%t.a8 %run %t rtmin+2 && ls %t.a8 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a9 && %env_heapprof_opts=dump_signal=RTMIN+2:profile_dir=%t.a9 %run %t rtmin+2 && ls %t.a9 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a10 && %env_heapprof_opts=dump_signal=SIGRTMAX:profile_dir=%t.a10 %run %t rtmax && ls %t.a10 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a11 && %env_heapprof_opts=dump_signal=SIGRTMAX-0:profile_dir=%t.a11 %run %t rtmax && ls %t.a11 | FileCheck %s --check-prefix=ACCEPTED
// RUN: rm -rf %t.a12 && %env_heapprof_opts=dump_signal=64:profile_dir=%t.a12 %run %t rtmax && ls %t.a12 | FileCheck %s --check-prefix=ACCEPTED
// ACCEPTED: heapprof.{{.*}}.1.profraw
// ACCEPTED-NEXT: heapprof.{{.*}}[[#]].profraw
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int checkpoints(void) {
  const char *d = strstr(getenv("HEAPPROF_OPTIONS"), "profile_dir=") + 12;
  DIR *dir = opendir(d);
  int n = 0;
  for (struct dirent *e; dir && (e = readdir(dir));)
    n += strstr(e->d_name, ".1.profraw") != 0;
  if (dir)
    closedir(dir);
  return n;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 0; // refused options exit before main
  char *volatile p = malloc(24);
  p[0] = 1;
  int sig = !strncmp(argv[1], "rtmin+", 6) ? SIGRTMIN + atoi(argv[1] + 6)
            : !strcmp(argv[1], "rtmax")      ? SIGRTMAX
                                             : atoi(argv[1]);
  raise(sig);
  // The dump thread writes the checkpoint; wait for it (bounded).
  for (int i = 0; i < 1000 && !checkpoints(); i++)
    usleep(10000);
  return 0;
}
