; -heapprof-mapping-granularity/-scale change the mask and shift (they must
; match the runtime's); a mapping without a whole u64 counter per granule is
; rejected with a clear message.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-mapping-granularity=128 -heapprof-mapping-scale=4 -S %s | FileCheck %s
; RUN: not %opt_heapprof -passes='function(heapprof)' -heapprof-mapping-granularity=32 -heapprof-mapping-scale=3 -S %s 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: not %opt_heapprof -passes='function(heapprof)' -heapprof-mapping-granularity=48 -S %s 2>&1 | FileCheck %s --check-prefix=BAD48

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @f(ptr %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @f(
; CHECK:         %[[A:[^ ]+]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    %[[G:[^ ]+]] = and i64 %[[A]], -128
; CHECK-NEXT:    lshr i64 %[[G]], 4

; BAD: heapprof: -heapprof-mapping-granularity=32 -heapprof-mapping-scale=3: the granularity must be a power of two with at least 8 shadow bytes per granule
; BAD48: heapprof: -heapprof-mapping-granularity=48 -heapprof-mapping-scale=3:
