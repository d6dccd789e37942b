/*===- heapprof_mallinfo.c - mallinfo and mallinfo2 ---------------------===
 *
 * Part of heapprof.  glibc's mallinfo2 describes glibc's arenas, which
 * heapprof's allocator does not use: a program that asks how much heap it
 * has (LLVM's -time-passes, gold's --stats, systemd's status) read zeros
 * under it.  These describe heapprof's allocator in glibc's terms:
 *   arena     bytes of blocks carved from the size-class regions
 *   uordblks  of those, the blocks in use (with their chunk headers)
 *   fordblks  of those, the free ones (thread caches, spans' free lists)
 *   ordblks   free blocks on the spans' free lists (cached ones not counted)
 *   hblks     large chunks (each in a mapping of its own)
 *   hblkhd    their mappings' bytes
 *   smblks, usmblks, fsmblks, keepcost  0: no fastbins, no top chunk
 * Read while other threads allocate, as glibc's are: statistics.  When
 * another allocator serves the program (allocator=system|PATH, or sampled
 * mode on glibc's) the next definition answers: glibc's, or the library's.
 * mallinfo is the same with int fields, truncated as glibc's are.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <dlfcn.h>
#include <malloc.h>

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
