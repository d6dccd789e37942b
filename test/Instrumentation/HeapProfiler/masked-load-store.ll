; Masked loads and stores: one counter update per active lane, at the lane's
; address.  Constant-false lanes are skipped, constant-true lanes updated
; unconditionally, and a lane of a variable mask is tested at run time.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-use-callbacks -S %s | FileCheck %s --check-prefix=CALLS

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define <4 x i32> @load_const_mask(ptr %p) {
  %v = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 4, <4 x i1> <i1 true, i1 false, i1 true, i1 false>, <4 x i32> poison)
  ret <4 x i32> %v
}
; CHECK-LABEL: define <4 x i32> @load_const_mask(
; CHECK-NOT:     br
; CHECK:         %[[L0:[^ ]+]] = getelementptr <4 x i32>, ptr %p, i64 0, i64 0
; CHECK-NEXT:    ptrtoint ptr %[[L0]] to i64
; CHECK:         add i64 %{{[^ ]+}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    %[[L2:[^ ]+]] = getelementptr <4 x i32>, ptr %p, i64 0, i64 2
; CHECK-NEXT:    ptrtoint ptr %[[L2]] to i64
; CHECK:         add i64 %{{[^ ]+}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    %v = call <4 x i32> @llvm.masked.load
; CHECK-NEXT:    ret <4 x i32> %v

define void @store_const_mask(ptr %p, <4 x i32> %v) {
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %v, ptr %p, i32 4, <4 x i1> <i1 false, i1 false, i1 false, i1 true>)
  ret void
}
; CHECK-LABEL: define void @store_const_mask(
; CHECK-NOT:     getelementptr <4 x i32>, ptr %p, i64 0, i64 0
; CHECK-NOT:     getelementptr <4 x i32>, ptr %p, i64 0, i64 1
; CHECK-NOT:     getelementptr <4 x i32>, ptr %p, i64 0, i64 2
; CHECK:         %[[L3:[^ ]+]] = getelementptr <4 x i32>, ptr %p, i64 0, i64 3
; CHECK-NEXT:    ptrtoint ptr %[[L3]] to i64
; CHECK:         add i64 %{{[^ ]+}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    call void @llvm.masked.store
; CHECK-NEXT:    ret void

define void @all_false(ptr %p, <4 x i32> %v) {
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %v, ptr %p, i32 4, <4 x i1> zeroinitializer)
  ret void
}
; No lane is ever accessed: nothing at all, not even the base load.
; CHECK-LABEL: define void @all_false(
; CHECK-NEXT:    call void @llvm.masked.store
; CHECK-NEXT:    ret void

define <2 x i64> @load_var_mask(ptr %p, <2 x i1> %m) {
  %v = call <2 x i64> @llvm.masked.load.v2i64.p0(ptr %p, i32 8, <2 x i1> %m, <2 x i64> zeroinitializer)
  ret <2 x i64> %v
}
; CHECK-LABEL: define <2 x i64> @load_var_mask(
; CHECK:         %[[M0:[^ ]+]] = extractelement <2 x i1> %m, i64 0
; CHECK-NEXT:    %[[F0:[^ ]+]] = freeze i1 %[[M0]]
; CHECK-NEXT:    br i1 %[[F0]], label %[[THEN0:[^ ,]+]], label %[[JOIN0:[^ ,]+]]
; CHECK:       [[THEN0]]:
; CHECK-NEXT:    %[[L0:[^ ]+]] = getelementptr <2 x i64>, ptr %p, i64 0, i64 0
; CHECK-NEXT:    ptrtoint ptr %[[L0]] to i64
; CHECK:         add i64 %{{[^ ]+}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    br label %[[JOIN0]]
; CHECK:       [[JOIN0]]:
; CHECK-NEXT:    %[[M1:[^ ]+]] = extractelement <2 x i1> %m, i64 1
; CHECK-NEXT:    %[[F1:[^ ]+]] = freeze i1 %[[M1]]
; CHECK-NEXT:    br i1 %[[F1]], label %[[THEN1:[^ ,]+]], label %[[JOIN1:[^ ,]+]]
; CHECK:       [[THEN1]]:
; CHECK-NEXT:    %[[L1:[^ ]+]] = getelementptr <2 x i64>, ptr %p, i64 0, i64 1
; CHECK-NEXT:    ptrtoint ptr %[[L1]] to i64
; CHECK:         add i64 %{{[^ ]+}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    br label %[[JOIN1]]
; CHECK:       [[JOIN1]]:
; CHECK-NEXT:    %v = call <2 x i64> @llvm.masked.load
; CHECK-NEXT:    ret <2 x i64> %v

; A mask known not to be poison needs no freeze.
define void @store_var_mask_noundef(ptr %p, <2 x i64> %v, <2 x i1> noundef %m) {
  call void @llvm.masked.store.v2i64.p0(<2 x i64> %v, ptr %p, i32 8, <2 x i1> %m)
  ret void
}
; CHECK-LABEL: define void @store_var_mask_noundef(
; CHECK-NOT:     freeze
; CHECK:         %[[M0:[^ ]+]] = extractelement <2 x i1> %m, i64 0
; CHECK-NEXT:    br i1 %[[M0]],
; CHECK:         getelementptr <2 x i64>, ptr %p, i64 0, i64 0
; CHECK:         %[[M1:[^ ]+]] = extractelement <2 x i1> %m, i64 1
; CHECK-NEXT:    br i1 %[[M1]],
; CHECK:         getelementptr <2 x i64>, ptr %p, i64 0, i64 1
; CHECK:         call void @llvm.masked.store

; CALLS-LABEL: define <4 x i32> @load_const_mask(
; CALLS:         %[[L0:[^ ]+]] = getelementptr <4 x i32>, ptr %p, i64 0, i64 0
; CALLS-NEXT:    %[[A0:[^ ]+]] = ptrtoint ptr %[[L0]] to i64
; CALLS-NEXT:    call void @__heapprof_load(i64 %[[A0]])
; CALLS-NEXT:    %[[L2:[^ ]+]] = getelementptr <4 x i32>, ptr %p, i64 0, i64 2
; CALLS-NEXT:    %[[A2:[^ ]+]] = ptrtoint ptr %[[L2]] to i64
; CALLS-NEXT:    call void @__heapprof_load(i64 %[[A2]])
; CALLS-NEXT:    call <4 x i32> @llvm.masked.load
; CALLS-LABEL: define void @store_const_mask(
; CALLS:         call void @__heapprof_store(i64
; CALLS-NOT:     call void @__heapprof_store(i64
; CALLS:         call void @llvm.masked.store

declare <4 x i32> @llvm.masked.load.v4i32.p0(ptr, i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.store.v4i32.p0(<4 x i32>, ptr, i32, <4 x i1>)
declare <2 x i64> @llvm.masked.load.v2i64.p0(ptr, i32, <2 x i1>, <2 x i64>)
declare void @llvm.masked.store.v2i64.p0(<2 x i64>, ptr, i32, <2 x i1>)
