// Options of heapprof's own allocator do nothing when another allocator
// serves the program (allocator=system|PATH, or sampled mode on glibc), and
// were silently ignored: junk_fill=1 left glibc's bytes, and
// allocator_may_return_null=0 still returned NULL for a request glibc
// cannot meet. Now one warning at start names them; the program runs as
// before. Left at their defaults (even when named), nothing is said.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: env HEAPPROF_OPTIONS=dump_at_exit=0:allocator=system:junk_fill=1:allocator_may_return_null=0 %t 2>&1 | FileCheck %s --check-prefix=SYSTEM
// RUN: env -u LD_PRELOAD HEAPPROF_OPTIONS=dump_at_exit=0:junk_fill=1:allocator_may_return_null=0 heapprof run --allocator=system -- %t.plain 2>&1 | FileCheck %s --check-prefix=SYSTEM
// RUN: env HEAPPROF_OPTIONS=dump_at_exit=0:sample_bytes=1000:sample_seed=1:zero_fill=1 %t 2>&1 | FileCheck %s --check-prefix=SAMPLED
// RUN: env HEAPPROF_OPTIONS=dump_at_exit=0:allocator=system:junk_fill=0:realloc_in_place=1 %t 2>&1 | FileCheck %s --check-prefix=QUIET
// On heapprof's allocator they apply: no warning, a fresh chunk reads
// 0xd0, and the failure is reported and aborts.
// RUN: env HEAPPROF_OPTIONS=dump_at_exit=0:junk_fill=1:allocator_may_return_null=0 not --crash %t 2>&1 | FileCheck %s --check-prefix=OWN
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  unsigned char *volatile p = malloc(64);
  int junk = 1;
  for (int i = 0; i < 64; i++)
    junk &= p[i] == 0xd0;
  fprintf(stderr, "junk %d\n", junk);
  void *volatile huge = malloc((size_t)1 << 56); /* 64 PiB: fails */
  fprintf(stderr, "huge %s\n", huge ? "ok" : "NULL");
  free(p);
  return 0;
}
// SYSTEM: HeapProf: WARNING: allocator=system: allocator_may_return_null, junk_fill have no effect: options of heapprof's own allocator, which does not serve the program here (docs/flags.md)
// SYSTEM-NEXT: junk {{[01]}}
// SYSTEM-NEXT: huge NULL
// SAMPLED: HeapProf: WARNING: sampled mode (sample_bytes): zero_fill has no effect: an option of heapprof's own allocator, which does not serve the program here (docs/flags.md)
// SAMPLED-NEXT: junk
// QUIET-NOT: WARNING
// QUIET: huge NULL
// OWN-NOT: WARNING
// OWN: junk 1
// OWN-NEXT: HeapProf: ERROR: allocation-size-too-big
