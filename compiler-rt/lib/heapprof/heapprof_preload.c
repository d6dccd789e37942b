/*===- heapprof_preload.c - what only the preloaded runtime needs -------===
 *
 * Part of heapprof; built only into libheapprof_rt.so, the runtime that
 * `heapprof run` preloads into a program that was not rebuilt (docs/run.md).
 *
 * The environment.  heapprof run starts the program with
 *   LD_PRELOAD=<this library>[:<the caller's LD_PRELOAD>]
 *   HEAPPROF_OPTIONS=<the caller's options>:profile_dir=DIR   (with -o DIR)
 *   HEAPPROF_RUN=1, or HEAPPROF_RUN=follow-exec
 *   HEAPPROF_RUN_SAVED_<VAR>=<VAR>=<the caller's value>  for each of the two
 *     variables the caller had set
 * Once the options are read (a constructor, before the program's main and
 * before any of its own constructors that run after this library's), the
 * program gets back the environment its caller gave it: the two variables
 * as they were (or absent) and no HEAPPROF_RUN*.  So its children run
 * without the profiler and see what they would have seen without heapprof.
 * HEAPPROF_RUN=follow-exec leaves everything in place: children that exec
 * load the runtime too and write their own profiles.  The edit is done on
 * environ's array in place (entries pointed at the saved strings, or
 * removed by moving the rest down), without allocating.
 *
 * C++.  The library has no libstdc++ dependency (a C program must not load
 * one: its start-up allocations would be profiled).  operator new's throw
 * takes libstdc++'s own std::__throw_bad_alloc, found when it is needed;
 * only a C++ program, which has libstdc++ loaded, calls operator new.
 *
 * A program that has the static runtime itself (built with -fheapprof)
 * exports __heapprof_* and the allocation functions from the executable:
 * they preempt this library's, so its runtime is the only one that runs.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <dlfcn.h>

extern char **environ;

/* The entry of environ that defines name (NAME=...), or -1. */
static long env_index(const char *name, size_t n) {
  for (long i = 0; environ[i]; i++)
    if (!hp_strncmp(environ[i], name, n) && environ[i][n] == '=')
      return i;
  return -1;
}

static void env_remove(long i) {
  for (; environ[i]; i++)
    environ[i] = environ[i + 1];
}

static const char *const restored_vars[] = {"LD_PRELOAD", "HEAPPROF_OPTIONS"};
#define SAVED_PREFIX "HEAPPROF_RUN_SAVED_"

static void restore_environment(void) {
  if (!environ)
    return;
  long run = env_index("HEAPPROF_RUN", 12);
  if (run < 0 || !hp_strcmp(environ[run] + 13, "follow-exec"))
    return;
  for (u32 v = 0; v < HP_ARRAY_SIZE(restored_vars); v++) {
    char saved_name[64];
    const char *var = restored_vars[v];
    size_t n = hp_strlen(var);
    hp_snprintf(saved_name, sizeof(saved_name), SAVED_PREFIX "%s", var);
    long s = env_index(saved_name, hp_strlen(saved_name));
    long i = env_index(var, n);
    /* The saved value is "VAR=value": the entry itself. */
    const char *saved =
        s >= 0 ? environ[s] + hp_strlen(saved_name) + 1 : NULL;
    if (saved && (hp_strncmp(saved, var, n) || saved[n] != '='))
      saved = NULL; /* not heapprof run's format: leave VAR alone */
    if (i >= 0 && saved)
      environ[i] = (char *)saved;
    else if (i >= 0 && s < 0)
      env_remove(i);
  }
  long i;
  while ((i = env_index("HEAPPROF_RUN", 12)) >= 0)
    env_remove(i);
  for (u32 v = 0; v < HP_ARRAY_SIZE(restored_vars); v++) {
    char saved_name[64];
    hp_snprintf(saved_name, sizeof(saved_name), SAVED_PREFIX "%s",
                restored_vars[v]);
    while ((i = env_index(saved_name, hp_strlen(saved_name))) >= 0)
      env_remove(i);
  }
}

/* After heapprof_rtl.c's constructor (101): the options are read. */
__attribute__((constructor(102))) static void heapprof_preload_ctor(void) {
  /* The executable's own runtime, if it has one (preempts this one). */
  __heapprof_init();
  restore_environment();
}

/* ------------------------------------------------------------------ C++ */

typedef void (*new_handler_t)(void);

HP_NORETURN void hp_throw_bad_alloc(void) {
  void (*thrower)(void) =
      (void (*)(void))dlsym(RTLD_DEFAULT, "_ZSt17__throw_bad_allocv");
  HP_CHECK(thrower && "operator new without libstdc++ loaded");
  thrower();
  __builtin_unreachable();
}

/* A nothrow new's new_handler.  C cannot catch: a handler that throws
 * std::bad_alloc here propagates out of the nothrow new instead of making
 * it return NULL (docs/run.md lists this difference). */
bool hp_call_new_handler_nothrow(new_handler_t handler) {
  handler();
  return true;
}
