// Allocations after the program's entry function returned: an atexit
// handler's, run by exit, which libc calls once main returned; a
// thread_local object's destructor, run by libc's thread start-up code once
// the thread's start routine returned; and a pthread key's destructor, run
// after that, and after heapprof's own key destructor tore the thread's
// state down (heapprof's key was created first).  Their stacks go on
// through the libc frames that called them, up to (not into) libc's
// start-up frames (__libc_start_call_main, start_thread):
//   at_exit_alloc <- __run_exit_handlers <- exit        (99 bytes, 1 object)
//   Local::~Local <- __call_tls_dtors                   (77 bytes, 1 object)
//   key_dtor <- __nptl_deallocate_tsd                   (55 bytes, 1 object)
// as Valgrind's DHAT shows them (docs/run.md, "Checked against DHAT").
// Before, the walks stopped at the frame of heapprof's wrapper of main (of
// the start routine), dead by then, where exit's frame (__call_tls_dtors's)
// now is: exit was lost, and the destructor had no caller at all; and the
// key destructor's walk, which reaches the thread's clone, dropped every
// libc frame at its end, __nptl_deallocate_tsd with start_thread.  The
// libc functions are named from libc's debug file when there is one, else
// as libc.so.6+0xOFFSET (exit is exported: always named); one name per
// return address (an inlined call's frames left out).
// DEFINE: %{stacks} = import json,sys; r = json.load(sys.stdin); [print(c['bytes'], c['allocs'], ' <- '.join('libc' if f['function'].startswith('libc.so.6+') else f['function'] for f in c['stack'] if not f['inlined'])) for b in (99, 77, 55) for c in r['contexts'] if c['bytes'] == b]
// RUN: %clangxx_heapprof -O2 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --format json --top 0 %t.d | %python -c "%{stacks}" | FileCheck %s
// RUN: %clangxx_plain -O2 -g %s -o %t.plain -lpthread
// RUN: rm -rf %t.r && heapprof run -o %t.r -- %t.plain | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --format json --top 0 %t.r | %python -c "%{stacks}" | FileCheck %s
// OUT: done
// CHECK: {{^}}99 1 at_exit_alloc <- {{__run_exit_handlers|libc}} <- exit{{$}}
// CHECK-NEXT: {{^}}77 1 Local::~Local <- {{__call_tls_dtors|libc}}{{$}}
// CHECK-NEXT: {{^}}55 1 key_dtor <- {{(__GI_)?__nptl_deallocate_tsd|libc}}{{$}}
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *volatile keep[3];
static pthread_key_t key;

__attribute__((noinline)) static void key_dtor(void *) { keep[2] = malloc(55); }

struct Local {
  int armed = 0;
  __attribute__((noinline)) ~Local() {
    if (armed)
      keep[1] = malloc(77);
  }
};
static thread_local Local local;

static void *thread_body(void *) {
  local.armed = 1;
  pthread_setspecific(key, &key);
  return nullptr;
}

__attribute__((noinline)) static void at_exit_alloc() { keep[0] = malloc(99); }

int main() {
  atexit(at_exit_alloc);
  pthread_key_create(&key, key_dtor);
  pthread_t t;
  pthread_create(&t, nullptr, thread_body, nullptr);
  pthread_join(t, nullptr);
  printf("done\n");
  return 0;
}
