; -heapprof-instrument-reads=0 / -heapprof-instrument-writes=0 leave loads /
; stores (plain and masked) uncounted.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-instrument-reads=0 -S %s | FileCheck %s --check-prefix=NOREADS
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-instrument-writes=0 -S %s | FileCheck %s --check-prefix=NOWRITES

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @copy(ptr %p, ptr %q) {
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %q, align 4
  %m = call <2 x i32> @llvm.masked.load.v2i32.p0(ptr %p, i32 4, <2 x i1> <i1 true, i1 true>, <2 x i32> poison)
  call void @llvm.masked.store.v2i32.p0(<2 x i32> %m, ptr %q, i32 4, <2 x i1> <i1 true, i1 true>)
  ret void
}
; NOREADS-LABEL: define void @copy(
; NOREADS-NOT:     ptrtoint ptr %p
; NOREADS:         ptrtoint ptr %q to i64
; NOREADS:         store i32 %v, ptr %q
; NOREADS-NOT:     ptrtoint ptr %p
; NOREADS:         getelementptr <2 x i32>, ptr %q, i64 0, i64 0
; NOREADS:         getelementptr <2 x i32>, ptr %q, i64 0, i64 1
; NOREADS:         call void @llvm.masked.store
; NOREADS-NEXT:    ret void

; NOWRITES-LABEL: define void @copy(
; NOWRITES:         ptrtoint ptr %p to i64
; NOWRITES:         %v = load i32, ptr %p
; NOWRITES-NEXT:    store i32 %v, ptr %q
; NOWRITES:         getelementptr <2 x i32>, ptr %p, i64 0, i64 0
; NOWRITES:         getelementptr <2 x i32>, ptr %p, i64 0, i64 1
; NOWRITES:         %m = call <2 x i32> @llvm.masked.load
; NOWRITES-NEXT:    call void @llvm.masked.store
; NOWRITES-NEXT:    ret void

declare <2 x i32> @llvm.masked.load.v2i32.p0(ptr, i32, <2 x i1>, <2 x i32>)
declare void @llvm.masked.store.v2i32.p0(<2 x i32>, ptr, i32, <2 x i1>)
