// -shared (and -r): the code is instrumented but no runtime goes into the
// output, as clang does with its static sanitizer runtimes.  The object's
// __heapprof_* references bind at load time to the executable's runtime,
// which exports them through its --dynamic-list.
// REQUIRES: heapprof-driver
// RUN: heapprof-clang -fheapprof -fPIC -shared -### %s -o %t.so 2>&1 | FileCheck %s -DLIB=%heapprof_lib_dir
// RUN: heapprof-clang -fheapprof -r -### %s -o %t.o 2>&1 | FileCheck %s --check-prefix=RELOC -DLIB=%heapprof_lib_dir
// The same when the linker is told directly, through -Wl, (anywhere in its
// list) or -Xlinker, which got the runtime linked into the shared object.
// RUN: heapprof-clang -fheapprof -fPIC -Wl,-shared -### %s -o %t.so 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: heapprof-clang -fheapprof -fPIC -Wl,-soname,x.so,--shared -### %s -o %t.so 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: heapprof-clang -fheapprof -fPIC -Wl,-Bshareable -### %s -o %t.so 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: heapprof-clang -fheapprof -fPIC -Xlinker -shared -### %s -o %t.so 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: heapprof-clang -fheapprof -Wl,--relocatable -### %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: heapprof-clang -fheapprof -Xlinker -r -### %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NORT
// NORT:     "-cc1"
// NORT:     "{{[^"]*}}/{{ld|ld.bfd|ld.lld}}"
// NORT-NOT: libheapprof
// Other linker options change nothing: the runtime is linked.
// RUN: heapprof-clang -fheapprof -Wl,-z,now -Xlinker -z -Xlinker relro -### %s -o %t 2>&1 | FileCheck %s --check-prefix=RT
// RT:       "--whole-archive" "{{[^"]*}}/libheapprof_rt.a"

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
