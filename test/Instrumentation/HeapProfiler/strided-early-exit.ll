; A walk in a loop with two exits, one before the access and one after:
; the sum reaching each exit is the number of iterations that ran the
; access (the one that breaks before it does not count), and both exits
; record the walk.  The break's exit has no count scalar evolution knows,
; so this takes -heapprof-strided-unknown-trips (a sum in a register);
; by default the updates stay.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-strided-unknown-trips -S %s | FileCheck %s
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s --check-prefix=DEFAULT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; for (i = 0; i < n; i++) { if (stop[i]) break; s += a[i]; }
; stop[] is a global, not counted.
@stop = global [1000 x i8] zeroinitializer

define i64 @until(ptr %a, i64 %n) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %body ]
  %sp = getelementptr inbounds i8, ptr @stop, i64 %i
  %c = load i8, ptr %sp, align 1
  %brk = icmp ne i8 %c, 0
  br i1 %brk, label %done, label %body
body:
  %p = getelementptr inbounds i64, ptr %a, i64 %i
  %v = load i64, ptr %p, align 8
  %s.next = add i64 %s, %v
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi i64 [ 0, %entry ], [ %s, %loop ], [ %s.next, %body ]
  ret i64 %r
}
; The break in %loop leaves with the iterations before it; the exit at the
; end of %body with this one too.
; CHECK-LABEL: define i64 @until(
; CHECK:       loop:
; CHECK-NEXT:    %heapprof.walked.0 = phi i64 [ 0, %loop.preheader ], [ %heapprof.walked.next, %body ]
; CHECK:       body:
; CHECK-NOT:     %heapprof.count
; CHECK:         %heapprof.walked.next = add i64 %heapprof.walked.0, 1
; CHECK:       done.loopexit:
; CHECK-NEXT:    %[[N:.*]] = phi i64 [ %heapprof.walked.0, %loop ], [ %heapprof.walked.next, %body ]
; CHECK:         icmp ne i64 %[[N]], 0
; CHECK:         call preserve_allcc void @__heapprof_record_strided(i64 %heapprof.walk.first, i64 8, i64 %[[N]], i64 1)
; CHECK:         ret i64
; DEFAULT-LABEL: define i64 @until(
; DEFAULT-NOT:     heapprof.walked
; DEFAULT:       body:
; DEFAULT:         add i64 %heapprof.count{{.*}}, 1
; DEFAULT-NOT:     __heapprof_record_strided
; DEFAULT:         ret i64
