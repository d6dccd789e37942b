// Opting a function out.  Clang 19 does not know the sanitizer name
// "heapprof": no_sanitize("heapprof") is dropped with a warning and the
// function is instrumented.  disable_sanitizer_instrumentation works (add
// noinline, or the body may be inlined into instrumented callers).
// REQUIRES: heapprof-driver
// RUN: heapprof-clang -fheapprof -O1 -S -emit-llvm %s -o - 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t.err

// WARN: warning: unknown sanitizer 'heapprof' ignored

// CHECK-LABEL: define {{.*}}i32 @not_opted_out(
// CHECK:         load i64, ptr @__heapprof_shadow_memory_dynamic_address
__attribute__((no_sanitize("heapprof"))) int not_opted_out(int *p) {
  return *p;
}

// CHECK-LABEL: define {{.*}}i32 @opted_out(
// CHECK-NOT:     @__heapprof_shadow_memory_dynamic_address
// CHECK:         ret i32
__attribute__((disable_sanitizer_instrumentation, noinline)) int
opted_out(int *p) {
  return *p;
}
