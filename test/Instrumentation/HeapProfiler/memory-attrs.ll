; Instrumented code writes shadow memory behind the back of memory(...)
; attributes inferred before the pass ran; the pass drops them from every
; defined function and its call sites so that nothing optimised later (LTO)
; relies on them.  Intrinsics and declarations keep theirs.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @reader(ptr %p) memory(argmem: read) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @reader(
; CHECK-SAME:    ptr %p) #[[INSTR:[0-9]+]] {

define i32 @caller(ptr %p) memory(read) {
  %a = call i32 @reader(ptr %p) memory(argmem: read)
  %b = call i64 @strlen(ptr %p)
  %c = trunc i64 %b to i32
  %s = add i32 %a, %c
  ret i32 %s
}
; No access of its own, but it calls instrumented code.
; CHECK-LABEL: define i32 @caller(
; CHECK-SAME:    ptr %p) #[[INSTR]] {
; CHECK-NEXT:    %a = call i32 @reader(ptr %p){{$}}
; CHECK-NEXT:    %b = call i64 @strlen(ptr %p){{$}}

define i32 @opted_out(ptr %p) memory(argmem: read) disable_sanitizer_instrumentation {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @opted_out(
; CHECK-SAME:    ptr %p) #[[OPTOUT:[0-9]+]] {

declare i64 @strlen(ptr) memory(argmem: read)
; CHECK: declare i64 @strlen(ptr) #[[DECL:[0-9]+]]

; CHECK-DAG: attributes #[[INSTR]] = { "heapprof-instrumented" }
; CHECK-DAG: attributes #[[OPTOUT]] = { disable_sanitizer_instrumentation }
; CHECK-DAG: attributes #[[DECL]] = { memory(argmem: read) }
