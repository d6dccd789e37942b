; Globals are not heap: accesses that can only be to a global variable
; (including thread-locals and constant-expression addresses) are not counted
; unless -heapprof-instrument-globals.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s --check-prefix=SKIP
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-instrument-globals -S %s | FileCheck %s --check-prefix=GLOBALS

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@g = global [8 x i32] zeroinitializer
@t = thread_local global i32 0

define i32 @global(i64 %i) {
  %e = getelementptr inbounds [8 x i32], ptr @g, i64 0, i64 %i
  %v = load i32, ptr %e, align 4
  store i32 %v, ptr getelementptr inbounds ([8 x i32], ptr @g, i64 0, i64 1), align 4
  ret i32 %v
}
; SKIP-LABEL: define i32 @global(
; SKIP-NOT:     ptrtoint
; SKIP:         ret i32 %v
; GLOBALS-LABEL: define i32 @global(
; GLOBALS:         ptrtoint ptr %e to i64
; GLOBALS:         %v = load i32, ptr %e
; GLOBALS-NEXT:    and i64 ptrtoint (ptr getelementptr inbounds ([8 x i32], ptr @g, i64 0, i64 1) to i64), -64
; GLOBALS:         store i32 %v, ptr getelementptr

define i32 @tls() {
  %p = call ptr @llvm.threadlocal.address.p0(ptr @t)
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; SKIP-LABEL: define i32 @tls(
; SKIP-NOT:     ptrtoint
; SKIP:         ret i32 %v
; GLOBALS-LABEL: define i32 @tls(
; GLOBALS:         ptrtoint ptr %p to i64
; GLOBALS:         %v = load i32, ptr %p

define i32 @global_or_heap(i1 %c, ptr %heap) {
  %p = select i1 %c, ptr @g, ptr %heap
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; SKIP-LABEL: define i32 @global_or_heap(
; SKIP:         ptrtoint ptr %p to i64
; SKIP:         %v = load i32, ptr %p

declare ptr @llvm.threadlocal.address.p0(ptr)
