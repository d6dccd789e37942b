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

#include <dlfcn.h>

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
                                       bool nothrow, uptr fp, uptr hint,
                                       bool another) {
  for (;;) {
    /* another: HP_ANOTHER_ALLOCATOR() held, so straight to the foreign
     * form, as malloc does (heapprof_interceptors.c). */
    void *p = another ? hp_foreign_allocate(size, align, kind, fp, false)
              : hint == NO_HINT
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

/* Every form: its name and, for a hot/cold one, the index of its plain form
 * (-1 for the others).  See cxx_decide below. */
#define CXX_FORMS(X)                                                          \
  X(_Znwm, -1)                                                                \
  X(_Znam, -1)                                                                \
  X(_ZnwmRKSt9nothrow_t, -1)                                                  \
  X(_ZnamRKSt9nothrow_t, -1)                                                  \
  X(_ZnwmSt11align_val_t, -1)                                                 \
  X(_ZnamSt11align_val_t, -1)                                                 \
  X(_ZnwmSt11align_val_tRKSt9nothrow_t, -1)                                   \
  X(_ZnamSt11align_val_tRKSt9nothrow_t, -1)                                   \
  X(_Znwm12__hot_cold_t, CXX__Znwm)                                           \
  X(_Znam12__hot_cold_t, CXX__Znam)                                           \
  X(_ZnwmRKSt9nothrow_t12__hot_cold_t, CXX__ZnwmRKSt9nothrow_t)               \
  X(_ZnamRKSt9nothrow_t12__hot_cold_t, CXX__ZnamRKSt9nothrow_t)               \
  X(_ZnwmSt11align_val_t12__hot_cold_t, CXX__ZnwmSt11align_val_t)             \
  X(_ZnamSt11align_val_t12__hot_cold_t, CXX__ZnamSt11align_val_t)             \
  X(_ZnwmSt11align_val_tRKSt9nothrow_t12__hot_cold_t,                         \
    CXX__ZnwmSt11align_val_tRKSt9nothrow_t)                                   \
  X(_ZnamSt11align_val_tRKSt9nothrow_t12__hot_cold_t,                         \
    CXX__ZnamSt11align_val_tRKSt9nothrow_t)                                   \
  X(_ZdlPv, -1)                                                               \
  X(_ZdaPv, -1)                                                               \
  X(_ZdlPvRKSt9nothrow_t, -1)                                                 \
  X(_ZdaPvRKSt9nothrow_t, -1)                                                 \
  X(_ZdlPvm, -1)                                                              \
  X(_ZdaPvm, -1)                                                              \
  X(_ZdlPvSt11align_val_t, -1)                                                \
  X(_ZdaPvSt11align_val_t, -1)                                                \
  X(_ZdlPvSt11align_val_tRKSt9nothrow_t, -1)                                  \
  X(_ZdaPvSt11align_val_tRKSt9nothrow_t, -1)                                  \
  X(_ZdlPvmSt11align_val_t, -1)                                               \
  X(_ZdaPvmSt11align_val_t, -1)

enum {
#define X(name, plain) CXX_##name,
  CXX_FORMS(X)
#undef X
  CXX_NFORMS
};

/* Whether the program replaced any form (cxx_decide, at the first call). */
enum { CXX_UNKNOWN, CXX_OWN, CXX_REPLACED };
static int cxx_state = CXX_UNKNOWN;
static void *cxx_forward(int i);

/* The common case, one load: heapprof's own forms serve the program. */
static HP_ALWAYS_INLINE bool cxx_own(void) {
  return HP_LIKELY(__atomic_load_n(&cxx_state, __ATOMIC_RELAXED) == CXX_OWN);
}

/* In a new form NAME: when the program replaced some form, return what the
 * C++ library's NAME (cxx_decide) returns, if there is one. */
#define NEW_FORWARD(name, params, args)                                      \
  if (!cxx_own()) {                                                          \
    void *(*next) params = (void *(*) params)cxx_forward(CXX_##name);        \
    if (next)                                                                \
      return next args;                                                      \
  }

/* Each form is NAME_own, and NAME a weak alias of it (see cxx_decide). */
#define CXX_PUBLIC(ret, name, params)                                         \
  static ret name##_own params;                                               \
  HP_INTERFACE HP_WEAK ret name params __attribute__((alias(#name "_own")));

#define NEW(name, kind, align_arg, nothrow, params, args, align_expr)        \
  CXX_PUBLIC(void *, name, params)                                           \
  static void *name##_own params {                                           \
    NEW_FORWARD(name, params, args)                                          \
    if (HP_ANOTHER_ALLOCATOR()) {                                            \
      if (!(align_arg) && HP_SAMPLED_MODE()) {                               \
        void *p = sampled_new(size);                                         \
        if (HP_LIKELY(p))                                                    \
          return p;                                                          \
      }                                                                      \
      return new_impl(size, align_expr, kind, nothrow, HP_ENTRY_FP(),        \
                      NO_HINT, true);                                        \
    }                                                                        \
    return new_impl(size, align_expr, kind, nothrow, HP_ENTRY_FP(), NO_HINT, \
                    false);                                                  \
  }

NEW(_Znwm, HP_ALLOC_NEW, 0, false, (size_t size), (size), 0)
NEW(_Znam, HP_ALLOC_NEW_ARRAY, 0, false, (size_t size), (size), 0)
NEW(_ZnwmRKSt9nothrow_t, HP_ALLOC_NEW, 0, true,
    (size_t size, const nothrow_t *nt), (size, nt), 0)
NEW(_ZnamRKSt9nothrow_t, HP_ALLOC_NEW_ARRAY, 0, true,
    (size_t size, const nothrow_t *nt), (size, nt), 0)
NEW(_ZnwmSt11align_val_t, HP_ALLOC_NEW, 1, false, (size_t size, size_t al),
    (size, al), al)
NEW(_ZnamSt11align_val_t, HP_ALLOC_NEW_ARRAY, 1, false,
    (size_t size, size_t al), (size, al), al)
NEW(_ZnwmSt11align_val_tRKSt9nothrow_t, HP_ALLOC_NEW, 1, true,
    (size_t size, size_t al, const nothrow_t *nt), (size, al, nt), al)
NEW(_ZnamSt11align_val_tRKSt9nothrow_t, HP_ALLOC_NEW_ARRAY, 1, true,
    (size_t size, size_t al, const nothrow_t *nt), (size, al, nt), al)

/* The hint is an 8-bit argument; callers need not extend it, so it is taken
 * as a full register and masked. */
#define NEW_HC(name, kind, nothrow, params, args, align_expr)                \
  CXX_PUBLIC(void *, name, params)                                           \
  static void *name##_own params {                                           \
    NEW_FORWARD(name, params, args)                                          \
    return new_impl(size, align_expr, kind, nothrow, HP_ENTRY_FP(),          \
                    hint & 0xff, false);                                     \
  }

/* A hot/cold form forwards to the plain form the program sees, called
 * through the hot/cold form's own type: the hint goes in a register the
 * plain form does not read (x86-64's calling convention). */
NEW_HC(_Znwm12__hot_cold_t, HP_ALLOC_NEW, false, (size_t size, uptr hint),
       (size, hint), 0)
NEW_HC(_Znam12__hot_cold_t, HP_ALLOC_NEW_ARRAY, false,
       (size_t size, uptr hint), (size, hint), 0)
NEW_HC(_ZnwmRKSt9nothrow_t12__hot_cold_t, HP_ALLOC_NEW, true,
       (size_t size, const nothrow_t *nt, uptr hint), (size, nt, hint), 0)
NEW_HC(_ZnamRKSt9nothrow_t12__hot_cold_t, HP_ALLOC_NEW_ARRAY, true,
       (size_t size, const nothrow_t *nt, uptr hint), (size, nt, hint), 0)
NEW_HC(_ZnwmSt11align_val_t12__hot_cold_t, HP_ALLOC_NEW, false,
       (size_t size, size_t al, uptr hint), (size, al, hint), al)
NEW_HC(_ZnamSt11align_val_t12__hot_cold_t, HP_ALLOC_NEW_ARRAY, false,
       (size_t size, size_t al, uptr hint), (size, al, hint), al)
NEW_HC(_ZnwmSt11align_val_tRKSt9nothrow_t12__hot_cold_t, HP_ALLOC_NEW, true,
       (size_t size, size_t al, const nothrow_t *nt, uptr hint),
       (size, al, nt, hint), al)
NEW_HC(_ZnamSt11align_val_tRKSt9nothrow_t12__hot_cold_t, HP_ALLOC_NEW_ARRAY,
       true, (size_t size, size_t al, const nothrow_t *nt, uptr hint),
       (size, al, nt, hint), al)

/* Frameless, as malloc and free are (heapprof_interceptors.c; this file
 * is compiled with -momit-leaf-frame-pointer): an unsampled delete is the
 * mode's test, the mark's test and a jump to glibc's free; everything
 * else jumps to NAME_framed (NAME_foreign on another allocator), whose
 * frame stands where the entry point's would have.  A jump must be to a
 * function of the caller's type, so glibc's free is declared under each
 * of delete's types too (asm labels: one symbol); the x86-64 calling
 * convention passes the size, alignment and nothrow tag in registers free
 * never reads. */
extern void libc_free_n(void *, const nothrow_t *) __asm__("__libc_free");
extern void libc_free_z(void *, size_t) __asm__("__libc_free");
extern void libc_free_zn(void *, size_t, const nothrow_t *)
    __asm__("__libc_free");
extern void libc_free_zz(void *, size_t, size_t) __asm__("__libc_free");
#define DELETE_FORWARD(name, params, args)                                   \
  if (!cxx_own()) {                                                          \
    void (*next) params = (void (*) params)cxx_forward(CXX_##name);          \
    if (next) {                                                              \
      next args;                                                             \
      return;                                                                \
    }                                                                        \
  }
/* NAME_foreign: another allocator (HP_ANOTHER_ALLOCATOR), straight to the
 * foreign form, as free does. */
#define DELETE(name, kind, libc, params, args)                               \
  static HP_NOINLINE void name##_framed params {                             \
    DELETE_FORWARD(name, params, args)                                       \
    hp_deallocate(p, kind, HP_ENTRY_FP());                                   \
  }                                                                          \
  static HP_NOINLINE void name##_foreign params {                            \
    DELETE_FORWARD(name, params, args)                                       \
    hp_foreign_free(p, kind, HP_ENTRY_FP());                                 \
  }                                                                          \
  CXX_PUBLIC(void, name, params)                                             \
  static void name##_own params {                                            \
    if (HP_ANOTHER_ALLOCATOR()) {                                            \
      if (HP_SAMPLED_MODE() && HP_LIKELY(p && hp_sample_unmarked(p)) &&      \
          cxx_own())                                                         \
        HP_MUSTTAIL return libc args;                                        \
      HP_MUSTTAIL return name##_foreign args;                                \
    }                                                                        \
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

/* A program may replace operators new and delete with its own (a pool, a
 * counter of its allocations).  The forms above are weak, so the program's
 * definitions win at link time -- a strong definition of heapprof's would
 * make the link fail ("multiple definition of operator new"), and in
 * libheapprof_rt.so the executable's come first anyway.  Once any form is
 * the program's, heapprof's own forms stand aside for the C++ library's
 * (dlsym RTLD_NEXT: libstdc++'s, after the executable and after a preloaded
 * runtime), which call the program's as the standard says (new[] calls
 * new, sized delete calls delete, nothrow new calls new and catches): the
 * program's operators see exactly the calls they see without heapprof, and
 * no block allocated by the program's new is freed by heapprof's delete (a
 * false alloc-dealloc mismatch).  The C++ library's forms end in malloc and
 * free, which heapprof profiles.  The hot/cold forms, which the C++ library
 * does not define, call the plain form the program sees.  Decided at the
 * first call of any form: a load and a branch after that. */
static void *cxx_next[CXX_NFORMS];

/* Whether this is the preloaded runtime in a program that has a runtime of
 * its own (built with -fheapprof, run under heapprof run): the program's
 * defines __heapprof_init and malloc, and this copy never initialises
 * (heapprof_preload.c).  A program written in C has no operator new for
 * its C++ libraries, so they reached this copy's, on an allocator never
 * set up: a C++ library's new died of SIGFPE, and tcmalloc's constructor,
 * run by the dlopen of init itself, deadlocked in init.  Then the C++
 * library's forms serve, on the program's malloc, as without heapprof
 * run. */
static bool another_runtime(void) {
#ifdef HEAPPROF_SHARED_RUNTIME
  Dl_info theirs, ours;
  return dladdr((void *)&__heapprof_init, &theirs) &&
         dladdr((void *)&cxx_state, &ours) &&
         theirs.dli_fbase != ours.dli_fbase;
#else
  return false;
#endif
}

static HP_NOINLINE void cxx_decide(void) {
  static const char *const names[CXX_NFORMS] = {
#define X(name, plain) #name,
      CXX_FORMS(X)
#undef X
  };
  /* The address each form resolves to (the program's, when it has one) and
   * heapprof's own definition of it. */
  const uptr resolved[CXX_NFORMS] = {
#define X(name, plain) (uptr)&name,
      CXX_FORMS(X)
#undef X
  };
  const uptr own[CXX_NFORMS] = {
#define X(name, plain) (uptr)&name##_own,
      CXX_FORMS(X)
#undef X
  };
  const int plain_of[CXX_NFORMS] = {
#define X(name, plain) plain,
      CXX_FORMS(X)
#undef X
  };
  bool replaced = false;
  for (int i = 0; i < CXX_NFORMS; i++)
    replaced |= resolved[i] != own[i];
  bool other_runtime = another_runtime();
  replaced |= other_runtime;
  if (replaced) {
    for (int i = 0; i < CXX_NFORMS; i++)
      cxx_next[i] = plain_of[i] < 0 ? dlsym(RTLD_NEXT, names[i])
                                    : (void *)resolved[plain_of[i]];
    if (hp_flags.verbosity && !other_runtime)
      hp_printf("HeapProf: the program replaces operator new or delete: "
                "heapprof's forms call the C++ library's\n");
  }
  __atomic_store_n(&cxx_state, replaced ? CXX_REPLACED : CXX_OWN,
                   __ATOMIC_RELEASE);
}

/* The C++ library's form i when the program replaced some form, else NULL
 * (heapprof's own form goes on). */
static void *cxx_forward(int i) {
  int st = __atomic_load_n(&cxx_state, __ATOMIC_ACQUIRE);
  if (st == CXX_UNKNOWN) {
    cxx_decide();
    st = __atomic_load_n(&cxx_state, __ATOMIC_ACQUIRE);
  }
  return st == CXX_REPLACED ? cxx_next[i] : NULL;
}

