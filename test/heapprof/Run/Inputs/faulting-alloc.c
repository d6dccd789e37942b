// An "allocator library" for sampled-quick-calls.c: glibc's allocator
// under its own names, except for two sizes of its own.  A malloc of 333
// bytes takes a page of a pool mapped when the library loads and writes
// to it: one page fault in the call, and no system call.  A malloc of 4000
// bytes maps a page and does not touch it: one mmap in the call, and no
// fault.  free of either unmaps its page: one munmap in the call.  A
// realloc to 4000 bytes (of a 16-byte block of glibc's) maps a page and
// copies the 16 bytes into it: one mmap and one fault in the call.  Their
// blocks are kept in a small registry, so free never mistakes one of
// glibc's for one of its own.
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

void *__libc_malloc(size_t);
void __libc_free(void *);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);

enum { POOL = 64, MAX_OWN = 256 };
static char *pool;
static int pool_used;
static char *own[MAX_OWN];

__attribute__((constructor)) static void map_pool(void) {
  pool = mmap(NULL, POOL * 4096, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void *own_block(size_t n) {
  for (int i = 0; i < MAX_OWN; i++)
    if (!own[i]) {
      char *page;
      if (n == 333) {
        if (pool == MAP_FAILED || pool_used == POOL)
          return NULL;
        page = pool + 4096 * pool_used++;
        page[0] = 1; /* the call's page fault */
      } else {
        page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED)
          return NULL;
      }
      own[i] = page;
      return page + 64;
    }
  return NULL;
}

void *malloc(size_t n) {
  return n == 333 || n == 4000 ? own_block(n) : __libc_malloc(n);
}

void free(void *p) {
  for (int i = 0; p && i < MAX_OWN; i++)
    if (own[i] && own[i] + 64 == (char *)p) {
      munmap(own[i], 4096);
      own[i] = NULL;
      return;
    }
  __libc_free(p);
}

void *calloc(size_t n, size_t s) { return __libc_calloc(n, s); }
void *realloc(void *p, size_t n) {
  if (n != 4000)
    return __libc_realloc(p, n);
  char *q = own_block(n);
  if (q && p) {
    memcpy(q, p, 16);
    __libc_free(p);
  }
  return q;
}
void *memalign(size_t a, size_t n) { return __libc_memalign(a, n); }
