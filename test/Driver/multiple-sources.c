// Several sources and an object: every compile job gets the plugin (and
// the profile directory), the one link job gets the runtime once.
// REQUIRES: heapprof-driver
// RUN: heapprof-clang -c %s -o %t.o
// RUN: heapprof-clang -fheapprof=out -### %s %S/Inputs/second.c %t.o -o %t 2>&1 | FileCheck %s -DLIB=%heapprof_lib_dir

// CHECK:      "-cc1"
// CHECK-SAME: "-main-file-name" "multiple-sources.c"
// CHECK-SAME: "-fpass-plugin=[[LIB]]/HeapProfiler.so"
// CHECK-SAME: "-heapprof-profile-dir=out"
// CHECK:      "-cc1"
// CHECK-SAME: "-main-file-name" "second.c"
// CHECK-SAME: "-fpass-plugin=[[LIB]]/HeapProfiler.so"
// CHECK-SAME: "-heapprof-profile-dir=out"
// CHECK-NOT:  "-cc1"
// CHECK:      "{{[^"]*}}ld"
// CHECK-SAME: "[[LIB]]/libheapprof_rt.a"
// CHECK-NOT:  "[[LIB]]/libheapprof_rt.a"

int main(void) { return 0; }
