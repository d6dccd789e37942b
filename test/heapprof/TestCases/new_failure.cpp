// operator new follows C++: nothrow new returns NULL; a throwing new calls the
// new_handler until it succeeds (a handler that frees a reserve makes the
// retry succeed); with no new_handler heapprof reports out-of-memory and
// aborts after writing the profile (the C runtime cannot throw bad_alloc).
// RUN: %clangxx_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1 %run %t nothrow 2>&1 | FileCheck %s --check-prefix=NOTHROW
// RUN: %env_heapprof_opts=log_path=stderr %run %t handler 2>&1 | FileCheck %s --check-prefix=HANDLER
// RUN: %env_heapprof_opts=log_path=stderr %run %t throwing-handler 2>&1 | FileCheck %s --check-prefix=THROWING
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t no-handler 2>&1 | FileCheck %s --check-prefix=NO-HANDLER
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sys/resource.h>

static const size_t kHuge = size_t(1) << 50;

__attribute__((noinline)) char *huge_new() { return new char[kHuge]; }

static char *reserve;
static int handler_calls;

// Frees the reserve and uninstalls itself: the retry must then succeed.
static void free_reserve() {
  handler_calls++;
  free(reserve);
  reserve = nullptr;
  std::set_new_handler(nullptr);
}

static void throw_bad_alloc() {
  handler_calls++;
  throw std::bad_alloc();
}

// Limits the address space to what is mapped now plus extra.
static void limit_address_space(size_t extra) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (!f || fscanf(f, "%lu", &pages) != 1)
    abort();
  fclose(f);
  struct rlimit rl;
  rl.rlim_cur = rl.rlim_max = pages * 4096 + extra;
  if (setrlimit(RLIMIT_AS, &rl))
    abort();
}

int main(int argc, char **argv) {
  if (!strcmp(argv[1], "nothrow")) {
    char *p = new (std::nothrow) char[kHuge];
    char *q = new (std::nothrow) char[16];
    fprintf(stderr, "nothrow huge: %s, small: %s\n", p ? "NOT NULL" : "NULL",
            q ? "ok" : "NULL");
    delete[] q;
    // NOTHROW: nothrow huge: NULL, small: ok
    // The failed allocation is not profiled; the small one is.
    // NOTHROW-NOT: MIB:{{.*}}/1125899906842624/
    // NOTHROW: MIB:{{[0-9]+}}/1/16.00/16/16/
    // NOTHROW-NOT: MIB:{{.*}}/1125899906842624/
    return 0;
  }
  if (!strcmp(argv[1], "handler")) {
    // A 100 MiB reserve, then 100 MiB more address space allowed: 150 MiB
    // fit only once the reserve is gone.
    reserve = (char *)malloc(100 << 20);
    limit_address_space(100 << 20);
    std::set_new_handler(free_reserve);
    char *p = new char[150 << 20];
    p[0] = 1;
    fprintf(stderr, "handler calls: %d, allocation %s\n", handler_calls,
            p ? "succeeded" : "failed");
    // HANDLER: handler calls: 1, allocation succeeded
    delete[] p;
    return 0;
  }
  if (!strcmp(argv[1], "throwing-handler")) {
    std::set_new_handler(throw_bad_alloc);
    try {
      huge_new();
      fprintf(stderr, "no exception\n");
    } catch (const std::bad_alloc &) {
      fprintf(stderr, "caught bad_alloc after %d handler call(s)\n",
              handler_calls);
    }
    // THROWING: caught bad_alloc after 1 handler call(s)
    return 0;
  }
  huge_new();
  fprintf(stderr, "program finished\n");
  return 0;
}
// NO-HANDLER: HeapProf: ERROR: out-of-memory: operator new cannot allocate 0x4000000000000 (1125899906842624) bytes and no new_handler is installed (pc 0x{{[0-9a-f]+}})
// NO-HANDLER-NEXT: #0 0x{{[0-9a-f]+}} in huge_new{{.*}}new_failure.cpp
// NO-HANDLER-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}new_failure.cpp
// NO-HANDLER: HeapProf: ABORTING
// NO-HANDLER-NEXT: HeapProf profile: {{.*}}, error, dump 0
// NO-HANDLER-NOT: program finished
