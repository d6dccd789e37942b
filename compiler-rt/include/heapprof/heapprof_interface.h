/*===- heapprof/heapprof_interface.h - heapprof's user API ---------------===
 *
 * Part of heapprof, a sanitizer-style heap profiler.
 *
 * Include this from programs built with `heapprof-clang -fheapprof` to take
 * checkpoint profiles at chosen moments (e.g. between load-test phases) or to
 * set default options.  Every function is safe to call from any thread.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_HEAPPROF_INTERFACE_H
#define HEAPPROF_HEAPPROF_INTERFACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Writes a complete heap profile now: every allocation context with what
/// was freed since the previous dump, plus the objects live right now, as if
/// freed at this moment.  An object live across several dumps is counted
/// (alloc_count, size) in the first dump that sees it only; later dumps carry
/// just its new accesses and lifetime, so a series of dumps adds up to the
/// whole run with nothing counted twice.
///
/// \returns 0 when the profile was written, -1 otherwise (the reason is
/// printed as a `HeapProf: WARNING:` line).  A cancellation point once the
/// profile is written; never inside the writing.
int __heapprof_dump(void);

/// Starts a new profiling window: drops the records merged since the last
/// dump without writing them.  Live objects keep their allocation records.
void __heapprof_reset(void);

/// Optional hook: define it in the program to supply default options, in
/// HEAPPROF_OPTIONS syntax ("name=value:name=value").  HEAPPROF_OPTIONS in
/// the environment overrides what it returns.  It runs before heapprof's
/// allocator exists: it must not allocate memory nor call heapprof (the
/// program stops with an error if it does); return a string constant.
const char *__heapprof_default_options(void);

/// Counts one access at \p p, as if the instruction had been instrumented.
void __heapprof_record_access(const volatile void *p);

/// Counts an access to [\p p, \p p + \p size) by the range rule: one access
/// per 8-byte word the range touches.
void __heapprof_record_access_range(const volatile void *p, size_t size);

/// Makes [\p p, \p p + \p size) a root of the leak check at exit, as
/// LeakSanitizer's __lsan_register_root_region does: its readable parts
/// are read for pointers to objects like a thread's stack.  For memory
/// that holds the only pointers to some objects yet is no thread's stack,
/// no global and no live object: a coroutine stack the program switches to
/// by hand (makecontext's are known already) on memory it mapped itself,
/// an arena of its own.  A region registered twice is there twice.
void __heapprof_register_root_region(const void *p, size_t size);

/// Takes back one registration of exactly [\p p, \p p + \p size) (a
/// `HeapProf: WARNING:` line if there is none).
void __heapprof_unregister_root_region(const void *p, size_t size);

#ifdef __cplusplus
}
#endif
#endif
