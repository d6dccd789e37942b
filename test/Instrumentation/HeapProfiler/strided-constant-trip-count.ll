; A walk of a constant 16 iterations: the sum at the exit is the constant
; 16, so there is no test for zero, and the record follows the loop
; directly.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i64 @sum16(ptr %a) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds i64, ptr %a, i64 %i
  %v = load i64, ptr %p, align 8
  %s.next = add i64 %s, %v
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, 16
  br i1 %more, label %loop, label %done
done:
  ret i64 %s.next
}
; CHECK-LABEL: define i64 @sum16(
; CHECK:       loop:
; CHECK-NOT:     %heapprof.count
; CHECK:         br i1 %more, label %loop, label %done
; CHECK:       done:
; CHECK-NEXT:    %heapprof.walk.start = freeze ptr %a
; CHECK-NEXT:    %heapprof.walk.first = ptrtoint ptr %heapprof.walk.start to i64
; CHECK:         %heapprof.walk.short = icmp ule i64 16,
; CHECK:         call preserve_allcc void @__heapprof_record_strided(i64 %heapprof.walk.first, i64 8, i64 16, i64 1)
