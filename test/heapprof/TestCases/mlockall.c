// mlockall(MCL_CURRENT) locks every mapping into memory.  heapprof's
// reservations (the shadow and the allocator's regions, 19 TiB of address
// space) made it fail with ENOMEM for a user under RLIMIT_MEMLOCK, where
// the program alone succeeds; with CAP_IPC_LOCK (root) the kernel would
// fault the 19 TiB in.  mlockall is interposed: the program's mappings and
// its heap are locked, heapprof's reservations are not, and MCL_FUTURE
// goes to the kernel.
//
// Run as nobody (no CAP_IPC_LOCK: a regression fails instead of filling
// the machine's memory) with RLIMIT_MEMLOCK 8 MiB.  Before mlockall the
// program allocates 64 bytes (heapprof: a block of a size class region;
// glibc: the brk heap) and 200,000 bytes (a mapping of its own); after it
// 300,000 bytes (MCL_FUTURE: locked when mapped) and 3,000 bytes (heapprof:
// a size class used for the first time, its span locked by the allocator,
// since the regions were reserved before).  The pages of all four are
// locked, and less than 8 MiB is (the limit held).  A checkpoint after it
// works: the first checkpoint reserves 16 TiB for its baselines, which
// MCL_FUTURE would lock; mlockall reserves them before.
// REQUIRES: root
// RUN: %clang_heapprof -O1 -g %s -o %t
// RUN: %clang_plain -O1 -g %s -o %t-plain
// RUN: rm -rf %t.d %t.r && mkdir -p %t.d %t.r && chown 65534 %t.d %t.r
// RUN: prlimit --memlock=8388608 setpriv --reuid=65534 --regid=65534 --clear-groups %t-plain | FileCheck %s
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.d prlimit --memlock=8388608 setpriv --reuid=65534 --regid=65534 --clear-groups %t | FileCheck %s
// RUN: ls %t.d | FileCheck %s --check-prefix=FILE
// RUN: env -u LD_PRELOAD prlimit --memlock=8388608 setpriv --reuid=65534 --regid=65534 --clear-groups heapprof run -o %t.r -- %t-plain | FileCheck %s
// RUN: ls %t.r | FileCheck %s --check-prefix=FILE
// CHECK: mlockall: ok
// CHECK-NEXT: 64 bytes locked: yes
// CHECK-NEXT: 200000 bytes locked: yes
// CHECK-NEXT: 300000 bytes locked: yes
// CHECK-NEXT: 3000 bytes locked: yes
// CHECK-NEXT: locked in all under 8 MiB: yes
// FILE: .1.profraw
// FILE: .profraw
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The "Locked:" kB of the mapping holding p, from /proc/self/smaps. */
static long locked_kb(const void *p) {
  FILE *f = fopen("/proc/self/smaps", "r");
  char line[512];
  int in = 0;
  long kb = -1;
  unsigned long a = (unsigned long)p;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') &&
        line[0] != ' ') {
      in = a >= lo && a < hi;
      continue;
    }
    if (in && sscanf(line, "Locked: %ld kB", &kb) == 1)
      break;
  }
  fclose(f);
  return kb;
}

static long status_kb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, key, strlen(key)))
      sscanf(line + strlen(key), " %ld", &kb);
  fclose(f);
  return kb;
}

static void *keep[4];
/* heapprof's, when the program runs with it (either runtime). */
extern int __heapprof_dump(void) __attribute__((weak));

int main(void) {
  keep[0] = malloc(64);
  memset(keep[0], 1, 64);
  keep[1] = malloc(200000);
  memset(keep[1], 2, 200000);
  if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
    printf("mlockall: %s\n", strerror(errno));
    return 1;
  }
  printf("mlockall: ok\n");
  keep[2] = malloc(300000);
  memset(keep[2], 3, 300000);
  keep[3] = malloc(3000);
  memset(keep[3], 4, 3000);
  if (__heapprof_dump && __heapprof_dump() != 0)
    printf("checkpoint failed\n");
  const long sizes[4] = {64, 200000, 300000, 3000};
  for (int i = 0; i < 4; i++)
    printf("%ld bytes locked: %s\n", sizes[i],
           locked_kb(keep[i]) > 0 ? "yes" : "no");
  long lck = status_kb("VmLck:");
  printf("locked in all under 8 MiB: %s\n",
         lck > 0 && lck < 8192 ? "yes" : "no");
  return 0;
}
