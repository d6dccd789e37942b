; The module pass adds an internal constructor, heapprof.module_ctor, at
; priority 1 and kept alive by llvm.used, that calls __heapprof_init() and
; then __heapprof_version_mismatch_check_v1() (unless
; -heapprof-guard-against-version-mismatch=0).  Running it twice adds nothing.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof),module(heapprof-module)' -S %s | FileCheck %s --check-prefixes=CHECK,GUARD
; RUN: %opt_heapprof -passes='function(heapprof),module(heapprof-module)' -heapprof-guard-against-version-mismatch=0 -S %s | FileCheck %s --check-prefixes=CHECK,NOGUARD
; RUN: %opt_heapprof -passes='heapprof-module,heapprof-module' -S %s | FileCheck %s --check-prefixes=CHECK,GUARD

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @llvm.used = appending global [1 x ptr] [ptr @heapprof.module_ctor], section "llvm.metadata"
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @heapprof.module_ctor, ptr null }]
; CHECK-NOT: __heapprof_profile_dir

define i32 @f(ptr %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}

; CHECK:         declare void @__heapprof_init()
; CHECK-LABEL: define internal void @heapprof.module_ctor()
; CHECK-NEXT:    call void @__heapprof_init()
; GUARD-NEXT:    call void @__heapprof_version_mismatch_check_v1()
; NOGUARD-NOT:   __heapprof_version_mismatch_check
; CHECK-NEXT:    ret void
; CHECK-NOT:   define internal void @heapprof.module_ctor
; GUARD:         declare void @__heapprof_version_mismatch_check_v1()
; NOGUARD-NOT:   __heapprof_version_mismatch_check
