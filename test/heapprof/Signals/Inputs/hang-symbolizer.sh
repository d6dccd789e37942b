#!/bin/sh
# A symbolizer that never answers: it leaves a mark (if HANG_MARK names a
# file) and then waits for the profiled program to die, at most 60 s.  The
# program puts its pid in HANG_PID: heapprof starts its symbolizer through a
# middle process that exits at once, so $PPID is that process (gone a
# moment later: the wait would end at once, and the symbolizer would seem
# to have died) or init, depending on which ran first.
[ -n "$HANG_MARK" ] && : > "$HANG_MARK"
i=0
while [ $i -lt 600 ] && kill -0 "${HANG_PID:-$PPID}" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
