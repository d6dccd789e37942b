; A pointer argument whose every caller passes a stack object or a global
; (directly, through pthread_create or thrd_create, through a call whose
; !callback metadata says it calls the function back, as OpenMP's
; __kmpc_fork_call does, or through another such argument) is not heap,
; and accesses based on it are not counted; one caller that may pass heap
; memory, a use other than a call, or a function other modules can call,
; and they are.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-skip-caller-objects=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-instrument-stack -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@g = global [4 x i64] zeroinitializer

declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare ptr @malloc(i64)

; Started by pthread_create with an element of the creator's array, and by
; itself (the next round) with its own argument: not heap.
define internal ptr @worker(ptr %arg) {
  %f = getelementptr inbounds i64, ptr %arg, i64 1
  %v = load i64, ptr %f, align 8
  %t = alloca i64, align 8
  %r = call i32 @pthread_create(ptr %t, ptr null, ptr @worker, ptr %arg)
  ret ptr null
}
; CHECK-LABEL: define internal ptr @worker(
; CHECK-NOT:     inttoptr
; CHECK:         ret ptr null
; OFF-LABEL: define internal ptr @worker(
; OFF:         ptrtoint ptr %f to i64
; OFF:         %v = load i64, ptr %f

; Started by C11's thrd_create with a global: not heap.
declare i32 @thrd_create(ptr, ptr, ptr)

define internal i32 @c11_worker(ptr %arg) {
  %v = load i64, ptr %arg, align 8
  ret i32 0
}
; CHECK-LABEL: define internal i32 @c11_worker(
; CHECK-NOT:     inttoptr
; CHECK:         ret i32 0
; OFF-LABEL: define internal i32 @c11_worker(
; OFF:         ptrtoint ptr %arg to i64

; Called with a global and with an argument of the kind: not heap.
define internal i64 @reads(ptr %p) {
  %v = load i64, ptr %p, align 8
  ret i64 %v
}
; CHECK-LABEL: define internal i64 @reads(
; CHECK-NOT:     inttoptr
; CHECK:         ret i64 %v

define internal void @passes_on(ptr %q) {
  %v = call i64 @reads(ptr %q)
  ret void
}

; One caller passes what malloc returned: counted.
define internal i64 @mixed(ptr %p) {
  %v = load i64, ptr %p, align 8
  ret i64 %v
}
; CHECK-LABEL: define internal i64 @mixed(
; CHECK:         ptrtoint ptr %p to i64
; CHECK:         %v = load i64, ptr %p

; Its address is stored, so a caller may be out of sight: counted.
define internal i64 @escapes(ptr %p) {
  %v = load i64, ptr %p, align 8
  ret i64 %v
}
; CHECK-LABEL: define internal i64 @escapes(
; CHECK:         ptrtoint ptr %p to i64

; An OpenMP-style parallel region: fork_call calls it back with two thread
; ids of its own (unknown: counted) and then its variadic arguments (main's
; array: not counted).
declare !callback !0 void @fork_call(ptr, i32, ptr, ...)
!0 = !{!1}
!1 = !{i64 2, i64 -1, i64 -1, i1 true}

define internal void @outlined(ptr %gtid, ptr %btid, ptr %shared) {
  %t = load i32, ptr %gtid, align 4
  %v = load i64, ptr %shared, align 8
  ret void
}
; CHECK-LABEL: define internal void @outlined(
; CHECK:         ptrtoint ptr %gtid to i64
; CHECK-NOT:     ptrtoint ptr %shared
; CHECK:         ret void
; OFF-LABEL: define internal void @outlined(
; OFF:         ptrtoint ptr %shared to i64

; Not local to the module: counted.
define i64 @exported(ptr %p) {
  %v = load i64, ptr %p, align 8
  ret i64 %v
}
; CHECK-LABEL: define i64 @exported(
; CHECK:         ptrtoint ptr %p to i64

@table = global ptr null

define i32 @main() {
  %a = alloca [4 x i64], align 16
  %e = getelementptr inbounds [4 x i64], ptr %a, i64 0, i64 2
  %t = alloca i64, align 8
  %r = call i32 @pthread_create(ptr %t, ptr null, ptr @worker, ptr %e)
  %r2 = call i32 @thrd_create(ptr %t, ptr @c11_worker, ptr @g)
  %x = call i64 @reads(ptr @g)
  call void @passes_on(ptr %a)
  %h = call ptr @malloc(i64 8)
  %y = call i64 @mixed(ptr %a)
  %z = call i64 @mixed(ptr %h)
  store ptr @escapes, ptr @table, align 8
  %w = call i64 @escapes(ptr %a)
  %u = call i64 @exported(ptr %a)
  call void (ptr, i32, ptr, ...) @fork_call(ptr null, i32 1, ptr @outlined, ptr %a)
  ret i32 0
}
