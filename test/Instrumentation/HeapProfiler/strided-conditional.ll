; A walk whose access runs in some iterations only (here the odd ones) is
; not one the pass can record from an iteration count: its block does not
; dominate the latch, and the update stays where the access is.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i64 @odd(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %latch ]
  %bit = and i64 %i, 1
  %isodd = icmp ne i64 %bit, 0
  br i1 %isodd, label %then, label %latch
then:
  %p = getelementptr inbounds i64, ptr %a, i64 %i
  %v = load i64, ptr %p, align 8
  br label %latch
latch:
  %x = phi i64 [ %v, %then ], [ 0, %loop ]
  %s.next = add i64 %s, %x
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret i64 %s.next
}
; CHECK-LABEL: define i64 @odd(
; CHECK-NOT:     heapprof.walked
; CHECK:       then:
; CHECK:         ptrtoint ptr %p to i64
; CHECK:         add i64 %heapprof.count{{.*}}, 1
; CHECK-NEXT:    store
; CHECK-NEXT:    %v = load i64, ptr %p
; CHECK-NOT:     __heapprof_record_strided
; CHECK:         ret i64
