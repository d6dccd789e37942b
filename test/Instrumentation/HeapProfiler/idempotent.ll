; A function instrumented once is marked "heapprof-instrumented" and never
; instrumented again (a ThinLTO backend running the plugin's pipeline again
; must not double-count); the module constructor is added once.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof),module(heapprof-module),function(heapprof),module(heapprof-module)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }]

define i32 @f(ptr %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @f(
; CHECK-SAME:    #[[ATTR:[0-9]+]] {
; CHECK-NEXT:    load i64, ptr @__heapprof_shadow_memory_dynamic_address
; CHECK-NEXT:    ptrtoint ptr %p to i64
; CHECK-NOT:     ptrtoint
; CHECK-NOT:     @__heapprof_shadow_memory_dynamic_address
; CHECK:         %v = load i32, ptr %p
; CHECK-NEXT:    ret i32 %v
; CHECK:       define internal void @heapprof.module_ctor()
; CHECK-NOT:   define internal void @heapprof.module_ctor
; CHECK: attributes #[[ATTR]] = { "heapprof-instrumented" }
