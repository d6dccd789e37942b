/*===- heapprof_interface_internal.h - compiler <-> runtime ABI -----------===
 *
 * Part of heapprof, a sanitizer-style heap profiler.
 *
 * Exactly the symbols instrumented code (the HeapProfiler pass and the
 * heapprof-clang driver) relies on.  Changing any of them is an ABI change:
 * bump HEAPPROF_ABI_VERSION, rename __heapprof_version_mismatch_check_vN, and
 * update the pass in the same commit.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_INTERFACE_INTERNAL_H
#define HEAPPROF_INTERFACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#define HEAPPROF_ABI_VERSION 1

#define HP_INTERFACE __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/* Called from the module constructor the pass emits (priority 1), and lazily
 * from the first allocation.  Idempotent. */
HP_INTERFACE void __heapprof_init(void);

/* Empty; the pass emits a call so that objects built for another ABI version
 * fail to link instead of miscounting. */
HP_INTERFACE void __heapprof_version_mismatch_check_v1(void);

/* Shadow base: counter(a) = ((a & ~63) >> 3) + base, one u64 per 64 bytes.
 * Loaded once per instrumented function. */
HP_INTERFACE extern uintptr_t __heapprof_shadow_memory_dynamic_address;

/* Callbacks mode (-heapprof-use-callbacks): one access at addr. */
HP_INTERFACE void __heapprof_load(uintptr_t addr);
HP_INTERFACE void __heapprof_store(uintptr_t addr);

/* -heapprof-false-sharing: called for every instrumented store, besides
 * its counter update; records the writing thread for active false sharing
 * (heapprof_falseshare.h).  Does nothing unless false_sharing=1. */
HP_INTERFACE void __heapprof_false_sharing_store(uintptr_t addr);

/* The pass replaces llvm.memcpy/memmove/memset with these.  They count both
 * ranges by the range rule (one access per 8-byte word touched) and then do
 * the operation. */
HP_INTERFACE void *__heapprof_memcpy(void *dst, const void *src, size_t n);
HP_INTERFACE void *__heapprof_memmove(void *dst, const void *src, size_t n);
HP_INTERFACE void *__heapprof_memset(void *dst, int c, size_t n);

/* -heapprof-strided-loops: a loop's walk, recorded at the loop's exit
 * instead of one counter update per access.  total = n * each for the n
 * accesses at base + k * stride, k < n (two's complement, as the inline
 * update computes it); adds `each` to the counter of every one's granule:
 * the counts the n inline updates would have made.  (The pass keeps total,
 * not n, in the loop: nothing to compute from it at the exit.)
 * preserve_all: the caller keeps all its registers, vector ones included,
 * so a loop in a leaf function needs no saves and no stack for it.  Added to ABI version 1 without
 * a bump: an object that calls it and an older runtime fail to link on
 * this name. */
HP_INTERFACE __attribute__((preserve_all)) void
__heapprof_record_strided(uintptr_t base, intptr_t stride, uint64_t total,
                          uint64_t each);

/* Manual annotations (also used by the range interceptors). */
HP_INTERFACE void __heapprof_record_access(const volatile void *p);
HP_INTERFACE void __heapprof_record_access_range(const volatile void *p,
                                                 size_t size);

/* -fheapprof=DIR: the pass emits a weak COMDAT NUL-terminated constant with
 * this name holding DIR.  The runtime takes its address through a weak
 * reference: NULL when no instrumented module defined it. */
extern const char __heapprof_profile_dir[] __attribute__((weak));

#ifdef __cplusplus
}
#endif
#endif
