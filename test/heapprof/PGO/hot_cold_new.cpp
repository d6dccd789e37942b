// The hot/cold operator new variants that -mllvm -optimize-hot-cold-new
// emits are heapprof's, and the hint reaches the allocator: a cold hint
// (below 128) puts the object in the primary's cold regions, far from every
// other chunk; notcold (128) and hot (254) stay in the ordinary ones.  The
// program declares __hot_cold_t and the operators itself, as libstdc++ does
// not.  print_stats counts cold_allocs.
// RUN: %clangxx_heapprof -O0 %s -o %t
// RUN: rm -rf %t.dir
// RUN: %env_heapprof_opts=profile_dir=%t.dir:print_text=1:print_raw=0:print_stats=1 %run %t 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: FileCheck %s --check-prefix=PROF < %t.dir/heapprof.hot_cold_new.cpp.tmp.*.txt
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>

enum class __hot_cold_t : std::uint8_t;
void *operator new(std::size_t, __hot_cold_t);
void *operator new[](std::size_t, __hot_cold_t);
void *operator new(std::size_t, const std::nothrow_t &, __hot_cold_t) noexcept;
void *operator new[](std::size_t, const std::nothrow_t &, __hot_cold_t) noexcept;
void *operator new(std::size_t, std::align_val_t, __hot_cold_t);
void *operator new[](std::size_t, std::align_val_t, __hot_cold_t);
void *operator new(std::size_t, std::align_val_t, const std::nothrow_t &,
                   __hot_cold_t) noexcept;
void *operator new[](std::size_t, std::align_val_t, const std::nothrow_t &,
                     __hot_cold_t) noexcept;

static const __hot_cold_t kCold = __hot_cold_t(1);
static const __hot_cold_t kNotCold = __hot_cold_t(128);
static const __hot_cold_t kHot = __hot_cold_t(254);

// The region size of heapprof's primary: chunks of different regions are at
// least this far apart.
static const std::uintptr_t kRegion = std::uintptr_t(1) << 35;

static std::uintptr_t dist(void *a, void *b) {
  std::uintptr_t x = (std::uintptr_t)a, y = (std::uintptr_t)b;
  return x > y ? x - y : y - x;
}

__attribute__((noinline)) void *make_cold(std::size_t n) {
  return operator new(n, kCold);
}

int main() {
  // All eight forms with a cold hint: 8 cold allocations.
  void *c1 = make_cold(48);
  void *c2 = operator new[](48, kCold);
  void *c3 = operator new(48, std::nothrow, kCold);
  void *c4 = operator new[](48, std::nothrow, kCold);
  void *c5 = operator new(48, std::align_val_t(64), kCold);
  void *c6 = operator new[](48, std::align_val_t(4096), kCold);
  void *c7 = operator new(48, std::align_val_t(64), std::nothrow, kCold);
  void *c8 = operator new[](48, std::align_val_t(64), std::nothrow, kCold);
  // Same size, other hints and no hint: ordinary regions.
  void *h = operator new(48, kHot);
  void *nc = operator new[](48, kNotCold);
  void *plain = operator new(48);
  void *m = malloc(48);

  void *cold[] = {c1, c2, c3, c4, c5, c6, c7, c8};
  int bad = 0;
  for (void *c : cold) {
    if (!c)
      bad++;
    if (dist(c, h) < kRegion || dist(c, nc) < kRegion ||
        dist(c, plain) < kRegion || dist(c, m) < kRegion)
      bad++;
  }
  // Same class, same region for the ordinary ones.
  if (dist(h, nc) >= kRegion || dist(h, plain) >= kRegion)
    bad++;
  if ((std::uintptr_t)c5 % 64 || (std::uintptr_t)c6 % 4096)
    bad++;
  printf("misplaced: %d\n", bad);

  // A freed cold block is reused by the next cold allocation of its class.
  operator delete(c1);
  void *again = make_cold(48);
  printf("cold block reused: %d\n", again == c1);

  operator delete(again);
  operator delete[](c2);
  operator delete(c3);
  operator delete[](c4);
  operator delete(c5, std::align_val_t(64));
  operator delete[](c6, std::align_val_t(4096));
  operator delete(c7, std::align_val_t(64));
  operator delete[](c8, std::align_val_t(64));
  operator delete(h);
  operator delete[](nc);
  operator delete(plain);
  free(m);
  return 0;
}
// CHECK: misplaced: 0
// CHECK: cold block reused: 1
// 8 forms + the reuse: 9 cold allocations.
// STATS: cold_allocs 9 allocations served from cold regions

// The cold chunks are profiled like any other, from their caller's frame:
// make_cold's two calls are two contexts.
// PROF: #0 {{.*}} in make_cold
// PROF: #0 {{.*}} in make_cold
