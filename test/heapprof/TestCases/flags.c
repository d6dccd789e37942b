// Runtime flags: an unknown option is a warning naming it and the program
// runs; a malformed option or value is an error naming the option (and the
// value) with exit code 1 before main; values out of range likewise; help=1
// lists every flag of heapprof_flags.inc.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=no_such_flag=1:log_path=stderr %run %t 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %env_heapprof_opts=verbosity=abc %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=BAD-INT
// RUN: %env_heapprof_opts=symbolize=maybe %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=BAD-BOOL
// RUN: %env_heapprof_opts=log_path=stderr:print_text %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=NO-VALUE
// A name missing before '=' is malformed too (it was warned about as the
// unknown option '', and the program ran).
// RUN: %env_heapprof_opts=log_path=stderr:=1 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=NO-NAME
// on/off are booleans, as docs/flags.md says.
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=on:symbolize=off %run %t 2>&1 | FileCheck %s --check-prefix=EDGE
// RUN: %env_heapprof_opts=print_text=1:'log_path="abc' %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=QUOTE
// A value longer than the string options' room (9000 bytes) is named by its
// first 96 characters, and the option and the reason stay in the line.
// RUN: sh -c '%env_heapprof_opts=profile_dir=$(printf "x%%.0s" $(seq 9000)) %python %S/Inputs/exit_code.py 1 %t' 2>&1 | FileCheck %s --check-prefix=LONG
// A string option given again frees its old value's room: 1200 times
// log_path=stderr (8400 bytes of values, 7 kept) ran out of the 8 KiB and
// stopped the program with "invalid value 'stderr' ... too long".
// RUN: sh -c '%env_heapprof_opts=profile_dir=%t.unused:$(printf "log_path=stderr:%%.0s" $(seq 1200))help=1 %run %t' 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: %env_heapprof_opts=hib_table_ways=17 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-WAYS
// RUN: %env_heapprof_opts=hib_table_sets=0 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-SETS
// RUN: %env_heapprof_opts=malloc_context_size=256 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-CTX
// RUN: %env_heapprof_opts=max_allocation_size_mb=-1 %python %S/Inputs/exit_code.py 1 %t 2>&1 | FileCheck %s --check-prefix=RANGE-MAX
// Edge values are accepted.
// RUN: %env_heapprof_opts=log_path=stderr:malloc_context_size=255:hib_table_ways=16:hib_table_sets=1 %run %t 2>&1 | FileCheck %s --check-prefix=EDGE
// RUN: %env_heapprof_opts=log_path=stderr:malloc_context_size=1:hib_table_ways=1 %run %t 2>&1 | FileCheck %s --check-prefix=EDGE
// help=1 lists every flag with its value and description, and the program runs.
// RUN: %python %S/Inputs/flag_checks.py %heapprof_src_root/compiler-rt/lib/heapprof/heapprof_flags.inc > %t.checks
// RUN: %env_heapprof_opts=help=1:log_path=stderr %run %t 2>&1 | FileCheck %t.checks
// RUN: %env_heapprof_opts=help=1:log_path=stderr %run %t 2>&1 | FileCheck %s --check-prefix=HELP
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  void *volatile p = malloc(10);
  free(p);
  fprintf(stderr, "program ran\n");
  return 0;
}
// UNKNOWN: HeapProf: WARNING: unknown option 'no_such_flag' in HEAPPROF_OPTIONS (ignored; HEAPPROF_OPTIONS=help=1 lists them)
// UNKNOWN-NEXT: program ran
// UNKNOWN-NEXT: HeapProf profile:

// BAD-INT: HeapProf: ERROR: invalid value 'abc' for option 'verbosity' in HEAPPROF_OPTIONS: expected a decimal integer
// BAD-INT-NOT: program ran
// BAD-BOOL: HeapProf: ERROR: invalid value 'maybe' for option 'symbolize' in HEAPPROF_OPTIONS: expected 0, 1, true, false, yes, no, on or off
// BAD-BOOL-NOT: program ran
// NO-VALUE: HeapProf: ERROR: malformed option 'print_text' in HEAPPROF_OPTIONS: expected name=value
// NO-VALUE-NOT: program ran
// NO-NAME: HeapProf: ERROR: malformed option '=1' in HEAPPROF_OPTIONS: expected name=value
// NO-NAME-NOT: program ran
// LONG: HeapProf: ERROR: invalid value '{{(x){96}\.\.\.}}' for option 'profile_dir' in HEAPPROF_OPTIONS: too long (the string options share 8 KiB){{$}}
// LONG-NOT: program ran
// QUOTE: HeapProf: ERROR: unterminated quote in option 'log_path' in HEAPPROF_OPTIONS
// QUOTE-NOT: program ran
// RANGE-WAYS: HeapProf: ERROR: option 'hib_table_ways' out of range in HEAPPROF_OPTIONS
// RANGE-WAYS-NOT: program ran
// RANGE-SETS: HeapProf: ERROR: option 'hib_table_sets' out of range in HEAPPROF_OPTIONS
// RANGE-CTX: HeapProf: ERROR: option 'malloc_context_size' out of range in HEAPPROF_OPTIONS
// RANGE-MAX: HeapProf: ERROR: option 'max_allocation_size_mb' out of range in HEAPPROF_OPTIONS

// REPEAT-NOT: HeapProf: ERROR
// REPEAT: {{^  }}log_path="stderr"
// REPEAT: {{^  }}profile_dir="{{.*}}.unused"
// REPEAT: program ran

// EDGE-NOT: HeapProf: ERROR
// EDGE: program ran
// EDGE: Summary: 1 contexts, 1 allocations, 10 bytes

// HELP: Available flags for HeapProf (HEAPPROF_OPTIONS=name=value:...), with their current values:
// HELP-NEXT: {{^  }}help=true
// HELP-NEXT: {{^      - }}Print every flag
// HELP: program ran
