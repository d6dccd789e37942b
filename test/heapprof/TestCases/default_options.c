// __heapprof_default_options() supplies defaults; HEAPPROF_OPTIONS overrides
// them; a bad option in the hook is reported as coming from the hook.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts= %run %t 2>&1 | FileCheck %s --check-prefix=HOOK
// RUN: %env_heapprof_opts=print_terse=0 %run %t 2>&1 | FileCheck %s --check-prefix=ENV
// RUN: %clang_rt_heapprof -O0 -DBAD_HOOK %s -o %t.bad
// RUN: %python %S/Inputs/exit_code.py 1 %t.bad 2>&1 | FileCheck %s --check-prefix=BAD
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>

const char *__heapprof_default_options(void) {
#ifdef BAD_HOOK
  return "log_path=stderr:print_terse=perhaps";
#else
  return "log_path=stderr:print_terse=1:print_module_map=0";
#endif
}

int main(void) {
  void *volatile p = malloc(12);
  free(p);
  fprintf(stderr, "program ran\n");
  return 0;
}
// The hook alone: terse profile on stderr, no module map.
// HOOK: program ran
// HOOK-NEXT: HeapProf profile:
// HOOK-NEXT: MIB:{{[0-9]+}}/1/12.00/12/12/
// HOOK-NOT: Process memory map

// The environment wins over the hook for print_terse; the hook's other
// options still apply.
// ENV: program ran
// ENV-NEXT: HeapProf profile:
// ENV-NEXT: Recorded MIBs
// ENV-NEXT: Memory allocation stack id = {{[0-9]+}}
// ENV-NEXT: alloc_count 1, size (ave/min/max) 12.00 / 12 / 12

// BAD: HeapProf: ERROR: invalid value 'perhaps' for option 'print_terse' in __heapprof_default_options(): expected 0, 1, true, false, yes, no, on or off
// BAD-NOT: program ran
