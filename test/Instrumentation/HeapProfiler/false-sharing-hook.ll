; -heapprof-false-sharing: every counted store (and atomic) also calls
; __heapprof_false_sharing_store(addr) after its counter update; loads
; don't.  A load and a store merged into one +2 update keep one hook.
; Without the option no hook is emitted.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-false-sharing -S %s | FileCheck %s
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @store_only(ptr %p, i32 %v) {
  store i32 %v, ptr %p, align 4
  ret void
}
; CHECK-LABEL: define void @store_only(
; CHECK:         add i64 %{{.*}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    %[[A:.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    call void @__heapprof_false_sharing_store(i64 %[[A]])
; CHECK-NEXT:    store i32 %v, ptr %p

define i32 @load_only(ptr %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @load_only(
; CHECK-NOT:     call void @__heapprof_false_sharing_store
; CHECK:         ret i32

; p->count++: one +2 update at the load, and one hook there.
define void @increment(ptr %p) {
  %v = load i32, ptr %p, align 4
  %w = add i32 %v, 1
  store i32 %w, ptr %p, align 4
  ret void
}
; CHECK-LABEL: define void @increment(
; CHECK:         add i64 %{{.*}}, 2
; CHECK:         call void @__heapprof_false_sharing_store(
; CHECK-NEXT:    %v = load i32, ptr %p
; CHECK-NOT:     call void @__heapprof_false_sharing_store
; CHECK:         ret void

define void @atomic(ptr %p) {
  %old = atomicrmw add ptr %p, i64 1 seq_cst, align 8
  ret void
}
; CHECK-LABEL: define void @atomic(
; CHECK:         call void @__heapprof_false_sharing_store(
; CHECK-NEXT:    atomicrmw add ptr %p

; CHECK: declare void @__heapprof_false_sharing_store(i64)
; OFF-NOT: __heapprof_false_sharing_store
