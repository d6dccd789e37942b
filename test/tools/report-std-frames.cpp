// The call chains of the leak, peak and cold tables begin, for an
// allocation the C++ standard library makes for the program, at the
// library function the program called (std::map::operator[],
// std::vector::push_back), not at its allocator plumbing
// (std::__new_allocator::allocate <- std::allocator_traits::allocate <- ...),
// which made every map of the program one row.  The top contexts keep the
// whole stacks.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clangxx_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir:detect_leaks=0:peak_threshold_kb=0 %run %t
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: heapprof report --full-names %t.dir | FileCheck %s --check-prefix=FULL
// RUN: heapprof report --format json %t.dir | %python -c "import json,sys; [print(l['bytes'], l['objects'], [f['function'] for f in l['chain']]) for l in json.load(sys.stdin)['leaks'] if l['objects'] >= 50]" | FileCheck %s --check-prefix=JSON
#include <map>
#include <vector>

std::map<long, long> *volatile orders, *volatile customers;
std::vector<long> *volatile history;

__attribute__((noinline)) void fill_orders() {
  orders = new std::map<long, long>;
  for (long i = 0; i < 100; i++)
    (*orders)[i] = i; // 100 nodes
}

__attribute__((noinline)) void fill_customers() {
  customers = new std::map<long, long>;
  for (long i = 0; i < 50; i++)
    (*customers)[i] = i; // 50 nodes
}

__attribute__((noinline)) void grow_history() {
  history = new std::vector<long>;
  for (long i = 0; i < 64; i++)
    history->push_back(i); // capacities 1, 2, 4, ..., 64
}

int main() {
  fill_orders();
  fill_customers();
  grow_history();
  return 0;
}

// A node of std::map<long, long> is the tree's 32-byte header and the
// pair<const long, long>, 16 bytes: 48 bytes.  Everything is kept, and the
// leak table (detect_leaks=0) lists what is live at the end (after
// libstdc++'s emergency pool, 72704 bytes): orders' 100
// nodes, 4800 bytes, and customers' 50, 2400 bytes, each its own row (before,
// one row of 7200 bytes in 150 objects under
// std::__new_allocator::allocate); the vector's last buffer, 64 longs.
// CHECK: == Memory leaks: live at the end
// CHECK: 4800 B {{.*}} 100 std::map::operator[] ({{.*}}stl_map.h:{{[0-9]+}}:{{[0-9]+}}) <- fill_orders ({{.*}}report-std-frames.cpp:23:{{[0-9]+}}) <- main ({{.*}}report-std-frames.cpp:39:
// CHECK-NEXT: 2400 B {{.*}} 50 std::map::operator[] ({{.*}}) <- fill_customers ({{.*}}report-std-frames.cpp:29:{{[0-9]+}}) <- main ({{.*}}report-std-frames.cpp:40:
// CHECK-NEXT: 512 B {{.*}} 1 std::vector::push_back ({{.*}}) <- grow_history ({{.*}}report-std-frames.cpp:35:{{[0-9]+}}) <- main ({{.*}}report-std-frames.cpp:41:
// The heap's peak is during the last growth, the 64-long buffer (512 bytes)
// made before the 32-long one (256) is freed: 2 buffers, 768 bytes, in
// the vector's row (peak_threshold_kb=0: a snapshot at every 64 bytes of
// growth, so that one is not passed over).  With the pool, the nodes and
// the three containers (48 + 48 + 24 bytes): 80792 bytes in 156 objects.
// CHECK: == The peak
// CHECK-NEXT: 80792 bytes {{.*}} in 156 objects
// CHECK: 4800 {{.*}} 100 std::map::operator[] ({{.*}}) <- fill_orders (
// CHECK-NEXT: 2400 {{.*}} 50 std::map::operator[] ({{.*}}) <- fill_customers (
// CHECK-NEXT: 768 {{.*}} 2 std::vector::push_back ({{.*}}) <- grow_history (
// The short name is what tells a standard library frame; --full-names
// shows the same frames whole.
// FULL: == Memory leaks: live at the end
// FULL: 4800 B {{.*}} 100 std::map<long, long, {{.*}}>::operator[](long const&) ({{.*}}) <- fill_orders() (
// JSON: 4800 100 ['std::map::operator[]', 'fill_orders', 'main']
// JSON-NEXT: 2400 50 ['std::map::operator[]', 'fill_customers', 'main']
// The direct allocation table names the same function: the two maps' 150
// nodes, 7200 bytes, all kept, are std::map::operator[]'s; the vector's
// buffers of 1, 2, 4, ..., 64 longs, 8 x 127 = 1016 bytes in 7 calls, of
// which the last, 512 bytes, is kept, std::vector::push_back's (before, one
// row of 8216 bytes in 157 calls under std::__new_allocator::allocate).
// RUN: heapprof report %t.dir | FileCheck %s --check-prefix=DIRECT
// RUN: heapprof report --format json %t.dir | %python -c "import json,sys; [print('direct', d['bytes'], d['kept_bytes'], d['calls'], d['function']) for d in json.load(sys.stdin)['direct'] if d['function'].startswith('std::')]" | FileCheck %s --check-prefix=JSON-DIRECT
// DIRECT: == Direct allocation
// DIRECT-NOT: std::__new_allocator
// DIRECT: 7200 B 7200 B 150 {{.*}} std::map::operator[]
// DIRECT-NEXT: 1016 B 512 B 7 {{.*}} std::vector::push_back
// DIRECT-NOT: std::__new_allocator
// DIRECT: == Allocation call graph
// JSON-DIRECT: direct 7200 7200 150 std::map::operator[]
// JSON-DIRECT-NEXT: direct 1016 512 7 std::vector::push_back
// JSON-DIRECT-NOT: direct
