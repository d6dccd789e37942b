// The pass runs in clang's pipeline at every -O level, -O0 included, with
// the plugin given by hand or through the driver; plugin options work
// because the plugin is also -load'ed.  Heap accesses through pointers are
// counted, locals (allocas at -O0) and globals are not.
// REQUIRES: heapprof-driver
// RUN: %clang_plain -O0 -fpass-plugin=%heapprof_plugin -Xclang -load -Xclang %heapprof_plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: heapprof-clang -fheapprof -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: heapprof-clang -fheapprof -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2
// RUN: heapprof-clang -fheapprof -O0 -mllvm -heapprof-use-callbacks -S -emit-llvm %s -o - | FileCheck %s --check-prefix=CALLS

int global;

// CHECK-LABEL: define {{.*}}i32 @get(
// CHECK:         load i64, ptr @__heapprof_shadow_memory_dynamic_address
// O0:            %[[P:[0-9]+]] = load ptr, ptr %{{[0-9]+}}, align 8
// O0-NEXT:       %[[A:[0-9]+]] = ptrtoint ptr %[[P]] to i64
// O2:            %[[A:[0-9]+]] = ptrtoint ptr %0 to i64
// CHECK-NEXT:    %[[G:[0-9]+]] = and i64 %[[A]], -64
// CHECK-NEXT:    %[[O:[0-9]+]] = lshr i64 %[[G]], 3
// CHECK-NEXT:    %[[S:[0-9]+]] = add i64 %[[O]], %
// CHECK-NEXT:    %[[SP:[0-9]+]] = inttoptr i64 %[[S]] to ptr
// CHECK-NEXT:    %[[C:[^ ]+]] = load i64, ptr %[[SP]]
// CHECK-NEXT:    %[[C1:[0-9]+]] = add i64 %[[C]], 1
// CHECK-NEXT:    store i64 %[[C1]], ptr %[[SP]]
// CHECK-NEXT:    load i32, ptr
// The store to the global is not counted.
// CHECK-NOT:     add i64 %{{[^ ]+}}, 1
// CHECK:         ret i32
// CALLS-LABEL: define {{.*}}i32 @get(
// CALLS:         call void @__heapprof_load(i64
// CALLS-NOT:     call void @__heapprof_store
// CALLS:         ret i32
int get(int *p) {
  int local = *p;
  global = local;
  return local;
}

// CHECK: define internal void @heapprof.module_ctor()
// CHECK: call void @__heapprof_init()
// CHECK: call void @__heapprof_version_mismatch_check_v1()
