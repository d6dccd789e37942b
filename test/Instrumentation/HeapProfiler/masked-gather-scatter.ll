; Masked gathers and scatters: one counter update per active lane, at that
; lane's pointer.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define <2 x i32> @gather(<2 x ptr> %ps) {
  %v = call <2 x i32> @llvm.masked.gather.v2i32.v2p0(<2 x ptr> %ps, i32 4, <2 x i1> <i1 true, i1 true>, <2 x i32> poison)
  ret <2 x i32> %v
}
; CHECK-LABEL: define <2 x i32> @gather(
; CHECK-NOT:     br
; CHECK:         %[[P0:[^ ]+]] = extractelement <2 x ptr> %ps, i64 0
; CHECK-NEXT:    ptrtoint ptr %[[P0]] to i64
; CHECK:         add i64 %{{[^ ]+}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    %[[P1:[^ ]+]] = extractelement <2 x ptr> %ps, i64 1
; CHECK-NEXT:    ptrtoint ptr %[[P1]] to i64
; CHECK:         add i64 %{{[^ ]+}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    %v = call <2 x i32> @llvm.masked.gather

define void @scatter(<2 x i32> %v, <2 x ptr> %ps, <2 x i1> %m) {
  call void @llvm.masked.scatter.v2i32.v2p0(<2 x i32> %v, <2 x ptr> %ps, i32 4, <2 x i1> %m)
  ret void
}
; CHECK-LABEL: define void @scatter(
; CHECK:         extractelement <2 x i1> %m, i64 0
; CHECK:         br i1
; CHECK:         %[[P0:[^ ]+]] = extractelement <2 x ptr> %ps, i64 0
; CHECK-NEXT:    ptrtoint ptr %[[P0]] to i64
; CHECK:         extractelement <2 x i1> %m, i64 1
; CHECK:         br i1
; CHECK:         %[[P1:[^ ]+]] = extractelement <2 x ptr> %ps, i64 1
; CHECK-NEXT:    ptrtoint ptr %[[P1]] to i64
; CHECK:         call void @llvm.masked.scatter

declare <2 x i32> @llvm.masked.gather.v2i32.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x i32>)
declare void @llvm.masked.scatter.v2i32.v2p0(<2 x i32>, <2 x ptr>, i32, <2 x i1>)
