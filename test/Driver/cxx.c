// heapprof-clang++ runs clang++-19 and also links operator new/delete
// (libheapprof_cxx.a) whole; heapprof-clang (C) does not.  A user's -x LANG
// is ended with -x none before the archives (and restored for inputs after
// "--").
// REQUIRES: heapprof-driver
// RUN: heapprof-clang++ -fheapprof -### -x c++ %s -o %t 2>&1 | FileCheck %s -DLIB=%heapprof_lib_dir
// RUN: env HEAPPROF_CLANGXX=echo heapprof-clang++ -fheapprof -x c++ %s -o %t | FileCheck %s --check-prefix=ARGS -DLIB=%heapprof_lib_dir
// RUN: env HEAPPROF_CLANG=echo HEAPPROF_CLANGXX=false heapprof-clang -fheapprof %s -o %t | FileCheck %s --check-prefix=C

// CHECK:      "-cc1"
// CHECK-SAME: "-fpass-plugin=[[LIB]]/HeapProfiler.so"
// CHECK-SAME: "-x" "c++"
// After -x c++ the archives must not be taken for C++ sources: one compile.
// CHECK-NOT:  "-cc1"
// CHECK:      "{{[^"]*}}ld"
// CHECK-SAME: "--whole-archive" "[[LIB]]/libheapprof_cxx.a" "--no-whole-archive" "--whole-archive" "[[LIB]]/libheapprof_rt.a" "--no-whole-archive"
// CHECK-SAME: "-lstdc++"

// ARGS: -x none -Wl,--whole-archive [[LIB]]/libheapprof_cxx.a -Wl,--no-whole-archive -Wl,--whole-archive [[LIB]]/libheapprof_rt.a -Wl,--no-whole-archive
// C-NOT: libheapprof_cxx
// C: libheapprof_rt.a

// RUN: env HEAPPROF_CLANGXX=echo heapprof-clang++ -fheapprof -xc++ %s -- %s | FileCheck %s --check-prefix=DASHDASH
// DASHDASH: {{^}}-gline-tables-only -Wl,--build-id -xc++ {{.*}} -x none -Wl,--whole-archive {{.*}} -lm -x c++ -- {{.*}}cxx.c{{$}}

int main() { return 0; }
