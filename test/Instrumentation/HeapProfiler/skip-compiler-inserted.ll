; Compiler-internal globals are never counted, even with
; -heapprof-instrument-globals: names starting with __llvm or __heapprof_,
; PGO counters (section __llvm_prf_*), sanitizer-coverage counters
; (__sancov_*).  Instructions marked !nosanitize are not counted either, nor
; accesses through null or undef.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-instrument-globals -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@__llvm_gcov_ctr = internal global [4 x i64] zeroinitializer
@__profc_f = private global [1 x i64] zeroinitializer, section "__llvm_prf_cnts", align 8
@__sancov_gen_ = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", align 1
@__heapprof_something = global i64 0
@user = global i64 0

define void @f(ptr %p) {
  %a = load i64, ptr @__llvm_gcov_ctr, align 8
  %a1 = add i64 %a, 1
  store i64 %a1, ptr @__llvm_gcov_ctr, align 8
  %b = load i64, ptr @__profc_f, align 8
  %b1 = add i64 %b, 1
  store i64 %b1, ptr @__profc_f, align 8
  %c = load i8, ptr @__sancov_gen_, align 1
  %d = load i64, ptr @__heapprof_something, align 8
  %e = load i64, ptr %p, align 8, !nosanitize !0
  %f = load i64, ptr null, align 8
  %u = load i64, ptr @user, align 8
  ret void
}
; CHECK-LABEL: define void @f(
; CHECK-NOT:     add i64 %heapprof.count
; CHECK:         %f = load i64, ptr null
; CHECK-NEXT:    and i64 ptrtoint (ptr @user to i64), -64
; CHECK:         %u = load i64, ptr @user
; CHECK-NOT:     add i64 %heapprof.count
; CHECK:         ret void

!0 = !{}
