; Functions the pass leaves alone: disable_sanitizer_instrumentation (the
; source-level opt-out: clang 19 drops no_sanitize("heapprof")), the
; runtime's own __heapprof_* functions, available_externally copies, naked
; functions.  Accesses through other address spaces and swifterror slots are
; not counted in any function.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @opted_out(ptr %p) disable_sanitizer_instrumentation {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @opted_out(
; CHECK-NEXT:    %v = load i32, ptr %p
; CHECK-NEXT:    ret i32 %v

define i32 @__heapprof_helper(ptr %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @__heapprof_helper(
; CHECK-NEXT:    %v = load i32, ptr %p
; CHECK-NEXT:    ret i32 %v

define available_externally i32 @inline_copy(ptr %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define available_externally i32 @inline_copy(
; CHECK-NEXT:    %v = load i32, ptr %p
; CHECK-NEXT:    ret i32 %v

define void @naked(ptr %p) naked {
  call void asm sideeffect "ret", ""()
  unreachable
}
; CHECK-LABEL: define void @naked(
; CHECK-NEXT:    call void asm sideeffect "ret", ""()
; CHECK-NEXT:    unreachable

define i32 @addrspace(ptr addrspace(1) %p, ptr addrspace(256) %fs) {
  %v = load i32, ptr addrspace(1) %p, align 4
  %w = load i32, ptr addrspace(256) %fs, align 4
  %s = add i32 %v, %w
  ret i32 %s
}
; CHECK-LABEL: define i32 @addrspace(
; CHECK-NEXT:    %v = load i32, ptr addrspace(1) %p
; CHECK-NEXT:    %w = load i32, ptr addrspace(256) %fs
; CHECK-NEXT:    %s = add

define void @swifterror(ptr swifterror %err) {
  store ptr null, ptr %err, align 8
  ret void
}
; CHECK-LABEL: define void @swifterror(
; CHECK-NEXT:    store ptr null, ptr %err
; CHECK-NEXT:    ret void

; Instrumented, for contrast.
define i32 @plain(ptr %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @plain(
; CHECK-NEXT:    load i64, ptr @__heapprof_shadow_memory_dynamic_address
; CHECK-NEXT:    ptrtoint ptr %p to i64
