// What pprof's drop_frames cannot do (user-guide.md, "Reading it in
// pprof"): std::make_shared of a Holder whose constructor make_shared's a
// Leaf has std::__shared_count::__shared_count both below the inner
// make_shared (passed over by report's chains) and between the two (shown:
// std::make_shared <- Holder::Holder <- std::make_shared <- make_a).  pprof
// drops by name, the outermost matching frame and all it called, so the
// name is not listed (it would drop Holder::Holder), and go tool pprof
// -top gives every make_shared block's bytes to it, flat, where report's
// direct allocation table gives them to std::make_shared.
// REQUIRES: go-pprof
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clangxx_heapprof -O0 -g %S/Inputs/nested-make-shared.cpp -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir:detect_leaks=0 %run %t
// RUN: heapprof report %t.dir | FileCheck %s --check-prefix=DIRECT
// RUN: heapprof pprof -o %t.pb.gz %t.dir
// RUN: go tool pprof -top -nodefraction=0 -unit=B %t.pb.gz | FileCheck %s
// The program: Inputs/nested-make-shared.cpp.

// The 8 Leafs' blocks, 48 bytes each, and the 8 Holders', 32 each: 640
// bytes in 16 calls of std::make_shared; the shared_ptrs, 16 bytes each,
// are make_a's (3, 48 bytes) and make_b's (5, 80): under make_b, 5 x (48 +
// 32 + 16) = 480 bytes, under make_a 3 x 96 = 288.
// DIRECT: == Direct allocation
// DIRECT: 640 B 640 B 16 {{.*}} std::make_shared
// DIRECT: 80 B 80 B 5 {{.*}} make_b
// DIRECT: 48 B 48 B 3 {{.*}} make_a
// CHECK: flat
// CHECK-DAG: {{^ *}}640B {{.*}} 640B {{.*}} std::__shared_count::__shared_count{{$}}
// CHECK-DAG: {{^ *}}80B {{.*}} 480B {{.*}} make_b{{$}}
// CHECK-DAG: {{^ *}}48B {{.*}} 288B {{.*}} make_a{{$}}
// CHECK-DAG: {{^ *}}0 {{.*}} 640B {{.*}} std::make_shared{{$}}
