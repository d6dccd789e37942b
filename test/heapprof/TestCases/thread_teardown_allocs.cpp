// Allocations during thread teardown, some after heapprof has torn the
// thread's state down (its pthread key destructor runs before the
// program's later keys'). 10 threads; each, at its end:
//   key_site    40 B: a key destructor that sets its key again 3 times,
//               so glibc runs it 4 times: 40 objects
//   late_site  120 B: a second key's destructor, freed by main: 10
//   main_site   88 B: allocated by main, freed in that destructor: 10
//   leave_site 104 B: allocated by the thread, freed by main after join
//   atexit_site 72 B: a __cxa_thread_atexit handler: 10
//   tl_site     56 B: a thread_local object's destructor: 10
// Every object counted once, in its context, freed (0 live), accessed as
// written (its size in words), and no leak.
// DEFINE: %{sites} = import json,sys; r = json.load(sys.stdin); [print(f, c['stack'][1]['function'], c['allocs'], c['frees'], c['live_objects'], c['accesses'], c['leaked_objects']) for f in ('key_site', 'late_site', 'main_site', 'leave_site', 'atexit_site', 'tl_site') for c in r['contexts'] if c['stack'][0]['function'] == f]
// RUN: %clangxx_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --format json --top 0 %t.d | %python -c "%{sites}" | FileCheck %s --check-prefix=ACC
// RUN: %clangxx_plain -O0 -g %s -o %t.plain -lpthread
// RUN: rm -rf %t.r && heapprof run -o %t.r -- %t.plain | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --format json --top 0 %t.r | %python -c "%{sites}" | FileCheck %s
// RUN: rm -rf %t.s && heapprof run --allocator=system -o %t.s -- %t.plain | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --format json --top 0 %t.s | %python -c "%{sites}" | FileCheck %s
// OUT: done
// Fields: site, caller, allocs, frees, live, accesses (instrumented
// only), leaked.
// CHECK: key_site key_dtor 40 40 0 0 0
// CHECK-NEXT: late_site key2_dtor 10 10 0 0 0
// CHECK-NEXT: main_site main 10 10 0 0 0
// CHECK-NEXT: leave_site worker 10 10 0 0 0
// CHECK-NEXT: atexit_site atexit_fn 10 10 0 0 0
// CHECK-NEXT: tl_site TL::~TL 10 10 0 0 0
// ACC: key_site key_dtor 40 40 0 200 0
// ACC-NEXT: late_site key2_dtor 10 10 0 150 0
// ACC-NEXT: main_site main 10 10 0 110 0
// ACC-NEXT: leave_site worker 10 10 0 130 0
// ACC-NEXT: atexit_site atexit_fn 10 10 0 90 0
// ACC-NEXT: tl_site TL::~TL 10 10 0 70 0
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" int __cxa_thread_atexit(void (*)(void *), void *, void *);
extern "C" void *__dso_handle;

#define T 10
static pthread_key_t k1, k2;
static void *late[T];       // allocated in teardown, freed by main
static void *from_main[T];  // allocated by main, freed in a thread's destructor
static void *left[T];       // allocated by thread, freed by main after join

extern "C" __attribute__((noinline)) void *key_site(void) { return malloc(40); }
extern "C" __attribute__((noinline)) void *tl_site(void) { return malloc(56); }
extern "C" __attribute__((noinline)) void *atexit_site(void) { return malloc(72); }
extern "C" __attribute__((noinline)) void *main_site(void) { return malloc(88); }
extern "C" __attribute__((noinline)) void *leave_site(void) { return malloc(104); }
extern "C" __attribute__((noinline)) void *late_site(void) { return malloc(120); }

static __thread int rounds;
static __thread long myid;

static void key_dtor(void *v) {
  void *volatile p = key_site();
  memset(p, 1, 40);
  free(p);
  if (++rounds < 4)
    pthread_setspecific(k1, v);
}
static void key2_dtor(void *v) {
  long id = (long)v - 1;
  free(from_main[id]);               // another thread's block
  late[id] = late_site();            // freed by main later
  memset(late[id], 2, 120);
}

struct TL {
  ~TL() { void *volatile p = tl_site(); memset(p, 3, 56); free(p); }
};
static thread_local TL tl;

static void atexit_fn(void *) { void *volatile p = atexit_site(); memset(p, 4, 72); free(p); }

static void *worker(void *arg) {
  myid = (long)arg;
  (void)&tl; // construct
  static thread_local TL *volatile force = &tl; (void)force;
  __cxa_thread_atexit(atexit_fn, nullptr, &__dso_handle);
  pthread_setspecific(k1, (void *)1);
  pthread_setspecific(k2, (void *)(myid + 1));
  left[myid] = leave_site();
  memset(left[myid], 5, 104);
  return nullptr;
}

int main() {
  pthread_key_create(&k1, key_dtor);
  pthread_key_create(&k2, key2_dtor);
  pthread_t t[T];
  for (long i = 0; i < T; i++) {
    from_main[i] = main_site();
    memset(from_main[i], 6, 88);
  }
  for (long i = 0; i < T; i++) pthread_create(&t[i], nullptr, worker, (void *)i);
  for (long i = 0; i < T; i++) pthread_join(t[i], nullptr);
  for (long i = 0; i < T; i++) { free(left[i]); free(late[i]); }
  printf("done\n");
  return 0;
}
