// operator new follows the C++ standard under heapprof as without it: a
// throwing new that cannot allocate calls the new_handler while there is one
// and then throws std::bad_alloc, which the program catches and goes on (its
// profile is written at exit); a nothrow new returns NULL, also when the
// new_handler throws.  allocator_may_return_null=0 is the documented
// exception: "no new_handler left" is reported and aborts instead.
// RUN: %clangxx_rt_heapprof -O0 %s -o %t
// RUN: %clangxx_plain -O0 %s -o %t.plain
//
// The program's own output is the same with and without heapprof.
// RUN: %run %t.plain throw 2>&1 | FileCheck %s --check-prefix=THROW
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1 %run %t throw 2>&1 | FileCheck %s --check-prefixes=THROW,THROW-PROFILE
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1:halt_on_error=0 %run %t throw 2>&1 | FileCheck %s --check-prefixes=THROW,THROW-PROFILE
// RUN: %run %t.plain vector 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: %env_heapprof_opts=log_path=stderr %run %t vector 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: %run %t.plain gives-up 2>&1 | FileCheck %s --check-prefix=GIVES-UP
// RUN: %env_heapprof_opts=log_path=stderr %run %t gives-up 2>&1 | FileCheck %s --check-prefix=GIVES-UP
// RUN: %run %t.plain throwing-handler 2>&1 | FileCheck %s --check-prefix=THROWING
// RUN: %env_heapprof_opts=log_path=stderr %run %t throwing-handler 2>&1 | FileCheck %s --check-prefix=THROWING
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1 %run %t nothrow 2>&1 | FileCheck %s --check-prefix=NOTHROW
// RUN: %env_heapprof_opts=log_path=stderr %run %t handler 2>&1 | FileCheck %s --check-prefix=HANDLER
//
// max_allocation_size_mb fails new like any allocation: bad_alloc.
// RUN: %env_heapprof_opts=log_path=stderr:print_terse=1:max_allocation_size_mb=1 %run %t too-big 2>&1 | FileCheck %s --check-prefix=TOO-BIG
//
// allocator_may_return_null=0: report and abort, for new and nothrow new.
// RUN: %env_heapprof_opts=log_path=stderr:allocator_may_return_null=0 not --crash %run %t no-handler 2>&1 | FileCheck %s --check-prefix=ABORT
// RUN: %env_heapprof_opts=log_path=stderr:allocator_may_return_null=0 not --crash %run %t nothrow 2>&1 | FileCheck %s --check-prefix=ABORT-NOTHROW
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <sys/resource.h>
#include <vector>

// Far more than any allocator can give (heapprof's limit is 1 TiB, the
// address space 128 TiB), and no overflow in new[]'s size computation.
// Volatile: clang rejects a constant array size that large.
static volatile size_t kHuge = size_t(1) << 62;

// heapprof's hot/cold operator new (docs/pgo.md); libstdc++ has none, so
// only the heapprof build calls it.
enum class __hot_cold_t : std::uint8_t;
void *operator new(std::size_t, __hot_cold_t) __attribute__((weak));

struct alignas(64) Line {
  char bytes[64];
};

__attribute__((noinline)) char *huge_new() { return new char[kHuge]; }
__attribute__((noinline)) char *small_new() { return new char[16]; }

static char *volatile keep;
static char *reserve;
static int handler_calls;

// Frees the reserve and uninstalls itself: the retry must then succeed.
static void free_reserve() {
  handler_calls++;
  free(reserve);
  reserve = nullptr;
  std::set_new_handler(nullptr);
}

// Gives up: with no handler left the retry throws bad_alloc.
static void give_up() {
  handler_calls++;
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

// Runs f, which must throw std::bad_alloc; says what happened.
template <class F> static void expect_bad_alloc(const char *what, F f) {
  try {
    keep = (char *)f();
    fprintf(stderr, "%s: no exception\n", what);
  } catch (const std::bad_alloc &) {
    fprintf(stderr, "%s: caught bad_alloc\n", what);
  }
}

int main(int argc, char **argv) {
  if (!strcmp(argv[1], "throw")) {
    // Each form of throwing new, through C++ and heapprof's C frames.
    expect_bad_alloc("new", [] { return ::operator new(kHuge); });
    expect_bad_alloc("new[]", [] { return huge_new(); });
    expect_bad_alloc("aligned new", [] {
      return ::operator new(kHuge, std::align_val_t(64));
    });
    expect_bad_alloc("aligned new[]", [] { return new Line[kHuge / 64]; });
    void *(*hot_cold_new)(std::size_t, __hot_cold_t) = &::operator new;
    if (hot_cold_new) // weak: heapprof only
      expect_bad_alloc("hot/cold new",
                       [] { return ::operator new(kHuge, __hot_cold_t(1)); });
    else
      fprintf(stderr, "hot/cold new: caught bad_alloc\n");
    // ... and the program goes on.
    keep = small_new();
    delete[] keep;
    fprintf(stderr, "program continues\n");
    return 0;
  }
  // THROW: new: caught bad_alloc
  // THROW-NEXT: new[]: caught bad_alloc
  // THROW-NEXT: aligned new: caught bad_alloc
  // THROW-NEXT: aligned new[]: caught bad_alloc
  // THROW-NEXT: hot/cold new: caught bad_alloc
  // THROW-NEXT: program continues
  // The exit profile is written and has the 16-byte array; the failed
  // requests are not in it.
  // THROW-PROFILE: HeapProf profile: {{.*}}, exit, dump 0,
  // THROW-PROFILE-NOT: /4294967295/
  // THROW-PROFILE: MIB:[[ID:[0-9]+]]/1/16.00/16/16/
  // THROW-PROFILE-NOT: /4294967295/
  // THROW-PROFILE: Stack for id [[ID]]:
  // THROW-PROFILE-NEXT: #0 0x{{[0-9a-f]+}} in small_new(){{.*}}new_failure.cpp

  if (!strcmp(argv[1], "vector")) {
    std::vector<char> v;
    // Below max_size(): the allocator is asked and fails.
    try {
      v.reserve(kHuge);
      fprintf(stderr, "reserve(2^62): no exception\n");
    } catch (const std::bad_alloc &) {
      fprintf(stderr, "reserve(2^62): bad_alloc\n");
    }
    // Above max_size(): the library refuses before asking.
    try {
      v.reserve(v.max_size() + 1);
      fprintf(stderr, "reserve(max_size()+1): no exception\n");
    } catch (const std::length_error &) {
      fprintf(stderr, "reserve(max_size()+1): length_error\n");
    }
    v.push_back('x');
    fprintf(stderr, "size %zu\n", v.size());
    return 0;
  }
  // VECTOR: reserve(2^62): bad_alloc
  // VECTOR-NEXT: reserve(max_size()+1): length_error
  // VECTOR-NEXT: size 1

  if (!strcmp(argv[1], "gives-up")) {
    std::set_new_handler(give_up);
    try {
      huge_new();
      fprintf(stderr, "no exception\n");
    } catch (const std::bad_alloc &) {
      fprintf(stderr, "caught bad_alloc after %d handler call(s)\n",
              handler_calls);
    }
    return 0;
  }
  // GIVES-UP: caught bad_alloc after 1 handler call(s)

  if (!strcmp(argv[1], "throwing-handler")) {
    std::set_new_handler(throw_bad_alloc);
    try {
      huge_new();
      fprintf(stderr, "no exception\n");
    } catch (const std::bad_alloc &) {
      fprintf(stderr, "caught bad_alloc after %d handler call(s)\n",
              handler_calls);
    }
    // A nothrow new turns the handler's exception into NULL.
    char *p = new (std::nothrow) char[kHuge];
    fprintf(stderr, "nothrow: %s after %d handler call(s)\n",
            p ? "NOT NULL" : "NULL", handler_calls);
    return 0;
  }
  // THROWING: caught bad_alloc after 1 handler call(s)
  // THROWING-NEXT: nothrow: NULL after 2 handler call(s)

  if (!strcmp(argv[1], "nothrow")) {
    char *p = new (std::nothrow) char[kHuge];
    void *a = ::operator new(kHuge, std::nothrow);
    void *b = ::operator new[](kHuge, std::align_val_t(64), std::nothrow);
    char *q = new (std::nothrow) char[16];
    fprintf(stderr, "nothrow huge: %s %s %s, small: %s\n", p ? "NOT NULL" : "NULL",
            a ? "NOT NULL" : "NULL", b ? "NOT NULL" : "NULL", q ? "ok" : "NULL");
    delete[] q;
    return 0;
  }
  // NOTHROW: nothrow huge: NULL NULL NULL, small: ok
  // The failed allocations are not profiled; the small one is.
  // NOTHROW-NOT: /4294967295/
  // NOTHROW: MIB:{{[0-9]+}}/1/16.00/16/16/
  // NOTHROW-NOT: /4294967295/

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
    delete[] p;
    return 0;
  }
  // HANDLER: handler calls: 1, allocation succeeded

  if (!strcmp(argv[1], "too-big")) {
    expect_bad_alloc("2 MiB", [] { return new char[2 << 20]; });
    keep = new char[1 << 20];
    fprintf(stderr, "1 MiB: %s\n", keep ? "ok" : "NULL");
    delete[] keep;
    return 0;
  }
  // TOO-BIG: 2 MiB: caught bad_alloc
  // TOO-BIG-NEXT: 1 MiB: ok
  // TOO-BIG: MIB:{{[0-9]+}}/1/1048576.00/1048576/1048576/

  huge_new();
  fprintf(stderr, "program finished\n");
  return 0;
}
// ABORT: HeapProf: ERROR: out-of-memory: operator new cannot allocate 0x4000000000000000 (4611686018427387904) bytes and no new_handler is installed (pc 0x{{[0-9a-f]+}})
// ABORT-NEXT: #0 0x{{[0-9a-f]+}} in huge_new{{.*}}new_failure.cpp
// ABORT-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}new_failure.cpp
// Like every report, it ends with the hint of the option that changes it.
// ABORT: HINT: HEAPPROF_OPTIONS=allocator_may_return_null=1 throws std::bad_alloc instead (the nothrow forms return NULL)
// ABORT-NEXT: HeapProf: ABORTING
// ABORT-NEXT: HeapProf profile: {{.*}}, error, dump 0
// ABORT-NOT: program finished

// ABORT-NOTHROW: HeapProf: ERROR: out-of-memory: operator new cannot allocate 0x4000000000000000 (4611686018427387904) bytes and no new_handler is installed (pc 0x{{[0-9a-f]+}})
// ABORT-NOTHROW-NEXT: #0 0x{{[0-9a-f]+}} in main {{.*}}new_failure.cpp
// ABORT-NOTHROW: HINT: HEAPPROF_OPTIONS=allocator_may_return_null=1 throws std::bad_alloc instead (the nothrow forms return NULL)
// ABORT-NOTHROW-NEXT: HeapProf: ABORTING
// ABORT-NOTHROW-NOT: nothrow huge
