/*===- heapprof_deepbind.h - libraries opened with RTLD_DEEPBIND --------===
 *
 * Part of heapprof.  See heapprof_deepbind.c.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_DEEPBIND_H
#define HEAPPROF_DEEPBIND_H

/* Set (for good) before the first dlopen with RTLD_DEEPBIND goes to the
 * loader.  From then on a pointer outside every mapping of heapprof's that
 * the program frees, reallocates or measures may be a block of glibc's the
 * library took before heapprof could redirect its calls. */
extern bool hp_deepbind_opened;

static HP_ALWAYS_INLINE bool hp_deepbind_any(void) {
  return HP_UNLIKELY(__atomic_load_n(&hp_deepbind_opened, __ATOMIC_ACQUIRE));
}

/* glibc's own free, realloc and malloc_usable_size, for such a block
 * (resolved before hp_deepbind_opened is set). */
void hp_deepbind_glibc_free(void *p);
void *hp_deepbind_glibc_realloc(void *p, uptr size);
uptr hp_deepbind_glibc_usable_size(void *p);

#endif
