// heapprof report --fail-on-leaks: exit status 3, and one line saying what
// leaked, when the leak table is not empty, for a test or CI job; 0 when
// it is.  The program leaks 5000 widgets of 204 bytes from make_widget
// (1,020,000 bytes) and 10 gadgets of 50 bytes from make_gadget (500
// bytes) when run with an argument, nothing without, and keeps 3
// reachable 64-byte objects in a global either way.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.leaky %t.clean && mkdir -p %t.leaky %t.clean
// RUN: %env_heapprof_opts=profile_dir=%t.leaky %run %t leak
// RUN: %env_heapprof_opts=profile_dir=%t.clean %run %t
//
// The report is written as usual (to stdout or --output), then the verdict.
// RUN: %python %S/Inputs/exit-status.py heapprof report --fail-on-leaks --output %t.txt %t.leaky 2>&1 | FileCheck %s --check-prefix=LEAKY
// LEAKY: heapprof: leaks: 5010 objects, 1020500 bytes unreachable at exit, in 2 call chains (--fail-on-leaks)
// LEAKY: exit status 3
// RUN: FileCheck %s --check-prefix=REPORT < %t.txt
// REPORT: == Memory leaks: unreachable at exit
// REPORT: 996.1 KiB 100.0% 5000 996.1 KiB 0 B make_widget
// REPORT: 500 B 0.0% 10 500 B 0 B make_gadget
// RUN: %python %S/Inputs/exit-status.py heapprof report --fail-on-leaks %t.clean 2>&1 | FileCheck %s --check-prefix=CLEAN
// CLEAN-NOT: heapprof: leaks
// CLEAN: still reachable at exit, not listed: 192 bytes (192 B) in 3 objects
// CLEAN-NOT: heapprof: leaks
// CLEAN: exit status 0
//
// Suppressed contexts are not leaks; --top, which cuts the table to its
// first row, does not take the others out of the verdict.
// RUN: printf 'leak:make_widget\nleak:make_gadget\n' > %t.supp
// RUN: %python %S/Inputs/exit-status.py heapprof report --fail-on-leaks --suppressions %t.supp --output %t.supp.txt %t.leaky 2>&1 | FileCheck %s --check-prefix=SUPP
// SUPP-NOT: heapprof: leaks
// SUPP: exit status 0
// RUN: %python %S/Inputs/exit-status.py heapprof report --fail-on-leaks --top 1 --output %t.top.txt %t.leaky 2>&1 | FileCheck %s --check-prefix=LEAKY
//
// Everything live: only when asked.  Without the leak check the table is
// everything live, which would fail on memory in use: an error, exit 1.
// RUN: rm -rf %t.nocheck && mkdir -p %t.nocheck
// RUN: %env_heapprof_opts=profile_dir=%t.nocheck:detect_leaks=0 %run %t
// RUN: %python %S/Inputs/exit-status.py heapprof report --fail-on-leaks --output %t.nocheck.txt %t.nocheck 2>&1 | FileCheck %s --check-prefix=NOCHECK
// NOCHECK: heapprof: error: --fail-on-leaks: the profile has no leak check at exit (a process ran with detect_leaks=0 or in sampled mode, or its last dump is a checkpoint), so nothing tells leaked memory from memory in use; --leaks live fails on everything live at the end
// NOCHECK: exit status 1
// RUN: %python %S/Inputs/exit-status.py heapprof report --fail-on-leaks --leaks live --output %t.live.txt %t.nocheck 2>&1 | FileCheck %s --check-prefix=LIVE
// LIVE: heapprof: leaks: 3 objects, 192 bytes live at the end, in 1 call chain (--fail-on-leaks)
// LIVE: exit status 3
#include <stdlib.h>
#include <string.h>

void *kept[3];

__attribute__((noinline)) static void *make_widget(void) {
  char *w = malloc(204);
  memset(w, 0, 204);
  return w;
}

__attribute__((noinline)) static void make_gadget(void) {
  char *volatile g = malloc(50);
  g[0] = 1;
}

__attribute__((noinline)) static void keep(int i) { kept[i] = malloc(64); }

int main(int argc, char **argv) {
  for (int i = 0; i < 3; i++)
    keep(i);
  if (argc > 1) {
    for (int i = 0; i < 5000; i++)
      make_widget();
    for (int i = 0; i < 10; i++)
      make_gadget();
  }
  return 0;
}
