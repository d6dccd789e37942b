// -shared (and -r): the code is instrumented but no runtime goes into the
// output, as clang does with its static sanitizer runtimes.  The object's
// __heapprof_* references bind at load time to the executable's runtime,
// which exports them through its --dynamic-list.
// REQUIRES: heapprof-driver
// RUN: heapprof-clang -fheapprof -fPIC -shared -### %s -o %t.so 2>&1 | FileCheck %s -DLIB=%heapprof_lib_dir
// RUN: heapprof-clang -fheapprof -r -### %s -o %t.o 2>&1 | FileCheck %s --check-prefix=RELOC -DLIB=%heapprof_lib_dir

// CHECK:      "-cc1"
// CHECK-SAME: "-fpass-plugin=[[LIB]]/HeapProfiler.so"
// CHECK:      "{{[^"]*}}ld"
// CHECK-SAME: "-shared"
// CHECK-NOT:  libheapprof
// CHECK-NOT:  "--dynamic-list
// CHECK-SAME: "--build-id"

// RELOC:      "-fpass-plugin=[[LIB]]/HeapProfiler.so"
// RELOC:      "{{[^"]*}}ld"
// RELOC-SAME: "-r"
// RELOC-NOT:  libheapprof

int shared_fn(int *p) { return *p; }
