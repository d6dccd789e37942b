; llvm.memcpy/memmove/memset become calls to __heapprof_memcpy/memmove/memset
; (which count both ranges by the runtime's range rule) and the intrinsic is
; erased.  A memcpy or memset of a constant length of at most 64 bytes is
; counted inline instead, by the same rule (one access per 8-byte word, in
; the counter of the first granule up to its end and the rest in the last
; byte's), and becomes the .inline intrinsic, which the backend never turns
; into a call (the runtime's memcpy interceptor would count it again); only
; its counted ranges are counted.  Volatile ones stay and their ranges are
; recorded with __heapprof_record_access_range.  An intrinsic whose every
; range is stack or global memory is left alone.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-inline-range-max=0 -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@g = global [64 x i8] zeroinitializer

define void @copy(ptr %d, ptr %s, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 %n, i1 false)
  ret void
}
; CHECK-LABEL: define void @copy(
; CHECK-NOT:     @__heapprof_shadow_memory_dynamic_address
; CHECK-NEXT:    call ptr @__heapprof_memcpy(ptr %d, ptr %s, i64 %n)
; CHECK-NEXT:    ret void

define void @move32(ptr %d, ptr %s, i32 %n) {
  call void @llvm.memmove.p0.p0.i32(ptr %d, ptr %s, i32 %n, i1 false)
  ret void
}
; A 32-bit length is zero-extended.
; CHECK-LABEL: define void @move32(
; CHECK-NEXT:    %[[N:[^ ]+]] = zext i32 %n to i64
; CHECK-NEXT:    call ptr @__heapprof_memmove(ptr %d, ptr %s, i64 %[[N]])
; CHECK-NEXT:    ret void

define void @set(ptr %d, i8 %c) {
  call void @llvm.memset.p0.i64(ptr %d, i8 %c, i64 100, i1 false)
  ret void
}
; CHECK-LABEL: define void @set(
; CHECK-NEXT:    %[[C:[^ ]+]] = zext i8 %c to i32
; CHECK-NEXT:    call ptr @__heapprof_memset(ptr %d, i32 %[[C]], i64 100)
; CHECK-NEXT:    ret void

define void @inline_variants(ptr %d, ptr %s) {
  call void @llvm.memcpy.inline.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
  call void @llvm.memset.inline.p0.i64(ptr %d, i8 0, i64 16, i1 false)
  ret void
}
; CHECK-LABEL: define void @inline_variants(
; CHECK-NOT:     call ptr @__heapprof_mem
; CHECK:         call void @llvm.memcpy.inline.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
; CHECK-NOT:     call ptr @__heapprof_mem
; CHECK:         call void @llvm.memset.inline.p0.i64(ptr %d, i8 0, i64 16, i1 false)
; CHECK-NEXT:    ret void
; OFF-LABEL: define void @inline_variants(
; OFF-NEXT:      call ptr @__heapprof_memcpy(ptr %d, ptr %s, i64 16)
; OFF-NEXT:      call ptr @__heapprof_memset(ptr %d, i32 0, i64 16)
; OFF-NEXT:      ret void

define void @copy24(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 4 %s, i64 24, i1 false)
  ret void
}
; The source's range, then the destination's, then the copy, alignments kept.
; CHECK-LABEL: define void @copy24(
; CHECK:         %[[BASE:heapprof.shadow.base]] = load i64, ptr @__heapprof_shadow_memory_dynamic_address
; CHECK-NEXT:    %[[A:[0-9]+]] = ptrtoint ptr %s to i64
; CHECK-NEXT:    %[[L:[0-9]+]] = add i64 %[[A]], 23
; CHECK-NEXT:    %[[FW:[0-9]+]] = lshr i64 %[[A]], 3
; CHECK-NEXT:    %[[LW:[0-9]+]] = lshr i64 %[[L]], 3
; CHECK-NEXT:    %[[D:[0-9]+]] = sub i64 %[[LW]], %[[FW]]
; CHECK-NEXT:    %[[WORDS:[0-9]+]] = add i64 %[[D]], 1
; CHECK-NEXT:    %[[G0:[0-9]+]] = and i64 %[[A]], -64
; CHECK-NEXT:    %[[S0:[0-9]+]] = lshr i64 %[[G0]], 3
; CHECK-NEXT:    %[[C0:[0-9]+]] = add i64 %[[S0]], %[[BASE]]
; CHECK-NEXT:    %[[G1:[0-9]+]] = and i64 %[[L]], -64
; CHECK-NEXT:    %[[S1:[0-9]+]] = lshr i64 %[[G1]], 3
; CHECK-NEXT:    %[[C1:[0-9]+]] = add i64 %[[S1]], %[[BASE]]
; CHECK-NEXT:    %[[IN:[0-9]+]] = and i64 %[[FW]], 7
; CHECK-NEXT:    %[[TOEND:[0-9]+]] = sub i64 8, %[[IN]]
; CHECK-NEXT:    %[[SAME:[0-9]+]] = icmp eq i64 %[[C0]], %[[C1]]
; CHECK-NEXT:    %[[N0:[0-9]+]] = select i1 %[[SAME]], i64 %[[WORDS]], i64 %[[TOEND]]
; CHECK-NEXT:    %[[N1:[0-9]+]] = sub i64 %[[WORDS]], %[[N0]]
; CHECK-NEXT:    %[[P0:[0-9]+]] = inttoptr i64 %[[C0]] to ptr
; CHECK-NEXT:    %[[V0:heapprof.count[0-9]*]] = load i64, ptr %[[P0]], align 8, !nosanitize
; CHECK-NEXT:    %[[W0:[0-9]+]] = add i64 %[[V0]], %[[N0]]
; CHECK-NEXT:    store i64 %[[W0]], ptr %[[P0]], align 8, !nosanitize
; CHECK-NEXT:    %[[P1:[0-9]+]] = inttoptr i64 %[[C1]] to ptr
; CHECK-NEXT:    %[[V1:heapprof.count[0-9]*]] = load i64, ptr %[[P1]], align 8, !nosanitize
; CHECK-NEXT:    %[[W1:[0-9]+]] = add i64 %[[V1]], %[[N1]]
; CHECK-NEXT:    store i64 %[[W1]], ptr %[[P1]], align 8, !nosanitize
; CHECK-NEXT:    ptrtoint ptr %d to i64
; CHECK:         call void @llvm.memcpy.inline.p0.p0.i64(ptr align 8 %d, ptr align 4 %s, i64 24, i1 false)
; CHECK-NEXT:    ret void

define void @move16(ptr %d, ptr %s) {
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
  ret void
}
; memmove has no .inline form: the runtime, whatever the length.
; CHECK-LABEL: define void @move16(
; CHECK-NEXT:    call ptr @__heapprof_memmove(ptr %d, ptr %s, i64 16)
; CHECK-NEXT:    ret void

define void @copy65(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 65, i1 false)
  ret void
}
; CHECK-LABEL: define void @copy65(
; CHECK-NEXT:    call ptr @__heapprof_memcpy(ptr %d, ptr %s, i64 65)
; CHECK-NEXT:    ret void

define void @volatile(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 32, i1 true)
  call void @llvm.memset.p0.i64(ptr %d, i8 1, i64 8, i1 true)
  ret void
}
; CHECK-LABEL: define void @volatile(
; CHECK-NEXT:    call void @__heapprof_record_access_range(ptr %s, i64 32)
; CHECK-NEXT:    call void @__heapprof_record_access_range(ptr %d, i64 32)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 32, i1 true)
; CHECK-NEXT:    call void @__heapprof_record_access_range(ptr %d, i64 8)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr %d, i8 1, i64 8, i1 true)
; CHECK-NEXT:    ret void

define void @stack_and_globals(ptr %d) {
  %a = alloca [64 x i8], align 16
  %b = alloca [64 x i8], align 16
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 64, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr @g, i64 64, i1 false)
  call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 64, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %a, i64 64, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %d, i64 64, i1 false)
  ret void
}
; Stack/global-only intrinsics stay; one heap range is enough to count
; (inline: only that range).
; CHECK-LABEL: define void @stack_and_globals(
; CHECK:         call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 64, i1 false)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr @g, i64 64, i1 false)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 64, i1 false)
; CHECK-NEXT:    ptrtoint ptr %d to i64
; CHECK-NOT:     ptrtoint ptr %a
; CHECK:         call void @llvm.memcpy.inline.p0.p0.i64(ptr %d, ptr %a, i64 64, i1 false)
; CHECK-NEXT:    ptrtoint ptr %d to i64
; CHECK-NOT:     ptrtoint ptr %a
; CHECK:         call void @llvm.memcpy.inline.p0.p0.i64(ptr %a, ptr %d, i64 64, i1 false)
; CHECK-NEXT:    ret void
; OFF-LABEL: define void @stack_and_globals(
; OFF:           call ptr @__heapprof_memcpy(ptr %d, ptr %a, i64 64)
; OFF-NEXT:      call ptr @__heapprof_memcpy(ptr %a, ptr %d, i64 64)

define void @other_addrspace(ptr addrspace(1) %d, ptr %s) {
  call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) %d, ptr %s, i64 8, i1 false)
  ret void
}
; CHECK-LABEL: define void @other_addrspace(
; CHECK-NEXT:    call void @llvm.memcpy.p1.p0.i64(
; CHECK-NEXT:    ret void

; CHECK-DAG: declare ptr @__heapprof_memcpy(ptr, ptr, i64)
; CHECK-DAG: declare ptr @__heapprof_memmove(ptr, ptr, i64)
; CHECK-DAG: declare ptr @__heapprof_memset(ptr, i32, i64)
; CHECK-DAG: declare void @__heapprof_record_access_range(ptr, i64)

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memcpy.p1.p0.i64(ptr addrspace(1), ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i32(ptr, ptr, i32, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.inline.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.inline.p0.i64(ptr, i8, i64, i1)
