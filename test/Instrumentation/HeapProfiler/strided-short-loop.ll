; A loop scalar evolution proves runs at most 3 iterations (a vectorized
; loop's remainder) keeps its per-access updates: at 3 instructions an
; update, the record at the exit would cost more than it saves
; (-heapprof-strided-min-trips, default 4).
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-strided-min-trips=0 -S %s | FileCheck %s --check-prefix=ALL

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @tail(ptr %a, i64 %n) {
entry:
  %rem = and i64 %n, 3
  %empty = icmp eq i64 %rem, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds i64, ptr %a, i64 %i
  store i64 %i, ptr %p, align 8
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %rem
  br i1 %more, label %loop, label %done
done:
  ret void
}
; CHECK-LABEL: define void @tail(
; CHECK-NOT:     heapprof.walked
; CHECK:       loop:
; CHECK:         add i64 %heapprof.count{{.*}}, 1
; CHECK-NEXT:    store
; CHECK-NEXT:    store i64 %i, ptr %p
; CHECK-NOT:     __heapprof_record_strided
; CHECK:         ret void
; ALL-LABEL: define void @tail(
; ALL:           call preserve_allcc void @__heapprof_record_strided(
