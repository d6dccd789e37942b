; In PIC code (clang's default PIE) the shadow base is not dso_local: a
; shared object reaches the executable's copy through the GOT.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof),module(heapprof-module)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @__heapprof_shadow_memory_dynamic_address = external global i64

define i32 @load(ptr %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @load(
; CHECK:         load i64, ptr @__heapprof_shadow_memory_dynamic_address

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"PIC Level", i32 2}
