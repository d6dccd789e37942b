// The false sharing table's contexts are named by the first frame of their
// call chains (chainFrames): for an allocation the C++ standard library
// made, the library function the program called, not its allocator
// plumbing (std::__new_allocator::allocate on both sides of every pair).
// Threads A and B take turns (each created and joined before the next
// starts), each adding one node to its own std::map.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clangxx_heapprof -O0 -g %s -o %t -lpthread
// RUN: %env_heapprof_opts=false_sharing=1:detect_leaks=0:profile_dir=%t.dir %run %t
// RUN: heapprof report %t.dir | FileCheck %s
#include <map>
#include <pthread.h>

#define ROUNDS 100

static std::map<long, long> map_a, map_b; // not on the heap
static long round_no;

__attribute__((noinline)) static void add_a() { map_a[round_no] = 1; }
__attribute__((noinline)) static void add_b() { map_b[round_no] = 2; }
static void *thread_a(void *) {
  add_a();
  return nullptr;
}
static void *thread_b(void *) {
  add_b();
  return nullptr;
}

int main() {
  for (round_no = 0; round_no < ROUNDS; round_no++) {
    pthread_t t;
    pthread_create(&t, nullptr, thread_a, nullptr);
    pthread_join(t, nullptr);
    pthread_create(&t, nullptr, thread_b, nullptr);
    pthread_join(t, nullptr);
  }
  return 0;
}

// A node of std::map<long, long> is 48 bytes (the tree's 32-byte header and
// the pair, 16).  Packed in 16-byte slots, one sequence per size, the
// nodes alternate A1 B1 A2 B2 ...: 200 x 48 = 9600 bytes, 150 lines of 64
// bytes, and each line holds parts of two neighbouring nodes, one of each
// thread: 150 lines shared, all by the pair of the two maps' node contexts.
// CHECK: == False sharing under a packed allocator
// CHECK-NEXT: passive: 150 of {{[0-9]+}} cache lines would hold objects allocated by different threads
// CHECK: passive lines active writes active lines context with context
// CHECK-NEXT: 150 0 0 std::map::operator[] ({{.*}}stl_map.h:{{[0-9]+}}:{{[0-9]+}}) std::map::operator[] ({{.*}}stl_map.h:{{[0-9]+}}:{{[0-9]+}}){{$}}
