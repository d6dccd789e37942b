/*===- heapprof_internal.h - heapprof's private umbrella header ----------===
 *
 * Part of heapprof, a sanitizer-style heap profiler.
 *
 * Basic types and macros every runtime file uses, then the per-file headers,
 * grouped by the file that defines them.  Nothing in here is visible outside
 * the runtime: the archive is built with -fvisibility=hidden and only
 * HP_INTERFACE symbols (the __heapprof_* ABI and the libc/C++ replacement
 * set) are exported.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_INTERNAL_H
#define HEAPPROF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__heapprof__) || __has_feature(heapprof)
#error "The heapprof runtime must not be built with -fheapprof"
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
typedef uintptr_t uptr;

#define HP_LIKELY(x) __builtin_expect(!!(x), 1)
#define HP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define HP_NOINLINE __attribute__((noinline))
#define HP_ALWAYS_INLINE inline __attribute__((always_inline))
#define HP_NORETURN __attribute__((noreturn))
/* A tail call the compiler must make a jump (the callee's type must be the
 * caller's): heapprof_interceptors.c's entry points. */
#define HP_MUSTTAIL __attribute__((musttail))
#define HP_WEAK __attribute__((weak))
#define HP_FORMAT(f, a) __attribute__((format(printf, f, a)))
#define HP_TLS __attribute__((tls_model("initial-exec"))) __thread
#define HP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define HP_ROUND_UP(x, a) (((x) + (a)-1) & ~((uptr)(a)-1))
#define HP_ROUND_DOWN(x, a) ((x) & ~((uptr)(a)-1))
#define HP_MIN(a, b) ((a) < (b) ? (a) : (b))
#define HP_MAX(a, b) ((a) > (b) ? (a) : (b))

/* HP_CHECK is always on: a failed check prints where and dies.  HP_DCHECK
 * costs nothing in release builds. */
#define HP_CHECK(c)                                                          \
  do {                                                                       \
    if (HP_UNLIKELY(!(c)))                                                   \
      hp_check_failed(__FILE__, __LINE__, #c);                               \
  } while (0)
#ifdef HEAPPROF_DEBUG
#define HP_DCHECK(c) HP_CHECK(c)
#else
#define HP_DCHECK(c) ((void)0)
#endif

#define HP_PAGE_SIZE 4096u

/* An entry point that calls a libc function which may allocate
 * (pthread_create; dlopen with RTLD_DEEPBIND): its frames, in a section of
 * their own, are heapprof's and not the program's, and stacks are shown
 * without them (heapprof_stackdepot.c). */
#define HP_WRAPPER __attribute__((section("hp_wrappers"), noinline))
extern const char __start_hp_wrappers[] __attribute__((weak, visibility("hidden")));
extern const char __stop_hp_wrappers[] __attribute__((weak, visibility("hidden")));
/* pc: a return address, or one less. */
static inline bool hp_in_wrapper(uptr pc) {
  return pc > (uptr)__start_hp_wrappers && pc <= (uptr)__stop_hp_wrappers;
}

/* The runtime's own globals live in sections of their own, which the leak
 * check does not take for roots (heapprof_leaks.c): its tables hold
 * addresses that are no pointers of the program's -- the ring of large
 * chunks unmapped lately holds a start a later chunk may get, which made
 * that chunk and all it points to read as reachable. */
#pragma clang section bss = "heapprof_bss" data = "heapprof_data"

#include "heapprof_interface_internal.h"
#include "heapprof/heapprof_interface.h"
#include "heapprof_libc.h"
#include "heapprof_secure.h"
#include "heapprof_flags.h"
#include "heapprof_clock.h"
#include "heapprof_resident.h"
#include "heapprof_shadow.h"
#include "heapprof_stack.h"
#include "heapprof_stackdepot.h"
#include "heapprof_chunk.h"
#include "heapprof_hib.h"
#include "heapprof_hib_table.h"
#include "heapprof_allocator.h"
#include "heapprof_opclass.h"
#include "heapprof_syscalls.h"
#include "heapprof_pmu.h"
#include "heapprof_timeline.h"
#include "heapprof_peak.h"
#include "heapprof_thread.h"
#include "heapprof_foreign.h"
#include "heapprof_report.h"
#include "heapprof_procmap.h"
#include "heapprof_symbolize.h"
#include "heapprof_profile_text.h"
#include "heapprof_profile_raw.h"
#include "heapprof_rtl.h"
#include "heapprof_interceptors.h"
#include "heapprof_util.h"
#include "heapprof_falseshare.h"
#include "heapprof_faults.h"
#include "heapprof_sample.h"
#include "heapprof_ownstack.h"
#include "heapprof_ownalloc.h"
#include "heapprof_mlock.h"
#include "heapprof_deepbind.h"
#include "heapprof_fork.h"
#include "heapprof_rlimit.h"
#include "heapprof_spawn.h"

#endif
