// -fheapprof -c: the compile job loads the pass plugin both ways
// (-fpass-plugin runs it, -load registers its options), keeps frame pointers
// (also over a user's -fomit-frame-pointer), disables sibling calls and emits
// line tables for profiling; there is no link job and no runtime.
// REQUIRES: heapprof-driver
// RUN: heapprof-clang -fheapprof -### -O2 -c %s -o %t.o 2>&1 | FileCheck %s -DLIB=%heapprof_lib_dir
// RUN: heapprof-clang -fheapprof -### -O2 -fomit-frame-pointer -c %s -o %t.o 2>&1 | FileCheck %s -DLIB=%heapprof_lib_dir
// RUN: heapprof-clang -fheapprof -### -S %s -o %t.s 2>&1 | FileCheck %s -DLIB=%heapprof_lib_dir
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof -O2 -c %s -o %t.o | FileCheck %s --check-prefix=ARGS -DLIB=%heapprof_lib_dir -DSRC=%s -DOBJ=%t.o -DINC=%heapprof_include_dir

// CHECK:      "-cc1"
// CHECK-SAME: "-mframe-pointer=all"
// CHECK-SAME: "-fno-optimize-sibling-calls"
// CHECK-SAME: "-fdebug-info-for-profiling"
// CHECK-SAME: "-debug-info-kind=line-tables-only"
// CHECK-SAME: "-fpass-plugin=[[LIB]]/HeapProfiler.so"
// CHECK-SAME: "-load" "[[LIB]]/HeapProfiler.so"
// CHECK-NOT:  "-heapprof-profile-dir
// CHECK-NOT:  libheapprof
// CHECK-NOT:  "{{[^"]*}}ld"

// The exact command: the user's arguments in order, -gline-tables-only
// first (so that a -g of the user's would win), the rest after.
// ARGS: {{^}}-gline-tables-only -O2 -c [[SRC]] -o [[OBJ]] -fpass-plugin=[[LIB]]/HeapProfiler.so -Xclang -load -Xclang [[LIB]]/HeapProfiler.so -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls -fdebug-info-for-profiling -idirafter [[INC]]{{$}}

int main(void) { return 0; }
