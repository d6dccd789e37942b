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
// Loaded into a program without the runtime (Python's ctypes, through
// dlopen), the loader refuses it, naming the shadow base that its counted
// accesses read (a data relocation, bound at load even with RTLD_LAZY);
// one with no counted access names the constructor's __heapprof_init.
// RUN: heapprof-clang -fheapprof -fPIC -shared %s -o %t-load.so
// RUN: not %python -c "import ctypes, sys; ctypes.CDLL(sys.argv[1])" %t-load.so 2>&1 | FileCheck %s --check-prefix=LOAD
// LOAD: undefined symbol: __heapprof_shadow_memory_dynamic_address
// RUN: heapprof-clang -fheapprof -fPIC -shared -DNO_ACCESS %s -o %t-init.so
// RUN: not %python -c "import ctypes, sys; ctypes.CDLL(sys.argv[1])" %t-init.so 2>&1 | FileCheck %s --check-prefix=INIT
// INIT: undefined symbol: __heapprof_init

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

#ifdef NO_ACCESS
int shared_fn(int x) { return x + 1; }
#else
int shared_fn(int *p) { return *p; }
#endif
