/*===- rdtsc_shim.c - time malloc and free with RDTSC and nothing else ---===
 *
 * An LD_PRELOAD library for bench/allocprof/allocators.sh: malloc and free
 * call the next definitions (the allocator preloaded after this library,
 * or glibc's) between two RDTSCs, and add the difference to per-thread
 * sums; nothing else -- no table, no stack, no shadow.  At exit it prints
 *
 *   shim_cycles_per_pair C  (malloc + free cycles over all timed calls,
 *                            per malloc+free pair)
 *   shim_malloc_per_pair M  (the malloc calls' part of C)
 *   shim_free_per_pair F    (the free calls' part of C)
 *   shim_offcpu N           (calls over 2^20 cycles, left out: preempted)
 *
 * to stderr: the allocator's per-call cost as the calls alone show it,
 * without heapprof's bookkeeping around them.  A pipeline whose
 * allocating and freeing sides are different threads (xmalloc) runs at
 * the pace of the dearer side, which the sum hides (docs/performance.md,
 * round 9).  The bootstrap before dlsym returns is a static arena.  Only
 * malloc and free are timed (the workloads call nothing else in their
 * loops).
 *
 * For experiments, RDTSC_SHIM_SPIN_MALLOC=C and RDTSC_SHIM_SPIN_FREE=C spin
 * C TSC cycles after each malloc or free, outside the timed window: work
 * of a profiler's size around each call with no profiler in it (round 12
 * measured what that does to the calls it times).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *(*next_malloc)(size_t);
static void (*next_free)(void *);

#define SLOTS 4096
static struct sums {
  uint64_t cycles[2], calls, offcpu; /* cycles: [0] malloc, [1] free */
} __attribute__((aligned(64))) sums[SLOTS]; /* a line each */
static unsigned nthreads;
static __thread struct sums *mine;

static inline uint64_t rdtsc(void) {
  uint32_t lo, hi;
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((uint64_t)hi << 32) | lo;
}

/* RDTSC_SHIM_SPIN_*: set once by init. */
static uint64_t spin_malloc, spin_free;
static inline void spin(uint64_t c) {
  for (uint64_t t = c ? rdtsc() : 0; c && rdtsc() - t < c;)
    ;
}

static inline void add(uint64_t c, int is_free) {
  if (!mine)
    mine = &sums[__atomic_fetch_add(&nthreads, 1, __ATOMIC_RELAXED) % SLOTS];
  if (c < (1u << 20)) {
    mine->cycles[is_free] += c;
    mine->calls++;
  } else {
    mine->offcpu++;
  }
}

static _Alignas(16) char boot[1 << 16];
static size_t boot_used;

void *malloc(size_t n) {
  if (!next_malloc) {
    void *p = boot + boot_used;
    boot_used += (n + 15) & ~(size_t)15;
    return boot_used <= sizeof(boot) ? p : NULL;
  }
  uint64_t t0 = rdtsc();
  void *p = next_malloc(n);
  add(rdtsc() - t0, 0);
  spin(spin_malloc);
  return p;
}

void free(void *p) {
  if (!p || ((char *)p >= boot && (char *)p < boot + sizeof(boot)))
    return;
  uint64_t t0 = rdtsc();
  next_free(p);
  add(rdtsc() - t0, 1);
  spin(spin_free);
}

__attribute__((constructor)) static void init(void) {
  next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
  const char *m = getenv("RDTSC_SHIM_SPIN_MALLOC");
  const char *f = getenv("RDTSC_SHIM_SPIN_FREE");
  spin_malloc = m ? strtoull(m, NULL, 10) : 0;
  spin_free = f ? strtoull(f, NULL, 10) : 0;
  next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
}

__attribute__((destructor)) static void fini(void) {
  uint64_t c[2] = {0, 0}, n = 0, off = 0;
  for (unsigned i = 0; i < SLOTS && i < nthreads; i++) {
    c[0] += sums[i].cycles[0];
    c[1] += sums[i].cycles[1];
    n += sums[i].calls;
    off += sums[i].offcpu;
  }
  double pairs = n / 2.0;
  char buf[192];
  int len = snprintf(buf, sizeof buf,
                     "shim_cycles_per_pair %.1f\nshim_malloc_per_pair %.1f\n"
                     "shim_free_per_pair %.1f\nshim_offcpu %llu\n",
                     n ? (double)(c[0] + c[1]) / pairs : 0.0,
                     n ? (double)c[0] / pairs : 0.0,
                     n ? (double)c[1] / pairs : 0.0,
                     (unsigned long long)off);
  if (write(2, buf, (size_t)len) < 0)
    return;
}
