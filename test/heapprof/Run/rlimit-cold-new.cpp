// A program at a memory limit it set itself frees what it allocated and
// allocates again through the hot/cold operator new hinted cold (what
// -mllvm -optimize-hot-cold-new makes of a context the profile found
// cold), whose blocks come from a cold region of their own.  A refill of
// an ordinary class that the limit refuses gives the heap's free pages
// back and tries again (Run/rlimit-heap-reuse.c); a cold block's did not:
// the freed blocks of the first fill still counted against the limit, and
// the cold fill got nothing ("cold fill ... no").  Now it is tried again
// after the same trim, so, as for blocks of any other kind:
//  - first fill: blocks of 4,064 bytes by malloc until it fails, within
//    the budget (between 128 MiB and 256 MiB of them);
//  - all freed, blocks of 4,064 bytes by operator new hinted cold until
//    the nothrow form returns nullptr: at least 95% of the first fill's
//    bytes (the same size, the same class, in another region: only the
//    first size's thread cache, up to 256 KiB, is not given back), and no
//    more than the budget.
// RUN: %clangxx_heapprof -O0 %s -o %t
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.d %t as 2> %t.aerr | FileCheck %s
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.d %t data 2> %t.derr | FileCheck %s
// RUN: not grep HeapProf %t.aerr %t.derr
// CHECK: first fill within the budget: yes
// CHECK-NEXT: cold fill after freeing: yes
// CHECK-NEXT: cold fill within the budget: yes
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <sys/resource.h>

#include "Inputs/own_limit.h"

// libstdc++ 12 declares none of these; heapprof's runtime defines them.
enum class __hot_cold_t : std::uint8_t;
void *operator new(std::size_t, const std::nothrow_t &, __hot_cold_t) noexcept;
void operator delete(void *) noexcept;

#define MAX_BLOCKS 200000
static void *volatile blocks[MAX_BLOCKS];

static const char *yes(bool c) { return c ? "yes" : "no"; }

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IONBF, 0); // no buffer: no malloc but ours
  set_own_limit(argc, argv);
  const long budget = 256l << 20;
  long n = 0;
  while (n < MAX_BLOCKS && (blocks[n] = malloc(4064)))
    n++;
  long first = n * 4064l;
  printf("first fill within the budget: %s\n",
         yes(first >= budget / 2 && first <= budget));
  for (long i = 0; i < n; i++)
    free(blocks[i]);
  long m = 0;
  while (m < MAX_BLOCKS &&
         (blocks[m] = operator new(4064, std::nothrow, (__hot_cold_t)1)))
    m++;
  long cold = m * 4064l;
  printf("cold fill after freeing: %s\n", yes(cold >= first / 100 * 95));
  printf("cold fill within the budget: %s\n", yes(cold <= budget));
  for (long i = 0; i < m; i++)
    operator delete(blocks[i]);
  return 0;
}
