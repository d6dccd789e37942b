// -fheapprof makes <heapprof/heapprof_interface.h> available without a -I:
// the driver adds -idirafter <prefix>/include (after the system
// directories), found like the plugin relative to the driver itself.  The
// driver binary is called directly, with no -I of the test configuration's.
// REQUIRES: heapprof-driver
// RUN: rm -rf %t && mkdir -p %t
// RUN: %heapprof_bin_dir/heapprof-clang -fheapprof=%t/c %s -o %t/c-prog
// RUN: %t/c-prog | FileCheck %s
// RUN: ls %t/c | grep -c '^heapprof\.c-prog\.[0-9]*\.1\.profraw$' | grep -x 1
// RUN: %heapprof_bin_dir/heapprof-clang++ -fheapprof=%t/cxx -x c++ %s -o %t/cxx-prog
// RUN: %t/cxx-prog | FileCheck %s
// RUN: ls %t/cxx | grep -c '^heapprof\.cxx-prog\.[0-9]*\.1\.profraw$' | grep -x 1
// CHECK: dump: 0
//
// The flag itself, for the C and C++ driver, compiling and linking.
// RUN: env HEAPPROF_CLANG=echo %heapprof_bin_dir/heapprof-clang -fheapprof -c %s | FileCheck %s --check-prefix=ARGS -DINC=%heapprof_include_dir
// RUN: env HEAPPROF_CLANGXX=echo %heapprof_bin_dir/heapprof-clang++ -fheapprof x.o | FileCheck %s --check-prefix=ARGS -DINC=%heapprof_include_dir
// ARGS: -idirafter [[INC]]{{ |$}}
// Without -fheapprof the driver adds nothing.
// RUN: env HEAPPROF_CLANG=echo %heapprof_bin_dir/heapprof-clang -c %s | FileCheck %s --check-prefix=OFF
// OFF-NOT: -idirafter
#include <heapprof/heapprof_interface.h>
#include <stdio.h>

int main(void) {
  printf("dump: %d\n", __heapprof_dump());
  return 0;
}
