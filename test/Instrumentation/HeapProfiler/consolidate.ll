; Counter-update consolidation: accesses to the same address (one pointer
; value, or one base and the same constant offset) in one
; basic block, with nothing between them that could stop the second from
; running (a call, a possibly non-returning instruction), share one +N update.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-consolidate=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-use-callbacks -S %s | FileCheck %s --check-prefix=CALLBACKS

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; p->count++: a load and a store of %p -> one update of +2.
define void @increment(ptr %p) {
  %v = load i32, ptr %p, align 4
  %w = add i32 %v, 1
  store i32 %w, ptr %p, align 4
  ret void
}
; CHECK-LABEL: define void @increment(
; CHECK:         %[[C:.*]] = load i64, ptr %{{.*}}
; CHECK-NEXT:    %[[N:.*]] = add i64 %[[C]], 2
; CHECK-NEXT:    store i64 %[[N]]
; CHECK-NEXT:    %v = load i32, ptr %p
; CHECK-NOT:     load i64
; CHECK:         store i32 %w, ptr %p
; CHECK-NEXT:    ret void
; OFF-LABEL: define void @increment(
; OFF:           add i64 %{{.*}}, 1
; OFF:           %v = load i32, ptr %p
; OFF:           add i64 %{{.*}}, 1
; OFF:           store i32 %w, ptr %p
; Callbacks keep loads and stores apart: no merging.
; CALLBACKS-LABEL: define void @increment(
; CALLBACKS:       call void @__heapprof_load(
; CALLBACKS:       call void @__heapprof_store(

; Three accesses to %p, one to %q: +3 and +1.
define i32 @three_and_one(ptr %p, ptr %q) {
  %a = load i32, ptr %p, align 4
  %b = load i32, ptr %q, align 4
  store i32 %b, ptr %p, align 4
  %c = load i32, ptr %p, align 4
  %s = add i32 %a, %c
  ret i32 %s
}
; CHECK-LABEL: define i32 @three_and_one(
; CHECK:         add i64 %{{.*}}, 3
; CHECK:         %a = load i32, ptr %p
; CHECK:         add i64 %{{.*}}, 1
; CHECK:         %b = load i32, ptr %q
; CHECK-NOT:     add i64
; CHECK:         ret i32

; A call between the two may free, dump or never return: two updates.
define void @call_between(ptr %p) {
  %v = load i32, ptr %p, align 4
  call void @opaque()
  store i32 %v, ptr %p, align 4
  ret void
}
; CHECK-LABEL: define void @call_between(
; CHECK:         add i64 %{{.*}}, 1
; CHECK:         %v = load i32, ptr %p
; CHECK:         call void @opaque()
; CHECK:         add i64 %{{.*}}, 1
; CHECK:         store i32 %v, ptr %p

; Different blocks: the second access may not run.  Two updates.
define void @two_blocks(ptr %p, i1 %c) {
entry:
  %v = load i32, ptr %p, align 4
  br i1 %c, label %then, label %done
then:
  store i32 0, ptr %p, align 4
  br label %done
done:
  ret void
}
; CHECK-LABEL: define void @two_blocks(
; CHECK:         add i64 %{{.*}}, 1
; CHECK:       then:
; CHECK:         add i64 %{{.*}}, 1
; CHECK:         store i32 0, ptr %p

; Different addresses (offsets 0 and 4 of %p) are not merged: whether they
; are in one granule depends on where %p is.
define void @different_values(ptr %p) {
  %v = load i32, ptr %p, align 4
  %q = getelementptr i8, ptr %p, i64 4
  store i32 %v, ptr %q, align 4
  ret void
}
; CHECK-LABEL: define void @different_values(
; CHECK:         add i64 %{{.*}}, 1
; CHECK:         add i64 %{{.*}}, 1
; CHECK:         store i32 %v, ptr %q

; The same address through two pointer values (one base, the same constant
; offset): merged.
define void @same_address(ptr %p) {
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %v = load i32, ptr %q, align 4
  %r = getelementptr inbounds i32, ptr %p, i64 2
  store i32 %v, ptr %r, align 4
  ret void
}
; CHECK-LABEL: define void @same_address(
; CHECK:         add i64 %{{.*}}, 2
; CHECK-NOT:     add i64 %heapprof.count
; CHECK:         ret void
; OFF-LABEL: define void @same_address(
; OFF:           add i64 %{{.*}}, 1
; OFF:           add i64 %{{.*}}, 1

; An intrinsic that touches no memory and always returns (llvm.ctpop) is no
; call at run time: x = popcount(x) is one "+2".
define void @pure_intrinsic(ptr %p) {
  %v = load i64, ptr %p, align 8
  %c = call i64 @llvm.ctpop.i64(i64 %v)
  store i64 %c, ptr %p, align 8
  ret void
}
; CHECK-LABEL: define void @pure_intrinsic(
; CHECK:         add i64 %{{.*}}, 2
; CHECK-NOT:     add i64 %heapprof.count
; CHECK:         ret void

; llvm.trap does not return: a barrier.
define void @trap_between(ptr %p, i1 %c) {
  %v = load i64, ptr %p, align 8
  call void @llvm.trap()
  store i64 %v, ptr %p, align 8
  ret void
}
; CHECK-LABEL: define void @trap_between(
; CHECK:         add i64 %{{.*}}, 1
; CHECK:         call void @llvm.trap()
; CHECK:         add i64 %{{.*}}, 1

declare i64 @llvm.ctpop.i64(i64)
declare void @llvm.trap()
declare void @opaque()
