// The last of -fheapprof[=DIR] / -fno-heapprof decides.  When it disables
// heapprof the command is exactly what clang-19 gets without the flags.
// REQUIRES: heapprof-driver
// RUN: heapprof-clang -fheapprof -fno-heapprof -### %s -o %t 2> %t.off
// RUN: heapprof-clang -fheapprof=%t.dir -fno-heapprof -### %s -o %t 2> %t.off2
// RUN: %clang_plain -### %s -o %t 2> %t.plain
// Temporary object names differ from run to run.
// RUN: sed -e 's/-[0-9a-f]\{6\}\.o"/-TMP.o"/g' %t.plain > %t.plain.n
// RUN: sed -e 's/-[0-9a-f]\{6\}\.o"/-TMP.o"/g' %t.off > %t.off.n
// RUN: sed -e 's/-[0-9a-f]\{6\}\.o"/-TMP.o"/g' %t.off2 > %t.off2.n
// RUN: diff %t.plain.n %t.off.n
// RUN: diff %t.plain.n %t.off2.n
// RUN: FileCheck %s --check-prefix=OFF < %t.off
// RUN: heapprof-clang -fno-heapprof -fheapprof -### %s -o %t 2>&1 | FileCheck %s --check-prefix=ON -DLIB=%heapprof_lib_dir

// OFF-NOT: HeapProfiler
// OFF-NOT: libheapprof
// OFF-NOT: "-mllvm"
// OFF-NOT: -fno-omit-frame-pointer
// ON: "-fpass-plugin=[[LIB]]/HeapProfiler.so"
// ON: libheapprof_rt.a

int main(void) { return 0; }
