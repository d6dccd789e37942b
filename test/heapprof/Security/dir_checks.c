// A profile directory others can change is refused: in it, anyone could put
// their own file in the profile's place.  Accepted: owned by this user or
// root, and writable only by the owner (or by our own group), or sticky
// like /tmp.  A refused profile goes to stderr with a warning that names
// the directory and the reason.
// REQUIRES: root
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.ww %t.sticky %t.grp %t.owngrp %t.other && mkdir %t.ww %t.sticky %t.grp %t.owngrp %t.other
//
// World-writable without the sticky bit: refused, for profile_dir and for
// the directory of a log_path prefix.
// RUN: chmod 777 %t.ww
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.ww %run %t 2>&1 | FileCheck %s --check-prefixes=WW,FALLBACK -DDIR=%t.ww
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:log_path=%t.ww/prof %run %t 2>&1 | FileCheck %s --check-prefixes=WW,FALLBACK -DDIR=%t.ww
// WW: HeapProf: WARNING: cannot write profile '[[DIR]]/{{.*}}.txt': directory '[[DIR]]' is writable by others and not sticky; writing it to stderr instead
// RUN: ls %t.ww | count 0
//
// Group-writable, group not ours: refused.
// RUN: chgrp nogroup %t.grp && chmod 775 %t.grp
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.grp %run %t 2>&1 | FileCheck %s --check-prefixes=GRP,FALLBACK -DDIR=%t.grp
// GRP: HeapProf: WARNING: cannot write profile '[[DIR]]/{{.*}}.txt': directory '[[DIR]]' is writable by group {{[0-9]+}} and not sticky; writing it to stderr instead
// RUN: ls %t.grp | count 0
//
// Owned by another user: refused.
// RUN: chown nobody %t.other
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.other %run %t 2>&1 | FileCheck %s --check-prefixes=OTHER,FALLBACK -DDIR=%t.other
// OTHER: HeapProf: WARNING: cannot write profile '[[DIR]]/{{.*}}.txt': directory '[[DIR]]' is owned by uid {{[0-9]+}}, not by this user or root; writing it to stderr instead
// RUN: ls %t.other | count 0
//
// Sticky and world-writable (like /tmp), or group-writable by our own
// group: written.
// RUN: chmod 1777 %t.sticky && chmod 775 %t.owngrp
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.sticky %run %t 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:log_path=%t.sticky/prof %run %t 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.owngrp %run %t 2>&1 | FileCheck %s --check-prefix=OK
// OK-NOT: WARNING
// OK: in main
// OK-NOT: WARNING
// RUN: ls %t.sticky | count 2
// RUN: ls %t.owngrp | count 1
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  void *volatile p = malloc(10);
  free(p);
  fprintf(stderr, "in main\n");
  return 0;
}

// The warning, then the profile on stderr.
// FALLBACK-NEXT: HeapProf profile:
// FALLBACK: Summary: 1 contexts, 1 allocations, 10 bytes
