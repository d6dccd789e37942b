/*===- heapprof_new_delete.c - C++ operator new and delete --------------===
 *
 * Part of heapprof; built into its own archive, heapprof_cxx, linked only
 * into C++ programs.  Written in C by their Itanium-mangled names, so the
 * runtime needs no libstdc++.  All 20 replaceable forms:
 *
 *   new      _Znwm  _ZnwmRKSt9nothrow_t  _ZnwmSt11align_val_t
 *            _ZnwmSt11align_val_tRKSt9nothrow_t   (and _Znam... for new[])
 *   delete   _ZdlPv _ZdlPvRKSt9nothrow_t _ZdlPvm _ZdlPvSt11align_val_t
 *            _ZdlPvSt11align_val_tRKSt9nothrow_t _ZdlPvmSt11align_val_t
 *            (and _Zda... for delete[])
 *
 * Plus the 8 hot/cold forms LLVM's -optimize-hot-cold-new emits for
 * allocation sites a memory profile classified (docs/pgo.md): the same four
 * new and four new[] with a trailing __hot_cold_t byte (an enum class over
 * uint8_t: cold 1, notcold 128, hot 254), e.g. _Znwm12__hot_cold_t.
 * libstdc++ does not define them; heapprof does, and a hint below 128 puts
 * the object in the allocator's cold regions (heapprof_allocator_primary.c).
 *
 * A new that cannot allocate does what the standard asks of the library's
 * own operator new: it calls the program's new_handler and retries while
 * there is one; with none left the throwing forms throw std::bad_alloc and
 * the nothrow forms return NULL.  A new_handler that throws makes a nothrow
 * new return NULL.  The throw and that catch are C++, in
 * heapprof_new_throw.cpp; this file is compiled with unwind tables so the
 * exception passes through its frames.  allocator_may_return_null=0 turns
 * "no new_handler left" into an out-of-memory report and an abort instead,
 * for both forms (as it does for malloc's NULL).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

typedef void (*new_handler_t)(void);
/* std::get_new_handler().  Weak: the preloaded runtime (libheapprof_rt.so)
 * has no libstdc++ dependency, and only C++ programs, which load it, call
 * operator new. */
extern new_handler_t _ZSt15get_new_handlerv(void) HP_WEAK;

/* heapprof_new_throw.cpp */
HP_NORETURN void hp_throw_bad_alloc(void);
bool hp_call_new_handler_nothrow(new_handler_t handler);

typedef struct nothrow_t nothrow_t;

/* hint: the __hot_cold_t byte, or NO_HINT for the plain forms. */
#define NO_HINT 0x100

static HP_ALWAYS_INLINE void *new_impl(uptr size, uptr align, u8 kind,
                                       bool nothrow, uptr fp, uptr hint) {
  for (;;) {
    void *p = hint == NO_HINT
                  ? hp_allocate(size, align, kind, fp, false)
                  : hp_allocate_hinted(size, align, kind, fp, (u8)hint);
    if (HP_LIKELY(p))
      return p;
    new_handler_t h = _ZSt15get_new_handlerv();
    if (!h)
      break;
    if (!nothrow)
      h(); /* may throw through this frame */
    else if (!hp_call_new_handler_nothrow(h))
      return NULL;
  }
  if (!hp_flags.allocator_may_return_null)
    hp_report_new_failed(size, fp);
  if (nothrow)
    return NULL;
  hp_throw_bad_alloc();
}

/* Sampled mode (heapprof_sample.h): an unsampled new is the countdown and
 * glibc's malloc, a delete of a glibc block glibc's free, inline as in
 * malloc and free (heapprof_interceptors.c).  Through new_impl and
 * hp_deallocate, a C++ program's unsampled new+delete ran about 210
 * instructions of heapprof's (docs/performance.md, "Sampled mode").  A
 * sampled new, an aligned one, a failure (new_handler, bad_alloc) and a
 * delete of a sampled object take the general path.  A failed malloc
 * gives its bytes back to the countdown, so the general path's decision
 * after a failure is the one it would have made. */
static HP_ALWAYS_INLINE void *sampled_new(uptr size) {
  if (!hp_sample_skip(size))
    return NULL;
  void *p = __libc_malloc(size);
  if (HP_UNLIKELY(!p))
    hp_sample_left += hp_sample_cost(size); /* as if never counted */
  return p;
}

#define NEW(name, kind, align_arg, nothrow, params, align_expr)              \
  HP_INTERFACE void *name params {                                           \
    if (!(align_arg) && HP_SAMPLED_MODE()) {                                    \
      void *p = sampled_new(size);                                           \
      if (HP_LIKELY(p))                                                      \
        return p;                                                            \
    }                                                                        \
    return new_impl(size, align_expr, kind, nothrow, HP_ENTRY_FP(), NO_HINT); \
  }

NEW(_Znwm, HP_ALLOC_NEW, 0, false, (size_t size), 0)
NEW(_Znam, HP_ALLOC_NEW_ARRAY, 0, false, (size_t size), 0)
NEW(_ZnwmRKSt9nothrow_t, HP_ALLOC_NEW, 0, true,
    (size_t size, const nothrow_t *nt), 0)
NEW(_ZnamRKSt9nothrow_t, HP_ALLOC_NEW_ARRAY, 0, true,
    (size_t size, const nothrow_t *nt), 0)
NEW(_ZnwmSt11align_val_t, HP_ALLOC_NEW, 1, false, (size_t size, size_t al), al)
NEW(_ZnamSt11align_val_t, HP_ALLOC_NEW_ARRAY, 1, false,
    (size_t size, size_t al), al)
NEW(_ZnwmSt11align_val_tRKSt9nothrow_t, HP_ALLOC_NEW, 1, true,
    (size_t size, size_t al, const nothrow_t *nt), al)
NEW(_ZnamSt11align_val_tRKSt9nothrow_t, HP_ALLOC_NEW_ARRAY, 1, true,
    (size_t size, size_t al, const nothrow_t *nt), al)

/* The hint is an 8-bit argument; callers need not extend it, so it is taken
 * as a full register and masked. */
#define NEW_HC(name, kind, nothrow, params, align_expr)                      \
  HP_INTERFACE void *name params {                                           \
    return new_impl(size, align_expr, kind, nothrow, HP_ENTRY_FP(),          \
                    hint & 0xff);                                            \
  }

NEW_HC(_Znwm12__hot_cold_t, HP_ALLOC_NEW, false, (size_t size, uptr hint), 0)
NEW_HC(_Znam12__hot_cold_t, HP_ALLOC_NEW_ARRAY, false,
       (size_t size, uptr hint), 0)
NEW_HC(_ZnwmRKSt9nothrow_t12__hot_cold_t, HP_ALLOC_NEW, true,
       (size_t size, const nothrow_t *nt, uptr hint), 0)
NEW_HC(_ZnamRKSt9nothrow_t12__hot_cold_t, HP_ALLOC_NEW_ARRAY, true,
       (size_t size, const nothrow_t *nt, uptr hint), 0)
NEW_HC(_ZnwmSt11align_val_t12__hot_cold_t, HP_ALLOC_NEW, false,
       (size_t size, size_t al, uptr hint), al)
NEW_HC(_ZnamSt11align_val_t12__hot_cold_t, HP_ALLOC_NEW_ARRAY, false,
       (size_t size, size_t al, uptr hint), al)
NEW_HC(_ZnwmSt11align_val_tRKSt9nothrow_t12__hot_cold_t, HP_ALLOC_NEW, true,
       (size_t size, size_t al, const nothrow_t *nt, uptr hint), al)
NEW_HC(_ZnamSt11align_val_tRKSt9nothrow_t12__hot_cold_t, HP_ALLOC_NEW_ARRAY,
       true, (size_t size, size_t al, const nothrow_t *nt, uptr hint), al)

/* Frameless, as malloc and free are (heapprof_interceptors.c; this file
 * is compiled with -momit-leaf-frame-pointer): an unsampled delete is the
 * mode's test, the mark's test and a jump to glibc's free; everything
 * else jumps to NAME_framed, whose frame stands where the entry point's
 * would have.  A jump must be to a function of the caller's type, so
 * glibc's free is declared under each of delete's types too (asm labels:
 * one symbol); the x86-64 calling convention passes the size, alignment
 * and nothrow tag in registers free never reads. */
extern void libc_free_n(void *, const nothrow_t *) __asm__("__libc_free");
extern void libc_free_z(void *, size_t) __asm__("__libc_free");
extern void libc_free_zn(void *, size_t, const nothrow_t *)
    __asm__("__libc_free");
extern void libc_free_zz(void *, size_t, size_t) __asm__("__libc_free");
#define DELETE(name, kind, libc, params, args)                               \
  static HP_NOINLINE void name##_framed params {                             \
    hp_deallocate(p, kind, HP_ENTRY_FP());                                   \
  }                                                                          \
  HP_INTERFACE void name params {                                            \
    if (HP_SAMPLED_MODE() && HP_LIKELY(p && hp_sample_unmarked(p)))          \
      HP_MUSTTAIL return libc args;                                          \
    HP_MUSTTAIL return name##_framed args;                                   \
  }

DELETE(_ZdlPv, HP_ALLOC_NEW, __libc_free, (void *p), (p))
DELETE(_ZdaPv, HP_ALLOC_NEW_ARRAY, __libc_free, (void *p), (p))
DELETE(_ZdlPvRKSt9nothrow_t, HP_ALLOC_NEW, libc_free_n,
       (void *p, const nothrow_t *nt), (p, nt))
DELETE(_ZdaPvRKSt9nothrow_t, HP_ALLOC_NEW_ARRAY, libc_free_n,
       (void *p, const nothrow_t *nt), (p, nt))
DELETE(_ZdlPvm, HP_ALLOC_NEW, libc_free_z, (void *p, size_t size), (p, size))
DELETE(_ZdaPvm, HP_ALLOC_NEW_ARRAY, libc_free_z, (void *p, size_t size),
       (p, size))
DELETE(_ZdlPvSt11align_val_t, HP_ALLOC_NEW, libc_free_z, (void *p, size_t al),
       (p, al))
DELETE(_ZdaPvSt11align_val_t, HP_ALLOC_NEW_ARRAY, libc_free_z,
       (void *p, size_t al), (p, al))
DELETE(_ZdlPvSt11align_val_tRKSt9nothrow_t, HP_ALLOC_NEW, libc_free_zn,
       (void *p, size_t al, const nothrow_t *nt), (p, al, nt))
DELETE(_ZdaPvSt11align_val_tRKSt9nothrow_t, HP_ALLOC_NEW_ARRAY, libc_free_zn,
       (void *p, size_t al, const nothrow_t *nt), (p, al, nt))
DELETE(_ZdlPvmSt11align_val_t, HP_ALLOC_NEW, libc_free_zz,
       (void *p, size_t size, size_t al), (p, size, al))
DELETE(_ZdaPvmSt11align_val_t, HP_ALLOC_NEW_ARRAY, libc_free_zz,
       (void *p, size_t size, size_t al), (p, size, al))
