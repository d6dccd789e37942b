// A mapping the exit profile needs, refused under an address-space or
// data-size limit: the warning names the limit, and whose it is.  A limit
// the process started with counts heapprof's ~19 TiB of reservations, and
// the warning says so; a limit the program set itself has them added
// (heapprof_rlimit.c, Run/rlimit-lowered.c), so reaching it is the
// program's own doing, and the warning said "heapprof's reservations
// among it" for it too.
//
// The program maps what its limit leaves (halving from 1 GiB down to one
// page: nothing is left), then exits; its exit profile's records need a
// mapping, which is refused.
// RUN: %clang_plain -O0 %s -o %t
//
// Its own limit of 256 MiB (268435456 bytes), address space or data.
// RUN: rm -rf %t.d && heapprof run -o %t.d -- %t set-as 2> %t.as-err | FileCheck %s --check-prefixes=SET,OUT
// RUN: FileCheck %s --check-prefix=SET-AS < %t.as-err
// SET-AS: HeapProf: WARNING: out of memory while gathering the profile's records and modules (a mapping was refused: the process reached the address-space limit (ulimit -v, RLIMIT_AS) the program set itself, 268435456 bytes (heapprof adds its reservations to it; its other memory counts)); not written
// RUN: rm -rf %t.d && heapprof run -o %t.d -- %t set-data 2> %t.data-err | FileCheck %s --check-prefixes=SET,OUT
// RUN: FileCheck %s --check-prefix=SET-DATA < %t.data-err
// SET-DATA: HeapProf: WARNING: out of memory while gathering the profile's records and modules (a mapping was refused: the process reached the data-size limit (ulimit -d, RLIMIT_DATA) the program set itself, 268435456 bytes (heapprof adds its reservations to it; its other memory counts)); not written
// RUN: not grep -q "heapprof's reservations among it" %t.as-err %t.data-err
//
// A limit it started with, 21 TiB (the least heapprof run starts under is
// 20 TiB): 21 x 2^40 = 23089744183296 bytes, ulimit -v 22548578304 (KiB).
// The reservations are among what it counts.
// RUN: rm -rf %t.d && sh -c 'ulimit -v 22548578304 && heapprof run -o %t.d -- %t inherited-as' 2> %t.in-err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=INHERITED < %t.in-err
// INHERITED: HeapProf: WARNING: out of memory while gathering the profile's records and modules (a mapping was refused: the address-space limit (ulimit -v, RLIMIT_AS) is 23089744183296 bytes, below the address space the process has mapped, heapprof's reservations among it); not written
// RUN: not grep -q "the program set itself" %t.in-err
//
// A checkpoint needs 16 TiB more for its baselines (HP_SHADOW_SIZE: 2^47
// >> 3), the first time: a -fheapprof program (the static runtime; under
// heapprof run a program has no shadow, and so no baseline).  Under the
// 21 TiB it started with, ~19 TiB reserved, they do not fit.  A program
// that sets nothing is told that limit; one that lowers its own to 256 MiB
// has the reservations added, but the baseline, tried first, was refused
// by the 21 TiB: its limit was raised without it, and the warning says so.
// __heapprof_dump() returns -1 both times, and the program goes on.
// RUN: %clang_heapprof -O0 %s -o %t.inst
// RUN: rm -rf %t.c && sh -c 'ulimit -v 22548578304 && env HEAPPROF_OPTIONS=profile_dir=%t.c %t.inst ckpt' 2> %t.ck-err | FileCheck %s --check-prefix=CKPT-OUT
// RUN: FileCheck %s --check-prefix=CKPT < %t.ck-err
// CKPT: HeapProf: WARNING: checkpoint 1 (checkpoint) not written: a mapping was refused: the address-space limit (ulimit -v, RLIMIT_AS) is 23089744183296 bytes, below the address space the process has mapped, heapprof's reservations among it
// RUN: rm -rf %t.c && sh -c 'ulimit -v 22548578304 && env HEAPPROF_OPTIONS=profile_dir=%t.c %t.inst ckpt-set-as' 2> %t.cks-err | FileCheck %s --check-prefixes=CKPT-LIMIT,CKPT-OUT
// RUN: FileCheck %s --check-prefix=CKPT-SET < %t.cks-err
// CKPT-SET: HeapProf: WARNING: checkpoint 1 (checkpoint) not written: a mapping was refused: the address-space limit (ulimit -v, RLIMIT_AS) the program set itself is 268435456 bytes, and heapprof added its reservations to it but not the checkpoints' baseline (16 TiB of address space), which could not be reserved when the limit was set
// CKPT-LIMIT: limit 268435456
// CKPT-OUT: dump -1
// CKPT-OUT-NEXT: done
//
// The program reads back the limit it set, as without heapprof.
// SET: limit 268435456
// OUT: filled
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

int __heapprof_dump(void) __attribute__((weak));

int main(int argc, char **argv) {
  const char *mode = argv[1];
  int data = strstr(mode, "data") != NULL;
  int res = data ? RLIMIT_DATA : RLIMIT_AS;
  if (strstr(mode, "set")) {
    struct rlimit r = {256ull << 20, 256ull << 20};
    if (setrlimit(res, &r)) {
      perror("setrlimit");
      return 1;
    }
    struct rlimit g;
    getrlimit(res, &g);
    printf("limit %llu\n", (unsigned long long)g.rlim_cur);
  }
  if (!strncmp(mode, "ckpt", 4)) {
    printf("dump %d\n", __heapprof_dump ? __heapprof_dump() : -2);
    printf("done\n");
    return 0;
  }
  printf("filled\n");
  fflush(stdout);
  /* Private writable mappings count against both limits; never touched,
   * MAP_NORESERVE: address space, no memory. */
  for (size_t s = 1ull << 30; s >= 4096;) {
    if (mmap(NULL, s, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
             0) == MAP_FAILED)
      s /= 2;
  }
  return 0;
}
