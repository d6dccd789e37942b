// -fheapprof when linking: the runtime archive whole (the allocator and
// interceptors must win over libc's), its symbols exported through the
// dynamic list so that instrumented shared objects bind to them, the
// libraries it needs, and a build id for symbolization.  No C++ runtime for
// the C driver.
// REQUIRES: heapprof-driver
// RUN: heapprof-clang -fheapprof -### %s -o %t 2>&1 | FileCheck %s -DLIB=%heapprof_lib_dir
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof %s -o %t | FileCheck %s --check-prefix=ARGS -DLIB=%heapprof_lib_dir -DINC=%heapprof_include_dir

// CHECK:      "-cc1"
// CHECK-SAME: "-fpass-plugin=[[LIB]]/HeapProfiler.so"
// CHECK:      "{{[^"]*}}ld"
// CHECK-NOT:  libheapprof_cxx
// CHECK-SAME: "--build-id"
// CHECK-SAME: "--whole-archive" "[[LIB]]/libheapprof_rt.a" "--no-whole-archive" "--dynamic-list=[[LIB]]/libheapprof_rt.a.syms" "-lpthread" "-ldl" "-lm"

// The build id goes before the user's arguments, so that a
// -Wl,--build-id=STYLE of theirs wins.
// ARGS: {{^}}-gline-tables-only -Wl,--build-id {{.*}} -fdebug-info-for-profiling -idirafter [[INC]] -Wl,--whole-archive [[LIB]]/libheapprof_rt.a -Wl,--no-whole-archive -Wl,--dynamic-list=[[LIB]]/libheapprof_rt.a.syms -lpthread -ldl -lm{{$}}

// Linking objects only: the same link line.
// RUN: heapprof-clang -c %s -o %t.o
// RUN: heapprof-clang -fheapprof -### %t.o -o %t 2>&1 | FileCheck %s --check-prefix=OBJ -DLIB=%heapprof_lib_dir
// OBJ-NOT:  "-cc1"
// OBJ:      "{{[^"]*}}ld"
// OBJ-SAME: "--whole-archive" "[[LIB]]/libheapprof_rt.a" "--no-whole-archive"

int main(void) { return 0; }
