; A walk whose trip count scalar evolution cannot give at the exit (a
; string's length).  By default it keeps its updates: such loops (scans,
; searches, varints) are mostly short, and the record costs more than the
; updates.  With -heapprof-strided-unknown-trips a sum in a register gives
; the count at the exit; the loop must still be certain to end
; (mustprogress here; the rule of the loop-invariant sums): one that may
; run forever keeps its updates.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-strided-unknown-trips -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; while (s[i]) i++;
define i64 @length(ptr %s) mustprogress {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds i8, ptr %s, i64 %i
  %c = load i8, ptr %p, align 1
  %nz = icmp ne i8 %c, 0
  %i.next = add nuw nsw i64 %i, 1
  br i1 %nz, label %loop, label %done
done:
  ret i64 %i
}
; DEFAULT-LABEL: define i64 @length(
; DEFAULT-NOT:     heapprof.walked
; DEFAULT:       loop:
; DEFAULT:         add i64 %heapprof.count{{.*}}, 1
; DEFAULT-NOT:     __heapprof_record_strided
; DEFAULT:         ret i64
; CHECK-LABEL: define i64 @length(
; CHECK:       loop:
; CHECK-NEXT:    %heapprof.walked.0 = phi i64
; CHECK-NOT:     %heapprof.count
; CHECK:       done:
; CHECK:         call preserve_allcc void @__heapprof_record_strided(i64 %heapprof.walk.first, i64 1, i64 %heapprof.walked.next, i64 1)

define i64 @length_maybe_forever(ptr %s) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds i8, ptr %s, i64 %i
  %c = load i8, ptr %p, align 1
  %nz = icmp ne i8 %c, 0
  %i.next = add nuw nsw i64 %i, 1
  br i1 %nz, label %loop, label %done
done:
  ret i64 %i
}
; CHECK-LABEL: define i64 @length_maybe_forever(
; CHECK-NOT:     heapprof.walked
; CHECK:       loop:
; CHECK:         add i64 %heapprof.count{{.*}}, 1
; CHECK-NEXT:    store
; CHECK-NEXT:    %c = load i8, ptr %p
; CHECK-NOT:     __heapprof_record_strided
; CHECK:         ret i64
