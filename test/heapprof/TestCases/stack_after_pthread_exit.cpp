// A thread that ends by pthread_exit (thrd_exit) rather than by returning
// from its start routine: glibc unwinds its frames to start_thread's, then
// runs its thread_local destructors and key destructors from there, as
// after a return (stack_after_main.cpp).  Their stacks go on through the
// libc frame that called them, up to (not into) start_thread:
//   Local::~Local <- __call_tls_dtors
//   key_dtor <- __nptl_deallocate_tsd                   (55 bytes, 1 object)
// the same stacks as for the thread that returns in stack_after_main.cpp.
// Before, only a return moved the walks' top to the end of heapprof's
// wrapper of the start routine: after pthread_exit the top stayed at that
// wrapper's frame, dead by then, and the thread_local destructor's
// allocation had no caller.  The first thread's destructor allocates 77
// bytes; a second thread ends by thrd_exit, its destructor allocating 33
// bytes from the same stack: one context of 77 + 33 = 110 bytes, 2
// objects.  (Names as in stack_after_main.cpp.)
// DEFINE: %{stacks} = import json,sys; r = json.load(sys.stdin); [print(c['bytes'], c['allocs'], ' <- '.join('libc' if f['function'].startswith('libc.so.6+') else f['function'] for f in c['stack'] if not f['inlined'])) for b in (110, 55) for c in r['contexts'] if c['bytes'] == b]
// RUN: %clangxx_heapprof -O2 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --format json --top 0 %t.d | %python -c "%{stacks}" | FileCheck %s
// RUN: %clangxx_plain -O2 -g %s -o %t.plain -lpthread
// RUN: rm -rf %t.r && heapprof run -o %t.r -- %t.plain | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --format json --top 0 %t.r | %python -c "%{stacks}" | FileCheck %s
// OUT: done
// CHECK: {{^}}110 2 Local::~Local <- {{__call_tls_dtors|libc}}{{$}}
// CHECK-NEXT: {{^}}55 1 key_dtor <- {{(__GI_)?__nptl_deallocate_tsd|libc}}{{$}}
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

static void *volatile keep[3];
static pthread_key_t key;

__attribute__((noinline)) static void key_dtor(void *) { keep[1] = malloc(55); }

struct Local {
  size_t bytes = 0;
  __attribute__((noinline)) ~Local() {
    if (bytes)
      keep[bytes == 77 ? 0 : 2] = malloc(bytes);
  }
};
static thread_local Local local;

__attribute__((noinline)) static void leave() { pthread_exit(nullptr); }

static void *thread_body(void *) {
  local.bytes = 77;
  pthread_setspecific(key, &key);
  leave();
  return nullptr;
}

static int c11_body(void *) {
  local.bytes = 33;
  thrd_exit(0);
}

int main() {
  pthread_key_create(&key, key_dtor);
  pthread_t t;
  pthread_create(&t, nullptr, thread_body, nullptr);
  pthread_join(t, nullptr);
  thrd_t c;
  thrd_create(&c, c11_body, nullptr);
  thrd_join(c, nullptr);
  printf("done\n");
  return 0;
}
