; Loop-invariant addresses: the accesses to an address that does not change
; in a loop without calls, volatile or atomic operations are summed in a
; register (%heapprof.acc) and the sum is added to the counter on every exit
; of the loop, when it is not zero.  -heapprof-hoist-loop-invariant=0 keeps
; one update per access.  The loops' other accesses walk with a constant
; stride; -heapprof-strided-loops=0 keeps their updates in the loops, where
; these checks expect them (strided-*.ll test the walks).
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-strided-loops=0 -S %s | FileCheck %s
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-strided-loops=0 -heapprof-hoist-loop-invariant=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-strided-loops=0 -heapprof-false-sharing -S %s | FileCheck %s --check-prefix=FS

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; s += a[0]; out[i] = s;  n times.  a[0]'s reads are summed; out[i] is a
; different address each time and keeps its update in the loop.  The loop
; is entered from a block that also skips it, so the pass makes its exit
; block (and a preheader) first.
define i64 @sum_first(ptr %a, ptr %out, i64 %n) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %v = load i64, ptr %a, align 8
  %s.next = add i64 %s, %v
  %o = getelementptr inbounds i64, ptr %out, i64 %i
  store i64 %s.next, ptr %o, align 8
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  ret i64 %r
}
; CHECK-LABEL: define i64 @sum_first(
; CHECK:       loop:
; CHECK:         %heapprof.acc.0 = phi i64 [ 0, %{{.*}} ], [ %[[NEXT:.*]], %loop ]
; CHECK:         %[[NEXT]] = add i64 %heapprof.acc.0, 1
; CHECK-NEXT:    %v = load i64, ptr %a
; CHECK:         ptrtoint ptr %o to i64
; CHECK:         add i64 %heapprof.count{{.*}}, 1
; CHECK:         store i64 %s.next, ptr %o
; CHECK:         br i1 %more, label %loop, label %[[EXIT:.*]]
; CHECK:       [[EXIT]]:
; CHECK-NEXT:    %[[NZ:.*]] = icmp ne i64 %[[NEXT]], 0
; CHECK-NEXT:    br i1 %[[NZ]], label %[[ADD:.*]], label
; CHECK:       [[ADD]]:
; CHECK-NEXT:    ptrtoint ptr %a to i64
; CHECK:         %[[OLD:.*]] = load i64, ptr %{{.*}}, align 8, !nosanitize
; CHECK-NEXT:    add i64 %[[OLD]], %[[NEXT]]
; OFF-LABEL: define i64 @sum_first(
; OFF-NOT:       heapprof.acc
; OFF:         loop:
; OFF:           add i64 %heapprof.count{{.*}}, 1
; OFF-NEXT:      store
; OFF-NEXT:      %v = load i64, ptr %a
; With the false-sharing hook, stores keep their update and hook; reads
; of invariant addresses are still summed.
; FS-LABEL: define i64 @sum_first(
; FS:           %heapprof.acc.0 = phi
; FS:           call void @__heapprof_false_sharing_store(

; x[0] += 1 in a loop: load and store of %x share one "+2" (consolidation),
; summed: the accumulator grows by 2.
define void @bump(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %v = load i64, ptr %x, align 8
  %w = add i64 %v, 1
  store i64 %w, ptr %x, align 8
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
; CHECK-LABEL: define void @bump(
; CHECK:       loop:
; CHECK:         %[[SUM:.*]] = add i64 %heapprof.acc.0, 2
; CHECK:       done:
; CHECK:         icmp ne i64 %[[SUM]], 0
; FS-LABEL: define void @bump(
; FS-NOT:       heapprof.acc
; FS:           add i64 %heapprof.count, 2
; FS:           call void @__heapprof_false_sharing_store(

; A call in the loop may free the object or dump the profile: no sum.
define void @with_call(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %v = load i64, ptr %x, align 8
  call void @opaque(i64 %v)
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
; CHECK-LABEL: define void @with_call(
; CHECK-NOT:     heapprof.acc
; CHECK:         add i64 %heapprof.count, 1
; CHECK-NEXT:    store
; CHECK-NEXT:    %v = load i64, ptr %x

; A pure intrinsic is no call at run time: summed.
define void @with_intrinsic(ptr %x, ptr %out, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %v = load i64, ptr %x, align 8
  %c = call i64 @llvm.ctpop.i64(i64 %v)
  %o = getelementptr inbounds i64, ptr %out, i64 %i
  store i64 %c, ptr %o, align 8
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
; CHECK-LABEL: define void @with_intrinsic(
; CHECK:         %heapprof.acc.0 = phi

; A volatile (or atomic) access may wait for another thread: no sum.
define void @with_volatile(ptr %x, ptr %flag) {
entry:
  br label %loop
loop:
  %v = load i64, ptr %x, align 8
  %f = load volatile i32, ptr %flag, align 4
  %stop = icmp ne i32 %f, 0
  br i1 %stop, label %done, label %loop
done:
  ret void
}
; CHECK-LABEL: define void @with_volatile(
; CHECK-NOT:     heapprof.acc
; CHECK:         ret void

; The same with a trip count scalar evolution computes (n iterations): the
; loop would pass the rule on termination, so the volatile access alone
; keeps %x's reads counted in the loop, one update per iteration, where a
; checkpoint taken while the loop waits sees them.
define void @with_volatile_counted(ptr %x, ptr %flag, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %v = load i64, ptr %x, align 8
  %f = load volatile i32, ptr %flag, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
; CHECK-LABEL: define void @with_volatile_counted(
; CHECK-NOT:     heapprof.acc
; CHECK:       loop:
; CHECK:         ptrtoint ptr %x to i64
; CHECK:         add i64 %heapprof.count{{.*}}, 1
; CHECK:         %v = load i64, ptr %x
; CHECK-NOT:     heapprof.acc
; CHECK:         ret void

; No computable trip count and not mustprogress: it might never end, and
; the sum would never reach the counter.  Not summed.
define void @maybe_forever(ptr %x, ptr %y) {
entry:
  br label %loop
loop:
  %v = load i64, ptr %x, align 8
  %w = load i64, ptr %y, align 8
  %stop = icmp eq i64 %w, %v
  br i1 %stop, label %done, label %loop
done:
  ret void
}
; CHECK-LABEL: define void @maybe_forever(
; CHECK-NOT:     heapprof.acc
; CHECK:         ret void

; The same loop marked mustprogress (a C11/C++ loop with a non-constant
; condition): it must end, so it is summed, once for each address.
define void @must_end(ptr %x, ptr %y) {
entry:
  br label %loop
loop:
  %v = load i64, ptr %x, align 8
  %w = load i64, ptr %y, align 8
  %stop = icmp eq i64 %w, %v
  br i1 %stop, label %done, label %loop, !llvm.loop !0
done:
  ret void
}
; CHECK-LABEL: define void @must_end(
; CHECK:         %heapprof.acc{{.*}} = phi
; CHECK:         %heapprof.acc{{.*}} = phi

; Nested: %a is invariant in both loops and neither has a call, so the sum
; is taken out of the outer loop; %b[j] changes with the outer loop only,
; so its sum is taken out of the inner loop and added once per outer
; iteration.
define void @nested(ptr %a, ptr %b, i64 %n) {
entry:
  br label %outer
outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %outer.latch ]
  %bj = getelementptr inbounds i64, ptr %b, i64 %j
  br label %inner
inner:
  %i = phi i64 [ 0, %outer ], [ %i.next, %inner ]
  %v = load i64, ptr %a, align 8
  %w = load i64, ptr %bj, align 8
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %inner, label %outer.latch
outer.latch:
  %j.next = add nuw i64 %j, 1
  %again = icmp ult i64 %j.next, %n
  br i1 %again, label %outer, label %done
done:
  ret void
}
; CHECK-LABEL: define void @nested(
; CHECK:       outer:
; CHECK-NEXT:    %heapprof.acc.0 = phi i64 [ 0, %entry ], [ %[[A:.*]], %{{.*}} ]
; CHECK:       inner:
; CHECK-NEXT:    %[[BACC:heapprof.acc[0-9]+]].0 = phi i64 [ 0, %outer ], [ %[[B:.*]], %inner ]
; CHECK-NEXT:    %heapprof.acc.1 = phi i64 [ %heapprof.acc.0, %outer ], [ %[[A]], %inner ]
; CHECK:         %[[A]] = add i64 %heapprof.acc.1, 1
; CHECK-NEXT:    %v = load i64, ptr %a
; CHECK-NEXT:    %[[B]] = add i64 %[[BACC]].0, 1
; CHECK-NEXT:    %w = load i64, ptr %bj
; CHECK:       outer.latch:
; CHECK-NEXT:    icmp ne i64 %[[B]], 0
; CHECK:         ptrtoint ptr %bj to i64
; CHECK:       done:
; CHECK-NEXT:    icmp ne i64 %[[A]], 0
; CHECK:         ptrtoint ptr %a to i64

declare void @opaque(i64)
declare i64 @llvm.ctpop.i64(i64)

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.mustprogress"}
