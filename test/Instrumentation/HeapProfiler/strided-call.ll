; A walk in a loop with a call keeps its update per access: the call could
; free the array, dump the profile or reset its counters, and must see
; every access before it counted.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @opaque()

define void @with_call(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds i64, ptr %a, i64 %i
  store i64 %i, ptr %p, align 8
  call void @opaque()
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
; CHECK-LABEL: define void @with_call(
; CHECK-NOT:     heapprof.walked
; CHECK:       loop:
; CHECK:         ptrtoint ptr %p to i64
; CHECK:         add i64 %heapprof.count{{.*}}, 1
; CHECK-NEXT:    store
; CHECK-NEXT:    store i64 %i, ptr %p
; CHECK-NEXT:    call void @opaque()
; CHECK-NOT:     __heapprof_record_strided
; CHECK:         ret void
