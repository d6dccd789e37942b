; -heapprof-use-callbacks: each access calls __heapprof_load/__heapprof_store
; with its address instead of updating the counter inline; no shadow base is
; loaded.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof),module(heapprof-module)' -heapprof-use-callbacks -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-NOT: @__heapprof_shadow_memory_dynamic_address

define void @f(ptr %p, ptr %q) {
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %q, align 4
  ret void
}
; CHECK-LABEL: define void @f(
; CHECK-NEXT:    %[[A:[^ ]+]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    call void @__heapprof_load(i64 %[[A]])
; CHECK-NEXT:    %v = load i32, ptr %p, align 4
; CHECK-NEXT:    %[[B:[^ ]+]] = ptrtoint ptr %q to i64
; CHECK-NEXT:    call void @__heapprof_store(i64 %[[B]])
; CHECK-NEXT:    store i32 %v, ptr %q, align 4
; CHECK-NEXT:    ret void

; CHECK-DAG: declare void @__heapprof_load(i64)
; CHECK-DAG: declare void @__heapprof_store(i64)
; CHECK-NOT: @__heapprof_shadow_memory_dynamic_address
