// heapprof pprof: of several programs' profiles read together, the first
// mapping, which `go tool pprof` names as the profile's file and build id,
// is the program that allocated the most bytes, not the one whose profile
// sorts first.  alpha (its file name sorts first) makes 10 objects of 16
// bytes, 160 bytes; omega makes 100 of 1000 bytes, 100,000 bytes: omega
// is the file.  Both programs' frames keep their names (each location's
// mapping id follows its module).
// REQUIRES: go-pprof, heapprof-driver
// RUN: rm -rf %t.dir %t.bin && mkdir -p %t.dir %t.bin
// RUN: %clang_heapprof -O0 -g %s -o %t.bin/alpha
// RUN: %clang_heapprof -O0 -g -DOMEGA %s -o %t.bin/omega
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t.bin/alpha
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t.bin/omega
// RUN: heapprof pprof -o %t.pb.gz %t.dir
// RUN: go tool pprof -top -unit=B -nodefraction=0 %t.pb.gz | FileCheck %s
// CHECK: File: omega
// CHECK: Showing nodes accounting for 100160B, 100% of 100160B total
// CHECK: 100000B {{.*}} make_omega
// CHECK: 160B {{.*}} make_alpha
// RUN: go tool pprof -raw %t.pb.gz | FileCheck %s --check-prefix=RAW
// RAW: Mappings
// RAW-NEXT: 1: {{.*}}/omega {{[0-9a-f]+}} [FN][FL][LN][IN]
// RAW: {{[0-9]+}}: {{.*}}/alpha {{[0-9a-f]+}} [FN][FL][LN][IN]
// A program whose main only jumps into a shared library (a python3 linked
// with libpython: `return zeta_main();` at -O2 is a jump, and no stack has
// a frame in the executable) is still the file when its process allocated
// the most: zeta's library makes 100 objects of 1000 bytes.
// RUN: rm -rf %t.dir2 && mkdir -p %t.dir2
// RUN: %clang_plain -O0 -g -fno-omit-frame-pointer -fPIC -shared -DZETA_LIB %s -o %t.bin/libzeta.so
// RUN: %clang_plain -O2 -g -DZETA %s -o %t.bin/zeta %t.bin/libzeta.so -Wl,-rpath,%t.bin
// RUN: %env_heapprof_opts=profile_dir=%t.dir2 %run %t.bin/alpha
// RUN: env -u LD_PRELOAD heapprof run -o %t.dir2 -- %t.bin/zeta
// RUN: heapprof pprof -o %t.pb2.gz %t.dir2
// RUN: go tool pprof -top -unit=B -nodefraction=0 %t.pb2.gz | FileCheck %s --check-prefix=TAIL
// TAIL: File: zeta
// TAIL: Showing nodes accounting for 100160B, 100% of 100160B total
// TAIL: 100000B {{.*}} make_zeta
// TAIL: 160B {{.*}} make_alpha
#include <stdlib.h>

void *volatile sink;

#if defined(ZETA_LIB)
__attribute__((noinline)) static void make_zeta(void) {
  for (int i = 0; i < 100; i++)
    sink = malloc(1000);
}
int zeta_main(void) {
  make_zeta();
  return 0;
}
#elif defined(ZETA)
int zeta_main(void);
int main(void) { return zeta_main(); }
#elif defined(OMEGA)
__attribute__((noinline)) static void make_omega(void) {
  for (int i = 0; i < 100; i++)
    sink = malloc(1000);
}
#else
__attribute__((noinline)) static void make_alpha(void) {
  for (int i = 0; i < 10; i++)
    sink = malloc(16);
}
#endif

#if !defined(ZETA_LIB) && !defined(ZETA)
int main(void) {
#ifdef OMEGA
  make_omega();
#else
  make_alpha();
#endif
  return 0;
}
#endif
