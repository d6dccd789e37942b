; -fheapprof=DIR reaches the runtime as __heapprof_profile_dir, a weak, hidden,
; COMDAT, NUL-terminated constant, from -heapprof-profile-dir=DIR or else the
; "HeapProfProfileDir" module flag; without either there is no such global.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='heapprof-module' -S %s | FileCheck %s --check-prefix=NONE
; RUN: %opt_heapprof -passes='heapprof-module' -heapprof-profile-dir=/tmp/prof -S %s | FileCheck %s --check-prefix=DIR
; RUN: sed -e 's/^;FLAG://' %s > %t.flag.ll
; RUN: %opt_heapprof -passes='heapprof-module' -S %t.flag.ll | FileCheck %s --check-prefix=FLAG
; RUN: %opt_heapprof -passes='heapprof-module' -heapprof-profile-dir=cli -S %t.flag.ll | FileCheck %s --check-prefix=CLI

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; NONE-NOT: __heapprof_profile_dir

; DIR: $__heapprof_profile_dir = comdat any
; DIR: @__heapprof_profile_dir = weak hidden constant [10 x i8] c"/tmp/prof\00", comdat
; DIR: @llvm.compiler.used = appending global [1 x ptr] [ptr @__heapprof_profile_dir], section "llvm.metadata"

; FLAG: @__heapprof_profile_dir = weak hidden constant [9 x i8] c"from-md/\00", comdat
; CLI: @__heapprof_profile_dir = weak hidden constant [4 x i8] c"cli\00", comdat

define void @f() {
  ret void
}

;FLAG:!llvm.module.flags = !{!0}
;FLAG:!0 = !{i32 1, !"HeapProfProfileDir", !"from-md/"}
