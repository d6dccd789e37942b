#!/bin/sh
# A symbolizer that never answers: it leaves a mark (if HANG_MARK names a
# file) and then waits for the process that ran it to die, at most 60 s
# (heapprof starts its symbolizer through a middle process, so the parent
# may already be gone or be init: never outlive the test).
[ -n "$HANG_MARK" ] && : > "$HANG_MARK"
i=0
while [ $i -lt 600 ] && kill -0 $PPID 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
