// Above the allocation site too, a run of the C++ standard library's frames
// between two of the program's is the library function the program called:
// std::make_shared of a Holder, whose constructor make_shared's a Leaf,
// reaches Holder::Holder through seven of libstdc++'s frames
// (std::_Construct, std::allocator_traits::construct,
// std::_Sp_counted_ptr_inplace, std::__shared_count, std::__shared_ptr,
// std::shared_ptr, std::make_shared).  Those filled the chains of the leak,
// peak and cold tables (--depth 4: std::make_shared <- Holder::Holder <-
// std::_Construct <- std::allocator_traits::construct), and the Leafs that
// make_a's and make_b's Holders made were one row.  yaml-cpp's nodes
// (make_shared<node> -> node::node -> make_shared<node_ref> ->
// node_ref::node_ref -> make_shared<node_data>) read so.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clangxx_heapprof -O0 -g %S/Inputs/nested-make-shared.cpp -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir:detect_leaks=0:peak_threshold_kb=0 %run %t
// RUN: heapprof report --depth 4 %t.dir | FileCheck %s
// RUN: heapprof report --depth 4 --format json %t.dir | %python -c "import json,sys; [print(l['bytes'], l['objects'], [f['function'] for f in l['chain']]) for l in json.load(sys.stdin)['leaks'] if l['bytes'] < 1000]" | FileCheck %s --check-prefix=JSON
// The program: Inputs/nested-make-shared.cpp.

// make_shared's block is its 16-byte count (a vtable pointer, two 4-byte
// counts) and the object: a Leaf's 16 + 32 = 48 bytes, a Holder's 16 + 16 =
// 32; the shared_ptr each caller keeps, 16.  Everything is kept, and the
// leak table (detect_leaks=0) lists what is live at the end, after
// libstdc++'s emergency pool: make_b's 5 Leafs, 240 bytes, and make_a's 3,
// 144 bytes, each its own row (before, one row of 384 bytes in 8 objects);
// the Holders, 5 x 32 and 3 x 32; the shared_ptrs, 5 x 16 and 3 x 16.
// CHECK: == Memory leaks: live at the end
// CHECK: 240 B {{.*}} 5 std::make_shared ({{.*}}shared_ptr.h:{{[0-9]+}}:{{[0-9]+}}) <- Holder::Holder ({{.*}}nested-make-shared.cpp:13:{{[0-9]+}}) <- std::make_shared ({{.*}}shared_ptr.h:{{[0-9]+}}:{{[0-9]+}}) <- make_b ({{.*}}nested-make-shared.cpp:23:{{[0-9]+}})
// CHECK-NEXT: 160 B {{.*}} 5 std::make_shared ({{.*}}) <- make_b ({{.*}}nested-make-shared.cpp:23:{{[0-9]+}}) <- main ({{.*}}nested-make-shared.cpp:30:
// CHECK-NEXT: 144 B {{.*}} 3 std::make_shared ({{.*}}) <- Holder::Holder ({{.*}}nested-make-shared.cpp:13:{{[0-9]+}}) <- std::make_shared ({{.*}}) <- make_a ({{.*}}nested-make-shared.cpp:19:{{[0-9]+}})
// CHECK-NEXT: 96 B {{.*}} 3 std::make_shared ({{.*}}) <- make_a ({{.*}}nested-make-shared.cpp:19:{{[0-9]+}}) <- main ({{.*}}nested-make-shared.cpp:28:
// CHECK-NEXT: 80 B {{.*}} 5 make_b ({{.*}}nested-make-shared.cpp:23:{{[0-9]+}}) <- main (
// CHECK-NEXT: 48 B {{.*}} 3 make_a ({{.*}}nested-make-shared.cpp:19:{{[0-9]+}}) <- main (
// The peak is the end: the pool (72704 bytes) and the 24 objects, 768
// bytes: 73472 bytes in 25 objects, in the same rows.
// CHECK: == The peak
// CHECK-NEXT: 73472 bytes {{.*}} in 25 objects
// CHECK: 240 {{.*}} 5 std::make_shared ({{.*}}) <- Holder::Holder ({{.*}}) <- std::make_shared ({{.*}}) <- make_b (
// CHECK: 144 {{.*}} 3 std::make_shared ({{.*}}) <- Holder::Holder ({{.*}}) <- std::make_shared ({{.*}}) <- make_a (
// JSON: 240 5 ['std::make_shared', 'Holder::Holder', 'std::make_shared', 'make_b']
// JSON-NEXT: 160 5 ['std::make_shared', 'make_b', 'main']
// JSON-NEXT: 144 3 ['std::make_shared', 'Holder::Holder', 'std::make_shared', 'make_a']
// JSON-NEXT: 96 3 ['std::make_shared', 'make_a', 'main']
