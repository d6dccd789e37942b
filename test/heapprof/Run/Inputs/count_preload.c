/* An LD_PRELOAD allocation counter, the reference for heapprof run's counts:
 * counts the allocations and frees that reach malloc, calloc, realloc,
 * posix_memalign, aligned_alloc, memalign and free (calling the next
 * definitions through dlsym(RTLD_NEXT)), and writes
 *   count-preload: allocs A frees F
 * to the file named by COUNT_PRELOAD_OUT at exit.  realloc(NULL, n) is one
 * allocation, realloc(p, n) a free and an allocation (heapprof counts it so),
 * realloc(p, 0) a free; free(NULL) is nothing.  dlsym's own allocations
 * (before the real functions are known) come from a static buffer and are
 * not counted: they are the counter's, not the program's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static unsigned long allocs, frees;
static char boot[4096];
static size_t boot_used;
static int resolving;

static void resolve(void) {
  if (real_malloc || resolving)
    return;
  resolving = 1;
  real_malloc = dlsym(RTLD_NEXT, "malloc");
  real_calloc = dlsym(RTLD_NEXT, "calloc");
  real_realloc = dlsym(RTLD_NEXT, "realloc");
  real_free = dlsym(RTLD_NEXT, "free");
  real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
  real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
  real_memalign = dlsym(RTLD_NEXT, "memalign");
  resolving = 0;
}

static void *boot_alloc(size_t n) {
  void *p = boot + boot_used;
  boot_used += (n + 15) & ~(size_t)15;
  return p;
}
static int is_boot(void *p) {
  return (char *)p >= boot && (char *)p < boot + sizeof(boot);
}

void *malloc(size_t n) {
  resolve();
  if (!real_malloc)
    return boot_alloc(n);
  void *p = real_malloc(n);
  if (p)
    __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
  return p;
}
void *calloc(size_t a, size_t b) {
  resolve();
  if (!real_calloc)
    return boot_alloc(a * b); /* zeroed: static */
  void *p = real_calloc(a, b);
  if (p)
    __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
  return p;
}
void *realloc(void *old, size_t n) {
  resolve();
  void *p = real_realloc(old, n);
  if (old && (p || !n))
    __atomic_add_fetch(&frees, 1, __ATOMIC_RELAXED);
  if (p)
    __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
  return p;
}
void free(void *p) {
  if (!p || is_boot(p))
    return;
  resolve();
  __atomic_add_fetch(&frees, 1, __ATOMIC_RELAXED);
  real_free(p);
}
int posix_memalign(void **out, size_t al, size_t n) {
  resolve();
  int r = real_posix_memalign(out, al, n);
  if (!r)
    __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
  return r;
}
void *aligned_alloc(size_t al, size_t n) {
  resolve();
  void *p = real_aligned_alloc(al, n);
  if (p)
    __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
  return p;
}
void *memalign(size_t al, size_t n) {
  resolve();
  void *p = real_memalign(al, n);
  if (p)
    __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
  return p;
}

/* Read at start: a program may empty its environment before it exits
 * (php does), and the count would go nowhere. */
static const char *out;
__attribute__((constructor)) static void read_out(void) {
  out = getenv("COUNT_PRELOAD_OUT");
}

__attribute__((destructor(101))) static void report(void) {
  if (!out)
    return;
  char line[128];
  int n = snprintf(line, sizeof(line), "count-preload: allocs %lu frees %lu\n",
                   allocs, frees);
  int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    write(fd, line, (size_t)n);
    close(fd);
  }
}
