/*===- heapprof_mallinfo.c - glibc's heap statistics and malloc_trim ----===
 *
 * Part of heapprof.  glibc's mallinfo2, malloc_stats and malloc_info
 * describe glibc's arenas, which heapprof's allocator does not use: a
 * program that asks how much heap it has (LLVM's -time-passes, gold's
 * --stats, systemd's status) read zeros under it, and its malloc_trim
 * trimmed nothing.  These describe heapprof's allocator in glibc's terms:
 *   arena     bytes of blocks carved from the size-class regions
 *   uordblks  of those, the blocks in use (with their chunk headers)
 *   fordblks  of those, the free ones (thread caches, spans' free lists)
 *   ordblks   free blocks on the spans' free lists (cached ones not counted)
 *   hblks     large chunks (each in a mapping of its own)
 *   hblkhd    their mappings' bytes
 *   smblks, usmblks, fsmblks, keepcost  0: no fastbins, no top chunk
 * malloc_stats prints them as glibc's does (one arena: the regions);
 * malloc_info writes glibc's XML, one <size> per size class with free
 * blocks on the spans' lists; malloc_trim gives the calling thread's
 * cached blocks back and every page that only free blocks overlap to the
 * kernel.  Read while other threads allocate, as glibc's are: statistics.
 * When another allocator serves the program (allocator=system|PATH, or
 * sampled mode on glibc's) the next definition answers: glibc's, or the
 * library's.  mallinfo is mallinfo2 with int fields, truncated as glibc's
 * are.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdio.h>

static struct mallinfo2 heapprof_info(void) {
  hp_alloc_books_t b;
  hp_allocator_books(&b);
  struct mallinfo2 m;
  hp_memset(&m, 0, sizeof(m));
  m.arena = b.carved;
  m.ordblks = b.free_blocks;
  m.hblks = b.large;
  m.hblkhd = b.large_bytes;
  m.uordblks = b.carved - b.free_bytes;
  m.fordblks = b.free_bytes;
  return m;
}

/* The next definition of name (glibc's, or the allocator library's). */
static void *next_of(void **cache, const char *name) {
  void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
  if (!f) {
    f = dlsym(RTLD_NEXT, name);
    __atomic_store_n(cache, f, __ATOMIC_RELEASE);
  }
  return f;
}

HP_INTERFACE struct mallinfo2 mallinfo2(void) {
  if (HP_FOREIGN_HOOK()) {
    static void *next;
    struct mallinfo2 (*f)(void) =
        (struct mallinfo2 (*)(void))next_of(&next, "mallinfo2");
    if (f)
      return f();
    struct mallinfo2 none;
    hp_memset(&none, 0, sizeof(none));
    return none;
  }
  return heapprof_info();
}

HP_INTERFACE struct mallinfo mallinfo(void) {
  if (HP_FOREIGN_HOOK()) {
    static void *next;
    struct mallinfo (*f)(void) =
        (struct mallinfo (*)(void))next_of(&next, "mallinfo");
    if (f)
      return f();
    struct mallinfo none;
    hp_memset(&none, 0, sizeof(none));
    return none;
  }
  struct mallinfo2 m = heapprof_info();
  struct mallinfo i;
  i.arena = (int)m.arena;
  i.ordblks = (int)m.ordblks;
  i.smblks = (int)m.smblks;
  i.hblks = (int)m.hblks;
  i.hblkhd = (int)m.hblkhd;
  i.usmblks = (int)m.usmblks;
  i.fsmblks = (int)m.fsmblks;
  i.uordblks = (int)m.uordblks;
  i.fordblks = (int)m.fordblks;
  i.keepcost = (int)m.keepcost;
  return i;
}

/* ------------------------------------------------------- malloc_trim */

HP_INTERFACE int malloc_trim(size_t pad) {
  if (HP_FOREIGN_HOOK()) {
    static void *next;
    int (*f)(size_t) = (int (*)(size_t))next_of(&next, "malloc_trim");
    return f ? f(pad) : 0;
  }
  /* pad is the free space glibc leaves at its heap's top; heapprof's
   * regions have no top, and a free page anywhere is given back. */
  return hp_allocator_trim() != 0;
}

/* ------------------------------------------------------ malloc_stats */

HP_INTERFACE void malloc_stats(void) {
  if (HP_FOREIGN_HOOK()) {
    static void *next;
    void (*f)(void) = (void (*)(void))next_of(&next, "malloc_stats");
    if (f)
      f();
    return;
  }
  hp_alloc_books_t b;
  hp_allocator_books(&b);
  u64 in_use = b.carved - b.free_bytes;
  hp_printf("Arena 0:\n"
            "system bytes     = %10llu\n"
            "in use bytes     = %10llu\n"
            "Total (incl. mmap):\n"
            "system bytes     = %10llu\n"
            "in use bytes     = %10llu\n"
            "max mmap regions = %10llu\n"
            "max mmap bytes   = %10llu\n",
            (unsigned long long)b.carved, (unsigned long long)in_use,
            (unsigned long long)(b.carved + b.large_bytes),
            (unsigned long long)(in_use + b.large_bytes),
            (unsigned long long)b.large_max,
            (unsigned long long)b.large_bytes_max);
}

/* ------------------------------------------------------- malloc_info */

typedef struct class_free {
  u64 count, bytes;
  u32 size;
} class_free_t;

static void count_class(u32 class_id, uptr beg, uptr carved, u64 nfree,
                        u32 size, void *arg) {
  (void)beg;
  (void)carved;
  class_free_t *c = &((class_free_t *)arg)[class_id % HP_NUM_CLASSES];
  c->count += nfree; /* a cold region's free blocks join its twin's */
  c->bytes += nfree * size;
  c->size = size;
}

static void put(FILE *fp, const char *fmt, ...) HP_FORMAT(2, 3);
/* Formats without allocating (the fputs may, as glibc's own does). */
static void put(FILE *fp, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = hp_vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  HP_CHECK(n >= 0 && (size_t)n < sizeof(buf));
  fputs(buf, fp);
}

HP_INTERFACE int malloc_info(int options, FILE *fp) {
  if (HP_FOREIGN_HOOK()) {
    static void *next;
    int (*f)(int, FILE *) =
        (int (*)(int, FILE *))next_of(&next, "malloc_info");
    if (f)
      return f(options, fp);
    errno = ENOSYS;
    return -1;
  }
  if (options != 0)
    return EINVAL; /* as glibc's: the value, errno untouched */
  class_free_t classes[HP_NUM_CLASSES];
  hp_memset(classes, 0, sizeof(classes));
  hp_primary_for_each_region(count_class, classes);
  hp_alloc_books_t b;
  hp_allocator_books(&b);
  typedef unsigned long long ull;
  u64 count = 0, bytes = 0;
  put(fp, "<malloc version=\"1\">\n<heap nr=\"0\">\n<sizes>\n");
  for (u32 c = 1, from = 1; c < HP_NUM_CLASSES; c++) {
    u32 to = hp_class_sizes[c];
    if (classes[c].count)
      put(fp, "  <size from=\"%u\" to=\"%u\" total=\"%llu\" count=\"%llu\"/>\n",
          from, to, (ull)classes[c].bytes, (ull)classes[c].count);
    count += classes[c].count;
    bytes += classes[c].bytes;
    from = to + 1;
  }
  put(fp,
      "</sizes>\n<total type=\"fast\" count=\"0\" size=\"0\"/>\n"
      "<total type=\"rest\" count=\"%llu\" size=\"%llu\"/>\n"
      "<system type=\"current\" size=\"%llu\"/>\n"
      "<system type=\"max\" size=\"%llu\"/>\n"
      "<aspace type=\"total\" size=\"%llu\"/>\n"
      "<aspace type=\"mprotect\" size=\"%llu\"/>\n</heap>\n",
      (ull)count, (ull)bytes, (ull)b.carved, (ull)b.carved, (ull)b.carved,
      (ull)b.carved);
  put(fp,
      "<total type=\"fast\" count=\"0\" size=\"0\"/>\n"
      "<total type=\"rest\" count=\"%llu\" size=\"%llu\"/>\n"
      "<total type=\"mmap\" count=\"%llu\" size=\"%llu\"/>\n"
      "<system type=\"current\" size=\"%llu\"/>\n"
      "<system type=\"max\" size=\"%llu\"/>\n"
      "<aspace type=\"total\" size=\"%llu\"/>\n"
      "<aspace type=\"mprotect\" size=\"%llu\"/>\n</malloc>\n",
      (ull)count, (ull)bytes, (ull)b.large, (ull)b.large_bytes, (ull)b.carved,
      (ull)b.carved, (ull)b.carved, (ull)b.carved);
  return 0;
}
