; Accesses that can only be to the stack (allocas, byval arguments, a select
; or phi of those) are not counted unless -heapprof-instrument-stack; one
; possible heap object is enough to count.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s --check-prefix=SKIP
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-instrument-stack -S %s | FileCheck %s --check-prefix=STACK

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.S = type { i64, i64 }

define i32 @local(i32 %x) {
  %a = alloca [16 x i32], align 16
  %e = getelementptr inbounds [16 x i32], ptr %a, i64 0, i64 3
  store i32 %x, ptr %e, align 4
  %v = load i32, ptr %e, align 4
  ret i32 %v
}
; SKIP-LABEL: define i32 @local(
; SKIP-NOT:     heapprof
; SKIP-NOT:     ptrtoint
; SKIP:         ret i32 %v
; STACK-LABEL: define i32 @local(
; STACK:         load i64, ptr @__heapprof_shadow_memory_dynamic_address
; STACK:         ptrtoint ptr %e to i64
; STACK:         add i64 %{{.*}}, 2
; STACK:         store i32 %x, ptr %e
; STACK-NEXT:    %v = load i32, ptr %e

define i64 @byval(ptr byval(%struct.S) %s) {
  %f = getelementptr inbounds %struct.S, ptr %s, i64 0, i32 1
  %v = load i64, ptr %f, align 8
  ret i64 %v
}
; SKIP-LABEL: define i64 @byval(
; SKIP-NOT:     ptrtoint
; SKIP:         ret i64 %v
; STACK-LABEL: define i64 @byval(
; STACK:         ptrtoint ptr %f to i64
; STACK:         %v = load i64, ptr %f

define i32 @select_of_allocas(i1 %c) {
  %a = alloca i32, align 4
  %b = alloca i32, align 4
  %p = select i1 %c, ptr %a, ptr %b
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; SKIP-LABEL: define i32 @select_of_allocas(
; SKIP-NOT:     ptrtoint
; SKIP:         ret i32 %v

define i32 @stack_or_heap(i1 %c, ptr %heap) {
  %a = alloca i32, align 4
  %p = select i1 %c, ptr %a, ptr %heap
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; SKIP-LABEL: define i32 @stack_or_heap(
; SKIP:         ptrtoint ptr %p to i64
; SKIP:         %v = load i32, ptr %p
