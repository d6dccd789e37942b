; A walk downwards (stride -8) from a[n - 1]: the start is computed at the
; exit, the walk fits in its first granule when there are no more accesses
; than start % 64 / 8 + 1, and the record gets the negative stride.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; for (i = n - 1; i >= 0; i--) s += a[i];  entered when n > 0, so the
; loop runs n iterations.
define i64 @down(ptr %a, i64 %n) {
entry:
  %last = add nsw i64 %n, -1
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %loop, label %none
none:
  ret i64 0
loop:
  %i = phi i64 [ %last, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds i64, ptr %a, i64 %i
  %v = load i64, ptr %p, align 8
  %s.next = add i64 %s, %v
  %i.next = add nsw i64 %i, -1
  %more = icmp sgt i64 %i, 0
  br i1 %more, label %loop, label %done
done:
  ret i64 %s.next
}
; CHECK-LABEL: define i64 @down(
; CHECK:       loop:
; CHECK-NOT:     %heapprof.count
; CHECK:       done:
; CHECK:         %[[START:.*]] = getelementptr i8, ptr %a, i64 %{{.*}}
; CHECK-NEXT:    %heapprof.walk.start = freeze ptr %[[START]]
; CHECK:         %heapprof.walk.first = ptrtoint ptr %heapprof.walk.start to i64
; CHECK-NEXT:    %[[LOW:.*]] = and i64 %heapprof.walk.first, 63
; CHECK-NEXT:    %[[BELOW:.*]] = udiv i64 %[[LOW]], 8
; CHECK-NEXT:    %[[FIT:.*]] = add i64 %[[BELOW]], 1
; CHECK-NEXT:    %heapprof.walk.short = icmp ule i64 %n, %[[FIT]]
; CHECK:         call preserve_allcc void @__heapprof_record_strided(i64 %heapprof.walk.first, i64 -8, i64 %n, i64 1)
