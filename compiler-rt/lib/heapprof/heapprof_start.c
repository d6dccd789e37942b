/*===- heapprof_start.c - main under a wrapper --------------------------===
 *
 * Part of heapprof.  __libc_start_main is interposed (a tail call to
 * glibc's, main replaced by a wrapper) so that heapprof knows where the
 * program's frames on the main thread's stack begin and, once main
 * returned, that none of them is live any more.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_leaks.h"

#include <dlfcn.h>

/* When main returns, glibc calls exit from its own frame below main's old
 * place: the frames of main and of what it called are dead, but their
 * words stay in every slot that exit's frames do not write, and a pointer
 * main dropped would read as reachable.  So main runs under a wrapper that
 * notes where the live part of the main thread's stack begins once main
 * returned (a program that calls exit itself still has main's frame live,
 * and its stack is read from the exit's destructor up). */
typedef int (*main_fn)(int, char **, char **);
typedef int (*start_main_fn)(main_fn, int, char **, void (*)(void),
                             void (*)(void), void (*)(void), void *);
static main_fn program_main;
uptr hp_main_returned_at;

static __attribute__((noinline)) int main_wrapper(int argc, char **argv,
                                                  char **envp) {
  hp_stack_call_main_pc = (uptr)__builtin_return_address(0) - 1;
  hp_thread_main_frame((uptr)__builtin_frame_address(0));
  hp_signals_altstack_on(); /* if init ran on another thread */
  int r = program_main(argc, argv, envp);
  /* The caller's stack pointer after this frame's return. */
  hp_main_returned_at = (uptr)__builtin_frame_address(0) + 2 * sizeof(uptr);
  /* ... and from now on the top of the walks: libc calls exit from the
   * frame that called main, at that stack pointer, so exit's frame lies
   * just above this one's.  With this frame as the top, the walks from
   * the exit handlers and destructors stopped below exit and lost it
   * (an atexit handler's allocation read handler <- __run_exit_handlers);
   * they now keep exit, and still stop at __libc_start_call_main. */
  hp_thread_main_frame(hp_main_returned_at);
  return r;
}

HP_INTERFACE int __libc_start_main(main_fn main, int argc, char **argv,
                                   void (*init)(void), void (*fini)(void),
                                   void (*rtld_fini)(void), void *stack_end) {
  start_main_fn real =
      (start_main_fn)dlsym(RTLD_NEXT, "__libc_start_main");
  HP_CHECK(real && "cannot find the real __libc_start_main");
  program_main = main;
  /* A tail call: no frame of this one stays between _start and libc's,
   * so walks before main (constructors) end in libc as before and drop
   * its frames. */
  __attribute__((musttail)) return real(main_wrapper, argc, argv, init, fini,
                                        rtld_fini, stack_end);
}

