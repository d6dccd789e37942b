; Constant addresses are not heap: an access whose every possible
; underlying object is an integer constant cast to a pointer (a fixed
; mapping, a device register) is not counted, unless
; -heapprof-skip-constant-addresses=0.  One possibly-heap object is enough
; to count.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s --check-prefix=SKIP
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-skip-constant-addresses=0 -S %s | FileCheck %s --check-prefix=COUNT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @fixed(i64 %i) {
  %v = load i32, ptr inttoptr (i64 753664 to ptr), align 4
  %e = getelementptr inbounds i32, ptr inttoptr (i64 753664 to ptr), i64 %i
  store i32 %v, ptr %e, align 4
  ret i32 %v
}
; SKIP-LABEL: define i32 @fixed(
; SKIP-NOT:     heapprof
; SKIP:         ret i32 %v
; COUNT-LABEL: define i32 @fixed(
; COUNT:         %heapprof.count = load i64
; COUNT:         %v = load i32, ptr inttoptr (i64 753664 to ptr)
; COUNT:         ptrtoint ptr %e to i64
; COUNT:         store i32 %v, ptr %e

; A constant or a heap pointer: counted.
define i32 @fixed_or_heap(ptr %p, i1 %c) {
  %a = select i1 %c, ptr inttoptr (i64 753664 to ptr), ptr %p
  %v = load i32, ptr %a, align 4
  ret i32 %v
}
; SKIP-LABEL: define i32 @fixed_or_heap(
; SKIP:         ptrtoint ptr %a to i64
; SKIP:         %v = load i32, ptr %a

; The same with the operands the other way round: whichever of the
; underlying objects is looked at first, the possibly-heap one counts.
define i32 @heap_or_fixed(ptr %p, i1 %c) {
  %a = select i1 %c, ptr %p, ptr inttoptr (i64 753664 to ptr)
  %v = load i32, ptr %a, align 4
  ret i32 %v
}
; SKIP-LABEL: define i32 @heap_or_fixed(
; SKIP:         ptrtoint ptr %a to i64
; SKIP:         %v = load i32, ptr %a
