// Profile files are private by default (0600: they hold the memory map and
// the ASLR bases); profile_mode=640/644 widens them.  The mode is exact,
// whatever the umask.  Directories heapprof creates for profile_dir are
// 0700; an existing directory keeps its mode.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d1 %t.d2 %t.d3 %t.new && mkdir %t.d1 %t.d2 %t.d3
// RUN: sh -c 'umask 0; %env_heapprof_opts=print_text=1:profile_dir=%t.d1 %run %t'
// RUN: stat -c '%%a %%n' %t.d1/* | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: 600 {{.*}}.profraw
// DEFAULT: 600 {{.*}}.txt
// RUN: sh -c 'umask 077; %env_heapprof_opts=profile_mode=644:profile_dir=%t.d2 %run %t'
// RUN: stat -c %%a %t.d2/heapprof.file_mode.c.tmp.*.profraw | FileCheck %s --check-prefix=M644
// M644: 644
// A umask that takes the owner's bits away changes nothing either:
// RUN: rm -rf %t.d4 && mkdir %t.d4
// RUN: sh -c 'umask 0277; %env_heapprof_opts=print_text=1:profile_dir=%t.d4 %run %t'
// RUN: stat -c '%%a %%n' %t.d4/* | FileCheck %s --check-prefix=DEFAULT
// RUN: %env_heapprof_opts=profile_mode=640:profile_dir=%t.d3 %run %t
// RUN: stat -c %%a %t.d3/heapprof.file_mode.c.tmp.*.profraw | FileCheck %s --check-prefix=M640
// M640: 640
//
// Created directories: every component heapprof makes is 0700.
// RUN: sh -c 'umask 0; %env_heapprof_opts=profile_dir=%t.new/a/b %run %t'
// RUN: stat -c %%a %t.new %t.new/a %t.new/a/b | FileCheck %s --check-prefix=DIRS
// DIRS: 700
// DIRS-NEXT: 700
// DIRS-NEXT: 700
// RUN: rm -rf %t.new2 && sh -c 'umask 0777; %env_heapprof_opts=profile_dir=%t.new2/a %run %t'
// RUN: stat -c %%a %t.new2 %t.new2/a %t.new2/a/heapprof.file_mode.c.tmp.*.profraw | FileCheck %s --check-prefix=DIRS2
// DIRS2: 700
// DIRS2-NEXT: 700
// DIRS2-NEXT: 600
// RUN: ls %t.new/a/b | FileCheck %s --check-prefix=INNEW
// INNEW: heapprof.file_mode.c.tmp.{{[0-9]+}}.profraw
//
// Bad values are an error naming the option, before main runs.
// RUN: %env_heapprof_opts=profile_mode=755 not %run %t 2>&1 | FileCheck %s --check-prefix=BAD -DV=755
// RUN: %env_heapprof_opts=profile_mode=666 not %run %t 2>&1 | FileCheck %s --check-prefix=BAD -DV=666
// RUN: %env_heapprof_opts=profile_mode=rw not %run %t 2>&1 | FileCheck %s --check-prefix=JUNK
// BAD: HeapProf: ERROR: option 'profile_mode' out of range in HEAPPROF_OPTIONS (see help=1)
// BAD-NOT: in main
// JUNK: HeapProf: ERROR: invalid value 'rw' for option 'profile_mode' in HEAPPROF_OPTIONS: expected a decimal integer
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  void *volatile p = malloc(10);
  free(p);
  fprintf(stderr, "in main\n");
  return 0;
}
