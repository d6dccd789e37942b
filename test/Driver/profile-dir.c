// -fheapprof=DIR hands DIR to the pass (-Xclang -mllvm -Xclang
// -heapprof-profile-dir=DIR: compile jobs only), which emits it as
// __heapprof_profile_dir.  A later plain -fheapprof drops it again (the last
// of the flags wins, as with clang's -fmemory-profile).  Link steps:
// link-profile-dir.c.
// REQUIRES: heapprof-driver
// RUN: heapprof-clang -fheapprof=/tmp/my\ prof -### -c %s 2>&1 | FileCheck %s
// RUN: heapprof-clang -fheapprof=/tmp/a -fheapprof -### -c %s 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: heapprof-clang -fheapprof=/tmp/a -fheapprof=rel/b -### -c %s 2>&1 | FileCheck %s --check-prefix=LAST
// RUN: heapprof-clang -fheapprof=some/dir -O1 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof=d -c %s | FileCheck %s --check-prefix=ARGS

// CHECK: "-load" "{{[^"]*}}/HeapProfiler.so" "-mllvm" "-heapprof-profile-dir=/tmp/my prof"
// NODIR-NOT: -heapprof-profile-dir
// LAST-NOT: -heapprof-profile-dir=/tmp/a
// LAST: "-mllvm" "-heapprof-profile-dir=rel/b"
// LAST-NOT: -heapprof-profile-dir=/tmp/a
// IR: @__heapprof_profile_dir = weak hidden constant [9 x i8] c"some/dir\00", comdat
// A compile step gets no generated object.
// ARGS-NOT: heapprof-dir-
// ARGS: -Xclang -mllvm -Xclang -heapprof-profile-dir=d
// ARGS-NOT: heapprof-dir-

int main(void) { return 0; }
