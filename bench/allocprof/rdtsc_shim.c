/*===- rdtsc_shim.c - time malloc and free with RDTSC and nothing else ---===
 *
 * An LD_PRELOAD library for bench/allocprof/allocators.sh: malloc and free
 * call the next definitions (the allocator preloaded after this library,
 * or glibc's) between two RDTSCs, and add the difference to per-thread
 * sums; nothing else -- no table, no stack, no shadow.  At exit it prints
 *
 *   shim_cycles_per_pair C  (malloc + free cycles over all timed calls,
 *                            per malloc+free pair)
 *   shim_offcpu N           (calls over 2^20 cycles, left out: preempted)
 *
 * to stderr: the allocator's per-call cost as the calls alone show it,
 * without heapprof's bookkeeping around them.  The bootstrap before dlsym
 * returns is a static arena.  Only malloc and free are timed (the
 * workloads call nothing else in their loops).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static void *(*next_malloc)(size_t);
static void (*next_free)(void *);

#define SLOTS 4096
static struct sums {
  uint64_t cycles, calls, offcpu;
} __attribute__((aligned(64))) sums[SLOTS]; /* a line each */
static unsigned nthreads;
static __thread struct sums *mine;

static inline uint64_t rdtsc(void) {
  uint32_t lo, hi;
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((uint64_t)hi << 32) | lo;
}

static inline void add(uint64_t c) {
  if (!mine)
    mine = &sums[__atomic_fetch_add(&nthreads, 1, __ATOMIC_RELAXED) % SLOTS];
  if (c < (1u << 20)) {
    mine->cycles += c;
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
  add(rdtsc() - t0);
  return p;
}

void free(void *p) {
  if (!p || ((char *)p >= boot && (char *)p < boot + sizeof(boot)))
    return;
  uint64_t t0 = rdtsc();
  next_free(p);
  add(rdtsc() - t0);
}

__attribute__((constructor)) static void init(void) {
  next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
  next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
}

__attribute__((destructor)) static void fini(void) {
  uint64_t c = 0, n = 0, off = 0;
  for (unsigned i = 0; i < SLOTS && i < nthreads; i++) {
    c += sums[i].cycles;
    n += sums[i].calls;
    off += sums[i].offcpu;
  }
  char buf[128];
  int len = snprintf(buf, sizeof buf,
                     "shim_cycles_per_pair %.1f\nshim_offcpu %llu\n",
                     n ? 2.0 * (double)c / (double)n : 0.0,
                     (unsigned long long)off);
  if (write(2, buf, (size_t)len) < 0)
    return;
}
