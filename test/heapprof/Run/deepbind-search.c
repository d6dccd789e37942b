// A dlopen with RTLD_DEEPBIND goes through heapprof's dlopen, so the
// loader sees heapprof as the caller; but a name without a slash is
// searched along the calling library's own RUNPATH (or RPATH), and
// $ORIGIN is the calling library's directory.  heapprof resolves such a
// name as from the real caller: a library whose RUNPATH ($ORIGIN/sub)
// finds libtarget.so opens it by name and by "$ORIGIN/sub/libtarget.so",
// built with RUNPATH and with RPATH, instrumented and under heapprof run.
// A name nobody's path finds still fails, with the loader's message.
// REQUIRES: heapprof-driver
// RUN: rm -rf %t.dir && mkdir -p %t.dir/sub
// RUN: %clang_plain -O0 -shared -fPIC -DTARGET %s -o %t.dir/sub/libtarget.so
// RUN: %clang_plain -O0 -shared -fPIC -DCALLER %s -o %t.dir/librunpath.so -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/sub' -ldl
// RUN: %clang_plain -O0 -shared -fPIC -DCALLER %s -o %t.dir/librpath.so -Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/sub' -ldl
// RUN: llvm-readelf -d %t.dir/librunpath.so | FileCheck %s --check-prefix=DT-RUNPATH
// RUN: llvm-readelf -d %t.dir/librpath.so | FileCheck %s --check-prefix=DT-RPATH
// RUN: %clang_heapprof -O0 %s -o %t -ldl
// RUN: %clang_plain -O0 %s -o %t.plain -ldl
// The plain program, for reference, then the same under heapprof:
// RUN: %t.plain %t.dir/librunpath.so %t.dir/librpath.so 2>&1 | FileCheck %s
// RUN: %env_heapprof_opts=profile_dir=%t.d1 %run %t %t.dir/librunpath.so %t.dir/librpath.so 2>&1 | FileCheck %s
// RUN: heapprof run -o %t.d2 -- %t.plain %t.dir/librunpath.so %t.dir/librpath.so 2>&1 | FileCheck %s
// DT-RUNPATH: (RUNPATH) Library runpath: [$ORIGIN/sub]
// DT-RPATH: (RPATH) Library rpath: [$ORIGIN/sub]
// CHECK: librunpath.so: libtarget.so: 42
// CHECK-NEXT: librunpath.so: $ORIGIN/sub/libtarget.so: 42
// CHECK-NEXT: librunpath.so: libnowhere.so: libnowhere.so: cannot open shared object file: No such file or directory
// CHECK-NEXT: librpath.so: libtarget.so: 42
// CHECK-NEXT: librpath.so: $ORIGIN/sub/libtarget.so: 42
// CHECK-NEXT: librpath.so: libnowhere.so: libnowhere.so: cannot open shared object file: No such file or directory
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#if defined(TARGET)
int target_value(void) { return 42; }
#elif defined(CALLER)
void caller_open(const char *tag, const char *name) {
  void *h = dlopen(name, RTLD_NOW | RTLD_DEEPBIND);
  if (!h) {
    printf("%s: %s: %s\n", tag, name, dlerror());
    return;
  }
  int (*v)(void) = (int (*)(void))dlsym(h, "target_value");
  printf("%s: %s: %d\n", tag, name, v ? v() : -1);
  dlclose(h);
}
#else
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    void *h = dlopen(argv[i], RTLD_NOW);
    if (!h) {
      printf("%s\n", dlerror());
      return 1;
    }
    void (*open_it)(const char *, const char *) =
        (void (*)(const char *, const char *))dlsym(h, "caller_open");
    const char *tag = strrchr(argv[i], '/') + 1;
    open_it(tag, "libtarget.so");
    open_it(tag, "$ORIGIN/sub/libtarget.so");
    open_it(tag, "libnowhere.so");
  }
  return 0;
}
#endif
