// heapprof pprof: drop_frames names the C++ standard library's allocator
// plumbing that report's call chains pass over (chainFrames), so that
// `go tool pprof -top` gives an allocation the library made to the library
// function the program called, as report does, and not every container's
// bytes to std::__new_allocator::allocate.  Code of the program reached
// through the library (a lambda through std::function) keeps its frames.
// REQUIRES: go-pprof
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clangxx_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir:detect_leaks=0 %run %t
// RUN: heapprof pprof -o %t.pb.gz %t.dir
// RUN: go tool pprof -top -nodefraction=0 -unit=B %t.pb.gz | FileCheck %s
// RUN: heapprof pprof --full-names -o %t.full.pb.gz %t.dir
// RUN: go tool pprof -top -nodefraction=0 -unit=B %t.full.pb.gz | FileCheck %s --check-prefix=FULL
// RUN: go tool pprof -symbolize=none -top -nodefraction=0 -unit=B %t.full.pb.gz | FileCheck %s --check-prefix=NONE
#include <functional>
#include <map>
#include <vector>

std::map<long, long> *volatile orders, *volatile customers;
std::vector<long> *volatile history;
long *volatile task_buffer;

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

__attribute__((noinline)) void run_task() {
  std::function<void()> task = [] { task_buffer = new long[16]; };
  task();
}

int main() {
  fill_orders();
  fill_customers();
  grow_history();
  run_task();
  return 0;
}

// A node of std::map<long, long> is 48 bytes (the tree's 32-byte header and
// the pair, 16): the two maps' 150 nodes, 4800 + 2400 = 7200 bytes, are
// std::map::operator[]'s own bytes; the vector's buffers of 1, 2, ..., 64
// longs, 8 x 127 = 1016 bytes, std::vector::push_back's.  The lambda's
// 16 longs, 128 bytes, stay the lambda's, below std::function (a rule that
// dropped every std:: frame would give them to run_task).
// CHECK: Type: alloc_space
// CHECK-NOT: __new_allocator
// CHECK: 7200B {{.*}} 7200B {{.*}} std::map::operator[]{{$}}
// CHECK-NEXT: 1016B {{.*}} 1016B {{.*}} std::vector::push_back{{$}}
// CHECK-NOT: __new_allocator
// CHECK: 128B {{.*}} 128B {{.*}} run_task{{.*}}operator()
// CHECK-NOT: __new_allocator
// CHECK: 0 {{.*}} 128B {{.*}} std::function::operator()
// CHECK-NOT: __new_allocator
// With --full-names every name is its system_name, so pprof shortens it
// itself before it matches drop_frames (its symbolizer's heuristics: the
// (...) and then the <...> parts removed), and drop_frames lists those
// forms: both allocate instantiations (std::__new_allocator<std::
// _Rb_tree_node<...>>::allocate(unsigned long, void const*), and <long>'s)
// are the one name std::__new_allocator::allocate, and "void
// std::vector<long>::_M_realloc_insert<long const&>(...)" is "void
// std::vector::_M_realloc_insert".  The same bytes as above, under pprof's
// spelling of the names (the lambda's "run_task()::$_0::operator()() const"
// loses its parentheses too).
// FULL: Type: alloc_space
// FULL-NOT: __new_allocator
// FULL: 7200B {{.*}} 7200B {{.*}} std::map::operator[]{{$}}
// FULL-NEXT: 1016B {{.*}} 1016B {{.*}} std::vector::push_back{{$}}
// FULL-NEXT: 128B {{.*}} 128B {{.*}} run_task::$_0::operator const{{$}}
// FULL-NOT: __new_allocator
// FULL-NOT: _M_realloc_insert
// FULL: 0 {{.*}} 128B {{.*}} std::function::operator const{{$}}
// FULL-NOT: __new_allocator
// FULL-NOT: _M_realloc_insert
// With -symbolize=none pprof does not shorten them: it matches the whole
// names, cut at their parameters, which drop_frames does not list (one
// per instantiation), so the allocator's frames stay, each instantiation
// its own: the maps' 7200 bytes, the vector's 1016.
// NONE: Type: alloc_space
// NONE: 7200B {{.*}} std::__new_allocator<std::_Rb_tree_node<{{.*}}>>::allocate(unsigned long, void const*){{$}}
// NONE-NEXT: 1016B {{.*}} std::__new_allocator<long>::allocate(unsigned long, void const*){{$}}
