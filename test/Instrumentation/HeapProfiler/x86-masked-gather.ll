; x86's own masked and gathering intrinsics (what clang emits for
; immintrin.h's gathers, for masks it cannot see at compile time, for
; lddqu, maskmovdqu and MMX's maskmovq), and llvm.masked.expandload/compressstore: one
; counter update per active lane, at that lane's address.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define <4 x float> @gather(ptr %base, <4 x i32> %idx, <4 x float> %m) {
  %v = call <4 x float> @llvm.x86.avx2.gather.d.ps(<4 x float> zeroinitializer, ptr %base, <4 x i32> %idx, <4 x float> %m, i8 4)
  ret <4 x float> %v
}

; A gather's lane is on when its mask element's sign bit is set (a float
; mask here: bitcast, compared with 0); its address is base + sext(index) *
; scale.
; CHECK-LABEL: define <4 x float> @gather(
; CHECK:         %[[E0:[^ ]+]] = extractelement <4 x float> %m, i64 0
; CHECK-NEXT:    %[[F0:[^ ]+]] = freeze float %[[E0]]
; CHECK-NEXT:    %[[I0:[^ ]+]] = bitcast float %[[F0]] to i32
; CHECK-NEXT:    %[[B0:[^ ]+]] = icmp slt i32 %[[I0]], 0
; CHECK-NEXT:    br i1 %[[B0]]
; CHECK:         %[[X0:[^ ]+]] = extractelement <4 x i32> %idx, i64 0
; CHECK-NEXT:    %[[S0:[^ ]+]] = sext i32 %[[X0]] to i64
; CHECK-NEXT:    %[[O0:[^ ]+]] = mul i64 %[[S0]], 4
; CHECK-NEXT:    %[[A0:[^ ]+]] = getelementptr i8, ptr %base, i64 %[[O0]]
; CHECK-NEXT:    ptrtoint ptr %[[A0]] to i64
; CHECK-COUNT-3: icmp slt i32
; CHECK:         call <4 x float> @llvm.x86.avx2.gather.d.ps

define <4 x float> @gather_all(ptr %base, <4 x i32> %idx) {
  %v = call <4 x float> @llvm.x86.avx2.gather.d.ps(<4 x float> zeroinitializer, ptr %base, <4 x i32> %idx, <4 x float> <float -1.0, float -1.0, float 1.0, float -0.0>, i8 4)
  ret <4 x float> %v
}

; A constant mask is decided at compile time: lanes 0, 1 and 3 (-0.0 has
; its sign bit set), no branch.
; CHECK-LABEL: define <4 x float> @gather_all(
; CHECK-NOT:     br
; CHECK:         extractelement <4 x i32> %idx, i64 0
; CHECK:         extractelement <4 x i32> %idx, i64 1
; CHECK-NOT:     extractelement <4 x i32> %idx, i64 2
; CHECK:         extractelement <4 x i32> %idx, i64 3
; CHECK-NOT:     br
; CHECK:         call <4 x float> @llvm.x86.avx2.gather.d.ps

define <2 x double> @gather_q(ptr %base, <2 x i64> %idx) {
  %v = call <2 x double> @llvm.x86.avx2.gather.q.pd(<2 x double> zeroinitializer, ptr %base, <2 x i64> %idx, <2 x double> <double -1.0, double -1.0>, i8 8)
  ret <2 x double> %v
}

; 64-bit indices, scale 8: two lanes.
; CHECK-LABEL: define <2 x double> @gather_q(
; CHECK:         %[[Q0:[^ ]+]] = extractelement <2 x i64> %idx, i64 0
; CHECK-NEXT:    mul i64 %[[Q0]], 8
; CHECK:         %[[Q1:[^ ]+]] = extractelement <2 x i64> %idx, i64 1
; CHECK-NEXT:    mul i64 %[[Q1]], 8
; CHECK-NOT:     extractelement
; CHECK:         call <2 x double> @llvm.x86.avx2.gather.q.pd

define void @scatter512(ptr %base, <16 x i1> %m, <16 x i32> %idx, <16 x float> %v) {
  call void @llvm.x86.avx512.mask.scatter.dps.512(ptr %base, <16 x i1> %m, <16 x i32> %idx, <16 x float> %v, i32 4)
  ret void
}

; AVX-512's scatter: an i1 mask, decided at run time, per lane.
; CHECK-LABEL: define void @scatter512(
; CHECK-COUNT-16: extractelement <16 x i1> %m
; CHECK:         call void @llvm.x86.avx512.mask.scatter.dps.512

define <8 x float> @maskload(ptr %p, <8 x i32> %m) {
  %v = call <8 x float> @llvm.x86.avx.maskload.ps.256(ptr %p, <8 x i32> %m)
  ret <8 x float> %v
}

; maskload: contiguous lanes, an integer mask's sign bits.
; CHECK-LABEL: define <8 x float> @maskload(
; CHECK:         %[[M0:[^ ]+]] = extractelement <8 x i32> %m, i64 0
; CHECK-NEXT:    %[[N0:[^ ]+]] = freeze i32 %[[M0]]
; CHECK-NEXT:    icmp slt i32 %[[N0]], 0
; CHECK:         getelementptr <8 x float>, ptr %p, i64 0, i64 0
; CHECK-COUNT-7: icmp slt i32
; CHECK:         call <8 x float> @llvm.x86.avx.maskload.ps.256

define void @maskmov(<16 x i8> %v, ptr %p) {
  call void @llvm.x86.sse2.maskmov.dqu(<16 x i8> %v, <16 x i8> <i8 -1, i8 0, i8 -128, i8 127, i8 0, i8 0, i8 0, i8 0, i8 0, i8 0, i8 0, i8 0, i8 0, i8 0, i8 0, i8 0>, ptr %p)
  ret void
}

; maskmovdqu: byte lanes 0 and 2 (-1 and -128 have the sign bit; 127 not).
; CHECK-LABEL: define void @maskmov(
; CHECK-NOT:     br
; CHECK:         getelementptr <16 x i8>, ptr %p, i64 0, i64 0
; CHECK:         getelementptr <16 x i8>, ptr %p, i64 0, i64 2
; CHECK-NOT:     getelementptr <16 x i8>
; CHECK:         call void @llvm.x86.sse2.maskmov.dqu

define void @maskmovq_const(x86_mmx %v, ptr %p) {
  call void @llvm.x86.mmx.maskmovq(x86_mmx %v, x86_mmx bitcast (double 0xFF0000000080FFFF to x86_mmx), ptr %p)
  ret void
}

; MMX's maskmovq (_mm_maskmove_si64), with the constant mask clang makes, a
; double bitcast to x86_mmx: its bytes, lowest first, are ff ff 80 00 00 00
; 00 ff, so byte lanes 0, 1, 2 and 7, known at compile time.
; CHECK-LABEL: define void @maskmovq_const(
; CHECK-NOT:     br
; CHECK:         getelementptr <8 x i8>, ptr %p, i64 0, i64 0
; CHECK:         getelementptr <8 x i8>, ptr %p, i64 0, i64 1
; CHECK:         getelementptr <8 x i8>, ptr %p, i64 0, i64 2
; CHECK:         getelementptr <8 x i8>, ptr %p, i64 0, i64 7
; CHECK-NOT:     getelementptr <8 x i8>
; CHECK:         call void @llvm.x86.mmx.maskmovq

define void @maskmovq_dyn(x86_mmx %v, <8 x i8> %m, x86_mmx %n, ptr %p, ptr %q) {
  %mm = bitcast <8 x i8> %m to x86_mmx
  call void @llvm.x86.mmx.maskmovq(x86_mmx %v, x86_mmx %mm, ptr %p)
  call void @llvm.x86.mmx.maskmovq(x86_mmx %v, x86_mmx %n, ptr %q)
  ret void
}

; A mask known at run time: clang's bitcast of an <8 x i8> is looked
; through; any other x86_mmx is bitcast back to bytes.  Each of the 8 lanes
; is tested by its sign bit.
; CHECK-LABEL: define void @maskmovq_dyn(
; CHECK:         extractelement <8 x i8> %m, i64 0
; CHECK:         icmp slt i8
; CHECK:         getelementptr <8 x i8>, ptr %p, i64 0, i64 0
; CHECK-COUNT-7: icmp slt i8
; CHECK:         call void @llvm.x86.mmx.maskmovq(x86_mmx %v, x86_mmx %mm, ptr %p)
; CHECK:         %[[B:[^ ]+]] = bitcast x86_mmx %n to <8 x i8>
; CHECK-NEXT:    extractelement <8 x i8> %[[B]], i64 0
; CHECK:         getelementptr <8 x i8>, ptr %q, i64 0, i64 0
; CHECK-COUNT-7: icmp slt i8
; CHECK:         call void @llvm.x86.mmx.maskmovq(x86_mmx %v, x86_mmx %n, ptr %q)

define <16 x i8> @lddqu(ptr %p) {
  %v = call <16 x i8> @llvm.x86.sse3.ldu.dq(ptr %p)
  ret <16 x i8> %v
}

; lddqu: one load.
; CHECK-LABEL: define <16 x i8> @lddqu(
; CHECK:         ptrtoint ptr %p to i64
; CHECK-COUNT-1: add i64 %heapprof.count
; CHECK-NEXT:    store i64
; CHECK-NEXT:    call <16 x i8> @llvm.x86.sse3.ldu.dq

define <4 x i32> @expand_const(ptr %p) {
  %v = call <4 x i32> @llvm.masked.expandload.v4i32(ptr %p, <4 x i1> <i1 false, i1 true, i1 false, i1 true>, <4 x i32> zeroinitializer)
  ret <4 x i32> %v
}

; expandload with a constant mask: active lanes 1 and 3 read elements 0 and 1.
; CHECK-LABEL: define <4 x i32> @expand_const(
; CHECK-NOT:     br
; CHECK:         getelementptr i32, ptr %p, i64 0
; CHECK:         getelementptr i32, ptr %p, i64 1
; CHECK-NOT:     getelementptr
; CHECK:         call <4 x i32> @llvm.masked.expandload

define void @compress_dyn(<4 x i32> %v, ptr %p, <4 x i1> %m) {
  call void @llvm.masked.compressstore.v4i32(<4 x i32> %v, ptr %p, <4 x i1> %m)
  ret void
}

; compressstore with a mask known at run time: lane k writes the element
; numbered by the active lanes below it (the mask's low k bits, counted).
; CHECK-LABEL: define void @compress_dyn(
; CHECK:         br i1
; CHECK:         %[[BITS:[^ ]+]] = bitcast <4 x i1> %{{[^ ]+}} to i4
; CHECK-NEXT:    %[[LOW:[^ ]+]] = and i4 %[[BITS]], 0
; CHECK-NEXT:    %[[CNT:[^ ]+]] = call i4 @llvm.ctpop.i4(i4 %[[LOW]])
; CHECK-NEXT:    %[[K:[^ ]+]] = zext i4 %[[CNT]] to i64
; CHECK-NEXT:    getelementptr i32, ptr %p, i64 %[[K]]
; CHECK:         and i4 %{{[^ ]+}}, 1
; CHECK:         and i4 %{{[^ ]+}}, 3
; CHECK:         and i4 %{{[^ ]+}}, 7
; CHECK:         call void @llvm.masked.compressstore

declare <4 x float> @llvm.x86.avx2.gather.d.ps(<4 x float>, ptr, <4 x i32>, <4 x float>, i8)
declare <2 x double> @llvm.x86.avx2.gather.q.pd(<2 x double>, ptr, <2 x i64>, <2 x double>, i8)
declare void @llvm.x86.avx512.mask.scatter.dps.512(ptr, <16 x i1>, <16 x i32>, <16 x float>, i32)
declare <8 x float> @llvm.x86.avx.maskload.ps.256(ptr, <8 x i32>)
declare void @llvm.x86.sse2.maskmov.dqu(<16 x i8>, <16 x i8>, ptr)
declare void @llvm.x86.mmx.maskmovq(x86_mmx, x86_mmx, ptr)
declare <16 x i8> @llvm.x86.sse3.ldu.dq(ptr)
declare <4 x i32> @llvm.masked.expandload.v4i32(ptr, <4 x i1>, <4 x i32>)
declare void @llvm.masked.compressstore.v4i32(<4 x i32>, ptr, <4 x i1>)
