; AVX-512's truncating stores (_mm*_mask_cvt{,s,us}epi*_storeu_epi*, which
; clang 19 emits as llvm.x86.avx512.mask.pmov{,s,us}.XY.mem.N): lane i of the
; value, narrowed to X -> Y (b: 1 byte, w: 2, d: 4), is stored at
; ptr + i * sizeof(Y) when bit i of the integer mask is set. One counter
; update per active lane, at that lane's address.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @qb_dyn(ptr %p, <8 x i64> %v, i8 %m) {
  call void @llvm.x86.avx512.mask.pmov.qb.mem.512(ptr %p, <8 x i64> %v, i8 %m)
  ret void
}

; A mask known only at run time: lane i is tested as bit i (the and with
; 1 << i; frozen, since %m may be poison), and its byte is p + i.
; CHECK-LABEL: define void @qb_dyn(
; CHECK:         %[[S0:[^ ]+]] = and i8 %m, 1
; CHECK-NEXT:    %[[B0:[^ ]+]] = icmp ne i8 %[[S0]], 0
; CHECK-NEXT:    %[[F0:[^ ]+]] = freeze i1 %[[B0]]
; CHECK-NEXT:    br i1 %[[F0]]
; CHECK:         getelementptr <8 x i8>, ptr %p, i64 0, i64 0
; CHECK:         and i8 %m, 2
; CHECK:         getelementptr <8 x i8>, ptr %p, i64 0, i64 1
; CHECK:         and i8 %m, 4
; CHECK:         and i8 %m, 8
; CHECK:         and i8 %m, 16
; CHECK:         and i8 %m, 32
; CHECK:         and i8 %m, 64
; CHECK:         %[[S7:[^ ]+]] = and i8 %m, -128
; CHECK-NEXT:    icmp ne i8 %[[S7]], 0
; CHECK:         getelementptr <8 x i8>, ptr %p, i64 0, i64 7
; CHECK-NOT:     getelementptr
; CHECK:         call void @llvm.x86.avx512.mask.pmov.qb.mem.512

define void @db_const(ptr %p, <16 x i32> %v) {
  call void @llvm.x86.avx512.mask.pmovs.db.mem.512(ptr %p, <16 x i32> %v, i16 -32763)
  ret void
}

; A constant mask is decided at compile time: 0x8005 is bits 0, 2 and 15,
; the bytes p + 0, p + 2 and p + 15, with no branch (the signed-saturating
; form, pmovs, stores the same lanes).
; CHECK-LABEL: define void @db_const(
; CHECK-NOT:     br
; CHECK:         getelementptr <16 x i8>, ptr %p, i64 0, i64 0
; CHECK:         getelementptr <16 x i8>, ptr %p, i64 0, i64 2
; CHECK:         getelementptr <16 x i8>, ptr %p, i64 0, i64 15
; CHECK-NOT:     getelementptr
; CHECK-NOT:     br
; CHECK:         call void @llvm.x86.avx512.mask.pmovs.db.mem.512

define void @dw_all(ptr %p, <8 x i32> %v) {
  call void @llvm.x86.avx512.mask.pmovus.dw.mem.256(ptr %p, <8 x i32> %v, i8 -1)
  ret void
}

; All eight lanes of a 256-bit dword-to-word store: eight 2-byte lanes.
; CHECK-LABEL: define void @dw_all(
; CHECK-NOT:     br
; CHECK-COUNT-8: getelementptr <8 x i16>, ptr %p, i64 0, i64
; CHECK-NOT:     getelementptr
; CHECK:         call void @llvm.x86.avx512.mask.pmovus.dw.mem.256

define void @qd_128(ptr %p, <2 x i64> %v) {
  call void @llvm.x86.avx512.mask.pmov.qd.mem.128(ptr %p, <2 x i64> %v, i8 -1)
  ret void
}

; A 128-bit source has two lanes: only the mask's low two bits matter, so
; an all-ones i8 mask stores two dwords, not eight.
; CHECK-LABEL: define void @qd_128(
; CHECK:         getelementptr <2 x i32>, ptr %p, i64 0, i64 0
; CHECK:         getelementptr <2 x i32>, ptr %p, i64 0, i64 1
; CHECK-NOT:     getelementptr
; CHECK:         call void @llvm.x86.avx512.mask.pmov.qd.mem.128

define void @none(ptr %p, <32 x i16> %v) {
  call void @llvm.x86.avx512.mask.pmovus.wb.mem.512(ptr %p, <32 x i16> %v, i32 0)
  ret void
}

; A mask of zero stores nothing: nothing is counted.
; CHECK-LABEL: define void @none(
; CHECK-NOT:     getelementptr
; CHECK-NOT:     __heapprof_shadow_memory_dynamic_address
; CHECK:         call void @llvm.x86.avx512.mask.pmovus.wb.mem.512

declare void @llvm.x86.avx512.mask.pmov.qb.mem.512(ptr, <8 x i64>, i8)
declare void @llvm.x86.avx512.mask.pmovs.db.mem.512(ptr, <16 x i32>, i16)
declare void @llvm.x86.avx512.mask.pmovus.dw.mem.256(ptr, <8 x i32>, i8)
declare void @llvm.x86.avx512.mask.pmov.qd.mem.128(ptr, <2 x i64>, i8)
declare void @llvm.x86.avx512.mask.pmovus.wb.mem.512(ptr, <32 x i16>, i32)
