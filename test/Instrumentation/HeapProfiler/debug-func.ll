; -heapprof-debug-func=NAME leaves exactly that function uninstrumented.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-debug-func=skipped -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @skipped(ptr %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @skipped(
; CHECK-NEXT:    %v = load i32, ptr %p
; CHECK-NEXT:    ret i32 %v

define i32 @kept(ptr %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @kept(
; CHECK-NEXT:    load i64, ptr @__heapprof_shadow_memory_dynamic_address
; CHECK-NEXT:    ptrtoint ptr %p to i64
